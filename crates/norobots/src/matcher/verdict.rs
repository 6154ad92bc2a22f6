//! What a check answers: the verdict, and the rule that decided it.

use std::fmt;

use super::Matcher;
use crate::rule_kind::RuleKind;
use crate::work;

#[derive(Clone, Copy, Debug)]
pub(super) struct RuleInfo {
    pub(super) line: u32,
    /// The line of its group's first `User-agent`.
    pub(super) group_line: u32,
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
/// assert_eq!(v.to_string(), "disallowed by line 2: Disallow: /a");
/// assert_eq!(matcher.check("/b").rule, None);
/// ```
///
/// With the `serde` feature:
///
/// ```
/// # #[cfg(feature = "serde")] {
/// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /a\n");
/// let json = serde_json::to_string(&robots.matcher("bot").check("/a/b")).unwrap();
/// assert_eq!(
///     json,
///     r#"{"allowed":false,"rule":{"line":2,"kind":"Disallow","pattern":"/a","group_line":1}}"#
/// );
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Verdict<'a> {
    /// Whether the robot may fetch the URL.
    pub allowed: bool,
    /// The deciding rule; `None` when no rule matched (or the URL is
    /// `/robots.txt`, which the dialects that say so always allow).
    pub rule: Option<RuleRef<'a>>,
}

/// A rule as a [`Verdict`] reports it: where it is, what it does, and
/// which group it belongs to.
///
/// ```
/// let body = b"User-agent: *\nDisallow: /\n\nUser-agent: FooBot\nDisallow: /tmp/\n";
/// let robots = norobots::Robots::parse(body);
/// let matcher = robots.matcher("FooBot");
/// let rule = matcher.check("/tmp/a").rule.unwrap();
/// assert_eq!((rule.line, rule.group_line), (5, 4));
/// assert_eq!(rule.kind, norobots::RuleKind::Disallow);
/// assert_eq!(rule.pattern, "/tmp/");
/// assert_eq!(rule.to_string(), "line 5: Disallow: /tmp/");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RuleRef<'a> {
    /// The line the rule is on (1-based).
    pub line: usize,
    /// `Allow` or `Disallow`.
    pub kind: RuleKind,
    /// The pattern as written in the file.
    pub pattern: &'a str,
    /// The line of the first `User-agent` of the group the rule is in
    /// (the group's [`Group::line`](crate::Group::line)): which group
    /// decided, among those that apply.
    pub group_line: usize,
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
