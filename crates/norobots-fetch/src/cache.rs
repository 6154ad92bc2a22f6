//! The per-origin cache: one entry per origin, one fetch at a time per
//! origin, answers from memory until the entry goes stale.
//!
//! Checks vastly outnumber fetches, so the hit path is short: the origin key
//! is cut out of the URL without parsing it, the entry is found in a sharded
//! map under a read lock, and the compiled [`Matcher`] for the agent answers.
//! It takes no lock that a fetch holds and allocates only to name a rule.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock, RwLock};
use std::time::{Duration, Instant, SystemTime};

use http::header::{HeaderMap, HeaderValue, IF_MODIFIED_SINCE, IF_NONE_MATCH, USER_AGENT};
use http_cache_semantics::{AfterResponse, BeforeRequest, CacheOptions, CachePolicy};
use norobots::{Dialect, Matcher, ParseOptions, RequestRate, Robots, RuleKind, VisitTime};
use tracing::debug;
use url::Url;

use crate::fetch::{Fetch, Fetcher};
use crate::origin::{fast_key, KeyBuf, Origin};
use crate::policy::{access, is_failure, retry_wait, Access, Failure, Outcome, RedirectProblem};
use crate::{Config, Error};

const SHARDS: usize = 16;

/// The longest an entry stays fresh, or a failed origin waits, whatever the
/// server or the configuration says. Lifetimes are added to the clocks, and
/// `Cache-Control: max-age=18446744073709551615` from a stranger's server
/// must not overflow them; to a crawler, a century is forever.
const FOREVER: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// What the cache says about one URL for one robot.
///
/// ```
/// use norobots_fetch::{Basis, Decision};
///
/// let d = Decision::Allow(Basis::NoRule);
/// assert!(d.is_allowed());
/// assert_eq!(d.to_string(), "allowed (no rule)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The robot may fetch the URL.
    Allow(Basis),
    /// The robot must not fetch the URL.
    Disallow(Basis),
    /// Come back later: the origin's robots.txt could not be had, and the
    /// dialect says to wait (the 1996 draft on 5xx and network errors; 429
    /// everywhere).
    Defer {
        /// When to ask again.
        until: SystemTime,
        /// What went wrong.
        outcome: Outcome,
    },
}

impl Decision {
    /// Whether the robot may fetch the URL now.
    ///
    /// ```
    /// use norobots_fetch::{Basis, Decision, Failure, Outcome};
    ///
    /// let later = Decision::Defer { until: std::time::SystemTime::now(), outcome: Outcome::Failure(Failure::Timeout) };
    /// assert!(!later.is_allowed());
    /// ```
    pub fn is_allowed(&self) -> bool {
        matches!(self, Decision::Allow(_))
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decision::Allow(b) => write!(f, "allowed ({b})"),
            Decision::Disallow(b) => write!(f, "disallowed ({b})"),
            Decision::Defer { until, outcome } => {
                write!(
                    f,
                    "deferred until {} ({outcome})",
                    httpdate::fmt_http_date(*until)
                )
            }
        }
    }
}

/// Why a URL is allowed or disallowed.
///
/// ```
/// use norobots::RuleKind;
/// use norobots_fetch::Basis;
///
/// let b = Basis::Rule { line: 3, kind: RuleKind::Disallow, pattern: "/x".into() };
/// assert_eq!(b.to_string(), "line 3: Disallow: /x");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Basis {
    /// A rule of the file decided.
    Rule {
        /// The rule's line (1-based).
        line: usize,
        /// `Allow` or `Disallow`.
        kind: RuleKind,
        /// The pattern as written.
        pattern: Box<str>,
    },
    /// The file was read and no rule matched.
    NoRule,
    /// There is no file to obey; how the fetch ended decided for the whole
    /// origin (see [`access`]).
    Fetch(Outcome),
}

impl fmt::Display for Basis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Basis::Rule {
                line,
                kind,
                pattern,
            } => write!(f, "line {line}: {kind}: {pattern}"),
            Basis::NoRule => f.write_str("no rule"),
            Basis::Fetch(o) => write!(f, "robots.txt: {o}"),
        }
    }
}

/// What the cache knows about one origin: the last answer for its
/// robots.txt and what it means.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use norobots_fetch::{Access, Origin, RobotsCache};
///
/// let cache = RobotsCache::new(Default::default()).unwrap();
/// let origin = Origin::of("https://example.com/").unwrap();
/// cache.insert(&origin, 200, Default::default(), b"Sitemap: https://example.com/s.xml\n");
/// let entry = cache.entry("https://example.com/a").unwrap().unwrap();
/// assert_eq!(entry.fetch().status, Some(200));
/// assert_eq!(*entry.access(), Access::Rules);
/// assert_eq!(entry.robots().sitemaps().next().unwrap().value(), "https://example.com/s.xml");
/// assert_eq!(entry.ttl(), std::time::Duration::from_secs(24 * 3600));
/// # }
/// ```
// `repr(C)` keeps what a hit reads (freshness, the first agent's name and
// matcher) together at the front, in the first cache lines of the entry.
#[repr(C)]
pub struct Entry {
    fresh_until: Instant,
    kind: Kind,
    first: OnceLock<First>,
    access: Access,
    expires: SystemTime,
    origin: Origin,
    fetch: Fetch,
    robots: Robots,
    html: bool,
    ttl: Duration,
    validated_at: SystemTime,
    policy: Option<CachePolicy>,
    /// Set when this is a good copy standing in during a failure.
    stale: Option<Failure>,
    failures: u32,
    failing_since: Option<SystemTime>,
    good: bool,
    others: RwLock<Vec<(Box<str>, Arc<Matcher>)>>,
}

/// The first agent an entry was asked about, with its name inline when it
/// is short (as product tokens are), so comparing it costs no pointer
/// chase.
#[repr(C)]
struct First {
    len: usize,
    short: [u8; SHORT_AGENT],
    matcher: Matcher,
    long: Box<str>,
}

/// Room for a product token in the entry's first cache line.
const SHORT_AGENT: usize = 32;

/// What [`Access`] an entry has, in one octet beside its freshness.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Rules,
    AllowAll,
    DisallowAll,
    Defer,
}

impl Kind {
    fn of(access: &Access) -> Kind {
        match access {
            Access::Rules => Kind::Rules,
            Access::AllowAll(_) => Kind::AllowAll,
            Access::DisallowAll(_) => Kind::DisallowAll,
            Access::Defer(_) => Kind::Defer,
        }
    }
}

impl First {
    fn new(agent: &str, matcher: Matcher) -> First {
        let mut short = [0; SHORT_AGENT];
        let long = if agent.len() <= SHORT_AGENT {
            short[..agent.len()].copy_from_slice(agent.as_bytes());
            Box::default()
        } else {
            agent.into()
        };
        First {
            len: agent.len(),
            short,
            long,
            matcher,
        }
    }

    #[inline]
    fn is(&self, agent: &str) -> bool {
        agent.len() == self.len
            && if self.len <= SHORT_AGENT {
                self.short[..self.len] == *agent.as_bytes()
            } else {
                *self.long == *agent
            }
    }
}

fn decide_by(matcher: &Matcher, url: &[u8]) -> Decision {
    let v = matcher.check_bytes(url);
    let basis = match v.rule {
        Some(r) => Basis::Rule {
            line: r.line,
            kind: r.kind,
            pattern: r.pattern.into(),
        },
        None => Basis::NoRule,
    };
    if v.allowed {
        Decision::Allow(basis)
    } else {
        Decision::Disallow(basis)
    }
}

#[inline]
fn permit_by(matcher: &Matcher, url: &str) -> Permission {
    if matcher.is_allowed(url) {
        Permission::Allowed
    } else {
        Permission::Disallowed
    }
}

/// The lean answer of [`RobotsCache::permission`]: no rule, no reason.
///
/// ```
/// use norobots_fetch::Permission;
/// assert_ne!(Permission::Allowed, Permission::Disallowed);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Permission {
    /// The robot may fetch the URL.
    Allowed,
    /// The robot must not fetch the URL.
    Disallowed,
    /// Ask again at this time.
    Deferred(SystemTime),
}

impl Entry {
    /// The origin this entry is for.
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// # cache.insert(&origin, 404, Default::default(), b"");
    /// let entry = cache.entry("http://a.example/x").unwrap().unwrap();
    /// assert_eq!(entry.origin().as_str(), "http://a.example");
    /// ```
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// The fetch that produced the file in use: URL, redirects, status,
    /// headers, size, timing. Its body has moved into [`Entry::robots`].
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// cache.insert(&origin, 404, Default::default(), b"");
    /// let entry = cache.entry("http://a.example/").unwrap().unwrap();
    /// assert_eq!(entry.fetch().status, Some(404));
    /// assert_eq!(entry.fetch().url.as_str(), "http://a.example/robots.txt");
    /// ```
    pub fn fetch(&self) -> &Fetch {
        &self.fetch
    }

    /// The parsed file (empty when there was none).
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// cache.insert(&origin, 200, Default::default(), b"User-agent: *\nCrawl-delay: 3\n");
    /// let entry = cache.entry("http://a.example/").unwrap().unwrap();
    /// assert_eq!(entry.robots().groups().len(), 1);
    /// ```
    pub fn robots(&self) -> &Robots {
        &self.robots
    }

    /// What the answer means for every URL of the origin.
    ///
    /// ```
    /// use norobots_fetch::{Access, Outcome};
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// cache.insert(&origin, 404, Default::default(), b"");
    /// let entry = cache.entry("http://a.example/").unwrap().unwrap();
    /// assert_eq!(*entry.access(), Access::AllowAll(Outcome::Status(404)));
    /// ```
    pub fn access(&self) -> &Access {
        &self.access
    }

    /// Whether the file served with a 2xx was an HTML page (parsed all the
    /// same; it usually yields no rules).
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// cache.insert(&origin, 200, Default::default(), b"<!DOCTYPE html><title>Home</title>");
    /// assert!(cache.entry("http://a.example/").unwrap().unwrap().is_html());
    /// ```
    pub fn is_html(&self) -> bool {
        self.html
    }

    /// The freshness lifetime the answer got when it was stored or last
    /// revalidated.
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(norobots_fetch::Config::new(norobots::Dialect::Draft1996)).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// cache.insert(&origin, 200, Default::default(), b"");
    /// let entry = cache.entry("http://a.example/").unwrap().unwrap();
    /// assert_eq!(entry.ttl().as_secs(), 7 * 24 * 3600);
    /// ```
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// When the entry goes stale (for a deferral: when to try again).
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// # cache.insert(&origin, 200, Default::default(), b"");
    /// let entry = cache.entry("http://a.example/").unwrap().unwrap();
    /// assert!(entry.expires() > std::time::SystemTime::now());
    /// ```
    pub fn expires(&self) -> SystemTime {
        self.expires
    }

    /// How long since the file in use was fetched or last revalidated.
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// # cache.insert(&origin, 200, Default::default(), b"");
    /// let entry = cache.entry("http://a.example/").unwrap().unwrap();
    /// assert!(entry.age() < std::time::Duration::from_secs(60));
    /// ```
    pub fn age(&self) -> Duration {
        SystemTime::now()
            .duration_since(self.validated_at)
            .unwrap_or_default()
    }

    /// Whether the entry is still fresh (a check answers without fetching).
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// # cache.insert(&origin, 200, Default::default(), b"");
    /// assert!(cache.entry("http://a.example/").unwrap().unwrap().is_fresh());
    /// ```
    pub fn is_fresh(&self) -> bool {
        Instant::now() < self.fresh_until
    }

    /// The failure this good copy is standing in for, if the last fetch
    /// failed (RFC 9309 2.4: a cached copy may be used while the server is
    /// unreachable).
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// # cache.insert(&origin, 200, Default::default(), b"");
    /// assert_eq!(cache.entry("http://a.example/").unwrap().unwrap().stale(), None);
    /// ```
    pub fn stale(&self) -> Option<&Failure> {
        self.stale.as_ref()
    }

    /// How many fetches in a row have failed.
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// # cache.insert(&origin, 200, Default::default(), b"");
    /// assert_eq!(cache.entry("http://a.example/").unwrap().unwrap().failures(), 0);
    /// ```
    pub fn failures(&self) -> u32 {
        self.failures
    }

    /// The crawl-delay the file sets for `agent`, if any.
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// cache.insert(&origin, 200, Default::default(), b"User-agent: *\nCrawl-delay: 4\n");
    /// let entry = cache.entry("http://a.example/").unwrap().unwrap();
    /// assert_eq!(entry.crawl_delay("FooBot"), Some(std::time::Duration::from_secs(4)));
    /// ```
    pub fn crawl_delay(&self, agent: &str) -> Option<std::time::Duration> {
        self.with_matcher(agent, |m| m.crawl_delay())
    }

    /// The request rate the file sets for `agent`, if any.
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// cache.insert(&origin, 200, Default::default(), b"User-agent: *\nRequest-rate: 3/1m\n");
    /// let entry = cache.entry("http://a.example/").unwrap().unwrap();
    /// let rate = entry.request_rate("FooBot").unwrap();
    /// assert_eq!((rate.requests, rate.seconds), (3, 60));
    /// ```
    pub fn request_rate(&self, agent: &str) -> Option<RequestRate> {
        self.with_matcher(agent, |m| m.request_rate())
    }

    /// The visit-time window the file sets for `agent`, if any.
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// cache.insert(&origin, 200, Default::default(), b"User-agent: *\nVisit-time: 0200-0400\n");
    /// let entry = cache.entry("http://a.example/").unwrap().unwrap();
    /// assert!(entry.visit_time("FooBot").unwrap().contains(3 * 60));
    /// ```
    pub fn visit_time(&self, agent: &str) -> Option<VisitTime> {
        self.with_matcher(agent, |m| m.visit_time())
    }

    /// Runs `f` with the compiled matcher for `agent`, compiling it on first
    /// use. Most crawlers use one agent, which lands in a lock-free slot.
    #[inline]
    fn with_matcher<R>(&self, agent: &str, f: impl FnOnce(&Matcher) -> R) -> R {
        let first = self
            .first
            .get_or_init(|| First::new(agent, self.robots.matcher(agent)));
        if first.is(agent) {
            return f(&first.matcher);
        }
        self.with_other_matcher(agent, f)
    }

    #[cold]
    fn with_other_matcher<R>(&self, agent: &str, f: impl FnOnce(&Matcher) -> R) -> R {
        let found = {
            let others = self.others.read().unwrap_or_else(|e| e.into_inner());
            others
                .iter()
                .find(|(a, _)| &**a == agent)
                .map(|(_, m)| Arc::clone(m))
        };
        let matcher = match found {
            Some(m) => m,
            None => {
                let m = Arc::new(self.robots.matcher(agent));
                let mut others = self.others.write().unwrap_or_else(|e| e.into_inner());
                // Bounded: a crawler has few agents, but callers may not.
                if others.len() >= 64 {
                    others.remove(0);
                }
                others.push((agent.into(), Arc::clone(&m)));
                m
            }
        };
        f(&matcher)
    }

    #[inline]
    fn permit(&self, url: &str, agent: &str) -> Permission {
        // `kind` copies what `access` says, to keep the hit in one cache line.
        debug_assert!(self.kind == Kind::of(&self.access));
        match self.kind {
            Kind::Rules => self.with_matcher(agent, |m| permit_by(m, url)),
            Kind::AllowAll => Permission::Allowed,
            Kind::DisallowAll => Permission::Disallowed,
            Kind::Defer => Permission::Deferred(self.expires),
        }
    }

    fn decide(&self, url: &[u8], agent: &str) -> Decision {
        match &self.access {
            Access::Rules => self.with_matcher(agent, |m| decide_by(m, url)),
            Access::AllowAll(o) => Decision::Allow(Basis::Fetch(o.clone())),
            Access::DisallowAll(o) => Decision::Disallow(Basis::Fetch(o.clone())),
            Access::Defer(o) => Decision::Defer {
                until: self.expires,
                outcome: o.clone(),
            },
        }
    }
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("origin", &self.origin)
            .field("status", &self.fetch.status)
            .field("access", &self.access)
            .field("ttl", &self.ttl)
            .field("stale", &self.stale)
            .field("failures", &self.failures)
            .finish()
    }
}

/// Counters a crawler operator watches, since the cache was made.
///
/// ```
/// let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
/// let m = cache.metrics();
/// assert_eq!((m.hits, m.misses, m.fetches), (0, 0, 0));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Metrics {
    /// Checks answered from a fresh entry.
    pub hits: u64,
    /// Checks that found no fresh entry and waited for a fetch.
    pub misses: u64,
    /// Of the misses, those that found the fetch already done by another
    /// check while they waited (a shared fetch).
    pub coalesced: u64,
    /// HTTP fetches started (a redirect chain counts once).
    pub fetches: u64,
    /// Fetches answered 304 Not Modified, renewing the copy.
    pub revalidated: u64,
    /// Failed fetches where a good copy stood in.
    pub stale_served: u64,
    /// Entries dropped to keep the cache within its size.
    pub evictions: u64,
    /// Failed fetches by kind ([`Failure::kind`]): `5xx`, `429`, `timeout`,
    /// `connect`, `body`, `network`.
    pub failures: Vec<(&'static str, u64)>,
    /// Origins in the cache now.
    pub entries: u64,
}

const FAILURE_KINDS: [&str; 6] = ["5xx", "429", "timeout", "connect", "body", "network"];

#[derive(Default)]
struct Counters {
    misses: AtomicU64,
    coalesced: AtomicU64,
    fetches: AtomicU64,
    revalidated: AtomicU64,
    stale_served: AtomicU64,
    evictions: AtomicU64,
    failures: [AtomicU64; 6],
}

/// A shard of the map, padded so that two shards' locks never share a
/// cache line: hits on different origins then do not contend.
#[repr(align(128))]
struct Shard {
    map: RwLock<Map>,
    hits: AtomicU64,
}

/// A fast hasher, seeded at random per cache: origins come from URLs that
/// strangers write, so bucket collisions must not be predictable.
type Hasher = foldhash::fast::RandomState;
type Map = HashMap<Box<str>, Slot, Hasher>;

/// Kept inline in the map, so a hit reads the entry pointer from the bucket
/// it found rather than from one more allocation. The entry is replaced
/// under the shard's write lock, which only a finished fetch takes.
struct Slot {
    entry: Option<Arc<Entry>>,
    /// Held while the origin is fetched: the checks that miss meanwhile
    /// wait here and then find the new entry, so one fetch serves them all.
    loading: Arc<tokio::sync::Mutex<()>>,
    last_used: AtomicU32,
}

/// A cache of robots.txt files keyed by origin, fetching on demand.
///
/// Cloning is cheap and shares the cache. See the [crate](crate) example.
///
/// ```
/// let cache = norobots_fetch::RobotsCache::new(norobots_fetch::Config::default()).unwrap();
/// let shared = cache.clone();
/// assert_eq!(shared.metrics().entries, 0);
/// ```
#[derive(Clone)]
pub struct RobotsCache {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    fetcher: Fetcher,
    shards: Box<[Shard]>,
    shard_cap: usize,
    hasher: Hasher,
    counters: Counters,
    epoch: Instant,
}

impl fmt::Debug for RobotsCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RobotsCache")
            .field("dialect", &self.inner.config.dialect)
            .field("metrics", &self.metrics())
            .finish()
    }
}

impl RobotsCache {
    /// A cache with `config`.
    ///
    /// ```
    /// use norobots_fetch::{Config, RobotsCache};
    /// let cache = RobotsCache::new(Config::new(norobots::Dialect::Google).max_entries(1000)).unwrap();
    /// assert_eq!(cache.config().max_entries, 1000);
    /// ```
    pub fn new(config: Config) -> Result<RobotsCache, Error> {
        let fetcher = Fetcher::new(&config)?;
        let hasher = Hasher::default();
        let shards = (0..SHARDS)
            .map(|_| Shard {
                map: RwLock::new(Map::with_hasher(hasher.clone())),
                hits: AtomicU64::new(0),
            })
            .collect();
        let shard_cap = config.max_entries.div_ceil(SHARDS).max(1);
        Ok(RobotsCache {
            inner: Arc::new(Inner {
                config,
                fetcher,
                shards,
                shard_cap,
                hasher,
                counters: Counters::default(),
                epoch: Instant::now(),
            }),
        })
    }

    /// The settings in force.
    ///
    /// ```
    /// let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// assert_eq!(cache.config().dialect, norobots::Dialect::Rfc9309);
    /// ```
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// Whether `agent` may fetch `url` now: from the cache when the
    /// origin's entry is fresh, else after fetching its robots.txt (once,
    /// however many checks wait for it).
    ///
    /// `url` is a full `http` or `https` URL; the agent is read as the
    /// dialect reads it (see [`Robots::matcher`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use norobots_fetch::{Basis, Decision, Origin, RobotsCache};
    ///
    /// let cache = RobotsCache::new(Default::default()).unwrap();
    /// cache.insert(&Origin::of("http://a.example").unwrap(), 200, Default::default(), b"User-agent: *\nDisallow: /x\n");
    /// let d = cache.check("http://a.example/x/1", "FooBot").await.unwrap();
    /// assert!(!d.is_allowed());
    /// assert!(cache.check("ftp://a.example/", "FooBot").await.is_err());
    /// # }
    /// ```
    pub async fn check(&self, url: &str, agent: &str) -> Result<Decision, Error> {
        self.answer(url, |entry| entry.decide(url.as_bytes(), agent))
            .await
    }

    /// [`RobotsCache::check`] for a URL that need not be UTF-8 (a line of a
    /// Latin-1 log): the rules are tried on its octets, as
    /// [`Matcher::check_bytes`] does. Only the origin must be text; it is
    /// read from the URL with what is not UTF-8 replaced, which leaves any
    /// valid origin as it is.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use norobots_fetch::{Origin, RobotsCache};
    ///
    /// let cache = RobotsCache::new(Default::default()).unwrap();
    /// cache.insert(&Origin::of("http://a.example").unwrap(), 200, Default::default(), b"User-agent: *\nDisallow: /caf%E9\n");
    /// let d = cache.check_bytes(b"http://a.example/caf\xE9", "FooBot").await.unwrap();
    /// assert!(!d.is_allowed());
    /// # }
    /// ```
    pub async fn check_bytes(&self, url: &[u8], agent: &str) -> Result<Decision, Error> {
        let text = String::from_utf8_lossy(url);
        self.answer(&text, |entry| entry.decide(url, agent)).await
    }

    /// Whether `agent` may fetch `url` now, without naming the rule: the
    /// lean form of [`RobotsCache::check`] for crawl loops, which allocates
    /// nothing on a hit.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use norobots_fetch::{Origin, Permission, RobotsCache};
    ///
    /// let cache = RobotsCache::new(Default::default()).unwrap();
    /// cache.insert(&Origin::of("http://a.example").unwrap(), 200, Default::default(), b"User-agent: *\nDisallow: /x\n");
    /// assert_eq!(cache.permission("http://a.example/x", "FooBot").await.unwrap(), Permission::Disallowed);
    /// assert_eq!(cache.permission("http://a.example/y", "FooBot").await.unwrap(), Permission::Allowed);
    /// # }
    /// ```
    pub async fn permission(&self, url: &str, agent: &str) -> Result<Permission, Error> {
        self.answer(url, |entry| entry.permit(url, agent)).await
    }

    /// `f` applied to the fresh entry of `url`'s origin, from the cache or
    /// after a fetch.
    async fn answer<R>(&self, url: &str, f: impl Fn(&Entry) -> R) -> Result<R, Error> {
        let mut buf = KeyBuf::new();
        let owned;
        let key = match fast_key(url, &mut buf) {
            Some(key) => key,
            None => {
                owned = Origin::of(url)?;
                owned.as_str()
            }
        };
        if let Some(answer) = self.with_fresh(key, &f) {
            return Ok(answer);
        }
        Ok(f(&*self.load_key(key).await))
    }

    /// Runs `f` on the entry for `key` if it is fresh, under the shard's
    /// read lock: no reference count is touched on a hit.
    #[inline]
    fn with_fresh<R>(&self, key: &str, f: impl FnOnce(&Entry) -> R) -> Option<R> {
        let inner = &*self.inner;
        let shard = inner.shard(key);
        let map = shard.map.read().unwrap_or_else(|e| e.into_inner());
        let slot = map.get(key)?;
        let entry = slot.entry.as_deref()?;
        let now = Instant::now();
        if now >= entry.fresh_until {
            return None;
        }
        let tick = inner.tick(now);
        if slot.last_used.load(Relaxed) != tick {
            slot.last_used.store(tick, Relaxed);
        }
        shard.hits.fetch_add(1, Relaxed);
        Some(f(entry))
    }

    /// The entry for `url`'s origin, fetching its robots.txt unless a fresh
    /// entry is cached. For tools that show what was fetched (status,
    /// headers, groups, sitemaps).
    ///
    /// ```no_run
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// let entry = cache.load("https://example.com/").await.unwrap();
    /// println!("{:?} {} {:?}", entry.fetch().status, entry.access(), entry.ttl());
    /// # }
    /// ```
    pub async fn load(&self, url: &str) -> Result<Arc<Entry>, Error> {
        let origin = Origin::of(url)?;
        Ok(self.load_key(origin.as_str()).await)
    }

    /// Whether a fresh entry for `url`'s origin is cached, so that the next
    /// check answers without a fetch: for a crawler that must know when a
    /// check is the one that fetches (a request to the host). Costs what a
    /// hit costs, and counts as none.
    ///
    /// ```
    /// use norobots_fetch::{Origin, RobotsCache};
    ///
    /// let cache = RobotsCache::new(Default::default()).unwrap();
    /// assert!(!cache.is_fresh("http://a.example/x"));
    /// cache.insert(&Origin::of("http://a.example").unwrap(), 404, Default::default(), b"");
    /// assert!(cache.is_fresh("http://a.example/x"));
    /// assert!(!cache.is_fresh("not a url"));
    /// ```
    pub fn is_fresh(&self, url: &str) -> bool {
        let mut buf = KeyBuf::new();
        let owned;
        let key = match fast_key(url, &mut buf) {
            Some(key) => key,
            None => match Origin::of(url) {
                Ok(origin) => {
                    owned = origin;
                    owned.as_str()
                }
                Err(_) => return false,
            },
        };
        let shard = self.inner.shard(key);
        let map = shard.map.read().unwrap_or_else(|e| e.into_inner());
        map.get(key)
            .and_then(|slot| slot.entry.as_deref())
            .is_some_and(|entry| Instant::now() < entry.fresh_until)
    }

    /// The entry cached for `url`'s origin, fresh or not, without fetching.
    ///
    /// ```
    /// let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// assert!(cache.entry("https://example.com/").unwrap().is_none());
    /// ```
    pub fn entry(&self, url: &str) -> Result<Option<Arc<Entry>>, Error> {
        let origin = Origin::of(url)?;
        let shard = self.inner.shard(origin.as_str());
        let map = shard.map.read().unwrap_or_else(|e| e.into_inner());
        Ok(map.get(origin.as_str()).and_then(|s| s.entry.clone()))
    }

    /// Stores a robots.txt answer as if it had just been fetched: a copy
    /// from a store, a test. Its freshness follows `headers` as a fetched
    /// answer's would.
    ///
    /// ```
    /// use norobots_fetch::{Origin, RobotsCache};
    ///
    /// let cache = RobotsCache::new(Default::default()).unwrap();
    /// let mut headers = http::HeaderMap::new();
    /// headers.insert("cache-control", "max-age=60".parse().unwrap());
    /// cache.insert(&Origin::of("http://a.example").unwrap(), 200, headers, b"User-agent: *\nDisallow: /\n");
    /// let entry = cache.entry("http://a.example/").unwrap().unwrap();
    /// assert_eq!(entry.ttl().as_secs(), 60);
    /// ```
    pub fn insert(&self, origin: &Origin, status: u16, headers: HeaderMap, body: &[u8]) {
        self.insert_at(origin, status, headers, body, SystemTime::now());
    }

    /// [`RobotsCache::insert`] for an answer that came at `fetched_at`: a
    /// copy a crawler kept in its store across a restart. Its lifetime is
    /// counted from then, so a copy fetched an hour ago with a day of
    /// freshness has 23 hours left, and one past its lifetime is fetched
    /// again on the next check.
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use norobots_fetch::{Origin, RobotsCache};
    ///
    /// let cache = RobotsCache::new(Default::default()).unwrap();
    /// let origin = Origin::of("http://a.example").unwrap();
    /// let hour_ago = SystemTime::now() - Duration::from_secs(3600);
    /// cache.insert_at(&origin, 200, Default::default(), b"User-agent: *\nDisallow: /\n", hour_ago);
    /// let entry = cache.entry("http://a.example/").unwrap().unwrap();
    /// assert!(entry.is_fresh());
    /// assert_eq!(entry.ttl().as_secs(), 24 * 3600);
    /// let two_days_ago = SystemTime::now() - Duration::from_secs(2 * 24 * 3600);
    /// cache.insert_at(&origin, 200, Default::default(), b"", two_days_ago);
    /// assert!(!cache.entry("http://a.example/").unwrap().unwrap().is_fresh());
    /// ```
    pub fn insert_at(
        &self,
        origin: &Origin,
        status: u16,
        headers: HeaderMap,
        body: &[u8],
        fetched_at: SystemTime,
    ) {
        let url = origin.robots_url();
        let outcome = if is_failure(&Outcome::Status(status)) {
            Outcome::Failure(Failure::Status(status))
        } else {
            Outcome::Status(status)
        };
        let fetch = Fetch {
            url: url.clone(),
            final_url: url,
            redirects: Vec::new(),
            outcome,
            status: Some(status),
            headers,
            request_headers: self.inner.request_headers(),
            body: body.to_vec(),
            bytes: body.len(),
            truncated: false,
            fetched_at,
            elapsed: Duration::ZERO,
            retry_after: None,
        };
        let mut entry = self.inner.build(origin.clone(), fetch, None);
        // `build` counts freshness from now; what is left of it is what
        // remains until the copy expires.
        let left = entry
            .expires
            .duration_since(SystemTime::now())
            .unwrap_or_default();
        entry.fresh_until = Instant::now() + left;
        self.inner.store(origin.as_str(), Arc::new(entry));
    }

    /// Drops every entry.
    ///
    /// ```
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # cache.insert(&norobots_fetch::Origin::of("http://a.example").unwrap(), 404, Default::default(), b"");
    /// cache.clear();
    /// assert_eq!(cache.metrics().entries, 0);
    /// ```
    pub fn clear(&self) {
        for shard in self.inner.shards.iter() {
            shard.map.write().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }

    /// The counters so far.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # cache.insert(&norobots_fetch::Origin::of("http://a.example").unwrap(), 404, Default::default(), b"");
    /// cache.check("http://a.example/", "FooBot").await.unwrap();
    /// let m = cache.metrics();
    /// assert_eq!((m.hits, m.misses, m.entries), (1, 0, 1));
    /// # }
    /// ```
    pub fn metrics(&self) -> Metrics {
        let c = &self.inner.counters;
        let mut hits = 0;
        let mut entries = 0;
        for shard in self.inner.shards.iter() {
            hits += shard.hits.load(Relaxed);
            entries += shard.map.read().unwrap_or_else(|e| e.into_inner()).len() as u64;
        }
        Metrics {
            hits,
            misses: c.misses.load(Relaxed),
            coalesced: c.coalesced.load(Relaxed),
            fetches: c.fetches.load(Relaxed),
            revalidated: c.revalidated.load(Relaxed),
            stale_served: c.stale_served.load(Relaxed),
            evictions: c.evictions.load(Relaxed),
            failures: FAILURE_KINDS
                .iter()
                .zip(&c.failures)
                .map(|(k, n)| (*k, n.load(Relaxed)))
                .collect(),
            entries,
        }
    }

    /// Makes sure the origin `key` has a fresh entry, fetching if needed,
    /// and returns it.
    async fn load_key(&self, key: &str) -> Arc<Entry> {
        let inner = &*self.inner;
        let (loading, current) = inner.slot(key);
        if let Some(entry) = current {
            if Instant::now() < entry.fresh_until {
                return entry;
            }
        }
        inner.counters.misses.fetch_add(1, Relaxed);
        let _loading = loading.lock().await;
        let previous = inner.current(key);
        if let Some(entry) = &previous {
            if Instant::now() < entry.fresh_until {
                inner.counters.coalesced.fetch_add(1, Relaxed);
                return Arc::clone(entry);
            }
        }
        // The key came from an http(s) URL, so it is a valid origin.
        let origin = Origin::of(key).expect("origin keys are valid origins");
        let entry = Arc::new(inner.refresh(origin, previous).await);
        inner.store(key, Arc::clone(&entry));
        entry
    }
}

impl Inner {
    fn shard(&self, key: &str) -> &Shard {
        use std::hash::BuildHasher;
        // The high bits: the shard's map picks buckets with the low ones.
        &self.shards[(self.hasher.hash_one(key) >> 60) as usize % SHARDS]
    }

    fn tick(&self, now: Instant) -> u32 {
        now.duration_since(self.epoch).as_secs() as u32
    }

    fn request_headers(&self) -> HeaderMap {
        let mut h = HeaderMap::new();
        if let Ok(v) = HeaderValue::from_str(&self.config.user_agent) {
            h.insert(USER_AGENT, v);
        }
        h
    }

    /// The fetch lock and the current entry of `key`'s slot, made if
    /// missing.
    fn slot(&self, key: &str) -> (Arc<tokio::sync::Mutex<()>>, Option<Arc<Entry>>) {
        let shard = self.shard(key);
        if let Some(slot) = shard.map.read().unwrap_or_else(|e| e.into_inner()).get(key) {
            return (Arc::clone(&slot.loading), slot.entry.clone());
        }
        let mut map = shard.map.write().unwrap_or_else(|e| e.into_inner());
        let slot = self.make_slot(&mut map, key);
        (Arc::clone(&slot.loading), slot.entry.clone())
    }

    /// The slot of `key` in a write-locked shard, made if missing; makes
    /// room first when the shard is full.
    fn make_slot<'m>(&self, map: &'m mut Map, key: &str) -> &'m mut Slot {
        if !map.contains_key(key) {
            if map.len() >= self.shard_cap {
                self.evict(map);
            }
            let slot = Slot {
                entry: None,
                loading: Arc::new(tokio::sync::Mutex::new(())),
                last_used: AtomicU32::new(self.tick(Instant::now())),
            };
            map.insert(key.into(), slot);
        }
        map.get_mut(key).expect("the slot was just made")
    }

    /// The entry of `key`, fresh or not.
    fn current(&self, key: &str) -> Option<Arc<Entry>> {
        let shard = self.shard(key);
        let map = shard.map.read().unwrap_or_else(|e| e.into_inner());
        map.get(key).and_then(|slot| slot.entry.clone())
    }

    /// Makes `entry` the entry of `key` (again, if the slot was evicted
    /// while its fetch ran).
    fn store(&self, key: &str, entry: Arc<Entry>) {
        let shard = self.shard(key);
        let mut map = shard.map.write().unwrap_or_else(|e| e.into_inner());
        let slot = self.make_slot(&mut map, key);
        // Dropped after the lock: freeing an entry can take a while.
        let old = slot.entry.replace(entry);
        drop(map);
        drop(old);
    }

    /// Drops the least recently used eighth of a full shard, so eviction
    /// costs O(log n) per insert, amortized.
    fn evict(&self, map: &mut Map) {
        let mut ages: Vec<(u32, Box<str>)> = map
            .iter()
            .map(|(k, s)| (s.last_used.load(Relaxed), k.clone()))
            .collect();
        let n = (ages.len() / 8).max(1);
        ages.select_nth_unstable_by_key(n - 1, |(t, _)| *t);
        for (_, key) in &ages[..n] {
            map.remove(key);
        }
        self.counters.evictions.fetch_add(n as u64, Relaxed);
    }

    /// Fetches the origin's robots.txt again and makes the new entry,
    /// revalidating or standing in `previous` as HTTP and the dialect say.
    async fn refresh(&self, origin: Origin, previous: Option<Arc<Entry>>) -> Entry {
        let url = origin.robots_url();
        let good = previous.as_ref().filter(|e| e.good);
        let mut headers = self.request_headers();
        let mut conditional = false;
        if let Some(policy) = good.and_then(|g| g.policy.as_ref()) {
            let request = http_request(&url, &headers);
            if let BeforeRequest::Stale { request, .. } =
                policy.before_request(&request, SystemTime::now())
            {
                for name in [IF_NONE_MATCH, IF_MODIFIED_SINCE] {
                    if let Some(v) = request.headers.get(&name) {
                        headers.insert(name, v.clone());
                        conditional = true;
                    }
                }
            }
        }
        self.counters.fetches.fetch_add(1, Relaxed);
        let mut fetch = self.fetcher.fetch(&url, &headers).await;
        if fetch.outcome == Outcome::Status(304) {
            if let (true, Some(good)) = (conditional, good) {
                if let Some(entry) = self.renew(good, &fetch) {
                    self.counters.revalidated.fetch_add(1, Relaxed);
                    return entry;
                }
                // A 304 that matches nothing we hold: ask again, plainly.
                self.counters.fetches.fetch_add(1, Relaxed);
                fetch = self.fetcher.fetch(&url, &self.request_headers()).await;
            }
            if fetch.outcome == Outcome::Status(304) {
                fetch.outcome = Outcome::Redirect(RedirectProblem::NoLocation(304));
            }
        }
        if let Outcome::Failure(f) = &fetch.outcome {
            let i = FAILURE_KINDS
                .iter()
                .position(|k| *k == f.kind())
                .unwrap_or(5);
            self.counters.failures[i].fetch_add(1, Relaxed);
        }
        self.build(origin, fetch, previous)
    }

    /// The good copy, renewed by a 304.
    fn renew(&self, good: &Entry, fetch: &Fetch) -> Option<Entry> {
        let policy = good.policy.as_ref()?;
        let request = http_request(&good.fetch.url, &fetch.request_headers);
        let response = http_response(304, &fetch.headers);
        let now = fetch.fetched_at;
        let AfterResponse::NotModified(policy, parts) =
            policy.after_response(&request, &response, now)
        else {
            return None;
        };
        let mut kept = good.fetch.clone();
        kept.headers = parts.headers;
        kept.fetched_at = now;
        kept.elapsed = fetch.elapsed;
        let ttl = self.ttl(&kept, Some(&policy), now);
        Some(Entry {
            origin: good.origin.clone(),
            fetch: kept,
            robots: good.robots.clone(),
            access: good.access.clone(),
            kind: good.kind,
            html: good.html,
            ttl,
            fresh_until: Instant::now() + ttl,
            expires: now + ttl,
            validated_at: now,
            policy: Some(policy),
            stale: None,
            failures: 0,
            failing_since: None,
            good: true,
            first: OnceLock::new(),
            others: RwLock::new(Vec::new()),
        })
    }

    /// The entry for a finished fetch.
    fn build(&self, origin: Origin, mut fetch: Fetch, previous: Option<Arc<Entry>>) -> Entry {
        let config = &self.config;
        let now = fetch.fetched_at;
        if is_failure(&fetch.outcome) {
            let failure = match &fetch.outcome {
                Outcome::Failure(f) => f.clone(),
                Outcome::Status(s) => Failure::Status(*s),
                Outcome::Redirect(_) => unreachable!("redirect problems are not failures"),
            };
            let failures = previous.as_ref().map_or(0, |p| p.failures) + 1;
            let failing_since = previous
                .as_ref()
                .and_then(|p| p.failing_since)
                .unwrap_or(now);
            let wait = retry_wait(
                failures,
                fetch.retry_after,
                config.retry_initial,
                config.retry_max,
            )
            .min(FOREVER);
            // RFC 9309 2.4: keep using a good copy while the server fails,
            // up to the stale limit.
            let usable = previous.as_ref().filter(|p| {
                p.good
                    && now.duration_since(p.validated_at).unwrap_or_default() <= config.stale_limit
            });
            if let Some(good) = usable {
                self.counters.stale_served.fetch_add(1, Relaxed);
                debug!(origin = %origin, failure = %failure, "serving a stale robots.txt");
                return Entry {
                    origin,
                    fetch: good.fetch.clone(),
                    robots: good.robots.clone(),
                    access: good.access.clone(),
                    kind: good.kind,
                    html: good.html,
                    ttl: wait,
                    fresh_until: Instant::now() + wait,
                    expires: now + wait,
                    validated_at: good.validated_at,
                    policy: good.policy.clone(),
                    stale: Some(failure),
                    failures,
                    failing_since: Some(failing_since),
                    good: true,
                    first: OnceLock::new(),
                    others: RwLock::new(Vec::new()),
                };
            }
            let outage = now.duration_since(failing_since).unwrap_or_default();
            let legacy = matches!(config.dialect, Dialect::Norobots1994 | Dialect::Draft1996);
            // RFC 9309 2.3.1.4: after a long outage the file MAY be taken
            // as unavailable.
            let access = if !legacy && outage > config.stale_limit {
                Access::AllowAll(fetch.outcome.clone())
            } else {
                access(config.dialect, &fetch.outcome)
            };
            return Entry {
                origin,
                robots: Robots::parse_with(b"", &ParseOptions::new(config.dialect)),
                kind: Kind::of(&access),
                access,
                html: false,
                ttl: wait,
                fresh_until: Instant::now() + wait,
                expires: now + wait,
                validated_at: now,
                policy: None,
                stale: None,
                failures,
                failing_since: Some(failing_since),
                good: false,
                first: OnceLock::new(),
                others: RwLock::new(Vec::new()),
                fetch,
            };
        }
        let access = access(config.dialect, &fetch.outcome);
        let body = std::mem::take(&mut fetch.body);
        let html = access == Access::Rules && crate::fetch::looks_like_html(&fetch.headers, &body);
        let mut robots = if access == Access::Rules {
            Robots::parse_with(&body, &ParseOptions::new(config.dialect))
        } else {
            Robots::parse_with(b"", &ParseOptions::new(config.dialect))
        };
        // Kept for as long as the file is fresh, one per origin: the room
        // the parse set aside for rules a body did not have (an HTML page
        // of 1 MB gets room for some 43,000) is given back now.
        robots.shrink_to_fit();
        let policy = fetch.status.map(|status| {
            CachePolicy::new_options(
                &http_request(&fetch.url, &fetch.request_headers),
                &http_response(status, &fetch.headers),
                now,
                CacheOptions {
                    shared: false,
                    ..CacheOptions::default()
                },
            )
        });
        let ttl = self.ttl(&fetch, policy.as_ref(), now);
        let no_store = has_directive(&fetch.headers, "no-store");
        Entry {
            origin,
            fetch,
            robots,
            kind: Kind::of(&access),
            access,
            html,
            ttl,
            fresh_until: Instant::now() + ttl,
            expires: now + ttl,
            validated_at: now,
            policy: if no_store { None } else { policy },
            stale: None,
            failures: 0,
            failing_since: None,
            // `no-store`: the copy must not be kept, not even for outages.
            good: !no_store,
            first: OnceLock::new(),
            others: RwLock::new(Vec::new()),
        }
    }

    /// The freshness lifetime of an answer: its HTTP lifetime when it gives
    /// one (`Cache-Control` or `Expires`), else the dialect's default;
    /// never more than the dialect's cap.
    fn ttl(&self, fetch: &Fetch, policy: Option<&CachePolicy>, now: SystemTime) -> Duration {
        let h = &fetch.headers;
        let explicit = h.contains_key(http::header::EXPIRES)
            // Not `s-maxage`: it is for shared caches (RFC 9111 5.2.2.10),
            // and this one is private.
            || ["max-age", "no-cache", "no-store"]
                .iter()
                .any(|d| has_directive(h, d));
        let ttl = match policy {
            _ if has_directive(h, "no-store") => Duration::ZERO,
            // The HTTP cache does not know every status (403 say); their
            // lifetime is ours to give.
            Some(p) if explicit && understood(fetch.status) => p.time_to_live(now),
            _ => self.config.default_ttl,
        };
        match self.config.max_ttl {
            Some(max) => ttl.min(max),
            None => ttl,
        }
        .min(FOREVER)
    }
}

fn understood(status: Option<u16>) -> bool {
    matches!(
        status,
        Some(200 | 203 | 204 | 300 | 301 | 302 | 303 | 307 | 308 | 404 | 405 | 410 | 414 | 501)
    )
}

fn has_directive(headers: &HeaderMap, directive: &str) -> bool {
    cache_control(headers).any(|d| {
        let name = d.split('=').next().unwrap_or("").trim();
        name.eq_ignore_ascii_case(directive)
    })
}

/// Every `Cache-Control` directive as written (`max-age=60`), over all the
/// header's lines; lines that are not text are skipped.
fn cache_control(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    headers
        .get_all(http::header::CACHE_CONTROL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
}

fn http_request(url: &Url, headers: &HeaderMap) -> http::Request<()> {
    let mut request = http::Request::new(());
    if let Ok(uri) = url.as_str().parse() {
        *request.uri_mut() = uri;
    }
    *request.headers_mut() = headers.clone();
    request
}

fn http_response(status: u16, headers: &HeaderMap) -> http::Response<()> {
    let mut response = http::Response::new(());
    *response.status_mut() = http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::OK);
    *response.headers_mut() = headers.clone();
    clamp_delta_seconds(response.headers_mut());
    response
}

/// RFC 9111 1.2.2: a cache MUST take a delta-seconds value too large to
/// represent as 2^31 (or its largest integer). `http-cache-semantics` reads
/// one past `u64` as no lifetime at all, which would refetch the file on
/// every check; so such values are rewritten to 2^31 before it sees them.
fn clamp_delta_seconds(headers: &mut HeaderMap) {
    fn overflows(directive: &str) -> bool {
        directive.split_once('=').is_some_and(|(_, value)| {
            let value = value.trim().trim_matches('"');
            !value.is_empty()
                && value.bytes().all(|b| b.is_ascii_digit())
                && value.parse::<u64>().is_err()
        })
    }
    if !cache_control(headers).any(overflows) {
        return;
    }
    let values: Vec<HeaderValue> = headers
        .get_all(http::header::CACHE_CONTROL)
        .iter()
        .cloned()
        .collect();
    headers.remove(http::header::CACHE_CONTROL);
    for value in values {
        let clamped = value.to_str().ok().and_then(|text| {
            let directives: Vec<String> = text
                .split(',')
                .map(|d| match d.split_once('=') {
                    Some((name, _)) if overflows(d) => format!("{name}={}", 1u64 << 31),
                    _ => d.to_owned(),
                })
                .collect();
            HeaderValue::from_str(&directives.join(",")).ok()
        });
        headers.append(http::header::CACHE_CONTROL, clamped.unwrap_or(value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(dialect: Dialect) -> RobotsCache {
        RobotsCache::new(Config::new(dialect)).unwrap()
    }

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(
                http::header::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        h
    }

    fn ttl_of(dialect: Dialect, status: u16, pairs: &[(&str, &str)]) -> Duration {
        let c = cache(dialect);
        let o = Origin::of("http://a.example").unwrap();
        c.insert(&o, status, headers(pairs), b"User-agent: *\nDisallow: /x\n");
        c.entry("http://a.example/").unwrap().unwrap().ttl()
    }

    // Draft 3.4: "the default expiry ... 7 days"; RFC 9309 2.4: "SHOULD NOT
    // use the cached version for more than 24 hours".
    #[test]
    fn default_freshness_is_per_dialect() {
        assert_eq!(ttl_of(Dialect::Draft1996, 200, &[]).as_secs(), 7 * 86_400);
        assert_eq!(
            ttl_of(Dialect::Norobots1994, 200, &[]).as_secs(),
            7 * 86_400
        );
        assert_eq!(ttl_of(Dialect::Rfc9309, 200, &[]).as_secs(), 86_400);
        assert_eq!(ttl_of(Dialect::Google, 404, &[]).as_secs(), 86_400);
    }

    // RFC 9111 5.2.2.1: max-age; RFC 9309 2.4 caps it at a day.
    #[test]
    fn max_age_sets_freshness_within_the_dialects_cap() {
        let h = [("cache-control", "public, max-age=120")];
        assert_eq!(ttl_of(Dialect::Rfc9309, 200, &h).as_secs(), 120);
        let h = [("cache-control", "max-age=999999")];
        assert_eq!(ttl_of(Dialect::Rfc9309, 200, &h).as_secs(), 86_400);
        assert_eq!(ttl_of(Dialect::Draft1996, 200, &h).as_secs(), 999_999);
    }

    // RFC 9111 5.2.2.10: s-maxage is for shared caches; this one is private,
    // so a file with only s-maxage gets the default lifetime, not none.
    #[test]
    fn s_maxage_alone_leaves_the_default_lifetime() {
        for v in ["s-maxage=3600", "public, s-maxage=60"] {
            let h = [("cache-control", v)];
            assert_eq!(ttl_of(Dialect::Draft1996, 200, &h).as_secs(), 7 * 86_400);
            assert_eq!(ttl_of(Dialect::Rfc9309, 200, &h).as_secs(), 86_400);
        }
    }

    // RFC 9111 1.2.2: a max-age too large to represent is 2^31 seconds, not
    // zero (which would refetch the file on every check).
    #[test]
    fn max_age_past_u64_is_two_to_the_31_seconds() {
        let h = [("cache-control", "public, max-age=18446744073709551616")];
        assert_eq!(ttl_of(Dialect::Draft1996, 200, &h).as_secs(), 1 << 31);
        assert_eq!(ttl_of(Dialect::Rfc9309, 200, &h).as_secs(), 86_400);
        let h = [(
            "cache-control",
            "max-age=\"99999999999999999999999\", no-cache",
        )];
        assert_eq!(ttl_of(Dialect::Draft1996, 200, &h), Duration::ZERO);
    }

    // A stranger's server decides max-age; added to the clocks as it was,
    // u64::MAX seconds overflowed `Instant` and panicked. With no cap in the
    // legacy dialects, a century stands for forever.
    #[test]
    fn lifetimes_past_any_clock_are_a_century() {
        for v in [
            "max-age=18446744073709551615",
            "max-age=9223372036854775807",
        ] {
            let h = [("cache-control", v)];
            assert_eq!(ttl_of(Dialect::Norobots1994, 200, &h), FOREVER);
            assert_eq!(ttl_of(Dialect::Draft1996, 200, &h), FOREVER);
        }
        let h = [("expires", "Fri, 31 Dec 9999 23:59:59 GMT")];
        assert_eq!(ttl_of(Dialect::Draft1996, 200, &h), FOREVER);
        // The configuration cannot overflow them either.
        let config = Config::new(Dialect::Draft1996)
            .default_ttl(Duration::MAX)
            .retry(Duration::MAX, Duration::MAX);
        let c = RobotsCache::new(config).unwrap();
        for (status, host) in [(200, "http://a.example"), (503, "http://b.example")] {
            let o = Origin::of(host).unwrap();
            c.insert(
                &o,
                status,
                HeaderMap::new(),
                b"User-agent: *\nDisallow: /x\n",
            );
            let e = c.entry(host).unwrap().unwrap();
            assert_eq!((e.ttl(), e.is_fresh()), (FOREVER, true), "{status}");
        }
    }

    // RFC 9111 5.3: Expires, relative to Date.
    #[test]
    fn expires_in_the_past_is_stale_and_in_the_future_is_fresh() {
        let now = SystemTime::now();
        let date = httpdate::fmt_http_date(now);
        let past = httpdate::fmt_http_date(now - Duration::from_secs(3600));
        let future = httpdate::fmt_http_date(now + Duration::from_secs(3600));
        let t = ttl_of(
            Dialect::Draft1996,
            200,
            &[("date", &date), ("expires", &past)],
        );
        assert_eq!(t, Duration::ZERO);
        let t = ttl_of(
            Dialect::Draft1996,
            200,
            &[("date", &date), ("expires", &future)],
        );
        assert!(t.as_secs() > 3590 && t.as_secs() <= 3600, "{t:?}");
        let t = ttl_of(Dialect::Draft1996, 200, &[("expires", "0")]);
        assert_eq!(t, Duration::ZERO);
    }

    // RFC 9111 5.2.2.4 and 5.2.2.5: no-cache revalidates, no-store keeps
    // nothing.
    #[test]
    fn no_cache_and_no_store_mean_no_freshness() {
        assert_eq!(
            ttl_of(Dialect::Rfc9309, 200, &[("cache-control", "no-cache")]),
            Duration::ZERO
        );
        assert_eq!(
            ttl_of(Dialect::Rfc9309, 200, &[("cache-control", "No-Store")]),
            Duration::ZERO
        );
        let c = cache(Dialect::Rfc9309);
        let o = Origin::of("http://a.example").unwrap();
        c.insert(&o, 200, headers(&[("cache-control", "no-store")]), b"");
        assert!(!c.entry("http://a.example/").unwrap().unwrap().good);
    }

    #[test]
    fn statuses_the_http_cache_does_not_know_get_the_default() {
        let h = [("cache-control", "max-age=60")];
        assert_eq!(ttl_of(Dialect::Rfc9309, 403, &h).as_secs(), 86_400);
        assert_eq!(ttl_of(Dialect::Rfc9309, 404, &h).as_secs(), 60);
    }

    #[tokio::test]
    async fn rules_decide_and_name_the_rule() {
        let c = cache(Dialect::Rfc9309);
        let o = Origin::of("http://a.example").unwrap();
        c.insert(
            &o,
            200,
            HeaderMap::new(),
            b"User-agent: *\nDisallow: /x\nAllow: /x/y\n",
        );
        let d = c.check("http://a.example/x/z", "bot").await.unwrap();
        assert_eq!(
            d,
            Decision::Disallow(Basis::Rule {
                line: 2,
                kind: RuleKind::Disallow,
                pattern: "/x".into()
            })
        );
        let d = c.check("http://A.EXAMPLE:80/x/y", "bot").await.unwrap();
        assert_eq!(d.to_string(), "allowed (line 3: Allow: /x/y)");
        assert_eq!(
            c.check("http://a.example/", "bot").await.unwrap(),
            Decision::Allow(Basis::NoRule)
        );
    }

    #[tokio::test]
    async fn each_agent_gets_its_own_matcher() {
        let c = cache(Dialect::Rfc9309);
        let o = Origin::of("http://a.example").unwrap();
        c.insert(
            &o,
            200,
            HeaderMap::new(),
            b"User-agent: a\nDisallow: /\n\nUser-agent: b\nDisallow: /b\n",
        );
        for _ in 0..2 {
            assert!(!c
                .check("http://a.example/x", "a")
                .await
                .unwrap()
                .is_allowed());
            assert!(c
                .check("http://a.example/x", "b")
                .await
                .unwrap()
                .is_allowed());
            assert!(c
                .check("http://a.example/x", "c")
                .await
                .unwrap()
                .is_allowed());
            assert!(!c
                .check("http://a.example/b", "b")
                .await
                .unwrap()
                .is_allowed());
        }
    }

    #[tokio::test]
    async fn whole_site_answers_carry_the_status() {
        let c = cache(Dialect::Draft1996);
        let o = Origin::of("http://a.example").unwrap();
        c.insert(&o, 403, HeaderMap::new(), b"");
        let d = c.check("http://a.example/x", "bot").await.unwrap();
        assert_eq!(d, Decision::Disallow(Basis::Fetch(Outcome::Status(403))));
        assert_eq!(d.to_string(), "disallowed (robots.txt: HTTP 403)");
    }

    #[test]
    fn a_full_shard_drops_its_least_recently_used() {
        let c = RobotsCache::new(Config::default().max_entries(SHARDS * 8)).unwrap();
        for i in 0..2000 {
            let o = Origin::of(&format!("http://h{i}.example")).unwrap();
            c.insert(&o, 404, HeaderMap::new(), b"");
        }
        let m = c.metrics();
        assert!(m.entries <= (SHARDS * 8) as u64, "{m:?}");
        assert!(m.evictions >= 2000 - (SHARDS * 8) as u64, "{m:?}");
    }

    #[test]
    fn shards_spread_keys() {
        let c = cache(Dialect::Rfc9309);
        let mut seen = [0usize; SHARDS];
        for i in 0..1600 {
            let shard = c.inner.shard(&format!("https://host{i}.example"));
            seen[c
                .inner
                .shards
                .iter()
                .position(|s| std::ptr::eq(s, shard))
                .unwrap()] += 1;
        }
        assert!(seen.iter().all(|&n| n > 50), "{seen:?}");
    }
}
