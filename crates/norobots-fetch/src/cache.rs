//! The per-origin cache: one entry per origin, one fetch at a time per
//! origin, answers from memory until the entry goes stale.
//!
//! Checks vastly outnumber fetches, so the hit path is short: the origin key
//! is cut out of the URL without parsing it, the entry is found in a sharded
//! map ([`crate::shards`]) under a read lock, and the compiled
//! [`Matcher`](norobots::Matcher) for the agent answers. It takes no lock
//! that a fetch holds and allocates only to name a rule. A miss waits for
//! [`crate::refresh`].

use std::fmt;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use http::header::HeaderMap;
#[cfg(doc)]
use norobots::Robots;

use crate::entry::Entry;
use crate::fetch::{Fetch, Fetcher};
use crate::metrics::{Counters, Metrics};
use crate::origin::{fast_key, KeyBuf, Origin};
use crate::shards::Shards;
use crate::{Config, Decision, Error, Failure, Outcome};

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

/// What the clones of a cache share.
pub(crate) struct Inner {
    pub(crate) config: Config,
    pub(crate) fetcher: Fetcher,
    pub(crate) shards: Shards,
    pub(crate) counters: Counters,
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
        let shards = Shards::new(config.max_entries);
        Ok(RobotsCache {
            inner: Arc::new(Inner {
                config,
                fetcher,
                shards,
                counters: Counters::default(),
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
    /// use norobots_fetch::{Decision, Origin, Reason, RobotsCache};
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
    /// [`Matcher::check_bytes`](norobots::Matcher::check_bytes) does. Only the origin must be text; it is
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

    /// Whether `agent` may fetch `url` now, without saying why: the lean
    /// form of [`RobotsCache::check`] for crawl loops, which allocates
    /// nothing on a hit. A deferral is `false`; [`RobotsCache::check`] says
    /// until when.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use norobots_fetch::{Origin, RobotsCache};
    ///
    /// let cache = RobotsCache::new(Default::default()).unwrap();
    /// cache.insert(&Origin::of("http://a.example").unwrap(), 200, Default::default(), b"User-agent: *\nDisallow: /x\n");
    /// assert!(!cache.is_allowed("http://a.example/x", "FooBot").await.unwrap());
    /// assert!(cache.is_allowed("http://a.example/y", "FooBot").await.unwrap());
    /// # }
    /// ```
    pub async fn is_allowed(&self, url: &str, agent: &str) -> Result<bool, Error> {
        self.answer(url, |entry| entry.allows(url, agent)).await
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
        if let Some(answer) = self.inner.shards.with_fresh(key, &f) {
            return Ok(answer);
        }
        Ok(f(&*self.load_key(key).await))
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
    /// println!("{:?} {} {:?}", entry.fetch().status, entry.policy(), entry.ttl());
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
        self.inner.shards.is_fresh(key)
    }

    /// The entry cached for `url`'s origin, fresh or not, without fetching.
    ///
    /// ```
    /// let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
    /// assert!(cache.entry("https://example.com/").unwrap().is_none());
    /// ```
    pub fn entry(&self, url: &str) -> Result<Option<Arc<Entry>>, Error> {
        let origin = Origin::of(url)?;
        Ok(self.inner.shards.current(origin.as_str()))
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
        let outcome = if Outcome::Status(status).is_failure() {
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
        let entry = self.inner.build(origin.clone(), fetch, None);
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
        self.inner.shards.clear();
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
        let (hits, entries) = self.inner.shards.hits_and_entries();
        self.inner.counters.metrics(hits, entries)
    }

    /// Makes sure the origin `key` has a fresh entry, fetching if needed,
    /// and returns it.
    async fn load_key(&self, key: &str) -> Arc<Entry> {
        let inner = &*self.inner;
        let (loading, current) = inner.shards.slot(key, &inner.counters.evictions);
        if let Some(entry) = current.filter(|e| e.is_fresh()) {
            return entry;
        }
        inner.counters.misses.fetch_add(1, Relaxed);
        let _loading = loading.lock().await;
        let previous = inner.shards.current(key);
        if let Some(entry) = &previous {
            if entry.is_fresh() {
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
    fn store(&self, key: &str, entry: Arc<Entry>) {
        self.shards.store(key, entry, &self.counters.evictions);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reason;
    use norobots::{Dialect, RuleKind};

    fn cache(dialect: Dialect) -> RobotsCache {
        RobotsCache::new(Config::new(dialect)).unwrap()
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
            Decision::Disallow(Reason::Rule {
                line: 2,
                kind: RuleKind::Disallow,
                pattern: "/x".into(),
                group_line: 1,
            })
        );
        let d = c.check("http://A.EXAMPLE:80/x/y", "bot").await.unwrap();
        assert_eq!(d.to_string(), "allowed (line 3: Allow: /x/y)");
        assert_eq!(
            c.check("http://a.example/", "bot").await.unwrap(),
            Decision::Allow(Reason::NoRule)
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
        assert_eq!(d, Decision::Disallow(Reason::Fetch(Outcome::Status(403))));
        assert_eq!(d.to_string(), "disallowed (robots.txt: HTTP 403)");
    }

    #[tokio::test]
    async fn the_lean_answer_agrees_with_the_full_one() {
        let c = cache(Dialect::Draft1996);
        let rules = Origin::of("http://a.example").unwrap();
        c.insert(
            &rules,
            200,
            HeaderMap::new(),
            b"User-agent: *\nDisallow: /x\n",
        );
        for (status, host) in [
            (404, "http://b.example"),
            (401, "http://c.example"),
            (503, "http://d.example"),
        ] {
            c.insert(&Origin::of(host).unwrap(), status, HeaderMap::new(), b"");
        }
        for url in [
            "http://a.example/x",
            "http://a.example/y",
            "http://b.example/",
            "http://c.example/",
            "http://d.example/",
        ] {
            let full = c.check(url, "bot").await.unwrap();
            assert_eq!(
                c.is_allowed(url, "bot").await.unwrap(),
                full.is_allowed(),
                "{url}: {full}"
            );
        }
    }
}
