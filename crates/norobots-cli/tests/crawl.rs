//! `norobots crawl`, the real binary, against the test site of many
//! origins on 127.0.0.1: what it requests and what it never requests, how
//! often it asks for robots.txt, the pace per host, what it saves, and its
//! log. The expectations are the test site's own (`standard_expect`),
//! written from the rules a correct robot follows.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::process::Command;

use norobots_testsite::scenario::{self, Fate};
use norobots_testsite::RunningSite;
use serde_json::Value;

mod common;

use common::{assert_paced, key_of};

const BIN: &str = env!("CARGO_BIN_EXE_norobots");

/// Runs `norobots crawl ARGS… START` in `dir`; (exit status, stderr).
fn crawl(dir: &Path, args: &[&str], start: &str) -> (i32, String) {
    let out = Command::new(BIN)
        .arg("crawl")
        .args(args)
        .arg(start)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn log_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// What the server saw, robots.txt aside: (origin, path) → count.
fn requested(
    site: &RunningSite,
    robots_elsewhere: &BTreeSet<(String, String)>,
) -> BTreeMap<(String, String), usize> {
    let mut out = BTreeMap::new();
    for r in site.requests() {
        let key = (r.origin.clone(), r.path_and_query.clone());
        if r.path_and_query == "/robots.txt" || robots_elsewhere.contains(&key) {
            continue;
        }
        *out.entry(key).or_default() += 1;
    }
    out
}

/// The URL a correct robot asks for: the `url` crate's reading of the path
/// (`/%2e%2e/x` is `/x`), as the expectations write it.
fn check_standard(dialect: &str, threads: &str) {
    let site = scenario::standard().start().unwrap();
    let expect = scenario::standard_expect(dialect);
    let dir = tempfile::tempdir().unwrap();
    let start = site.url(&expect.start.0, &expect.start.1);
    let (code, err) = crawl(
        dir.path(),
        &[
            "--dialect",
            dialect,
            "-P",
            "out",
            "--log",
            "crawl.jsonl",
            "-T",
            "3",
            "--waitretry",
            "0.3",
            "-t",
            "3",
            "-j",
            "8",
            "--threads",
            threads,
        ],
        &start,
    );
    // A 404 and a broken body: a server error and a network failure.
    assert_eq!(code, 4, "{err}");
    assert!(
        err.contains(&format!("robots.txt: obeyed ({dialect}, agent norobots)")),
        "{err}"
    );

    let got = requested(&site, &expect.robots_elsewhere);
    let fetched = expect.fetched();
    let mut wrong = Vec::new();
    for (key, n) in &got {
        match expect.urls.get(key) {
            Some(f) if f.is_requested() => {
                let want = if *f == Fate::Retried { 2 } else { 1 };
                if *f != Fate::Broken && *n != want {
                    wrong.push(format!("{key:?} ({f:?}) requested {n} times"));
                }
            }
            Some(f) => wrong.push(format!("{key:?} ({f:?}) must never be requested")),
            None => wrong.push(format!("{key:?} is not on the site's map")),
        }
    }
    for key in &fetched {
        if !got.contains_key(key) {
            wrong.push(format!(
                "{key:?} ({:?}) was never requested",
                expect.urls[key]
            ));
        }
    }
    assert!(wrong.is_empty(), "{dialect}:\n{}", wrong.join("\n"));

    // Retry-After, robots.txt once per origin, the Crawl-delay.
    assert_paced(&site, &expect);

    // The log: each URL once; what was requested is there, with its fate.
    let log = log_lines(&dir.path().join("crawl.jsonl"));
    let mut seen = HashMap::new();
    for line in &log {
        let url = line["url"].as_str().unwrap().to_owned();
        assert!(
            seen.insert(url.clone(), line.clone()).is_none(),
            "{url} logged twice"
        );
    }
    let decision = |origin: &str, path: &str| -> Option<String> {
        let url = format!("{}{}", site.origin(origin), path);
        seen.get(&url)
            .map(|l| l["decision"].as_str().unwrap().to_owned())
    };
    for key in expect.having(Fate::Disallowed) {
        if let Some(d) = decision(&key.0, &key.1) {
            assert_eq!(d, "disallowed", "{key:?}");
        }
    }
    for key in expect
        .having(Fate::NoIndex)
        .into_iter()
        .chain(expect.having(Fate::NoIndexNoFollow))
    {
        assert_eq!(
            decision(&key.0, &key.1).as_deref(),
            Some("noindex"),
            "{key:?}"
        );
    }
    for key in expect.having(Fate::Deferred) {
        if let Some(d) = decision(&key.0, &key.1) {
            assert_eq!(d, "deferred", "{key:?}");
        }
    }
    for line in &log {
        let url = line["url"].as_str().unwrap();
        let Some(key) = key_of(&site, url) else {
            continue;
        };
        if key.1 == "/robots.txt" {
            continue;
        }
        if let (Some(fate), "fetched") = (expect.urls.get(&key), line["decision"].as_str().unwrap())
        {
            assert!(fate.is_requested(), "{url} logged fetched, fate {fate:?}");
        }
    }

    // The mirror holds what may be saved, inside the prefix, and no more.
    let out = dir.path().join("out");
    for key in expect.saved() {
        let host = site.origin(&key.0).trim_start_matches("http://").to_owned();
        if key.1.contains('%') || key.1.len() > 200 {
            continue; // named safely by the mirror; checked below
        }
        let mut path = out.join(&host).join(key.1.trim_start_matches('/'));
        if key.1.ends_with('/') {
            path = path.join("index.html");
        }
        assert!(path.is_file(), "{key:?} not saved at {}", path.display());
    }
    for key in expect.having(Fate::NoIndex) {
        let host = site.origin(&key.0).trim_start_matches("http://").to_owned();
        assert!(
            !out.join(host).join(key.1.trim_start_matches('/')).exists(),
            "{key:?} saved"
        );
    }
    // Nothing was written beside the prefix, whatever the URLs said.
    let beside: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let mut names: Vec<String> = beside
        .iter()
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["crawl.jsonl", "out"]);
    assert!(
        walk(&out).iter().any(|p| p.contains("escape")),
        "the dangerous pages are saved too"
    );
}

fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p.display().to_string());
            }
        }
    }
    out
}

#[test]
fn the_standard_site_under_rfc9309() {
    check_standard("rfc9309", "1");
}

#[test]
fn the_standard_site_under_draft1996() {
    // Two engine threads share the store, the gate and the mirror: the
    // same expectations hold.
    check_standard("draft1996", "2");
}

#[test]
fn the_help_lists_wget_options_and_exit_statuses() {
    let out = Command::new(BIN)
        .args(["crawl", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "--level",
        "--no-parent",
        "--span-hosts",
        "--warc-file",
        "--continue",
        "8  the server answered",
    ] {
        assert!(help.contains(needle), "{needle}: {help}");
    }
}
