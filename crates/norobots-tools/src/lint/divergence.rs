//! The headline check: URLs that a robot of the 1996 draft and a robot of
//! RFC 9309 decide differently. Candidates come from the rules themselves
//! (each pattern as a path, with its wildcards filled in, its `%xx`
//! decoded or its reserved characters encoded) and from the robot names
//! the file mentions; every candidate is run through both dialects'
//! matchers, and only a real disagreement is reported.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use norobots::{Dialect, Matcher, ParseOptions, Robots, RuleRef, Verdict};

use super::lines::Scan;
use super::{finding, shown, Code, Severity, Sink};

/// At most this many robot names are tried per file.
const MAX_AGENTS: usize = 16;
/// At most this many URLs are checked per file (each in both dialects).
const MAX_CHECKS: usize = 50_000;
/// Longer patterns give no example: the URL would be unreadable.
const MAX_PATTERN: usize = 1024;
/// The host of the example URLs.
const ORIGIN: &str = "https://example.com";
/// A robot that no group names: it gets the `*` groups.
const ANY_ROBOT: &str = "ExampleBot";

/// A URL that one dialect allows and the other forbids, as found by running
/// both dialects' matchers.
///
/// ```
/// use norobots::Dialect;
/// use norobots_tools::lint::{lint, DivergenceKind, LintOptions};
///
/// let report = lint(b"User-agent: *\nDisallow: /*.pdf$\n", &LintOptions::default());
/// let example = report.findings[0].example.clone().unwrap();
/// assert_eq!(example.kind, DivergenceKind::Wildcard);
/// assert_eq!(example.url, "https://example.com/x.pdf");
/// assert_eq!((example.allowed_in, example.disallowed_in), (Dialect::Draft1996, Dialect::Rfc9309));
/// assert_eq!(example.agent, "ExampleBot");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// Why the dialects disagree.
    pub kind: DivergenceKind,
    /// The URL.
    pub url: String,
    /// The robot name the URL was checked for.
    pub agent: String,
    /// The dialect that allows the URL.
    pub allowed_in: Dialect,
    /// The dialect that disallows it.
    pub disallowed_in: Dialect,
}

/// Why `draft1996` and `rfc9309` disagree on a divergence's example: the
/// kind of a [`Code::DialectDivergence`](super::Code::DialectDivergence)
/// finding. The text report shows each kind once unless asked for every
/// finding ([`TextOptions::all_divergence`](super::TextOptions::all_divergence)).
///
/// ```
/// use norobots_tools::lint::{lint, DivergenceKind, LintOptions};
///
/// let report = lint(b"User-agent: *\nDisallow: /\nAllow: /public\n", &LintOptions::default());
/// let kind = report.findings[0].example.as_ref().unwrap().kind;
/// assert_eq!(kind, DivergenceKind::Order);
/// assert_eq!(kind.as_str(), "order");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DivergenceKind {
    /// The dialects pick different groups for the robot: substring against
    /// product-token matching of `User-agent`.
    Agent,
    /// `rfc9309` repairs a misspelled field name or a missing `:` that
    /// `draft1996` ignores.
    Spelling,
    /// Several paths on one line: one pattern each in `draft1996`, one
    /// pattern with a space in `rfc9309`.
    SeveralValues,
    /// `*` and `$`: wildcards in `rfc9309`, plain characters in `draft1996`.
    Wildcard,
    /// `%xx`: decoded differently.
    Percent,
    /// Where a group ends: blank lines end records in `draft1996`, and mean
    /// nothing in `rfc9309`, whose groups' `User-agent` lines run up to
    /// their first rule.
    Boundary,
    /// Rule order: the first match decides in `draft1996`, the longest in
    /// `rfc9309`.
    Order,
    /// None of the above.
    Other,
}

impl DivergenceKind {
    /// Every kind, in the order of their declaration.
    ///
    /// ```
    /// assert_eq!(norobots_tools::lint::DivergenceKind::ALL.len(), 8);
    /// ```
    pub const ALL: [DivergenceKind; 8] = [
        DivergenceKind::Agent,
        DivergenceKind::Spelling,
        DivergenceKind::SeveralValues,
        DivergenceKind::Wildcard,
        DivergenceKind::Percent,
        DivergenceKind::Boundary,
        DivergenceKind::Order,
        DivergenceKind::Other,
    ];

    /// The stable slug, as JSON output writes it (`example.kind`).
    ///
    /// ```
    /// use norobots_tools::lint::DivergenceKind;
    ///
    /// assert_eq!(DivergenceKind::SeveralValues.as_str(), "several-values");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            DivergenceKind::Agent => "agent",
            DivergenceKind::Spelling => "spelling",
            DivergenceKind::SeveralValues => "several-values",
            DivergenceKind::Wildcard => "wildcard",
            DivergenceKind::Percent => "percent",
            DivergenceKind::Boundary => "boundary",
            DivergenceKind::Order => "order",
            DivergenceKind::Other => "other",
        }
    }
}

impl std::fmt::Display for DivergenceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One dialect's reading for one robot.
struct Side<'r> {
    robots: &'r Robots,
    /// The lines of the selected groups, in file order, and as a set.
    groups: Vec<usize>,
    group_set: HashSet<usize>,
    rule_lines: HashSet<usize>,
}

impl<'r> Side<'r> {
    fn new(robots: &'r Robots, agent: &str) -> Side<'r> {
        let selected = robots.groups_for(agent);
        let groups: Vec<usize> = selected.iter().map(|g| g.line()).collect();
        let group_set = groups.iter().copied().collect();
        let rule_lines = selected
            .iter()
            .flat_map(|g| g.rules().map(|r| r.line()))
            .collect();
        Side {
            robots,
            groups,
            group_set,
            rule_lines,
        }
    }
}

pub(crate) fn check(body: &[u8], chosen: &Robots, scan: &Scan, sink: &mut Sink) {
    let parse = |d: Dialect| {
        (chosen.dialect() != d).then(|| Robots::parse_with(body, &ParseOptions::new(d)))
    };
    let (draft_own, rfc_own) = (parse(Dialect::Draft1996), parse(Dialect::Rfc9309));
    let draft = draft_own.as_ref().unwrap_or(chosen);
    let rfc = rfc_own.as_ref().unwrap_or(chosen);
    let mut state = State {
        scan,
        draft_records: draft.groups().map(|g| g.line()).collect(),
        checks: 0,
        seen: HashSet::new(),
        matchers: [HashMap::new(), HashMap::new()],
    };
    let mut selections: HashSet<(Vec<usize>, Vec<usize>)> = HashSet::new();
    for agent in candidate_agents(draft, rfc) {
        if state.checks >= MAX_CHECKS || !sink.wants(Code::DialectDivergence) {
            break;
        }
        let (d, r) = (Side::new(draft, &agent), Side::new(rfc, &agent));
        // Robots that get the same groups in both dialects get the same
        // verdicts: one of them is enough.
        if !selections.insert((d.groups.clone(), r.groups.clone())) {
            continue;
        }
        state.agent(&agent, &d, &r, sink);
    }
}

struct State<'s, 'b> {
    scan: &'s Scan<'b>,
    /// Where each draft1996 record starts, in file order.
    draft_records: Vec<usize>,
    checks: usize,
    /// (cause, draft rule line, rfc rule line): one finding for each.
    seen: HashSet<(DivergenceKind, usize, usize)>,
    /// A matcher depends only on the groups it compiles: robots that get
    /// the same groups in one dialect share it (draft, then rfc).
    matchers: [HashMap<Vec<usize>, Rc<Matcher>>; 2],
}

impl State<'_, '_> {
    fn matcher(&mut self, which: usize, side: &Side, agent: &str) -> Rc<Matcher> {
        let cache = &mut self.matchers[which];
        if let Some(m) = cache.get(&side.groups) {
            return Rc::clone(m);
        }
        let m = Rc::new(side.robots.matcher(agent));
        cache.insert(side.groups.clone(), Rc::clone(&m));
        m
    }

    fn agent(&mut self, agent: &str, d: &Side, r: &Side, sink: &mut Sink) {
        let (md, mr) = (self.matcher(0, d, agent), self.matcher(1, r, agent));
        // When the dialects pick different groups for the robot, every
        // disagreement has that one cause: the first example is enough.
        // Point at the group only one dialect picks: the draft's first
        // (where a substring matched), else RFC 9309's.
        let agent_line = (d.groups != r.groups).then(|| {
            let only =
                |a: &Side, b: &Side| a.groups.iter().find(|l| !b.group_set.contains(l)).copied();
            only(d, r).or_else(|| only(r, d)).unwrap_or(0)
        });
        let mut paths: HashSet<String> = HashSet::new();
        let mut done = false;
        let mut try_path = |state: &mut State, path: String, sink: &mut Sink| {
            if done || state.checks >= MAX_CHECKS || !paths.insert(path.clone()) {
                return;
            }
            state.checks += 1;
            let url = format!("{ORIGIN}{path}");
            let (vd, vr) = (md.check(&url), mr.check(&url));
            if vd.allowed != vr.allowed {
                state.report(agent, url, (d, r), agent_line, (vd, vr), sink);
                done = agent_line.is_some();
            }
        };
        try_path(self, "/".to_string(), sink);
        for side in [d, r] {
            for g in side
                .robots
                .groups()
                .filter(|g| side.group_set.contains(&g.line()))
            {
                for rule in g.rules() {
                    for path in candidate_paths(rule.pattern_bytes()) {
                        try_path(self, path, sink);
                    }
                }
            }
        }
    }

    fn report(
        &mut self,
        agent: &str,
        url: String,
        (d, r): (&Side, &Side),
        agent_line: Option<usize>,
        (vd, vr): (Verdict, Verdict),
        sink: &mut Sink,
    ) {
        let (cause, line, pattern) = match agent_line {
            Some(line) => (DivergenceKind::Agent, line, None),
            None => self.cause(&url, d, r, vd.rule, vr.rule),
        };
        // One finding per line and cause; rule order is about a pair.
        let key = match cause {
            DivergenceKind::Order | DivergenceKind::Other => (
                cause,
                vd.rule.map_or(0, |x| x.line),
                vr.rule.map_or(0, |x| x.line),
            ),
            _ => (cause, line, 0),
        };
        if !self.seen.insert(key) {
            return;
        }
        let (allowed_in, disallowed_in) = if vd.allowed {
            (Dialect::Draft1996, Dialect::Rfc9309)
        } else {
            (Dialect::Rfc9309, Dialect::Draft1996)
        };
        let column = match pattern {
            Some(p) => self.scan.pattern_column(line, p.as_bytes()),
            None => self
                .scan
                .field_line(line)
                .map_or(1, |f| self.scan.table.column(line, f.value.0)),
        };
        let message = format!(
            "draft1996 and rfc9309 disagree: `{agent}` may fetch `{}` under {allowed_in} but not under {disallowed_in}",
            shown(url.as_bytes())
        );
        let mut f = finding(
            line.max(1),
            column,
            Severity::Warning,
            Code::DialectDivergence,
            message,
        )
        .with_help(help(
            cause,
            agent,
            (d, r),
            (vd.rule, vr.rule),
            &self.draft_records,
        ));
        f.example = Some(Example {
            kind: cause,
            url,
            agent: agent.to_string(),
            allowed_in,
            disallowed_in,
        });
        sink.push(f);
    }

    /// Why the verdicts differ, the line to point at, and the pattern on it.
    fn cause<'v>(
        &self,
        url: &str,
        d: &Side,
        r: &Side,
        rd: Option<RuleRef<'v>>,
        rr: Option<RuleRef<'v>>,
    ) -> (DivergenceKind, usize, Option<&'v str>) {
        let rules = [rd, rr];
        let pick = |f: &dyn Fn(&RuleRef) -> bool| rules.iter().flatten().find(|x| f(x)).copied();
        let several = |x: &RuleRef| {
            self.scan.field_line(x.line).is_some_and(|f| {
                self.scan
                    .table_bytes(f.value.0, f.value.1)
                    .iter()
                    .any(|&b| b == b' ' || b == b'\t')
            })
        };
        let misspelled = |x: &RuleRef| self.scan.field_line(x.line).is_some_and(|f| !f.exact);
        let (cause, rule) = if let Some(x) = pick(&misspelled) {
            (DivergenceKind::Spelling, Some(x))
        } else if let Some(x) = pick(&several) {
            (DivergenceKind::SeveralValues, Some(x))
        } else if let Some(x) = pick(&|x: &RuleRef| x.pattern.contains(['*', '$'])) {
            (DivergenceKind::Wildcard, Some(x))
        } else if let Some(x) = pick(&|x: &RuleRef| x.pattern.contains('%')) {
            (DivergenceKind::Percent, Some(x))
        } else if url.contains('%') {
            (DivergenceKind::Percent, rr.or(rd))
        } else if let Some(x) = rd
            .filter(|x| !r.rule_lines.contains(&x.line))
            .or(rr.filter(|x| !d.rule_lines.contains(&x.line)))
        {
            (DivergenceKind::Boundary, Some(x))
        } else if let (Some(a), Some(b)) = (rd, rr) {
            (
                DivergenceKind::Order,
                Some(if a.line > b.line { a } else { b }),
            )
        } else {
            (DivergenceKind::Other, rr.or(rd))
        };
        match rule {
            Some(x) => (cause, x.line, Some(x.pattern)),
            None => (cause, 0, None),
        }
    }
}

fn rule_text(rule: Option<RuleRef>) -> String {
    match rule {
        Some(x) => format!(
            "line {} `{}: {}`",
            x.line,
            x.kind,
            shown(x.pattern.as_bytes())
        ),
        None => "no rule".to_string(),
    }
}

fn lines_text(lines: &[usize]) -> String {
    const SHOWN: usize = 5;
    match lines {
        [] => "no group".to_string(),
        [one] => format!("line {one}"),
        more => {
            let listed: Vec<String> = more.iter().take(SHOWN).map(usize::to_string).collect();
            let rest = more.len().saturating_sub(SHOWN);
            let tail = if rest > 0 {
                format!(" and {rest} more")
            } else {
                String::new()
            };
            format!("lines {}{tail}", listed.join(", "))
        }
    }
}

/// Where rfc9309 reads as one group what draft1996 reads as several
/// records: a group's `User-agent` lines run up to its first rule in
/// rfc9309, past blank lines and other fields, while a blank line ends a
/// record in draft1996. The line of the robot's own record and of the
/// record that holds the rules it shares in rfc9309.
fn merged_records(d: &Side, r: &Side, draft_records: &[usize]) -> Option<(usize, usize)> {
    r.robots
        .groups()
        .filter(|g| r.group_set.contains(&g.line()))
        .find_map(|g| {
            let first_rule = g.rules().next()?.line();
            let start = draft_records.partition_point(|&l| l <= g.line());
            let end = draft_records.partition_point(|&l| l < first_rule);
            let rules_at = *draft_records.get(start..end)?.last()?;
            let own = d
                .groups
                .iter()
                .copied()
                .find(|&l| (g.line()..rules_at).contains(&l))
                .unwrap_or(g.line());
            Some((own, rules_at))
        })
}

fn help(
    cause: DivergenceKind,
    agent: &str,
    (d, r): (&Side, &Side),
    (rd, rr): (Option<RuleRef>, Option<RuleRef>),
    draft_records: &[usize],
) -> String {
    let (td, tr) = (rule_text(rd), rule_text(rr));
    match cause {
        DivergenceKind::Agent => format!(
            "draft1996 picks the first record whose `User-agent` contains `{agent}` as a substring ({}), rfc9309 every group whose product token is `{agent}` ({}); name each robot by its exact product token, in one group",
            lines_text(&d.groups),
            lines_text(&r.groups)
        ),
        DivergenceKind::Spelling => format!(
            "rfc9309 repairs a misspelled field name or missing `:`, as Google's parser does, draft1996 ignores the line: draft1996 decides by {td}, rfc9309 by {tr}; fix the line's spelling"
        ),
        DivergenceKind::SeveralValues => format!(
            "draft1996 reads each word of a line as its own path ({td}), rfc9309 the whole value as one pattern ({tr}); put each path on its own line"
        ),
        DivergenceKind::Wildcard => format!(
            "`*` and `$` are wildcards in rfc9309 ({tr}) but plain characters in draft1996 ({td}); if 1996-era robots matter, also list the literal paths"
        ),
        DivergenceKind::Percent => format!(
            "draft1996 decodes every `%xx` but `%2F` before comparing ({td}), rfc9309 only unreserved characters ({tr}); write paths as your links spell them"
        ),
        // Removing the blank line would not help here: rfc9309 already
        // reads the lines as one group, and the author most likely meant
        // two.
        DivergenceKind::Boundary => match merged_records(d, r, draft_records) {
            Some((own, rules_at)) => format!(
                "rfc9309 reads a group's `User-agent` lines up to its first rule, past blank lines and fields such as `Crawl-delay`, so `{agent}` (line {own}) shares the rules of line {rules_at}'s group ({tr}); draft1996 ends the record at the blank line and decides by {td}; if line {own}'s robots are not meant to share those rules, give their group a rule of its own (an empty `Disallow:` allows everything), else put line {own} directly above line {rules_at}"
            ),
            None => format!(
                "a blank line ends a record in draft1996 but not in rfc9309: draft1996 decides by {td}, rfc9309 by {tr}; remove blank lines inside groups (rfc9309 reads the file the same without them)"
            ),
        },
        DivergenceKind::Order => format!(
            "draft1996 takes the first matching line ({td}), rfc9309 the longest match ({tr}); put the more specific rule first so that both agree"
        ),
        DivergenceKind::Other => format!("draft1996 decides by {td}, rfc9309 by {tr}"),
    }
}

/// Robot names worth trying: one that no group names, then each named
/// robot's product token and the words inside its value (`Googlebot` in
/// `Googlebot-News`, `bar` in `foo bar`), where substring and product-token
/// matching part ways.
fn candidate_agents(draft: &Robots, rfc: &Robots) -> Vec<String> {
    let mut out = vec![ANY_ROBOT.to_string()];
    let mut seen: HashSet<String> = HashSet::from([ANY_ROBOT.to_ascii_lowercase()]);
    let mut add = |name: &str, out: &mut Vec<String>| {
        if out.len() < MAX_AGENTS && !name.is_empty() && seen.insert(name.to_ascii_lowercase()) {
            out.push(name.to_string());
        }
    };
    for robots in [rfc, draft] {
        for g in robots.groups() {
            for value in g.agents() {
                if out.len() >= MAX_AGENTS {
                    return out;
                }
                add(norobots::product_token(&value), &mut out);
                for piece in value
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .filter(|p| p.len() >= 3)
                    .take(3)
                {
                    add(piece, &mut out);
                }
            }
        }
    }
    out
}

/// Paths to try for one pattern: as written, with wildcards filled in,
/// `%xx` decoded, and reserved characters encoded.
fn candidate_paths(pattern: &[u8]) -> Vec<String> {
    if pattern.is_empty() || pattern.len() > MAX_PATTERN {
        return Vec::new();
    }
    let mut base = Vec::with_capacity(pattern.len() + 1);
    if pattern[0] != b'/' {
        base.push(b'/');
    }
    base.extend_from_slice(pattern);
    // The realistic URLs first: the first example found for a line is
    // the one reported.
    let mut out = Vec::new();
    if base.iter().any(|&b| b == b'*' || b == b'$') {
        let body = base.strip_suffix(b"$").unwrap_or(&base);
        let filled: Vec<u8> = body
            .iter()
            .map(|&b| if b == b'*' { b'x' } else { b })
            .collect();
        out.push(filled);
    }
    if base.contains(&b'%') {
        out.push(decode(&base));
    }
    if base.iter().any(|&b| is_reserved(b)) {
        out.push(encode_reserved(&base));
    }
    out.push(base);
    out.dedup();
    out.into_iter()
        .map(|p| String::from_utf8_lossy(&p).into_owned())
        .collect()
}

/// ASCII that RFC 9309 leaves encoded but the 1996 draft decodes.
fn is_reserved(b: u8) -> bool {
    b.is_ascii_graphic()
        && !b.is_ascii_alphanumeric()
        && !matches!(
            b,
            b'-' | b'.' | b'_' | b'~' | b'/' | b'%' | b'*' | b'$' | b'?' | b'#'
        )
}

fn encode_reserved(path: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(path.len() * 2);
    for &b in path {
        if is_reserved(b) {
            out.extend_from_slice(format!("%{b:02X}").as_bytes());
        } else {
            out.push(b);
        }
    }
    out
}

/// `%xx` decoded, except `%2F` (as the draft reads paths).
fn decode(path: &[u8]) -> Vec<u8> {
    let hex = |b: u8| (b as char).to_digit(16).map(|v| v as u8);
    let mut out = Vec::with_capacity(path.len());
    let mut i = 0;
    while i < path.len() {
        if path[i] == b'%' && i + 2 < path.len() {
            if let (Some(h), Some(l)) = (hex(path[i + 1]), hex(path[i + 2])) {
                let v = h << 4 | l;
                if v != b'/' {
                    out.push(v);
                    i += 3;
                    continue;
                }
            }
        }
        out.push(path[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_fill_wildcards_decode_and_encode() {
        assert_eq!(candidate_paths(b"/*.pdf$"), ["/x.pdf", "/*.pdf$"]);
        assert_eq!(candidate_paths(b"/a%3Cb"), ["/a<b", "/a%3Cb"]);
        assert_eq!(candidate_paths(b"/a,b"), ["/a%2Cb", "/a,b"]);
        assert_eq!(candidate_paths(b"/a%2Fb"), ["/a%2Fb"]);
        assert!(candidate_paths(b"").is_empty());
        assert_eq!(candidate_paths(b"tmp"), ["/tmp"]);
    }
}
