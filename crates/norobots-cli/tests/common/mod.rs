//! What several crawl tests ask of a test site and of chance.
// Each test file compiles this module and uses a part of it.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::time::Duration;

use norobots_testsite::scenario::{Expectations, Fate, RobotsFetch};
use norobots_testsite::RunningSite;

/// A logged URL as the site's origin name and the path, whatever port
/// the origin had; `None` for a URL of no origin of the site.
pub fn key_of(site: &RunningSite, url: &str) -> Option<(String, String)> {
    for (name, base) in site.origins() {
        if let Some(rest) = url.strip_prefix(&base) {
            let path = if rest.is_empty() { "/" } else { rest };
            return Some((name, path.to_owned()));
        }
    }
    None
}

/// The smallest gap between two requests to `origin`, counted from its
/// first robots.txt request (the start page may come before it, and
/// nothing of a delay is known before the file is read).
pub fn gap_after_robots(site: &RunningSite, origin: &str) -> Option<Duration> {
    let mut times: Vec<_> = site
        .requests()
        .into_iter()
        .filter(|r| r.origin == origin)
        .collect();
    times.sort_by_key(|r| r.at);
    let first = times
        .iter()
        .position(|r| r.path_and_query == "/robots.txt")?;
    times[first..].windows(2).map(|w| w[1].at - w[0].at).min()
}

/// What the standard site's robots.txt files and pauses ask, held
/// however many workers crawled it: robots.txt once per origin's lifetime
/// (never for an origin not visited), a Retry-After of one second before
/// the second try, and no two requests to a host closer than its
/// Crawl-delay, from the request that read it on (the start page comes
/// before robots.txt, as in wget).
pub fn assert_paced(site: &RunningSite, expect: &Expectations) {
    for key in expect.having(Fate::Retried) {
        let times: Vec<_> = site
            .requests()
            .into_iter()
            .filter(|r| r.origin == key.0 && r.path_and_query == key.1)
            .map(|r| r.at)
            .collect();
        assert_eq!(times.len(), 2, "{key:?}");
        assert!(
            times[1] - times[0] >= Duration::from_secs(1),
            "{key:?}: {:?}",
            times[1] - times[0]
        );
    }
    for (origin, want) in &expect.robots {
        let n = site.count(origin, "/robots.txt");
        match want {
            RobotsFetch::Once => assert_eq!(n, 1, "{origin}"),
            RobotsFetch::Retried => assert!(n >= 1, "{origin}"),
            RobotsFetch::Never => assert_eq!(n, 0, "{origin}"),
        }
    }
    for (origin, delay) in &expect.crawl_delay {
        let gap = gap_after_robots(site, origin).expect("several requests");
        assert!(
            gap >= *delay,
            "{origin}: two requests {gap:?} apart, Crawl-delay {delay:?}"
        );
    }
}

/// A crawl log's text (JSON Lines) as URL → decision; a URL on two lines
/// fails, and so does a line that is not JSON (`what` names the log).
pub fn decisions(text: &str, what: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{what} line {}: {e}: {line:?}", n + 1));
        let url = v["url"].as_str().unwrap().to_owned();
        let decision = v["decision"].as_str().unwrap().to_owned();
        assert!(
            out.insert(url.clone(), decision).is_none(),
            "{what}: {url} logged twice"
        );
    }
    out
}

/// A deterministic stream of moments (xorshift), for kills.
pub struct Moments(pub u64);

impl Moments {
    /// The next moment, from `least` to `least + spread` milliseconds.
    pub fn next(&mut self, least: u64, spread: u64) -> Duration {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        Duration::from_millis(least + self.0 % spread)
    }
}
