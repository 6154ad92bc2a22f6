//! norobots-tools' README shows the site-owner tools' output on
//! `examples/site/`; it must be what they print today.

use assert_cmd::Command;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The block the README shows after `$ <command line>`.
fn shown(command_line: &str) -> String {
    let readme = std::fs::read_to_string(root().join("crates/norobots-tools/README.md")).unwrap();
    let marker = format!("$ {command_line}\n");
    let start = readme
        .find(&marker)
        .unwrap_or_else(|| panic!("README shows `{command_line}`"))
        + marker.len();
    let block = &readme[start..];
    block[..block.find("```").unwrap()].to_string()
}

fn run(command_line: &str) -> String {
    let args: Vec<&str> = command_line.split_whitespace().skip(1).collect();
    let out = Command::cargo_bin("norobots")
        .unwrap()
        .current_dir(root())
        .args(&args)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn readme_lint_output_is_current() {
    let line = "norobots lint examples/site/robots.txt";
    assert_eq!(run(line), shown(line));
}

#[test]
fn readme_meta_output_is_current() {
    let line = "norobots meta --agent Googlebot --header noarchive examples/site/page.html";
    assert_eq!(run(line), shown(line));
}

#[test]
fn readme_audit_output_is_current_but_for_the_timing() {
    let line = "norobots audit examples/site/access.log --robots examples/site/robots.txt";
    // The second line carries the elapsed time and throughput of the run.
    let strip = |s: String| -> String {
        s.lines()
            .enumerate()
            .filter(|(i, _)| *i != 1)
            .map(|(_, l)| format!("{l}\n"))
            .collect()
    };
    assert_eq!(strip(run(line)), strip(shown(line)));
}
