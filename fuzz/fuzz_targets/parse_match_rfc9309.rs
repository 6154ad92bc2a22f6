//! Parses and matches arbitrary input in the `rfc9309` dialect; see
//! `norobots_fuzz::run` for the input layout and the properties checked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use norobots::Dialect;

fuzz_target!(|data: &[u8]| norobots_fuzz::run(Dialect::Rfc9309, data));
