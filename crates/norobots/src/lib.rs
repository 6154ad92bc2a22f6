//! norobots reads robots.txt files and decides which URLs a robot may fetch,
//! in each of the four dialects the protocol has had.
//!
//! | | `norobots1994` | `draft1996` | `rfc9309` (default) | `google` |
//! |---|---|---|---|---|
//! | records | blank lines end them | blank lines end them | rules then `User-agent` start a group | as `rfc9309` |
//! | fields | `User-agent`, `Disallow` | + `Allow` | + typos (`disalow`, …) | + key prefixes (`allowance`) |
//! | agent | substring, first record | substring, first record | product token, groups merged | as `rfc9309`, caller's agent whole |
//! | deciding rule | any `Disallow` | first match | longest match, `Allow` on ties | as `rfc9309` |
//! | wildcards | none | none | `*`, final `$` | `*`, final `$` |
//! | `%xx` | as written | decoded but `%2F` | unreserved decoded, hex upper-cased | pattern upper-cased, URL as given |
//! | `/robots.txt` | not special | always allowed | always allowed | not special |
//!
//! [`meta`] reads what a page says about itself: META robots, `X-Robots-Tag`
//! and `rel="nofollow"` (HTML pages with the `html` feature).
//!
//! # From a file to an answer
//!
//! **1. Parse** the body once per host, with [`Robots::parse`] (the default
//! dialect, `rfc9309`) or [`Robots::parse_with`] and [`ParseOptions`] (a
//! dialect, a byte limit such as [`RFC9309_MIN_BYTES`]). Parsing never
//! fails: what the reader ignored or repaired is a [`Diagnostic`] with its
//! line.
//!
//! ```
//! use norobots::{Diagnostic, DiagnosticKind, Robots};
//!
//! let body = b"User-agent: *\nDisallow: /shop/\nAllow: /shop/help\n\n\
//!              User-agent: FooBot\nDisalow: /\n";
//! let robots = Robots::parse(body);
//! assert_eq!(robots.groups().len(), 2);
//! // RFC 9309 robots obey the misspelled line; the reader says it saw one.
//! assert_eq!(robots.diagnostics(), [Diagnostic { line: 6, kind: DiagnosticKind::MisspelledField }]);
//! ```
//!
//! **2. Choose the groups** that apply to a robot and compile their rules.
//! [`Robots::groups_for`] names them (the groups that name the robot, else
//! the `*` groups); [`Robots::matcher`] compiles them into a [`Matcher`],
//! which a crawler keeps per host and robot (it is `Send + Sync`, and
//! answers without allocating).
//!
//! ```
//! # let body = b"User-agent: *\nDisallow: /shop/\nAllow: /shop/help\n\nUser-agent: FooBot\nDisalow: /\n";
//! # let robots = norobots::Robots::parse(body);
//! let lines: Vec<usize> = robots.groups_for("FooBot/2.1").iter().map(|g| g.line()).collect();
//! assert_eq!(lines, [5]);
//! assert_eq!(robots.groups_for("ExampleBot/1.0")[0].line(), 1);
//! let matcher = robots.matcher("ExampleBot/1.0");
//! ```
//!
//! **3. Check a URL**: [`Matcher::is_allowed`] answers yes or no;
//! [`Matcher::check`] gives a [`Verdict`], which names the deciding rule
//! ([`RuleRef`]): its line, `Allow` or `Disallow`, its pattern, and the line
//! of its group.
//!
//! ```
//! # let body = b"User-agent: *\nDisallow: /shop/\nAllow: /shop/help\n\nUser-agent: FooBot\nDisalow: /\n";
//! # let matcher = norobots::Robots::parse(body).matcher("ExampleBot/1.0");
//! use norobots::RuleKind;
//!
//! assert!(matcher.is_allowed("https://example.com/"));
//! assert!(!matcher.is_allowed("https://example.com/shop/cart"));
//!
//! let verdict = matcher.check("https://example.com/shop/help/returns");
//! assert!(verdict.allowed);
//! let rule = verdict.rule.unwrap();
//! assert_eq!((rule.line, rule.kind, rule.pattern, rule.group_line), (3, RuleKind::Allow, "/shop/help", 1));
//! assert_eq!(verdict.to_string(), "allowed by line 3: Allow: /shop/help");
//! // No rule matched: allowed, and no rule to name.
//! assert_eq!(matcher.check("/about").rule, None);
//! ```
//!
//! **4. One question, one file**: [`is_allowed`] (and [`is_allowed_with`],
//! for a dialect or a byte limit) reads the body once and builds nothing,
//! which is quickest when nothing is asked of the file again.
//!
//! ```
//! let body = b"User-agent: *\nDisallow: /shop/\n";
//! assert!(!norobots::is_allowed(body, "ExampleBot/1.0", "https://example.com/shop/cart"));
//! ```
//!
//! The dialect changes the answer, as the table above says:
//!
//! ```
//! use norobots::{Dialect, ParseOptions, Robots};
//!
//! let body = b"User-agent: *\nDisallow: /\nAllow: /public\n";
//! // RFC 9309: the longest match wins.
//! assert!(Robots::parse(body).matcher("ExampleBot").is_allowed("/public/a.html"));
//! // The 1996 draft: the first match wins.
//! let draft = Robots::parse_with(body, &ParseOptions::new(Dialect::Draft1996));
//! assert!(!draft.matcher("ExampleBot").is_allowed("/public/a.html"));
//! ```
//!
//! **5. Over HTTP**: this crate has no network. Getting `/robots.txt` is
//! [`norobots-fetch`](../norobots_fetch/index.html)'s: its `RobotsCache`
//! finds a URL's robots.txt, fetches it once per origin, reads the HTTP
//! answer as the dialect says (`Policy::of`: a 404 allows everything, a
//! 5xx defers or disallows everything), keeps it as long as HTTP caching
//! and the dialect allow, and answers `is_allowed` and `check` for any URL
//! on the web, through the `Matcher` above.
//!
//! # What the answers are
//!
//! | type | what it answers | where you meet it |
//! |---|---|---|
//! | `bool` | may this robot fetch this URL? | [`Matcher::is_allowed`], [`is_allowed`] (one check, no matcher kept) |
//! | [`Verdict`] | the same, and which rule decided (`rule: None`: no rule matched, so allowed) | [`Matcher::check`] |
//! | [`RuleRef`] | the deciding rule: its line, `Allow` or `Disallow`, the pattern as written, and the line of its group | [`Verdict::rule`](Verdict) |
//! | [`Diagnostic`] | what the reader noticed on a line (a misspelling, a rule outside a group, …) | [`Robots::diagnostics`] |
//! | [`meta::PageDirectives`] | what a page says about itself: index, follow, its links | [`meta`] |
//!
//! A fetch of robots.txt (status codes, caching) is
//! [`norobots-fetch`](../norobots_fetch/index.html)'s, with its own table
//! of answers.
//!
//! # Layers
//!
//! The modules import one another in one direction only, each from those
//! before it: the values (`dialect`, `rule_kind`, `diagnostic`, `group`),
//! the pieces of reading (`scan`, `key`, `agent`, `pattern`), the reader
//! (`parse`), the parsed file and its builder (`robots`), the choice of
//! the groups that apply (`select`), the compiled matcher (`matcher`, where
//! [`Robots::matcher`] is), and the one-shot check (`oneshot`, through the
//! same `select`). `meta` stands beside them, over `agent`.
//!
//! # Features
//!
//! - `html` (off): `meta::PageDirectives::from_html` and `read_html`, through `html5ever`.
//! - `serde` (off): `Serialize` on the answers and values above
//!   ([`Verdict`], [`RuleRef`], [`Diagnostic`], [`meta::PageDirectives`],
//!   [`RequestRate`], …), and `Deserialize` on [`Dialect`] and
//!   [`RuleKind`], by their names.
#![deny(missing_docs)]

// The README's examples run as doctests, so they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod agent;
mod diagnostic;
mod dialect;
mod group;
mod index;
mod key;
mod matcher;
pub mod meta;
mod oneshot;
mod parse;
mod pattern;
mod robots;
mod rule_kind;
mod scan;
mod select;
mod sniff;
mod spare;
#[cfg(feature = "count-work")]
pub mod work;
#[cfg(not(feature = "count-work"))]
mod work;

pub use agent::{agent_note, is_product_token, product_token, robot_token};
pub use diagnostic::{Diagnostic, DiagnosticKind};
pub use dialect::{Dialect, ParseDialectError};
pub use group::{RequestRate, VisitTime};
pub use key::{field_key, Key};
pub use matcher::{Matcher, RuleRef, Verdict};
pub use parse::{bom_len, is_space, ParseOptions, GOOGLE_MAX_LINE, RFC9309_MIN_BYTES};
pub use robots::{Field, Group, Robots, Rule};
pub use rule_kind::RuleKind;
pub use sniff::{not_text, NotText};

/// Whether `agent` may fetch `url` under the robots.txt `body`, read in the
/// default dialect ([`Dialect::Rfc9309`]).
///
/// The body is read once, and each rule tried on the URL as it comes:
/// nothing is copied or compiled, which is the quickest way to one answer.
/// For more than one question per file, parse once with [`Robots::parse`]
/// and keep a [`Matcher`].
///
/// ```
/// let body = b"User-agent: *\nDisallow: /private/\n";
/// assert!(norobots::is_allowed(body, "ExampleBot", "https://example.com/"));
/// assert!(!norobots::is_allowed(body, "ExampleBot", "https://example.com/private/x"));
/// ```
pub fn is_allowed(body: &[u8], agent: &str, url: &str) -> bool {
    oneshot::is_allowed(body, &ParseOptions::default(), agent, url)
}

/// [`is_allowed`] in the dialect, and within the byte limit, that `options`
/// say: the same answer as
/// `Robots::parse_with(body, options).matcher(agent).is_allowed(url)`.
///
/// ```
/// use norobots::{Dialect, ParseOptions};
///
/// let body = b"User-agent: *\nDisallow: /\nAllow: /public\n";
/// let draft = ParseOptions::new(Dialect::Draft1996);
/// // The 1996 draft: the first matching rule decides.
/// assert!(!norobots::is_allowed_with(body, &draft, "bot", "/public/a"));
/// assert!(norobots::is_allowed(body, "bot", "/public/a"));
/// ```
pub fn is_allowed_with(body: &[u8], options: &ParseOptions, agent: &str, url: &str) -> bool {
    oneshot::is_allowed(body, options, agent, url)
}

#[cfg(test)]
mod tests {
    // The issue's contract: a matcher is kept per host and shared between
    // crawler threads.
    #[test]
    fn robots_and_matcher_are_send_and_sync() {
        fn send_sync<T: Send + Sync + Clone>() {}
        send_sync::<crate::Robots>();
        send_sync::<crate::Matcher>();
    }
}
