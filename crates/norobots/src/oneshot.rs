//! One URL against a body, decided while the body is read: nothing is
//! copied, kept or compiled.
//!
//! A crawler that fetches robots.txt to check a single URL (or a tool that
//! checks one) has no use for a [`Matcher`](crate::Matcher): building one
//! costs more than reading the file. Here the line reader hands each rule
//! to a sink that tries it on the path at once, and keeps only the best
//! rank for the groups that could apply. The choice of groups, the ranks,
//! the path and the rule reading are the matcher's (`select::Selector`,
//! `matcher::rank`, `matcher::with_path`, `parse::read`), so both decide
//! alike; a property test holds them to it.
//!
//! Trying a `*` rule costs up to the path's length, so a hostile file of
//! many such rules against a long URL would cost their product. The rules
//! tried may search the path only so many octets in all, in proportion to
//! the body; past that the check gives up and builds the matcher, whose
//! cost is linear in body and URL.

use crate::agent;
use crate::dialect::Dialect;
use crate::matcher::{exempts_robots_txt, rank, with_path};
use crate::parse::ParseOptions;
use crate::parse::{limit, plain, read, Sink};
use crate::pattern::{index_html_rule, rewrite_pattern, segments_match, Parts};
use crate::robots::Robots;
use crate::rule_kind::RuleKind;
use crate::scan::{common_prefix, find_any, first_eight, prefetch};
use crate::select::Selector;
use crate::work;

/// Octets of path searching allowed per octet of body (plus [`SLACK`]),
/// before the check builds the matcher instead. Real files stay far below:
/// most rules are literal, and literal rules cost nothing against it.
const BUDGET_PER_OCTET: usize = 4;

/// Searching allowed whatever the body's size.
const SLACK: usize = 1 << 16;

/// Whether `agent` may fetch `url` under the robots.txt `body`, read as
/// `options` say: what `Robots::parse_with(body, options).matcher(agent)
/// .is_allowed(url)` answers, in one pass over the body.
pub(crate) fn is_allowed(body: &[u8], options: &ParseOptions, agent: &str, url: &str) -> bool {
    let dialect = options.dialect;
    // The body is read after the URL: ask for it now (see `prefetch`).
    prefetch(body);
    with_path(dialect, url.as_bytes(), |path| {
        if exempts_robots_txt(dialect, path) {
            return true;
        }
        let (body, _) = limit(body, options);
        let mut sink = OneShot::new(dialect, body, agent::caller_name(dialect, agent), path);
        read(body, dialect, &mut sink);
        if sink.budget == 0 {
            return Robots::parse_with(body, options)
                .matcher(agent)
                .is_allowed(url);
        }
        let best = if sink.selector.names_robot() {
            sink.for_named
        } else {
            sink.for_star
        };
        best.rank == 0 || best.kind == RuleKind::Allow
    })
}

/// The best rule so far among the groups of one kind (those that name the
/// robot, or the `*` ones), and how many of their rules have been seen.
#[derive(Clone, Copy)]
struct Best {
    rank: u64,
    kind: RuleKind,
    rules: u32,
}

impl Default for Best {
    fn default() -> Best {
        Best {
            rank: 0,
            kind: RuleKind::Allow,
            rules: 0,
        }
    }
}

struct OneShot<'a> {
    dialect: Dialect,
    body: &'a [u8],
    name: &'a str,
    path: &'a [u8],
    /// Which groups count: the matcher's choice ([`Selector`]), made as
    /// the groups are read.
    selector: Selector<'a>,
    for_named: Best,
    for_star: Best,
    /// [`Selector::counts`] for the open group, kept up to date by `group`
    /// and `agent`, the only calls that change it: a rule line asks for it,
    /// and most lines are rule lines.
    take: (bool, bool),
    /// Room for a pattern that must be rewritten before matching.
    scratch: Vec<u8>,
    /// Octets of path the `*` rules may still search; at 0 the check gives
    /// up (see the module comment).
    budget: usize,
    /// The path's first eight octets (see `parting`).
    head: Head,
}

impl<'a> OneShot<'a> {
    fn new(dialect: Dialect, body: &'a [u8], name: &'a str, path: &'a [u8]) -> OneShot<'a> {
        OneShot {
            dialect,
            body,
            name,
            path,
            selector: Selector::new(dialect, Some(name)),
            for_named: Best::default(),
            for_star: Best::default(),
            take: (false, false),
            scratch: Vec::new(),
            budget: body
                .len()
                .saturating_mul(BUDGET_PER_OCTET)
                .saturating_add(SLACK),
            head: Head::of(path),
        }
    }
}

impl Sink for OneShot<'_> {
    fn group(&mut self, _line: u32) {
        self.selector.group();
        self.take = self.selector.counts();
    }

    fn agent(&mut self, (a, b): (usize, usize)) {
        self.selector.agent(&self.body[a..b]);
        self.take = self.selector.counts();
    }

    fn wants_group(&self) -> bool {
        let (named, star) = self.take;
        (named || star) && self.budget != 0
    }

    const PASSES_RULES: bool = true;

    // Only the rules of the groups that apply decide a URL.
    const ONLY_RULES: bool = true;

    // Called on most lines of most files: worth a copy in the reader.
    #[inline]
    fn pass_rule(&mut self, kind: RuleKind, value: &[u8]) -> bool {
        let (named, star) = self.take;
        if !(named || star) || self.budget == 0 {
            // Nothing to count or try (as in `rule`).
            return true;
        }
        if self.dialect == Dialect::Google && kind == RuleKind::Allow {
            return false;
        }
        // `cannot_match` before the line's end is known: what follows the
        // parting octet does not matter. Only so far: past the line's end
        // the body may go on as the path does, and every line would compare
        // the whole path.
        if !cannot_match(value, self.path, self.head) {
            return false;
        }
        self.for_named.rules += u32::from(named);
        self.for_star.rules += u32::from(star);
        true
    }

    fn pass_agent(&mut self, value: &[u8]) -> bool {
        let name = self.name.as_bytes();
        if value.first() == Some(&b'*') {
            // `*` then white space or the content's end (`agent::is_global`;
            // the vertical tab, which would be trimmed at the end but is not
            // white space inside, is left to the full reading).
            let every = value
                .get(1)
                .is_none_or(|b| b.is_ascii_whitespace() || matches!(b, b'#' | 0));
            if every {
                self.selector.every_robot();
                self.take = self.selector.counts();
            }
            return every;
        }
        if name.is_empty() || value.len() < name.len() {
            // Read whole: the body ends within the name's length (or the
            // name is longer than the window).
            return false;
        }
        work::add_with(move || name.len());
        if matches!(value[0], b' ' | b'\t' | 0x0B | 0x0C) {
            // A value that starts further on.
            return false;
        }
        // The value's first octets are these, until its content ends; where
        // they differ from the name, the value is another robot's or ends
        // before the name would: either way it names nothing here (see
        // `agent::names`). Not `*` either: nothing is left to do.
        !value[..name.len()].eq_ignore_ascii_case(name)
    }

    fn rule(&mut self, _line: u32, kind: RuleKind, (a, b): (usize, usize)) {
        let (named, star) = self.take;
        let raw = &self.body[a..b];
        if !(named || star) || raw.is_empty() || self.budget == 0 {
            // An empty pattern matches nothing and is not counted (as in
            // `Matcher::new`).
            return;
        }
        if cannot_match(raw, self.path, self.head)
            && !(self.dialect == Dialect::Google && kind == RuleKind::Allow)
        {
            // Most rules part from the path within a few octets: no need
            // to rewrite them or rank them. (A `google` Allow may still
            // match as its directory, below.) Counted all the same.
            self.for_named.rules += u32::from(named);
            self.for_star.rules += u32::from(star);
            return;
        }
        self.scratch.clear();
        let pattern = if rewrite_pattern(self.dialect, raw, &mut self.scratch) {
            &self.scratch[..]
        } else {
            raw
        };
        // Cut once, offered to each kind of group the rule counts for.
        let parts = Parts::of(self.dialect, pattern);
        let dir = index_html_rule(self.dialect, kind, pattern);
        for (take, best) in [(named, &mut self.for_named), (star, &mut self.for_star)] {
            if !take {
                continue;
            }
            let order = best.rules;
            best.rules += 1;
            let ranked = rank(self.dialect, pattern.len(), kind, order);
            offer(best, parts, ranked, kind, self.path, &mut self.budget);
            if let Some((dir, len)) = dir {
                let ranked = rank(self.dialect, len, kind, order);
                offer(best, dir, ranked, kind, self.path, &mut self.budget);
            }
        }
    }
}

/// The path's first eight octets, as [`parting`] compares them with a
/// value.
#[derive(Clone, Copy)]
struct Head {
    /// Little-endian, zero-padded.
    word: u64,
    /// How many of them are [`plain`], from the first.
    plain: usize,
}

impl Head {
    fn of(path: &[u8]) -> Head {
        Head {
            word: u64::from_le_bytes(first_eight(path)),
            plain: path.iter().take(8).take_while(|&&b| plain(b)).count(),
        }
    }
}

/// [`plain`] by octet, one load.
static PLAIN: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = plain(b as u8);
        b += 1;
    }
    table
};

/// Whether the pattern `raw`, as written, surely does not match `path`
/// (whose first eight octets are `head`).
fn cannot_match(raw: &[u8], path: &[u8], head: Head) -> bool {
    parting(raw, path, head).is_some()
}

/// Where the pattern `value` surely parts from `path`, whatever follows in
/// `value`: the first octet in which they differ (or the one past the end of
/// `path`), when every octet before it is plain (see [`plain`]): no dialect
/// rewrites them or reads them as wildcards (in every dialect, only `%xx`
/// and non-ASCII octets are rewritten), and none may end the pattern. That
/// octet must be plain too, or a `$` or `*` that parts all the same (see
/// [`parts_at`]; the octets it looks at past that one are not white space
/// and do not end the pattern either). `None` when the pattern may still
/// match. `head` is the path's first eight octets.
///
/// Most rules part from the path within eight octets: there, a few word
/// operations and one branch that rarely changes its mind decide, where
/// loops whose length varies from line to line would each cost a
/// mispredicted branch.
#[inline]
fn parting(value: &[u8], path: &[u8], head: Head) -> Option<usize> {
    if let Some(word) = value.first_chunk::<8>() {
        let word = u64::from_le_bytes(*word);
        // Past the path's end, `head.word` is zero: the clamp puts the
        // parting octet there whatever the value holds.
        let same = (((word ^ head.word).trailing_zeros() / 8) as usize).min(path.len());
        if same < 8 {
            // The octets before the parting one are the path's, whose
            // plainness is known: only the parting octet is looked up.
            return ((same <= head.plain) & parts_at(value, path, same)).then_some(same);
        }
    }
    parting_by_octets(value, path)
}

/// [`parting`] octet by octet, for values that run on as the path does
/// past the first eight octets, or that are shorter than that.
fn parting_by_octets(value: &[u8], path: &[u8]) -> Option<usize> {
    let same = common_prefix(value, path);
    if same == value.len() {
        // `value` ends first: it is a prefix of `path`.
        return None;
    }
    work::add(same);
    (value[..same].iter().all(|&b| plain(b)) && parts_at(value, path, same)).then_some(same)
}

/// Whether the pattern `value`, which holds the path's octets (all plain)
/// before `at`, surely parts from it at `at`, where it differs from the
/// path or goes on past the path's end (`at == path.len()`).
#[inline]
fn parts_at(value: &[u8], path: &[u8], at: usize) -> bool {
    let b = value[at];
    PLAIN[usize::from(b)] || ((b == b'$' || b == b'*') && parts_at_mark(value, path, at))
}

/// [`parts_at`] for a `$` or `*`, which most values do not hold where they
/// part from the path; those that do part in a few ways. Over the
/// benchmark's 4,000 files, the one-shot check read 10,312 rule lines whole
/// for one of them (its URL's path was often `/`): 6,345 at a `*` past the
/// path's end (`/*?` rules), 2,308 at a `*` before it, and 1,659 at a `$`
/// inside a pattern (1,650 of them one site's `/$720cfbd8-…$/aarp` rules).
/// It reads 1,119 of them whole now (32, 1,066 and 21).
#[cold]
fn parts_at_mark(value: &[u8], path: &[u8], at: usize) -> bool {
    let plain_at = |i: usize| value.get(i).is_some_and(|&b| PLAIN[usize::from(b)]);
    if value[at] == b'$' {
        // Not the pattern's end, where a plain octet follows: in every
        // dialect, a `$` inside a pattern is itself (RFC 9309 2.2.3), and
        // it differs from the path's octet here, or the path has ended.
        return plain_at(at + 1);
    }
    // The first octet that the pattern needs after its `*`s lies in the
    // rest of the path wherever the `*`s end, or the pattern cannot match
    // (the path has ended: there is no rest). A `*` that a dialect reads as
    // itself is not the path's octet here, so a match needs more still.
    let next = at + value[at..].iter().take_while(|&&b| b == b'*').count();
    work::add_with(move || 1 + next - at);
    plain_at(next) && find_any(&path[at..], [value[next]]).is_none()
}

/// Makes the rule `best` if it outranks it and matches `path`.
fn offer(
    best: &mut Best,
    parts: Parts<'_>,
    rank: u64,
    kind: RuleKind,
    path: &[u8],
    budget: &mut usize,
) {
    // One that cannot win is not worth a look at the path.
    if rank > best.rank && matches(parts, path, budget) {
        best.rank = rank;
        best.kind = kind;
    }
}

/// Whether the pattern cut as `parts` matches `path`, as the matcher's trie
/// and globs decide. A search past the literal prefix is paid from
/// `budget`; when that runs out the answer is `false` and `budget` 0.
fn matches(parts: Parts<'_>, path: &[u8], budget: &mut usize) -> bool {
    let literal = parts.literal;
    work::add_with(move || literal.len());
    if parts.tail.is_empty() {
        return if parts.anchored {
            path == literal
        } else {
            path.starts_with(literal)
        };
    }
    if !path.starts_with(literal) {
        return false;
    }
    let cost = path.len() - literal.len();
    if cost > *budget {
        *budget = 0;
        return false;
    }
    *budget -= cost;
    segments_match(parts.segments(), parts.last_ends(), &path[literal.len()..])
}

#[cfg(test)]
mod tests {
    use super::{is_allowed, parting, parting_by_octets, Head};
    use crate::dialect::Dialect;
    use crate::parse::ParseOptions;
    use crate::robots::Robots;

    fn both(d: Dialect, body: &str, agent: &str, url: &str) -> bool {
        let options = ParseOptions::new(d);
        let compiled = Robots::parse_with(body.as_bytes(), &options)
            .matcher(agent)
            .is_allowed(url);
        let once = is_allowed(body.as_bytes(), &options, agent, url);
        assert_eq!(once, compiled, "{d} {agent} {url} in {body:?}");
        once
    }

    // RFC 9309 2.2.2: the longest match wins, Allow on a tie; groups that
    // name the robot are merged, and `*` counts only when none does, even
    // when the named group comes after the `*` group.
    #[test]
    fn a_named_group_after_the_star_group_still_wins() {
        let body =
            "User-agent: *\nDisallow: /\n\nUser-agent: FooBot\nDisallow: /foo\nAllow: /foo/ok\n";
        assert!(both(Dialect::Rfc9309, body, "FooBot/2.1", "/bar"));
        assert!(!both(Dialect::Rfc9309, body, "FooBot", "/foo/x"));
        assert!(both(Dialect::Rfc9309, body, "FooBot", "/foo/ok/x"));
        assert!(!both(Dialect::Rfc9309, body, "BarBot", "/bar"));
    }

    // Draft 3.2.1 and the 1994 text: the first matching record, and in it
    // the first matching rule, decide.
    #[test]
    fn legacy_takes_the_first_record_and_its_first_rule() {
        let body = "User-agent: foobot\nDisallow: /a\nAllow: /a/b\n\nUser-agent: foobot\nAllow: /\n\nUser-agent: *\nDisallow: /\n";
        for d in [Dialect::Draft1996, Dialect::Norobots1994] {
            assert!(!both(d, body, "FooBot/1.0", "/a/b"));
            assert!(both(d, body, "FooBot/1.0", "/c"));
            assert!(!both(d, body, "other", "/c"));
        }
    }

    // The reader passes over comment lines, empty lines and (for this
    // check) lines that cannot be a `User-agent` or a rule, by their first
    // octet. 1994 standard: a comment line does not end a record, an empty
    // one does; RFC 9309 2.2: empty lines mean nothing. Each body below
    // decides differently if a line is passed over that should be read.
    #[test]
    fn lines_passed_over_by_their_first_octet_decide_as_read_whole() {
        let bodies = [
            "User-agent: bot\n\nDisallow: /\n",
            "User-agent: bot\r\rDisallow: /\r",
            "User-agent: bot\r\n\r\nDisallow: /\r\n",
            "User-agent: bot\n# a comment\nDisallow: /\n",
            "User-agent: bot\n#\nDisallow: /\n",
            "User-agent: bot\n\0\nDisallow: /\n",
            "User-agent: other\nDisallow: /\nSitemap: /s\nUser-agent: bot\nDisallow: /x\n",
            "User-agent: bot\nCrawl-delay: 1\nHost: h\nDisallow: /\n",
            "Sitemap: /s\n\u{feff}User-agent: bot\nDisallow: /\nUser-agent: bot\nAllow: /a\n",
            "User-agent: *\nDisallow: /a\n  User-agent: bot\n\tDisallow: /b\n",
            "User-agent: bot\n Disallow: /\n\x0bAllow: /a\n\x0cDisallow: /a/b\n",
            "user AGENT: bot\nDISSALLOW: /\nallow /a\n",
            "%user-agent: bot\n*Disallow: /\n",
        ];
        for d in Dialect::ALL {
            for body in bodies {
                for agent in ["bot", "other", "x"] {
                    for url in ["/", "/a", "/a/b", "/b", "/x"] {
                        both(d, body, agent, url);
                    }
                }
            }
        }
        // The empty line ends the record in the legacy dialects only.
        assert!(both(Dialect::Draft1996, bodies[0], "bot", "/a"));
        assert!(!both(Dialect::Rfc9309, bodies[0], "bot", "/a"));
        assert!(!both(Dialect::Draft1996, bodies[3], "bot", "/a"));
    }

    // A `User-agent` line is passed over by its value's first octets when
    // they part from the robot's name (RFC 9309 2.2.1: the product token,
    // case-insensitively). Each value below is one that a look at too few
    // octets, or at octets past the value's end, would misread: a name cut
    // short by a comment, a NUL, a line end or the body's end, blanks before
    // the value, `*` with and without a blank after it, a name longer than
    // the look, and lines that join or start a group.
    #[test]
    fn agent_lines_passed_by_their_first_octets_decide_as_read_whole() {
        let long = "a".repeat(200);
        let bodies = [
            "User-agent: FooBot\nDisallow: /\n".to_owned(),
            "User-agent:FooBot\nDisallow: /\n".to_owned(),
            "User-agent:  FooBot\nDisallow: /\n".to_owned(),
            "User-agent:\tFooBot\r\nDisallow: /\r\n".to_owned(),
            "USER-AGENT: foobot\rDisallow: /\r".to_owned(),
            "user-AGENT: FOOBOTX\nDisallow: /\n".to_owned(),
            "User-Agent : FooBot\nDisallow: /\n".to_owned(),
            "User-agent: Foo\nDisallow: /\n".to_owned(),
            "User-agent: Foo Bot\nDisallow: /\n".to_owned(),
            "User-agent: FooBot#x\nDisallow: /\n".to_owned(),
            "User-agent: Foo#Bot\nDisallow: /\n".to_owned(),
            "User-agent: Foo\0Bot\nDisallow: /\n".to_owned(),
            "User-agent: *\nDisallow: /\n".to_owned(),
            "User-agent: * # all\nDisallow: /\n".to_owned(),
            "User-agent: *x\nDisallow: /\n".to_owned(),
            "User-agent: *\x0b\nDisallow: /\n".to_owned(),
            "User-agent: *\x0bx\nDisallow: /\n".to_owned(),
            "User-agent: *\t\r\nDisallow: /\r\n".to_owned(),
            "User-agent: *#\nDisallow: /\n".to_owned(),
            "User-agent: *\0x\nDisallow: /\n".to_owned(),
            "Disallow: /b\nUser-agent: *".to_owned(),
            "User-agent: \nDisallow: /\n".to_owned(),
            "User-agent: other\nUser-agent: FooBot\nDisallow: /\n".to_owned(),
            "User-agent: FooBot\nDisallow: /a\nUser-agent: other\nDisallow: /\n".to_owned(),
            "User-agent: FooBot\nDisallow: /a\nUser\rAgent: x\nDisallow: /\n".to_owned(),
            "User-agent: *\nDisallow: /a\nUser-agent: other\nUser-agent: Foo".to_owned(),
            "User-agent: *\nDisallow: /\nUser-agent: FooBot".to_owned(),
            format!("User-agent: {long}\nDisallow: /\n"),
            format!("User-agent: {long}b\nDisallow: /\nUser-agent: *\nDisallow: /a\n"),
        ];
        let callers = ["FooBot", "foobot/1.0", "Foo", "FooBotX", "other", &long];
        for d in Dialect::ALL {
            for body in &bodies {
                for agent in callers {
                    for url in ["/", "/a", "/b"] {
                        both(d, body, agent, url);
                    }
                }
            }
        }
        let decides = |d, i: usize, agent, allowed| {
            assert_eq!(
                both(d, &bodies[i], agent, "/b"),
                allowed,
                "{d} {:?}",
                bodies[i]
            );
        };
        // Read whole where the octets seen so far are the name's.
        decides(Dialect::Rfc9309, 4, "FooBot", false);
        decides(Dialect::Rfc9309, 5, "FooBot", true);
        decides(Dialect::Rfc9309, 8, "Foo", false);
        // `*` alone, before white space or where the content ends, is every
        // robot; before other octets, and before a vertical tab that more
        // octets follow, it is no robot's name.
        decides(Dialect::Rfc9309, 12, "FooBot", false);
        decides(Dialect::Rfc9309, 13, "FooBot", false);
        decides(Dialect::Rfc9309, 14, "FooBot", true);
        decides(Dialect::Rfc9309, 15, "FooBot", false);
        decides(Dialect::Rfc9309, 16, "FooBot", true);
        decides(Dialect::Rfc9309, 17, "FooBot", false);
        decides(Dialect::Rfc9309, 18, "FooBot", false);
        decides(Dialect::Rfc9309, 19, "FooBot", false);
        decides(Dialect::Rfc9309, 22, "FooBot", false);
        decides(Dialect::Rfc9309, 23, "FooBot", true);
        decides(Dialect::Rfc9309, 24, "FooBot", false);
        decides(Dialect::Google, 27, &long, false);
        decides(Dialect::Google, 28, &long, true);
    }

    #[test]
    fn wildcards_anchors_and_rewrites_decide_as_compiled() {
        let body = "User-agent: *\nDisallow: /*.pdf$\nDisallow: /a%62*%63d\nAllow: /caf\u{e9}/\nDisallow: /caf\u{e9}\nAllow: /x/index.html\nDisallow: /x/\n";
        for d in Dialect::ALL {
            for url in [
                "/doc/a.pdf",
                "/doc/a.pdf?x",
                "/ab-cd",
                "/a%62-%63d",
                "/caf%C3%A9/",
                "/caf%C3%A9x",
                "/x/",
                "/x/y",
                "https://h.example/robots.txt",
                "http://h.example?q",
            ] {
                both(d, body, "bot", url);
            }
        }
    }

    // Many `*` rules against a long path would cost their product; past a
    // budget the check builds the matcher, and answers as it does.
    #[test]
    fn many_wildcard_rules_against_a_long_path_fall_back_to_the_matcher() {
        let mut body = String::from("User-agent: *\n");
        for i in 0..200 {
            body.push_str(&format!("Disallow: /*q{i}x\n"));
        }
        body.push_str("Disallow: /*zz$\n");
        let path = format!("/{}zz", "a".repeat(100_000));
        let mut sink_budget_ran_out = false;
        for d in [Dialect::Rfc9309, Dialect::Google] {
            assert!(!both(d, &body, "bot", &path));
            assert!(both(d, &body, "bot", &format!("{path}?")));
            let options = ParseOptions::new(d);
            let mut sink = super::OneShot::new(d, body.as_bytes(), "bot", path.as_bytes());
            crate::parse::read(body.as_bytes(), options.dialect, &mut sink);
            sink_budget_ran_out |= sink.budget == 0;
        }
        assert!(sink_budget_ran_out, "the test must reach the fallback");
    }

    #[test]
    fn a_rule_is_passed_over_only_where_it_parts_from_the_path_as_written() {
        let cannot_match = |raw: &[u8], path: &[u8]| super::cannot_match(raw, path, Head::of(path));
        assert!(cannot_match(b"/admin", b"/products"));
        assert!(cannot_match(b"/abc", b"/ab"));
        assert!(!cannot_match(b"/ab", b"/ab/c"));
        // `%62` may be `b` once decoded, `$` and `*` are not octets of the
        // path, and non-ASCII octets are escaped first.
        assert!(!cannot_match(b"/a%62", b"/ab"));
        assert!(!cannot_match(b"/ab$", b"/ab"));
        assert!(!cannot_match(b"/a*c", b"/abc"));
        assert!(!cannot_match(b"/x\xc3\xa9", b"/x%C3%A9"));
        // A `$` that a plain octet follows is itself, not the pattern's end.
        assert!(cannot_match(b"/$7a", b"/"));
        assert!(cannot_match(b"/a$b", b"/a"));
        assert!(cannot_match(b"/a$b", b"/ac"));
        // Not where the path holds a `$` before (its plainness is unknown).
        assert!(!cannot_match(b"/$7a", b"/$7"));
        assert!(!cannot_match(b"/$", b"/"));
        assert!(!cannot_match(b"/$ x", b"/"));
        assert!(!cannot_match(b"/$#x", b"/"));
        assert!(!cannot_match(b"/$*", b"/"));
        // `*`s then a plain octet that the rest of the path lacks (past the
        // path's end, there is no rest).
        assert!(cannot_match(b"/*?a=", b"/"));
        assert!(cannot_match(b"/***x", b"/"));
        assert!(cannot_match(b"/ab*c", b"/ab"));
        assert!(cannot_match(b"/*?a=", b"/shop/item"));
        assert!(cannot_match(b"/a*.pdf$", b"/ab/c"));
        assert!(!cannot_match(b"/a*.pdf$", b"/ab/c.html"));
        assert!(!cannot_match(b"/*x", b"/ax"));
        assert!(!cannot_match(b"/**x", b"/abcx"));
        assert!(!cannot_match(b"/*", b"/"));
        assert!(!cannot_match(b"/*", b"/a"));
        assert!(!cannot_match(b"/*$", b"/"));
        assert!(!cannot_match(b"/*$x", b"/"));
        assert!(!cannot_match(b"/* x", b"/"));
        assert!(!cannot_match(b"/*%41", b"/"));
        assert!(!cannot_match(b"/*\xc3\xa9", b"/a"));
    }

    // RFC 9309 2.2.3 and the reference library: `$` ends a pattern only as
    // its last octet, and the octet a pattern needs after its `*`s must lie
    // in the rest of the path. A rule parts from the path at either as at a
    // plain octet, in every dialect (the legacy ones read both as
    // themselves), so the answers must be the matcher's: `$` before plain
    // octets, white space, `#` and the line's end; `*`s before a plain
    // octet, the line's end, `$`, `%` and non-ASCII; runs of `*` longer than
    // the window the reader offers; paths that end there, go on without the
    // octet, hold it, or hold it escaped.
    #[test]
    fn rules_parting_at_a_dollar_or_after_stars_decide_as_read_whole() {
        let stars = "*".repeat(200);
        let bodies = [
            "Disallow: /$7a/b\n".to_owned(),
            "Disallow: /$\n".to_owned(),
            "Disallow: /$ # end\n".to_owned(),
            "Disallow: /$\r\nDisallow: /x\n".to_owned(),
            "Disallow: /a$\nDisallow: /$b\n".to_owned(),
            "Disallow: /*?a=\n".to_owned(),
            "Disallow: /***x\n".to_owned(),
            "Disallow: /*\n".to_owned(),
            "Disallow: /*$\n".to_owned(),
            "Disallow: /*$x\n".to_owned(),
            "Disallow: /*%41\n".to_owned(),
            "Disallow: /a*\nAllow: /a*b\n".to_owned(),
            format!("Disallow: /{stars}x\n"),
            format!("Disallow: /{stars}\n"),
            "Disallow: /\nAllow: /$x\nAllow: /*x\n".to_owned(),
            "Disallow: /a*b\nDisallow: /*\u{e9}\nDisallow: /*%62\n".to_owned(),
            "Disallow: /*.pdf$\nAllow: /a*?\n".to_owned(),
        ];
        let paths = [
            "/", "/$7a/b", "/$7", "/$", "/a", "/a$", "/$b", "/x", "/?a=", "/A", "/ab", "/ac",
            "/axb", "/a%62", "/a/x?a=1", "/d.pdf", "/a.pdf?x", "/a?b", "/%C3%A9", "/\u{e9}",
        ];
        for d in Dialect::ALL {
            for rules in &bodies {
                let body = format!("User-agent: *\n{rules}");
                for path in paths {
                    both(d, &body, "bot", path);
                }
            }
        }
        let decides = |d, i: usize, path, allowed| {
            let body = format!("User-agent: *\n{}", bodies[i]);
            assert_eq!(both(d, &body, "bot", path), allowed, "{d} {path} {body:?}");
        };
        for d in [Dialect::Rfc9309, Dialect::Google] {
            decides(d, 0, "/", true);
            decides(d, 0, "/$7a/b", false);
            decides(d, 1, "/", false);
            decides(d, 1, "/$", true);
            decides(d, 2, "/", false);
            decides(d, 4, "/$b", false);
            decides(d, 5, "/", true);
            decides(d, 5, "/?a=", false);
            decides(d, 7, "/", false);
            decides(d, 8, "/", false);
            decides(d, 9, "/", true);
            decides(d, 12, "/", true);
            decides(d, 12, "/x", false);
            decides(d, 13, "/", false);
            decides(d, 14, "/", false);
            decides(d, 14, "/x", true);
            decides(d, 5, "/a/x?a=1", false);
            decides(d, 5, "/ab", true);
            decides(d, 15, "/ac", true);
            decides(d, 15, "/axb", false);
            decides(d, 16, "/d.pdf", false);
            decides(d, 16, "/a.pdf?x", true);
            decides(d, 16, "/a?b", true);
        }
        for d in [Dialect::Draft1996, Dialect::Norobots1994] {
            decides(d, 1, "/", true);
            decides(d, 1, "/$", false);
            decides(d, 7, "/", true);
            decides(d, 7, "/a", true);
        }
    }

    // The word-at-a-time form of `parting` says what the octet-by-octet one
    // does: values and paths parting at every place of the first word and
    // past it, shorter than a word, with every kind of octet at the parting
    // place and before it (NUL included, which is also the path's padding),
    // and paths that hold an octet that is not plain (`%`, `*`, non-ASCII:
    // what the value shares with the path must be plain too).
    #[test]
    fn parting_by_words_agrees_with_parting_octet_by_octet() {
        let octets = [
            b'a', b'b', b'/', 0, b' ', b'\n', b'#', b'%', b'*', b'$', 0xC3, 0x7F,
        ];
        let mut checked = 0;
        for path_len in [0, 1, 3, 7, 8, 9, 12] {
            let plain_path: Vec<u8> = (0..path_len).map(|i| b'a' + (i % 3) as u8).collect();
            let mut paths = vec![plain_path.clone()];
            for odd_at in 0..path_len.min(9) {
                for odd in [b'%', b'*', b'$', 0xC3] {
                    let mut path = plain_path.clone();
                    path[odd_at] = odd;
                    paths.push(path);
                }
            }
            for path in &paths {
                let head = Head::of(path);
                for value_len in [0, 1, 5, 7, 8, 9, 16] {
                    for at in 0..value_len {
                        for &o in &octets {
                            let mut value: Vec<u8> =
                                path.iter().copied().cycle().take(value_len).collect();
                            value.resize(value_len, b'z');
                            value[at] = o;
                            assert_eq!(
                                parting(&value, path, head),
                                parting_by_octets(&value, path),
                                "{value:?} against {path:?}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 80_000, "{checked}");
    }

    // RFC 9309 2.2.2 and the reference library's reader: a rule line spelled
    // plainly is passed over once its value parts from the path, but only
    // where nothing up to that octet may end the pattern (trailing white
    // space, `#`, NUL, CR), be rewritten (`%`, non-ASCII) or be a wildcard
    // (`*`, `$`; where those part all the same is for
    // `rules_parting_at_a_dollar_or_after_stars_decide_as_read_whole`); a
    // `google` Allow may match as its directory, and the reference library
    // cuts a line at 16,663 octets.
    #[test]
    fn a_plain_rule_line_is_passed_over_only_where_it_parts_from_the_path() {
        let long = "a".repeat(20_000);
        let cases: &[(&str, &str, [bool; 2])] = &[
            // (rules, path, allowed in rfc9309 and in google)
            ("Disallow: /ac\n", "/ab", [true, true]),
            ("disallow:\t/ac\n", "/ab", [true, true]),
            ("DISALLOW: /ab\n", "/ab", [false, false]),
            ("Disallow: /ab \n", "/ab", [false, false]),
            ("Disallow: /ab\t\x0b\n", "/ab", [false, false]),
            ("Disallow: /ab#c\n", "/ab", [false, false]),
            ("Disallow: /ab\0c\n", "/ab", [false, false]),
            ("Disallow: /ab\rDisallow: /x", "/ab", [false, false]),
            ("Disallow: /a%62c\n", "/abc", [false, true]),
            ("Disallow: /a*c\n", "/abc", [false, false]),
            ("Disallow: /abc$\n", "/abc", [false, false]),
            ("Disallow: /\u{e9}\n", "/%C3%A9", [false, false]),
            (
                "Disallow: /\nAllow: /ab\nAllow: /ac\n",
                "/ab/",
                [true, true],
            ),
            (
                "Disallow: /\nAllow: /ab/index.html\n",
                "/ab/",
                [false, true],
            ),
            ("Disallow: /\nallow: /ab/index.htm\n", "/ab/", [false, true]),
            (
                "Disallow: /\nALLOW: /ab/main.html\n",
                "/ab/",
                [false, false],
            ),
        ];
        let capped = format!("Disallow: /{long}b\n");
        let path = format!("/{long}a");
        // Past the window compared before the line's end is known.
        let wide = format!(
            "Disallow: /{}b\nDisallow: /{}\n",
            &long[..200],
            &long[..300]
        );
        let cases = cases
            .iter()
            .map(|&(rules, path, allowed)| (rules.to_owned(), path.to_owned(), allowed))
            .chain([
                (capped, path.clone(), [true, false]),
                (wide, path, [false, false]),
            ]);
        for (rules, path, allowed) in cases {
            let body = format!("User-agent: *\n{rules}");
            for (d, allowed) in [Dialect::Rfc9309, Dialect::Google].into_iter().zip(allowed) {
                assert_eq!(both(d, &body, "bot", &path), allowed, "{d} {rules:?}");
            }
            for d in [Dialect::Draft1996, Dialect::Norobots1994] {
                both(d, &body, "bot", &path);
            }
        }
    }

    // RFC 9309 2.1: only a `User-agent` line after a rule starts a group.
    // The reader passes over the rest of a group that cannot count, so
    // every way of writing that line must still be seen there: white space
    // before the key, the misspellings, the reference library's longer
    // keys, CR-only line ends, and a blank line in the legacy dialects.
    #[test]
    fn a_group_that_cannot_count_is_passed_over_up_to_the_next_agent_line() {
        let agent_lines = [
            "User-agent: bot",
            " \t\x0b\x0cuser-agent: bot",
            "useragent: bot",
            "User agent: bot",
            "User-agents: bot",
            "USER-AGENT bot",
        ];
        for line in agent_lines {
            for eol in ["\n", "\r", "\r\n"] {
                let body = [
                    "User-agent: other",
                    "Disallow: /a",
                    "Crawl-delay: 3",
                    "# User-agent: bot",
                    "Disallow: /user",
                    "",
                    "Disallow: /b",
                    line,
                    "Disallow: /c",
                ]
                .join(eol);
                for d in Dialect::ALL {
                    for url in ["/a", "/b", "/c", "/user"] {
                        both(d, &body, "bot", url);
                    }
                }
            }
        }
        let body = "User-agent: other\nDisallow: /a\nUser-agent: bot\nDisallow: /c\n";
        assert!(!both(Dialect::Rfc9309, body, "bot", "/c"));
        assert!(both(Dialect::Rfc9309, body, "bot", "/a"));
    }

    // RFC 9309 2.2.2 (and the reference library): white space around the
    // value is not part of the pattern. The reader passes over one blank
    // after the colon; a value that still starts with one is declined by
    // the sink and the line read whole. Each spacing here, at the body's
    // end too, must decide as the matcher does, and as written without it.
    #[test]
    fn blanks_between_the_colon_and_the_value_are_not_part_of_it() {
        let spacings = ["", " ", "\t", "  ", " \t", "\t\t ", "   \x0b"];
        for space in spacings {
            for (key, allowed) in [("Disallow", false), ("Allow", true)] {
                let rule = format!("{key}:{space}/a");
                for body in [
                    format!("User-agent: *\nDisallow: /\n{rule}\n"),
                    format!("User-agent: *\nDisallow: /\n{rule}"),
                ] {
                    for d in [Dialect::Rfc9309, Dialect::Google] {
                        let verdict = both(d, &body, "bot", "/a/b");
                        assert_eq!(verdict, allowed, "{d} {body:?}");
                        assert!(!both(d, &body, "bot", "/b"), "{d} {body:?}");
                    }
                }
            }
            // A value of white space only is an empty pattern.
            let body = format!("User-agent: *\nDisallow:{space}\n");
            assert!(both(Dialect::Rfc9309, &body, "bot", "/a"));
        }
    }

    #[test]
    fn a_body_past_the_limit_is_not_read() {
        let body = "User-agent: *\nDisallow: /a\nDisallow: /b\n";
        let options = ParseOptions::new(Dialect::Rfc9309).max_bytes(27);
        assert!(!is_allowed(body.as_bytes(), &options, "bot", "/a"));
        assert!(is_allowed(body.as_bytes(), &options, "bot", "/b"));
    }
}
