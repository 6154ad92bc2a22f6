//! What an HTTP answer for `/robots.txt` means, per dialect.
//!
//! The tables are in `dialects.md` ("Access method"): the 1996 draft's
//! recommendations (section 3.1), which the 1994 standard inherits, and RFC
//! 9309 section 2.3.1, which `google` follows. This module is pure: the
//! fetcher reports an [`Outcome`], [`Policy::of`] reads it, and
//! [`retry_wait`] says how long a failure waits; nothing here touches the
//! network or the clock.

use std::fmt;
use std::time::{Duration, SystemTime};

use norobots::Dialect;

use crate::{Failure, Outcome};

/// What a robot may do on an origin, given how its `/robots.txt` fetch
/// ended: the status-code policy of RFC 9309 2.3.1 and the 1996 draft's
/// section 3.1, which [`Policy::of`] applies.
///
/// It says nothing of why; that is the [`Outcome`] beside it
/// ([`Fetch::outcome`](crate::Fetch::outcome)).
///
/// ```
/// use norobots::Dialect;
/// use norobots_fetch::{Outcome, Policy};
///
/// assert_eq!(Policy::of(Dialect::Rfc9309, &Outcome::Status(200)), Policy::Rules);
/// assert_eq!(Policy::of(Dialect::Draft1996, &Outcome::Status(403)), Policy::DisallowAll);
/// assert_eq!(Policy::of(Dialect::Rfc9309, &Outcome::Status(403)), Policy::AllowAll);
/// assert_eq!(Policy::DisallowAll.to_string(), "disallow all");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Policy {
    /// A file was found: obey its rules.
    Rules,
    /// No file, or none that can be had: no restrictions.
    AllowAll,
    /// The site is closed to robots.
    DisallowAll,
    /// A temporary failure: come back later.
    Defer,
}

impl Policy {
    /// The policy a fetch outcome gives, per dialect.
    ///
    /// | outcome | `norobots1994`, `draft1996` | `rfc9309`, `google` |
    /// |---|---|---|
    /// | 2xx | rules | rules |
    /// | 401, 403 | disallow all | allow all |
    /// | 429 | defer | defer |
    /// | other 4xx | allow all | allow all |
    /// | 5xx, timeout, network error | defer | disallow all |
    /// | redirects that lead nowhere | allow all | allow all |
    ///
    /// A 429 asks the robot to slow down; both dialects defer. Redirect
    /// chains longer than the limit, loops and redirects to other schemes
    /// count as "no file" (RFC 9309 2.3.1.2: "MAY assume that the robots.txt
    /// file is unavailable"); the draft says only to follow redirects, and
    /// is read the same way.
    ///
    /// ```
    /// use norobots::Dialect;
    /// use norobots_fetch::{Failure, Outcome, Policy};
    ///
    /// let down = Outcome::Failure(Failure::Status(503));
    /// assert_eq!(Policy::of(Dialect::Draft1996, &down), Policy::Defer);
    /// assert_eq!(Policy::of(Dialect::Rfc9309, &down), Policy::DisallowAll);
    /// ```
    pub fn of(dialect: Dialect, outcome: &Outcome) -> Policy {
        let legacy = matches!(dialect, Dialect::Norobots1994 | Dialect::Draft1996);
        match outcome {
            Outcome::Status(200..=299) => Policy::Rules,
            Outcome::Status(401 | 403) if legacy => Policy::DisallowAll,
            Outcome::Status(429) | Outcome::Failure(Failure::Status(429)) => Policy::Defer,
            Outcome::Status(400..=499) => Policy::AllowAll,
            // The fetcher reports 5xx as failures; a stray one here is the same.
            Outcome::Status(_) | Outcome::Failure(_) => {
                if legacy {
                    Policy::Defer
                } else {
                    Policy::DisallowAll
                }
            }
            Outcome::Redirect(_) => Policy::AllowAll,
        }
    }

    /// A short stable name: `rules`, `allow-all`, `disallow-all` or
    /// `defer`.
    ///
    /// ```
    /// assert_eq!(norobots_fetch::Policy::AllowAll.as_str(), "allow-all");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::Rules => "rules",
            Policy::AllowAll => "allow-all",
            Policy::DisallowAll => "disallow-all",
            Policy::Defer => "defer",
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Policy::Rules => "obey the file's rules",
            Policy::AllowAll => "allow all",
            Policy::DisallowAll => "disallow all",
            Policy::Defer => "defer the host",
        })
    }
}

/// How long to wait before the next attempt after `failures` failures in a
/// row: `Retry-After` when the server sent one, else `initial` doubled per
/// failure; never more than `max`, never less than one second.
///
/// ```
/// use std::time::Duration;
/// use norobots_fetch::retry_wait;
///
/// let m = Duration::from_secs(60);
/// let day = Duration::from_secs(86_400);
/// assert_eq!(retry_wait(1, None, m, day), m);
/// assert_eq!(retry_wait(3, None, m, day), m * 4);
/// assert_eq!(retry_wait(40, None, m, day), day);
/// assert_eq!(retry_wait(1, Some(Duration::from_secs(7)), m, day), Duration::from_secs(7));
/// ```
pub fn retry_wait(
    failures: u32,
    retry_after: Option<Duration>,
    initial: Duration,
    max: Duration,
) -> Duration {
    let wait = match retry_after {
        Some(d) => d,
        None => {
            let shift = failures.saturating_sub(1).min(30);
            initial.saturating_mul(1u32 << shift)
        }
    };
    wait.min(max).max(Duration::from_secs(1))
}

/// Reads a `Retry-After` value (RFC 9110 10.2.3): delay seconds or an HTTP
/// date, relative to `now`. A date in the past is a zero wait.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use norobots_fetch::parse_retry_after;
///
/// let now = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777);
/// assert_eq!(parse_retry_after("120", now), Some(Duration::from_secs(120)));
/// assert_eq!(parse_retry_after("Sun, 06 Nov 1994 08:49:57 GMT", now), Some(Duration::from_secs(20)));
/// assert_eq!(parse_retry_after("soon", now), None);
/// ```
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::client_error;
    use crate::RedirectProblem;

    const ALL: [Dialect; 4] = [
        Dialect::Norobots1994,
        Dialect::Draft1996,
        Dialect::Rfc9309,
        Dialect::Google,
    ];

    fn is_legacy(d: Dialect) -> bool {
        matches!(d, Dialect::Norobots1994 | Dialect::Draft1996)
    }

    // Draft 3.1 and RFC 9309 2.3.1.1: a successful answer is parsed.
    #[test]
    fn success_means_rules_in_every_dialect() {
        for d in ALL {
            for s in [200, 203, 204, 299] {
                assert_eq!(Policy::of(d, &Outcome::Status(s)), Policy::Rules);
            }
        }
    }

    // Draft 3.1: "401 or 403 ... the site is completely restricted";
    // RFC 9309 2.3.1.3: any 4xx, 401 and 403 included, is "unavailable".
    #[test]
    fn unauthorized_closes_the_site_only_in_the_draft() {
        for d in ALL {
            for s in [401, 403] {
                let a = Policy::of(d, &Outcome::Status(s));
                if is_legacy(d) {
                    assert_eq!(a, Policy::DisallowAll, "{d} {s}");
                } else {
                    assert_eq!(a, Policy::AllowAll, "{d} {s}");
                }
            }
        }
    }

    // Draft 3.1: "404 ... assume no restrictions"; RFC 9309 2.3.1.3.
    #[test]
    fn not_found_and_other_client_errors_allow_all() {
        for d in ALL {
            for s in [400, 404, 410, 451, 499] {
                assert_eq!(Policy::of(d, &Outcome::Status(s)), Policy::AllowAll);
            }
        }
    }

    // RFC 9309 2.3.1.4 and the draft's "temporary failure": 5xx and the
    // network. 429 defers everywhere.
    #[test]
    fn server_errors_defer_in_the_draft_and_disallow_in_the_rfc() {
        let failures = [
            Outcome::Status(500),
            Outcome::Status(503),
            Outcome::Failure(Failure::Status(502)),
            Outcome::Failure(Failure::Timeout),
            Outcome::Failure(Failure::Connect(client_error())),
            Outcome::Failure(Failure::Body(client_error())),
        ];
        for d in ALL {
            for o in &failures {
                let a = Policy::of(d, o);
                if is_legacy(d) {
                    assert_eq!(a, Policy::Defer);
                } else {
                    assert_eq!(a, Policy::DisallowAll);
                }
            }
            assert_eq!(Policy::of(d, &Outcome::Status(429)), Policy::Defer);
        }
    }

    // RFC 9309 2.3.1.2: past five redirects the file MAY be unavailable.
    #[test]
    fn redirects_that_lead_nowhere_allow_all() {
        for d in ALL {
            for p in [
                RedirectProblem::TooMany(6),
                RedirectProblem::Loop("http://a/".into()),
                RedirectProblem::BadTarget("ftp://a/".into()),
                RedirectProblem::NoLocation(301),
            ] {
                assert_eq!(Policy::of(d, &Outcome::Redirect(p)), Policy::AllowAll);
            }
        }
    }

    #[test]
    fn retry_waits_grow_and_stop_at_the_maximum() {
        let i = Duration::from_secs(10);
        let max = Duration::from_secs(100);
        let waits: Vec<u64> = (1..=6)
            .map(|n| retry_wait(n, None, i, max).as_secs())
            .collect();
        assert_eq!(waits, [10, 20, 40, 80, 100, 100]);
        assert_eq!(retry_wait(u32::MAX, None, i, max), max);
        assert_eq!(
            retry_wait(1, Some(Duration::ZERO), i, max),
            Duration::from_secs(1)
        );
        assert_eq!(retry_wait(1, Some(Duration::from_secs(1000)), i, max), max);
    }

    // RFC 9110 10.2.3: delay-seconds or an HTTP-date.
    #[test]
    fn retry_after_takes_seconds_or_a_date() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
        assert_eq!(parse_retry_after(" 5 ", now), Some(Duration::from_secs(5)));
        let past = httpdate::fmt_http_date(now - Duration::from_secs(50));
        assert_eq!(parse_retry_after(&past, now), Some(Duration::ZERO));
        let future = httpdate::fmt_http_date(now + Duration::from_secs(50));
        assert_eq!(
            parse_retry_after(&future, now),
            Some(Duration::from_secs(50))
        );
        assert_eq!(parse_retry_after("-1", now), None);
        assert_eq!(parse_retry_after("", now), None);
    }
}
