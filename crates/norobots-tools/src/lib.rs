//! The site owner's side of the Robots Exclusion Protocol: [`lint`] checks a
//! robots.txt the way its authors need, and [`audit`] reads access logs to
//! find the robots visiting a site and the ones that ignore its robots.txt.
//! Their text reports pass what strangers wrote through [`printable`], so
//! that it cannot drive the terminal they are read on.

#![deny(missing_docs)]

pub mod audit;
pub mod lint;
mod printable;

pub use printable::{printable, Escaped};
