//! The site owner's side of the Robots Exclusion Protocol: [`lint`] checks a
//! robots.txt the way its authors need, and [`audit`] reads access logs to
//! find the robots visiting a site and the ones that ignore its robots.txt.

#![deny(missing_docs)]

pub mod audit;
pub mod lint;
