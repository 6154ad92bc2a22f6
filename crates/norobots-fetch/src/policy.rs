//! What an HTTP answer for `/robots.txt` means, per dialect.
//!
//! The tables are in `dialects.md` ("Access method"): the 1996 draft's
//! recommendations (section 3.1), which the 1994 standard inherits, and RFC
//! 9309 section 2.3.1, which `google` follows. This module is pure: the
//! fetcher reports an [`Outcome`] and [`access`] turns it into an
//! [`Access`]; nothing here touches the network or the clock.

use std::fmt;
use std::time::{Duration, SystemTime};

use norobots::Dialect;

/// How a fetch of `/robots.txt` ended, after redirects were followed.
///
/// ```
/// use norobots_fetch::{Failure, Outcome};
///
/// let ok = Outcome::Status(200);
/// let down = Outcome::Failure(Failure::Timeout);
/// assert_ne!(ok, down);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The server answered with this status (the last hop's, for a chain).
    Status(u16),
    /// Redirects did not lead to a file.
    Redirect(RedirectProblem),
    /// No complete answer came.
    Failure(Failure),
}

/// Why following redirects stopped without reaching a file.
///
/// ```
/// use norobots_fetch::RedirectProblem;
///
/// assert_eq!(RedirectProblem::TooMany(6).to_string(), "more than 5 redirects (6)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RedirectProblem {
    /// More hops than allowed (the count reached).
    TooMany(usize),
    /// A hop led back to a URL already visited.
    Loop(String),
    /// A hop led to a scheme other than `http`/`https`, or to an URL that
    /// does not parse (a `Location` that is not UTF-8 among them).
    BadTarget(String),
    /// A 3xx answer without a usable `Location`.
    NoLocation(u16),
}

impl fmt::Display for RedirectProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RedirectProblem::TooMany(n) => {
                write!(f, "more than {} redirects ({n})", n.saturating_sub(1))
            }
            RedirectProblem::Loop(url) => write!(f, "redirect loop back to {url}"),
            RedirectProblem::BadTarget(url) => write!(f, "redirect to {url}, not an HTTP URL"),
            RedirectProblem::NoLocation(status) => write!(f, "{status} without a Location"),
        }
    }
}

/// A fetch that got no complete answer: the server or the network failed.
///
/// ```
/// use norobots_fetch::Failure;
///
/// assert_eq!(Failure::Timeout.kind(), "timeout");
/// assert_eq!(Failure::Status(503).kind(), "5xx");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// A 5xx answer, or 429 Too Many Requests.
    Status(u16),
    /// The connect or total timeout fired.
    Timeout,
    /// No connection (refused, unreachable, DNS).
    Connect(String),
    /// The connection broke while the body was read.
    Body(String),
    /// Any other transport error.
    Network(String),
}

impl Failure {
    /// A short stable name for metrics and logs: `5xx`, `429`, `timeout`,
    /// `connect`, `body` or `network`.
    ///
    /// ```
    /// assert_eq!(norobots_fetch::Failure::Status(429).kind(), "429");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Status(429) => "429",
            Failure::Status(_) => "5xx",
            Failure::Timeout => "timeout",
            Failure::Connect(_) => "connect",
            Failure::Body(_) => "body",
            Failure::Network(_) => "network",
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Status(s) => write!(f, "HTTP {s}"),
            Failure::Timeout => f.write_str("timed out"),
            Failure::Connect(e) => write!(f, "cannot connect: {e}"),
            Failure::Body(e) => write!(f, "connection broke in the body: {e}"),
            Failure::Network(e) => write!(f, "network error: {e}"),
        }
    }
}

/// What a robot may do on an origin, given how its `/robots.txt` fetch
/// ended.
///
/// ```
/// use norobots::Dialect;
/// use norobots_fetch::{access, Access, Outcome};
///
/// assert_eq!(access(Dialect::Rfc9309, &Outcome::Status(200)), Access::Rules);
/// assert!(matches!(access(Dialect::Draft1996, &Outcome::Status(403)), Access::DisallowAll(_)));
/// assert!(matches!(access(Dialect::Rfc9309, &Outcome::Status(403)), Access::AllowAll(_)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// A file was found: obey its rules.
    Rules,
    /// No file, or none that can be had: no restrictions.
    AllowAll(Outcome),
    /// The site is closed to robots.
    DisallowAll(Outcome),
    /// A temporary failure: come back later.
    Defer(Outcome),
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, why) = match self {
            Access::Rules => return f.write_str("obey the file's rules"),
            Access::AllowAll(o) => ("allow all", o),
            Access::DisallowAll(o) => ("disallow all", o),
            Access::Defer(o) => ("defer the host", o),
        };
        write!(f, "{what} ({why})")
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Status(s) => write!(f, "HTTP {s}"),
            Outcome::Redirect(r) => r.fmt(f),
            Outcome::Failure(e) => e.fmt(f),
        }
    }
}

/// The access a fetch outcome gives, per dialect.
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
/// A 429 asks the robot to slow down; both dialects defer. Redirect chains
/// longer than the limit, loops and redirects to other schemes count as "no
/// file" (RFC 9309 2.3.1.2: "MAY assume that the robots.txt file is
/// unavailable"); the draft says only to follow redirects, and is read the
/// same way.
///
/// ```
/// use norobots::Dialect;
/// use norobots_fetch::{access, Access, Failure, Outcome};
///
/// let down = Outcome::Failure(Failure::Status(503));
/// assert_eq!(access(Dialect::Draft1996, &down), Access::Defer(down.clone()));
/// assert_eq!(access(Dialect::Rfc9309, &down), Access::DisallowAll(down.clone()));
/// ```
pub fn access(dialect: Dialect, outcome: &Outcome) -> Access {
    let legacy = matches!(dialect, Dialect::Norobots1994 | Dialect::Draft1996);
    let o = outcome.clone();
    match outcome {
        Outcome::Status(200..=299) => Access::Rules,
        Outcome::Status(401 | 403) if legacy => Access::DisallowAll(o),
        Outcome::Status(429) | Outcome::Failure(Failure::Status(429)) => Access::Defer(o),
        Outcome::Status(400..=499) => Access::AllowAll(o),
        // The fetcher reports 5xx as failures; a stray one here is the same.
        Outcome::Status(_) | Outcome::Failure(_) => {
            if legacy {
                Access::Defer(o)
            } else {
                Access::DisallowAll(o)
            }
        }
        Outcome::Redirect(_) => Access::AllowAll(o),
    }
}

/// Whether an outcome is a failure to reach the file (a 5xx, 429 or
/// transport error) rather than an answer about it.
///
/// ```
/// use norobots_fetch::{is_failure, Failure, Outcome};
///
/// assert!(is_failure(&Outcome::Failure(Failure::Timeout)));
/// assert!(is_failure(&Outcome::Status(503)));
/// assert!(!is_failure(&Outcome::Status(404)));
/// ```
pub fn is_failure(outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Status(s) => *s == 429 || !(200..500).contains(s),
        Outcome::Redirect(_) => false,
        Outcome::Failure(_) => true,
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
                assert_eq!(access(d, &Outcome::Status(s)), Access::Rules);
            }
        }
    }

    // Draft 3.1: "401 or 403 ... the site is completely restricted";
    // RFC 9309 2.3.1.3: any 4xx, 401 and 403 included, is "unavailable".
    #[test]
    fn unauthorized_closes_the_site_only_in_the_draft() {
        for d in ALL {
            for s in [401, 403] {
                let a = access(d, &Outcome::Status(s));
                if is_legacy(d) {
                    assert!(matches!(a, Access::DisallowAll(_)), "{d} {s}");
                } else {
                    assert!(matches!(a, Access::AllowAll(_)), "{d} {s}");
                }
            }
        }
    }

    // Draft 3.1: "404 ... assume no restrictions"; RFC 9309 2.3.1.3.
    #[test]
    fn not_found_and_other_client_errors_allow_all() {
        for d in ALL {
            for s in [400, 404, 410, 451, 499] {
                assert!(matches!(
                    access(d, &Outcome::Status(s)),
                    Access::AllowAll(_)
                ));
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
            Outcome::Failure(Failure::Connect("refused".into())),
            Outcome::Failure(Failure::Body("reset".into())),
        ];
        for d in ALL {
            for o in &failures {
                let a = access(d, o);
                if is_legacy(d) {
                    assert_eq!(a, Access::Defer(o.clone()));
                } else {
                    assert_eq!(a, Access::DisallowAll(o.clone()));
                }
            }
            assert!(matches!(access(d, &Outcome::Status(429)), Access::Defer(_)));
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
                assert!(matches!(
                    access(d, &Outcome::Redirect(p)),
                    Access::AllowAll(_)
                ));
            }
        }
    }

    #[test]
    fn failures_are_told_from_answers() {
        assert!(is_failure(&Outcome::Status(500)));
        assert!(is_failure(&Outcome::Status(429)));
        assert!(!is_failure(&Outcome::Status(403)));
        assert!(!is_failure(&Outcome::Status(200)));
        assert!(!is_failure(&Outcome::Redirect(RedirectProblem::TooMany(6))));
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
