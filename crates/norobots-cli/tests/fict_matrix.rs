//! The README's first command: the 1996 draft's example file (section 4)
//! checked against its URL matrix, for each robot the matrix names.

use assert_cmd::Command;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn draft1996_example_matches_its_matrix_for_every_robot() {
    let matrix = std::fs::read_to_string(root().join("examples/fict.org/matrix.txt")).unwrap();
    let rows: Vec<Vec<&str>> = matrix
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 11);
    for (column, agent) in [
        (1, "UnhipBot/0.1"),
        (2, "WebCrawler/3.0"),
        (2, "Excite/1.0"),
        (3, "OtherBot/1.0"),
    ] {
        let out = Command::cargo_bin("norobots")
            .unwrap()
            .current_dir(root())
            .args([
                "check",
                "--dialect",
                "draft1996",
                "--robots",
                "examples/fict.org/robots.txt",
            ])
            .args(["--agent", agent])
            .pipe_stdin(root().join("examples/fict.org/urls.txt"))
            .unwrap()
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let got: Vec<&str> = stdout.lines().collect();
        assert_eq!(got.len(), rows.len(), "{agent}");
        for (line, row) in got.iter().zip(&rows) {
            let want = if row[column] == "Yes" {
                "allowed"
            } else {
                "disallowed"
            };
            assert_eq!(*line, format!("{want}\t{}", row[0]), "{agent}");
        }
        let any_no = rows.iter().any(|r| r[column] == "No");
        assert_eq!(out.status.code(), Some(i32::from(any_no)), "{agent}");
    }
}

/// The README shows the quick start's output; it must be what the command
/// prints today.
#[test]
fn readme_quick_start_output_is_current() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("--explain < examples/fict.org/urls.txt\n")
        .expect("quick start");
    let shown = &readme[start..];
    let shown = &shown[shown.find('\n').unwrap() + 1..];
    let shown = &shown[..shown.find("```").unwrap()];
    let out = Command::cargo_bin("norobots")
        .unwrap()
        .current_dir(root())
        .args([
            "check",
            "--dialect",
            "draft1996",
            "--robots",
            "examples/fict.org/robots.txt",
        ])
        .args(["--agent", "OtherBot/1.0", "--explain"])
        .pipe_stdin(root().join("examples/fict.org/urls.txt"))
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), shown);
}
