//! Reads arbitrary input as a page and `X-Robots-Tag` values; see
//! `norobots_fuzz::meta::run` for the input layout and the properties checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| norobots_fuzz::meta::run(data));
