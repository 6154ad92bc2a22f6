//! The parsed file: groups, rules and file-wide fields, kept as spans into
//! one copy of the body so that parsing allocates a handful of vectors, not a
//! string per line.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

mod build;

use crate::diagnostic::Diagnostic;
use crate::dialect::Dialect;
use crate::group::{RequestRate, VisitTime};
use crate::parse::ParseOptions;
use crate::rule_kind::RuleKind;
use crate::work;

/// A parsed robots.txt file.
///
/// Parsing never fails: robots.txt comes from strangers, and every dialect
/// says to ignore what cannot be understood. What was ignored, and why, is in
/// [`Robots::diagnostics`].
///
/// # Example
///
/// ```
/// use norobots::Robots;
///
/// let robots = Robots::parse(b"User-agent: *\nDisallow: /private\nSitemap: https://example.com/s.xml\n");
/// assert!(!robots.is_allowed("FooBot", "https://example.com/private/x"));
/// assert!(robots.is_allowed("FooBot", "https://example.com/public"));
/// assert_eq!(robots.sitemaps().next().unwrap().value(), "https://example.com/s.xml");
/// ```
#[derive(Clone, Debug)]
pub struct Robots {
    pub(crate) dialect: Dialect,
    /// Shared with the matchers, which point into it for their rules' text.
    pub(crate) body: Arc<[u8]>,
    /// Whether every span of `body` is valid UTF-8 on its own: the body is,
    /// and no line was cut inside a character.
    pub(crate) utf8: bool,
    pub(crate) groups: Vec<GroupData>,
    pub(crate) agents: Vec<Span>,
    pub(crate) rules: Vec<RuleData>,
    pub(crate) sitemaps: Vec<FieldData>,
    pub(crate) hosts: Vec<FieldData>,
    pub(crate) others: Vec<FieldData>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) truncated: bool,
}

/// A range of octets of the body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: u32,
    pub end: u32,
}

#[derive(Clone, Debug)]
pub(crate) struct GroupData {
    pub line: u32,
    pub agents: (u32, u32),
    pub rules: (u32, u32),
    pub crawl_delay: Option<Duration>,
    pub request_rate: Option<RequestRate>,
    pub visit_time: Option<VisitTime>,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct RuleData {
    pub kind: RuleKind,
    pub line: u32,
    pub span: Span,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct FieldData {
    pub line: u32,
    pub name: Span,
    pub value: Span,
}

impl Robots {
    /// Parses a robots.txt body in the default dialect, [`Dialect::Rfc9309`].
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /\n");
    /// assert_eq!(robots.groups().count(), 1);
    /// ```
    pub fn parse(body: &[u8]) -> Robots {
        Robots::parse_with(body, &ParseOptions::default())
    }

    /// Parses a robots.txt body with the given options.
    ///
    /// ```
    /// use norobots::{Dialect, ParseOptions, Robots};
    ///
    /// // The Lycos variant: several paths on one line, in the 1994 dialect.
    /// let opts = ParseOptions::new(Dialect::Norobots1994);
    /// let robots = Robots::parse_with(b"User-agent: *\nDisallow: /cgi-bin/ /tmp/\n", &opts);
    /// assert!(!robots.is_allowed("AnyBot", "/tmp/x"));
    /// ```
    pub fn parse_with(body: &[u8], options: &ParseOptions) -> Robots {
        build::parse(body, options)
    }

    /// The dialect the file was read in.
    ///
    /// ```
    /// assert_eq!(norobots::Robots::parse(b"").dialect(), norobots::Dialect::Rfc9309);
    /// ```
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The groups (records, in the older texts) in file order.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: a\nUser-agent: b\nDisallow: /x\n");
    /// let group = robots.groups().next().unwrap();
    /// assert_eq!(group.agents().collect::<Vec<_>>(), ["a", "b"]);
    /// assert_eq!(group.rules().next().unwrap().pattern(), "/x");
    /// ```
    pub fn groups(&self) -> impl ExactSizeIterator<Item = Group<'_>> + '_ {
        self.groups.iter().map(move |data| {
            work::add(1);
            Group { robots: self, data }
        })
    }

    /// The `Sitemap` lines, wherever they are in the file.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"Sitemap: https://a.example/s.xml\n");
    /// assert_eq!(robots.sitemaps().next().unwrap().line(), 1);
    /// ```
    pub fn sitemaps(&self) -> impl ExactSizeIterator<Item = Field<'_>> + '_ {
        self.fields(&self.sitemaps)
    }

    /// The `Host` lines (a Yandex extension naming the preferred mirror).
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"Host: www.example.com\n");
    /// assert_eq!(robots.hosts().next().unwrap().value(), "www.example.com");
    /// ```
    pub fn hosts(&self) -> impl ExactSizeIterator<Item = Field<'_>> + '_ {
        self.fields(&self.hosts)
    }

    /// Every other field the dialect does not act on, with its line number.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nClean-param: ref /x\n");
    /// let field = robots.other_fields().next().unwrap();
    /// assert_eq!((field.line(), &*field.name(), &*field.value()), (2, "Clean-param", "ref /x"));
    /// ```
    pub fn other_fields(&self) -> impl ExactSizeIterator<Item = Field<'_>> + '_ {
        self.fields(&self.others)
    }

    /// What the parser ignored or repaired, in line order.
    ///
    /// ```
    /// use norobots::DiagnosticKind;
    ///
    /// let robots = norobots::Robots::parse(b"Disallow: /x\nUser-agent: *\n");
    /// assert_eq!(robots.diagnostics()[0].line, 1);
    /// assert_eq!(robots.diagnostics()[0].kind, DiagnosticKind::RuleOutsideGroup);
    /// ```
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The octets that were parsed (the body, cut at
    /// [`ParseOptions::max_bytes`]): what a crawler archives or stores to
    /// parse again later.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /x\n");
    /// assert_eq!(robots.body(), b"User-agent: *\nDisallow: /x\n");
    /// ```
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// Whether [`ParseOptions::max_bytes`] cut the body short.
    ///
    /// ```
    /// use norobots::{ParseOptions, Robots};
    ///
    /// let opts = ParseOptions::default().max_bytes(4);
    /// assert!(Robots::parse_with(b"User-agent: *", &opts).truncated());
    /// ```
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// Gives back the room the parse set aside and did not use.
    ///
    /// The parse reserves room for rules by the body's size (one rule per
    /// 24 octets, up to 65,536), so that real files seldom regrow their
    /// vectors while they are read. A body with fewer rules leaves room
    /// unused: an HTML page served as robots.txt, say, or a file of long
    /// comments. A caller that drops the `Robots` once it has its matcher
    /// need not call this; one that keeps a `Robots` per host for as long
    /// as the file is fresh (as `norobots-fetch`'s cache does) should. What
    /// the `Robots` answers does not change.
    ///
    /// ```
    /// let page = format!("<html><body>{}</body></html>", "<p>Not found</p>".repeat(1_000));
    /// let mut robots = norobots::Robots::parse(page.as_bytes());
    /// robots.shrink_to_fit();
    /// assert_eq!(robots.groups().count(), 0);
    /// assert!(robots.is_allowed("FooBot", "/anything"));
    /// ```
    pub fn shrink_to_fit(&mut self) {
        self.groups.shrink_to_fit();
        self.agents.shrink_to_fit();
        self.rules.shrink_to_fit();
        self.sitemaps.shrink_to_fit();
        self.hosts.shrink_to_fit();
        self.others.shrink_to_fit();
        self.diagnostics.shrink_to_fit();
    }

    /// The view of the `i`-th group.
    pub(crate) fn group(&self, i: usize) -> Group<'_> {
        Group {
            robots: self,
            data: &self.groups[i],
        }
    }

    pub(crate) fn bytes(&self, span: Span) -> &[u8] {
        &self.body[span.start as usize..span.end as usize]
    }

    fn fields<'a>(
        &'a self,
        data: &'a [FieldData],
    ) -> impl ExactSizeIterator<Item = Field<'a>> + 'a {
        data.iter().map(move |data| {
            work::add(1);
            Field { robots: self, data }
        })
    }
}

/// One group: the robots it names and the rules they obey.
///
/// ```
/// let robots = norobots::Robots::parse(b"User-agent: *\nCrawl-delay: 2.5\nDisallow: /tmp\n");
/// let group = robots.groups().next().unwrap();
/// assert_eq!(group.line(), 1);
/// assert_eq!(group.crawl_delay(), Some(std::time::Duration::from_millis(2500)));
/// ```
#[derive(Clone, Copy)]
pub struct Group<'a> {
    robots: &'a Robots,
    data: &'a GroupData,
}

impl<'a> Group<'a> {
    /// The line of the group's first `User-agent`.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"\n\nUser-agent: *\n");
    /// assert_eq!(robots.groups().next().unwrap().line(), 3);
    /// ```
    pub fn line(&self) -> usize {
        self.data.line as usize
    }

    /// The agent values as written (one per value: the legacy dialects split
    /// `User-agent: Copernicus Fred` in two).
    ///
    /// ```
    /// use norobots::{Dialect, ParseOptions, Robots};
    ///
    /// let opts = ParseOptions::new(Dialect::Draft1996);
    /// let robots = Robots::parse_with(b"User-Agent: Copernicus Fred\n", &opts);
    /// let group = robots.groups().next().unwrap();
    /// assert_eq!(group.agents().collect::<Vec<_>>(), ["Copernicus", "Fred"]);
    /// ```
    pub fn agents(&self) -> impl ExactSizeIterator<Item = Cow<'a, str>> + 'a {
        let robots = self.robots;
        let (a, b) = self.data.agents;
        robots.agents[a as usize..b as usize]
            .iter()
            .map(move |&span| lossy(robots.bytes(span)))
    }

    /// The `Allow` and `Disallow` rules, in file order.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nAllow: /a\nDisallow: /\n");
    /// let rules: Vec<_> = robots.groups().next().unwrap().rules().map(|r| r.to_string()).collect();
    /// assert_eq!(rules, ["Allow: /a", "Disallow: /"]);
    /// ```
    pub fn rules(&self) -> impl ExactSizeIterator<Item = Rule<'a>> + 'a {
        let robots = self.robots;
        let (a, b) = self.data.rules;
        robots.rules[a as usize..b as usize]
            .iter()
            .map(move |data| {
                work::add(1);
                Rule { robots, data }
            })
    }

    /// `Crawl-delay`, if the group gives a valid one: a number of seconds,
    /// fractions allowed, to the nearest nanosecond; a value too large for
    /// a [`Duration`] is [`Duration::MAX`] (negative and non-numbers are
    /// [`DiagnosticKind::InvalidValue`](crate::DiagnosticKind::InvalidValue)).
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let robots = norobots::Robots::parse(b"User-agent: *\nCrawl-delay: 0.5\n");
    /// assert_eq!(robots.groups().next().unwrap().crawl_delay(), Some(Duration::from_millis(500)));
    /// let robots = norobots::Robots::parse(b"User-agent: *\nCrawl-delay: 1e30\n");
    /// assert_eq!(robots.groups().next().unwrap().crawl_delay(), Some(Duration::MAX));
    /// ```
    pub fn crawl_delay(&self) -> Option<Duration> {
        self.data.crawl_delay
    }

    /// `Request-rate` (an extension of the 1996 era), if the group gives one.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nRequest-rate: 1/5\n");
    /// let rate = robots.groups().next().unwrap().request_rate().unwrap();
    /// assert_eq!((rate.requests, rate.seconds), (1, 5));
    /// ```
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.data.request_rate
    }

    /// `Visit-time` (an extension of the 1996 era), if the group gives one.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nVisit-time: 0100-0445\n");
    /// let time = robots.groups().next().unwrap().visit_time().unwrap();
    /// assert_eq!((time.start_minute, time.end_minute), (60, 4 * 60 + 45));
    /// ```
    pub fn visit_time(&self) -> Option<VisitTime> {
        self.data.visit_time
    }
}

/// One `Allow` or `Disallow` rule as written in the file.
///
/// ```
/// use norobots::RuleKind;
///
/// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /caf\xc3\xa9\n");
/// let rule = robots.groups().next().unwrap().rules().next().unwrap();
/// assert_eq!((rule.kind(), rule.line()), (RuleKind::Disallow, 2));
/// assert_eq!(rule.pattern(), "/café");
/// assert_eq!(rule.pattern_bytes(), b"/caf\xc3\xa9");
/// ```
#[derive(Clone, Copy)]
pub struct Rule<'a> {
    robots: &'a Robots,
    data: &'a RuleData,
}

impl<'a> Rule<'a> {
    /// `Allow` or `Disallow`.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nAllow: /\n");
    /// let rule = robots.groups().next().unwrap().rules().next().unwrap();
    /// assert_eq!(rule.kind(), norobots::RuleKind::Allow);
    /// ```
    pub fn kind(&self) -> RuleKind {
        self.data.kind
    }

    /// The line the rule is on (1-based).
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\r\nAllow: /\r\n");
    /// assert_eq!(robots.groups().next().unwrap().rules().next().unwrap().line(), 2);
    /// ```
    pub fn line(&self) -> usize {
        self.data.line as usize
    }

    /// The path pattern as written, lossily decoded when it is not UTF-8.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /*.pdf$\n");
    /// assert_eq!(robots.groups().next().unwrap().rules().next().unwrap().pattern(), "/*.pdf$");
    /// ```
    pub fn pattern(&self) -> Cow<'a, str> {
        lossy(self.pattern_bytes())
    }

    /// The path pattern's octets as written.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /\xff\n");
    /// assert_eq!(robots.groups().next().unwrap().rules().next().unwrap().pattern_bytes(), b"/\xff");
    /// ```
    pub fn pattern_bytes(&self) -> &'a [u8] {
        self.robots.bytes(self.data.span)
    }
}

impl fmt::Display for Rule<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind(), self.pattern())
    }
}

// The views print what they show, not the `Robots` they borrow: a derived
// `Debug` would dump the whole body and every rule for each one.
impl fmt::Debug for Rule<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rule")
            .field("line", &self.line())
            .field("kind", &self.kind())
            .field("pattern", &self.pattern())
            .finish()
    }
}

impl fmt::Debug for Group<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Group")
            .field("line", &self.line())
            .field("agents", &self.agents().collect::<Vec<_>>())
            .field("rules", &self.rules().count())
            .finish()
    }
}

impl fmt::Debug for Field<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Field")
            .field("line", &self.line())
            .field("name", &self.name())
            .field("value", &self.value())
            .finish()
    }
}

/// A `name: value` line the matcher does not act on (`Sitemap`, `Host`,
/// extensions, unknown fields).
///
/// ```
/// let robots = norobots::Robots::parse(b"Sitemap: https://example.com/a.xml # main\n");
/// let sitemap = robots.sitemaps().next().unwrap();
/// assert_eq!(sitemap.name(), "Sitemap");
/// assert_eq!(sitemap.value(), "https://example.com/a.xml");
/// ```
#[derive(Clone, Copy)]
pub struct Field<'a> {
    robots: &'a Robots,
    data: &'a FieldData,
}

impl<'a> Field<'a> {
    /// The line the field is on (1-based).
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"\nSitemap: /s.xml\n");
    /// assert_eq!(robots.sitemaps().next().unwrap().line(), 2);
    /// ```
    pub fn line(&self) -> usize {
        self.data.line as usize
    }

    /// The field name as written.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"noindex: /x\n");
    /// assert_eq!(robots.other_fields().next().unwrap().name(), "noindex");
    /// ```
    pub fn name(&self) -> Cow<'a, str> {
        lossy(self.robots.bytes(self.data.name))
    }

    /// The value, without comment and surrounding white space.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"noindex:   /x   # gone\n");
    /// assert_eq!(robots.other_fields().next().unwrap().value(), "/x");
    /// ```
    pub fn value(&self) -> Cow<'a, str> {
        lossy(self.robots.bytes(self.data.value))
    }
}

/// `bytes` as text, what is not UTF-8 replaced.
fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    work::add_with(move || bytes.len());
    String::from_utf8_lossy(bytes)
}

#[cfg(test)]
mod tests {
    use super::Robots;
    use crate::spare::spare_octets;

    fn spare(robots: &Robots) -> usize {
        spare_octets(&robots.groups)
            + spare_octets(&robots.agents)
            + spare_octets(&robots.rules)
            + spare_octets(&robots.sitemaps)
            + spare_octets(&robots.hosts)
            + spare_octets(&robots.others)
            + spare_octets(&robots.diagnostics)
    }

    // Issue 47: `Debug` of a sitemap field printed the whole `Robots`.
    #[test]
    fn debug_of_a_view_shows_the_view_not_the_file() {
        let body = format!(
            "User-agent: a\nDisallow: /x\n{}Sitemap: https://example.com/s.xml\n",
            "Disallow: /filler\n".repeat(500)
        );
        let robots = Robots::parse(body.as_bytes());
        let sitemap = robots.sitemaps().next().unwrap();
        assert_eq!(
            format!("{sitemap:?}"),
            r#"Field { line: 503, name: "Sitemap", value: "https://example.com/s.xml" }"#
        );
        let group = robots.groups().next().unwrap();
        assert_eq!(
            format!("{group:?}"),
            r#"Group { line: 1, agents: ["a"], rules: 501 }"#
        );
        assert_eq!(
            format!("{:?}", group.rules().next().unwrap()),
            r#"Rule { line: 2, kind: Disallow, pattern: "/x" }"#
        );
    }

    // The parse reserves a rule per 24 octets of body; this HTML page of
    // 51 KB gets room for some 2,100 rules and has one. Kept, that room
    // would stay allocated for as long as the file is fresh.
    #[test]
    fn a_kept_robots_gives_back_what_the_parse_reserved() {
        let page = format!(
            "<html>\n{}</html>\nUser-agent: *\nDisallow: /private\nSitemap: /s.xml\n",
            "<p>Not found</p>\n".repeat(3_000)
        );
        let mut robots = Robots::parse(page.as_bytes());
        assert!(spare(&robots) >= 2_000 * std::mem::size_of::<super::RuleData>());
        robots.shrink_to_fit();
        assert_eq!(spare(&robots), 0);
        assert!(!robots.is_allowed("FooBot", "/private/x"));
        assert!(robots.is_allowed("FooBot", "/public"));
        assert_eq!(robots.sitemaps().next().unwrap().value(), "/s.xml");
    }
}
