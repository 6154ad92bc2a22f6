//! robots.txt over HTTP: fetch, interpret and cache `/robots.txt` for a
//! crawler, as each dialect's access method says.
//!
//! The core crate, [`norobots`], reads a file; this crate gets it. A
//! [`RobotsCache`] answers "may this robot fetch this URL?" for any URL on
//! the web: it finds the origin's robots.txt ([`Origin`]), fetches it once
//! (concurrent checks share one fetch), reads the HTTP answer as the
//! dialect says ([`Policy::of`]), keeps it as long as HTTP caching and the
//! dialect allow, revalidates it, and stands in a good copy while the
//! server is down.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), norobots_fetch::Error> {
//! use norobots_fetch::{Config, Decision, Origin, Reason, RobotsCache};
//!
//! let cache = RobotsCache::new(Config::default().user_agent("ExampleBot/1.0"))?;
//! // A crawler calls `check`, which fetches on a miss; here the cache is
//! // seeded with a copy so the example runs offline.
//! let origin = Origin::of("https://example.com/")?;
//! cache.insert(&origin, 200, Default::default(), b"User-agent: *\nDisallow: /private\n");
//!
//! assert!(cache.is_allowed("https://example.com/", "ExampleBot").await?);
//! match cache.check("https://example.com/private/x", "ExampleBot").await? {
//!     Decision::Disallow(Reason::Rule { line, .. }) => assert_eq!(line, 2),
//!     other => panic!("{other:?}"),
//! }
//! assert_eq!(cache.metrics().hits, 2);
//! # Ok(()) }
//! ```
//!
//! # What the answers are
//!
//! | type | what it answers | where you meet it |
//! |---|---|---|
//! | `bool` | may the robot fetch this URL now? (a deferral is `false`) | [`RobotsCache::is_allowed`], the crawl loop's call |
//! | [`Decision`] | the same, and why: `Allow(Reason)`, `Disallow(Reason)`, or `Defer { until, outcome }`: come back at `until` | [`RobotsCache::check`] |
//! | [`Reason`] | why allowed or disallowed: `Rule { line, kind, pattern }` of the file ([`Reason::rule`] gives the core's [`RuleRef`](norobots::RuleRef)), `NoRule`, or `Fetch(Outcome)`: no file to obey, the fetch decided for the whole origin | in a [`Decision`] |
//! | [`Outcome`] | how the fetch of robots.txt ended: `Status(u16)`, `Redirect(RedirectProblem)`, `Failure(Failure)` | [`Reason::Fetch`], [`Decision::Defer`], [`Fetch::outcome`] |
//! | [`Failure`] | why no answer came: 5xx or 429, timeout, no connection, a broken body, another network error (the client's error is its `source()`) | [`Outcome::Failure`], [`Entry::stale`] |
//! | [`RedirectProblem`] | why redirects led to no file | [`Outcome::Redirect`] |
//! | [`Policy`] | what the fetch means for every URL of the origin: obey the rules, allow all, disallow all, defer ([`Policy::of`] is the table per dialect) | [`Entry::policy`], for tools that show an origin |
//! | [`Entry`] | what the cache holds for an origin: the fetch, the parsed file, its policy and lifetime | [`RobotsCache::load`], [`RobotsCache::entry`] |
//! | [`Metrics`] | hits, misses, fetches, failures by kind | [`RobotsCache::metrics`] |
//! | [`Error`] | the call itself cannot be served: a URL that is not `http`/`https`, a client that cannot be set up; a server that misbehaves is never an `Error` | every `Result` |
//!
//! # Features
//!
//! - `serde` (off by default): `Serialize` on [`Decision`], [`Reason`],
//!   [`Outcome`], [`Failure`] (a transport failure as its [`cause`]),
//!   [`RedirectProblem`], [`Policy`] and [`Metrics`]. Variant names are
//!   kebab-case (`allow-all`, `no-rule`); times are what `serde` makes of
//!   a `SystemTime`.

#![deny(missing_docs)]

// The README's examples (the core library's and this crate's) run as
// doctests here, where both crates are in reach, so they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

// This crate's own README (shown on crates.io) runs as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;

mod cache;
mod config;
mod decision;
mod entry;
mod error;
mod fetch;
mod freshness;
mod metrics;
mod origin;
mod outcome;
mod policy;
mod refresh;
mod shards;

pub use cache::RobotsCache;
pub use config::Config;
pub use decision::{Decision, Reason};
pub use entry::Entry;
pub use error::Error;
pub use fetch::{looks_like_html, Fetch, Fetcher};
pub use metrics::Metrics;
pub use origin::{robots_url, Origin};
pub use outcome::{cause, Failure, Outcome, RedirectProblem};
pub use policy::{parse_retry_after, retry_wait, Policy};
