//! `norobots crawl --store postgres://…`: several real processes on one
//! job, against the test sites on 127.0.0.1 and a real PostgreSQL server
//! (`NOROBOTS_TEST_PG`, which `.ci/run` starts). Four workers fetch what
//! one fetches and nothing twice, keep each host's pace between them,
//! ask for robots.txt once per origin; a worker killed with SIGKILL loses
//! nothing but what it had in flight; the database restarting mid-crawl
//! is waited out.
//!
//! Without `NOROBOTS_TEST_PG` the tests say so loudly and pass, except
//! under `CI=true`, where an untested store is a failure.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use norobots_testsite::scenario::{self, Fate, GENERATED_START};
use norobots_testsite::RunningSite;

mod common;

use common::{assert_paced, decisions, key_of, Moments};

const BIN: &str = env!("CARGO_BIN_EXE_norobots");

/// One multi-process crawl at a time: each takes both cores.
static SERIAL: Mutex<()> = Mutex::new(());

/// The test server's URL, or `None` (loudly) outside CI.
fn pg_url() -> Option<String> {
    match std::env::var("NOROBOTS_TEST_PG") {
        Ok(u) if !u.is_empty() => Some(u),
        _ => {
            assert_ne!(
                std::env::var("CI").as_deref(),
                Ok("true"),
                "CI=true but NOROBOTS_TEST_PG is not set: the shared store would go untested"
            );
            eprintln!(
                "*** SKIPPED: the shared-store crawl tests need NOROBOTS_TEST_PG=postgres://USER@HOST:PORT/DB ***"
            );
            None
        }
    }
}

/// A job name no other test (or earlier run) uses.
fn fresh_job(what: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{what}-{}-{nanos}", std::process::id())
}

/// Starts `norobots crawl` as worker `name` of `job`.
fn worker(pg: &str, job: &str, name: &str, dir: &Path, args: &[&str], starts: &[String]) -> Child {
    Command::new(BIN)
        .arg("crawl")
        .args(["-q", "--store", pg, "--job", job, "--worker", name])
        .arg("--log")
        .arg(dir.join(format!("{name}.jsonl")))
        .arg("-P")
        .arg(dir.join("out"))
        .args(args)
        .args(starts)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for a worker, at most `limit`; its exit status and stderr.
fn finish(child: Child, limit: Duration) -> (i32, String) {
    let began = Instant::now();
    let mut child = child;
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if began.elapsed() > limit {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!(
                "a worker ran for more than {limit:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// What `norobots crawl --store PG --job JOB` with `flag` prints (a
/// report that joins no job), which must succeed.
fn report(pg: &str, job: &str, flag: &str) -> String {
    let out = Command::new(BIN)
        .args(["crawl", flag, "--store", pg, "--job", job])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{flag}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The job's whole log (`--export-log`): URL → decision, each URL once.
fn job_log(pg: &str, job: &str) -> BTreeMap<String, String> {
    decisions(&report(pg, job, "--export-log"), "the job's log")
}

/// The job's counts, as `--status` prints them: name → first number.
fn status(pg: &str, job: &str) -> BTreeMap<String, u64> {
    report(pg, job, "--status")
        .lines()
        .filter_map(|l| {
            let (k, v) = l.split_once(": ")?;
            let n = v.split_whitespace().next()?.parse().ok()?;
            Some((k.to_owned(), n))
        })
        .collect()
}

/// A logged URL as (origin name, path), whatever port the site had.
fn key(site: &RunningSite, url: &str) -> (String, String) {
    key_of(site, url).unwrap_or_else(|| ("elsewhere".into(), url.to_owned()))
}

/// What the server was asked: (origin, path) → count.
fn requests(site: &RunningSite) -> BTreeMap<(String, String), usize> {
    let mut out = BTreeMap::new();
    for r in site.requests() {
        *out.entry((r.origin.clone(), r.path_and_query.clone()))
            .or_default() += 1;
    }
    out
}

const STANDARD_ARGS: &[&str] = &[
    "--dialect",
    "rfc9309",
    "-T",
    "3",
    "--waitretry",
    "0.3",
    "-t",
    "3",
    // Two requests in flight per worker: the one that found the site's
    // hosts is busy with them while the idle ones (which look again every
    // 0.1 s) take their share.
    "-j",
    "2",
];

#[test]
fn four_workers_fetch_what_one_fetches_and_keep_each_hosts_pace() {
    let Some(pg) = pg_url() else { return };
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let expect = scenario::standard_expect("rfc9309");
    let limit = Duration::from_secs(600);

    // One worker: what the job fetches and decides.
    let one_site = scenario::standard().start().unwrap();
    let one_dir = tempfile::tempdir().unwrap();
    let one_job = fresh_job("one");
    let start = vec![one_site.url(&expect.start.0, &expect.start.1)];
    let (code, err) = finish(
        worker(&pg, &one_job, "w", one_dir.path(), STANDARD_ARGS, &start),
        limit,
    );
    assert_eq!(code, 4, "a broken page and a missing one: {err}");
    let one_log: BTreeMap<(String, String), String> = job_log(&pg, &one_job)
        .into_iter()
        .map(|(u, d)| (key(&one_site, &u), d))
        .collect();
    let one_requests = requests(&one_site);

    // Four workers on one job, all given the start URL.
    let site = scenario::standard().start().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let job = fresh_job("four");
    let start = vec![site.url(&expect.start.0, &expect.start.1)];
    let children: Vec<Child> = (1..=4)
        .map(|i| {
            worker(
                &pg,
                &job,
                &format!("w{i}"),
                dir.path(),
                STANDARD_ARGS,
                &start,
            )
        })
        .collect();
    let mut codes = Vec::new();
    for child in children {
        let (code, err) = finish(child, limit);
        assert!([0, 4, 8].contains(&code), "exit {code}: {err}");
        codes.push(code);
    }
    // The broken page is some worker's: that one says so.
    assert!(codes.contains(&4), "{codes:?}");

    // The same requests, each as often as one worker makes it (the page
    // that breaks off mid-body aside: a network failure is retried as the
    // moment has it).
    let got = requests(&site);
    let broken: BTreeSet<_> = expect.having(Fate::Broken);
    let mut wrong = Vec::new();
    for key in one_requests.keys().chain(got.keys()) {
        let (one, four) = (
            one_requests.get(key).copied().unwrap_or(0),
            got.get(key).copied().unwrap_or(0),
        );
        let same = if broken.contains(key) {
            (one > 0) == (four > 0)
        } else {
            one == four
        };
        if !same {
            wrong.push(format!("{key:?}: one worker {one}, four workers {four}"));
        }
    }
    wrong.dedup();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // robots.txt once per origin for the whole job; each host's pace
    // (its Crawl-delay, a Retry-After of one second) held across the
    // workers.
    assert_paced(&site, &expect);

    // The job's log: each URL once, decided as one worker decides it; the
    // workers' own logs are its parts, none in two.
    let log: BTreeMap<(String, String), String> = job_log(&pg, &job)
        .into_iter()
        .map(|(u, d)| (key(&site, &u), d))
        .collect();
    assert_eq!(log, one_log);
    let mut parts = BTreeMap::new();
    let mut busy = 0;
    for i in 1..=4 {
        let text = std::fs::read_to_string(dir.path().join(format!("w{i}.jsonl"))).unwrap();
        let part = decisions(&text, &format!("w{i}'s log"));
        busy += usize::from(!part.is_empty());
        for (u, d) in part {
            assert!(parts.insert(key(&site, &u), d).is_none(), "{u} in two logs");
        }
    }
    assert_eq!(parts, log);
    assert!(
        busy >= 2,
        "the work was shared: {busy} of 4 workers decided"
    );
    let counts = status(&pg, &job);
    assert_eq!(counts["queued"], 0);
    assert_eq!(counts["leased"], 0);
    assert_eq!(counts["decided"], log.len() as u64);
}

/// Pages per origin and origins of the generated site the kill and
/// restart tests crawl.
const PAGES: usize = 200;
const ORIGINS: usize = 6;

/// A crawl of the generated origins by `n` workers: the site, the start
/// URLs, and the arguments every worker gets.
fn generated(args: &mut Vec<&'static str>) -> (RunningSite, Vec<String>) {
    let site = scenario::generated_origins(ORIGINS, PAGES).start().unwrap();
    let starts = (0..ORIGINS)
        .map(|i| site.url(&format!("g{i}"), GENERATED_START))
        .collect();
    // A short wait per host keeps the crawl long enough to be killed in
    // the middle, and is a pace the workers must keep between them.
    args.extend(["-l", "0", "-w", "0.005", "--per-host", "1"]);
    (site, starts)
}

/// What a whole crawl of the generated origins decides: every allowed
/// page fetched, robots.txt too.
fn check_complete(site: &RunningSite, log: &BTreeMap<String, String>) {
    let allowed = scenario::generated_allowed(PAGES);
    for i in 0..ORIGINS {
        let origin = format!("g{i}");
        let fetched: BTreeSet<String> = log
            .iter()
            .filter(|(_, d)| *d == "fetched")
            .map(|(u, _)| key(site, u))
            .filter(|(o, p)| *o == origin && p != "/robots.txt")
            .map(|(_, p)| p)
            .collect();
        assert_eq!(fetched, allowed, "{origin}: fetched as the job logged it");
        for path in &allowed {
            assert!(site.requested(&origin, path), "{origin}{path} never asked");
        }
    }
    for (url, decision) in log {
        let (_, path) = key(site, url);
        let want = if path.starts_with("/private/") {
            "disallowed"
        } else {
            "fetched"
        };
        assert_eq!(decision, want, "{url}");
    }
}

/// The requests made more than once: (origin, path) → the user agents
/// that made them, in order.
fn doubles(site: &RunningSite) -> BTreeMap<(String, String), Vec<String>> {
    let mut all: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for r in site.requests() {
        all.entry((r.origin.clone(), r.path_and_query.clone()))
            .or_default()
            .push(r.user_agent.clone().unwrap_or_default());
    }
    all.retain(|_, agents| agents.len() > 1);
    all
}

/// The killed worker's User-Agent.
const VICTIM: &str = "victim-bot/1.0";

#[test]
fn a_worker_killed_at_ten_moments_loses_nothing_but_what_it_had_in_flight() {
    let Some(pg) = pg_url() else { return };
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut moments = Moments(0x2545_F491_4F6C_DD1D);
    let mut again_total = 0;
    for run in 0..10 {
        let mut args = vec!["--lease-secs", "3"];
        let (site, starts) = generated(&mut args);
        let dir = tempfile::tempdir().unwrap();
        let job = fresh_job(&format!("kill{run}"));
        // The victim has two URLs in flight at most, and says who it is
        // (every robots.txt group of the site is `*`).
        let mut victim_args = args.clone();
        victim_args.extend(["-j", "2", "-U", VICTIM]);
        let victim = worker(&pg, &job, "victim", dir.path(), &victim_args, &starts);
        let others: Vec<Child> = (1..=3)
            .map(|i| worker(&pg, &job, &format!("w{i}"), dir.path(), &args, &starts))
            .collect();
        // From 0.3 to 2.5 s.
        let moment = moments.next(300, 2_200);
        std::thread::sleep(moment);
        let mut victim = victim;
        let was_running = victim.try_wait().unwrap().is_none();
        victim.kill().unwrap(); // SIGKILL
        victim.wait().unwrap();
        for child in others {
            let (code, err) = finish(child, Duration::from_secs(300));
            assert_eq!(code, 0, "run {run}: {err}");
        }
        let log = job_log(&pg, &job);
        check_complete(&site, &log);
        // Fetched twice: only what the victim had in flight when it died
        // (a page, or the robots.txt it was reading for one).
        let twice = doubles(&site);
        assert!(
            twice.len() <= 2,
            "run {run}: {} requests made twice: {twice:?}",
            twice.len()
        );
        for (key, agents) in &twice {
            assert!(
                agents.len() == 2 && agents[0] == VICTIM && agents[1] != VICTIM,
                "run {run}: {key:?} asked by {agents:?}"
            );
        }
        again_total += twice.len();
        // The pace of each host held across the workers, the victim's
        // last requests and its successor's first included.
        for i in 0..ORIGINS {
            let origin = format!("g{i}");
            let gap = site.min_interval(&origin).expect("many requests");
            assert!(
                gap >= Duration::from_millis(5),
                "run {run}: {origin}: two requests {gap:?} apart"
            );
        }
        eprintln!(
            "run {run}: killed after {moment:?} ({}), {} fetched again",
            if was_running {
                "mid-crawl"
            } else {
                "after it ended"
            },
            twice.len()
        );
        assert!(was_running, "run {run}: the victim ended before its kill");
    }
    eprintln!("10 kills: {again_total} requests made twice in all");
}

#[test]
fn the_crawl_waits_out_the_database_restarting() {
    let Some(pg) = pg_url() else { return };
    let Ok(restart) = std::env::var("NOROBOTS_TEST_PG_RESTART") else {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "CI=true but NOROBOTS_TEST_PG_RESTART is not set"
        );
        eprintln!("*** SKIPPED: NOROBOTS_TEST_PG_RESTART (a command that restarts the server) is not set ***");
        return;
    };
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut args = vec!["--lease-secs", "30"];
    let (site, starts) = generated(&mut args);
    let dir = tempfile::tempdir().unwrap();
    let job = fresh_job("restart");
    let children: Vec<Child> = (1..=4)
        .map(|i| worker(&pg, &job, &format!("w{i}"), dir.path(), &args, &starts))
        .collect();
    std::thread::sleep(Duration::from_millis(1200));
    let before = site.requests().len();
    let out = Command::new("sh").args(["-c", &restart]).output().unwrap();
    assert!(
        out.status.success(),
        "restart: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut stderr = String::new();
    for child in children {
        let (code, err) = finish(child, Duration::from_secs(300));
        assert_eq!(code, 0, "{err}");
        stderr.push_str(&err);
    }
    assert!(
        before > ORIGINS && before < ORIGINS * PAGES,
        "the restart came mid-crawl ({before} requests before it)"
    );
    check_complete(&site, &job_log(&pg, &job));
    // A call whose reply the restart cut off may have committed or not:
    // at most what each worker had in flight is asked again.
    let twice = doubles(&site);
    assert!(twice.len() <= 4 * 4, "{twice:?}");
    eprintln!(
        "restart after {before} requests: {} asked twice; workers said: {}",
        twice.len(),
        stderr.lines().filter(|l| l.contains("again")).count()
    );
}
