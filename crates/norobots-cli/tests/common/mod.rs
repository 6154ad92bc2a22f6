//! What several crawl tests ask of a test site and of chance.
// Each test file compiles this module and uses a part of it.
#![allow(dead_code)]

use std::time::Duration;

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
