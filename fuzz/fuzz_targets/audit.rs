//! Audits arbitrary input as `robots.txt 0xFF access log`; see
//! `norobots_fuzz::tools::audit` for the properties checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| norobots_fuzz::tools::audit(data));
