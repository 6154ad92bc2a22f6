//! The crawl's state: the frontier (per-host queues with their
//! next-allowed time), the seen set, each URL's final decision, the
//! robots.txt answers and where the log stands. [`Store`] is the
//! interface the engine uses; [`sqlite::SqliteStore`] keeps it in one
//! SQLite file that survives SIGKILL at any moment, and
//! `postgres::PgStore` (feature `postgres`) in a PostgreSQL database that
//! any number of crawler processes share. The engine does not know which
//! it has.
//!
//! Times are milliseconds since the Unix epoch ([`now_ms`]), passed in by
//! the caller: a store never reads the clock, so that tests choose the
//! time (the exception is the PostgreSQL store's worker stamping its own
//! liveness, when it joins and in its heartbeat, which keeps a live
//! worker's leases from expiring).

#[cfg(feature = "postgres")]
pub mod postgres;
pub mod sqlite;
#[cfg(any(test, feature = "testing"))]
pub mod suite;

use std::collections::BTreeMap;
use std::future::Future;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::decision::{Decision, Reason};

/// A URL's row number in the store.
pub type UrlId = i64;

/// `t` in the store's unit of time, milliseconds since the Unix epoch (0
/// for a time before it).
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use norobots_crawl::store::millis;
///
/// assert_eq!(millis(UNIX_EPOCH + Duration::from_secs(2)), 2_000);
/// ```
pub fn millis(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Now, in the store's unit of time: what a caller passes as `now`.
///
/// ```
/// let now = norobots_crawl::store::now_ms();
/// assert!(now > 1_700_000_000_000); // after November 2023
/// ```
pub fn now_ms() -> i64 {
    millis(SystemTime::now())
}

/// How a URL came to be known.
///
/// ```
/// use norobots_crawl::store::Via;
/// assert_eq!(Via::Redirect.as_str(), "redirect");
/// assert_eq!(Via::from_str("sitemap"), Some(Via::Sitemap));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Via {
    /// Given by the user.
    Start,
    /// A link of a page.
    Link,
    /// A redirect's `Location`.
    Redirect,
    /// A sitemap named by robots.txt.
    Sitemap,
    /// The robot's own fetch of robots.txt or a sitemap.
    Robot,
}

impl Via {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Start => "start",
            Via::Link => "link",
            Via::Redirect => "redirect",
            Via::Sitemap => "sitemap",
            Via::Robot => "robot",
        }
    }

    /// The `Via` of a stored name.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(s: &str) -> Option<Via> {
        [
            Via::Start,
            Via::Link,
            Via::Redirect,
            Via::Sitemap,
            Via::Robot,
        ]
        .into_iter()
        .find(|v| v.as_str() == s)
    }
}

/// A URL to add: to the queue, or (with `outcome`) straight to its final
/// decision, as an out-of-scope link is.
#[derive(Clone, Debug, PartialEq)]
pub struct NewUrl {
    /// The normalised URL: the key of the seen set.
    pub url: String,
    /// Its origin (`http://host:port`): the queue it joins.
    pub origin: String,
    /// Its depth (start URLs are 0).
    pub depth: u32,
    /// The URL it was found on.
    pub parent: Option<UrlId>,
    /// How it was found.
    pub via: Via,
    /// Redirects that led to it.
    pub hops: u32,
    /// Its decision when it is decided on sight.
    pub outcome: Option<Final>,
}

/// A URL's final decision, as the log shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Final {
    /// What was decided.
    pub decision: Decision,
    /// Why.
    pub reason: Option<Reason>,
    /// The HTTP status, when a request was made.
    pub status: Option<u16>,
    /// The body's octets, when a request was made.
    pub bytes: Option<u64>,
    /// When it was decided.
    pub time: i64,
}

impl Final {
    /// A decision without status or size.
    ///
    /// ```
    /// use norobots_crawl::{store::Final, Decision};
    /// assert_eq!(Final::new(Decision::Duplicate, None, 0).status, None);
    /// ```
    pub fn new(decision: Decision, reason: Option<Reason>, time: i64) -> Final {
        Final {
            decision,
            reason,
            status: None,
            bytes: None,
            time,
        }
    }
}

/// A queued URL handed to the engine: it is the engine's until it is
/// completed or put back.
#[derive(Clone, Debug, PartialEq)]
pub struct Lease {
    /// Its row.
    pub id: UrlId,
    /// The URL.
    pub url: String,
    /// Its origin.
    pub origin: String,
    /// Its depth.
    pub depth: u32,
    /// The URL it was found on.
    pub parent: Option<UrlId>,
    /// How it was found.
    pub via: Via,
    /// Redirects that led to it.
    pub hops: u32,
    /// Requests already made for it that failed.
    pub attempts: u32,
    /// How often its host's robots.txt was deferred in a row.
    pub robots_tries: u32,
}

/// What to change in a host's row.
///
/// ```
/// let u = norobots_crawl::store::HostUpdate::default();
/// assert!(u.not_before.is_none() && u.delay_ms.is_none());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostUpdate {
    /// No request to the host before this time (the later of this and
    /// what the row holds is kept).
    pub not_before: Option<i64>,
    /// The least delay between two requests to the host, kept so that a
    /// claim holds the host for it at once.
    pub delay_ms: Option<i64>,
    /// How often its robots.txt was deferred in a row.
    pub robots_tries: Option<u32>,
}

/// The answer of [`Store::claim`].
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// URLs to process now.
    pub leases: Vec<Lease>,
    /// When the next host with queued URLs is due, if none is due now.
    pub next: Option<i64>,
    /// Nothing is queued and nothing is leased: the crawl is over.
    pub drained: bool,
}

/// A final decision in log order, with what the log line shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Decided {
    /// Its place in the log: 1, 2, 3, … without gaps.
    pub seq: i64,
    /// The URL.
    pub url: String,
    /// Its depth.
    pub depth: u32,
    /// The URL it was found on.
    pub parent: Option<String>,
    /// How it was found.
    pub via: Via,
    /// The decision.
    pub outcome: Final,
}

/// A robots.txt answer kept across restarts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RobotsRow {
    /// The origin it speaks for.
    pub origin: String,
    /// The HTTP status.
    pub status: u16,
    /// The response headers, as name and value.
    pub headers: Vec<(String, Vec<u8>)>,
    /// The body read.
    pub body: Vec<u8>,
    /// When it was fetched (ms).
    pub fetched_at: i64,
}

/// Counts for `--status`, the progress line and the summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// URLs waiting in queues.
    pub queued: u64,
    /// URLs being processed.
    pub leased: u64,
    /// Final decisions, by kind.
    pub decided: BTreeMap<Decision, u64>,
    /// Hosts with queued URLs.
    pub hosts_with_work: u64,
    /// Hosts with queued URLs that are not due yet.
    pub hosts_waiting: u64,
    /// Worker processes whose heartbeat is recent (a shared store; a
    /// store of one process says 0).
    pub workers: u64,
}

/// Per origin: final decisions by kind, for the summary.
pub type HostCounts = BTreeMap<String, BTreeMap<Decision, u64>>;

/// A robots row's headers as the stores keep them: JSON pairs of name
/// and value (values as text; a header that is not UTF-8 is read lossily,
/// which no freshness header is).
fn headers_json(headers: &[(String, Vec<u8>)]) -> String {
    serde_json::to_string(
        &headers
            .iter()
            .map(|(n, v)| (n.as_str(), String::from_utf8_lossy(v)))
            .collect::<Vec<_>>(),
    )
    .unwrap_or_else(|_| "[]".into())
}

/// The headers [`headers_json`] wrote.
fn headers_from_json(text: &str) -> Vec<(String, Vec<u8>)> {
    let pairs: Vec<(String, String)> = serde_json::from_str(text).unwrap_or_default();
    pairs
        .into_iter()
        .map(|(n, v)| (n, v.into_bytes()))
        .collect()
}

/// A store error: the database failed, or its thread is gone.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// SQLite said no.
    #[error("crawl store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL said no (after retrying what a restart or a lost
    /// connection explains).
    #[cfg(feature = "postgres")]
    #[error("crawl store: {}", postgres::describe(.0))]
    Postgres(#[from] tokio_postgres::Error),
    /// No PostgreSQL connection could be had.
    #[cfg(feature = "postgres")]
    #[error("crawl store: {0}")]
    Pool(#[from] deadpool_postgres::PoolError),
    /// The store cannot be used as asked (a worker of that name is
    /// running, an unusable address).
    #[error("crawl store: {0}")]
    Usage(String),
    /// The store was made by a newer version of norobots.
    #[error("crawl store: schema version {found} is newer than this norobots knows ({known})")]
    Newer {
        /// The file's version.
        found: i64,
        /// Ours.
        known: i64,
    },
    /// The commit this call's change was grouped into failed.
    #[error(transparent)]
    Grouped(std::sync::Arc<StoreError>),
    /// The store's thread ended (it failed before).
    #[error("crawl store: closed")]
    Closed,
}

/// The crawl's state, as the engine sees it. Every method is applied
/// whole or not at all, in the order of the calls; a store may group
/// calls into one commit, so after a crash it holds what the calls up to
/// some point did (at the latest the last [`Store::flush`]) and nothing of
/// later ones.
pub trait Store: Send + Sync + 'static {
    /// Makes every change so far durable.
    fn flush(&self) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Adds URLs; each is added once (the seen set), later additions of the
    /// same URL change nothing. Returns, per URL, whether it was new.
    fn add(&self, urls: Vec<NewUrl>) -> impl Future<Output = Result<Vec<bool>, StoreError>> + Send;

    /// Up to `max` due URLs, at most `per_host` in flight per host, each
    /// host's in the order they came; a host with a delay (its own, or at
    /// least `min_delay_ms`) gives one URL per claim and is held for its
    /// delay from `now`.
    fn claim(
        &self,
        now: i64,
        max: usize,
        per_host: u32,
        min_delay_ms: i64,
    ) -> impl Future<Output = Result<Claim, StoreError>> + Send;

    /// A leased URL is decided; its children are added as by
    /// [`Store::add`], and its host row updated. With `redirect`, the
    /// target is added too, and when it was known already the URL's
    /// decision becomes [`Decision::Duplicate`].
    fn complete(
        &self,
        id: UrlId,
        outcome: Final,
        children: Vec<NewUrl>,
        redirect: Option<NewUrl>,
        host: HostUpdate,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// A leased URL goes back to its queue (a retry, a wait for the host);
    /// `failed` counts an attempt.
    fn release(
        &self,
        id: UrlId,
        failed: bool,
        host: HostUpdate,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Every queued URL of `origin` gets `outcome` (its robots.txt could
    /// not be had); returns how many.
    fn finish_host(
        &self,
        origin: &str,
        outcome: Final,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// Every queued URL gets `outcome` (a quota was reached).
    fn finish_all(&self, outcome: Final) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// Updates a host's row (after its robots.txt was read, say).
    fn update_host(
        &self,
        origin: &str,
        host: HostUpdate,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Puts back the URLs a dead process had leased, for `--continue`;
    /// returns how many.
    fn recover(&self) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// Final decisions after `seq`, in log order, at most `limit`; only
    /// durable ones, so that a log written from them never holds a
    /// decision a crash could take back.
    fn decided_after(
        &self,
        seq: i64,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<Decided>, StoreError>> + Send;

    /// Where the log file stands: the last `seq` written and the file's
    /// length then.
    fn log_mark(&self) -> impl Future<Output = Result<(i64, u64), StoreError>> + Send;

    /// Records where the log file stands.
    fn set_log_mark(
        &self,
        seq: i64,
        len: u64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Keeps a robots.txt answer.
    fn put_robots(&self, row: RobotsRow) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The robots.txt answer kept for `origin`, if any: what another
    /// process (or an earlier run) fetched, so that robots.txt is
    /// fetched once per lifetime for the whole crawl.
    fn robots_of(
        &self,
        origin: &str,
    ) -> impl Future<Output = Result<Option<RobotsRow>, StoreError>> + Send;

    /// The counts, at `now`.
    fn stats(&self, now: i64) -> impl Future<Output = Result<Stats, StoreError>> + Send;

    /// Final decisions by origin and kind.
    fn host_counts(&self) -> impl Future<Output = Result<HostCounts, StoreError>> + Send;

    /// The longest a crawler with nothing to claim waits before it asks
    /// again, whenever it was told nothing sooner. A store of one process
    /// hears of all its work from its own crawler, which wakes itself; one
    /// that other processes share gets work (hosts they free, links their
    /// pages add) that nothing here announces, and asks to be looked at
    /// sooner.
    fn idle_look(&self) -> std::time::Duration {
        std::time::Duration::from_secs(1)
    }

    /// This process is done claiming (the crawl is over for it, or it
    /// stops): what it holds and has not started goes back to the queue,
    /// so that other processes sharing the store may take it at once.
    /// Returns how many URLs went back. A store of one process holds
    /// nothing it has not started, and gives back nothing.
    fn give_back(&self) -> impl Future<Output = Result<u64, StoreError>> + Send {
        std::future::ready(Ok(0))
    }

    /// The whole crawl's final decisions after position `after` (the
    /// `seq` of the last row returned, 0 at first), at most `limit`:
    /// every URL exactly once, whichever process decided it. A store of
    /// one process gives its log, as [`Store::decided_after`] does.
    fn job_log(
        &self,
        after: i64,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<Decided>, StoreError>> + Send {
        self.decided_after(after, limit)
    }
}
