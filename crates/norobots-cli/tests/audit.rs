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
    let out = audit(&["--format", "json"], &robots, log.path());
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

#[test]
fn a_gzip_log_cut_short_is_a_one_line_error_naming_file_and_line() {
    let robots = file(ROBOTS.as_bytes());
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    for _ in 0..5_000 {
        gz.write_all(LOG.as_bytes()).unwrap();
    }
    let packed = gz.finish().unwrap();
    let log = file(&packed[..packed.len() / 2]);
    let out = audit(&[], &robots, log.path());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    let head = format!(
        "norobots: error: cannot read log `{}`: line ",
        log.path().display()
    );
    assert!(err.starts_with(&head), "{err}");
    assert!(
        err.trim_end().ends_with(": incomplete deflate stream"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    // No half report: the log's first lines were read, but nothing printed.
    assert!(out.stdout.is_empty());
}
