//! Stores an arbitrary server answer for `/robots.txt` in the cache; see
//! `norobots_fuzz::fetch::run` for the input layout and the properties
//! checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| norobots_fuzz::fetch::run(data));
