//! The harnesses of the `lint` and `audit` targets: the site owner's tools
//! fed a stranger's robots.txt and a log full of strangers' requests.

use std::collections::HashMap;

use norobots::{Dialect, ParseOptions, Robots};
use norobots_tools::audit::{parse_line, AuditOptions, Auditor, RobotReport};
use norobots_tools::lint::{lint as lint_body, LintOptions, Severity};

use crate::SEPARATOR;

/// A generous bound on what a finding's rendering adds to its message, help
/// and example: the location, a source window of 100 characters (each
/// shown in at most a few octets) and the caret line.
const RENDERED_FINDING: usize = 2_000;

/// The most text `norobots_tools::printable` writes for one octet of what
/// the file said: a control character becomes `\x1b`.
const ESCAPED_OCTET: usize = 4;

/// Lints `data` as a robots.txt body in every dialect and renders the
/// reports, asserting what the linter promises.
pub fn lint(data: &[u8]) {
    // CR, LF and CRLF each end a line (RFC 9309 2.2).
    let lines = 1
        + data.iter().filter(|&&b| b == b'\n').count()
        + data
            .windows(2)
            .filter(|w| w[0] == b'\r' && w[1] != b'\n')
            .count()
        + usize::from(data.last() == Some(&b'\r'));
    for dialect in Dialect::ALL {
        let options = LintOptions {
            // Small, so that the cap and `omitted` are reached too.
            max_findings_per_code: 8,
            ..LintOptions::new(dialect)
        };
        let report = lint_body(data, &options);
        assert_eq!(report.dialect, dialect);
        let mut per_code = HashMap::new();
        for pair in report.findings.windows(2) {
            assert!(
                (pair[0].line, pair[0].column) <= (pair[1].line, pair[1].column),
                "findings out of order: {:?} before {:?}",
                (pair[0].line, pair[0].column),
                (pair[1].line, pair[1].column)
            );
        }
        for f in &report.findings {
            assert!(f.line >= 1 && f.line <= lines, "line {} of {lines}", f.line);
            assert!(f.column >= 1, "column {}", f.column);
            assert!(!f.message.is_empty());
            *per_code.entry(f.code).or_insert(0usize) += 1;
            if let Some(example) = &f.example {
                // Found by running both dialects' matchers: run them again,
                // through the public API, and see them disagree.
                assert_ne!(example.allowed_in, example.disallowed_in);
                for (d, allowed) in [(example.allowed_in, true), (example.disallowed_in, false)] {
                    let robots = Robots::parse_with(data, &ParseOptions::new(d));
                    assert_eq!(
                        robots.matcher(&example.agent).is_allowed(&example.url),
                        allowed,
                        "example {example:?} in {d:?}"
                    );
                }
            }
        }
        for (code, n) in per_code {
            assert!(
                n <= options.max_findings_per_code,
                "{n} findings of {code:?}"
            );
        }
        assert_eq!(
            report.exit_code(),
            i32::from(report.count(Severity::Error) > 0)
        );
        let text = report.render_text("robots.txt", data);
        assert!(text.ends_with('\n'));
        // Source lines are shown in a window around the column, never whole,
        // so a finding's text stays short however long its line is.
        let bound: usize = report
            .findings
            .iter()
            .map(|f| {
                RENDERED_FINDING
                    + ESCAPED_OCTET
                        * (f.message.len()
                            + f.help.as_ref().map_or(0, String::len)
                            + f.example
                                .as_ref()
                                .map_or(0, |e| e.url.len() + e.agent.len()))
            })
            .sum();
        assert!(
            text.len() <= RENDERED_FINDING + bound,
            "{} octets of text for {} findings",
            text.len(),
            report.findings.len()
        );
        let json = report.to_json("robots.txt");
        assert_eq!(
            json["findings"].as_array().map(Vec::len),
            Some(report.findings.len())
        );
    }
}

/// Audits the log after the first `0xFF` of `data` against the robots.txt
/// before it, line by line and through the reader, asserting that the two
/// agree and that the report adds up.
///
/// The first octet of the log also sets `max_line_len`, so that short
/// inputs reach the too-long path.
pub fn audit(data: &[u8]) {
    let (body, log) = match data.iter().position(|&b| b == SEPARATOR) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&b"User-agent: *\nDisallow: /private\n"[..], data),
    };
    let options = AuditOptions {
        max_examples: 2,
        max_malformed: 3,
        user_agent_cache: 4,
        max_line_len: log.first().map_or(64 * 1024, |&b| 16 + 4 * usize::from(b)),
    };
    for dialect in [Dialect::Draft1996, Dialect::Rfc9309] {
        let robots = Robots::parse_with(body, &ParseOptions::new(dialect));

        let mut auditor = Auditor::new(&robots, options.clone());
        let mut fed = 0u64;
        let mut pieces = log.split(|&b| b == b'\n').peekable();
        while let Some(line) = pieces.next() {
            if line.is_empty() && pieces.peek().is_none() {
                // After the last line break: not a line.
                break;
            }
            fed += 1;
            if let Ok(parsed) = parse_line(line) {
                if let Some(status) = parsed.status {
                    assert!(status < 1000, "status {status}");
                }
            }
            auditor.feed_line(line, fed);
        }
        let report = auditor.finish();
        let t = &report.totals;
        assert_eq!(t.lines, fed);
        assert_eq!(t.parsed + t.malformed, t.lines);
        assert!(report.malformed.len() as u64 <= t.malformed.min(options.max_malformed as u64));
        assert_eq!(t.robots, report.robots.len() as u64);
        for pair in report.robots.windows(2) {
            let key = |r: &RobotReport| {
                (
                    std::cmp::Reverse(r.violations),
                    std::cmp::Reverse(r.requests),
                )
            };
            assert!(key(&pair[0]) <= key(&pair[1]), "robots out of order");
            // Ties are broken by (token, address), which no two robots
            // share: the order is total, so the unstable sort is
            // deterministic.
            if key(&pair[0]) == key(&pair[1]) {
                let name = |r: &'_ RobotReport| (r.token.clone(), r.address.clone());
                assert!(name(&pair[0]) < name(&pair[1]), "robots tie");
            }
        }
        for r in &report.robots {
            assert!(r.examples.len() <= options.max_examples);
            assert!(r.examples.len() as u64 <= r.violations);
            assert!(r.violations_before_robots_txt <= r.violations);
            assert!(r.violations <= r.judged_requests);
            assert!(r.judged_requests + r.other_methods == r.requests);
            assert!(r.peak_per_minute >= 1 && r.peak_per_minute <= r.requests);
            assert!(r.mean_per_minute.is_finite() && r.mean_per_minute > 0.0);
            assert!(r.first_seen <= r.last_seen);
            assert!(r.reasons.any());
        }
        let _ = report.render_text();
        // The streamed document is the tree's.
        let mut streamed = Vec::new();
        report
            .write_json(&mut streamed)
            .expect("writing to memory does not fail");
        let tree = serde_json::to_vec_pretty(&report.to_json()).expect("a JSON value prints");
        assert_eq!(streamed, tree);

        // The reader splits the same lines (gzip input is another matter).
        if !log.starts_with(&[0x1f, 0x8b]) {
            let read = Auditor::new(&robots, options.clone())
                .audit_reader(log)
                .expect("reading from memory does not fail");
            assert_eq!(read.totals.lines, report.totals.lines);
            assert_eq!(read.totals.parsed, report.totals.parsed);
            assert_eq!(read.totals.malformed, report.totals.malformed);
            assert_eq!(read.robots, report.robots);
            assert_eq!(read.humans, report.humans);
            assert_eq!(read.malformed, report.malformed);
        }
    }
}
