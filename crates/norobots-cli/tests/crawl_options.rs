//! `norobots crawl`'s options, each against a real site on 127.0.0.1:
//! the WARC file (read back by Python's `warcio`), `--spider`, limits,
//! scope, the robot's name, robots off, sitemaps, the pace per host, and
//! the errors a user can make.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use norobots_testsite::scenario::{self, Fate, GENERATED_ORIGIN, GENERATED_START};
use norobots_testsite::{OriginSpec, Response, RunningSite, Site};

const BIN: &str = env!("CARGO_BIN_EXE_norobots");

/// (exit status, stderr) of `norobots crawl ARGS…` run in `dir`.
fn crawl(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(BIN)
        .arg("crawl")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn log(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(files(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

fn paths(site: &RunningSite, origin: &str) -> BTreeSet<String> {
    site.paths_requested(origin)
}

/// A small site: a start page linking to two pages and a disallowed one,
/// robots.txt with groups for `norobots`, `MyBot` and `*`.
fn small() -> RunningSite {
    let robots = "User-agent: norobots\nDisallow: /no-norobots/\n\nUser-agent: MyBot\nDisallow: /no-mybot/\n\nUser-agent: *\nDisallow: /no-star/\n\nSitemap: {origin:s}/sitemap.xml\n";
    let page = |links: &[&str]| {
        Response::html(format!(
            "<html><body>{}</body></html>",
            links
                .iter()
                .map(|l| format!("<a href=\"{l}\">x</a>"))
                .collect::<String>()
        ))
    };
    let origin = OriginSpec::new("s")
        .route("/robots.txt", Response::text(robots))
        .route(
            "/index.html",
            page(&["/a.html", "/dir/b.html", "/no-norobots/x.html", "/no-mybot/x.html", "/no-star/x.html", "/img.png"]),
        )
        .route("/a.html", page(&["/dir/deep.html"]))
        .route("/dir/b.html", page(&["/index.html"]))
        .route("/dir/deep.html", page(&[]))
        .route("/no-norobots/x.html", page(&[]))
        .route("/no-mybot/x.html", page(&[]))
        .route("/no-star/x.html", page(&[]))
        .route("/img.png", Response::bytes("image/png", b"\x89PNG\r\n\x1a\nfake".to_vec()))
        .route("/only-in-sitemap.html", page(&[]))
        .route(
            "/sitemap.xml",
            Response::bytes(
                "application/xml",
                b"<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>{origin:s}/only-in-sitemap.html</loc></url><url><loc>{origin:s}/no-norobots/y.html</loc></url></urlset>".to_vec(),
            ),
        );
    Site::new().origin(origin).start().unwrap()
}

/// warcio, as the WARC writer's own test finds it.
fn warcio() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("NOROBOTS_WARCIO") {
        return Some(PathBuf::from(path));
    }
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("warcio"))
            .find(|c| c.is_file())
    });
    if found.is_none() {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "warcio not found: CI must run the WARC checks"
        );
        eprintln!(
            "\n*** SKIPPED: warcio not found (set NOROBOTS_WARCIO or put warcio on PATH) ***\n"
        );
    }
    found
}

#[test]
fn the_warc_file_reads_back_with_warcio() {
    let site = small();
    let dir = tempfile::tempdir().unwrap();
    let start = site.url("s", "/index.html");
    let (code, err) = crawl(dir.path(), &["-P", "out", "--warc-file", "crawl", &start]);
    assert_eq!(code, 0, "{err}");
    let warc = dir.path().join("crawl.warc.gz");
    assert!(warc.is_file());
    let Some(warcio) = warcio() else { return };
    let check = Command::new(&warcio)
        .args(["check", "-v"])
        .arg(&warc)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&check.stdout).to_string()
        + &String::from_utf8_lossy(&check.stderr);
    assert!(check.status.success(), "{text}");
    assert!(!text.to_lowercase().contains("invalid"), "{text}");
    let index = Command::new(&warcio)
        .args(["index", "-f", "warc-type,warc-target-uri,http:status"])
        .arg(&warc)
        .output()
        .unwrap();
    assert!(index.status.success());
    let records: Vec<serde_json::Value> = String::from_utf8(index.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records[0]["warc-type"], "warcinfo");
    let responses: BTreeSet<String> = records
        .iter()
        .filter(|r| r["warc-type"] == "response")
        .map(|r| {
            r["warc-target-uri"]
                .as_str()
                .unwrap()
                .trim_start_matches(&site.origin("s"))
                .to_owned()
        })
        .collect();
    let requests = records
        .iter()
        .filter(|r| r["warc-type"] == "request")
        .count();
    // robots.txt is archived too; every request has its response.
    let fetched: BTreeSet<String> = paths(&site, "s");
    assert_eq!(responses, fetched);
    assert_eq!(requests, responses.len());
    assert!(responses.contains("/robots.txt"));
}

#[test]
fn spider_saves_nothing_and_max_pages_stops_with_every_url_decided() {
    let site = small();
    let dir = tempfile::tempdir().unwrap();
    let start = site.url("s", "/index.html");
    let (code, err) = crawl(
        dir.path(),
        &["--spider", "-P", "out", "--log", "l.jsonl", &start],
    );
    assert_eq!(code, 0, "{err}");
    let saved: Vec<_> = files(&dir.path().join("out"))
        .into_iter()
        .filter(|p| !p.to_string_lossy().contains("/.norobots/"))
        .collect();
    assert!(saved.is_empty(), "{saved:?}");
    assert!(paths(&site, "s").contains("/dir/deep.html"));

    let site = scenario::generated(500).start().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let start = site.url(GENERATED_ORIGIN, GENERATED_START);
    let (code, err) = crawl(
        dir.path(),
        &[
            "-l",
            "0",
            "--max-pages",
            "20",
            "-P",
            "out",
            "--log",
            "l.jsonl",
            &start,
        ],
    );
    assert_eq!(code, 0, "{err}");
    let lines = log(&dir.path().join("l.jsonl"));
    let fetched = lines
        .iter()
        .filter(|l| {
            l["decision"] == "fetched" && !l["url"].as_str().unwrap().ends_with("/robots.txt")
        })
        .count();
    // The pages in flight when the quota was reached end too.
    assert!((20..20 + 4).contains(&fetched), "{fetched}");
    let requested = site
        .requests()
        .iter()
        .filter(|r| r.path_and_query != "/robots.txt")
        .count();
    assert_eq!(requested, fetched);
    // What was found but not fetched is logged, once, as out of scope.
    let quota: Vec<_> = lines
        .iter()
        .filter(|l| l["reason"]["rule"] == "--max-pages 20")
        .collect();
    assert!(!quota.is_empty());
    assert!(quota.iter().all(|l| l["decision"] == "out-of-scope"));
}

#[test]
fn level_no_parent_and_the_mirror_layout_options() {
    let site = small();
    let start = site.url("s", "/index.html");
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = crawl(dir.path(), &["-l", "1", "-P", "out", &start]);
    assert_eq!(code, 0, "{err}");
    let got = paths(&site, "s");
    assert!(
        got.contains("/a.html") && !got.contains("/dir/deep.html"),
        "{got:?}"
    );

    let site = small();
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = crawl(
        dir.path(),
        &["-np", "-nH", "-P", "out", &site.url("s", "/dir/b.html")],
    );
    assert_eq!(code, 0, "{err}");
    let got = paths(&site, "s");
    assert!(!got.contains("/index.html"), "--no-parent: {got:?}");
    assert!(
        dir.path().join("out/dir/b.html").is_file(),
        "-nH saves without the host directory"
    );

    let site = small();
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = crawl(
        dir.path(),
        &["-nd", "-P", "out", &site.url("s", "/index.html")],
    );
    assert_eq!(code, 0, "{err}");
    for name in ["index.html", "a.html", "b.html", "deep.html", "img.png"] {
        assert!(dir.path().join("out").join(name).is_file(), "-nd: {name}");
    }
}

#[test]
fn accept_and_reject_patterns_decide_what_is_fetched_and_saved() {
    let site = small();
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = crawl(
        dir.path(),
        &[
            "-R",
            "*.png",
            "-P",
            "out",
            "--log",
            "l.jsonl",
            &site.url("s", "/index.html"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(!paths(&site, "s").contains("/img.png"));
    let lines = log(&dir.path().join("l.jsonl"));
    let png = lines
        .iter()
        .find(|l| l["url"].as_str().unwrap().ends_with("/img.png"))
        .unwrap();
    assert_eq!(png["decision"], "out-of-scope");
    assert_eq!(png["reason"]["rule"], "--reject *.png");

    // HTML pages that -A rejects are fetched for their links, not saved.
    let site = small();
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = crawl(
        dir.path(),
        &["-A", "png", "-P", "out", &site.url("s", "/index.html")],
    );
    assert_eq!(code, 0, "{err}");
    let host = site.origin("s").trim_start_matches("http://").to_owned();
    assert!(paths(&site, "s").contains("/dir/deep.html"));
    assert!(dir.path().join("out").join(&host).join("img.png").is_file());
    assert!(!dir
        .path()
        .join("out")
        .join(&host)
        .join("dir/deep.html")
        .exists());
}

#[test]
fn the_robots_name_comes_from_the_user_agent_or_agent() {
    let site = small();
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = crawl(
        dir.path(),
        &[
            "-U",
            "MyBot/2.0 (+https://example.com/bot)",
            "-P",
            "out",
            &site.url("s", "/index.html"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let got = paths(&site, "s");
    assert!(
        !got.contains("/no-mybot/x.html") && got.contains("/no-norobots/x.html"),
        "{got:?}"
    );
    assert!(site
        .requests()
        .iter()
        .all(|r| r.user_agent.as_deref() == Some("MyBot/2.0 (+https://example.com/bot)")));

    let site = small();
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = crawl(
        dir.path(),
        &[
            "-U",
            "MyBot/2.0",
            "--agent",
            "OtherBot",
            "-P",
            "out",
            &site.url("s", "/index.html"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let got = paths(&site, "s");
    assert!(
        !got.contains("/no-star/x.html") && got.contains("/no-mybot/x.html"),
        "the * group: {got:?}"
    );
}

#[test]
fn robots_off_is_said_and_robots_first_page_checks_the_start() {
    let site = small();
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = crawl(
        dir.path(),
        &[
            "-e",
            "robots=off",
            "-P",
            "out",
            &site.url("s", "/index.html"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("robots.txt: NOT obeyed"), "{err}");
    let got = paths(&site, "s");
    assert!(
        !got.contains("/robots.txt") && got.contains("/no-norobots/x.html"),
        "{got:?}"
    );

    let site = small();
    let dir = tempfile::tempdir().unwrap();
    let start = site.url("s", "/no-norobots/x.html");
    let (code, err) = crawl(
        dir.path(),
        &[
            "--robots-first-page",
            "-P",
            "out",
            "--log",
            "l.jsonl",
            &start,
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        paths(&site, "s"),
        BTreeSet::from(["/robots.txt".to_owned()])
    );
    let lines = log(&dir.path().join("l.jsonl"));
    let first = lines.iter().find(|l| l["url"] == start.as_str()).unwrap();
    assert_eq!(first["decision"], "disallowed");
    assert_eq!(first["reason"]["line"], 2);
    assert_eq!(first["reason"]["rule"], "Disallow: /no-norobots/");
}

#[test]
fn sitemaps_add_their_urls_within_scope_and_robots() {
    let site = small();
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = crawl(
        dir.path(),
        &["--sitemaps", "-P", "out", &site.url("s", "/index.html")],
    );
    assert_eq!(code, 0, "{err}");
    let got = paths(&site, "s");
    assert!(
        got.contains("/sitemap.xml") && got.contains("/only-in-sitemap.html"),
        "{got:?}"
    );
    assert!(!got.contains("/no-norobots/y.html"), "{got:?}");
    let site = small();
    let dir = tempfile::tempdir().unwrap();
    crawl(dir.path(), &["-P", "out", &site.url("s", "/index.html")]);
    assert!(
        !paths(&site, "s").contains("/sitemap.xml"),
        "only with --sitemaps"
    );
}

#[test]
fn the_standard_sites_sitemaps_under_rfc9309() {
    let site = scenario::standard().start().unwrap();
    let expect = scenario::standard_expect("rfc9309").with_sitemaps();
    let dir = tempfile::tempdir().unwrap();
    let (_, err) = crawl(
        dir.path(),
        &[
            "--sitemaps",
            "-T",
            "3",
            "--waitretry",
            "0.3",
            "-t",
            "3",
            "-j",
            "8",
            "-P",
            "out",
            &site.url(&expect.start.0, &expect.start.1),
        ],
    );
    for key in expect.having(Fate::Saved) {
        assert!(
            site.requested(&key.0, &key.1),
            "{key:?} not requested: {err}"
        );
    }
    for key in expect.never() {
        assert!(!site.requested(&key.0, &key.1), "{key:?} requested");
    }
}

// -w: never two requests to one host closer than the wait; --random-wait:
// never closer than half of it.
#[test]
fn wait_and_random_wait_space_the_requests_to_a_host() {
    for (args, least) in [
        (&["-w", "0.1"][..], 100),
        (&["-w", "0.1", "--random-wait"][..], 50),
    ] {
        let site = scenario::generated(30).start().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut all = vec!["-l", "0", "-j", "4", "--per-host", "4", "-P", "out"];
        all.extend_from_slice(args);
        let start = site.url(GENERATED_ORIGIN, GENERATED_START);
        all.push(&start);
        let (code, err) = crawl(dir.path(), &all);
        assert_eq!(code, 0, "{err}");
        let gap = site.min_interval(GENERATED_ORIGIN).unwrap();
        assert!(gap >= Duration::from_millis(least), "{args:?}: {gap:?}");
        assert!(site.requests().len() >= 20);
    }
}

#[test]
fn mistakes_are_one_line_errors_with_status_2_and_a_store_is_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (&["-l", "deep", "http://127.0.0.1:9/"][..], "-l: `deep`"),
        (
            &["ftp://example.com/"][..],
            "URL argument 1: `ftp://example.com/` is not an http or https URL",
        ),
        (&[][..], "no URL to crawl"),
        (
            &["-e", "wait=1", "http://127.0.0.1:9/"][..],
            "-e `wait=1`: only robots=on and robots=off",
        ),
        (
            &["--store", "redis://x", "http://127.0.0.1:9/"][..],
            "--store `redis://x`",
        ),
        (&["-Q", "lots", "http://127.0.0.1:9/"][..], "-Q: `lots`"),
        (&["-w", "1e9", "http://127.0.0.1:9/"][..], "too large"),
    ] {
        let (code, err) = crawl(dir.path(), args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let site = small();
    let start = site.url("s", "/index.html");
    assert_eq!(crawl(dir.path(), &["-P", "out", &start]).0, 0);
    let (code, err) = crawl(dir.path(), &["-P", "out", &start]);
    assert_eq!(code, 2);
    assert!(
        err.contains("a crawl store exists at out/.norobots/crawl.sqlite"),
        "{err}"
    );
    assert!(err.contains("--continue resumes it"), "{err}");
    assert_eq!(crawl(dir.path(), &["-P", "out", "--continue", &start]).0, 0);
}
