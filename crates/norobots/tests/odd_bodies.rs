//! Real bodies from `../shared/corpus` (not ours to copy), in every dialect:
//! the ones in `robots-odd/` that are not robots.txt at all (HTML error
//! pages, JSON, images, gzip, UTF-16, ...) and every file of `robots/`.
//!
//! A file that makes the parser or matcher panic is reported by name, with
//! the dialect, after the whole directory has been read.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Instant;

use norobots::{Dialect, ParseOptions, Robots};

const AGENT: &str = "Googlebot";

/// `../shared/corpus` beside the repository, when it has `sub`.
fn corpus(sub: &str) -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if root.join(sub).is_dir() {
        return Some(root);
    }
    if std::env::var_os("CI").is_some_and(|v| v == "true") {
        panic!(
            "{} is missing, and CI=true requires the corpus tests to run",
            root.join(sub).display()
        );
    }
    eprintln!(
        "SKIPPED: {} not found beside the repository",
        root.join(sub).display()
    );
    None
}

/// The files of `dir`, sorted by name.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// What a file gave in one dialect.
struct Outcome {
    groups: usize,
    rules: usize,
}

/// Parses `body`, walks the views, builds the matcher for [`AGENT`] and
/// checks `urls`; returns the problems found, an empty list when sane.
fn check_body(dialect: Dialect, body: &[u8], urls: &[&str], problems: &mut Vec<String>) -> Outcome {
    let robots = Robots::parse_with(body, &ParseOptions::new(dialect));
    let mut rules = 0;
    for group in robots.groups() {
        let _ = group.agents().count();
        rules += group
            .rules()
            .filter(|r| !r.pattern_bytes().is_empty())
            .count();
    }
    let _ = (
        robots.sitemaps().count(),
        robots.hosts().count(),
        robots.other_fields().count(),
    );
    for d in robots.diagnostics() {
        let _ = d.to_string();
    }
    let matcher = robots.matcher(AGENT);
    for url in urls {
        let verdict = matcher.check(url);
        if verdict.allowed != matcher.is_allowed(url) {
            problems.push(format!("check and is_allowed disagree on {url:?}"));
        }
        if rules == 0 && !verdict.allowed {
            problems.push(format!("{url:?} disallowed by a file without rules"));
        }
    }
    if matches!(dialect, Dialect::Draft1996 | Dialect::Rfc9309)
        && !matcher.is_allowed("/robots.txt")
    {
        problems.push("/robots.txt disallowed".to_string());
    }
    Outcome {
        groups: robots.groups().count(),
        rules,
    }
}

/// Runs [`check_body`], turning a panic into a problem.
fn check_catching(
    dialect: Dialect,
    body: &[u8],
    urls: &[&str],
    problems: &mut Vec<String>,
) -> Option<Outcome> {
    let mut found = Vec::new();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        check_body(dialect, body, urls, &mut found)
    }));
    problems.extend(found);
    match outcome {
        Ok(outcome) => Some(outcome),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            problems.push(format!("panicked: {message}"));
            None
        }
    }
}

/// `class` of each `robots-odd/` file in `manifest.tsv` (html, json,
/// binary, no-directives); empty when the manifest is missing.
fn odd_classes(root: &Path) -> HashMap<String, String> {
    let Ok(manifest) = std::fs::read_to_string(root.join("manifest.tsv")) else {
        return HashMap::new();
    };
    manifest
        .lines()
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            (cols.len() > 4 && cols[0] == "robots-odd")
                .then(|| (cols[1].to_string(), cols[4].to_string()))
        })
        .collect()
}

const ODD_URLS: [&str; 12] = [
    "/",
    "/robots.txt",
    "/index.html",
    "/admin/",
    "/search?q=robots",
    "https://example.com/a/b.html",
    "http://example.com",
    "/%7Euser/caf%C3%A9",
    "/caf\u{e9}",
    "",
    "?",
    "/<html>",
];

#[test]
fn odd_bodies_parse_and_answer_sanely_in_every_dialect() {
    let Some(root) = corpus("robots-odd") else {
        return;
    };
    let classes = odd_classes(&root);
    let files = files(&root.join("robots-odd"));
    assert!(!files.is_empty(), "robots-odd/ is empty");
    let mut problems = Vec::new();
    // Per dialect: files with a group, with a rule, HTML files with a rule.
    let mut with_groups = [0usize; 4];
    let mut with_rules = [0usize; 4];
    let mut html_with_rules = [0usize; 4];
    let mut html = 0;
    for path in &files {
        let body = std::fs::read(path).unwrap();
        let class = classes
            .get(&name(path))
            .map(String::as_str)
            .unwrap_or_else(|| {
                // Without the manifest: HTML starts, after white space, with `<`.
                match body.iter().find(|b| !b.is_ascii_whitespace()) {
                    Some(b'<') => "html",
                    _ => "other",
                }
            });
        html += usize::from(class == "html");
        for (k, dialect) in Dialect::ALL.into_iter().enumerate() {
            let mut found = Vec::new();
            if let Some(outcome) = check_catching(dialect, &body, &ODD_URLS, &mut found) {
                with_groups[k] += usize::from(outcome.groups > 0);
                with_rules[k] += usize::from(outcome.rules > 0);
                if class == "html" {
                    html_with_rules[k] += usize::from(outcome.rules > 0);
                }
            }
            problems.extend(
                found
                    .into_iter()
                    .map(|p| format!("{} [{dialect}]: {p}", name(path))),
            );
        }
    }
    let per_dialect = |counts: [usize; 4]| {
        Dialect::ALL
            .iter()
            .zip(counts)
            .map(|(d, n)| format!("{d} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "robots-odd: {} files ({html} HTML); with groups: {}; with rules: {}; HTML with rules: {}",
        files.len(),
        per_dialect(with_groups),
        per_dialect(with_rules),
        per_dialect(html_with_rules),
    );
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
    // A file with a rule has a group to hold it.
    for k in 0..4 {
        assert!(with_rules[k] <= with_groups[k]);
    }
}

/// Files of `robots/` checked: every `stride`-th (1 by default: all of
/// them); set `NOROBOTS_CORPUS_STRIDE` to sample.
fn stride() -> usize {
    std::env::var("NOROBOTS_CORPUS_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&k| k > 0)
        .unwrap_or(1)
}

/// The first 20 URLs of `urls/<name>.urls`.
fn first_urls(root: &Path, file: &Path) -> Vec<String> {
    let stem = file.file_stem().unwrap().to_string_lossy();
    let path = root.join("urls").join(format!("{stem}.urls"));
    let Ok(text) = std::fs::read(&path) else {
        return Vec::new();
    };
    text.split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .take(20)
        .map(|line| String::from_utf8_lossy(line).into_owned())
        .collect()
}

#[test]
fn every_corpus_file_parses_and_check_agrees_with_is_allowed_in_every_dialect() {
    let Some(root) = corpus("robots") else { return };
    let stride = stride();
    let started = Instant::now();
    let all = files(&root.join("robots"));
    let mut problems = Vec::new();
    let (mut checked_files, mut checked_urls, mut without_urls) = (0, 0, 0);
    let mut with_groups = [0usize; 4];
    for path in all.iter().step_by(stride) {
        let body = std::fs::read(path).unwrap();
        let urls = first_urls(&root, path);
        without_urls += usize::from(urls.is_empty());
        let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
        for (k, dialect) in Dialect::ALL.into_iter().enumerate() {
            let mut found = Vec::new();
            if let Some(outcome) = check_catching(dialect, &body, &urls, &mut found) {
                with_groups[k] += usize::from(outcome.groups > 0);
            }
            problems.extend(
                found
                    .into_iter()
                    .map(|p| format!("{} [{dialect}]: {p}", name(path))),
            );
            checked_urls += urls.len();
        }
        checked_files += 1;
    }
    println!(
        "robots: {checked_files} of {} files ({}), {checked_urls} (file, dialect, URL) checks, \
         {without_urls} files without a URL list, in {:?}; with groups: {}",
        all.len(),
        if stride == 1 {
            "all".to_string()
        } else {
            format!("every {stride}th, NOROBOTS_CORPUS_STRIDE")
        },
        started.elapsed(),
        Dialect::ALL
            .iter()
            .zip(with_groups)
            .map(|(d, n)| format!("{d} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert!(checked_files > 0);
    assert!(
        problems.is_empty(),
        "{} problems, first 50:\n{}",
        problems.len(),
        problems[..problems.len().min(50)].join("\n")
    );
}
