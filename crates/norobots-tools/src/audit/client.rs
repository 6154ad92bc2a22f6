//! What the auditor keeps per client, and the rule that makes a client a
//! robot.

use std::sync::Arc;

use super::parse::Timestamp;
use super::report::{RobotReasons, RobotReport, Violation};

/// Whether a `User-Agent` value looks like a robot's: it contains `bot`,
/// `crawl`, `spider`, `slurp` or `fetch`, or a `+http` contact URL (the
/// convention `(+http://example.com/bot.html)`), ignoring case.
///
/// The words are the ones robots name themselves with (Googlebot, bingbot,
/// Baiduspider, Yahoo! Slurp, facebookexternalhit's "fetcher"…); a browser
/// rarely carries any of them. A few phones do (`CUBOT`), and a robot that
/// pretends to be a browser does not: those are misread either way.
///
/// ```
/// use norobots_tools::audit::looks_like_bot;
///
/// assert!(looks_like_bot("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"));
/// assert!(looks_like_bot("Baiduspider-image"));
/// assert!(looks_like_bot("Mozilla/5.0 (compatible; Yahoo! Slurp)"));
/// assert!(looks_like_bot("curl-like/1.0 (+https://example.com/about)"));
/// assert!(!looks_like_bot("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"));
/// ```
pub fn looks_like_bot(user_agent: &str) -> bool {
    const WORDS: [&[u8]; 6] = [b"bot", b"crawl", b"spider", b"slurp", b"fetch", b"+http"];
    let ua = user_agent.as_bytes();
    WORDS.iter().any(|w| contains_ignore_case(ua, w))
}

fn contains_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

/// Requests per calendar minute, in constant memory: the counts of the last
/// few minutes seen, and the best so far. Logs are written in completion
/// order, so times step back a little now and then; the peak is exact as
/// long as a line is no more than `SLOTS - 1` distinct minutes late.
#[derive(Clone, Debug, Default)]
pub(crate) struct Minutes {
    slots: [(i64, u32); SLOTS],
    len: usize,
    peak: u32,
    peak_minute: i64,
}

const SLOTS: usize = 4;

impl Minutes {
    pub(crate) fn add(&mut self, minute: i64) {
        let slot = match self.slots[..self.len].iter().position(|s| s.0 == minute) {
            Some(i) => i,
            None if self.len < SLOTS => {
                self.len += 1;
                self.slots[self.len - 1] = (minute, 0);
                self.len - 1
            }
            None => {
                // The peak is kept up to date on every count, so the oldest
                // minute can go without losing anything.
                let oldest = (0..SLOTS).min_by_key(|&i| self.slots[i].0).unwrap_or(0);
                self.slots[oldest] = (minute, 0);
                oldest
            }
        };
        let count = &mut self.slots[slot].1;
        *count = count.saturating_add(1);
        if *count > self.peak || (*count == self.peak && minute < self.peak_minute) {
            self.peak = *count;
            self.peak_minute = minute;
        }
    }

    pub(crate) fn peak(&self) -> (u64, Timestamp) {
        (u64::from(self.peak), Timestamp(self.peak_minute * 60))
    }
}

/// Everything known about one client, robot-looking or not: a client that
/// looks human may fetch `/robots.txt` later, and then its earlier requests
/// count too.
#[derive(Clone, Debug)]
pub(crate) struct Client {
    /// Shared with the other clients of the same User-Agent, as that is.
    pub token: Arc<str>,
    pub address: Box<str>,
    /// The first bot-looking User-Agent seen, else the first one.
    pub user_agent: Option<Arc<str>>,
    pub reasons: RobotReasons,
    pub requests: u64,
    pub judged: u64,
    pub other_methods: u64,
    pub robots_txt_fetches: u64,
    pub first_robots_txt: Option<Timestamp>,
    pub first_seen: Timestamp,
    pub last_seen: Timestamp,
    pub minutes: Minutes,
    pub violations: u64,
    pub violations_before_robots_txt: u64,
    pub examples: Vec<Violation>,
}

impl Client {
    pub(crate) fn new(token: Arc<str>, address: &str, time: Timestamp) -> Client {
        Client {
            token,
            address: address.into(),
            user_agent: None,
            reasons: RobotReasons::default(),
            requests: 0,
            judged: 0,
            other_methods: 0,
            robots_txt_fetches: 0,
            first_robots_txt: None,
            first_seen: time,
            last_seen: time,
            minutes: Minutes::default(),
            violations: 0,
            violations_before_robots_txt: 0,
            examples: Vec::new(),
        }
    }

    /// What tells clients apart: the product token and the address.
    pub(crate) fn key(&self) -> (&str, &str) {
        (&self.token, &self.address)
    }

    /// Counts a request at `time` from `user_agent` (`None`: no header).
    pub(crate) fn saw(&mut self, time: Timestamp, user_agent: Option<&Arc<str>>, bot_like: bool) {
        self.requests += 1;
        self.first_seen = self.first_seen.min(time);
        self.last_seen = self.last_seen.max(time);
        self.minutes.add(time.minute());
        match user_agent {
            None => self.reasons.no_user_agent = true,
            Some(ua) => {
                let better = bot_like && !self.reasons.bot_like_user_agent;
                if self.user_agent.is_none() || better {
                    self.user_agent = Some(Arc::clone(ua));
                }
                self.reasons.bot_like_user_agent |= bot_like;
            }
        }
    }

    pub(crate) fn fetched_robots_txt(&mut self, time: Timestamp) {
        self.robots_txt_fetches += 1;
        self.reasons.fetched_robots_txt = true;
        self.first_robots_txt = Some(self.first_robots_txt.map_or(time, |t| t.min(time)));
    }

    pub(crate) fn violated(&mut self, example: impl FnOnce() -> Violation, keep: usize) {
        self.violations += 1;
        if self.robots_txt_fetches == 0 {
            self.violations_before_robots_txt += 1;
        }
        if self.examples.len() < keep {
            // One at a time: a first push would make room for four, and
            // most clients of a big log have one example or none.
            self.examples.reserve_exact(1);
            self.examples.push(example());
        }
    }

    /// The robot rule: see [`RobotReasons`].
    pub(crate) fn is_robot(&self) -> bool {
        self.reasons.any()
    }

    pub(crate) fn into_report(self) -> RobotReport {
        let span_secs = (self.last_seen.0 - self.first_seen.0).max(60);
        let (peak_per_minute, peak_minute) = self.minutes.peak();
        RobotReport {
            token: self.token,
            address: self.address.into(),
            user_agent: self.user_agent,
            reasons: self.reasons,
            requests: self.requests,
            judged_requests: self.judged,
            other_methods: self.other_methods,
            robots_txt_fetches: self.robots_txt_fetches,
            first_robots_txt: self.first_robots_txt,
            first_seen: self.first_seen,
            last_seen: self.last_seen,
            peak_per_minute,
            peak_minute,
            mean_per_minute: self.requests as f64 * 60.0 / span_secs as f64,
            violations: self.violations,
            violations_before_robots_txt: self.violations_before_robots_txt,
            examples: self.examples,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_words_match_in_any_case() {
        for ua in [
            "BOT",
            "AhrefsBot/7.0",
            "SemrushCrawler",
            "SPIDER",
            "fetcher/1",
            "x (+http://x)",
        ] {
            assert!(looks_like_bot(ua), "{ua}");
        }
        for ua in ["Mozilla/5.0 Safari/605.1.15", "curl/8.5.0", "Wget/1.21", ""] {
            assert!(!looks_like_bot(ua), "{ua}");
        }
    }

    #[test]
    fn peak_minute_counts_a_calendar_minute() {
        let mut m = Minutes::default();
        for minute in [5, 5, 6, 6, 6, 7] {
            m.add(minute);
        }
        assert_eq!(m.peak(), (3, Timestamp(360)));
    }

    #[test]
    fn peak_minute_survives_slightly_late_lines() {
        let mut m = Minutes::default();
        for minute in [1, 2, 1, 3, 2, 1, 4, 1] {
            m.add(minute);
        }
        assert_eq!(m.peak(), (4, Timestamp(60)));
    }

    #[test]
    fn peak_minute_forgets_old_minutes_in_constant_memory() {
        let mut m = Minutes::default();
        for minute in 0..10_000 {
            m.add(minute);
            m.add(minute);
        }
        m.add(9_999);
        assert_eq!(m.peak(), (3, Timestamp(9_999 * 60)));
        assert_eq!(m.len, SLOTS);
    }

    #[test]
    fn mean_rate_is_over_the_active_span_and_at_least_a_minute() {
        let mut c = Client::new("FooBot".into(), "h", Timestamp(0));
        c.saw(Timestamp(0), Some(&"FooBot".into()), true);
        c.saw(Timestamp(10), Some(&"FooBot".into()), true);
        assert_eq!(c.clone().into_report().mean_per_minute, 2.0);
        for t in [60, 120, 240] {
            c.saw(Timestamp(t), Some(&"FooBot".into()), true);
        }
        assert_eq!(c.into_report().mean_per_minute, 5.0 / 4.0);
    }

    #[test]
    fn bot_looking_user_agent_replaces_a_human_sample() {
        let mut c = Client::new("Mozilla".into(), "h", Timestamp(0));
        c.saw(Timestamp(0), Some(&"Mozilla/5.0 Firefox".into()), false);
        c.saw(
            Timestamp(0),
            Some(&"Mozilla/5.0 (compatible; bingbot/2.0)".into()),
            true,
        );
        c.saw(Timestamp(0), Some(&"Mozilla/5.0 Chrome".into()), false);
        assert_eq!(
            c.user_agent.as_deref(),
            Some("Mozilla/5.0 (compatible; bingbot/2.0)")
        );
        assert!(c.is_robot());
    }
}
