//! What the robot decided about each URL it met, and why: the vocabulary of
//! the crawl log, the store and the summary.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The final fate of a URL. Every URL the crawl meets gets exactly one.
///
/// ```
/// use norobots_crawl::Decision;
///
/// assert_eq!(Decision::OutOfScope.as_str(), "out-of-scope");
/// assert_eq!("noindex".parse::<Decision>(), Ok(Decision::Noindex));
/// assert_eq!(serde_json::to_string(&Decision::Fetched).unwrap(), "\"fetched\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// Fetched, and saved unless `--spider` (redirects included: their
    /// target is a URL of its own).
    Fetched,
    /// Not requested: the origin's robots.txt forbids it.
    Disallowed,
    /// Not requested: the origin's robots.txt could not be had and the
    /// dialect says to wait, until the tries ran out.
    Deferred,
    /// Fetched, not saved: the page says `noindex`.
    Noindex,
    /// Not requested: outside what the options ask to crawl.
    OutOfScope,
    /// A redirect to a URL already decided.
    Duplicate,
    /// The request failed, or the server answered with an error status.
    Error,
}

impl Decision {
    /// Every decision, in the order of the log's documentation.
    ///
    /// ```
    /// assert_eq!(norobots_crawl::Decision::ALL.len(), 7);
    /// ```
    pub const ALL: [Decision; 7] = [
        Decision::Fetched,
        Decision::Disallowed,
        Decision::Deferred,
        Decision::Noindex,
        Decision::OutOfScope,
        Decision::Duplicate,
        Decision::Error,
    ];

    /// The name in the log.
    ///
    /// ```
    /// assert_eq!(norobots_crawl::Decision::Disallowed.as_str(), "disallowed");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Fetched => "fetched",
            Decision::Disallowed => "disallowed",
            Decision::Deferred => "deferred",
            Decision::Noindex => "noindex",
            Decision::OutOfScope => "out-of-scope",
            Decision::Duplicate => "duplicate",
            Decision::Error => "error",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Decision {
    type Err = String;

    fn from_str(s: &str) -> Result<Decision, String> {
        Decision::ALL
            .into_iter()
            .find(|d| d.as_str() == s)
            .ok_or_else(|| format!("unknown decision `{s}`"))
    }
}

/// Why a URL got its decision, as the log's `reason` object (tagged by
/// `kind`).
///
/// ```
/// use norobots_crawl::Reason;
///
/// let why = Reason::Robots { robots_url: "http://a.test/robots.txt".into(), line: 2, rule: "Disallow: /private/".into() };
/// assert_eq!(
///     serde_json::to_string(&why).unwrap(),
///     r#"{"kind":"robots","robots_url":"http://a.test/robots.txt","line":2,"rule":"Disallow: /private/"}"#
/// );
/// assert_eq!(why.to_string(), "http://a.test/robots.txt line 2: Disallow: /private/");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Reason {
    /// A rule of the origin's robots.txt decided.
    Robots {
        /// The robots.txt that holds the rule.
        robots_url: String,
        /// The rule's line.
        line: usize,
        /// The rule, as `Disallow: pattern`.
        rule: String,
    },
    /// The robots.txt answer decided for the whole origin (a 401 in the
    /// 1996 draft, a 5xx in RFC 9309, a deferral).
    RobotsTxt {
        /// The robots.txt asked for.
        robots_url: String,
        /// How its fetch ended (`HTTP 503`, `timed out`, …).
        outcome: String,
    },
    /// An option put the URL out of scope; `rule` names it (`-l 5`,
    /// `--no-parent`, `--reject *.png`, `--max-pages 100`).
    Scope {
        /// The option and what it said.
        rule: String,
    },
    /// A robots directive of the page or its headers.
    Meta {
        /// `meta` or `x-robots-tag`.
        source: String,
        /// The directive (`noindex`).
        directive: String,
    },
    /// A redirect to a URL already decided.
    Redirect {
        /// Where it led.
        to: String,
    },
    /// The request or the answer failed.
    Failure {
        /// What went wrong.
        message: String,
    },
    /// What the robot fetched for itself (robots.txt, a sitemap) or what
    /// it fetched but kept only in part (a page cut at the size limit).
    Note {
        /// What it was.
        note: String,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Robots {
                robots_url,
                line,
                rule,
            } => write!(f, "{robots_url} line {line}: {rule}"),
            Reason::RobotsTxt {
                robots_url,
                outcome,
            } => write!(f, "{robots_url}: {outcome}"),
            Reason::Scope { rule } => write!(f, "out of scope: {rule}"),
            Reason::Meta { source, directive } => write!(f, "{source}: {directive}"),
            Reason::Redirect { to } => write!(f, "redirects to {to}"),
            Reason::Failure { message } => f.write_str(message),
            Reason::Note { note } => f.write_str(note),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_read_back_from_their_names() {
        for d in Decision::ALL {
            assert_eq!(d.as_str().parse::<Decision>(), Ok(d));
            let json = serde_json::to_string(&d).unwrap();
            assert_eq!(json, format!("\"{d}\""));
            assert_eq!(serde_json::from_str::<Decision>(&json).unwrap(), d);
        }
        assert!("fetch".parse::<Decision>().is_err());
    }

    #[test]
    fn reasons_round_trip_through_json() {
        let reasons = [
            Reason::RobotsTxt {
                robots_url: "http://d.test/robots.txt".into(),
                outcome: "HTTP 503".into(),
            },
            Reason::Scope {
                rule: "-l 5".into(),
            },
            Reason::Meta {
                source: "meta".into(),
                directive: "noindex".into(),
            },
            Reason::Redirect {
                to: "http://a.test/x".into(),
            },
            Reason::Failure {
                message: "timed out".into(),
            },
            Reason::Note {
                note: "robots.txt".into(),
            },
        ];
        for r in reasons {
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<Reason>(&json).unwrap(), r, "{json}");
        }
    }
}
