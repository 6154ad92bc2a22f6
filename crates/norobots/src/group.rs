//! The per-group extensions of the 1996 era and after: `Crawl-delay`,
//! `Request-rate` and `Visit-time`. They never change what a rule allows;
//! a crawler reads them to pace itself.

use std::time::Duration;

/// A `Request-rate: n/t` value: at most `requests` documents per `seconds`.
///
/// ```
/// use norobots::RequestRate;
///
/// assert_eq!(RequestRate::parse("1/10m"), Some(RequestRate { requests: 1, seconds: 600 }));
/// assert_eq!(RequestRate::parse("3/20s 0600-0845"), Some(RequestRate { requests: 3, seconds: 20 }));
/// assert_eq!(RequestRate::parse("fast"), None);
/// # #[cfg(feature = "serde")]
/// assert_eq!(
///     serde_json::to_string(&RequestRate::parse("1/10m").unwrap()).unwrap(),
///     r#"{"requests":1,"seconds":600}"#
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RequestRate {
    /// Documents allowed per window.
    pub requests: u32,
    /// The window, in seconds (never 0).
    pub seconds: u32,
}

impl RequestRate {
    /// Reads `n/t` where `t` may end in `s`, `m` or `h`; anything after
    /// white space (a visit-time window) is ignored.
    ///
    /// ```
    /// assert_eq!(norobots::RequestRate::parse("1/1h").unwrap().seconds, 3600);
    /// ```
    pub fn parse(value: &str) -> Option<RequestRate> {
        let value = value.split_ascii_whitespace().next()?;
        let (n, t) = value.split_once('/')?;
        let requests = n.trim().parse().ok()?;
        let t = t.trim();
        let (digits, unit) = match t.as_bytes().last()? {
            b's' | b'S' => (&t[..t.len() - 1], 1),
            b'm' | b'M' => (&t[..t.len() - 1], 60),
            b'h' | b'H' => (&t[..t.len() - 1], 3600),
            _ => (t, 1),
        };
        let seconds = digits.parse::<u32>().ok()?.checked_mul(unit)?;
        (seconds > 0).then_some(RequestRate { requests, seconds })
    }
}

/// A `Visit-time: hhmm-hhmm` window (UTC) in which the site prefers visits.
///
/// ```
/// use norobots::VisitTime;
///
/// let t = VisitTime::parse("2300-0130").unwrap();
/// assert_eq!((t.start_minute, t.end_minute), (23 * 60, 90));
/// assert!(t.contains(0));
/// assert!(!t.contains(12 * 60));
/// # #[cfg(feature = "serde")]
/// assert_eq!(serde_json::to_string(&t).unwrap(), r#"{"start_minute":1380,"end_minute":90}"#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VisitTime {
    /// Start, in minutes after midnight UTC.
    pub start_minute: u16,
    /// End, in minutes after midnight UTC (may be before the start: the
    /// window then spans midnight).
    pub end_minute: u16,
}

impl VisitTime {
    /// Reads `hhmm-hhmm` (a `:` inside each time is accepted).
    ///
    /// ```
    /// assert!(norobots::VisitTime::parse("01:00-03:00").is_some());
    /// assert!(norobots::VisitTime::parse("2500-0100").is_none());
    /// ```
    pub fn parse(value: &str) -> Option<VisitTime> {
        let (a, b) = value.trim().split_once('-')?;
        Some(VisitTime {
            start_minute: minute_of_day(a)?,
            end_minute: minute_of_day(b)?,
        })
    }

    /// Whether `minute` (after midnight UTC) falls in the window.
    ///
    /// ```
    /// let t = norobots::VisitTime::parse("0100-0300").unwrap();
    /// assert!(t.contains(120) && !t.contains(180));
    /// ```
    pub fn contains(&self, minute: u16) -> bool {
        if self.start_minute <= self.end_minute {
            (self.start_minute..self.end_minute).contains(&minute)
        } else {
            minute >= self.start_minute || minute < self.end_minute
        }
    }
}

fn minute_of_day(s: &str) -> Option<u16> {
    let s = s.trim();
    let digits: Vec<u8> = s.bytes().filter(|&b| b != b':').collect();
    if digits.len() != 4 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let h = u16::from(digits[0] - b'0') * 10 + u16::from(digits[1] - b'0');
    let m = u16::from(digits[2] - b'0') * 10 + u16::from(digits[3] - b'0');
    (h < 24 && m < 60).then_some(h * 60 + m)
}

/// Reads a `Crawl-delay` value in seconds, to the nearest nanosecond;
/// fractions are allowed, negative, infinite and non-numbers are not. A
/// delay longer than a `Duration` holds (some 584 billion years) is
/// `Duration::MAX`: the site asked for a longer wait than any crawler will
/// make, and reading it as invalid would let the crawler wait none.
pub(crate) fn parse_crawl_delay(value: &str) -> Option<Duration> {
    let v: f64 = value.trim().parse().ok()?;
    (v.is_finite() && v >= 0.0).then(|| Duration::try_from_secs_f64(v).unwrap_or(Duration::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crawl_delay_accepts_fractions_and_rejects_garbage() {
        assert_eq!(parse_crawl_delay("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_crawl_delay(" 10 "), Some(Duration::from_secs(10)));
        assert_eq!(parse_crawl_delay("-0"), Some(Duration::ZERO));
        assert_eq!(parse_crawl_delay("0.0000000004"), Some(Duration::ZERO));
        assert_eq!(parse_crawl_delay("-1"), None);
        assert_eq!(parse_crawl_delay("inf"), None);
        assert_eq!(parse_crawl_delay("NaN"), None);
        assert_eq!(parse_crawl_delay("soon"), None);
    }

    // A delay past what a `Duration` holds is the longest one, not none.
    #[test]
    fn a_crawl_delay_too_long_for_a_duration_saturates() {
        assert_eq!(parse_crawl_delay("1e30"), Some(Duration::MAX));
        assert_eq!(
            parse_crawl_delay("18446744073709551616"),
            Some(Duration::MAX)
        );
        let near = parse_crawl_delay("18446744073709549568").unwrap();
        assert_eq!(near.as_secs(), 18_446_744_073_709_549_568);
    }

    #[test]
    fn request_rate_rejects_zero_window_and_overflow() {
        assert_eq!(RequestRate::parse("1/0"), None);
        assert_eq!(RequestRate::parse("1/4294967295h"), None);
        assert_eq!(RequestRate::parse("1/"), None);
    }

    #[test]
    fn visit_time_window_may_span_midnight() {
        let t = VisitTime::parse("2200-0200").unwrap();
        assert!(t.contains(23 * 60) && t.contains(60) && !t.contains(3 * 60));
    }
}
