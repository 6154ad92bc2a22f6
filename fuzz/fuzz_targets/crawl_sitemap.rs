//! See `norobots_fuzz::crawl::sitemap` for what is read and checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| norobots_fuzz::crawl::sitemap(data));
