//! `norobots meta`: a page's directives for one robot.

use assert_cmd::Command;

const BIN: &str = env!("CARGO_BIN_EXE_norobots");

#[test]
fn the_agents_own_tag_and_headers_combine_restrictively() {
    let page = r#"<html><head><meta name="robots" content="index, follow"><META NAME="examplebot" CONTENT="NOINDEX"></head>
<body><a href="/a">a</a><a rel="nofollow" href="/b">b</a></body></html>"#;
    let out = Command::new(BIN)
        .args([
            "meta",
            "--agent",
            "ExampleBot/1.0",
            "--header",
            "otherbot: nofollow",
            "--json",
            "-",
        ])
        .write_stdin(page)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["index"], false);
    assert_eq!(v["follow"], true);
    assert_eq!(v["links"][0]["follow"], true);
    assert_eq!(v["links"][1]["nofollow"], true);
    assert_eq!(v["links"][1]["follow"], false);
}

#[test]
fn a_missing_page_is_a_one_line_error() {
    let out = Command::new(BIN)
        .args(["meta", "no-such-page.html"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("norobots: error: cannot read page `no-such-page.html`"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    assert!(out.stdout.is_empty());
}

// A page's directives and links are the page author's: escaped in text.
#[test]
fn text_output_escapes_what_the_page_wrote() {
    let page = "<meta name=\"robots\" content=\"noindex, x\x1b[2Jy\"><a rel=nofollow href=\"/\x1b]0;t\x07\">a</a>";
    let out = Command::new(BIN)
        .args(["meta", "--agent", "bot", "-"])
        .write_stdin(page)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(norobots_tools::printable(&text), text);
    assert!(text.contains("other        x\\x1b[2Jy\n"), "{text}");
}
