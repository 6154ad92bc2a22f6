//! Lints arbitrary input as a robots.txt body in every dialect; see
//! `norobots_fuzz::tools::lint` for the properties checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| norobots_fuzz::tools::lint(data));
