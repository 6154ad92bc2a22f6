//! One origin's entry: the last answer for its robots.txt, what it means,
//! how long it holds, and the compiled matchers that answer checks.
//!
//! Every entry is made by [`Entry::new`], whether from a fresh answer, a
//! copy renewed by a 304, a good copy standing in during a failure, or the
//! failure itself: what an entry derives from its parts (its clocks, its
//! empty matcher slots) is worked out in one place.

use std::fmt;
use std::sync::{Arc, OnceLock, RwLock};
use std::time::{Duration, Instant, SystemTime};

use http_cache_semantics::CachePolicy;
use norobots::{Matcher, RequestRate, Robots, VisitTime};

use crate::{Decision, Failure, Fetch, Origin, Policy, Reason};

/// What the cache knows about one origin: the last answer for its
/// robots.txt and what it means.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use norobots_fetch::{Origin, Policy, RobotsCache};
///
/// let cache = RobotsCache::new(Default::default()).unwrap();
/// let origin = Origin::of("https://example.com/").unwrap();
/// cache.insert(&origin, 200, Default::default(), b"Sitemap: https://example.com/s.xml\n");
/// let entry = cache.entry("https://example.com/a").unwrap().unwrap();
/// assert_eq!(entry.fetch().status, Some(200));
/// assert_eq!(entry.policy(), Policy::Rules);
/// assert_eq!(entry.robots().sitemaps().next().unwrap().value(), "https://example.com/s.xml");
/// assert_eq!(entry.ttl(), std::time::Duration::from_secs(24 * 3600));
/// # }
/// ```
// `repr(C)` keeps what a hit reads (freshness, the first agent's name and
// matcher) together at the front, in the first cache lines of the entry.
// `repr(C)` keeps what a hit reads (freshness, the policy, the first
// agent's name and matcher) together at the front, in the first cache lines
// of the entry.
#[repr(C)]
pub struct Entry {
    fresh_until: Instant,
    policy: Policy,
    first: OnceLock<First>,
    expires: SystemTime,
    ttl: Duration,
    origin: Origin,
    answer: Answer,
    failing: Failing,
    others: RwLock<Vec<(Box<str>, Arc<Matcher>)>>,
}

/// A robots.txt answer as an entry keeps it: what a good copy carries over
/// when it is renewed or stands in for a failure.
#[derive(Clone)]
pub(crate) struct Answer {
    /// The fetch; its body has moved into `robots`.
    pub(crate) fetch: Fetch,
    /// The parsed file (empty when there was none).
    pub(crate) robots: Robots,
    /// Whether a 2xx body was an HTML page.
    pub(crate) html: bool,
    /// When the file was fetched or last revalidated.
    pub(crate) validated_at: SystemTime,
    /// HTTP's view of the answer, for revalidation; `None` for failures and
    /// `no-store`.
    pub(crate) http: Option<CachePolicy>,
    /// Whether the copy may stand in while the server fails (not a failure,
    /// and not `no-store`: such a copy must not be kept, not even for
    /// outages).
    pub(crate) good: bool,
}

/// Where an origin stands in a run of failed fetches.
#[derive(Clone, Debug, Default)]
pub(crate) struct Failing {
    /// Set when the entry is a good copy standing in during a failure.
    pub(crate) stale: Option<Failure>,
    /// How many fetches in a row have failed.
    pub(crate) failures: u32,
    /// When the run of failures began.
    pub(crate) since: Option<SystemTime>,
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

impl Entry {
    /// The one constructor: `answer`, read as `policy`, fresh for `ttl`
    /// counted from `from` (when the answer came, which for a copy out of a
    /// store may be long ago).
    pub(crate) fn new(
        origin: Origin,
        policy: Policy,
        answer: Answer,
        ttl: Duration,
        from: SystemTime,
        failing: Failing,
    ) -> Entry {
        let expires = from + ttl;
        // The monotonic clock keeps freshness while the wall clock jumps;
        // what is left of the lifetime now is what it gets.
        let left = expires
            .duration_since(SystemTime::now())
            .unwrap_or_default();
        Entry {
            fresh_until: Instant::now() + left,
            policy,
            first: OnceLock::new(),
            expires,
            ttl,
            origin,
            answer,
            failing,
            others: RwLock::new(Vec::new()),
        }
    }

    pub(crate) fn answer(&self) -> &Answer {
        &self.answer
    }

    pub(crate) fn failing(&self) -> &Failing {
        &self.failing
    }

    /// Whether the entry is fresh at `now` (one clock read serves a hit).
    #[inline]
    pub(crate) fn is_fresh_at(&self, now: Instant) -> bool {
        now < self.fresh_until
    }

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
        &self.answer.fetch
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
        &self.answer.robots
    }

    /// What the answer means for every URL of the origin: obey the file's
    /// rules, or one answer for all (why is in [`Entry::fetch`]'s
    /// `outcome`).
    ///
    /// ```
    /// use norobots_fetch::{Outcome, Policy};
    /// # let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// # let origin = norobots_fetch::Origin::of("http://a.example/").unwrap();
    /// cache.insert(&origin, 404, Default::default(), b"");
    /// let entry = cache.entry("http://a.example/").unwrap().unwrap();
    /// assert_eq!(entry.policy(), Policy::AllowAll);
    /// assert_eq!(entry.fetch().outcome, Outcome::Status(404));
    /// ```
    pub fn policy(&self) -> Policy {
        self.policy
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
        self.answer.html
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
            .duration_since(self.answer.validated_at)
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
        self.is_fresh_at(Instant::now())
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
        self.failing.stale.as_ref()
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
        self.failing.failures
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
            .get_or_init(|| First::new(agent, self.answer.robots.matcher(agent)));
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
                let m = Arc::new(self.answer.robots.matcher(agent));
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

    /// Whether `agent` may fetch `url`: the hit path of
    /// [`RobotsCache::is_allowed`](crate::RobotsCache::is_allowed), which
    /// names no rule and allocates nothing.
    #[inline]
    pub(crate) fn allows(&self, url: &str, agent: &str) -> bool {
        match self.policy {
            Policy::Rules => self.with_matcher(agent, |m| m.is_allowed(url)),
            Policy::AllowAll => true,
            Policy::DisallowAll | Policy::Defer => false,
        }
    }

    /// The decision for `url`, naming the rule or the outcome that made it.
    pub(crate) fn decide(&self, url: &[u8], agent: &str) -> Decision {
        let outcome = || self.answer.fetch.outcome.clone();
        match self.policy {
            Policy::Rules => self.with_matcher(agent, |m| {
                let v = m.check_bytes(url);
                let reason = Reason::of(v.rule);
                if v.allowed {
                    Decision::Allow(reason)
                } else {
                    Decision::Disallow(reason)
                }
            }),
            Policy::AllowAll => Decision::Allow(Reason::Fetch(outcome())),
            Policy::DisallowAll => Decision::Disallow(Reason::Fetch(outcome())),
            Policy::Defer => Decision::Defer {
                until: self.expires,
                outcome: outcome(),
            },
        }
    }
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("origin", &self.origin)
            .field("status", &self.answer.fetch.status)
            .field("outcome", &self.answer.fetch.outcome)
            .field("policy", &self.policy)
            .field("ttl", &self.ttl)
            .field("stale", &self.failing.stale)
            .field("failures", &self.failing.failures)
            .finish()
    }
}
