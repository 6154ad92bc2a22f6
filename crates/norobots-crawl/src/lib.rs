//! A polite recursive web robot (work in progress).
#![deny(missing_docs)]

pub mod mirror;
pub mod sitemap;
pub mod warc;
