//! Fetching an origin's robots.txt again and making its next entry: a
//! conditional request when HTTP allows one, a 304 renewing the copy, a
//! good copy standing in while the server fails, and the dialect's policy
//! for everything else.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::SystemTime;

use http::header::{HeaderMap, HeaderValue, IF_MODIFIED_SINCE, IF_NONE_MATCH, USER_AGENT};
use http_cache_semantics::{AfterResponse, BeforeRequest};
use norobots::{Dialect, ParseOptions, Robots};
use tracing::debug;

use crate::cache::Inner;
use crate::entry::{Answer, Entry, Failing};
use crate::freshness::FOREVER;
use crate::freshness::{cache_policy, has_directive, http_request, http_response, lifetime};
use crate::{retry_wait, Failure, Fetch, Origin, Outcome, Policy, RedirectProblem};

impl Inner {
    /// The headers every robots.txt request carries.
    pub(crate) fn request_headers(&self) -> HeaderMap {
        let mut h = HeaderMap::new();
        if let Ok(v) = HeaderValue::from_str(&self.config.user_agent) {
            h.insert(USER_AGENT, v);
        }
        h
    }

    /// Fetches the origin's robots.txt again and makes the new entry,
    /// revalidating or standing in `previous` as HTTP and the dialect say.
    pub(crate) async fn refresh(&self, origin: Origin, previous: Option<Arc<Entry>>) -> Entry {
        let url = origin.robots_url();
        let good = previous.as_ref().filter(|e| e.answer().good);
        let mut headers = self.request_headers();
        let mut conditional = false;
        if let Some(policy) = good.and_then(|g| g.answer().http.as_ref()) {
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
        if let Outcome::Failure(failure) = &fetch.outcome {
            self.counters.failed(failure);
        }
        self.build(origin, fetch, previous)
    }

    /// The good copy, renewed by a 304.
    fn renew(&self, good: &Entry, fetch: &Fetch) -> Option<Entry> {
        let kept = good.answer();
        let policy = kept.http.as_ref()?;
        let request = http_request(&kept.fetch.url, &fetch.request_headers);
        let response = http_response(304, &fetch.headers);
        let now = fetch.fetched_at;
        let AfterResponse::NotModified(policy, parts) =
            policy.after_response(&request, &response, now)
        else {
            return None;
        };
        let mut renewed = kept.fetch.clone();
        renewed.headers = parts.headers;
        renewed.fetched_at = now;
        renewed.elapsed = fetch.elapsed;
        let ttl = lifetime(&self.config, &renewed, Some(&policy), now);
        let answer = Answer {
            fetch: renewed,
            robots: kept.robots.clone(),
            html: kept.html,
            validated_at: now,
            http: Some(policy),
            good: true,
        };
        let origin = good.origin().clone();
        Some(Entry::new(
            origin,
            good.policy(),
            answer,
            ttl,
            now,
            Failing::default(),
        ))
    }

    /// The entry for a finished fetch.
    pub(crate) fn build(
        &self,
        origin: Origin,
        mut fetch: Fetch,
        previous: Option<Arc<Entry>>,
    ) -> Entry {
        let config = &self.config;
        let now = fetch.fetched_at;
        if fetch.outcome.is_failure() {
            return self.build_failure(origin, fetch, previous);
        }
        let policy = Policy::of(config.dialect, &fetch.outcome);
        let body = std::mem::take(&mut fetch.body);
        let rules = policy == Policy::Rules;
        let html = rules && crate::fetch::looks_like_html(&fetch.headers, &body);
        let mut robots = Robots::parse_with(
            if rules { &body[..] } else { b"" },
            &ParseOptions::new(config.dialect),
        );
        // Kept for as long as the file is fresh, one per origin: the room
        // the parse set aside for rules a body did not have (an HTML page
        // of 1 MB gets room for some 43,000) is given back now.
        robots.shrink_to_fit();
        let http = cache_policy(&fetch, now);
        let ttl = lifetime(config, &fetch, http.as_ref(), now);
        let no_store = has_directive(&fetch.headers, "no-store");
        let answer = Answer {
            fetch,
            robots,
            html,
            validated_at: now,
            http: if no_store { None } else { http },
            good: !no_store,
        };
        Entry::new(origin, policy, answer, ttl, now, Failing::default())
    }

    /// The entry for a fetch that got no answer: a good copy standing in
    /// while it may, else the dialect's policy for the failure, until the
    /// next try.
    fn build_failure(&self, origin: Origin, fetch: Fetch, previous: Option<Arc<Entry>>) -> Entry {
        let config = &self.config;
        let now = fetch.fetched_at;
        let failure = match &fetch.outcome {
            Outcome::Failure(f) => f.clone(),
            Outcome::Status(s) => Failure::Status(*s),
            Outcome::Redirect(_) => unreachable!("redirect problems are not failures"),
        };
        let failures = previous.as_ref().map_or(0, |p| p.failing().failures) + 1;
        let since = previous
            .as_ref()
            .and_then(|p| p.failing().since)
            .unwrap_or(now);
        let wait = retry_wait(
            failures,
            fetch.retry_after,
            config.retry_initial,
            config.retry_max,
        )
        .min(FOREVER);
        // RFC 9309 2.4: keep using a good copy while the server fails, up
        // to the stale limit.
        let usable = previous.as_ref().filter(|p| {
            let kept = p.answer();
            kept.good
                && now.duration_since(kept.validated_at).unwrap_or_default() <= config.stale_limit
        });
        if let Some(good) = usable {
            self.counters.stale_served.fetch_add(1, Relaxed);
            debug!(origin = %origin, failure = %failure, "serving a stale robots.txt");
            let failing = Failing {
                stale: Some(failure),
                failures,
                since: Some(since),
            };
            let answer = good.answer().clone();
            return Entry::new(origin, good.policy(), answer, wait, now, failing);
        }
        let outage = now.duration_since(since).unwrap_or_default();
        let legacy = matches!(config.dialect, Dialect::Norobots1994 | Dialect::Draft1996);
        // RFC 9309 2.3.1.4: after a long outage the file MAY be taken as
        // unavailable.
        let policy = if !legacy && outage > config.stale_limit {
            Policy::AllowAll
        } else {
            Policy::of(config.dialect, &fetch.outcome)
        };
        let answer = Answer {
            fetch,
            robots: Robots::parse_with(b"", &ParseOptions::new(config.dialect)),
            html: false,
            validated_at: now,
            http: None,
            good: false,
        };
        let failing = Failing {
            stale: None,
            failures,
            since: Some(since),
        };
        Entry::new(origin, policy, answer, wait, now, failing)
    }
}
