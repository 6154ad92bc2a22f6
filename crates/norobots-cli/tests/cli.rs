//! End-to-end tests of the `norobots` binary: the exact output lines, the
//! exit statuses and the error messages that scripts rely on.

use std::io::{Read, Write};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use serde_json::Value;
use tempfile::NamedTempFile;

const BIN: &str = env!("CARGO_BIN_EXE_norobots");

/// A robots file where the 1996 draft (first match) and RFC 9309 (longest
/// match) disagree about `/public/...`.
const ORDER_SENSITIVE: &str = "User-agent: *\nDisallow: /\nAllow: /public\n";

const PRIVATE: &str = "User-agent: *\nDisallow: /private\nAllow: /private/ok\n";

fn norobots() -> Command {
    Command::new(BIN)
}

fn robots_file(body: &[u8]) -> NamedTempFile {
    let mut file = NamedTempFile::new().unwrap();
    file.write_all(body).unwrap();
    file.flush().unwrap();
    file
}

/// Starts `norobots check --robots <file> --agent bot` with its stdin,
/// stdout and stderr piped, for tests that feed it as it runs.
fn spawn_check(file: &NamedTempFile) -> std::process::Child {
    StdCommand::new(BIN)
        .args(["check", "--robots"])
        .arg(file.path())
        .args(["--agent", "bot"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `norobots check --robots <file> --agent bot <extra...>` and returns
/// (stdout, stderr, exit code).
fn check(body: &str, extra: &[&str], stdin: Option<&str>) -> (String, String, i32) {
    let file = robots_file(body.as_bytes());
    let mut cmd = norobots();
    cmd.args(["check", "--robots"])
        .arg(file.path())
        .args(["--agent", "bot"])
        .args(extra);
    if let Some(input) = stdin {
        cmd.write_stdin(input);
    }
    let output = cmd.output().unwrap();
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
        output.status.code().expect("exited normally"),
    )
}

/// Asserts the usage/input error contract: exit 2, nothing on stdout, one
/// line on stderr starting with `norobots: error: `.
fn assert_one_line_error(output: &std::process::Output) -> String {
    assert_eq!(output.status.code(), Some(2), "exit status");
    assert!(output.stdout.is_empty(), "stdout should be empty");
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert!(
        stderr.starts_with("norobots: error: "),
        "stderr: {stderr:?}"
    );
    assert_eq!(stderr.lines().count(), 1, "stderr: {stderr:?}");
    assert!(stderr.ends_with('\n'));
    stderr
}

#[test]
fn allowed_and_disallowed_urls_each_print_one_exact_line() {
    let (stdout, stderr, code) = check(
        PRIVATE,
        &[
            "/public",
            "https://example.com/private/x?y=1",
            "/private/ok",
        ],
        None,
    );
    assert_eq!(
        stdout,
        "allowed\t/public\n\
         disallowed\thttps://example.com/private/x?y=1\n\
         allowed\t/private/ok\n"
    );
    assert_eq!(stderr, "");
    assert_eq!(code, 1);
}

#[test]
fn exit_status_is_0_when_every_url_is_allowed() {
    let (stdout, _, code) = check(PRIVATE, &["/a", "/b"], None);
    assert_eq!(stdout, "allowed\t/a\nallowed\t/b\n");
    assert_eq!(code, 0);
}

#[test]
fn exit_status_is_1_when_any_url_is_disallowed() {
    let (_, _, code) = check(PRIVATE, &["/a", "/private", "/b"], None);
    assert_eq!(code, 1);
}

#[test]
fn exit_status_is_0_for_an_empty_url_list_on_stdin() {
    let (stdout, _, code) = check(PRIVATE, &[], Some(""));
    assert_eq!(stdout, "");
    assert_eq!(code, 0);
}

#[test]
fn explain_appends_the_deciding_rule_with_its_line_number() {
    let (stdout, _, code) = check(
        PRIVATE,
        &["--explain", "/private/x", "/private/ok/y", "/elsewhere"],
        None,
    );
    assert_eq!(
        stdout,
        "disallowed\t/private/x\tline 2: Disallow: /private\n\
         allowed\t/private/ok/y\tline 3: Allow: /private/ok\n\
         allowed\t/elsewhere\tno rule\n"
    );
    assert_eq!(code, 1);
}

#[test]
fn explain_shows_the_pattern_as_written_in_the_file() {
    let body = "# comment\n\nUser-agent: bot\nDisallow: /*.pdf$\n";
    let (stdout, _, _) = check(body, &["--explain", "/docs/a.pdf"], None);
    assert_eq!(
        stdout,
        "disallowed\t/docs/a.pdf\tline 4: Disallow: /*.pdf$\n"
    );
}

#[test]
fn json_prints_one_object_per_url_with_url_allowed_and_rule() {
    let (stdout, _, code) = check(PRIVATE, &["--json", "/private/x", "/other"], None);
    assert_eq!(code, 1);
    let lines: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0],
        serde_json::json!({
            "url": "/private/x",
            "allowed": false,
            "rule": {"line": 2, "kind": "Disallow", "pattern": "/private"}
        })
    );
    assert_eq!(
        lines[1],
        serde_json::json!({"url": "/other", "allowed": true, "rule": null})
    );
}

#[test]
fn json_wins_over_explain() {
    let (with_both, _, _) = check(PRIVATE, &["--json", "--explain", "/private/ok"], None);
    let (json_only, _, _) = check(PRIVATE, &["--json", "/private/ok"], None);
    assert_eq!(with_both, json_only);
    let value: Value = serde_json::from_str(with_both.trim_end()).unwrap();
    assert_eq!(value["rule"]["kind"], "Allow");
    assert_eq!(value["rule"]["line"], 3);
}

#[test]
fn json_escapes_urls_that_need_it() {
    let url = "/a\"b\\c\u{1}";
    let (stdout, _, _) = check(PRIVATE, &["--json", url], None);
    let value: Value = serde_json::from_str(stdout.trim_end()).unwrap();
    assert_eq!(value["url"], url);
}

#[test]
fn missing_robots_file_is_a_one_line_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("x.txt");
    let output = norobots()
        .args(["check", "--robots"])
        .arg(&missing)
        .args(["--agent", "bot", "/a"])
        .output()
        .unwrap();
    let stderr = assert_one_line_error(&output);
    assert!(
        stderr.starts_with(&format!(
            "norobots: error: cannot read robots file `{}`: ",
            missing.display()
        )),
        "stderr: {stderr:?}"
    );
    assert!(stderr.contains("No such file or directory"), "{stderr:?}");
}

#[test]
fn unknown_dialect_is_a_one_line_error_listing_the_dialects() {
    let file = robots_file(b"");
    let output = norobots()
        .args(["check", "--dialect", "foo", "--robots"])
        .arg(file.path())
        .args(["--agent", "bot", "/a"])
        .output()
        .unwrap();
    let stderr = assert_one_line_error(&output);
    assert_eq!(
        stderr,
        "norobots: error: invalid value 'foo' for '--dialect <DIALECT>' [possible values: norobots1994, draft1996, rfc9309, google]\n"
    );
}

#[test]
fn unknown_dialect_is_reported_before_a_missing_file() {
    let output = norobots()
        .args([
            "check",
            "--dialect",
            "foo",
            "--robots",
            "/nonexistent/robots.txt",
        ])
        .args(["--agent", "bot", "/a"])
        .output()
        .unwrap();
    let stderr = assert_one_line_error(&output);
    assert!(
        stderr.contains("invalid value 'foo' for '--dialect"),
        "{stderr:?}"
    );
}

#[test]
fn missing_agent_is_a_one_line_usage_error_naming_the_option() {
    let file = robots_file(b"");
    let output = norobots()
        .args(["check", "--robots"])
        .arg(file.path())
        .arg("/a")
        .output()
        .unwrap();
    let stderr = assert_one_line_error(&output);
    assert!(stderr.contains("--agent"), "{stderr:?}");
}

#[test]
fn without_robots_a_bare_path_is_a_one_line_error_naming_it_and_the_option() {
    let output = norobots()
        .args(["check", "--agent", "bot", "/a"])
        .output()
        .unwrap();
    let stderr = assert_one_line_error(&output);
    assert!(
        stderr.contains("URL argument 1: bad URL `/a`"),
        "{stderr:?}"
    );
    assert!(stderr.contains("--robots"), "{stderr:?}");
    assert!(output.stdout.is_empty());
}

#[test]
fn unknown_option_is_a_one_line_usage_error() {
    let output = norobots()
        .args([
            "check",
            "--robots",
            "-",
            "--agent",
            "bot",
            "--frobnicate",
            "/a",
        ])
        .output()
        .unwrap();
    let stderr = assert_one_line_error(&output);
    assert!(stderr.contains("--frobnicate"), "{stderr:?}");
}

#[test]
fn missing_subcommand_is_a_one_line_usage_error() {
    let output = norobots().output().unwrap();
    assert_one_line_error(&output);
}

#[test]
fn stdin_urls_with_crlf_line_endings_are_stripped() {
    let (stdout, _, code) = check(
        PRIVATE,
        &["--explain"],
        Some("/private/x\r\n/public\r\n/private/ok\n/last"),
    );
    assert_eq!(
        stdout,
        "disallowed\t/private/x\tline 2: Disallow: /private\n\
         allowed\t/public\tno rule\n\
         allowed\t/private/ok\tline 3: Allow: /private/ok\n\
         allowed\t/last\tno rule\n"
    );
    assert_eq!(code, 1);
}

// A URL that is not UTF-8 (a Latin-1 log line) is decided on its octets
// and echoed as given: `\xE9` is `%E9` to rfc9309 (RFC 9309 2.2.2), which
// U+FFFD would not be.
#[test]
fn stdin_urls_that_are_not_utf8_are_decided_and_echoed_as_given() {
    let file = robots_file(b"User-agent: *\nDisallow: /caf%E9\nDisallow: /private\n");
    let output = norobots()
        .args(["check", "--robots"])
        .arg(file.path())
        .args(["--agent", "bot"])
        .write_stdin(&b"/caf\xe9\n/caf\xc3\xa9\n/private/\xff\n"[..])
        .output()
        .unwrap();
    assert_eq!(
        output.stdout,
        b"disallowed\t/caf\xe9\nallowed\t/caf\xc3\xa9\ndisallowed\t/private/\xff\n"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn robots_file_can_come_from_stdin_with_url_arguments() {
    let output = norobots()
        .args(["check", "--robots", "-", "--agent", "bot", "--explain"])
        .args(["/private/x", "/public"])
        .write_stdin(PRIVATE)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "disallowed\t/private/x\tline 2: Disallow: /private\n\
         allowed\t/public\tno rule\n"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn robots_and_urls_both_from_stdin_is_a_usage_error() {
    let output = norobots()
        .args(["check", "--robots", "-", "--agent", "bot"])
        .write_stdin(PRIVATE)
        .output()
        .unwrap();
    let stderr = assert_one_line_error(&output);
    assert!(stderr.contains("--robots -"), "{stderr:?}");
}

#[test]
fn robots_file_that_is_not_utf8_is_still_read() {
    let file = robots_file(b"User-agent: *\nDisallow: /caf\xe9\nDisallow: /private\n");
    let output = norobots()
        .args(["check", "--robots"])
        .arg(file.path())
        .args(["--agent", "bot", "/private/x", "/ok"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "disallowed\t/private/x\nallowed\t/ok\n"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn draft1996_first_match_disallows_where_rfc9309_longest_match_allows() {
    let draft = check(
        ORDER_SENSITIVE,
        &["--dialect", "draft1996", "--explain", "/public/a"],
        None,
    );
    assert_eq!(draft.0, "disallowed\t/public/a\tline 2: Disallow: /\n");
    assert_eq!(draft.2, 1);

    let rfc = check(
        ORDER_SENSITIVE,
        &["--dialect", "rfc9309", "--explain", "/public/a"],
        None,
    );
    assert_eq!(rfc.0, "allowed\t/public/a\tline 3: Allow: /public\n");
    assert_eq!(rfc.2, 0);
}

#[test]
fn default_dialect_is_rfc9309() {
    let default = check(ORDER_SENSITIVE, &["/public/a"], None);
    let rfc = check(
        ORDER_SENSITIVE,
        &["--dialect", "rfc9309", "/public/a"],
        None,
    );
    assert_eq!(default, rfc);
}

#[test]
fn every_dialect_name_is_accepted() {
    for dialect in norobots::Dialect::ALL {
        let (stdout, stderr, code) =
            check(PRIVATE, &["--dialect", dialect.name(), "/public"], None);
        assert_eq!(stdout, "allowed\t/public\n", "{dialect}: {stderr}");
        assert_eq!(code, 0, "{dialect}");
    }
}

#[test]
fn streams_200000_urls_from_stdin_into_200000_lines() {
    const COUNT: usize = 200_000;
    let mut input = String::with_capacity(COUNT * 16);
    for i in 0..COUNT {
        let dir = if i % 2 == 0 { "public" } else { "private" };
        input.push_str(&format!("/{dir}/{i}\n"));
    }
    let (stdout, stderr, code) = check(PRIVATE, &[], Some(&input));
    assert_eq!(stderr, "");
    assert_eq!(code, 1);
    assert_eq!(stdout.lines().count(), COUNT);
    let mut lines = stdout.lines();
    assert_eq!(lines.next(), Some("allowed\t/public/0"));
    assert_eq!(lines.next(), Some("disallowed\t/private/1"));
    assert_eq!(
        stdout.lines().last(),
        Some(format!("disallowed\t/private/{}", COUNT - 1).as_str())
    );
}

#[test]
fn closed_stdout_ends_the_run_quietly() {
    let file = robots_file(PRIVATE.as_bytes());
    let mut child = spawn_check(&file);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // Plenty more than any pipe buffer, so the child must hit the closed
        // pipe; our own write fails once the child has gone, which is fine.
        let line = b"/private/a\n".repeat(10_000);
        for _ in 0..100 {
            if stdin.write_all(&line).is_err() {
                break;
            }
        }
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 11];
    stdout.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"disallowed\t");
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    writer.join().unwrap();
    assert_eq!(stderr, "");
    assert_eq!(status.code(), Some(1));
}

#[test]
fn check_help_documents_options_dialects_and_exit_statuses() {
    let output = norobots().args(["check", "--help"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let help = String::from_utf8(output.stdout).unwrap();
    for needle in [
        "--dialect",
        "--robots",
        "--agent",
        "--explain",
        "--json",
        "[URL]...",
        "Exit status",
        "at least one URL is disallowed",
    ] {
        assert!(help.contains(needle), "missing {needle:?} in:\n{help}");
    }
    for dialect in norobots::Dialect::ALL {
        assert!(
            help.contains(dialect.name()),
            "missing {dialect} in:\n{help}"
        );
    }
}

#[test]
fn top_level_help_documents_subcommands_and_exit_statuses() {
    let output = norobots().arg("--help").output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let help = String::from_utf8(output.stdout).unwrap();
    for needle in ["check", "parse", "Exit status"] {
        assert!(help.contains(needle), "missing {needle:?} in:\n{help}");
    }
    for dialect in norobots::Dialect::ALL {
        assert!(
            help.contains(dialect.name()),
            "missing {dialect} in:\n{help}"
        );
    }
}

#[test]
fn parse_dumps_groups_with_rule_lines_and_sitemaps() {
    let file = robots_file(
        b"User-agent: a\nUser-agent: b\nDisallow: /x\n\nSitemap: https://example.com/s.xml\n",
    );
    let output = norobots()
        .args(["parse"])
        .arg(file.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("dialect: rfc9309\n"), "{text}");
    assert!(
        text.contains("group (line 1): a, b\n  line 3: Disallow: /x\n"),
        "{text}"
    );
    assert!(
        text.contains("sitemap (line 5): https://example.com/s.xml\n"),
        "{text}"
    );
}

#[test]
fn parse_json_is_one_document_in_the_requested_dialect() {
    let output = norobots()
        .args(["parse", "--json", "--dialect", "draft1996", "--robots", "-"])
        .write_stdin(ORDER_SENSITIVE)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["dialect"], "draft1996");
    assert_eq!(value["groups"][0]["agents"], serde_json::json!(["*"]));
    assert_eq!(
        value["groups"][0]["rules"][1],
        serde_json::json!({"line": 3, "kind": "Allow", "pattern": "/public"})
    );
}

#[test]
fn parse_missing_file_is_a_one_line_error_naming_the_file() {
    let output = norobots()
        .args(["parse", "/nonexistent/robots.txt"])
        .output()
        .unwrap();
    let stderr = assert_one_line_error(&output);
    assert!(
        stderr.contains("cannot read robots file `/nonexistent/robots.txt`"),
        "{stderr:?}"
    );
}

#[cfg(unix)]
#[test]
fn url_arguments_that_are_not_utf8_are_decided_and_echoed_like_stdin() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let file = robots_file(b"User-agent: *\nDisallow: /caf%E9\n");
    let output = norobots()
        .args(["check", "--robots"])
        .arg(file.path())
        .args(["--agent", "bot", "--explain"])
        .arg(OsStr::from_bytes(b"/caf\xe9"))
        .output()
        .unwrap();
    assert_eq!(
        output.stdout,
        b"disallowed\t/caf\xe9\tline 2: Disallow: /caf%E9\n"
    );
    assert_eq!(output.status.code(), Some(1));
}

// `parse` and `check --explain` quote the file, which may be a stranger's:
// what a terminal would obey is escaped. The caller's URL is echoed as given.
#[test]
fn parse_and_explain_escape_what_the_file_wrote() {
    let body = "User-agent: *\nDisallow: /x\u{202e}y\nSitemap: http://x.test/\x1b]0;owned\x07\nFoo\x1b[2J: bar\n";
    let file = robots_file(body.as_bytes());
    let out = norobots()
        .args(["parse", "--robots"])
        .arg(file.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // Nothing a terminal would act on is left to escape.
    assert_eq!(norobots_tools::printable(&text), text);
    assert_eq!(
        text,
        "dialect: rfc9309\ngroup (line 1): *\n  line 2: Disallow: /x\\u{202e}y\n\
         sitemap (line 3): http://x.test/\\x1b]0;owned\\x07\n\
         other field (line 4): Foo\\x1b[2J: bar\ndiagnostic: line 4: unknown field\n"
    );
    let json = norobots()
        .args(["parse", "--json", "--robots"])
        .arg(file.path())
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["sitemaps"][0]["value"], "http://x.test/\x1b]0;owned\x07");
    let (out, _, code) = check(body, &["--explain", "/x%E2%80%AEy", "/x\u{202e}y"], None);
    assert_eq!(
        out,
        "disallowed\t/x%E2%80%AEy\tline 2: Disallow: /x\\u{202e}y\n\
         disallowed\t/x\u{202e}y\tline 2: Disallow: /x\\u{202e}y\n"
    );
    assert_eq!(code, 1);
}

// An endless robots file (a device, a pipe from a server that never stops)
// ends in a one-line error once it passes 64 MiB, instead of taking all
// memory; a file within the bound is read whole.
#[cfg(unix)]
#[test]
fn an_endless_robots_file_is_an_error_not_all_memory() {
    let zero = || std::fs::File::open("/dev/zero").unwrap();
    for (args, stdin) in [
        (
            &["check", "--robots", "/dev/zero", "--agent", "bot", "/a"][..],
            None,
        ),
        (
            &["check", "--robots", "-", "--agent", "bot", "/a"][..],
            Some(zero()),
        ),
        (&["lint", "/dev/zero"][..], None),
    ] {
        let mut cmd = StdCommand::new(BIN);
        cmd.args(args);
        if let Some(file) = stdin {
            cmd.stdin(file);
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.starts_with("norobots: error: cannot read robots file "),
            "{err}"
        );
        assert!(
            err.ends_with(": larger than 64 MiB, the most norobots reads\n"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1);
        assert!(out.stdout.is_empty());
    }
    let mut big = b"User-agent: *\nDisallow: /a\n#".to_vec();
    big.resize(64 << 20, b'x');
    let file = robots_file(&big);
    let out = norobots()
        .args(["check", "--agent", "bot", "--robots"])
        .arg(file.path())
        .arg("/a")
        .output()
        .unwrap();
    assert_eq!(out.stdout, b"disallowed\t/a\n");
    assert_eq!(out.status.code(), Some(1));
}

// A URL line without end, after good ones: their verdicts, then one line
// naming the line that broke, exit 2; memory stays bounded.
#[cfg(unix)]
#[test]
fn an_endless_url_line_is_an_error_naming_it() {
    let file = robots_file(PRIVATE.as_bytes());
    let mut child = spawn_check(&file);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin.write_all(b"/a\n/private\n").unwrap();
        let block = vec![b'x'; 1 << 20];
        // Until the reader gives up (a broken pipe), or far past the bound.
        for _ in 0..1024 {
            if stdin.write_all(&block).is_err() {
                return;
            }
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stdout, b"allowed\t/a\ndisallowed\t/private\n");
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "norobots: error: cannot read URLs from stdin: line 3: longer than 64 MiB, the most norobots reads\n"
    );
}

#[test]
fn dialect_names_are_read_without_regard_to_case() {
    let file = robots_file(b"User-agent: *\nDisallow: /a\n");
    let output = norobots()
        .args(["check", "--dialect", "Draft1996", "--robots"])
        .arg(file.path())
        .args(["--agent", "bot", "/a"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "disallowed\t/a\n");
}
