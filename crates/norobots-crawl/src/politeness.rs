//! How long the robot leaves a host alone between two requests. Pure: the
//! options and what robots.txt says in, a duration out; the clock and the
//! random draw are arguments.
//!
//! The delay between two requests to one host is the largest of `--wait`
//! (0.5 to 1.5 times it with `--random-wait`, as wget), the robots.txt
//! `Crawl-delay` for the robot's group (capped by `--max-crawl-delay`),
//! and the interval a `Request-rate` allows (`1/10s`: one request each ten
//! seconds). A `Visit-time` window holds a host outside its hours.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use norobots::{RequestRate, VisitTime};

/// The politeness options of a crawl.
///
/// ```
/// use std::time::Duration;
/// use norobots_crawl::politeness::{Pace, Politeness};
///
/// let p = Politeness { wait: Duration::from_secs(1), ..Politeness::default() };
/// let pace = Pace { crawl_delay: Some(Duration::from_millis(2500)), ..Pace::default() };
/// assert_eq!(p.delay(&pace, 0.5).0, Duration::from_millis(2500));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Politeness {
    /// `-w`: the least time between two requests to a host.
    pub wait: Duration,
    /// `--random-wait`: each wait is `wait` times a draw in 0.5..1.5.
    pub random_wait: bool,
    /// `--max-crawl-delay`: a longer `Crawl-delay` is cut to this.
    pub max_crawl_delay: Duration,
}

impl Default for Politeness {
    fn default() -> Politeness {
        Politeness {
            wait: Duration::ZERO,
            random_wait: false,
            max_crawl_delay: Duration::from_secs(30),
        }
    }
}

/// What a host's robots.txt says of the pace, for the robot's group.
///
/// ```
/// let pace = norobots_crawl::politeness::Pace::default();
/// assert_eq!(pace.crawl_delay, None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pace {
    /// `Crawl-delay`.
    pub crawl_delay: Option<Duration>,
    /// `Request-rate`.
    pub request_rate: Option<RequestRate>,
    /// `Visit-time`.
    pub visit_time: Option<VisitTime>,
}

/// Which rule set a host's delay.
///
/// ```
/// use norobots_crawl::politeness::Cause;
/// assert_eq!(Cause::CrawlDelay.as_str(), "crawl-delay");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cause {
    /// No delay applies.
    None,
    /// `--wait`.
    Wait,
    /// robots.txt `Crawl-delay`.
    CrawlDelay,
    /// robots.txt `Crawl-delay`, cut to `--max-crawl-delay`.
    CrawlDelayCapped,
    /// robots.txt `Request-rate`.
    RequestRate,
}

impl Cause {
    /// A stable name for logs and the summary.
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::None => "none",
            Cause::Wait => "wait",
            Cause::CrawlDelay => "crawl-delay",
            Cause::CrawlDelayCapped => "crawl-delay (capped)",
            Cause::RequestRate => "request-rate",
        }
    }
}

impl Politeness {
    /// The delay before the next request to a host with `pace`, and what
    /// set it; `draw` is a number in 0..1 for `--random-wait`.
    pub fn delay(&self, pace: &Pace, draw: f64) -> (Duration, Cause) {
        let wait = if self.random_wait {
            self.wait.mul_f64(0.5 + draw.clamp(0.0, 1.0))
        } else {
            self.wait
        };
        let mut best = (
            wait,
            if wait.is_zero() {
                Cause::None
            } else {
                Cause::Wait
            },
        );
        if let Some(asked) = pace.crawl_delay.filter(|d| !d.is_zero()) {
            let (d, cause) = if asked > self.max_crawl_delay {
                (self.max_crawl_delay, Cause::CrawlDelayCapped)
            } else {
                (asked, Cause::CrawlDelay)
            };
            if d > best.0 {
                best = (d, cause);
            }
        }
        if let Some(rate) = pace.request_rate.filter(|r| r.requests > 0) {
            let interval =
                Duration::from_secs_f64(f64::from(rate.seconds) / f64::from(rate.requests))
                    .min(self.max_crawl_delay);
            if interval > best.0 {
                best = (interval, Cause::RequestRate);
            }
        }
        best
    }

    /// The delay without the random draw: the least a host waits, kept
    /// with it in the store so that a claim holds the host even if the
    /// process dies before the request ends.
    pub fn floor(&self, pace: &Pace) -> Duration {
        // The smallest draw gives the shortest of the random waits.
        self.delay(pace, 0.0).0
    }
}

/// How long to wait at `now` before a host's `Visit-time` window opens;
/// `None` when it is open. The window is in UTC and may span midnight
/// (`2300-0100`).
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use norobots::VisitTime;
/// use norobots_crawl::politeness::visit_wait;
///
/// let night = VisitTime { start_minute: 60, end_minute: 180 }; // 0100-0300 UTC
/// let noon = UNIX_EPOCH + Duration::from_secs(12 * 3600);
/// assert_eq!(visit_wait(noon, night), Some(Duration::from_secs(13 * 3600)));
/// assert_eq!(visit_wait(UNIX_EPOCH + Duration::from_secs(2 * 3600), night), None);
/// ```
pub fn visit_wait(now: SystemTime, window: VisitTime) -> Option<Duration> {
    const DAY: u64 = 24 * 60;
    let secs = now.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    let minute = (secs / 60) % DAY;
    let (start, end) = (
        u64::from(window.start_minute) % DAY,
        u64::from(window.end_minute) % DAY,
    );
    let open = if start <= end {
        (start..=end).contains(&minute)
    } else {
        minute >= start || minute <= end
    };
    if open || start == end {
        return None;
    }
    let minutes = (start + DAY - minute) % DAY;
    let into_minute = secs % 60;
    Some(Duration::from_secs(minutes * 60 - into_minute))
}

/// wget's wait before retry `attempt` (from 1) after a transient
/// failure: one second after the first, two after the second, … up to
/// `--waitretry`.
///
/// ```
/// use std::time::Duration;
/// use norobots_crawl::politeness::retry_wait;
///
/// let max = Duration::from_secs(10);
/// assert_eq!(retry_wait(1, max), Duration::from_secs(1));
/// assert_eq!(retry_wait(3, max), Duration::from_secs(3));
/// assert_eq!(retry_wait(40, max), max);
/// assert_eq!(retry_wait(2, Duration::from_millis(500)), Duration::from_millis(500));
/// ```
pub fn retry_wait(attempt: u32, waitretry: Duration) -> Duration {
    Duration::from_secs(u64::from(attempt.max(1))).min(waitretry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_rule_wins_and_says_so() {
        let p = Politeness {
            wait: Duration::from_secs(1),
            ..Politeness::default()
        };
        assert_eq!(
            p.delay(&Pace::default(), 0.0),
            (Duration::from_secs(1), Cause::Wait)
        );
        let rate = Pace {
            crawl_delay: Some(Duration::from_secs(2)),
            request_rate: Some(RequestRate {
                requests: 1,
                seconds: 5,
            }),
            visit_time: None,
        };
        assert_eq!(
            p.delay(&rate, 0.0),
            (Duration::from_secs(5), Cause::RequestRate)
        );
        let none = Politeness::default();
        assert_eq!(
            none.delay(&Pace::default(), 0.7),
            (Duration::ZERO, Cause::None)
        );
    }

    #[test]
    fn a_long_crawl_delay_is_capped_and_nonsense_ignored() {
        let p = Politeness::default();
        let long = Pace {
            crawl_delay: Some(Duration::from_secs(3600)),
            ..Pace::default()
        };
        assert_eq!(
            p.delay(&long, 0.0),
            (Duration::from_secs(30), Cause::CrawlDelayCapped)
        );
        // The core reads a delay too long for a `Duration` as the longest
        // one; negative and non-numbers never reach a `Pace`.
        let endless = Pace {
            crawl_delay: Some(Duration::MAX),
            ..Pace::default()
        };
        assert_eq!(
            p.delay(&endless, 0.0),
            (Duration::from_secs(30), Cause::CrawlDelayCapped)
        );
        let pace = Pace {
            crawl_delay: Some(Duration::ZERO),
            ..Pace::default()
        };
        assert_eq!(p.delay(&pace, 0.0).1, Cause::None);
        let zero_rate = Pace {
            request_rate: Some(RequestRate {
                requests: 0,
                seconds: 10,
            }),
            ..Pace::default()
        };
        assert_eq!(p.delay(&zero_rate, 0.0).1, Cause::None);
    }

    #[test]
    fn random_wait_spans_half_to_one_and_a_half_times() {
        let p = Politeness {
            wait: Duration::from_secs(2),
            random_wait: true,
            ..Politeness::default()
        };
        assert_eq!(p.delay(&Pace::default(), 0.0).0, Duration::from_secs(1));
        assert_eq!(p.delay(&Pace::default(), 1.0).0, Duration::from_secs(3));
        assert_eq!(p.floor(&Pace::default()), Duration::from_secs(1));
    }

    #[test]
    fn a_window_across_midnight_is_open_on_both_sides() {
        let w = VisitTime {
            start_minute: 23 * 60,
            end_minute: 60,
        };
        let at = |h: u64, m: u64| UNIX_EPOCH + Duration::from_secs(h * 3600 + m * 60);
        assert_eq!(visit_wait(at(23, 30), w), None);
        assert_eq!(visit_wait(at(0, 30), w), None);
        assert_eq!(visit_wait(at(22, 0), w), Some(Duration::from_secs(3600)));
        assert_eq!(
            visit_wait(at(1, 1), w),
            Some(Duration::from_secs(21 * 3600 + 59 * 60))
        );
    }
}
