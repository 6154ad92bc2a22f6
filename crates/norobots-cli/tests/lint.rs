//! `norobots lint`: rustc-style findings, JSON, exit status.

use std::io::Write;

use assert_cmd::Command;
use tempfile::NamedTempFile;

const BIN: &str = env!("CARGO_BIN_EXE_norobots");

fn file(body: &str) -> NamedTempFile {
    let mut f = NamedTempFile::new().unwrap();
    f.write_all(body.as_bytes()).unwrap();
    f
}

#[test]
fn errors_print_rustc_style_and_exit_1() {
    let f = file("User-agent: *\nDisallow: tmp/\n");
    let out = Command::new(BIN)
        .arg("lint")
        .arg(f.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let name = f.path().display().to_string();
    assert!(
        text.starts_with(&format!("{name}:2:11: error[invalid-path]: ")),
        "{text}"
    );
    assert!(text.contains("  = help: write `Disallow: /tmp/`"), "{text}");
    assert!(
        text.ends_with(&format!("{name}: 1 error, 0 warnings, 0 infos\n")),
        "{text}"
    );
}

#[test]
fn a_clean_file_exits_0_and_json_lists_findings() {
    let f = file("User-agent: *\nDisallow: /private/\n");
    let out = Command::new(BIN)
        .args(["lint", "--json"])
        .arg(f.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["summary"]["errors"], 0);
    assert_eq!(v["findings"].as_array().unwrap().len(), 0);
}

#[test]
fn divergence_can_be_turned_off() {
    let body = "User-agent: *\nDisallow: /a /b\n";
    let with = Command::new(BIN)
        .args(["lint", "-"])
        .write_stdin(body)
        .output()
        .unwrap();
    assert!(String::from_utf8(with.stdout)
        .unwrap()
        .contains("dialect-divergence"));
    let without = Command::new(BIN)
        .args(["lint", "--no-divergence", "-"])
        .write_stdin(body)
        .output()
        .unwrap();
    let text = String::from_utf8(without.stdout).unwrap();
    assert!(!text.contains("dialect-divergence"), "{text}");
    assert!(
        text.contains("<stdin>:2:14: warning[several-values]"),
        "{text}"
    );
}

// `check` applies the group after the mark; `lint` must read it the same.
#[test]
fn a_byte_order_mark_gets_its_note_and_nothing_else() {
    for body in [
        "\u{feff}User-agent: *\nDisallow: /private\n",
        "\u{feff}# comment\nUser-agent: *\nDisallow: /private\n",
    ] {
        let f = file(body);
        let out = Command::new(BIN)
            .arg("lint")
            .arg(f.path())
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let name = f.path().display().to_string();
        assert_eq!(out.status.code(), Some(0), "{text}");
        assert!(
            text.starts_with(&format!("{name}:1:1: warning[byte-order-mark]: ")),
            "{text}"
        );
        assert!(
            text.ends_with(&format!("{name}: 0 errors, 1 warning, 0 infos\n")),
            "{text}"
        );
    }
}

/// A file with `n` rules that a 1996 robot reads as literal `*`.
fn wildcards(n: usize) -> String {
    let mut body = String::from("User-agent: *\n");
    for i in 0..n {
        body.push_str(&format!("Disallow: /*.ext{i}$\n"));
    }
    body
}

#[test]
fn divergence_is_shown_once_per_kind_unless_all_are_asked_for() {
    let f = file(&wildcards(40));
    let name = f.path().display().to_string();
    let summary = format!("{name}: 0 errors, 40 warnings, 0 infos\n");
    let folded = Command::new(BIN)
        .arg("lint")
        .arg(f.path())
        .output()
        .unwrap();
    let text = String::from_utf8(folded.stdout).unwrap();
    assert_eq!(
        text.matches("warning[dialect-divergence]").count(),
        1,
        "{text}"
    );
    assert!(
        text.contains("  = note: 39 more `wildcard` divergences, on lines 3-41\n"),
        "{text}"
    );
    assert!(text.ends_with(&summary), "{text}");
    let all = Command::new(BIN)
        .args(["lint", "--all-divergence"])
        .arg(f.path())
        .output()
        .unwrap();
    let text = String::from_utf8(all.stdout).unwrap();
    assert_eq!(text.matches("warning[dialect-divergence]").count(), 40);
    assert!(text.ends_with(&summary), "{text}");
    // JSON lists every finding, each with its kind.
    let json = Command::new(BIN)
        .args(["lint", "--json"])
        .arg(f.path())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let findings = v["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 40);
    assert!(findings.iter().all(|f| f["example"]["kind"] == "wildcard"));
}
