//! `norobots audit`: robots in an access log and what they were forbidden.

use std::ffi::OsStr;
use std::io::Write;
use std::process::Output;

use assert_cmd::Command;
use tempfile::NamedTempFile;

const BIN: &str = env!("CARGO_BIN_EXE_norobots");

const ROBOTS: &str = "User-agent: Googlebot\nDisallow: /private\n\nUser-agent: *\nDisallow: /private\nDisallow: /tmp\n";

const LOG: &str = r#"66.249.66.1 - - [22/Nov/2026:06:25:01 +0000] "GET /robots.txt HTTP/1.1" 200 80 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
66.249.66.1 - - [22/Nov/2026:06:25:03 +0000] "GET /tmp/index.html HTTP/1.1" 200 5120 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
203.0.113.66 - - [22/Nov/2026:06:26:10 +0000] "GET /private/plans.html HTTP/1.1" 200 900 "-" "BadBot/6.6"
not a log line
"#;

/// Runs `norobots audit [extra...] --robots ROBOTS LOG`.
fn audit(extra: &[&str], robots: &NamedTempFile, log: impl AsRef<OsStr>) -> Output {
    Command::new(BIN)
        .arg("audit")
        .args(extra)
        .arg("--robots")
        .arg(robots.path())
        .arg(log)
        .output()
        .unwrap()
}

fn file(body: &[u8]) -> NamedTempFile {
    let mut f = NamedTempFile::new().unwrap();
    f.write_all(body).unwrap();
    f
}

#[test]
fn the_offender_comes_first_and_the_exit_status_is_1() {
    let robots = file(ROBOTS.as_bytes());
    let log = file(LOG.as_bytes());
    let out = audit(&[], &robots, log.path());
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("lines: 4  parsed: 3  malformed: 1  robots: 2"),
        "{text}"
    );
    let table: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("203.0.113.66") || l.contains("66.249.66.1"))
        .collect();
    // BadBot broke a rule; Googlebot's own group allows /tmp.
    assert!(
        table[0].trim_start().starts_with("1 ") && table[0].contains("BadBot"),
        "{text}"
    );
    assert!(
        table[1].trim_start().starts_with("0 ") && table[1].contains("Googlebot"),
        "{text}"
    );
    assert!(
        text.contains("GET /private/plans.html  (line 5: Disallow: /private)"),
        "{text}"
    );
}

#[test]
fn gzip_logs_and_json_output() {
    let robots = file(ROBOTS.as_bytes());
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(LOG.as_bytes()).unwrap();
    let log = file(&gz.finish().unwrap());
    let out = audit(&["--json"], &robots, log.path());
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["totals"]["malformed"], 1);
    assert_eq!(v["robots"][0]["token"], "BadBot");
    assert_eq!(v["robots"][0]["violations"], 1);
}

#[test]
fn a_missing_log_is_a_one_line_error() {
    let robots = file(ROBOTS.as_bytes());
    let out = audit(&[], &robots, "no-such.log");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("norobots: error: cannot read log `no-such.log`"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    assert!(out.stdout.is_empty());
}

/// The shop's log of `examples/site/`, gzipped.
fn site_log_gz() -> Vec<u8> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/site");
    let log = std::fs::read(root.join("access.log")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&log).unwrap();
    gz.finish().unwrap()
}

// A log cut short still holds most of its lines: the report covers them,
// a one-line warning says where the log ends, and the exit status is the
// report's.
#[test]
fn a_gzip_log_cut_short_is_reported_then_warned_about() {
    let robots = file(ROBOTS.as_bytes());
    let packed = site_log_gz();
    let whole = file(&packed);
    let whole_out = audit(&["--json"], &robots, whole.path());
    assert!(whole_out.stderr.is_empty());
    let all: serde_json::Value = serde_json::from_slice(&whole_out.stdout).unwrap();
    assert!(all["cut_short"].is_null());
    // Cut inside the last lines' compressed data.
    let cut = file(&packed[..packed.len() - 40]);
    let out = audit(&["--json"], &robots, cut.path());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let line = v["cut_short"]["line"].as_u64().expect("cut_short.line");
    assert!(line > 1 && line <= 10, "{v}");
    assert_eq!(v["totals"]["lines"], line - 1);
    assert!(v["totals"]["lines"].as_u64() < all["totals"]["lines"].as_u64());
    let violated = v["robots"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["violations"].as_u64() > Some(0));
    assert_eq!(out.status.code(), Some(i32::from(violated)));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        format!(
            "norobots: warning: log `{}` is cut short: the gzip stream ends in line {line}, after {} octets of log text; the report covers the lines before it\n",
            cut.path().display(),
            v["cut_short"]["text_offset"]
        )
    );
    // The text report says it too.
    let out = audit(&[], &robots, cut.path());
    assert_eq!(out.status.code(), Some(i32::from(violated)));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(&format!("lines: {}  ", line - 1)),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "\ncut short: the gzip stream ends in line {line}, "
        )),
        "{text}"
    );
    assert_eq!(String::from_utf8(out.stderr).unwrap().lines().count(), 1);
}

// A stream that is corrupt, not cut short, cannot be trusted: no report.
#[test]
fn a_corrupt_gzip_log_is_a_one_line_error_naming_file_and_line() {
    let robots = file(ROBOTS.as_bytes());
    let mut packed = site_log_gz();
    let middle = packed.len() / 2;
    for b in &mut packed[middle..middle + 16] {
        *b = !*b;
    }
    let log = file(&packed);
    let out = audit(&[], &robots, log.path());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    let head = format!(
        "norobots: error: cannot read log `{}`: line ",
        log.path().display()
    );
    assert!(err.starts_with(&head), "{err}");
    assert_eq!(err.lines().count(), 1);
    assert!(out.stdout.is_empty());
}
