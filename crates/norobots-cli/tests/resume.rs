//! A crawl killed with SIGKILL at random moments and resumed with
//! `--continue` each time ends as an uninterrupted crawl does: the same
//! URLs fetched, the same log (each URL once, with the same decision).
//! The real binary is killed, not asked to stop.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use norobots_testsite::scenario::{self, GENERATED_ORIGIN, GENERATED_START};

mod common;

use common::{decisions, Moments};

const BIN: &str = env!("CARGO_BIN_EXE_norobots");
const PAGES: usize = 3_000;
const KILLS: usize = 20;

fn args<'a>(dir: &'a Path, start: &'a str, resume: bool) -> Vec<String> {
    let mut a = vec![
        "crawl".to_owned(),
        "-q".into(),
        "-l".into(),
        "0".into(),
        // A short wait between requests keeps the crawl long enough for
        // twenty kills spread over it.
        "-w".into(),
        "0.002".into(),
        "-j".into(),
        "8".into(),
        "--per-host".into(),
        "8".into(),
        "-P".into(),
        dir.join("out").display().to_string(),
        "--log".into(),
        dir.join("crawl.jsonl").display().to_string(),
        "--warc-file".into(),
        dir.join("crawl").display().to_string(),
    ];
    if resume {
        a.push("--continue".into());
    }
    a.push(start.to_owned());
    a
}

/// url → decision, each URL once (a second line for a URL fails).
fn log(dir: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(dir.join("crawl.jsonl")).unwrap();
    decisions(&text, "crawl.jsonl")
}

#[test]
fn killed_twenty_times_and_resumed_it_ends_as_an_uninterrupted_crawl() {
    let site = scenario::generated(PAGES).start().unwrap();
    let start = site.url(GENERATED_ORIGIN, GENERATED_START);

    let whole = tempfile::tempdir().unwrap();
    let status = Command::new(BIN)
        .args(args(whole.path(), &start, false))
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let expected = log(whole.path());
    let fetched: BTreeSet<&String> = expected
        .iter()
        .filter(|(_, d)| *d == "fetched")
        .map(|(u, _)| u)
        .collect();
    let allowed = scenario::generated_allowed(PAGES);
    // The pages and robots.txt.
    assert_eq!(fetched.len(), allowed.len() + 1);

    let before = site.requests().len();
    let broken = tempfile::tempdir().unwrap();
    let mut delays = Moments(0x9E37_79B9_7F4A_7C15);
    let mut killed = 0;
    let began = Instant::now();
    while killed < KILLS {
        let mut child = Command::new(BIN)
            .args(args(broken.path(), &start, true))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // From 20 to 400 ms.
        std::thread::sleep(delays.next(20, 380));
        match child.try_wait().unwrap() {
            Some(status) => {
                // It finished before the kill: the crawl is done; start
                // over would prove nothing more, so count what was killed.
                assert_eq!(status.code(), Some(0));
                break;
            }
            None => {
                child.kill().unwrap(); // SIGKILL
                child.wait().unwrap();
                killed += 1;
            }
        }
        assert!(
            began.elapsed() < Duration::from_secs(600),
            "the crawl does not progress"
        );
    }
    assert!(
        killed >= KILLS,
        "the crawl ended after {killed} kills; make it longer"
    );
    let status = Command::new(BIN)
        .args(args(broken.path(), &start, true))
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let resumed = log(broken.path());
    let differ: Vec<_> = expected
        .iter()
        .filter(|(u, d)| resumed.get(*u) != Some(d))
        .map(|(u, d)| format!("{u}: {d} uninterrupted, {:?} resumed", resumed.get(u)))
        .chain(
            resumed
                .keys()
                .filter(|u| !expected.contains_key(*u))
                .map(|u| format!("{u}: only in the resumed log")),
        )
        .collect();
    assert!(
        differ.is_empty(),
        "{} differences:\n{}",
        differ.len(),
        differ.join("\n")
    );
    // Every page saved, and nothing half-written left under its name.
    for path in &allowed {
        let host = site
            .origin(GENERATED_ORIGIN)
            .trim_start_matches("http://")
            .to_owned();
        let file = broken
            .path()
            .join("out")
            .join(host)
            .join(path.trim_start_matches('/'));
        let body =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(
            body.trim_end().ends_with("</html>"),
            "{} is cut short",
            file.display()
        );
    }
    // The WARC file, appended to after each kill, reads back whole.
    if let Some(warcio) = std::env::var_os("NOROBOTS_WARCIO") {
        let out = Command::new(warcio)
            .arg("check")
            .arg(broken.path().join("crawl.warc.gz"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    } else {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "CI checks the WARC with warcio"
        );
        eprintln!("*** SKIPPED the WARC check: NOROBOTS_WARCIO is not set ***");
    }

    // What a kill makes the crawl fetch again: the URLs in flight, and
    // those done after the last commit (the store groups its commits; a
    // kill takes back at most the last 50 ms). Never the whole crawl.
    let mut counts = BTreeMap::<String, usize>::new();
    for r in &site.requests()[before..] {
        *counts.entry(r.path_and_query.clone()).or_default() += 1;
    }
    let again: usize = counts.values().map(|n| n - 1).sum();
    eprintln!(
        "{killed} kills: {again} requests made again, of {} pages",
        allowed.len()
    );
    assert!(again <= KILLS * 100, "{again} requests made again");
}
