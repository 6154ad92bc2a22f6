//! robots.txt over HTTP: fetch, interpret and cache `/robots.txt` for a
//! crawler, as each dialect's access method says.
//!
//! The core crate, [`norobots`], reads a file; this crate gets it. A
//! [`RobotsCache`] answers "may this robot fetch this URL?" for any URL on
//! the web: it finds the origin's robots.txt ([`Origin`]), fetches it once
//! (concurrent checks share one fetch), turns the HTTP answer into an
//! [`Access`] per dialect ([`access`]), keeps it as long as HTTP caching and
//! the dialect allow, revalidates it, and stands in a good copy while the
//! server is down.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), norobots_fetch::Error> {
//! use norobots_fetch::{Config, Decision, Origin, RobotsCache};
//!
//! let cache = RobotsCache::new(Config::default().user_agent("ExampleBot/1.0"))?;
//! // A crawler calls `check`, which fetches on a miss; here the cache is
//! // seeded with a copy so the example runs offline.
//! let origin = Origin::of("https://example.com/")?;
//! cache.insert(&origin, 200, Default::default(), b"User-agent: *\nDisallow: /private\n");
//!
//! assert!(cache.check("https://example.com/", "ExampleBot").await?.is_allowed());
//! match cache.check("https://example.com/private/x", "ExampleBot").await? {
//!     Decision::Disallow(why) => assert_eq!(why.to_string(), "line 2: Disallow: /private"),
//!     other => panic!("{other:?}"),
//! }
//! assert_eq!(cache.metrics().hits, 2);
//! # Ok(()) }
//! ```

#![deny(missing_docs)]

// The README's examples (the core library's and this crate's) run as
// doctests here, where both crates are in reach, so they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

mod cache;
mod config;
mod error;
mod fetch;
mod origin;
mod policy;

pub use cache::{Basis, Decision, Entry, Metrics, Permission, RobotsCache};
pub use config::Config;
pub use error::Error;
pub use fetch::{looks_like_html, Fetch, Fetcher};
pub use origin::{robots_url, Origin};
pub use policy::{
    access, is_failure, parse_retry_after, retry_wait, Access, Failure, Outcome, RedirectProblem,
};
