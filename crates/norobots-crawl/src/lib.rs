//! A polite recursive web robot, like `wget -r`, that obeys the site owner:
//! robots.txt in each dialect (through `norobots-fetch`'s cache), META
//! robots and `X-Robots-Tag`, `rel="nofollow"`, and a pace per host. Its
//! state is a [`store`] that survives SIGKILL at any moment; it writes a
//! mirror ([`mirror`]), a crawl log ([`log`]) and WARC files ([`warc`]).
//!
//! The modules form a DAG: [`decision`], [`normalize`], [`scope`] and
//! [`politeness`] are pure; [`store`], [`gate`] (robots.txt), [`page`]
//! (one request), [`mirror`], [`warc`], [`sitemap`] and [`log`] each do
//! one kind of I/O; [`engine`] alone knows the order of the stages.
//!
//! ```no_run
//! # #[tokio::main]
//! # async fn main() -> Result<(), norobots_crawl::CrawlError> {
//! use norobots_crawl::{store::sqlite::SqliteStore, Config, Crawler};
//!
//! let mut config = Config::new("mirror");
//! config.log = Some("mirror/crawl.jsonl".into());
//! let start = url::Url::parse("http://127.0.0.1:8080/").unwrap();
//! let store = SqliteStore::open(&norobots_crawl::default_store("mirror"))?;
//! let summary = Crawler::new(config, store, &[start.clone()])?.run(vec![start], false).await?;
//! println!("{} pages, {} octets", summary.fetched, summary.bytes);
//! # Ok(()) }
//! ```
#![deny(missing_docs)]

// The README's example builds as a doctest, so it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod config;
pub mod decision;
pub mod engine;
pub mod gate;
pub mod log;
pub mod mirror;
pub mod normalize;
pub mod page;
pub mod politeness;
pub mod scope;
pub mod sitemap;
pub mod store;
pub mod warc;

pub use config::Config;
pub use decision::{Decision, Reason};
pub use engine::{default_store, CrawlError, Crawler, Progress, RobotsNote, Summary};
