//! `norobots crawl`: a polite recursive web robot, spelled like `wget -r`.
//! This file turns the command line into a `norobots_crawl::Config`,
//! shows progress and the summary, and picks wget's exit status.

use std::ffi::OsString;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use norobots::Dialect;
use norobots_crawl::store::postgres::{PgOptions, PgStore};
use norobots_crawl::store::sqlite::SqliteStore;
use norobots_crawl::store::Store;
use norobots_crawl::{Config, Crawler, Decision, Summary};
use url::Url;

use crate::error::CliError;

/// wget's exit statuses, as `crawl --help` lists them.
pub const CRAWL_AFTER_HELP: &str = "\
Robots: robots.txt is obeyed by default, in the dialect of --dialect, with
that dialect's status-code policy. The start URLs are fetched without
consulting it, as wget does (--robots-first-page checks them too); every
URL found by recursion and every redirect target is checked against its own
origin's robots.txt before it is requested. META robots, X-Robots-Tag and
rel=nofollow are obeyed (--ignore-meta turns them off). `-e robots=off` or
--no-robots turns all of it off, and the summary says so.

The crawl's state is a SQLite file (--store; by default
DIR/.norobots/crawl.sqlite) that survives the process being killed at any
moment: `--continue` resumes, fetching nothing recorded as done again.

Many machines: with --store postgres://USER@HOST:PORT/DB --job NAME, any
number of processes cooperate on one crawl. Start URLs given to any of them
are added once; each claims hosts (one worker per host at a time, so each
host's delay holds across all of them), and exits when the job has nothing
queued or leased. A killed worker's hosts come back after --lease-secs.
--status prints the job's counts; --export-log prints the whole job's log.

Exit status (as wget):
  0  no problem
  1  a generic error (the store or the log failed)
  2  usage error (a one-line message on stderr)
  3  a file could not be written
  4  a network failure (a request got no answer)
  8  the server answered a request with an error status (4xx, 5xx)
  130  interrupted (SIGINT or SIGTERM); --continue resumes
When several apply, the lowest of 3, 4 and 8 is given, as wget does.";

/// `norobots crawl` options, with wget's spelling wherever wget has one.
#[derive(Debug, Args)]
pub struct CrawlArgs {
    /// Start URLs (http or https).
    #[arg(value_name = "URL")]
    urls: Vec<String>,

    /// Recursive retrieval: always on (accepted for wget's spelling).
    #[arg(short = 'r', long = "recursive")]
    _recursive: bool,

    /// The deepest level to follow (start URLs are level 0); 0 or `inf`
    /// for no limit.
    #[arg(short = 'l', long, value_name = "N", default_value = "5")]
    level: String,

    /// Never ascend above the start URL's directory (also `-np`).
    #[arg(long)]
    no_parent: bool,

    /// Go to hosts other than the start URLs'.
    #[arg(short = 'H', long)]
    span_hosts: bool,

    /// With -H, only these domains (comma-separated).
    #[arg(short = 'D', long, value_name = "LIST")]
    domains: Vec<String>,

    /// Only file names with these suffixes or matching these globs.
    #[arg(short = 'A', long, value_name = "LIST")]
    accept: Vec<String>,

    /// Not file names with these suffixes or matching these globs.
    #[arg(short = 'R', long, value_name = "LIST")]
    reject: Vec<String>,

    /// Only URLs this regex matches.
    #[arg(long, value_name = "REGEX")]
    accept_regex: Option<String>,

    /// Not URLs this regex matches.
    #[arg(long, value_name = "REGEX")]
    reject_regex: Option<String>,

    /// Read start URLs from FILE (one per line; `-` for stdin).
    #[arg(short = 'i', long, value_name = "FILE")]
    input_file: Option<PathBuf>,

    /// Stop after N pages fetched.
    #[arg(long, value_name = "N")]
    max_pages: Option<u64>,

    /// Stop after BYTES of bodies fetched (`10m`, `1g` as wget).
    #[arg(short = 'Q', long, value_name = "BYTES")]
    quota: Option<String>,

    /// Check the start URLs against robots.txt too.
    #[arg(long)]
    robots_first_page: bool,

    /// A wgetrc command: `robots=off` or `robots=on`.
    #[arg(short = 'e', long = "execute", value_name = "COMMAND")]
    execute: Vec<String>,

    /// Do not obey robots.txt nor META robots (as `-e robots=off`).
    #[arg(long)]
    no_robots: bool,

    /// The dialect robots.txt is read in: norobots1994, draft1996, rfc9309 or google.
    #[arg(long, value_name = "DIALECT", default_value = Dialect::default().name(), ignore_case = true)]
    dialect: crate::DialectArg,

    /// The User-Agent header; its robot token (`MyBot` in `MyBot/2.0
    /// (+https://x)`) is matched against User-agent lines.
    #[arg(short = 'U', long, value_name = "STRING")]
    user_agent: Option<String>,

    /// The product token matched against User-agent lines (default: the
    /// User-Agent's robot token, `norobots`).
    #[arg(long, value_name = "TOKEN")]
    agent: Option<String>,

    /// Seconds between two requests to one host.
    #[arg(short = 'w', long, value_name = "SECS", default_value = "0", value_parser = crate::value::seconds)]
    wait: Duration,

    /// Wait 0.5 to 1.5 times --wait.
    #[arg(long)]
    random_wait: bool,

    /// A longer robots.txt Crawl-delay is cut to this (and said).
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = crate::value::seconds)]
    max_crawl_delay: Duration,

    /// Tries per URL for transient failures (0 or `inf`: no limit).
    #[arg(short = 't', long, value_name = "N", default_value = "20")]
    tries: String,

    /// The longest wait between two tries (1 s, 2 s, … up to this).
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = crate::value::seconds)]
    waitretry: Duration,

    /// Requests in flight over all hosts.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 4)]
    jobs: usize,

    /// Requests in flight to one host (the delays still apply).
    #[arg(long, value_name = "N", default_value_t = 1)]
    per_host: u32,

    /// Engine threads (each with its own connections; -j is shared out).
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,

    /// Connect and read timeout, in seconds.
    #[arg(short = 'T', long, value_name = "SECS", default_value = "900", value_parser = crate::value::seconds)]
    timeout: Duration,

    /// Do not obey META robots, X-Robots-Tag and rel=nofollow.
    #[arg(long)]
    ignore_meta: bool,

    /// Save under DIR.
    #[arg(short = 'P', long, value_name = "DIR", default_value = ".")]
    directory_prefix: PathBuf,

    /// No HOST directory (also `-nH`).
    #[arg(long)]
    no_host_directories: bool,

    /// Make directories (the default).
    #[arg(short = 'x', long)]
    force_directories: bool,

    /// Every file in DIR itself (also `-nd`).
    #[arg(long, conflicts_with = "force_directories")]
    no_directories: bool,

    /// Fetch and follow, save nothing.
    #[arg(long)]
    spider: bool,

    /// Write a WARC file NAME.warc.gz.
    #[arg(long, value_name = "NAME")]
    warc_file: Option<PathBuf>,

    /// Write the crawl log (JSON Lines) to FILE.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,

    /// Also crawl the URLs of each visited origin's robots.txt sitemaps.
    #[arg(long)]
    sitemaps: bool,

    /// No progress line and no summary.
    #[arg(short = 'q', long)]
    quiet: bool,

    /// Less output (accepted for wget's `-nv`; the same as without).
    #[arg(long, hide = true)]
    no_verbose: bool,

    /// The most octets read of one body.
    #[arg(long, value_name = "BYTES", default_value = "10m")]
    max_page_bytes: String,

    /// Where the crawl's state is kept: `sqlite:PATH`, or
    /// `postgres://USER@HOST:PORT/DB` for a crawl shared by many processes.
    #[arg(long, value_name = "STORE")]
    store: Option<String>,

    /// The crawl's name in a PostgreSQL store (several share a database).
    #[arg(long, value_name = "NAME", default_value = "default")]
    job: String,

    /// This process's name in the job (default: HOST-PID); a worker that
    /// comes back under its name takes up its log.
    #[arg(long, value_name = "NAME")]
    worker: Option<String>,

    /// How long a stopped worker's hosts stay held before others take
    /// them (its heartbeat renews them while it runs).
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = crate::value::seconds)]
    lease_secs: Duration,

    /// How many of a host's URLs a worker leases at once from a
    /// PostgreSQL store (it holds the host while it fetches them, at the
    /// host's pace): larger batches, fewer database round trips.
    #[arg(long, value_name = "N", default_value = "16")]
    batch: u32,

    /// Print the job's counts (queued, leased, decided, hosts waiting,
    /// workers seen recently) and exit, crawling nothing.
    #[arg(long, conflicts_with = "export_log")]
    status: bool,

    /// Print the whole job's log (JSON Lines, every URL once, whichever
    /// worker decided it) on stdout and exit, crawling nothing.
    #[arg(long)]
    export_log: bool,

    /// Resume the crawl in the store.
    #[arg(short = 'c', long = "continue")]
    resume: bool,
}

/// wget's short options of several letters (`-np`), which clap cannot
/// spell, as their long forms; only exact arguments after `crawl`.
pub fn wget_spellings(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut out = Vec::new();
    let mut in_crawl = false;
    for arg in args {
        if !in_crawl {
            in_crawl = arg == "crawl";
            out.push(arg);
            continue;
        }
        let long = match arg.to_str() {
            Some("-np") => "--no-parent",
            Some("-nH") => "--no-host-directories",
            Some("-nd") => "--no-directories",
            Some("-nv") => "--no-verbose",
            _ => {
                out.push(arg);
                continue;
            }
        };
        out.push(long.into());
    }
    out
}

/// A count with wget's suffixes: `10k`, `5m`, `1g` (powers of 1024).
fn octets(flag: &str, text: &str) -> Result<u64, CliError> {
    let t = text.trim().to_ascii_lowercase();
    let (digits, scale) = match t.chars().last() {
        Some('k') => (&t[..t.len() - 1], 1u64 << 10),
        Some('m') => (&t[..t.len() - 1], 1 << 20),
        Some('g') => (&t[..t.len() - 1], 1 << 30),
        _ => (&t[..], 1),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{flag}: `{text}` is not a number of octets (as 500k, 10m, 1g)"
            ))
        })
}

/// `N`, or `0`/`inf` for no limit.
fn limit(flag: &str, text: &str) -> Result<Option<u32>, CliError> {
    match text.trim() {
        "0" | "inf" | "infinite" => Ok(None),
        n => n
            .parse::<u32>()
            .map(Some)
            .map_err(|_| CliError::Usage(format!("{flag}: `{text}` is not a number, 0 or inf"))),
    }
}

impl CrawlArgs {
    fn config(&self) -> Result<(Config, Vec<Url>, StoreAt), CliError> {
        let dialect = self.dialect.0;
        let mut robots = !self.no_robots;
        for command in &self.execute {
            let (key, value) = command
                .split_once('=')
                .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_ascii_lowercase()))
                .ok_or_else(|| CliError::Usage(format!("-e `{command}`: expected NAME=VALUE")))?;
            match (key.as_str(), value.as_str()) {
                ("robots", "off" | "0" | "no") => robots = false,
                ("robots", "on" | "1" | "yes") => robots = true,
                _ => {
                    return Err(CliError::Usage(format!(
                        "-e `{command}`: only robots=on and robots=off are known"
                    )))
                }
            }
        }
        let mut starts = Vec::new();
        let mut texts: Vec<(String, String)> = self
            .urls
            .iter()
            .enumerate()
            .map(|(i, u)| (format!("URL argument {}", i + 1), u.clone()))
            .collect();
        if let Some(file) = &self.input_file {
            texts.extend(read_input_file(file)?);
        }
        for (place, text) in texts {
            let url = Url::parse(text.trim())
                .ok()
                .filter(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
                .ok_or_else(|| {
                    CliError::Usage(format!("{place}: `{text}` is not an http or https URL"))
                })?;
            starts.push(url);
        }
        let user_agent = self
            .user_agent
            .clone()
            .unwrap_or_else(|| concat!("norobots/", env!("CARGO_PKG_VERSION")).to_owned());
        let agent = match &self.agent {
            Some(a) => a.clone(),
            None => norobots::robot_token(&user_agent).to_owned(),
        };
        if agent.is_empty() {
            return Err(CliError::Usage(format!(
                "-U `{user_agent}` has no product token to match User-agent lines with: give one with --agent"
            )));
        }
        let mut config = Config::new(&self.directory_prefix);
        config.scope.level = limit("-l", &self.level)?;
        config.scope.no_parent = self.no_parent;
        config.scope.span_hosts = self.span_hosts;
        config.scope.domains = self.domains.clone();
        config.scope.accept = self.accept.clone();
        config.scope.reject = self.reject.clone();
        config.scope.accept_regex = self.accept_regex.clone();
        config.scope.reject_regex = self.reject_regex.clone();
        config.politeness.wait = self.wait;
        config.politeness.random_wait = self.random_wait;
        config.politeness.max_crawl_delay = self.max_crawl_delay;
        config.robots = robots;
        config.robots_first_page = self.robots_first_page;
        config.dialect = dialect;
        config.user_agent = user_agent;
        config.agent = agent;
        config.ignore_meta = self.ignore_meta;
        if self.jobs == 0 || self.per_host == 0 {
            return Err(CliError::Usage(
                "-j and --per-host must be at least 1".into(),
            ));
        }
        config.jobs = self.jobs;
        config.per_host = self.per_host;
        config.threads = self.threads.clamp(1, 64);
        config.tries = limit("-t", &self.tries)?.unwrap_or(u32::MAX).max(1);
        config.waitretry = self.waitretry;
        if self.timeout.is_zero() {
            return Err(CliError::Usage(
                "-T must be a positive number of seconds".into(),
            ));
        }
        config.timeout = self.timeout;
        config.max_page_bytes = octets("--max-page-bytes", &self.max_page_bytes)?;
        config.max_pages = self.max_pages;
        config.quota = self.quota.as_deref().map(|q| octets("-Q", q)).transpose()?;
        config.spider = self.spider;
        config.host_directories = !self.no_host_directories;
        config.directories = !self.no_directories;
        config.warc = self.warc_file.clone();
        config.arguments = std::env::args().collect();
        config.log = self.log.clone();
        config.sitemaps = self.sitemaps;
        let store = self.store_at()?;
        Ok((config, starts, store))
    }

    fn store_at(&self) -> Result<StoreAt, CliError> {
        Ok(match &self.store {
            None => StoreAt::Sqlite(norobots_crawl::default_store(&self.directory_prefix)),
            Some(s) if s.starts_with("postgres://") || s.starts_with("postgresql://") => {
                StoreAt::Postgres(s.clone())
            }
            Some(s) => match s.split_once(':') {
                Some(("sqlite", path)) if !path.is_empty() => StoreAt::Sqlite(PathBuf::from(path)),
                _ => {
                    return Err(CliError::Usage(format!(
                        "--store `{s}`: expected sqlite:PATH or postgres://USER@HOST:PORT/DB"
                    )))
                }
            },
        })
    }

    /// The worker's options in a PostgreSQL store.
    fn pg_options(&self) -> Result<PgOptions, CliError> {
        let name = match &self.worker {
            Some(w) if w.trim().is_empty() => {
                return Err(CliError::Usage("--worker: the name is empty".into()))
            }
            Some(w) => w.clone(),
            None => format!("{}-{}", host_name(), std::process::id()),
        };
        if self.lease_secs < Duration::from_secs(1) {
            return Err(CliError::Usage(
                "--lease-secs must be at least 1 second".into(),
            ));
        }
        let mut o = PgOptions::new(&name);
        o.lease = self.lease_secs;
        if self.batch == 0 {
            return Err(CliError::Usage("--batch must be at least 1".into()));
        }
        o.batch = self.batch;
        Ok(o)
    }

    /// Runs the crawl (or `--status`, `--export-log`); the exit status.
    pub fn run(self) -> Result<u8, CliError> {
        let (config, starts, store_at) = self.config()?;
        // One thread: a crawl waits on the network, and its CPU work per
        // page (parsing, the store, a file) is shorter than handing it to
        // another thread, so a second runtime thread costs CPU and gains no
        // speed (crates/norobots-bench/README.md has the measurement).
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| CliError::Usage(format!("cannot start the async runtime: {e}")))?;
        match store_at {
            StoreAt::Sqlite(path) => {
                let known = path.exists();
                if self.status || self.export_log {
                    if !known {
                        return Err(CliError::Usage(format!(
                            "no crawl store at {}",
                            path.display()
                        )));
                    }
                    let store = SqliteStore::open(&path)
                        .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
                    return runtime.block_on(self.report(&store, &path.display().to_string()));
                }
                if starts.is_empty() && !self.resume {
                    return Err(CliError::Usage(
                        "no URL to crawl (give URLs, -i FILE, or --continue)".into(),
                    ));
                }
                if known && !self.resume {
                    return Err(CliError::Usage(format!(
                        "a crawl store exists at {} (from an earlier crawl): --continue resumes it; remove it to start over",
                        path.display()
                    )));
                }
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        CliError::Usage(format!("cannot create {}: {e}", dir.display()))
                    })?;
                }
                let store = SqliteStore::open(&path)
                    .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
                let resume = self.resume;
                runtime.block_on(self.crawl(config, store, starts, resume))
            }
            StoreAt::Postgres(url) => runtime.block_on(async move {
                let named = format!("{} (job `{}`)", redact(&url), self.job);
                if self.status || self.export_log {
                    let store = PgStore::inspect(&url, &self.job, self.lease_secs)
                        .await
                        .map_err(|e| CliError::Usage(format!("--store {named}: {e}")))?;
                    return self.report(&store, &named).await;
                }
                let options = self.pg_options()?;
                let worker = options.worker.clone();
                let (store, resumed) = PgStore::open(&url, &self.job, options)
                    .await
                    .map_err(|e| CliError::Usage(format!("--store {named}: {e}")))?;
                if let (Some(log), false) = (&config.log, resumed) {
                    // A new worker starts its log empty: never over a file
                    // that holds another run's lines.
                    if std::fs::metadata(log).is_ok_and(|m| m.len() > 0) {
                        return Err(CliError::Usage(format!(
                            "crawl log `{}` exists and worker `{worker}` is new to job `{}`: give another --log, or --worker with the name that wrote it",
                            log.display(),
                            self.job
                        )));
                    }
                }
                self.crawl(config, store, starts, resumed).await
            }),
        }
    }

    /// Crawls over `store` until the crawl (the job) is done.
    async fn crawl<S: Store>(
        &self,
        config: Config,
        store: S,
        starts: Vec<Url>,
        resume: bool,
    ) -> Result<u8, CliError> {
        let robots = (config.robots, config.dialect, config.agent.clone());
        let crawler =
            Crawler::new(config, store, &starts).map_err(|e| CliError::Usage(e.to_string()))?;
        let progress =
            (!self.quiet && io::stderr().is_terminal()).then(|| spawn_progress(crawler.clone()));
        let stopper = crawler.clone();
        tokio::spawn(async move {
            wait_for_signal().await;
            stopper.stop();
        });
        let result = crawler.run(starts, resume).await;
        if let Some(p) = progress {
            p.abort();
        }
        let summary = result.map_err(|e| CliError::Usage(e.to_string()))?;
        if !self.quiet {
            let _ = print_summary(&summary, robots, &mut io::stderr().lock());
        }
        Ok(exit_status(&summary))
    }

    /// `--status` or `--export-log` of the crawl in `store`.
    async fn report<S: Store>(&self, store: &S, named: &str) -> Result<u8, CliError> {
        let failed =
            |e: norobots_crawl::store::StoreError| CliError::Usage(format!("{named}: {e}"));
        let mut out = io::stdout().lock();
        if self.export_log {
            let mut after = 0;
            loop {
                let rows = store.job_log(after, 4096).await.map_err(failed)?;
                let Some(last) = rows.last() else { break };
                after = last.seq;
                for row in &rows {
                    writeln!(out, "{}", norobots_crawl::log::line(row))?;
                }
            }
            return Ok(0);
        }
        let s = store
            .stats(norobots_crawl::store::now_ms())
            .await
            .map_err(failed)?;
        writeln!(out, "store: {named}")?;
        writeln!(out, "queued: {}", s.queued)?;
        writeln!(out, "leased: {}", s.leased)?;
        let decisions: Vec<String> = Decision::ALL
            .iter()
            .filter_map(|d| s.decided.get(d).map(|n| format!("{d} {n}")))
            .collect();
        writeln!(
            out,
            "decided: {} ({})",
            s.decided.values().sum::<u64>(),
            if decisions.is_empty() {
                "none".to_owned()
            } else {
                decisions.join(", ")
            }
        )?;
        writeln!(
            out,
            "hosts: {} with queued URLs, {} waiting for their time",
            s.hosts_with_work, s.hosts_waiting
        )?;
        writeln!(
            out,
            "workers: {} seen in the last {} s",
            s.workers,
            self.lease_secs.as_secs()
        )?;
        Ok(0)
    }
}

/// Where the crawl's state is.
enum StoreAt {
    Sqlite(PathBuf),
    Postgres(String),
}

/// A store URL without its password, for messages.
fn redact(url: &str) -> String {
    match Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        _ => url.to_owned(),
    }
}

/// This machine's name, for worker names.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_owned())
}

fn read_input_file(path: &Path) -> Result<Vec<(String, String)>, CliError> {
    let named = path.display().to_string();
    let reader: Box<dyn BufRead> = if path == Path::new("-") {
        Box::new(io::BufReader::new(io::stdin()))
    } else {
        Box::new(io::BufReader::new(std::fs::File::open(path).map_err(
            |e| CliError::Usage(format!("cannot read input file `{named}`: {e}")),
        )?))
    };
    let mut out = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line =
            line.map_err(|e| CliError::Usage(format!("input file `{named}` line {}: {e}", i + 1)))?;
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        out.push((format!("input file `{named}` line {}", i + 1), t.to_owned()));
    }
    Ok(out)
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let (Ok(mut term), Ok(mut int)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The live line: pages, pages per second, queued, hosts waiting, octets.
fn spawn_progress<S: Store>(crawler: Crawler<S>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        let began = Instant::now();
        let progress = crawler.progress();
        loop {
            let stats = crawler.store().stats(norobots_crawl::store::now_ms());
            let (queued, waiting) = match stats.await {
                Ok(s) => (s.queued, s.hosts_waiting),
                Err(_) => (0, 0),
            };
            let pages = progress.fetched.load(std::sync::atomic::Ordering::Relaxed);
            let bytes = progress.bytes.load(std::sync::atomic::Ordering::Relaxed);
            let rate = pages as f64 / began.elapsed().as_secs_f64().max(0.001);
            bar.set_message(format!(
                "{pages} pages, {rate:.0}/s, {queued} queued, {waiting} hosts waiting, {}",
                indicatif::HumanBytes(bytes)
            ));
            bar.tick();
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    })
}

/// wget's status: the lowest of the problems seen (3, 4, 8), 130 when
/// interrupted, else 0.
pub fn exit_status(summary: &Summary) -> u8 {
    if summary.interrupted {
        130
    } else if summary.io_errors > 0 {
        3
    } else if summary.network_errors > 0 {
        4
    } else if summary.server_errors > 0 {
        8
    } else {
        0
    }
}

/// The summary on stderr, for people.
pub fn print_summary(
    s: &Summary,
    (robots, dialect, agent): (bool, Dialect, String),
    out: &mut impl Write,
) -> io::Result<()> {
    let secs = s.elapsed.as_secs_f64();
    writeln!(
        out,
        "norobots crawl: {} in {secs:.1} s: {} pages fetched, {} octets ({:.0} pages/s){}",
        if s.interrupted {
            "interrupted"
        } else {
            "finished"
        },
        s.fetched,
        s.bytes,
        s.fetched as f64 / secs.max(0.001),
        if s.interrupted {
            "; --continue resumes"
        } else {
            ""
        }
    )?;
    if robots {
        writeln!(out, "robots.txt: obeyed ({dialect}, agent {agent})")?;
        for (origin, note) in &s.robots {
            let times = if note.fetches == 1 {
                String::new()
            } else {
                format!(", fetched {} times", note.fetches)
            };
            writeln!(
                out,
                "  {origin}/robots.txt: {}: {}{times}",
                note.outcome, note.policy
            )?;
        }
        for (origin, delay) in &s.capped_delays {
            writeln!(
                out,
                "  {origin}: Crawl-delay {delay} s capped by --max-crawl-delay"
            )?;
        }
    } else {
        writeln!(out, "robots.txt: NOT obeyed (-e robots=off / --no-robots): robots.txt and META robots were ignored")?;
    }
    let decisions: Vec<String> = Decision::ALL
        .iter()
        .filter_map(|d| s.stats.decided.get(d).map(|n| format!("{d} {n}")))
        .collect();
    writeln!(out, "decisions: {}", decisions.join(", "))?;
    if s.stats.queued > 0 {
        writeln!(out, "still queued: {} (--continue resumes)", s.stats.queued)?;
    }
    writeln!(out, "hosts:")?;
    for (origin, counts) in &s.hosts {
        let parts: Vec<String> = counts.iter().map(|(d, n)| format!("{d} {n}")).collect();
        writeln!(out, "  {origin}: {}", parts.join(", "))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wget_multi_letter_options_become_long_ones_after_crawl_only() {
        let args = [
            "norobots",
            "crawl",
            "-np",
            "-nH",
            "-nd",
            "-nv",
            "-l",
            "2",
            "http://x/",
        ];
        let out: Vec<String> = wget_spellings(args.map(OsString::from))
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect();
        assert_eq!(
            out,
            [
                "norobots",
                "crawl",
                "--no-parent",
                "--no-host-directories",
                "--no-directories",
                "--no-verbose",
                "-l",
                "2",
                "http://x/"
            ]
        );
        let check = ["norobots", "check", "-np"].map(OsString::from);
        assert_eq!(wget_spellings(check.clone()), check);
    }

    #[test]
    fn octets_take_wget_suffixes_and_limits_take_inf() {
        assert_eq!(octets("-Q", "10m").unwrap(), 10 << 20);
        assert_eq!(octets("-Q", "500K").unwrap(), 500 << 10);
        assert_eq!(octets("-Q", "7").unwrap(), 7);
        assert!(octets("-Q", "lots").is_err());
        assert!(octets("-Q", "99999999999g").is_err());
        assert_eq!(limit("-l", "inf").unwrap(), None);
        assert_eq!(limit("-l", "0").unwrap(), None);
        assert_eq!(limit("-l", "3").unwrap(), Some(3));
        assert!(limit("-l", "-1").is_err());
    }
}
