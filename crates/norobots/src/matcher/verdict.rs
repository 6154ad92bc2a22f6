//! What a check answers: the verdict, and the rule that decided it.

use std::fmt;

use super::Matcher;
use crate::rule_kind::RuleKind;
use crate::work;

#[derive(Clone, Copy, Debug)]
pub(super) struct RuleInfo {
    pub(super) line: u32,
    pub(super) kind: RuleKind,
    /// The pattern as written: a span of `arena` (in its body part), or of
    /// `lossy`.
    pub(super) text: (u32, u32),
    pub(super) lossy: bool,
}

/// What a check decided, and which rule decided it.
///
/// ```
/// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /a\n");
/// let matcher = robots.matcher("bot");
/// let v = matcher.check("/a/b");
/// assert!(!v.allowed);
/// assert_eq!(v.rule.unwrap().to_string(), "line 2: Disallow: /a");
/// assert_eq!(matcher.check("/b").rule, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict<'a> {
    /// Whether the robot may fetch the URL.
    pub allowed: bool,
    /// The deciding rule; `None` when no rule matched (or the URL is
    /// `/robots.txt`, which the dialects that say so always allow).
    pub rule: Option<RuleRef<'a>>,
}

/// A rule as a [`Verdict`] reports it.
///
/// ```
/// use norobots::{RuleKind, RuleRef};
///
/// let rule = RuleRef { line: 4, kind: RuleKind::Disallow, pattern: "/tmp/" };
/// assert_eq!(rule.to_string(), "line 4: Disallow: /tmp/");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleRef<'a> {
    /// The line the rule is on (1-based).
    pub line: usize,
    /// `Allow` or `Disallow`.
    pub kind: RuleKind,
    /// The pattern as written in the file.
    pub pattern: &'a str,
}

impl fmt::Display for RuleRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}: {}", self.line, self.kind, self.pattern)
    }
}

impl fmt::Display for Verdict<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.allowed {
            "allowed"
        } else {
            "disallowed"
        })?;
        match self.rule {
            Some(rule) => write!(f, " by {rule}"),
            None => f.write_str(" (no rule)"),
        }
    }
}

impl Matcher {
    pub(super) fn rule_of(&self, ordinal: u32) -> &RuleInfo {
        &self.rules[self.ordinals.order(ordinal)]
    }

    pub(super) fn pattern_text(&self, info: &RuleInfo) -> &str {
        let (a, b) = (info.text.0 as usize, info.text.1 as usize);
        if info.lossy {
            &self.lossy[a..b]
        } else {
            // Checked when the matcher was built: see `Matcher::new`.
            work::add_with(move || b - a);
            std::str::from_utf8(&self.arena[a..b]).unwrap_or_default()
        }
    }
}
