//! What a new user tripped on (issue 47) with `check`: how the agent is
//! read, and inputs that are not URLs. Each test failed before the fix.

use std::io::Write;

use assert_cmd::Command;
use tempfile::NamedTempFile;

const BIN: &str = env!("CARGO_BIN_EXE_norobots");

fn robots_file(body: &str) -> NamedTempFile {
    let mut file = NamedTempFile::new().unwrap();
    file.write_all(body.as_bytes()).unwrap();
    file
}

/// (stdout, stderr, exit code) of `norobots check --robots FILE ARGS…`.
fn check(body: &str, args: &[&str], stdin: Option<&str>) -> (String, String, i32) {
    let file = robots_file(body);
    let mut cmd = Command::new(BIN);
    cmd.args(["check", "--robots"]).arg(file.path()).args(args);
    if let Some(input) = stdin {
        cmd.write_stdin(input);
    }
    let out = cmd.output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

/// The shape of github.com's file: a group for Googlebot, and `*` shut out.
const GOOGLEBOT_OPEN: &str = "User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n";
const GOOGLEBOT_UA: &str =
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

// Item 2: the header was read as `Mozilla` and got the `*` group.
#[test]
fn a_full_user_agent_header_selects_its_robots_group_and_says_which_token() {
    let (out, err, code) = check(
        GOOGLEBOT_OPEN,
        &["--agent", GOOGLEBOT_UA, "https://github.com/foo"],
        None,
    );
    assert_eq!(out, "allowed\thttps://github.com/foo\n");
    assert_eq!(
        err,
        "norobots: note: matching User-agent lines against the product token `Googlebot`\n"
    );
    assert_eq!(code, 0);
    // Typed as the token, nothing to say.
    let (_, err, _) = check(GOOGLEBOT_OPEN, &["--agent", "Googlebot", "/"], None);
    assert_eq!(err, "");
}

#[test]
fn the_legacy_dialects_keep_their_substring_reading() {
    let body = "User-agent: figtree\nDisallow: /tmp\n\nUser-agent: *\nDisallow: /\n";
    let (out, err, _) = check(
        body,
        &[
            "--dialect",
            "draft1996",
            "--agent",
            "FigTree/0.1 Robot libwww-perl/5.04",
            "/a",
            "/tmp/x",
        ],
        None,
    );
    assert_eq!(out, "allowed\t/a\ndisallowed\t/tmp/x\n");
    assert!(err.contains("draft1996 matches `FigTree`"), "{err}");
}

// Item 3: bit-exact with the reference (the `*` group), but said.
#[test]
fn google_warns_that_googlebot_2_1_is_not_a_token_it_can_match() {
    let (out, err, code) = check(
        GOOGLEBOT_OPEN,
        &[
            "--dialect",
            "google",
            "--agent",
            "Googlebot/2.1",
            "https://github.com/foo",
        ],
        None,
    );
    assert_eq!(out, "disallowed\thttps://github.com/foo\n");
    assert_eq!(code, 1);
    assert!(err.starts_with("norobots: warning: `Googlebot/2.1` is not a product token the google dialect can match"), "{err}");
    assert!(
        err.trim_end()
            .ends_with("pass `Googlebot` to match its groups"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

// Item 6: all four were answered `allowed`, exit 0.
#[test]
fn arguments_that_are_not_urls_are_named_and_the_others_answered() {
    let (out, err, code) = check(
        "User-agent: *\nDisallow: /x\n",
        &[
            "--agent",
            "X",
            "not a url",
            "http://",
            "/x",
            "",
            "admin/",
            "https://h/ok",
        ],
        None,
    );
    assert_eq!(out, "disallowed\t/x\nallowed\thttps://h/ok\n");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "{err}");
    assert!(
        lines[0].starts_with("norobots: error: URL argument 1: `not a url`"),
        "{err}"
    );
    assert_eq!(
        lines[1],
        "norobots: error: URL argument 2: `http://` is a URL without a host"
    );
    assert_eq!(
        lines[2],
        "norobots: error: URL argument 4: empty, not a URL or a path"
    );
    assert!(
        lines[3].starts_with("norobots: error: URL argument 5: `admin/`"),
        "{err}"
    );
    assert_eq!(code, 2);
}

#[test]
fn a_blank_stdin_line_is_named_by_its_number() {
    let (out, err, code) = check(
        "User-agent: *\nDisallow: /x\n",
        &["--agent", "X", "--explain"],
        Some("/a\n\n/x\n"),
    );
    assert_eq!(
        out,
        "allowed\t/a\tno rule\ndisallowed\t/x\tline 2: Disallow: /x\n"
    );
    assert_eq!(
        err,
        "norobots: error: stdin line 2: empty, not a URL or a path\n"
    );
    assert_eq!(code, 2);
}

// Item 6: an empty agent is valid input (it matches no named group), but said.
#[test]
fn an_empty_agent_is_answered_with_a_warning() {
    let (out, err, code) = check(
        "User-agent: *\nDisallow: /x\n",
        &["--agent", "", "/x"],
        None,
    );
    assert_eq!(out, "disallowed\t/x\n");
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "norobots: warning: the agent is empty: it matches no named group, only `*` groups\n"
    );
}

/// (stdout, stderr, exit code) of `norobots ARGS…`.
fn run(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

// Item 10: the 309-digit echo of the number clap had parsed.
#[test]
fn a_timeout_too_large_says_so_with_what_was_typed() {
    let (out, err, code) = run(&[
        "check",
        "--timeout",
        "1e308",
        "--agent",
        "x",
        "http://127.0.0.1:9/",
    ]);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "norobots: error: invalid value '1e308' for '--timeout <SECONDS>': too large (at most 86400 seconds, a day)\n"
    );
    assert_eq!(code, 2);
}

// Item 10: 2.6 MB of "other field" and no word that the body is binary; a
// UTF-16 file was not recognised at all; only the first line with octets
// that are not UTF-8 was reported.
#[test]
fn parse_says_a_body_is_binary_or_utf16_and_counts_its_noise() {
    // Deterministic "random" octets: a xorshift stream.
    let mut x: u32 = 2463534242;
    let noise: Vec<u8> = (0..2_000_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    let file = robots_file_bytes(&noise);
    let (out, _, code) = run(&["parse", file.path().to_str().unwrap()]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[1],
        "body: binary data, not robots.txt text; what a robot reads in it follows"
    );
    assert!(out.len() < 2_000, "{} octets of output", out.len());
    assert!(
        out.contains("diagnostic: octets that are not UTF-8: on "),
        "{out}"
    );

    let utf16: Vec<u8> = "User-agent: *\r\nDisallow: /private/\r\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let file = robots_file_bytes(&utf16);
    let (out, _, _) = run(&["parse", file.path().to_str().unwrap(), "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["body_not_text"], "utf-16le");

    let file = robots_file_bytes(b"User-agent: *\nDisallow: /\xff\nAllow: /ok\nAllow: /\xfe\n");
    let (out, _, _) = run(&["parse", file.path().to_str().unwrap()]);
    assert!(
        out.contains("diagnostic: line 2: octets that are not UTF-8\n"),
        "{out}"
    );
    assert!(
        out.contains("diagnostic: line 4: octets that are not UTF-8\n"),
        "{out}"
    );
    assert!(!out.contains("body:"), "{out}");
}

fn robots_file_bytes(body: &[u8]) -> NamedTempFile {
    let mut file = NamedTempFile::new().unwrap();
    file.write_all(body).unwrap();
    file
}

// Item 9: one spelling per idea; the old ones still work, hidden.
#[test]
fn one_cli_convention_with_the_old_spellings_kept() {
    let file = robots_file("User-agent: *\nDisallow: /private\n");
    let path = file.path().to_str().unwrap();
    assert_eq!(run(&["parse", path]), run(&["parse", "--robots", path]));
    let (_, err, code) = run(&["parse", path, "--robots", path]);
    assert_eq!(code, 2, "{err}");
    let (json, _, _) = run(&["lint", "--json", path]);
    assert_eq!(run(&["lint", "--format", "json", path]).0, json);
    assert!(serde_json::from_str::<serde_json::Value>(&json).is_ok());
    for cmd in ["parse", "lint", "audit"] {
        let (help, _, _) = run(&[cmd, "--help"]);
        assert!(help.contains("--json"), "{cmd}: {help}");
        assert!(!help.contains("--format"), "{cmd}: {help}");
        assert!(
            !help.contains("--robots <FILE>") || cmd == "audit",
            "{cmd}: {help}"
        );
    }
    let (help, _, _) = run(&["fetch", "--help"]);
    assert!(help.contains("--json"), "{help}");
}

// Item 9: the rule is one shape in check's and audit's JSON.
#[test]
fn audit_json_gives_the_rule_as_check_does() {
    let robots = robots_file("User-agent: *\nDisallow: /private/\n");
    let log = robots_file(
        "192.0.2.1 - - [22/Nov/2026:06:26:10 +0000] \"GET /private/x HTTP/1.1\" 200 5 \"-\" \"BadBot/1.0\"\n",
    );
    let (out, _, code) = run(&[
        "audit",
        "--json",
        "--robots",
        robots.path().to_str().unwrap(),
        log.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let audit_rule = &doc["robots"][0]["examples"][0]["rule"];
    let (out, _, _) = check(
        "User-agent: *\nDisallow: /private/\n",
        &["--agent", "BadBot", "--json", "/private/x"],
        None,
    );
    let check_rule = &serde_json::from_str::<serde_json::Value>(&out).unwrap()["rule"];
    assert_eq!(audit_rule, check_rule);
    assert_eq!(
        doc["robots"][0]["examples"][0]["time"],
        "2026-11-22T06:26:10Z"
    );
}
