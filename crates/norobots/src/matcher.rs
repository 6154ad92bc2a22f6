//! The rules for one robot, compiled into a radix trie over their literal
//! prefixes, so that a check walks the URL once instead of trying every rule.
//!
//! Every rule becomes a *rank*: a number whose maximum over the matching
//! rules is the deciding rule. For the longest-match dialects the rank is
//! `priority << 33 | allow << 32 | !order`; for the first-match dialects it
//! is `!order`. Rules with the same literal prefix meet in one trie node:
//! plain prefixes keep only their best rank, `$`-anchored literals another,
//! and patterns with `*` keep their tail (from the first `*` on), sorted by
//! rank so that a check stops at the first tail that matches or cannot win.
//! A node with many tails also gets an index of them (see `index.rs`).

mod build;
mod check;
mod ordinal;
mod path;
mod trie;
mod verdict;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::dialect::Dialect;
use crate::group::{RequestRate, VisitTime};
use crate::index::TailIndex;
use ordinal::Ordinals;
use trie::{Ends, Node, Tail};
use verdict::RuleInfo;

pub(crate) use ordinal::rank;
pub(crate) use path::{exempts_robots_txt, with_path};
pub use verdict::{RuleRef, Verdict};

/// The compiled rules of one robot.
///
/// `Matcher` does not borrow the [`Robots`](crate::Robots) it came from: it owns its trie
/// and shares the file's body (reference-counted) for the text of its rules.
/// It is `Send + Sync`: keep one per host. A check does not allocate.
///
/// How each dialect reads the `agent` given to [`Robots::matcher`](crate::Robots::matcher):
/// `norobots1994` and `draft1996` take the name up to the first `/` or white
/// space and look for it as a case-insensitive substring of each agent value,
/// the first matching record winning; `rfc9309` takes the leading product
/// token and merges every group whose token equals it; `google` compares the
/// value whole, as the reference library does.
///
/// # Example
///
/// ```
/// use norobots::{Robots, RuleKind};
///
/// let robots = Robots::parse(b"User-agent: *\nDisallow: /shop/\nAllow: /shop/help\n");
/// let matcher = robots.matcher("ExampleBot/1.0");
///
/// assert!(matcher.is_allowed("https://example.com/"));
/// assert!(!matcher.is_allowed("https://example.com/shop/cart?id=7"));
///
/// let verdict = matcher.check("/shop/help/returns");
/// assert!(verdict.allowed);
/// let rule = verdict.rule.unwrap();
/// assert_eq!((rule.line, rule.kind, rule.pattern), (3, RuleKind::Allow, "/shop/help"));
/// ```
#[derive(Clone)]
pub struct Matcher {
    dialect: Dialect,
    /// The octets that trie labels, glob segments and rule texts are spans
    /// of: the file's body, followed by the patterns that had to be
    /// rewritten (`%xx`, non-ASCII). Most files need no rewrite, and then
    /// this is the body itself, shared with the [`Robots`]: nothing copied.
    arena: Arc<[u8]>,
    /// The trie, children of a node side by side: a node's children are
    /// `nodes[first_child..][..n_children]` (with holes, for a node laid
    /// out by octet: see `DIRECT`), so no table of child ids is needed
    /// between a node and its children.
    nodes: Vec<Node>,
    /// The first octet of each node's label, by node id: a node's children
    /// have theirs side by side and sorted, so finding the child to descend
    /// to among a few more than `INLINE`, too spread out to be laid out by
    /// octet, is a short scan or a bisection of one cache line.
    first_octets: Vec<u8>,
    /// The exact and `*` rules that end at a node, for the nodes where some
    /// do (a node holds its best prefix rule itself).
    ends: Vec<Ends>,
    /// How the nodes hold ranks in four octets.
    ordinals: Ordinals,
    /// For nodes with many children too spread out to be laid out by
    /// octet: the position of the child for each first octet (0 also means
    /// none, which the label compare catches), one load instead of a
    /// bisection.
    wide: Vec<[u8; 256]>,
    tails: Vec<Tail>,
    indexes: Vec<TailIndex>,
    rules: Vec<RuleInfo>,
    /// The text of the rules that are not valid UTF-8 on their own.
    lossy: String,
    crawl_delay: Option<Duration>,
    request_rate: Option<RequestRate>,
    visit_time: Option<VisitTime>,
    matched_group: bool,
    /// Whether some rule is a `Disallow`. Of the benchmark's 4,000 corpus
    /// files, 816 have none for Googlebot (644 no rule for it at all, 172
    /// only `Allow` lines): every URL is allowed there, and `is_allowed`
    /// need not read it.
    disallows: bool,
}

impl Matcher {
    /// The dialect the rules were read in.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"");
    /// assert_eq!(robots.matcher("bot").dialect(), norobots::Dialect::Rfc9309);
    /// ```
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The `Crawl-delay` of the first group that applies and gives one
    /// (read as [`Group::crawl_delay`](crate::Group::crawl_delay) says).
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let robots = norobots::Robots::parse(b"User-agent: *\nCrawl-delay: 5\n");
    /// assert_eq!(robots.matcher("bot").crawl_delay(), Some(Duration::from_secs(5)));
    /// ```
    pub fn crawl_delay(&self) -> Option<Duration> {
        self.crawl_delay
    }

    /// The `Request-rate` of the first group that applies and gives one: at
    /// most so many documents per so many seconds.
    ///
    /// ```
    /// use norobots::RequestRate;
    ///
    /// let robots = norobots::Robots::parse(b"User-agent: *\nRequest-rate: 1/10m\n");
    /// let rate = robots.matcher("bot").request_rate();
    /// assert_eq!(rate, Some(RequestRate { requests: 1, seconds: 600 }));
    /// ```
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.request_rate
    }

    /// The `Visit-time` of the first group that applies and gives one: the
    /// window (UTC) in which the site prefers visits.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nVisit-time: 0100-0330\n");
    /// let window = robots.matcher("bot").visit_time().unwrap();
    /// assert_eq!((window.start_minute, window.end_minute), (60, 210));
    /// ```
    pub fn visit_time(&self) -> Option<VisitTime> {
        self.visit_time
    }

    /// Whether a group names this robot (as opposed to the `*` group, or
    /// none, applying).
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: FooBot\nDisallow:\n");
    /// assert!(robots.matcher("FooBot").names_robot());
    /// assert!(!robots.matcher("BarBot").names_robot());
    /// ```
    pub fn names_robot(&self) -> bool {
        self.matched_group
    }

    /// How many non-empty rules apply to this robot.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /a\nDisallow:\n");
    /// assert_eq!(robots.matcher("bot").rule_count(), 1);
    /// ```
    pub fn rule_count(&self) -> usize {
        self.rules.len()
    }
}

impl fmt::Debug for Matcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Matcher")
            .field("dialect", &self.dialect)
            .field("rules", &self.rules.len())
            .field("nodes", &self.nodes.len())
            .field("crawl_delay", &self.crawl_delay)
            .field("request_rate", &self.request_rate)
            .field("visit_time", &self.visit_time)
            .finish()
    }
}
/// The tests' one question: may `agent` fetch `url` under `body` in `d`?
#[cfg(test)]
fn allowed(d: Dialect, body: &str, agent: &str, url: &str) -> bool {
    crate::robots::Robots::parse_with(body.as_bytes(), &crate::parse::ParseOptions::new(d))
        .matcher(agent)
        .is_allowed(url)
}

#[cfg(test)]
mod tests {
    use crate::dialect::Dialect;
    use crate::parse::ParseOptions;
    use crate::robots::Robots;

    // The pace follows the groups the rules come from (RFC 9309 2.2.1
    // merges every group that names the robot; the 1996 draft 3.2.1 takes
    // the first record): each value from the first of them that gives it,
    // the `*` group's only when no group names the robot.
    #[test]
    fn pace_comes_from_the_first_applying_group_that_gives_it() {
        let body = b"User-agent: bot\nCrawl-delay: 2\nDisallow: /a\n\n\
            User-agent: *\nCrawl-delay: 7\nRequest-rate: 9/1s\nVisit-time: 0000-0100\nDisallow: /c\n\n\
            User-agent: bot\nCrawl-delay: 5\nRequest-rate: 1/10m\nVisit-time: 2300-0130\nDisallow: /d\n\n\
            User-agent: bot\nRequest-rate: 2/1s\nVisit-time: 0500-0600\n";
        let pace = |d: Dialect, agent: &str| {
            let m = Robots::parse_with(body, &ParseOptions::new(d)).matcher(agent);
            let rate = m.request_rate().map(|r| (r.requests, r.seconds));
            let window = m.visit_time().map(|v| (v.start_minute, v.end_minute));
            (m.crawl_delay(), rate, window)
        };
        let secs = |s: u64| Some(std::time::Duration::from_secs(s));
        let merged = (secs(2), Some((1, 600)), Some((23 * 60, 90)));
        assert_eq!(pace(Dialect::Rfc9309, "bot"), merged);
        assert_eq!(pace(Dialect::Google, "bot"), merged);
        assert_eq!(pace(Dialect::Draft1996, "bot"), (secs(2), None, None));
        let star = (secs(7), Some((9, 1)), Some((0, 60)));
        assert_eq!(pace(Dialect::Rfc9309, "other"), star);
        assert_eq!(pace(Dialect::Draft1996, "other"), star);
    }
}
