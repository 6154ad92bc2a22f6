//! Checks of the file's structure as the chosen dialect parses it: records
//! without rules, groups that name the same robot, and rules that can
//! never decide anything.

use std::collections::HashMap;

use norobots::{Dialect, Group, Robots, RuleKind};

use super::fields::Field;
use super::lines::Scan;
use super::{finding, is_legacy, shown, Code, Severity, Sink};
use norobots::Key;

pub(crate) fn check(robots: &Robots, scan: &Scan, sink: &mut Sink) {
    let dialect = robots.dialect();
    if is_legacy(dialect) {
        records_without_rules(robots, sink);
    }
    let shared = agents(robots, scan, sink);
    for group in robots.groups() {
        if !sink.wants(Code::ShadowedRule) && !sink.wants(Code::DuplicateRule) {
            break;
        }
        let merged = group_keys(dialect, &group).any(|k| shared.get(&k).copied() > Some(1));
        rules(dialect, &group, merged, scan, sink);
    }
}

/// 1994 standard: "At least one Disallow field needs to be present in a
/// record"; 1996 draft, section 3.3: `record = ... 1*ruleline ...`.
fn records_without_rules(robots: &Robots, sink: &mut Sink) {
    let dialect = robots.dialect();
    for group in robots.groups().filter(|g| g.rules().len() == 0) {
        let (what, text) = match dialect {
            Dialect::Norobots1994 => ("`Disallow` line", "the 1994 standard requires at least one"),
            _ => (
                "`Allow` or `Disallow` line",
                "the 1996 draft requires at least one",
            ),
        };
        sink.push(
            finding(
                group.line(),
                1,
                Severity::Error,
                Code::RecordWithoutDisallow,
                format!("record has no {what}; {text}"),
            )
            .with_help("add `Disallow:` (an empty value allows everything); if the rules follow a blank line, remove it: a blank line ends a record"),
        );
    }
}

/// The key a robot name is compared by: the whole value, lower-cased, in
/// the legacy dialects (substring matching sees all of it); the product
/// token in the others. `None` for `*` and for values that name nobody.
fn agent_key(dialect: Dialect, value: &str) -> Option<String> {
    let key = if is_legacy(dialect) {
        value
    } else {
        let end = value
            .bytes()
            .position(|b| !(b.is_ascii_alphabetic() || b == b'_' || b == b'-'))
            .unwrap_or(value.len());
        &value[..end]
    };
    (!key.is_empty()).then(|| key.to_ascii_lowercase())
}

fn is_global(dialect: Dialect, value: &str) -> bool {
    if is_legacy(dialect) {
        value == "*"
    } else {
        let v = value.as_bytes();
        v.first() == Some(&b'*') && (v.len() == 1 || v[1].is_ascii_whitespace())
    }
}

/// The keys of a group's agents, `*` included as `"*"`.
fn group_keys<'a>(dialect: Dialect, group: &Group<'a>) -> impl Iterator<Item = String> + 'a {
    group.agents().filter_map(move |a| {
        if is_global(dialect, &a) {
            Some("*".to_string())
        } else {
            agent_key(dialect, &a)
        }
    })
}

/// Reports second `*` groups and robots named in two groups; returns how
/// many groups name each key, for the shadowing check (merged groups are
/// not analysed).
fn agents(robots: &Robots, scan: &Scan, sink: &mut Sink) -> HashMap<String, usize> {
    let dialect = robots.dialect();
    let legacy = is_legacy(dialect);
    let mut first: HashMap<String, usize> = HashMap::new();
    let mut count: HashMap<String, usize> = HashMap::new();
    for group in robots.groups() {
        let mut seen_here: Vec<String> = Vec::new();
        for agent in group.agents() {
            let key = if is_global(dialect, &agent) {
                "*".to_string()
            } else if let Some(k) = agent_key(dialect, &agent) {
                k
            } else {
                continue;
            };
            if seen_here.contains(&key) {
                continue;
            }
            seen_here.push(key.clone());
            *count.entry(key.clone()).or_insert(0) += 1;
            let Some(&earlier) = first.get(&key) else {
                first.insert(key, group.line());
                continue;
            };
            let (line, col) = agent_place(scan, group.line(), &agent);
            let f = if key == "*" {
                default_group(dialect, line, col, earlier)
            } else {
                let (severity, how) = if legacy {
                    (Severity::Warning, format!("{dialect} uses only the first record that names a robot, so this one is never used for it"))
                } else {
                    (
                        Severity::Info,
                        format!(
                            "{dialect} merges the two; robots of the 1996 draft use only the first"
                        ),
                    )
                };
                finding(
                    line,
                    col,
                    severity,
                    Code::DuplicateAgent,
                    format!(
                        "`{}` is already named by the group at line {earlier}; {how}",
                        shown(agent.as_bytes())
                    ),
                )
                .with_help(format!("merge this group into the one at line {earlier}"))
            };
            sink.push(f);
        }
    }
    count
}

fn default_group(dialect: Dialect, line: usize, col: usize, earlier: usize) -> super::Finding {
    let (severity, text) = match dialect {
        Dialect::Norobots1994 => (
            Severity::Error,
            "the 1994 standard allows only one".to_string(),
        ),
        Dialect::Draft1996 => (
            Severity::Warning,
            format!("draft1996 robots use only the first (line {earlier})"),
        ),
        _ => (
            Severity::Info,
            format!("{dialect} merges it with line {earlier}; robots of the 1996 draft use only the first"),
        ),
    };
    finding(
        line,
        col,
        severity,
        Code::MultipleDefaultGroups,
        format!("another `User-agent: *` group; {text}"),
    )
    .with_help(format!("merge its rules into the group at line {earlier}"))
}

/// The line and column of `agent` among the `User-agent` lines of the
/// group that starts at `group_line`.
fn agent_place(scan: &Scan, group_line: usize, agent: &str) -> (usize, usize) {
    let start = scan.fields.partition_point(|f| f.line < group_line);
    let body_of = |f: &super::lines::FieldLine| (f.value.0, f.value.1);
    for f in scan.fields[start..]
        .iter()
        .take_while(|f| f.field == Field::Key(Key::UserAgent))
    {
        let (a, b) = body_of(f);
        let value = scan.table_bytes(a, b);
        if let Some(k) = memchr::memmem::find(value, agent.as_bytes()) {
            return (f.line, scan.table.column(f.line, a + k));
        }
    }
    (group_line, 1)
}

/// One rule as the shadowing checks see it.
struct R<'a> {
    pattern: &'a [u8],
    kind: RuleKind,
    line: usize,
}

fn rules(dialect: Dialect, group: &Group<'_>, merged: bool, scan: &Scan, sink: &mut Sink) {
    // An empty pattern matches nothing in every dialect: nothing to shadow.
    let rules: Vec<R> = group
        .rules()
        .filter(|r| !r.pattern_bytes().is_empty())
        .map(|r| R {
            pattern: r.pattern_bytes(),
            kind: r.kind(),
            line: r.line(),
        })
        .collect();
    match dialect {
        Dialect::Norobots1994 => prefix_shadowing(dialect, &rules, false, scan, sink),
        Dialect::Draft1996 => {
            // `%xx` is decoded before comparing: keep to the patterns whose
            // octets compare as written.
            let plain: Vec<R> = rules
                .into_iter()
                .filter(|r| !r.pattern.contains(&b'%'))
                .collect();
            prefix_shadowing(dialect, &plain, true, scan, sink);
        }
        Dialect::Rfc9309 | Dialect::Google => {
            identical(dialect, &rules, scan, sink);
            let one_kind = rules.windows(2).all(|w| w[0].kind == w[1].kind);
            let plain = rules.iter().all(|r| {
                !r.pattern
                    .iter()
                    .any(|&b| matches!(b, b'*' | b'$' | b'%') || b >= 0x80)
            });
            // With one kind of rule and no wildcard, a longer rule never
            // changes a verdict that its prefix already gives. Merged
            // groups may bring rules of the other kind: not analysed.
            if one_kind && plain && !merged {
                let strict: Vec<R> = rules;
                prefix_shadowing(dialect, &strict, false, scan, sink);
            }
        }
    }
}

/// For each rule, the earliest rule (in file order) whose pattern is a
/// prefix of its own (equal included, itself excluded): found by sorting
/// the patterns, where every prefix of a pattern is on the stack of
/// patterns that prefix each other when it comes up. `O(n log n)`.
fn coverers(patterns: &[&[u8]]) -> Vec<Option<usize>> {
    let mut order: Vec<usize> = (0..patterns.len()).collect();
    order.sort_by(|&a, &b| patterns[a].cmp(patterns[b]).then(a.cmp(&b)));
    let mut out = vec![None; patterns.len()];
    // (index, least index on the stack up to here)
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for i in order {
        while let Some(&(top, _)) = stack.last() {
            if patterns[i].starts_with(patterns[top]) {
                break;
            }
            stack.pop();
        }
        out[i] = stack.last().map(|&(_, least)| least);
        let least = out[i].map_or(i, |l| l.min(i));
        stack.push((i, least));
    }
    out
}

/// Rules covered by a prefix rule: in first-match order (`earlier_only`)
/// the earlier rule always decides first; otherwise (any-match 1994, and
/// one-kind groups of the longest-match dialects) the longer rule adds
/// nothing. Identical patterns of the same kind are duplicates.
fn prefix_shadowing(
    dialect: Dialect,
    rules: &[R],
    earlier_only: bool,
    scan: &Scan,
    sink: &mut Sink,
) {
    let patterns: Vec<&[u8]> = rules.iter().map(|r| r.pattern).collect();
    let longest = !is_legacy(dialect);
    for (i, cover) in coverers(&patterns).into_iter().enumerate() {
        let Some(c) = cover.filter(|&c| !earlier_only || c < i) else {
            continue;
        };
        let (r, by) = (&rules[i], &rules[c]);
        // Identical rules in the longest-match dialects are reported by
        // `identical`, which sees wildcards too.
        let equal = r.pattern == by.pattern;
        if longest && equal {
            continue;
        }
        let col = scan.pattern_column(r.line, r.pattern);
        let by_text = format!("{}: {}", by.kind, shown(by.pattern));
        let f = if equal && r.kind == by.kind {
            finding(
                r.line,
                col,
                Severity::Warning,
                Code::DuplicateRule,
                format!("duplicate of line {} `{by_text}`", by.line),
            )
            .with_help("remove this line")
        } else {
            let why = if earlier_only {
                format!("line {} `{by_text}` comes first and matches every URL this rule matches; in {dialect} the first match decides", by.line)
            } else if longest {
                format!("line {} `{by_text}` already matches every URL this rule matches, and the group has no rule of the other kind", by.line)
            } else {
                format!(
                    "line {} `{by_text}` already disallows every URL this rule matches",
                    by.line
                )
            };
            let help = if r.kind != by.kind {
                format!("move this line above line {}", by.line)
            } else {
                "remove this line".to_string()
            };
            finding(
                r.line,
                col,
                Severity::Warning,
                Code::ShadowedRule,
                format!(
                    "`{}: {}` can never decide anything: {why}",
                    r.kind,
                    shown(r.pattern)
                ),
            )
            .with_help(help)
        };
        sink.push(f);
    }
}

/// Longest match: identical patterns have the same length, so of an
/// `Allow` and a `Disallow` with the same pattern the `Allow` always wins
/// (RFC 9309 2.2.2), and a repeated rule adds nothing.
fn identical(dialect: Dialect, rules: &[R], scan: &Scan, sink: &mut Sink) {
    let mut first: HashMap<(&[u8], RuleKind), usize> = HashMap::new();
    for r in rules {
        let col = scan.pattern_column(r.line, r.pattern);
        if let Some(&line) = first.get(&(r.pattern, r.kind)) {
            sink.push(
                finding(
                    r.line,
                    col,
                    Severity::Warning,
                    Code::DuplicateRule,
                    format!(
                        "duplicate of line {line} `{}: {}`",
                        r.kind,
                        shown(r.pattern)
                    ),
                )
                .with_help("remove this line"),
            );
            continue;
        }
        first.insert((r.pattern, r.kind), r.line);
        let other = match r.kind {
            RuleKind::Allow => RuleKind::Disallow,
            RuleKind::Disallow => RuleKind::Allow,
        };
        let Some(&other_line) = first.get(&(r.pattern, other)) else {
            continue;
        };
        // Report the `Disallow`, wherever it is: it is the dead one.
        let (line, col, allow_line) = if r.kind == RuleKind::Disallow {
            (r.line, col, other_line)
        } else {
            (
                other_line,
                scan.pattern_column(other_line, r.pattern),
                r.line,
            )
        };
        sink.push(
            finding(
                line,
                col,
                Severity::Warning,
                Code::ShadowedRule,
                format!(
                    "`Disallow: {}` can never decide anything: `Allow: {}` on line {allow_line} has the same length, and in {dialect} `Allow` wins a tie",
                    shown(r.pattern),
                    shown(r.pattern)
                ),
            )
            .with_help("remove one of the two lines"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::coverers;

    #[test]
    fn coverers_find_the_earliest_prefix() {
        let p: [&[u8]; 6] = [b"/ab", b"/a", b"/abc", b"/b", b"/a", b"/ac"];
        assert_eq!(
            coverers(&p),
            [Some(1), None, Some(0), None, Some(1), Some(1)]
        );
    }
}
