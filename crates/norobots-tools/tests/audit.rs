//! The access-log auditor end to end: log formats, gzip, malformed lines,
//! the robot rule, violations per dialect, the reports, and a generated log
//! whose robots and violations are known in advance.
//!
//! The speed test is ignored; run it by hand:
//! `cargo test --release -p norobots-tools --test audit -- --ignored --nocapture`.

use std::collections::HashMap;
use std::io::{self, BufWriter, Read, Write};

use flate2::write::GzEncoder;
use flate2::Compression;
use norobots::{Dialect, ParseOptions, Robots};
use norobots_tools::audit::{AuditOptions, AuditReport, Auditor, LineError, RobotReport};

// ---------------------------------------------------------------- helpers

fn audit_in(dialect: Dialect, robots_txt: &str, log: &[u8]) -> AuditReport {
    let robots = Robots::parse_with(robots_txt.as_bytes(), &ParseOptions::new(dialect));
    Auditor::new(&robots, AuditOptions::default())
        .audit_reader(log)
        .unwrap()
}

fn audit(robots_txt: &str, log: &str) -> AuditReport {
    audit_in(Dialect::Rfc9309, robots_txt, log.as_bytes())
}

/// A Combined Log Format line at `secs` seconds past 2024-01-01T00:00:00Z.
fn combined(host: &str, secs: u32, method: &str, target: &str, ua: &str) -> String {
    format!(
        "{host} - - [01/Jan/2024:{:02}:{:02}:{:02} +0000] \"{method} {target} HTTP/1.1\" 200 512 \"-\" \"{ua}\"\n",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

fn get(host: &str, secs: u32, target: &str, ua: &str) -> String {
    combined(host, secs, "GET", target, ua)
}

fn robot<'a>(report: &'a AuditReport, token: &str, address: &str) -> &'a RobotReport {
    report
        .robots
        .iter()
        .find(|r| &*r.token == token && r.address == address)
        .unwrap_or_else(|| panic!("no robot {token} at {address} in {:#?}", report.robots))
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
    gz.write_all(data).unwrap();
    gz.finish().unwrap()
}

const ROBOTS_TXT: &str = "User-agent: *\nDisallow: /private/\n";

// ---------------------------------------------------------------- formats

#[test]
fn common_log_format_clients_have_no_user_agent_and_count_as_robots() {
    let log =
        "192.0.2.1 - frank [10/Oct/2000:13:55:36 -0700] \"GET /private/x HTTP/1.0\" 200 2326\n\
               192.0.2.1 - frank [10/Oct/2000:13:55:37 -0700] \"GET /ok HTTP/1.0\" 200 2326\n";
    let report = audit(ROBOTS_TXT, log);
    assert_eq!(report.totals.parsed, 2);
    let r = robot(&report, "", "192.0.2.1");
    assert!(r.reasons.no_user_agent);
    assert_eq!(
        (r.requests, r.violations, r.user_agent.as_deref()),
        (2, 1, None)
    );
}

#[test]
fn combined_log_format_separates_robots_from_humans() {
    let mut log = get("192.0.2.1", 0, "/a", "FooBot/1.0");
    log += &get(
        "198.51.100.2",
        1,
        "/a",
        "Mozilla/5.0 (X11; Linux) Firefox/128.0",
    );
    log += &get(
        "198.51.100.3",
        2,
        "/private/b",
        "Mozilla/5.0 (X11; Linux) Firefox/128.0",
    );
    let report = audit(ROBOTS_TXT, &log);
    assert_eq!(report.robots.len(), 1);
    assert_eq!(&*report.robots[0].token, "FooBot");
    assert_eq!((report.humans.clients, report.humans.requests), (2, 2));
    assert_eq!(report.humans.disallowed, 1);
}

#[test]
fn mixed_common_and_combined_lines_parse_in_one_log() {
    let mut log = get("192.0.2.1", 0, "/private/a", "FooBot/1.0");
    log += "192.0.2.1 - - [01/Jan/2024:00:00:01 +0000] \"GET /private/b HTTP/1.1\" 200 5\n";
    let report = audit(ROBOTS_TXT, &log);
    assert_eq!(report.totals.parsed, 2);
    assert_eq!(robot(&report, "FooBot", "192.0.2.1").violations, 1);
    assert_eq!(robot(&report, "", "192.0.2.1").violations, 1);
}

#[test]
fn gzip_log_is_detected_by_magic_bytes_and_reads_like_plain() {
    let mut log = get("192.0.2.1", 0, "/robots.txt", "FooBot/1.0");
    log += &get("192.0.2.1", 5, "/private/a", "FooBot/1.0");
    let plain = audit(ROBOTS_TXT, &log);
    let packed = gzip(log.as_bytes());
    let zipped = audit_in(Dialect::Rfc9309, ROBOTS_TXT, &packed);
    assert!(zipped.totals.gzip && !plain.totals.gzip);
    assert_eq!(zipped.robots, plain.robots);
    assert_eq!(zipped.totals.bytes, log.len() as u64);
    assert_eq!(zipped.totals.input_bytes, packed.len() as u64);
}

#[test]
fn concatenated_gzip_members_are_one_log() {
    let a = get("192.0.2.1", 0, "/private/a", "FooBot/1.0");
    let b = get("192.0.2.1", 9, "/private/b", "FooBot/1.0");
    let mut packed = gzip(a.as_bytes());
    packed.extend(gzip(b.as_bytes()));
    let report = audit_in(Dialect::Rfc9309, ROBOTS_TXT, &packed);
    assert_eq!((report.totals.lines, report.robots[0].violations), (2, 2));
}

/// A reader that hands out one octet per call, the worst case for magic
/// detection and line splitting.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn short_reads_do_not_break_gzip_detection_or_lines() {
    let log = get("192.0.2.1", 0, "/private/a", "FooBot/1.0") + &get("h", 1, "/", "BarBot");
    let packed = gzip(log.as_bytes());
    let robots = Robots::parse(ROBOTS_TXT.as_bytes());
    for input in [log.as_bytes(), &packed[..]] {
        let report = Auditor::new(&robots, AuditOptions::default())
            .audit_reader(Trickle(input))
            .unwrap();
        assert_eq!((report.totals.parsed, report.totals.malformed), (2, 0));
    }
}

#[test]
fn crlf_endings_and_a_missing_final_line_break_are_fine() {
    let log = get("192.0.2.1", 0, "/a", "FooBot").replace('\n', "\r\n")
        + get("192.0.2.1", 1, "/private/b", "FooBot").trim_end();
    let report = audit(ROBOTS_TXT, &log);
    assert_eq!((report.totals.lines, report.totals.parsed), (2, 2));
    assert_eq!(report.robots[0].violations, 1);
}

// Corrupt, not cut short: the data cannot be trusted, so no report.
#[test]
fn corrupt_gzip_is_an_io_error_naming_the_line() {
    let mut log = String::new();
    for i in 0..2_000 {
        log += &get("192.0.2.1", i, &format!("/page/{i}"), "FooBot");
    }
    let mut packed = gzip(log.as_bytes());
    let middle = packed.len() / 2;
    for b in &mut packed[middle..middle + 64] {
        *b = !*b;
    }
    let robots = Robots::parse(b"");
    let error = Auditor::new(&robots, AuditOptions::default())
        .audit_reader(&packed[..])
        .unwrap_err();
    assert_ne!(error.kind(), io::ErrorKind::UnexpectedEof);
    assert!(error.to_string().starts_with("line "), "{error}");
    // Not a gzip stream after its magic number: the first line.
    let garbage = b"\x1f\x8b\x08\x00 not deflate at all";
    let text = Auditor::new(&robots, AuditOptions::default())
        .audit_reader(&garbage[..])
        .unwrap_err()
        .to_string();
    assert!(text.starts_with("line 1: "), "{text}");
}

// A gzip log cut short (a copy that did not finish, a disk that filled
// up) still holds most of the log: the report covers the complete lines
// before the cut and says where it fell. The cut line itself is not read:
// half a request line could be judged on half its path.
#[test]
fn a_gzip_log_cut_short_is_reported_up_to_the_line_it_broke_on() {
    let lines: Vec<String> = (0..20_000)
        .map(|i| get("192.0.2.1", i, &format!("/page/{i}"), "FooBot"))
        .collect();
    let whole = gzip(lines.concat().as_bytes());
    let robots = Robots::parse(b"User-agent: *\nDisallow: /page/\n");
    let read = |packed: &[u8]| {
        Auditor::new(&robots, AuditOptions::default())
            .audit_reader(packed)
            .unwrap()
    };
    let report = read(&whole);
    assert_eq!((report.totals.lines, report.cut_short), (20_000, None));
    assert!(report.to_json()["cut_short"].is_null());
    assert!(!report.render_text().contains("cut short"));

    let report = read(&whole[..whole.len() / 2]);
    let cut = report.cut_short.expect("the stream ends early");
    // Half the stream holds about half the lines, give or take what the
    // decoder had buffered and the octets each line packed to.
    assert!((5_000..15_000).contains(&cut.line), "{cut:?}");
    let before: usize = lines[..cut.line as usize - 1].iter().map(String::len).sum();
    let through = before + lines[cut.line as usize - 1].len();
    assert!(
        (before as u64..through as u64).contains(&cut.text_offset),
        "{cut:?}"
    );
    assert_eq!(report.totals.lines, cut.line - 1);
    assert_eq!(report.totals.parsed, cut.line - 1);
    assert_eq!(report.totals.malformed, 0);
    assert_eq!(report.robots[0].violations, cut.line - 1);
    assert!(report.totals.gzip);
    let json = report.to_json();
    assert_eq!(json["cut_short"]["line"], cut.line);
    assert_eq!(json["cut_short"]["text_offset"], cut.text_offset);
    let text = report.render_text();
    let said = format!(
        "cut short: the gzip stream ends in line {}, after {} octets of log text; the report covers the lines before it\n",
        cut.line, cut.text_offset
    );
    assert!(text.contains(&said), "{text}");

    // Cut in the 8-octet trailer: every line is there, but the stream
    // still did not end as gzip streams do.
    let report = read(&whole[..whole.len() - 4]);
    let cut = report.cut_short.expect("the trailer is cut");
    assert_eq!((report.totals.lines, cut.line), (20_000, 20_001));
    // Cut in the header: nothing read.
    let report = read(&whole[..5]);
    assert_eq!(report.totals.lines, 0);
    assert_eq!(
        report.cut_short.map(|c| (c.line, c.text_offset)),
        Some((1, 0))
    );
}

// ---------------------------------------------------------------- malformed

#[test]
fn malformed_lines_are_counted_with_their_first_line_numbers() {
    let mut log = String::new();
    for i in 0..15 {
        log += &get("192.0.2.1", i, "/a", "FooBot");
        log += "this is not a log line\n";
    }
    let report = audit(ROBOTS_TXT, &log);
    assert_eq!((report.totals.lines, report.totals.parsed), (30, 15));
    assert_eq!(report.totals.malformed, 15);
    let lines: Vec<u64> = report.malformed.iter().map(|m| m.line).collect();
    assert_eq!(lines, [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]);
    assert!(report
        .malformed
        .iter()
        .all(|m| m.error == LineError::NoDate));
    assert!(report
        .render_text()
        .contains("malformed lines: 15; first: 2 (no [date])"));
}

#[test]
fn over_long_lines_are_malformed_and_skipped() {
    let robots = Robots::parse(ROBOTS_TXT.as_bytes());
    let opts = AuditOptions {
        max_line_len: 100,
        ..AuditOptions::default()
    };
    // One line past the option, one past the reader's buffer (1 MiB).
    let long = get("h", 0, &format!("/{}", "x".repeat(200)), "FooBot");
    let huge = format!("{}\n", "y".repeat(3 << 20));
    let log = get("h", 0, "/private/a", "FooBot") + &long + &huge + &get("h", 1, "/b", "FooBot");
    let report = Auditor::new(&robots, opts)
        .audit_reader(log.as_bytes())
        .unwrap();
    assert_eq!((report.totals.lines, report.totals.parsed), (4, 2));
    let errors: Vec<(u64, LineError)> =
        report.malformed.iter().map(|m| (m.line, m.error)).collect();
    assert_eq!(errors, [(2, LineError::TooLong), (3, LineError::TooLong)]);
    assert_eq!(report.robots[0].requests, 2);
}

#[test]
fn odd_but_real_lines_are_not_malformed() {
    let log = "\
::1 - - [01/Jan/2024:00:00:00 +0000] \"GET /private/a HTTP/1.1\" 200 1 \"-\" \"FooBot\"
[2001:db8::1] - - [01/Jan/2024:00:00:00 +0000] \"-\" 400 0 \"-\" \"-\"
h - - [01/Jan/2024:00:00:00 +0000] \"\" 400 0 \"-\" \"-\"
h - - [01/Jan/2024:00:00:00 +0000] \"\\x16\\x03\\x01\" 400 157 \"-\" \"-\"
h - - [01/Jan/2024:00:00:00 +0000] \"GET /a\\\"b HTTP/1.1\" 404 - \"-\" \"Bot \\\"x\\\"\"
h - - [01/Jan/2024:00:00:00 +0000] \"GET /private/q HTTP/1.1\" 200 1 \"http://cut-off
";
    let report = audit(ROBOTS_TXT, log);
    assert_eq!(report.totals.malformed, 0, "{:?}", report.malformed);
    assert_eq!(robot(&report, "FooBot", "::1").violations, 1);
    let none = robot(&report, "", "h");
    assert_eq!(
        (none.requests, none.other_methods, none.violations),
        (3, 2, 1)
    );
    assert_eq!(robot(&report, "Bot", "h").requests, 1);
}

// Found by the `audit` fuzz target: an octet that is not UTF-8 in a
// browser-shaped User-Agent, where the robot's name is looked for, made the
// audit panic. Logs hold whatever clients send.
#[test]
fn user_agent_with_octets_that_are_not_utf8_is_read_lossily() {
    let mut log = Vec::new();
    for target in ["/robots.txt", "/private/a"] {
        log.extend_from_slice(
            format!("66.249.66.1 - - [01/Jan/2024:00:00:00 +0000] \"GET {target} HTTP/1.1\" 200 1 \"-\" \"Mozilla/5.0 (com").as_bytes(),
        );
        log.extend_from_slice(b"\xbbatible; Googlebot/2.1; +http://www.google.com/bot.html)\"\n");
    }
    let report = audit_in(Dialect::Rfc9309, ROBOTS_TXT, &log);
    assert_eq!(report.totals.malformed, 0, "{:?}", report.malformed);
    let r = robot(&report, "Googlebot", "66.249.66.1");
    assert_eq!((r.requests, r.robots_txt_fetches, r.violations), (2, 1, 1));
}

// A server that logs the request's octets as they came: `\xE9` is `%E9` to
// rfc9309 (RFC 9309 2.2.2), so the rule for the Latin-1 page applies; read
// as text it would have been U+FFFD and matched nothing.
#[test]
fn targets_that_are_not_utf8_are_judged_on_their_octets() {
    let mut log = Vec::new();
    for target in [&b"/caf\xe9/menu"[..], b"/caf\xc3\xa9/menu"] {
        log.extend_from_slice(b"203.0.113.9 - - [01/Jan/2024:00:00:00 +0000] \"GET ");
        log.extend_from_slice(target);
        log.extend_from_slice(b" HTTP/1.1\" 200 1 \"-\" \"FooBot/1.0\"\n");
    }
    let report = audit_in(
        Dialect::Rfc9309,
        "User-agent: *\nDisallow: /caf%E9/\n",
        &log,
    );
    let r = robot(&report, "FooBot", "203.0.113.9");
    assert_eq!((r.requests, r.violations), (2, 1));
    assert_eq!(r.examples[0].target, "/caf\u{fffd}/menu");
    assert_eq!(r.examples[0].rule.to_string(), "line 2: Disallow: /caf%E9/");
}

// ---------------------------------------------------------------- the robot rule

#[test]
fn robot_that_never_fetched_robots_txt_has_all_violations_before_it() {
    let log = get("203.0.113.6", 0, "/private/a", "BadBot/6.6")
        + &get("203.0.113.6", 1, "/private/b", "BadBot/6.6");
    let report = audit(ROBOTS_TXT, &log);
    let r = robot(&report, "BadBot", "203.0.113.6");
    assert_eq!((r.robots_txt_fetches, r.first_robots_txt), (0, None));
    assert_eq!((r.violations, r.violations_before_robots_txt), (2, 2));
    assert!(r.reasons.bot_like_user_agent && !r.reasons.fetched_robots_txt);
    assert!(report.render_text().contains("never fetched"));
}

#[test]
fn robots_txt_fetches_are_counted_with_the_first_time() {
    let mut log = get("192.0.2.1", 30, "/private/a", "FooBot");
    log += &get("192.0.2.1", 10, "/robots.txt", "FooBot");
    log += &get("192.0.2.1", 70, "/robots.txt?v=2", "FooBot");
    log += &combined("192.0.2.1", 71, "HEAD", "/robots.txt", "FooBot");
    let report = audit(ROBOTS_TXT, &log);
    let r = robot(&report, "FooBot", "192.0.2.1");
    assert_eq!(r.robots_txt_fetches, 3);
    assert_eq!(
        r.first_robots_txt.unwrap().to_string(),
        "2024-01-01T00:00:10Z"
    );
    // The violation was logged first, so it came before any fetch in the log.
    assert_eq!(r.violations_before_robots_txt, 1);
}

#[test]
fn human_looking_client_that_fetches_robots_txt_is_a_robot_with_all_its_requests() {
    let ua = "Mozilla/5.0 (X11; Linux) Firefox/128.0";
    let mut log = get("198.51.100.5", 0, "/private/a", ua);
    log += &get("198.51.100.5", 1, "/b", ua);
    log += &get("198.51.100.5", 2, "/robots.txt", ua);
    let report = audit(ROBOTS_TXT, &log);
    let r = robot(&report, "Mozilla", "198.51.100.5");
    assert!(r.reasons.fetched_robots_txt && !r.reasons.bot_like_user_agent);
    assert_eq!((r.requests, r.violations), (3, 1));
    assert_eq!(report.humans.clients, 0);
}

#[test]
fn clients_are_keyed_by_product_token_and_address() {
    let mut log = get("192.0.2.1", 0, "/", "FooBot/1.0");
    log += &get("192.0.2.1", 1, "/", "FooBot/2.0 (+http://foo.example)");
    log += &get("192.0.2.2", 2, "/", "FooBot/1.0");
    log += &get("192.0.2.1", 3, "/", "BarBot/1.0");
    let report = audit(ROBOTS_TXT, &log);
    assert_eq!(report.robots.len(), 3);
    assert_eq!(robot(&report, "FooBot", "192.0.2.1").requests, 2);
}

#[test]
fn other_methods_are_counted_but_not_judged() {
    let mut log = combined("192.0.2.1", 0, "POST", "/private/form", "FooBot");
    log += &combined("192.0.2.1", 1, "OPTIONS", "*", "FooBot");
    log += &combined("192.0.2.1", 2, "HEAD", "/private/x", "FooBot");
    let report = audit(ROBOTS_TXT, &log);
    let r = robot(&report, "FooBot", "192.0.2.1");
    assert_eq!((r.requests, r.judged_requests, r.other_methods), (3, 1, 2));
    assert_eq!(r.violations, 1);
    assert_eq!(r.examples[0].method, "HEAD");
}

// ---------------------------------------------------------------- violations per dialect

#[test]
fn wildcard_rule_applies_only_in_rfc9309_and_google() {
    let body = "User-agent: *\nDisallow: /*.pdf$\n";
    let log = get("h", 0, "/docs/a.pdf", "FooBot") + &get("h", 1, "/docs/a.pdf?dl=1", "FooBot");
    let count = |d| audit_in(d, body, log.as_bytes()).robots[0].violations;
    assert_eq!(count(Dialect::Rfc9309), 1);
    assert_eq!(count(Dialect::Google), 1);
    assert_eq!(count(Dialect::Draft1996), 0);
    assert_eq!(count(Dialect::Norobots1994), 0);
}

#[test]
fn first_match_and_longest_match_dialects_disagree_on_allow() {
    let body = "User-agent: *\nDisallow: /\nAllow: /public\n";
    let log = get("h", 0, "/public/a", "FooBot");
    let count = |d| audit_in(d, body, log.as_bytes()).robots[0].violations;
    assert_eq!(count(Dialect::Rfc9309), 0);
    assert_eq!(count(Dialect::Draft1996), 1);
    // 1994 ignores Allow: any matching Disallow excludes.
    assert_eq!(count(Dialect::Norobots1994), 1);
}

#[test]
fn each_robot_is_judged_by_its_own_group() {
    let body = "User-agent: FooBot\nDisallow: /foo-only\n\nUser-agent: *\nDisallow: /others\n";
    let mut log = get("h", 0, "/foo-only", "FooBot/1.0");
    log += &get("h", 1, "/others", "FooBot/1.0");
    log += &get("h", 2, "/foo-only", "BarBot/1.0");
    log += &get("h", 3, "/others", "BarBot/1.0");
    for d in Dialect::ALL {
        let report = audit_in(d, body, log.as_bytes());
        let foo = robot(&report, "FooBot", "h");
        let bar = robot(&report, "BarBot", "h");
        assert_eq!(foo.examples[0].target, "/foo-only", "{d}");
        assert_eq!(bar.examples[0].target, "/others", "{d}");
        assert_eq!((foo.violations, bar.violations), (1, 1), "{d}");
    }
}

#[test]
fn requests_for_robots_txt_are_never_violations() {
    // 1994 and google do not exempt /robots.txt; the audit does anyway.
    let body = "User-agent: *\nDisallow: /\n";
    let log = get("h", 0, "/robots.txt", "FooBot");
    for d in Dialect::ALL {
        assert_eq!(
            audit_in(d, body, log.as_bytes()).robots[0].violations,
            0,
            "{d}"
        );
    }
}

#[test]
fn absolute_form_targets_are_judged_by_their_path() {
    let log = get("h", 0, "http://example.com/private/a", "FooBot");
    let report = audit(ROBOTS_TXT, &log);
    assert_eq!(report.robots[0].violations, 1);
}

#[test]
fn percent_escapes_follow_the_dialect() {
    // rfc9309 decodes %7E to ~ on both sides; 1994 compares octets.
    let body = "User-agent: *\nDisallow: /~joe/\n";
    let log = get("h", 0, "/%7Ejoe/a", "FooBot");
    assert_eq!(
        audit_in(Dialect::Rfc9309, body, log.as_bytes()).robots[0].violations,
        1
    );
    assert_eq!(
        audit_in(Dialect::Norobots1994, body, log.as_bytes()).robots[0].violations,
        0
    );
}

#[test]
fn examples_keep_the_first_five_with_line_time_and_rule() {
    let mut log = get("h", 0, "/robots.txt", "FooBot");
    for i in 1..=8 {
        log += &get("h", i, &format!("/private/{i}"), "FooBot");
    }
    let report = audit(ROBOTS_TXT, &log);
    let r = &report.robots[0];
    assert_eq!((r.violations, r.examples.len()), (8, 5));
    let lines: Vec<u64> = r.examples.iter().map(|v| v.line).collect();
    assert_eq!(lines, [2, 3, 4, 5, 6]);
    assert_eq!(r.examples[0].time.to_string(), "2024-01-01T00:00:01Z");
    assert_eq!(r.examples[0].target, "/private/1");
    assert_eq!(
        r.examples[0].rule.to_string(),
        "line 2: Disallow: /private/"
    );
}

// ---------------------------------------------------------------- rates and order

#[test]
fn peak_is_per_calendar_minute_and_mean_is_over_the_active_span() {
    let mut log = String::new();
    // 2 requests in minute 0, 3 in minute 1 (straddling no boundary), 1 at 4:00.
    for secs in [10, 50, 60, 61, 119, 240] {
        log += &get("h", secs, "/", "FooBot");
    }
    let report = audit(ROBOTS_TXT, &log);
    let r = &report.robots[0];
    assert_eq!(
        (r.peak_per_minute, r.peak_minute.to_string()),
        (3, "2024-01-01T00:01:00Z".to_string())
    );
    assert_eq!(r.first_seen.to_string(), "2024-01-01T00:00:10Z");
    assert_eq!(r.last_seen.to_string(), "2024-01-01T00:04:00Z");
    assert!((r.mean_per_minute - 6.0 * 60.0 / 230.0).abs() < 1e-9);
}

#[test]
fn worst_offenders_come_first_then_busiest() {
    let mut log = String::new();
    for i in 0..5 {
        log += &get("a", i, "/", "BusyBot");
    }
    log += &(get("b", 0, "/private/1", "OneBot") + &get("b", 1, "/", "OneBot"));
    log += &(get("c", 0, "/private/1", "TwoBot") + &get("c", 1, "/private/2", "TwoBot"));
    log += &get("d", 0, "/private/1", "OneFewerBot");
    log += "x - - [01/Jan/2024:00:00:00 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"-\"\n";
    let report = audit(ROBOTS_TXT, &log);
    let order: Vec<&str> = report.robots.iter().map(|r| &*r.token).collect();
    assert_eq!(order, ["TwoBot", "OneBot", "OneFewerBot", "BusyBot", ""]);
}

// ---------------------------------------------------------------- output

#[test]
fn text_report_has_totals_table_and_examples() {
    let log =
        get("203.0.113.6", 0, "/private/a", "BadBot/6.6") + &get("h", 0, "/", "Mozilla/5.0 Safari");
    let text = audit(ROBOTS_TXT, &log).render_text();
    assert!(
        text.starts_with(
            "lines: 2  parsed: 2  malformed: 0  robots: 1  human-looking clients: 1 (1 requests)"
        ),
        "{text}"
    );
    assert!(text.contains("MB/s  dialect: rfc9309"), "{text}");
    let header = text
        .lines()
        .find(|l| l.trim_start().starts_with("violations"))
        .unwrap();
    assert!(
        header.contains("robots.txt") && header.contains("peak/min") && header.ends_with("address")
    );
    assert!(
        text.contains("BadBot 203.0.113.6: 1 disallowed of 1 GET/HEAD requests"),
        "{text}"
    );
    assert!(
        text.contains(
            "  line 1  2024-01-01T00:00:00Z  GET /private/a  (line 2: Disallow: /private/)"
        ),
        "{text}"
    );
}

#[test]
fn json_report_is_one_document_with_every_field() {
    let log = get("203.0.113.6", 0, "/robots.txt", "BadBot/6.6")
        + &get("203.0.113.6", 1, "/private/a", "BadBot/6.6")
        + "junk\n";
    let json = audit(ROBOTS_TXT, &log).to_json();
    let text = serde_json::to_string(&json).unwrap();
    let mut back: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Timings are floats that serde_json may read back one ULP off (without
    // its float_roundtrip feature); everything else must survive exactly.
    let mut json_exact = json.clone();
    for doc in [&mut back, &mut json_exact] {
        let totals = doc["totals"].as_object_mut().unwrap();
        assert!(totals.remove("elapsed_s").unwrap().is_f64());
        assert!(totals.remove("mb_per_s").unwrap().is_f64());
    }
    assert_eq!(back, json_exact);
    assert_eq!(json["totals"]["lines"], 3);
    assert_eq!(json["totals"]["malformed"], 1);
    assert_eq!(json["malformed"]["first"][0]["error"], "no [date]");
    let r = &json["robots"][0];
    assert_eq!(r["token"], "BadBot");
    assert_eq!(r["reasons"], serde_json::json!(["robots.txt", "bot-ua"]));
    assert_eq!(r["first_robots_txt"], "2024-01-01T00:00:00Z");
    assert_eq!(r["examples"][0]["line"], 2);
    // Issue 47: the rule has the shape `check --json` gives it.
    assert_eq!(
        r["examples"][0]["rule"],
        serde_json::json!({"line": 2, "kind": "Disallow", "pattern": "/private/"})
    );
    for key in [
        "bytes",
        "input_bytes",
        "elapsed_s",
        "mb_per_s",
        "gzip",
        "robots",
        "parsed",
    ] {
        assert!(!json["totals"][key].is_null(), "{key}");
    }
}

#[test]
fn empty_log_gives_an_empty_report() {
    let report = audit(ROBOTS_TXT, "");
    assert_eq!((report.totals.lines, report.robots.len()), (0, 0));
    assert!(report.render_text().contains("no robots found"));
}

// ---------------------------------------------------------------- generated logs

/// xorshift64: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The robots.txt every generated log is audited against (rfc9309).
const GEN_ROBOTS: &str = "\
User-agent: *
Disallow: /private/
Allow: /private/public-
Disallow: /*.pdf$

User-agent: GoodBot
Disallow: /nogood/
";

/// What a path is for the generated robots.txt.
#[derive(Clone, Copy)]
enum Path {
    Page,
    PublicPrivate,
    Private,
    Pdf,
    PdfQuery,
    NoGood,
    RobotsTxt,
}

impl Path {
    fn target(self, n: u64) -> String {
        match self {
            Path::Page => format!("/page/{n}.html?ref=x"),
            Path::PublicPrivate => format!("/private/public-{n}"),
            Path::Private => format!("/private/{n}"),
            Path::Pdf => format!("/doc/{n}.pdf"),
            Path::PdfQuery => format!("/doc/{n}.pdf?page=2"),
            Path::NoGood => format!("/nogood/{n}"),
            Path::RobotsTxt => "/robots.txt".to_string(),
        }
    }

    /// Whether the generated robots.txt disallows it for the robot (GoodBot
    /// has its own group; everyone else gets `*`).
    fn disallowed(self, goodbot: bool) -> bool {
        match self {
            Path::NoGood => goodbot,
            Path::Private | Path::Pdf => !goodbot,
            _ => false,
        }
    }
}

/// A generated client: its User-Agent as written in the log, its address,
/// and the paths it asks for.
struct Profile {
    ua: &'static str,
    token: &'static str,
    address: &'static str,
    robot: bool,
    paths: &'static [Path],
    /// How often (1 in n) it fetches /robots.txt; 0 never.
    robots_every: u64,
}

const P_ALL: &[Path] = &[
    Path::Page,
    Path::PublicPrivate,
    Path::Private,
    Path::Pdf,
    Path::PdfQuery,
    Path::NoGood,
];
const P_POLITE: &[Path] = &[Path::Page, Path::PublicPrivate, Path::PdfQuery];
const P_GOOD: &[Path] = &[Path::Page, Path::Private, Path::Pdf, Path::NoGood];

const PROFILES: &[Profile] = &[
    Profile {
        ua: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        token: "Googlebot",
        address: "66.249.66.1",
        robot: true,
        paths: P_POLITE,
        robots_every: 50,
    },
    Profile {
        ua: "GoodBot/1.0",
        token: "GoodBot",
        address: "192.0.2.10",
        robot: true,
        paths: P_GOOD,
        robots_every: 20,
    },
    Profile {
        ua: "BadBot/6.6",
        token: "BadBot",
        address: "203.0.113.66",
        robot: true,
        paths: P_ALL,
        robots_every: 0,
    },
    Profile {
        ua: "-",
        token: "",
        address: "198.51.100.7",
        robot: true,
        paths: P_ALL,
        robots_every: 0,
    },
    Profile {
        ua: r#"Sneaky/1.0 \"quoted\""#,
        token: "Sneaky",
        address: "2001:db8::42",
        robot: true,
        paths: P_ALL,
        robots_every: 100,
    },
    Profile {
        ua: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
        token: "bingbot",
        address: "40.77.167.1",
        robot: true,
        paths: P_ALL,
        robots_every: 30,
    },
    Profile {
        ua: "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0",
        token: "Mozilla",
        address: "10.0.0.1",
        robot: false,
        paths: P_ALL,
        robots_every: 0,
    },
    Profile {
        ua: "Mozilla/5.0 (Macintosh) Safari/605.1.15",
        token: "Mozilla",
        address: "10.0.0.2",
        robot: false,
        paths: P_POLITE,
        robots_every: 0,
    },
    Profile {
        ua: "Mozilla/5.0 (Windows NT 10.0) Chrome/126.0",
        token: "Mozilla",
        address: "10.0.0.3",
        robot: false,
        paths: P_ALL,
        robots_every: 0,
    },
];

/// What the report must say about one generated client.
#[derive(Default)]
struct Expected {
    requests: u64,
    violations: u64,
    fetches: u64,
    first_fetch: Option<i64>,
    first: i64,
    last: i64,
    minutes: HashMap<i64, u64>,
    example_lines: Vec<u64>,
}

/// What the generator wrote, to check the report against.
#[derive(Default)]
struct Truth {
    clients: Vec<Expected>,
    malformed: Vec<u64>,
    lines: u64,
}

const MALFORMED: &[&str] = &[
    "",
    "garbage",
    "1.2.3.4 - - [not a date] \"GET / HTTP/1.1\" 200 1",
    "1.2.3.4 - - [01/Jan",
];

/// 2023-11-14T22:13:20Z
const START: i64 = 1_700_000_000;

/// Writes `lines` log lines: clients picked at random, time moving forward
/// 0–2 seconds a line, one line in 97 malformed, one in 61 a POST.
fn generate(
    w: &mut impl Write,
    lines: u64,
    seed: u64,
    mut truth: Option<&mut Truth>,
) -> io::Result<()> {
    let mut rng = Rng(seed);
    let mut t = START;
    if let Some(truth) = truth.as_deref_mut() {
        truth.clients = PROFILES.iter().map(|_| Expected::default()).collect();
    }
    let mut date = String::new();
    for line_no in 1..=lines {
        t += rng.below(3) as i64;
        if rng.below(97) == 0 {
            writeln!(
                w,
                "{}",
                MALFORMED[rng.below(MALFORMED.len() as u64) as usize]
            )?;
            if let Some(truth) = truth.as_deref_mut() {
                truth.malformed.push(line_no);
            }
            continue;
        }
        let c = rng.below(PROFILES.len() as u64) as usize;
        let p = &PROFILES[c];
        let post = rng.below(61) == 0;
        let path = if p.robots_every > 0 && rng.below(p.robots_every) == 0 {
            Path::RobotsTxt
        } else {
            p.paths[rng.below(p.paths.len() as u64) as usize]
        };
        let target = path.target(rng.below(10_000));
        date.clear();
        clf_date(t, &mut date);
        let method = if post { "POST" } else { "GET" };
        writeln!(
            w,
            "{} - - [{date}] \"{method} {target} HTTP/1.1\" 200 {} \"-\" \"{}\"",
            p.address,
            rng.below(50_000),
            p.ua
        )?;
        if let Some(truth) = truth.as_deref_mut() {
            let e = &mut truth.clients[c];
            if e.requests == 0 {
                e.first = t;
            }
            e.requests += 1;
            e.last = t;
            *e.minutes.entry(t.div_euclid(60)).or_default() += 1;
            if post {
                continue;
            }
            if let Path::RobotsTxt = path {
                e.fetches += 1;
                e.first_fetch.get_or_insert(t);
            } else if path.disallowed(p.token == "GoodBot") {
                e.violations += 1;
                if e.example_lines.len() < 5 {
                    e.example_lines.push(line_no);
                }
            }
        }
    }
    if let Some(truth) = truth {
        truth.lines = lines;
    }
    Ok(())
}

/// `dd/Mon/yyyy:HH:MM:SS +0000` for an epoch second (inverse of the
/// auditor's parser, written independently).
fn clf_date(t: i64, out: &mut String) {
    use std::fmt::Write as _;
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (mut days, secs) = (t.div_euclid(86_400), t.rem_euclid(86_400));
    let mut year = 1970;
    loop {
        let len = if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 {
            366
        } else {
            365
        };
        if days < len {
            break;
        }
        days -= len;
        year += 1;
    }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let lens = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let mut month = 0;
    while days >= lens[month] {
        days -= lens[month];
        month += 1;
    }
    let _ = write!(
        out,
        "{:02}/{}/{year}:{:02}:{:02}:{:02} +0000",
        days + 1,
        MONTHS[month],
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    );
}

#[test]
fn generated_log_report_finds_exactly_the_planted_robots_and_violations() {
    let mut log = Vec::new();
    let mut truth = Truth::default();
    generate(&mut log, 20_000, 0x9E37_79B9_7F4A_7C15, Some(&mut truth)).unwrap();
    let report = audit_in(Dialect::Rfc9309, GEN_ROBOTS, &gzip(&log));

    assert_eq!(report.totals.lines, truth.lines);
    assert_eq!(report.totals.malformed, truth.malformed.len() as u64);
    let first: Vec<u64> = report.malformed.iter().map(|m| m.line).collect();
    assert_eq!(first, truth.malformed[..10]);
    assert_eq!(report.totals.bytes, log.len() as u64);

    let robots: Vec<(&Profile, &Expected)> = PROFILES
        .iter()
        .zip(&truth.clients)
        .filter(|(p, _)| p.robot)
        .collect();
    assert_eq!(report.robots.len(), robots.len());
    for (p, e) in robots {
        let r = robot(&report, p.token, p.address);
        let who = p.ua;
        assert_eq!(r.requests, e.requests, "{who}");
        assert_eq!(r.violations, e.violations, "{who}");
        assert_eq!(r.robots_txt_fetches, e.fetches, "{who}");
        assert_eq!(r.first_robots_txt.map(|t| t.0), e.first_fetch, "{who}");
        assert_eq!((r.first_seen.0, r.last_seen.0), (e.first, e.last), "{who}");
        assert_eq!(
            r.peak_per_minute,
            *e.minutes.values().max().unwrap(),
            "{who}"
        );
        let lines: Vec<u64> = r.examples.iter().map(|v| v.line).collect();
        assert_eq!(lines, e.example_lines, "{who}");
        let mean = e.requests as f64 * 60.0 / ((e.last - e.first).max(60)) as f64;
        assert!((r.mean_per_minute - mean).abs() < 1e-9, "{who}");
    }
    // The planted offenders, worst first.
    assert!(report.robots[0].violations > 0);
    assert_eq!(robot(&report, "Googlebot", "66.249.66.1").violations, 0);

    let humans: Vec<&Expected> = PROFILES
        .iter()
        .zip(&truth.clients)
        .filter(|(p, _)| !p.robot)
        .map(|(_, e)| e)
        .collect();
    assert_eq!(report.humans.clients, humans.len() as u64);
    assert_eq!(
        report.humans.requests,
        humans.iter().map(|e| e.requests).sum::<u64>()
    );
    assert_eq!(
        report.humans.disallowed,
        humans.iter().map(|e| e.violations).sum::<u64>()
    );
}

#[test]
fn clf_date_helper_agrees_with_the_auditor() {
    let mut s = String::new();
    for t in [0, START, 951_782_400 /* 2000-02-29 */, 4_102_444_799] {
        s.clear();
        clf_date(t, &mut s);
        let parsed = norobots_tools::audit::Timestamp::parse_clf(s.as_bytes()).unwrap();
        assert_eq!(parsed.0, t, "{s}");
    }
}

/// A few hundred MB of generated log through the auditor, plain and gzip.
#[test]
#[ignore = "speed test: run by hand with --release -- --ignored --nocapture"]
fn speed_of_a_few_hundred_megabytes() {
    let dir = std::env::temp_dir().join(format!("norobots-audit-speed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let result = std::panic::catch_unwind(|| speed_in(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

fn speed_in(dir: &std::path::Path) {
    let plain = dir.join("access.log");
    let started = std::time::Instant::now();
    {
        let mut w = BufWriter::with_capacity(1 << 20, std::fs::File::create(&plain).unwrap());
        generate(&mut w, 2_000_000, 42, None).unwrap();
        w.flush().unwrap();
    }
    let size = std::fs::metadata(&plain).unwrap().len();
    println!(
        "generated {:.1} MB in {:.2} s",
        size as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );

    let robots = Robots::parse(GEN_ROBOTS.as_bytes());
    let run = |path: &std::path::Path| {
        let file = std::fs::File::open(path).unwrap();
        Auditor::new(&robots, AuditOptions::default())
            .audit_reader(file)
            .unwrap()
    };
    let report = run(&plain);
    let t = &report.totals;
    println!(
        "plain: {} lines, {:.1} MB in {:.3} s = {:.1} MB/s ({} robots, {} malformed)",
        t.lines,
        t.bytes as f64 / 1e6,
        t.elapsed.as_secs_f64(),
        t.mb_per_s(),
        t.robots,
        t.malformed
    );
    assert_eq!(t.bytes, size);

    let gz = dir.join("access.log.gz");
    {
        let mut enc = GzEncoder::new(
            BufWriter::new(std::fs::File::create(&gz).unwrap()),
            Compression::fast(),
        );
        io::copy(&mut std::fs::File::open(&plain).unwrap(), &mut enc).unwrap();
        enc.finish().unwrap().flush().unwrap();
    }
    let report = run(&gz);
    let t = &report.totals;
    println!(
        "gzip: {:.1} MB read, {:.1} MB of log in {:.3} s = {:.1} MB/s of log",
        t.input_bytes as f64 / 1e6,
        t.bytes as f64 / 1e6,
        t.elapsed.as_secs_f64(),
        t.mb_per_s()
    );
    assert_eq!(t.bytes, size);
}

// ---------------------------------------------------------------- terminal

// Whoever sends a request writes its User-Agent and path (and, in some
// logs, the host field): the text report shows them escaped.
#[test]
fn text_report_escapes_what_clients_wrote() {
    let ua = "Evil\u{1b}]0;owned\u{7}Bot/1.0 \u{1b}[2J\u{202e}";
    let host = "h\u{1b}[8m";
    let mut log = String::new();
    for i in 0..3 {
        log += &get(host, i, "/private/\u{1b}[5mx", ua);
    }
    let report = audit(ROBOTS_TXT, &log);
    let evil = robot(&report, "Evil", host);
    assert_eq!(evil.user_agent.as_deref(), Some(ua));
    let text = report.render_text();
    // Nothing a terminal would act on is left to escape.
    assert_eq!(norobots_tools::printable(&text), text);
    assert!(
        text.contains("  user-agent: Evil\\x1b]0;owned\\x07Bot/1.0 \\x1b[2J\\u{202e}\n"),
        "{text}"
    );
    assert!(text.contains(" GET /private/\\x1b[5mx "), "{text}");
    assert!(text.contains("  Evil   h\\x1b[8m\n"), "{text}");
    assert!(text.contains("\nEvil h\\x1b[8m: 3 disallowed"), "{text}");
}

// ---------------------------------------------------------------- json

// The streamed document is the tree's, octet for octet: robots with and
// without violations, examples, malformed lines, no robots at all.
#[test]
fn write_json_streams_what_to_json_builds() {
    let mut log = String::new();
    for i in 0..40 {
        log += &get(&format!("192.0.2.{i}"), i, "/private/x", "FooBot/1.0");
        log += &get("198.51.100.7", i, "/a", &format!("BarBot/{i}"));
        log += "not a log line\n";
    }
    for report in [audit(ROBOTS_TXT, &log), audit(ROBOTS_TXT, "")] {
        let mut streamed = Vec::new();
        report.write_json(&mut streamed).unwrap();
        let tree = serde_json::to_vec_pretty(&report.to_json()).unwrap();
        assert_eq!(
            String::from_utf8(streamed).unwrap(),
            String::from_utf8(tree).unwrap()
        );
    }
}
