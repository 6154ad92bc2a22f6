//! What the cache says about one URL for one robot, and why.

use std::fmt;
use std::time::SystemTime;

use norobots::{RuleKind, RuleRef};

use crate::Outcome;

/// What the cache says about one URL for one robot.
///
/// ```
/// use norobots_fetch::{Decision, Reason};
///
/// let d = Decision::Allow(Reason::NoRule);
/// assert!(d.is_allowed());
/// assert_eq!(d.to_string(), "allowed (no rule)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Decision {
    /// The robot may fetch the URL.
    Allow(Reason),
    /// The robot must not fetch the URL.
    Disallow(Reason),
    /// Come back later: the origin's robots.txt could not be had, and the
    /// dialect says to wait (the 1996 draft on 5xx and network errors; 429
    /// everywhere).
    Defer {
        /// When to ask again.
        until: SystemTime,
        /// What went wrong.
        outcome: Outcome,
    },
}

impl Decision {
    /// Whether the robot may fetch the URL now.
    ///
    /// ```
    /// use norobots_fetch::{Decision, Failure, Outcome};
    ///
    /// let later = Decision::Defer { until: std::time::SystemTime::now(), outcome: Outcome::Failure(Failure::Timeout) };
    /// assert!(!later.is_allowed());
    /// ```
    pub fn is_allowed(&self) -> bool {
        matches!(self, Decision::Allow(_))
    }

    /// Why the URL is allowed or disallowed; `None` for a deferral, which
    /// has only an outcome.
    ///
    /// ```
    /// use norobots_fetch::{Decision, Outcome, Reason};
    ///
    /// let d = Decision::Disallow(Reason::Fetch(Outcome::Status(401)));
    /// assert_eq!(d.reason(), Some(&Reason::Fetch(Outcome::Status(401))));
    /// ```
    pub fn reason(&self) -> Option<&Reason> {
        match self {
            Decision::Allow(r) | Decision::Disallow(r) => Some(r),
            Decision::Defer { .. } => None,
        }
    }

    /// How the robots.txt fetch ended, when that decided for the whole
    /// origin (a deferral, or [`Reason::Fetch`]); `None` when the file's
    /// rules decided.
    ///
    /// ```
    /// use norobots_fetch::{Decision, Outcome, Reason};
    ///
    /// let d = Decision::Allow(Reason::Fetch(Outcome::Status(404)));
    /// assert_eq!(d.outcome(), Some(&Outcome::Status(404)));
    /// assert_eq!(Decision::Allow(Reason::NoRule).outcome(), None);
    /// ```
    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            Decision::Defer { outcome, .. }
            | Decision::Allow(Reason::Fetch(outcome))
            | Decision::Disallow(Reason::Fetch(outcome)) => Some(outcome),
            _ => None,
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decision::Allow(r) => write!(f, "allowed ({r})"),
            Decision::Disallow(r) => write!(f, "disallowed ({r})"),
            Decision::Defer { until, outcome } => {
                write!(
                    f,
                    "deferred until {} ({outcome})",
                    httpdate::fmt_http_date(*until)
                )
            }
        }
    }
}

/// Why a URL is allowed or disallowed: a rule of the file, no rule, or the
/// fetch of the file, which decided for every URL of the origin.
///
/// ```
/// use norobots::RuleKind;
/// use norobots_fetch::Reason;
///
/// let r = Reason::Rule { line: 3, kind: RuleKind::Disallow, pattern: "/x".into(), group_line: 1 };
/// assert_eq!(r.to_string(), "line 3: Disallow: /x");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Reason {
    /// A rule of the file decided.
    Rule {
        /// The rule's line (1-based).
        line: usize,
        /// `Allow` or `Disallow`.
        kind: RuleKind,
        /// The pattern as written.
        pattern: Box<str>,
        /// The line of the first `User-agent` of the rule's group: which
        /// group decided.
        group_line: usize,
    },
    /// The file was read and no rule matched.
    NoRule,
    /// There is no file to obey; how the fetch ended decided for the whole
    /// origin (see [`Policy::of`](crate::Policy::of)).
    Fetch(Outcome),
}

impl Reason {
    /// The deciding rule in the core crate's terms, as
    /// [`Matcher::check`](norobots::Matcher::check) reports it.
    ///
    /// ```
    /// use norobots::RuleKind;
    /// use norobots_fetch::Reason;
    ///
    /// let r = Reason::Rule { line: 3, kind: RuleKind::Disallow, pattern: "/x".into(), group_line: 1 };
    /// assert_eq!(r.rule().unwrap().pattern, "/x");
    /// assert!(Reason::NoRule.rule().is_none());
    /// ```
    pub fn rule(&self) -> Option<RuleRef<'_>> {
        match self {
            Reason::Rule {
                line,
                kind,
                pattern,
                group_line,
            } => Some(RuleRef {
                line: *line,
                kind: *kind,
                pattern,
                group_line: *group_line,
            }),
            _ => None,
        }
    }

    pub(crate) fn of(rule: Option<RuleRef<'_>>) -> Reason {
        match rule {
            Some(r) => Reason::Rule {
                line: r.line,
                kind: r.kind,
                pattern: r.pattern.into(),
                group_line: r.group_line,
            },
            None => Reason::NoRule,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Rule { .. } => self.rule().expect("a rule").fmt(f),
            Reason::NoRule => f.write_str("no rule"),
            Reason::Fetch(o) => write!(f, "robots.txt: {o}"),
        }
    }
}
