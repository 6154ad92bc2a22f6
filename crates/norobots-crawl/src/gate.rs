//! The robots.txt gate: may the robot fetch this URL now? It stands on
//! `norobots-fetch`'s cache (status-code policy per dialect, freshness,
//! single flight) and adds what a crawler needs around it: whether this
//! check is the one that fetched robots.txt (a request to the host, which
//! the robot logs, archives and counts against the host's delay), and the
//! answer as a [`Reason`] for the log.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use norobots_fetch::{
    Decision as CacheDecision, Entry, Origin, Reason as CacheReason, RobotsCache,
};

use crate::decision::Reason;
use crate::politeness::Pace;

/// The gate's answer for one URL.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// Fetch it.
    Allow,
    /// Do not: `Reason::Robots` (a rule) or `Reason::RobotsTxt` (the
    /// whole origin).
    Disallow(Reason),
    /// Not now: the robots.txt could not be had; ask again at `until`.
    Defer {
        /// When to ask again.
        until: SystemTime,
        /// What went wrong, as `Reason::RobotsTxt`.
        reason: Reason,
    },
}

/// The gate: a robots.txt cache and the robot's token.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use norobots_crawl::gate::{Answer, Gate};
/// use norobots_fetch::{Origin, RobotsCache};
///
/// let cache = RobotsCache::new(Default::default()).unwrap();
/// cache.insert(&Origin::of("http://a.test").unwrap(), 200, Default::default(), b"User-agent: *\nDisallow: /private/\n");
/// let gate = Gate::new(cache, "ExampleBot");
/// let url = url::Url::parse("http://a.test/private/x").unwrap();
/// let (answer, fetched) = gate.check(&url).await;
/// assert!(matches!(answer, Answer::Disallow(_)));
/// assert!(fetched.is_none(), "answered from the cache");
/// # }
/// ```
pub struct Gate {
    cache: RobotsCache,
    agent: String,
    /// One lock per origin being fetched, so that exactly one check
    /// fetches and knows it did.
    loading: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// The pace of each origin's last robots.txt, read once per fetch
    /// rather than once per URL.
    paces: Mutex<HashMap<String, Pace>>,
}

/// Origins whose pace is kept; past this the map starts over (a pace is
/// read again from the cached file when asked).
const PACES: usize = 100_000;

impl Gate {
    /// A gate over `cache` for the robot `agent` (its product token).
    pub fn new(cache: RobotsCache, agent: &str) -> Gate {
        Gate {
            cache,
            agent: agent.to_owned(),
            loading: Mutex::new(HashMap::new()),
            paces: Mutex::new(HashMap::new()),
        }
    }

    /// The cache under the gate.
    pub fn cache(&self) -> &RobotsCache {
        &self.cache
    }

    /// Whether the robot may fetch `url` now, and the entry when this call
    /// fetched the origin's robots.txt (or revalidated it).
    pub async fn check(&self, url: &url::Url) -> (Answer, Option<Arc<Entry>>) {
        let text = url.as_str();
        let mut fetched = None;
        if !self.cache.is_fresh(text) {
            fetched = self.load(url).await;
            if let Some(entry) = &fetched {
                let mut paces = self.paces.lock().unwrap_or_else(|e| e.into_inner());
                if paces.len() >= PACES {
                    paces.clear();
                }
                paces.insert(entry.origin().as_str().to_owned(), self.pace_of(entry));
            }
        }
        let answer = match self.cache.check(text, &self.agent).await {
            Ok(d) => self.answer(url, d),
            // Only a URL that is not http(s) fails here, and the engine
            // never asks for one.
            Err(e) => Answer::Disallow(Reason::Failure {
                message: e.to_string(),
            }),
        };
        (answer, fetched)
    }

    /// Fetches `url`'s robots.txt unless another check just did.
    async fn load(&self, url: &url::Url) -> Option<Arc<Entry>> {
        let origin = Origin::of_url(url).ok()?;
        let lock = {
            let mut map = self.loading.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(map.entry(origin.as_str().to_owned()).or_default())
        };
        let _held = lock.lock().await;
        let fetched = match self.cache.entry(url.as_str()) {
            Ok(Some(e)) if e.is_fresh() => None,
            _ => self.cache.load(url.as_str()).await.ok(),
        };
        let mut map = self.loading.lock().unwrap_or_else(|e| e.into_inner());
        if Arc::strong_count(&lock) <= 2 {
            map.remove(origin.as_str());
        }
        fetched
    }

    fn answer(&self, url: &url::Url, d: CacheDecision) -> Answer {
        if d.is_allowed() {
            return Answer::Allow;
        }
        let robots_url = norobots_fetch::robots_url(url.as_str())
            .map(|u| u.to_string())
            .unwrap_or_default();
        match d {
            CacheDecision::Allow(_) => Answer::Allow,
            CacheDecision::Disallow(CacheReason::Rule {
                line,
                kind,
                pattern,
                ..
            }) => Answer::Disallow(Reason::Robots {
                robots_url,
                line,
                rule: format!("{kind}: {pattern}"),
            }),
            CacheDecision::Disallow(CacheReason::Fetch(outcome)) => {
                Answer::Disallow(Reason::RobotsTxt {
                    robots_url,
                    outcome: outcome.to_string(),
                })
            }
            CacheDecision::Disallow(CacheReason::NoRule) => Answer::Disallow(Reason::RobotsTxt {
                robots_url,
                outcome: "disallowed".into(),
            }),
            CacheDecision::Defer { until, outcome } => Answer::Defer {
                until,
                reason: Reason::RobotsTxt {
                    robots_url,
                    outcome: outcome.to_string(),
                },
            },
        }
    }

    /// What the robots.txt of `origin` (as `Origin` spells it) says of the
    /// pace for this robot.
    pub fn pace(&self, origin: &str) -> Pace {
        if let Some(p) = self
            .paces
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(origin)
        {
            return *p;
        }
        match self.cache.entry(origin) {
            Ok(Some(e)) => self.pace_of(&e),
            _ => Pace::default(),
        }
    }

    fn pace_of(&self, e: &Entry) -> Pace {
        Pace {
            crawl_delay: e.crawl_delay(&self.agent),
            request_rate: e.request_rate(&self.agent),
            visit_time: e.visit_time(&self.agent),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(body: &[u8]) -> Gate {
        let cache = RobotsCache::new(Default::default()).unwrap();
        cache.insert(
            &Origin::of("http://a.test").unwrap(),
            200,
            Default::default(),
            body,
        );
        Gate::new(cache, "norobots")
    }

    #[tokio::test]
    async fn a_rule_is_named_with_its_file_and_line() {
        let g = gate(b"User-agent: norobots\nDisallow: /x\nCrawl-delay: 2\n");
        let url = url::Url::parse("http://a.test/x/1").unwrap();
        assert_eq!(
            g.check(&url).await.0,
            Answer::Disallow(Reason::Robots {
                robots_url: "http://a.test/robots.txt".into(),
                line: 2,
                rule: "Disallow: /x".into()
            })
        );
        assert_eq!(
            g.pace("http://a.test").crawl_delay,
            Some(std::time::Duration::from_secs(2))
        );
        let ok = url::Url::parse("http://a.test/y").unwrap();
        let (answer, fetched) = g.check(&ok).await;
        assert_eq!(answer, Answer::Allow);
        assert!(fetched.is_none());
    }

    #[tokio::test]
    async fn a_whole_site_answer_names_the_outcome() {
        let cache =
            RobotsCache::new(norobots_fetch::Config::new(norobots::Dialect::Draft1996)).unwrap();
        cache.insert(
            &Origin::of("http://a.test").unwrap(),
            401,
            Default::default(),
            b"",
        );
        let g = Gate::new(cache, "norobots");
        let url = url::Url::parse("http://a.test/").unwrap();
        assert_eq!(
            g.check(&url).await.0,
            Answer::Disallow(Reason::RobotsTxt {
                robots_url: "http://a.test/robots.txt".into(),
                outcome: "HTTP 401".into()
            })
        );
    }
}
