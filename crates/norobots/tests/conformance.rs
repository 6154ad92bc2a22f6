//! Conformance, run as data: the cases the seed documents state
//! (`tests/data/seed_cases.jsonl`, ours) and the reference library's verdicts
//! on real files (read from `../shared`, which is not ours to copy).

use std::path::{Path, PathBuf};

use norobots::{Dialect, ParseOptions, Robots};
use serde_json::Value;

#[test]
fn seed_cases_hold_in_every_tagged_dialect() {
    let data = include_str!("data/seed_cases.jsonl");
    let mut checked = std::collections::BTreeMap::new();
    let mut failures = Vec::new();
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("a JSON case");
        let robots_txt = case["robots_txt"].as_str().unwrap();
        let agent = case["user_agent"].as_str().unwrap();
        let url = case["url"].as_str().unwrap();
        let want = case["allowed"].as_bool().unwrap();
        for d in case["dialects"].as_array().unwrap() {
            let dialect: Dialect = d.as_str().unwrap().parse().unwrap();
            let options = ParseOptions::new(dialect);
            let robots = Robots::parse_with(robots_txt.as_bytes(), &options);
            let got = robots.matcher(agent).is_allowed(url);
            let once = norobots::is_allowed_with(robots_txt.as_bytes(), &options, agent, url);
            *checked.entry(dialect).or_insert(0) += 1;
            if got != want || once != want {
                failures.push(format!(
                    "{} [{dialect}]: want {want}, got {got} (one-shot {once})",
                    case["id"]
                ));
            }
        }
    }
    eprintln!("seed cases checked per dialect: {checked:?}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        data.lines().filter(|l| !l.trim().is_empty()).count(),
        141,
        "every case was read"
    );
    assert_eq!(
        checked.values().sum::<usize>(),
        430,
        "every (case, dialect) pair ran"
    );
}

/// `../shared` beside the repository, as CI has it.
fn shared() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    if dir
        .join("conformance/google_corpus_verdicts.jsonl")
        .exists()
    {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some_and(|v| v == "true") {
        panic!("../shared is missing, and CI=true requires the corpus tests to run");
    }
    eprintln!("SKIPPED: ../shared/conformance not found beside the repository");
    None
}

/// The one-shot check reads the whole body for each URL, so it is held to
/// the matcher on every this-many-th URL only.
const ONE_SHOT_EVERY: usize = 16;

/// Agreement with the reference library on real files; returns (agreeing
/// URLs, all URLs, disagreements with their file, agent and URL). Also
/// checks that the one-shot check answers as the matcher does.
fn corpus_agreement(dialect: Dialect, shared: &Path) -> (usize, usize, Vec<String>) {
    let rows =
        std::fs::read_to_string(shared.join("conformance/google_corpus_verdicts.jsonl")).unwrap();
    let corpus = shared.join("corpus");
    let (mut agree, mut total, mut diffs) = (0, 0, Vec::new());
    let mut last: Option<(String, Vec<u8>, Robots)> = None;
    let mut one_shot = 0;
    for row in rows.lines() {
        let row: Value = serde_json::from_str(row).unwrap();
        let file = row["file"].as_str().unwrap();
        if last.as_ref().is_none_or(|(f, _, _)| f != file) {
            let body = std::fs::read(corpus.join(file)).unwrap();
            let robots = Robots::parse_with(&body, &ParseOptions::new(dialect));
            last = Some((file.to_string(), body, robots));
        }
        let (_, body, robots) = last.as_ref().unwrap();
        let agent = row["agent"].as_str().unwrap();
        let matcher = robots.matcher(agent);
        let urls = std::fs::read(corpus.join(row["urls"].as_str().unwrap())).unwrap();
        let verdicts = row["verdicts"].as_str().unwrap().as_bytes();
        let urls: Vec<&[u8]> = urls.split(|&b| b == b'\n').collect();
        for (i, &want) in verdicts.iter().enumerate() {
            let url = String::from_utf8_lossy(urls[i]);
            let got = matcher.is_allowed(&url);
            if total % ONE_SHOT_EVERY == 0 {
                let once =
                    norobots::is_allowed_with(body, &ParseOptions::new(dialect), agent, &url);
                assert_eq!(once, got, "one-shot against matcher: {file} {agent} {url}");
                one_shot += 1;
            }
            total += 1;
            if got == (want == b'1') {
                agree += 1;
            } else {
                diffs.push(format!("{file} {agent} {url}: reference {}", want as char));
            }
        }
    }
    eprintln!("{dialect}: the one-shot check answered as the matcher on {one_shot} URLs");
    assert!(one_shot >= total / ONE_SHOT_EVERY);
    (agree, total, diffs)
}

#[test]
fn google_dialect_agrees_with_reference_on_corpus() {
    let Some(shared) = shared() else { return };
    let (agree, total, diffs) = corpus_agreement(Dialect::Google, &shared);
    eprintln!("google: {agree}/{total} URL verdicts agree");
    assert!(total > 1_000_000, "the corpus verdicts were read ({total})");
    assert!(
        diffs.is_empty(),
        "{} disagreements, first:\n{}",
        diffs.len(),
        diffs[..diffs.len().min(30)].join("\n")
    );
}

#[test]
fn rfc9309_agreement_with_reference_on_corpus_is_reported() {
    let Some(shared) = shared() else { return };
    let (agree, total, diffs) = corpus_agreement(Dialect::Rfc9309, &shared);
    eprintln!(
        "rfc9309: {agree}/{total} URL verdicts agree with the reference ({:.4}%)",
        100.0 * agree as f64 / total as f64
    );
    // Every difference must fall in a class that RFC 9309's text explains
    // (dialects.md, "google"): the reference decodes no `%xx` and does not
    // exempt /robots.txt; it also reads `/x/index.html` as `/x/`, keys by
    // prefix and cuts lines at 16,663 octets.
    let mut classes = std::collections::BTreeMap::<&str, (usize, &String)>::new();
    for d in &diffs {
        let url = d.split(' ').nth(2).unwrap_or("").trim_end_matches(':');
        let path = url.split_once("://").map_or(url, |(_, rest)| {
            &rest[rest.find('/').unwrap_or(rest.len())..]
        });
        let class = if path.starts_with("/robots.txt") {
            "/robots.txt always allowed (RFC 9309 2.2.2)"
        } else if url.contains('%') || !url.is_ascii() {
            "%xx and non-ASCII normalised on both sides (RFC 9309 2.2.2)"
        } else if path.ends_with('/') && {
            let file = d.split(' ').next().unwrap_or("");
            let body = std::fs::read(shared.join("corpus").join(file)).unwrap_or_default();
            memchr_find(&body, b"/index.htm")
        } {
            "google's /x/index.html allows /x/"
        } else {
            "other"
        };
        classes.entry(class).or_insert((0, d)).0 += 1;
    }
    for (class, (n, example)) in &classes {
        eprintln!("  {n:>7}  {class}   e.g. {example}");
    }
    assert!(total > 1_000_000);
    assert!(
        !classes.contains_key("other"),
        "unexplained rfc9309 differences"
    );
}

fn memchr_find(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}
