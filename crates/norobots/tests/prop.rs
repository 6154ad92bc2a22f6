//! Property tests: the compiled [`norobots::Matcher`] against a naive
//! reference matcher written here straight from `shared/spec/dialects.md`.
//!
//! The matcher is a radix trie with ranks, skip sets and scratch buffers; the
//! reference is a list scan over rules with a table-driven glob, so that a
//! disagreement points at the clever code and not at the test. Bodies are
//! generated as structured groups, rendered to text and parsed with
//! [`Robots::parse_with`]; the reference reads the structure directly.
//!
//! Alphabets are small on purpose, so that random rules and paths often share
//! prefixes, escapes (`%61` against `a`, `%2F` against `/`, `é` against
//! `%c3%a9`) and wildcards. The letter `i` is kept out of both alphabets so
//! that `google`'s "an Allow for `/x/index.html` also allows `/x/`" never
//! applies and the reference need not model it.

use norobots::{Dialect, ParseOptions, Robots, RuleKind, Verdict};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::Config;

/// 2,000 cases per property unless `PROPTEST_CASES` asks otherwise. Failures
/// are not persisted to `proptest-regressions/`: a failing case found here is
/// kept as a named `#[test]` at the end of this file instead.
fn config() -> Config {
    let mut config = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = 2_000;
    }
    config.failure_persistence = None;
    config
}

// ---------------------------------------------------------------------------
// The generated structure and its rendering.

/// `User-agent` values in files. They overlap on purpose: in the legacy
/// dialects `foo` is a substring of `FooBot` and `foo-bar`; in `rfc9309`
/// `bar/2.0` has the product token `bar`.
const AGENT_VALUES: &[&str] = &["foo", "FooBot", "BAR", "bar/2.0", "foo-bar", "*"];

/// What callers pass as their agent. `FooBot/1.0` reads as `FooBot` in the
/// legacy dialects and `rfc9309`, but `google` compares it whole (and so
/// finds no group for it); `baz` is named by no group.
const CALLERS: &[&str] = &["foo", "Foo", "FooBot/1.0", "bar", "foo-bar", "baz"];

/// Pattern and path pieces. `%` alone makes broken escapes and, before `a`
/// or `b`, escapes of non-ASCII octets (`%ab`); `%2F`/`%2f` must stay apart
/// from `/`; `%61` and `%2e` are unreserved characters that rfc9309 decodes
/// (a letter and not); `é`, `%c3%a9` and `%C3%A9` are the same octets once
/// encoded or decoded, and only the upper-case form lets a `google` pattern
/// with `é` match (its URL is compared as given); `%E9` and `%ff` are
/// Latin-1 octets, which a path may hold raw (see `RAW`). `;` starts
/// params, which are matched; `$` is an anchor only at the very end of an
/// rfc9309 or google pattern and an octet everywhere else. `abcdefgh`
/// makes keys that run past the sixteen octets the matcher's build reads
/// from its entries before it reads the arena.
const PIECES: &[&str] = &[
    "/", "a", "b", ".", "?", "=", ";", "$", "%", "%61", "%2e", "%2F", "%2f", "é", "%c3%a9",
    "%C3%A9", "%E9", "%ff", "abcdefgh",
];

#[derive(Clone, Debug)]
struct GenRule {
    allow: bool,
    pattern: String,
    /// A comment-only line after the rule: no group boundary in any dialect.
    comment_after: bool,
}

#[derive(Clone, Debug)]
struct GenGroup {
    agents: Vec<&'static str>,
    rules: Vec<GenRule>,
}

#[derive(Clone, Debug)]
struct GenFile {
    groups: Vec<GenGroup>,
    leading_comment: bool,
    /// Field names are case-insensitive in every dialect.
    key_case: u8,
    /// CR, LF and CRLF all end lines in every dialect.
    eol: &'static str,
}

/// The body as text, and the 1-based line of each rule, per group.
fn render(file: &GenFile) -> (String, Vec<Vec<usize>>) {
    let keys = match file.key_case {
        0 => ["User-agent", "Allow", "Disallow"],
        1 => ["user-agent", "allow", "disallow"],
        _ => ["USER-AGENT", "ALLOW", "DISALLOW"],
    };
    let mut text = String::new();
    let mut line = 0;
    let mut push = |text: &mut String, s: &str| {
        text.push_str(s);
        text.push_str(file.eol);
        line += 1;
        line
    };
    if file.leading_comment {
        push(&mut text, "# a comment before the first group");
    }
    let mut lines = Vec::new();
    for (i, group) in file.groups.iter().enumerate() {
        if i > 0 {
            // A blank line between groups: a record boundary in the legacy
            // dialects, nothing in the others (where the user-agent line
            // after a rule line starts the group).
            push(&mut text, "");
        }
        for agent in &group.agents {
            push(&mut text, &format!("{}: {agent}", keys[0]));
        }
        let mut rule_lines = Vec::new();
        for rule in &group.rules {
            let key = if rule.allow { keys[1] } else { keys[2] };
            let l = if rule.pattern.is_empty() {
                push(&mut text, &format!("{key}:"))
            } else {
                push(&mut text, &format!("{key}: {}", rule.pattern))
            };
            rule_lines.push(l);
            if rule.comment_after {
                push(&mut text, "# a comment");
            }
        }
        lines.push(rule_lines);
    }
    (text, lines)
}

fn has_wildcards(d: Dialect) -> bool {
    matches!(d, Dialect::Rfc9309 | Dialect::Google)
}

fn is_legacy(d: Dialect) -> bool {
    matches!(d, Dialect::Norobots1994 | Dialect::Draft1996)
}

fn pattern_strategy(d: Dialect) -> impl Strategy<Value = String> {
    let mut pieces = PIECES.to_vec();
    // Mostly patterns that start with `/`, as real ones do; a few that start
    // elsewhere, which can never match a path. Only rfc9309 and google have
    // wildcards; in the legacy dialects a `$` piece is just an octet.
    let mut first = vec!["/"; 6];
    if has_wildcards(d) {
        pieces.push("*");
        first.extend(["*", "*"]);
    }
    first.extend(&pieces);
    let dollar = if has_wildcards(d) { 0.2 } else { 0.0 };
    prop_oneof![
        1 => Just(String::new()),
        12 => (
            select(first),
            prop::collection::vec(select(pieces), 0..5),
            prop::bool::weighted(dollar),
        )
            .prop_map(|(first, rest, dollar)| {
                let mut p = format!("{first}{}", rest.concat());
                if dollar {
                    p.push('$');
                }
                p
            }),
    ]
}

fn rule_strategy(d: Dialect) -> impl Strategy<Value = GenRule> {
    (
        any::<bool>(),
        pattern_strategy(d),
        prop::bool::weighted(0.1),
    )
        .prop_map(|(allow, pattern, comment_after)| GenRule {
            allow,
            pattern,
            comment_after,
        })
}

fn file_strategy(d: Dialect) -> impl Strategy<Value = GenFile> {
    let group = (
        prop::collection::vec(select(AGENT_VALUES), 1..=3),
        prop::collection::vec(rule_strategy(d), 0..=8),
    )
        .prop_map(|(agents, rules)| GenGroup { agents, rules });
    (
        prop::collection::vec(group, 1..=4),
        prop::bool::weighted(0.2),
        0u8..3,
        select(&["\n", "\r\n", "\r"][..]),
    )
        .prop_map(|(groups, leading_comment, key_case, eol)| GenFile {
            groups,
            leading_comment,
            key_case,
            eol,
        })
}

/// A path (starting with `/`) from the same pieces, now and then
/// `/robots.txt` with something after it, and often one made from a rule of
/// the file (each `*` filled, the `$` dropped, something appended) so that
/// most queries are near a rule and many match one.
fn path_strategy(patterns: Vec<String>) -> impl Strategy<Value = String> {
    let pieces = |n| prop::collection::vec(select(PIECES), 0..n);
    let random = prop_oneof![
        8 => pieces(8).prop_map(|p| format!("/{}", p.concat())),
        1 => pieces(3).prop_map(|p| format!("/robots.txt{}", p.concat())),
    ];
    if patterns.is_empty() {
        return random.boxed();
    }
    let near_a_rule = (select(patterns), pieces(4), pieces(3)).prop_map(|(p, fill, tail)| {
        let p = p.strip_suffix('$').unwrap_or(&p);
        let mut fill = fill.into_iter();
        let mut path = String::from(if p.starts_with('/') { "" } else { "/" });
        for c in p.chars() {
            match c {
                '*' => path.push_str(fill.next().unwrap_or("")),
                c => path.push(c),
            }
        }
        path + &tail.concat()
    });
    prop_oneof![1 => random, 2 => near_a_rule].boxed()
}

/// A query: who asks, about which path, and how the URL is written.
type Query = (&'static str, String, UrlForm);

/// What goes around the path: a scheme and host (or none), a fragment (or
/// none). Neither is matched in any dialect: "path plus `;params` and
/// `?query`, no fragment".
#[derive(Clone, Copy, Debug)]
struct UrlForm {
    origin: &'static str,
    fragment: bool,
}

fn url_form_strategy() -> impl Strategy<Value = UrlForm> {
    let origins = &[
        "",
        "",
        "",
        "http://example.com",
        "https://Example.COM:8080",
        "//example.com",
    ][..];
    (select(origins), prop::bool::weighted(0.1))
        .prop_map(|(origin, fragment)| UrlForm { origin, fragment })
}

fn queries_strategy(file: &GenFile) -> impl Strategy<Value = Vec<Query>> {
    let patterns: Vec<String> = file
        .groups
        .iter()
        .flat_map(|g| g.rules.iter().map(|r| r.pattern.clone()))
        .collect();
    prop::collection::vec(
        (
            select(CALLERS),
            path_strategy(patterns),
            url_form_strategy(),
        ),
        1..8,
    )
}

/// A file for the dialect and queries about it.
fn case_for(d: Dialect) -> impl Strategy<Value = (GenFile, Vec<Query>)> {
    file_strategy(d).prop_flat_map(|file| {
        let queries = queries_strategy(&file);
        (Just(file), queries)
    })
}

fn url_of(path: &str, form: UrlForm) -> String {
    String::from_utf8(raw_url_of(path.as_bytes(), form)).expect("UTF-8 in, UTF-8 out")
}

fn raw_url_of(path: &[u8], form: UrlForm) -> Vec<u8> {
    // A bare path that starts with `//` would be a network-path reference
    // (RFC 3986 4.2: `//host/path`), so such a path gets a host.
    let origin = match form.origin {
        "" if path.starts_with(b"//") => "http://example.com",
        origin => origin,
    };
    let fragment: &[u8] = if form.fragment { b"#a/b?c" } else { b"" };
    [origin.as_bytes(), path, fragment].concat()
}

/// Octets that are not UTF-8 where they are put: continuation octets
/// (`%aa`, `%ab`, `%ba` and `%bb` are what `%`, `a` and `b` spell in
/// patterns), leads without their continuation (one splits an `é`), and
/// octets UTF-8 never uses.
const RAW: &[u8] = &[0x80, 0xAA, 0xAB, 0xBA, 0xBB, 0xC3, 0xE9, 0xFF];

/// A query whose path is no longer UTF-8 (as a line of a Latin-1 log may
/// not be): often its escapes of non-ASCII octets are decoded to the octets
/// themselves, which rules written with the escapes then match in some
/// dialects and not in others, and raw octets are put in at one to three
/// places after its leading `/`.
type RawQuery = (&'static str, Vec<u8>, UrlForm);

fn raw_queries_strategy(file: &GenFile) -> impl Strategy<Value = Vec<RawQuery>> {
    queries_strategy(file)
        .prop_flat_map(|queries| {
            let inserts = prop::collection::vec((any::<Index>(), select(RAW)), 1..4);
            let n = queries.len();
            (
                Just(queries),
                prop::collection::vec((prop::bool::weighted(0.7), inserts), n),
            )
        })
        .prop_map(|(queries, raw)| {
            queries
                .into_iter()
                .zip(raw)
                .map(|((caller, path, form), (decode, inserts))| {
                    let mut path = path.into_bytes();
                    if decode {
                        path = decode_non_ascii_escapes(&path);
                    }
                    for (at, octet) in inserts {
                        path.insert(1 + at.index(path.len()), octet);
                    }
                    (caller, path, form)
                })
                .collect()
        })
}

/// `s` with each `%xx` of a non-ASCII octet replaced by the octet.
fn decode_non_ascii_escapes(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for (piece, value) in escapes(s) {
        match value {
            Some(v) if v >= 0x80 => out.push(v),
            _ => out.extend_from_slice(piece),
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The reference, from dialects.md.

/// A rule as the reference sees it: where it is, what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RefRule {
    line: usize,
    kind: RuleKind,
    pattern: String,
}

/// The groups (records) of the file as the dialect delimits them, each with
/// its agent values and the rules the dialect reads.
fn ref_groups(
    d: Dialect,
    file: &GenFile,
    lines: &[Vec<usize>],
) -> Vec<(Vec<&'static str>, Vec<RefRule>)> {
    let mut out = Vec::new();
    let mut agents = Vec::new();
    for (group, lines) in file.groups.iter().zip(lines) {
        agents.extend(group.agents.iter().copied());
        let rules = group
            .rules
            .iter()
            .zip(lines)
            // 1994: "every other field ignored (so `Allow` is ignored)".
            .filter(|(r, _)| !(d == Dialect::Norobots1994 && r.allow))
            .map(|(r, &line)| RefRule {
                line,
                kind: if r.allow {
                    RuleKind::Allow
                } else {
                    RuleKind::Disallow
                },
                pattern: r.pattern.clone(),
            })
            .collect();
        // Legacy: a blank line ends a record. rfc9309/google: blank lines
        // mean nothing and only a user-agent line after a rule line starts a
        // group, so the agents of a group without rule lines join the next.
        if is_legacy(d) || !group.rules.is_empty() {
            out.push((std::mem::take(&mut agents), rules));
        }
    }
    if !agents.is_empty() {
        out.push((agents, Vec::new()));
    }
    out
}

/// The leading `[A-Za-z_-]+` of a value: the product token.
fn token(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphabetic() || c == '_' || c == '-'))
        .unwrap_or(s.len());
    &s[..end]
}

/// Whether a `User-agent` value names the caller (not as `*`).
fn names_robot(d: Dialect, value: &str, caller: &str) -> bool {
    if value == "*" {
        return false;
    }
    match d {
        Dialect::Norobots1994 | Dialect::Draft1996 => {
            // The robot's name is what the caller passes up to the first
            // `/` or white space, looked for in the value as a
            // case-insensitive substring.
            let name = caller
                .split(|c: char| c == '/' || c.is_ascii_whitespace())
                .next()
                .unwrap_or("");
            !name.is_empty()
                && value
                    .to_ascii_lowercase()
                    .contains(&name.to_ascii_lowercase())
        }
        // The caller's product token must equal the value's.
        Dialect::Rfc9309 => token(value).eq_ignore_ascii_case(token(caller)),
        // google compares what the caller passes whole.
        Dialect::Google => token(value).eq_ignore_ascii_case(caller),
    }
}

/// The rules that apply to `caller`, in file order.
fn ref_rules(d: Dialect, file: &GenFile, lines: &[Vec<usize>], caller: &str) -> Vec<RefRule> {
    let groups = ref_groups(d, file, lines);
    let specific: Vec<usize> = (0..groups.len())
        .filter(|&i| groups[i].0.iter().any(|v| names_robot(d, v, caller)))
        .collect();
    let star: Vec<usize> = (0..groups.len())
        .filter(|&i| groups[i].0.contains(&"*"))
        .collect();
    let chosen = if is_legacy(d) {
        // The first matching record wins, else the first `*` record.
        specific
            .first()
            .or(star.first())
            .into_iter()
            .copied()
            .collect()
    } else if specific.is_empty() {
        // All `*` groups, merged, only when no group names the robot.
        star
    } else {
        // All groups naming the robot, merged.
        specific
    };
    chosen
        .into_iter()
        .flat_map(|i| groups[i].1.clone())
        .collect()
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|v| v as u8)
}

/// Splits `s` into octets and `%xx` escapes (with their value).
fn escapes(s: &[u8]) -> Vec<(&[u8], Option<u8>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' && i + 2 < s.len() {
            if let (Some(h), Some(l)) = (hex(s[i + 1]), hex(s[i + 2])) {
                out.push((&s[i..i + 3], Some(h * 16 + l)));
                i += 3;
                continue;
            }
        }
        out.push((&s[i..i + 1], None));
        i += 1;
    }
    out
}

fn unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~".contains(&b)
}

/// rfc9309, both sides: non-ASCII octets percent-encoded, `%xx` hex
/// upper-cased, `%xx` of unreserved characters decoded.
fn normalize_rfc(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for (piece, value) in escapes(s) {
        match value {
            Some(v) if unreserved(v) => out.push(v),
            Some(v) => out.extend(format!("%{v:02X}").bytes()),
            None if piece[0] >= 0x80 => out.extend(format!("%{:02X}", piece[0]).bytes()),
            None => out.push(piece[0]),
        }
    }
    out
}

/// draft1996, both sides: every `%xx` decoded, except `%2F`, which stays
/// distinct from `/` (its hex case does not matter).
fn normalize_draft(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for (piece, value) in escapes(s) {
        match value {
            Some(b'/') => out.extend(b"%2F"),
            Some(v) => out.push(v),
            None => out.push(piece[0]),
        }
    }
    out
}

/// google, the pattern side only: non-ASCII octets encoded, `%xx` hex
/// upper-cased, nothing decoded.
fn escape_google(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for (piece, value) in escapes(s) {
        match value {
            Some(_) => out.extend(piece.to_ascii_uppercase()),
            None if piece[0] >= 0x80 => out.extend(format!("%{:02X}", piece[0]).bytes()),
            None => out.push(piece[0]),
        }
    }
    out
}

fn normalize_pattern(d: Dialect, p: &str) -> Vec<u8> {
    match d {
        Dialect::Norobots1994 => p.as_bytes().to_vec(),
        Dialect::Draft1996 => normalize_draft(p.as_bytes()),
        Dialect::Rfc9309 => normalize_rfc(p.as_bytes()),
        Dialect::Google => escape_google(p.as_bytes()),
    }
}

fn normalize_path(d: Dialect, p: &[u8]) -> Vec<u8> {
    match d {
        Dialect::Norobots1994 | Dialect::Google => p.to_vec(),
        Dialect::Draft1996 => normalize_draft(p),
        Dialect::Rfc9309 => normalize_rfc(p),
    }
}

/// Whether `pattern` matches a prefix of `path`, where `*` matches any run
/// of octets and a `$` at the very end anchors the match at the path's end.
///
/// `reach[i][j]`: the first `i` octets of the pattern match the first `j`
/// octets of the path.
fn glob_matches(pattern: &[u8], path: &[u8]) -> bool {
    let (body, anchored) = match pattern.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (pattern, false),
    };
    let mut reach = vec![vec![false; path.len() + 1]; body.len() + 1];
    reach[0][0] = true;
    for i in 1..=body.len() {
        for j in 0..=path.len() {
            reach[i][j] = if body[i - 1] == b'*' {
                reach[i - 1][j] || (j > 0 && reach[i][j - 1])
            } else {
                j > 0 && reach[i - 1][j - 1] && body[i - 1] == path[j - 1]
            };
        }
    }
    if anchored {
        reach[body.len()][path.len()]
    } else {
        reach[body.len()].iter().any(|&r| r)
    }
}

/// What the reference decides: the verdict and every rule that may be
/// reported as deciding it (empty when no rule decides).
#[derive(Debug)]
struct Expected {
    allowed: bool,
    deciders: Vec<RefRule>,
}

fn reference(
    d: Dialect,
    file: &GenFile,
    lines: &[Vec<usize>],
    caller: &str,
    path: &[u8],
) -> Expected {
    let path = normalize_path(d, path);
    let allow_all = Expected {
        allowed: true,
        deciders: Vec::new(),
    };
    // draft1996 and rfc9309: `/robots.txt` is always allowed (its path
    // component, whatever `;params` or `?query` follow).
    let exempt = path == b"/robots.txt"
        || path.starts_with(b"/robots.txt?")
        || path.starts_with(b"/robots.txt;");
    if exempt && matches!(d, Dialect::Draft1996 | Dialect::Rfc9309) {
        return allow_all;
    }
    let matching: Vec<(RefRule, usize)> = ref_rules(d, file, lines, caller)
        .into_iter()
        // An empty pattern matches nothing (1994: `Disallow:` allows all).
        .filter(|r| !r.pattern.is_empty())
        .filter_map(|r| {
            let p = normalize_pattern(d, &r.pattern);
            let hit = if has_wildcards(d) {
                glob_matches(&p, &path)
            } else {
                path.starts_with(&p)
            };
            hit.then_some((r, p.len()))
        })
        .collect();
    match d {
        // Any matching Disallow disallows (there are no Allow rules left);
        // the text does not say which one is "the" rule, so any may be named.
        Dialect::Norobots1994 => Expected {
            allowed: matching.is_empty(),
            deciders: matching.into_iter().map(|(r, _)| r).collect(),
        },
        // The first matching line, in file order, decides.
        Dialect::Draft1996 => match matching.into_iter().next() {
            None => allow_all,
            Some((r, _)) => Expected {
                allowed: r.kind == RuleKind::Allow,
                deciders: vec![r],
            },
        },
        // The longest pattern in octets decides, Allow on a tie; among
        // equals of the winning kind, any may be named. "Octets" is read as
        // the pattern as compared, i.e. after normalization (google: after
        // its escaping), with `*` and `$` counted: dialects.md says so for
        // google and does not say otherwise for rfc9309.
        Dialect::Rfc9309 | Dialect::Google => {
            let Some(longest) = matching.iter().map(|(_, len)| *len).max() else {
                return allow_all;
            };
            let best: Vec<RefRule> = matching
                .into_iter()
                .filter(|(_, len)| *len == longest)
                .map(|(r, _)| r)
                .collect();
            let allowed = best.iter().any(|r| r.kind == RuleKind::Allow);
            let kind = if allowed {
                RuleKind::Allow
            } else {
                RuleKind::Disallow
            };
            Expected {
                allowed,
                deciders: best.into_iter().filter(|r| r.kind == kind).collect(),
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The properties.

fn parse(d: Dialect, text: &str) -> Robots {
    Robots::parse_with(text.as_bytes(), &ParseOptions::new(d))
}

fn agrees_with_reference(
    d: Dialect,
    file: &GenFile,
    queries: &[Query],
) -> Result<(), TestCaseError> {
    let queries: Vec<RawQuery> = queries
        .iter()
        .map(|(caller, path, form)| (*caller, path.clone().into_bytes(), *form))
        .collect();
    raw_agrees_with_reference(d, file, &queries)
}

/// URLs as octets, UTF-8 or not, decided as the reference says; for those
/// that are text, the text API answers the same.
fn raw_agrees_with_reference(
    d: Dialect,
    file: &GenFile,
    queries: &[RawQuery],
) -> Result<(), TestCaseError> {
    let (text, lines) = render(file);
    let robots = parse(d, &text);
    for (caller, path, form) in queries {
        let url = raw_url_of(path, *form);
        let matcher = robots.matcher(caller);
        let got = matcher.check_bytes(&url);
        let want = reference(d, file, &lines, caller, path);
        let shown = String::from_utf8_lossy(&url);
        let context = format!("{d}: agent {caller:?}, url {shown:?}\n{text}");
        decides_as(&got, &want, &context)?;
        prop_assert_eq!(matcher.is_allowed_bytes(&url), got.allowed);
        let Ok(url) = std::str::from_utf8(&url) else {
            continue;
        };
        // The other ways to ask agree; the one-shot check reads the body
        // itself, without the matcher.
        prop_assert_eq!(matcher.check(url), got);
        prop_assert_eq!(matcher.is_allowed(url), got.allowed);
        prop_assert_eq!(robots.is_allowed(caller, url), got.allowed);
        let once = norobots::is_allowed_with(text.as_bytes(), &ParseOptions::new(d), caller, url);
        prop_assert_eq!(once, want.allowed, "one-shot; {}", context);
    }
    Ok(())
}

/// The matcher's verdict is the reference's: the same answer, and a rule
/// the reference says may decide.
fn decides_as(got: &Verdict<'_>, want: &Expected, context: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        got.allowed,
        want.allowed,
        "got {:?}, want {:?}; {}",
        got,
        want,
        context
    );
    match got.rule {
        None => prop_assert!(
            want.deciders.is_empty(),
            "got {:?}, want {:?}; {}",
            got,
            want,
            context
        ),
        Some(r) => {
            let r = RefRule {
                line: r.line,
                kind: r.kind,
                pattern: r.pattern.to_string(),
            };
            prop_assert!(
                want.deciders.contains(&r),
                "got {:?}, want {:?}; {}",
                got,
                want,
                context
            );
        }
    }
    Ok(())
}

fn any_dialect() -> impl Strategy<Value = Dialect> {
    select(&Dialect::ALL[..])
}

/// A dialect with a file and queries generated for it.
fn case() -> impl Strategy<Value = (Dialect, GenFile, Vec<Query>)> {
    any_dialect().prop_flat_map(|d| case_for(d).prop_map(move |(f, q)| (d, f, q)))
}

/// Words for crowded files: long enough to hold four-octet strings, and
/// sharing some of them (`sort=`, `sort=page`, `page`), with the short
/// pieces mixed in.
const WORDS: &[&str] = &[
    "sort=",
    "page",
    "sort=page",
    "id=7",
    "item-",
    ".pdf",
    "%61bc",
    "?",
    "=",
    "a",
    "/",
    "é",
];

/// What every `*` of a crowded file may be followed by before its words,
/// so that all the tails under a node start alike (see
/// `crowded_rules_that_start_alike_agree_with_reference`).
const STARTS: &[&str] = &["?", "/", "-", "a", "%3F", "é"];

/// One group for every robot holding 16 to 48 rules of `/`, optionally a
/// word, then `*` and one to three words (each maybe after another `*`),
/// maybe a `$`: most hang from the same node or two.
fn crowded_case() -> impl Strategy<Value = (Dialect, GenFile, Vec<Query>)> {
    crowded_case_after("")
}

/// [`crowded_case`] with `start` (the same for every rule of the file) just
/// after each rule's first `*`.
fn crowded_case_after(
    start: &'static str,
) -> impl Strategy<Value = (Dialect, GenFile, Vec<Query>)> {
    let word = || select(WORDS);
    let rule = (
        any::<bool>(),
        prop::option::weighted(0.3, word()),
        prop::collection::vec((word(), prop::bool::weighted(0.3)), 1..=3),
        prop::bool::weighted(0.2),
    )
        .prop_map(move |(allow, lead, words, dollar)| {
            let mut pattern = format!("/{}*{start}", lead.unwrap_or(""));
            for (w, star) in words {
                pattern.push_str(w);
                if star {
                    pattern.push('*');
                }
            }
            if dollar {
                pattern.push('$');
            }
            GenRule {
                allow,
                pattern,
                comment_after: false,
            }
        });
    let file = prop::collection::vec(rule, 16..=48).prop_map(|rules| GenFile {
        groups: vec![GenGroup {
            agents: vec!["*"],
            rules,
        }],
        leading_comment: false,
        key_case: 0,
        eol: "\n",
    });
    (select(&[Dialect::Rfc9309, Dialect::Google][..]), file).prop_flat_map(|(d, file)| {
        let queries = queries_strategy(&file);
        (Just(d), Just(file), queries)
    })
}

/// Pieces of agent names, for files and callers alike: tokens that overlap
/// (`foo` in `FooBot`), the characters that end a product token (`/`,
/// space, `(`), `*` alone and before more, and a non-ASCII letter.
const AGENT_PIECES: &[&str] = &[
    "foo", "Foo", "bot", "Bot", "BAR", "bar", "-", "_", "/1.0", " ", "*", "(x)", "\u{e9}",
];

/// An agent made of zero to four [`AGENT_PIECES`], or now and then `*`
/// or a whole `User-Agent` header.
fn agent_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop::collection::vec(select(AGENT_PIECES), 0..=4).prop_map(|p| p.concat()),
        1 => Just("*".to_string()),
        1 => Just("Mozilla/5.0 (compatible; FooBot/1.0)".to_string()),
    ]
}

/// A body whose groups have the rules of `file` and the agents `agents`
/// (one list per group), with the blank line between groups that
/// [`render`] puts there.
fn render_with_agents(file: &GenFile, agents: &[Vec<String>]) -> String {
    let mut text = String::new();
    for (i, (group, names)) in file.groups.iter().zip(agents).enumerate() {
        if i > 0 {
            text.push_str(file.eol);
        }
        for name in names {
            text.push_str(&format!("User-agent: {name}{}", file.eol));
        }
        for rule in &group.rules {
            let key = if rule.allow { "Allow" } else { "Disallow" };
            text.push_str(&format!("{key}: {}{}", rule.pattern, file.eol));
        }
    }
    text
}

/// A file in any dialect whose groups name random agents, random callers,
/// and URLs near its rules.
fn random_agents_case() -> impl Strategy<Value = (Dialect, String, Vec<(String, String)>)> {
    any_dialect().prop_flat_map(|d| {
        file_strategy(d).prop_flat_map(move |file| {
            let agents = prop::collection::vec(
                prop::collection::vec(agent_strategy(), 1..=3),
                file.groups.len(),
            );
            let urls = queries_strategy(&file);
            let callers = prop::collection::vec(agent_strategy(), 1..8);
            (Just(file), agents, urls, callers).prop_map(move |(file, agents, urls, callers)| {
                let text = render_with_agents(&file, &agents);
                let queries = callers
                    .into_iter()
                    .zip(urls)
                    .map(|(caller, (_, path, form))| (caller, url_of(&path, form)))
                    .collect();
                (d, text, queries)
            })
        })
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn norobots1994_agrees_with_reference(
        (file, queries) in case_for(Dialect::Norobots1994),
    ) {
        agrees_with_reference(Dialect::Norobots1994, &file, &queries)?;
    }

    #[test]
    fn draft1996_agrees_with_reference(
        (file, queries) in case_for(Dialect::Draft1996),
    ) {
        agrees_with_reference(Dialect::Draft1996, &file, &queries)?;
    }

    #[test]
    fn rfc9309_agrees_with_reference(
        (file, queries) in case_for(Dialect::Rfc9309),
    ) {
        agrees_with_reference(Dialect::Rfc9309, &file, &queries)?;
    }

    #[test]
    fn google_agrees_with_reference(
        (file, queries) in case_for(Dialect::Google),
    ) {
        agrees_with_reference(Dialect::Google, &file, &queries)?;
    }

    /// The one-shot check reads the body itself, choosing the groups as it
    /// goes, and must answer as the compiled matcher does, for agents the
    /// file names, names in part, or does not name at all, in every
    /// dialect.
    #[test]
    fn one_shot_decides_as_the_compiled_matcher(
        (d, text, queries) in random_agents_case(),
    ) {
        let options = ParseOptions::new(d);
        let robots = Robots::parse_with(text.as_bytes(), &options);
        for (caller, url) in &queries {
            let compiled = robots.matcher(caller).is_allowed(url);
            let once = norobots::is_allowed_with(text.as_bytes(), &options, caller, url);
            prop_assert_eq!(
                once, compiled,
                "{}: agent {:?}, url {:?}\n{}", d, caller, url, text
            );
        }
    }

    /// Paths with octets that are not UTF-8, in every dialect.
    #[test]
    fn raw_octets_agree_with_reference(
        (d, file, queries) in any_dialect().prop_flat_map(|d| {
            file_strategy(d).prop_flat_map(move |file| {
                let queries = raw_queries_strategy(&file);
                (Just(d), Just(file), queries)
            })
        }),
    ) {
        raw_agrees_with_reference(d, &file, &queries)?;
    }

    /// Files with dozens of `*` rules under one literal prefix, where the
    /// matcher indexes the rules by the four-octet strings they contain
    /// (and may look up only every second to fourth one of the path's).
    #[test]
    fn crowded_wildcard_rules_agree_with_reference(
        (d, file, queries) in crowded_case(),
    ) {
        agrees_with_reference(d, &file, &queries)?;
    }

    /// Crowded files whose `*` rules all go on alike (`/*?sort=`, `/*?id=7`,
    /// ...; `/a/*/page`, ...), where the index looks up none of the path's
    /// four-octet strings before the first octet that starts every rule's
    /// tail, and may ask the path for a `/` past the node.
    #[test]
    fn crowded_rules_that_start_alike_agree_with_reference(
        (d, file, queries) in select(STARTS).prop_flat_map(crowded_case_after),
    ) {
        agrees_with_reference(d, &file, &queries)?;
    }

    /// A rule whose pattern starts with neither `/` nor `*` can never match a
    /// path (which starts with `/`, and no dialect decodes an escape to `/`),
    /// so adding one anywhere changes no verdict. It goes only into a group
    /// that already has rules, or the last one: in rfc9309 a first rule line
    /// elsewhere would stop the group's agents joining the next group.
    #[test]
    fn a_rule_that_cannot_match_changes_nothing(
        (d, file, queries) in case(),
        where_group in any::<Index>(),
        where_rule in any::<Index>(),
        allow in any::<bool>(),
        first in select(&PIECES[1..]),
        rest in prop::collection::vec(select(PIECES), 0..4),
    ) {
        let last = file.groups.len() - 1;
        let hosts: Vec<usize> = (0..file.groups.len())
            .filter(|&g| g == last || !file.groups[g].rules.is_empty())
            .collect();
        let g = *where_group.get(&hosts);
        let at = where_rule.index(file.groups[g].rules.len() + 1);
        let mut more = file.clone();
        more.groups[g].rules.insert(at, GenRule {
            allow,
            pattern: format!("{first}{}", rest.concat()),
            comment_after: false,
        });
        let (text, _) = render(&file);
        let (more_text, more_lines) = render(&more);
        let inserted = more_lines[g][at];
        let (before, after) = (parse(d, &text), parse(d, &more_text));
        for (caller, path, form) in &queries {
            let url = url_of(path, *form);
            let (m, n) = (before.matcher(caller), after.matcher(caller));
            // Lines at or after the new rule move down by one.
            let moved = |v: Verdict<'_>| {
                (
                    v.allowed,
                    v.rule.map(|r| {
                        (r.line + usize::from(r.line >= inserted), r.kind, r.pattern.to_string())
                    }),
                )
            };
            let plain = |v: Verdict<'_>| {
                (v.allowed, v.rule.map(|r| (r.line, r.kind, r.pattern.to_string())))
            };
            prop_assert_eq!(
                moved(m.check(&url)),
                plain(n.check(&url)),
                "{}: agent {:?}, url {:?}\n{}\n---\n{}", d, caller, url, text, more_text
            );
        }
    }
}

/// Groups that neither name the robot nor are `*` can be reordered (and
/// moved between the robot's groups) without changing its verdict or the
/// rule that decides it. Every group gets a rule line first (an empty
/// `Disallow:`, which matches nothing), so that in rfc9309 no group joins
/// the next one and reordering cannot change group boundaries. A file of
/// one group, or of the robot's groups only, stays as it was and agrees
/// with itself: the test counts the queries whose file the shuffle
/// changed, and requires some.
#[test]
fn other_robots_groups_order_does_not_matter() {
    let strategy = (case(), prop::collection::vec(any::<u32>(), 4));
    let moved = std::cell::Cell::new(0u32);
    proptest::test_runner::TestRunner::new(config())
        .run(&strategy, |((d, file, queries), keys)| {
            let mut file = file;
            for group in &mut file.groups {
                if group.rules.is_empty() {
                    group.rules.push(GenRule {
                        allow: false,
                        pattern: String::new(),
                        comment_after: false,
                    });
                }
            }
            let (text, _) = render(&file);
            let robots = parse(d, &text);
            for (caller, path, form) in &queries {
                let relevant: Vec<bool> = file
                    .groups
                    .iter()
                    .map(|g| {
                        g.agents
                            .iter()
                            .any(|v| *v == "*" || names_robot(d, v, caller))
                    })
                    .collect();
                // A random permutation that keeps the relevant groups in their
                // order: sort by random keys after handing the relevant groups
                // their keys in ascending order.
                let mut keyed: Vec<(u32, usize)> =
                    (0..file.groups.len()).map(|i| (keys[i], i)).collect();
                let mut relevant_keys: Vec<u32> = keyed
                    .iter()
                    .filter(|(_, i)| relevant[*i])
                    .map(|(k, _)| *k)
                    .collect();
                relevant_keys.sort_unstable();
                let mut next = relevant_keys.into_iter();
                for (k, i) in &mut keyed {
                    if relevant[*i] {
                        *k = next.next().expect("one key per relevant group");
                    }
                }
                keyed.sort_by_key(|&(k, i)| (k, i));
                let shuffled = GenFile {
                    groups: keyed.iter().map(|&(_, i)| file.groups[i].clone()).collect(),
                    ..file.clone()
                };
                let (shuffled_text, _) = render(&shuffled);
                if shuffled_text != text {
                    moved.set(moved.get() + 1);
                }
                let other = parse(d, &shuffled_text);
                let url = url_of(path, *form);
                // Lines move with the groups; the verdict and the rule do not.
                let key =
                    |v: Verdict<'_>| (v.allowed, v.rule.map(|r| (r.kind, r.pattern.to_string())));
                prop_assert_eq!(
                    key(robots.matcher(caller).check(&url)),
                    key(other.matcher(caller).check(&url)),
                    "{}: agent {:?}, url {:?}\n{}\n---\n{}",
                    d,
                    caller,
                    url,
                    text,
                    shuffled_text
                );
            }
            Ok(())
        })
        .unwrap();
    assert!(moved.get() > 0, "the shuffle reordered no query's file");
}

// ---------------------------------------------------------------------------
// The reference's own pieces, checked on the spec's examples, so that a
// disagreement above is not a bug of the reference.

#[test]
fn reference_normalizes_as_the_spec_says() {
    // RFC 9309 2.2.2: `/foo/bar/%62%61%7A` matches `/foo/bar/baz`.
    assert_eq!(normalize_rfc(b"/foo/bar/%62%61%7A"), b"/foo/bar/baz");
    assert_eq!(
        normalize_rfc("/a%3cb%2f\u{e9}%zz%".as_bytes()),
        b"/a%3Cb%2F%C3%A9%zz%"
    );
    // Draft 3.2.2: `%7e` is `~`, `%2f` is not `/`.
    assert_eq!(normalize_draft(b"/%7ejoe/a%2fb%3C"), b"/~joe/a%2Fb<");
    assert_eq!(escape_google("/%3c\u{e9}%61".as_bytes()), b"/%3C%C3%A9%61");
}

#[test]
fn reference_glob_follows_rfc_examples() {
    // RFC 9309 2.2.3's table.
    assert!(glob_matches(b"/*.php$", b"/filename.php"));
    assert!(!glob_matches(b"/*.php$", b"/filename.php?parameters"));
    assert!(glob_matches(b"/fish*.php", b"/fish.php"));
    assert!(glob_matches(
        b"/fish*.php",
        b"/fishheads/catfish.php?parameters"
    ));
    assert!(!glob_matches(b"/fish*.php", b"/Fish.PHP"));
    assert!(glob_matches(b"/fish", b"/fish.html"));
    assert!(!glob_matches(b"/fish$", b"/fish/"));
    assert!(glob_matches(b"/", b"/"));
    assert!(!glob_matches(b"$", b"/"));
}
