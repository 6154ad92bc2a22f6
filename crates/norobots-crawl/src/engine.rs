//! The crawl: claim due URLs from the store, and for each run the same
//! straight line of stages, each of which may end it with a decision:
//!
//! 1. **robots**: the origin's robots.txt (fetched lazily, once per
//!    lifetime, counted as a request to the host), `Visit-time`;
//! 2. **fetch**: one request, redirects not followed;
//! 3. **answer**: a redirect's target becomes a URL of its own (checked
//!    against its own origin's robots.txt when its turn comes), a
//!    transient failure is tried again later, an error is final;
//! 4. **page**: `X-Robots-Tag` and, for HTML, one parse for META robots
//!    and links; `noindex` is not saved, `nofollow` and `rel=nofollow`
//!    links are not followed; links go through the scope;
//! 5. **write**: the WARC records and the mirror file, before
//! 6. **complete**: one store transaction with the decision, the new
//!    URLs and the host's next-allowed time.
//!
//! Only the store holds state that matters; memory holds caches (robots
//! rules, a bounded filter of URLs already sent to the store) and counts.

use std::collections::{BTreeMap, HashSet};
use std::hash::BuildHasher;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use norobots::meta::{Links, PageDirectives};
use norobots_fetch::{Entry, Origin, Policy, RobotsCache};
use tokio::sync::{Notify, Semaphore};
use url::Url;

use crate::config::Config;
use crate::decision::{Decision, Reason};
use crate::gate::{Answer, Gate};
use crate::log::{LogError, LogWriter};
use crate::mirror::{Layout, Mirror};
use crate::normalize::{normalize, resolve};
use crate::page::{Body, FetchError, FetchOptions, Page, PageFetcher};
use crate::politeness::{retry_wait, visit_wait, Cause, Pace};
use crate::scope::{Scope, Verdict};
use crate::store::{
    millis, now_ms, Final, HostCounts, HostUpdate, Lease, NewUrl, RobotsRow, Stats, Store,
    StoreError, Via,
};
use crate::warc::{self, RobotsMode, WarcInfo, WarcWriter};

/// How many URLs the filter in front of the store remembers before it
/// starts over: it saves the store a lookup for most links of a site
/// (which point at pages already known) in bounded memory.
const SEEN_CAP: usize = 1 << 20;

/// The longest a `Retry-After` holds a host.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(3600);

/// A crawl failed as a whole (a page failing is a decision, not this).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CrawlError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The log failed.
    #[error(transparent)]
    Log(#[from] LogError),
    /// A setting is unusable (a bad pattern, a prefix that cannot be made).
    #[error("{0}")]
    Setup(String),
    /// The WARC file failed.
    #[error("WARC file: {0}")]
    Warc(#[from] warc::Error),
}

/// Counts the progress line reads while the crawl runs.
#[derive(Debug, Default)]
pub struct Progress {
    /// Pages fetched (any answer).
    pub fetched: AtomicU64,
    /// Body octets read.
    pub bytes: AtomicU64,
    /// Requests made, robots.txt included.
    pub requests: AtomicU64,
    /// Requests that got no answer.
    pub network_errors: AtomicU64,
    /// Answers with an error status that were final.
    pub server_errors: AtomicU64,
    /// Files that could not be saved.
    pub io_errors: AtomicU64,
}

/// What a robots.txt fetch came to, per origin, for the summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RobotsNote {
    /// How the fetch ended (`HTTP 200`, `timed out`).
    pub outcome: String,
    /// What it means (`obey the file's rules`, `disallow all (HTTP 401)`).
    pub policy: String,
    /// How often it was fetched in this run.
    pub fetches: u32,
}

/// What a crawl did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The store's counts at the end.
    pub stats: Stats,
    /// Final decisions per origin.
    pub hosts: HostCounts,
    /// robots.txt fetched in this run, per origin.
    pub robots: BTreeMap<String, RobotsNote>,
    /// Whether robots.txt was obeyed.
    pub robots_obeyed: bool,
    /// Origins whose `Crawl-delay` was cut to `--max-crawl-delay`, with
    /// the delay they asked.
    pub capped_delays: BTreeMap<String, f64>,
    /// Pages fetched in this run.
    pub fetched: u64,
    /// Body octets read in this run.
    pub bytes: u64,
    /// Requests without an answer in this run.
    pub network_errors: u64,
    /// Final error answers in this run.
    pub server_errors: u64,
    /// Files that could not be written.
    pub io_errors: u64,
    /// The crawl stopped before its end (a signal); `--continue` resumes.
    pub interrupted: bool,
    /// How long it ran.
    pub elapsed: Duration,
}

/// Remembers, in bounded memory, URLs already handed to the store.
struct Seen {
    hashes: HashSet<u64, foldhash::fast::RandomState>,
}

/// Shards of the seen filter.
const SEEN_SHARDS: usize = 16;

impl Seen {
    /// Whether the URL of `hash` is new to the filter (it may still be
    /// known to the store: the filter forgets when full).
    fn first(&mut self, hash: u64) -> bool {
        if self.hashes.len() >= SEEN_CAP / SEEN_SHARDS {
            self.hashes.clear();
        }
        self.hashes.insert(hash)
    }
}

struct Inner<S> {
    config: Config,
    store: S,
    scope: Scope,
    gate: Option<Gate>,
    /// One client per engine thread, so that each thread drives its own
    /// connections.
    fetchers: Vec<PageFetcher>,
    mirror: Option<Mirror>,
    /// The WARC file, once `run` opened it.
    warc: Mutex<Option<WarcWriter>>,
    /// Sharded by the URL's hash, so that engine threads seldom wait on
    /// each other for it.
    seen: Box<[Mutex<Seen>]>,
    seen_hasher: foldhash::fast::RandomState,
    progress: Arc<Progress>,
    /// One per engine thread: woken when a URL completes or is added.
    notify: Vec<Notify>,
    /// Per engine thread: it found nothing to claim and sleeps until told
    /// (or its timer fires). Only such a thread is woken from another,
    /// which costs a system call each time.
    idle: Vec<AtomicBool>,
    /// No more claims: a quota was reached.
    quota_hit: AtomicBool,
    /// No more claims: the user asked to stop.
    stopping: AtomicBool,
    robots_notes: Mutex<BTreeMap<String, RobotsNote>>,
    capped: Mutex<BTreeMap<String, f64>>,
}

/// A crawl over a store.
///
/// ```no_run
/// # #[tokio::main]
/// # async fn main() -> Result<(), norobots_crawl::CrawlError> {
/// use norobots_crawl::{store::sqlite::SqliteStore, Config, Crawler};
///
/// let config = Config::new("mirror");
/// let store = SqliteStore::open("mirror/crawl.sqlite".as_ref())?;
/// let start = url::Url::parse("http://127.0.0.1:8080/").unwrap();
/// let crawler = Crawler::new(config, store, &[start.clone()])?;
/// let summary = crawler.run(vec![start], false).await?;
/// println!("{} pages", summary.fetched);
/// # Ok(()) }
/// ```
pub struct Crawler<S: Store> {
    inner: Arc<Inner<S>>,
}

impl<S: Store> Clone for Crawler<S> {
    fn clone(&self) -> Self {
        Crawler {
            inner: Arc::clone(&self.inner),
        }
    }
}

/// The store's time once `wait` has passed from now, rounded up: a time
/// rounded down would let a host due then be asked again up to a
/// millisecond before its wait is over.
fn ms_after(wait: Duration) -> i64 {
    let Some(d) = SystemTime::now()
        .checked_add(wait)
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
    else {
        return i64::MAX;
    };
    let ms = d.as_millis() + u128::from(d.subsec_nanos() % 1_000_000 != 0);
    i64::try_from(ms).unwrap_or(i64::MAX)
}

impl<S: Store> Crawler<S> {
    /// A crawler for `config` over `store`; `starts` set the scope (the
    /// hosts, and with `-np` the directories).
    pub fn new(config: Config, store: S, starts: &[Url]) -> Result<Crawler<S>, CrawlError> {
        let scope = Scope::new(&config.scope, starts).map_err(CrawlError::Setup)?;
        let spool_dir = config.prefix.join(".norobots").join("tmp");
        std::fs::create_dir_all(&spool_dir).map_err(|e| {
            CrawlError::Setup(format!("cannot create {}: {e}", spool_dir.display()))
        })?;
        PageFetcher::clean_spool(&spool_dir);
        let threads = config.threads.max(1);
        let fetchers = (0..threads)
            .map(|_| {
                PageFetcher::new(FetchOptions {
                    user_agent: config.user_agent.clone(),
                    timeout: config.timeout,
                    max_bytes: config.max_page_bytes,
                    spool_dir: spool_dir.clone(),
                    per_host: config.per_host as usize,
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| CrawlError::Setup(format!("HTTP client: {e}")))?;
        let gate = if config.robots {
            let mut rc = norobots_fetch::Config::new(config.dialect)
                .user_agent(&config.user_agent)
                .timeout(config.timeout.min(Duration::from_secs(30)))
                .connect_timeout(config.timeout.min(Duration::from_secs(10)));
            rc.retry_initial = config.waitretry.max(Duration::from_millis(100));
            rc.retry_max = config.waitretry.max(Duration::from_millis(100)) * 8;
            let cache = RobotsCache::new(rc)
                .map_err(|e| CrawlError::Setup(format!("robots.txt client: {e}")))?;
            Some(Gate::new(cache, &config.agent))
        } else {
            None
        };
        let mirror = if config.spider {
            None
        } else {
            let layout = Layout::new()
                .host_directories(config.host_directories)
                .directories(config.directories);
            Some(Mirror::new(&config.prefix, layout).map_err(|e| {
                CrawlError::Setup(format!("cannot use {}: {e}", config.prefix.display()))
            })?)
        };
        Ok(Crawler {
            inner: Arc::new(Inner {
                config,
                store,
                scope,
                gate,
                fetchers,
                mirror,
                warc: Mutex::new(None),
                seen: (0..SEEN_SHARDS)
                    .map(|_| {
                        Mutex::new(Seen {
                            hashes: HashSet::default(),
                        })
                    })
                    .collect(),
                seen_hasher: foldhash::fast::RandomState::default(),
                progress: Arc::new(Progress::default()),
                notify: (0..threads).map(|_| Notify::new()).collect(),
                idle: (0..threads).map(|_| AtomicBool::new(false)).collect(),
                quota_hit: AtomicBool::new(false),
                stopping: AtomicBool::new(false),
                robots_notes: Mutex::new(BTreeMap::new()),
                capped: Mutex::new(BTreeMap::new()),
            }),
        })
    }

    /// The counts the crawl keeps as it goes.
    pub fn progress(&self) -> Arc<Progress> {
        Arc::clone(&self.inner.progress)
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.inner.store
    }

    /// Asks the crawl to stop: nothing new is started, what is in flight
    /// ends and is recorded. `--continue` resumes from there.
    pub fn stop(&self) {
        self.inner.stopping.store(true, Relaxed);
        self.wake_all();
    }

    /// Wakes every engine thread's scheduler.
    fn wake_all(&self) {
        for n in &self.inner.notify {
            n.notify_one();
        }
    }

    /// After a URL of `thread` completed: wakes that thread, and the others
    /// that wait for work.
    fn wake_after(&self, thread: usize) {
        for (i, n) in self.inner.notify.iter().enumerate() {
            if i == thread || self.inner.idle[i].swap(false, Relaxed) {
                n.notify_one();
            }
        }
    }

    /// Crawls from `starts` until nothing is left; with `resume`, first
    /// takes back what a dead run had in flight and its robots.txt copies.
    pub async fn run(self, starts: Vec<Url>, resume: bool) -> Result<Summary, CrawlError> {
        let began = std::time::Instant::now();
        self.open_warc(resume)?;
        let inner = Arc::clone(&self.inner);
        if resume {
            inner.store.recover().await?;
        }
        let start_urls: Vec<NewUrl> = starts
            .into_iter()
            .map(|mut u| {
                normalize(&mut u);
                NewUrl {
                    origin: u.origin().ascii_serialization(),
                    url: u.into(),
                    depth: 0,
                    parent: None,
                    via: Via::Start,
                    hops: 0,
                    outcome: None,
                }
            })
            .collect();
        inner.store.add(start_urls).await?;
        inner.store.flush().await?;

        let log_done = Arc::new(AtomicBool::new(false));
        let log_task = match &inner.config.log {
            Some(path) => {
                let mut writer = LogWriter::open(path, &inner.store).await?;
                let crawler = self.clone();
                let done = Arc::clone(&log_done);
                Some(tokio::spawn(async move {
                    loop {
                        let finished = done.load(Relaxed);
                        writer.catch_up(crawler.store()).await?;
                        if finished {
                            return Ok::<(), LogError>(());
                        }
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }))
            }
            None => None,
        };

        // Engine threads beyond this one run their own runtime, sharing
        // the store, the robots gate, the mirror and the seen filter.
        let threads = inner.fetchers.len();
        let mut others = Vec::new();
        for thread in 1..threads {
            let crawler = self.clone();
            let handle = std::thread::Builder::new()
                .name(format!("norobots-engine-{thread}"))
                .spawn(move || {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .map_err(|e| CrawlError::Setup(format!("engine thread: {e}")))?;
                    runtime.block_on(crawler.schedule(thread))
                })
                .map_err(|e| CrawlError::Setup(format!("engine thread: {e}")))?;
            others.push(handle);
        }
        let mut result = self.schedule(0).await;
        for handle in others {
            let joined = tokio::task::spawn_blocking(move || handle.join())
                .await
                .map_err(|e| CrawlError::Setup(e.to_string()))?;
            match joined {
                Ok(r) => result = result.and(r),
                Err(_) => result = Err(CrawlError::Setup("an engine thread panicked".into())),
            }
        }
        if inner.quota_hit.load(Relaxed) {
            // What the last pages in flight added is decided too.
            inner.store.finish_all(self.quota_final()).await?;
        }
        // Others sharing the store take up what this process did not start.
        inner.store.give_back().await?;
        log_done.store(true, Relaxed);
        if let Some(task) = log_task {
            match task.await {
                Ok(r) => r?,
                Err(e) => return Err(CrawlError::Setup(format!("log task: {e}"))),
            }
        }
        result?;
        inner.store.flush().await?;
        if let Some(w) = inner
            .warc
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_mut()
        {
            w.sync()?;
        }
        let stats = inner.store.stats(now_ms()).await?;
        let hosts = inner.store.host_counts().await?;
        let p = &inner.progress;
        let robots = inner
            .robots_notes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let capped_delays = inner
            .capped
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        Ok(Summary {
            stats,
            hosts,
            robots,
            robots_obeyed: inner.config.robots,
            capped_delays,
            fetched: p.fetched.load(Relaxed),
            bytes: p.bytes.load(Relaxed),
            network_errors: p.network_errors.load(Relaxed),
            server_errors: p.server_errors.load(Relaxed),
            io_errors: p.io_errors.load(Relaxed),
            interrupted: inner.stopping.load(Relaxed),
            elapsed: began.elapsed(),
        })
    }

    fn open_warc(&self, resume: bool) -> Result<(), CrawlError> {
        let Some(name) = &self.inner.config.warc else {
            return Ok(());
        };
        let path = warc::warc_path(name);
        let mode = if self.inner.config.robots {
            RobotsMode::Obey
        } else {
            RobotsMode::Off
        };
        let info = WarcInfo::new(mode, self.inner.config.arguments.iter().cloned());
        let writer = if resume && path.exists() {
            WarcWriter::append(&path, &info)?.0
        } else {
            WarcWriter::create(&path, &info)?
        };
        *self.inner.warc.lock().unwrap_or_else(|e| e.into_inner()) = Some(writer);
        Ok(())
    }

    /// Claims and starts URLs until the store is drained.
    async fn schedule(&self, thread: usize) -> Result<(), CrawlError> {
        let inner = &self.inner;
        let threads = inner.fetchers.len();
        // `-j` is shared out: each thread keeps its part in flight.
        let jobs = (inner.config.jobs.max(1) + threads - 1 - thread) / threads;
        let jobs = jobs.max(1);
        let notify = &inner.notify[thread];
        let permits = Arc::new(Semaphore::new(jobs));
        let min_delay = inner.config.politeness.floor(&Pace::default()).as_millis() as i64;
        let failure: Arc<Mutex<Option<CrawlError>>> = Arc::default();
        loop {
            let failed = failure.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(e) = failed {
                // Let what is in flight end before giving up.
                let _ = permits.acquire_many(jobs as u32).await;
                return Err(e);
            }
            let in_flight = jobs - permits.available_permits();
            let halted = inner.stopping.load(Relaxed) || inner.quota_hit.load(Relaxed);
            if halted {
                if in_flight == 0 {
                    return Ok(());
                }
                notify.notified().await;
                continue;
            }
            let free = permits.available_permits();
            if free == 0 {
                notify.notified().await;
                continue;
            }
            let claim = inner
                .store
                .claim(now_ms(), free, inner.config.per_host, min_delay)
                .await?;
            if claim.leases.is_empty() {
                if claim.drained && in_flight == 0 {
                    return Ok(());
                }
                let idle = inner.store.idle_look();
                let wait = claim
                    .next
                    .map_or(
                        idle,
                        |t| Duration::from_millis((t - now_ms()).max(1) as u64),
                    )
                    .min(idle);
                inner.idle[thread].store(true, Relaxed);
                tokio::select! {
                    _ = notify.notified() => {}
                    _ = tokio::time::sleep(wait) => {}
                }
                inner.idle[thread].store(false, Relaxed);
                continue;
            }
            for lease in claim.leases {
                let permit = Arc::clone(&permits)
                    .acquire_owned()
                    .await
                    .map_err(|e| CrawlError::Setup(e.to_string()))?;
                let crawler = self.clone();
                let failure = Arc::clone(&failure);
                tokio::spawn(async move {
                    if let Err(e) = crawler.process(lease, thread).await {
                        *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                    }
                    drop(permit);
                    crawler.wake_after(thread);
                });
            }
        }
    }

    fn quota_final(&self) -> Final {
        let c = &self.inner.config;
        let rule = match (c.max_pages, c.quota) {
            (Some(n), _) if self.inner.progress.fetched.load(Relaxed) >= n => {
                format!("--max-pages {n}")
            }
            (_, Some(q)) => format!("-Q {q}: quota reached"),
            (Some(n), None) => format!("--max-pages {n}"),
            (None, None) => "stopped".to_owned(),
        };
        Final::new(Decision::OutOfScope, Some(Reason::Scope { rule }), now_ms())
    }

    /// Takes one URL through the stages.
    async fn process(&self, lease: Lease, thread: usize) -> Result<(), CrawlError> {
        let inner = &*self.inner;
        let Ok(url) = Url::parse(&lease.url) else {
            let outcome = Final::new(
                Decision::Error,
                Some(Reason::Failure {
                    message: "not a URL".into(),
                }),
                now_ms(),
            );
            return self
                .done(&lease, outcome, vec![], None, HostUpdate::default())
                .await;
        };
        let mut pace = Pace::default();
        let checks_robots = lease.via != Via::Start || inner.config.robots_first_page;
        if let (Some(gate), true) = (&inner.gate, checks_robots) {
            if !gate.cache().is_fresh(url.as_str()) {
                // What another process (or an earlier run) fetched is
                // used before fetching again: once per lifetime per crawl.
                if let Some(row) = inner.store.robots_of(&lease.origin).await? {
                    seed(gate.cache(), &row);
                }
            }
            let (answer, fetched) = gate.check(&url).await;
            pace = gate.pace(&lease.origin);
            if let Some(entry) = &fetched {
                self.robots_fetched(&url, entry, &pace).await?;
            }
            match answer {
                Answer::Allow => {}
                Answer::Disallow(reason) => {
                    let outcome = Final::new(Decision::Disallowed, Some(reason), now_ms());
                    return self
                        .done(&lease, outcome, vec![], None, HostUpdate::default())
                        .await;
                }
                Answer::Defer { until, reason } => {
                    let tries = lease.robots_tries + 1;
                    if tries >= inner.config.robots_tries {
                        let outcome = Final::new(Decision::Deferred, Some(reason), now_ms());
                        inner
                            .store
                            .finish_host(&lease.origin, outcome.clone())
                            .await?;
                        let host = HostUpdate {
                            robots_tries: Some(tries),
                            ..HostUpdate::default()
                        };
                        return self.done(&lease, outcome, vec![], None, host).await;
                    }
                    let host = HostUpdate {
                        not_before: Some(millis(until).max(now_ms())),
                        robots_tries: Some(tries),
                        ..HostUpdate::default()
                    };
                    inner.store.release(lease.id, false, host).await?;
                    return Ok(());
                }
            }
            let delay = inner.config.politeness.delay(&pace, 0.0).0;
            if fetched.is_some() && !delay.is_zero() {
                // robots.txt was a request to this host: the page waits.
                let host = HostUpdate {
                    not_before: Some(ms_after(delay)),
                    delay_ms: Some(inner.config.politeness.floor(&pace).as_millis() as i64),
                    robots_tries: Some(0),
                };
                inner.store.release(lease.id, false, host).await?;
                return Ok(());
            }
            if let Some(window) = pace.visit_time {
                if let Some(wait) = visit_wait(SystemTime::now(), window) {
                    let host = HostUpdate {
                        not_before: Some(ms_after(wait)),
                        ..HostUpdate::default()
                    };
                    inner.store.release(lease.id, false, host).await?;
                    return Ok(());
                }
            }
        }
        let verdict = if lease.via == Via::Start {
            Verdict::Fetch
        } else {
            inner.scope.check(&url, lease.depth)
        };

        inner.progress.requests.fetch_add(1, Relaxed);
        let fetched = inner.fetchers[thread].get(&url).await;
        let draw: f64 = rand::random();
        let (delay, _) = inner.config.politeness.delay(&pace, draw);
        let next = HostUpdate {
            not_before: Some(ms_after(delay)),
            delay_ms: Some(inner.config.politeness.floor(&pace).as_millis() as i64),
            robots_tries: (inner.gate.is_some() && checks_robots).then_some(0),
        };
        let page = match fetched {
            Ok(page) => page,
            Err(e) => return self.failed(&lease, e, next).await,
        };
        inner.progress.fetched.fetch_add(1, Relaxed);
        inner.progress.bytes.fetch_add(page.body.len(), Relaxed);
        self.archive(&url, &page)?;
        let status = page.status.as_u16();

        if (status == 429 || status == 503) && lease.attempts + 1 < inner.config.tries {
            let wait = retry_after(&page.headers)
                .unwrap_or_else(|| retry_wait(lease.attempts + 1, inner.config.waitretry))
                .min(MAX_RETRY_AFTER);
            let host = HostUpdate {
                not_before: Some(ms_after(wait.max(delay))),
                ..next
            };
            inner.store.release(lease.id, true, host).await?;
            return Ok(());
        }
        if page.status.is_server_error() && lease.attempts + 1 < inner.config.tries {
            let wait = retry_wait(lease.attempts + 1, inner.config.waitretry);
            let host = HostUpdate {
                not_before: Some(ms_after(wait.max(delay))),
                ..next
            };
            inner.store.release(lease.id, true, host).await?;
            return Ok(());
        }
        let mut outcome = Final {
            decision: Decision::Fetched,
            reason: None,
            status: Some(status),
            bytes: Some(page.body.len()),
            time: now_ms(),
        };
        if page.status.is_redirection() {
            let redirect = self.redirect(&url, &lease, &page, &mut outcome);
            return self.done(&lease, outcome, vec![], redirect, next).await;
        }
        if page.status.is_client_error() || page.status.is_server_error() {
            inner.progress.server_errors.fetch_add(1, Relaxed);
            outcome.decision = Decision::Error;
            outcome.reason = Some(Reason::Failure {
                message: format!(
                    "HTTP {status} {}",
                    page.status.canonical_reason().unwrap_or("")
                )
                .trim_end()
                .to_owned(),
            });
            return self.done(&lease, outcome, vec![], None, next).await;
        }
        if page.truncated {
            outcome.reason = Some(Reason::Note {
                note: format!("cut at --max-page-bytes {}", inner.config.max_page_bytes),
            });
        }

        let (children, save, noindex) = if lease.via == Via::Sitemap {
            (self.sitemap_children(&url, &lease, &page), true, None)
        } else {
            self.page_children(&url, &lease, &page)
        };
        if let Some(reason) = noindex {
            outcome.decision = Decision::Noindex;
            outcome.reason = Some(reason);
        } else if let Verdict::FetchForLinks(why) = &verdict {
            outcome.reason = Some(Reason::Scope {
                rule: format!("{why}: fetched for its links, not saved"),
            });
        } else if save {
            self.save(&url, &page.body);
        }
        self.count_page_and_quota();
        self.done(&lease, outcome, children, None, next).await
    }

    /// Records a final decision for a leased URL.
    async fn done(
        &self,
        lease: &Lease,
        outcome: Final,
        children: Vec<NewUrl>,
        redirect: Option<NewUrl>,
        host: HostUpdate,
    ) -> Result<(), CrawlError> {
        self.inner
            .store
            .complete(lease.id, outcome, children, redirect, host)
            .await?;
        Ok(())
    }

    async fn failed(
        &self,
        lease: &Lease,
        e: FetchError,
        next: HostUpdate,
    ) -> Result<(), CrawlError> {
        let inner = &*self.inner;
        if e.is_transient() && lease.attempts + 1 < inner.config.tries {
            let wait = retry_wait(lease.attempts + 1, inner.config.waitretry);
            let host = HostUpdate {
                not_before: Some(ms_after(wait)),
                ..next
            };
            inner.store.release(lease.id, true, host).await?;
            return Ok(());
        }
        inner.progress.network_errors.fetch_add(1, Relaxed);
        let outcome = Final::new(
            Decision::Error,
            Some(Reason::Failure {
                message: e.to_string(),
            }),
            now_ms(),
        );
        self.done(lease, outcome, vec![], None, next).await
    }

    /// The target of a redirect, as a URL of its own.
    fn redirect(
        &self,
        url: &Url,
        lease: &Lease,
        page: &Page,
        outcome: &mut Final,
    ) -> Option<NewUrl> {
        let location = page
            .headers
            .get(http::header::LOCATION)
            .and_then(|v| std::str::from_utf8(v.as_bytes()).ok());
        let Some(target) = location.and_then(|l| resolve(url, l.trim())) else {
            outcome.reason = Some(Reason::Note {
                note: "a redirect without a usable Location".into(),
            });
            return None;
        };
        if lease.hops + 1 > self.inner.config.max_redirects {
            outcome.decision = Decision::Error;
            outcome.reason = Some(Reason::Failure {
                message: format!("more than {} redirects", self.inner.config.max_redirects),
            });
            return None;
        }
        outcome.reason = Some(Reason::Redirect {
            to: target.to_string(),
        });
        let mut new = self.child(&target, lease, lease.depth, Via::Redirect)?;
        new.hops = lease.hops + 1;
        // A redirect always names its target, even one already known:
        // the store makes this URL a duplicate then.
        Some(new)
    }

    /// A URL found while processing `lease`, as the store should get it:
    /// queued, or decided out of scope on sight; `None` when the filter
    /// knows it already.
    fn child(&self, target: &Url, lease: &Lease, depth: u32, via: Via) -> Option<NewUrl> {
        let verdict = self.inner.scope.check(target, depth);
        let outcome = match verdict {
            Verdict::Out(rule) => Some(Final::new(
                Decision::OutOfScope,
                Some(Reason::Scope { rule }),
                now_ms(),
            )),
            _ => None,
        };
        Some(NewUrl {
            url: target.to_string(),
            origin: target.origin().ascii_serialization(),
            depth,
            parent: Some(lease.id),
            via,
            hops: 0,
            outcome,
        })
    }

    /// Headers and, for HTML, the page: its robots directives and links.
    /// Returns the children, whether to save, and the `noindex` reason.
    fn page_children(
        &self,
        url: &Url,
        lease: &Lease,
        page: &Page,
    ) -> (Vec<NewUrl>, bool, Option<Reason>) {
        let inner = &*self.inner;
        let obey_meta = !inner.config.ignore_meta && inner.config.robots;
        let agent = &inner.config.agent;
        let headers: Vec<&str> = page
            .headers
            .get_all("x-robots-tag")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect();
        let from_headers = PageDirectives::from_headers(headers.iter().copied(), agent);
        let html = is_html(page);
        let from_page = if html {
            page.body
                .reader()
                .and_then(|r| PageDirectives::read_html(r, agent, Links::All))
                .ok()
        } else {
            None
        };
        let mut noindex = None;
        let mut follow = true;
        if obey_meta {
            if !from_headers.index {
                noindex = Some(("x-robots-tag", "noindex"));
            } else if from_page.as_ref().is_some_and(|p| !p.index) {
                noindex = Some(("meta", "noindex"));
            }
            follow = from_headers.follow && from_page.as_ref().is_none_or(|p| p.follow);
        }
        let noindex = noindex.map(|(source, directive)| Reason::Meta {
            source: source.into(),
            directive: directive.into(),
        });
        let Some(parsed) = from_page.filter(|_| follow) else {
            return (Vec::new(), true, noindex);
        };
        let base = parsed
            .base
            .as_deref()
            .and_then(|b| url.join(b).ok())
            .unwrap_or_else(|| url.clone());
        let mut children = Vec::new();
        let mut on_page = HashSet::new();
        for link in &parsed.links {
            if link.nofollow && obey_meta {
                continue;
            }
            let Some(target) = resolve(&base, &link.href) else {
                continue;
            };
            if !on_page.insert(target.as_str().to_owned()) {
                continue;
            }
            if !self.first_sight(target.as_str()) {
                continue;
            }
            if let Some(child) = self.child(&target, lease, lease.depth + 1, Via::Link) {
                children.push(child);
            }
        }
        (children, true, noindex)
    }

    /// The URLs a sitemap lists: pages at depth 1, or (from a sitemap
    /// index found in robots.txt) sitemaps; an index inside an index is
    /// not followed, as the protocol forbids it.
    fn sitemap_children(&self, url: &Url, lease: &Lease, page: &Page) -> Vec<NewUrl> {
        let Ok(reader) = page.body.reader() else {
            return Vec::new();
        };
        let map = crate::sitemap::parse(reader, url);
        let (via, depth) = match map.kind {
            crate::sitemap::Kind::Index if lease.depth == 0 => (Via::Sitemap, 1),
            crate::sitemap::Kind::Index => return Vec::new(),
            _ => (Via::Link, 1),
        };
        map.urls
            .iter()
            .filter_map(|u| {
                let mut u = u.clone();
                normalize(&mut u);
                if !self.first_sight(u.as_str()) {
                    return None;
                }
                self.child(&u, lease, depth, via)
            })
            .collect()
    }

    fn first_sight(&self, url: &str) -> bool {
        let hash = self.inner.seen_hasher.hash_one(url);
        self.inner.seen[(hash as usize) % SEEN_SHARDS]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .first(hash)
    }

    fn count_page_and_quota(&self) {
        let inner = &*self.inner;
        let fetched = inner.progress.fetched.load(Relaxed);
        let bytes = inner.progress.bytes.load(Relaxed);
        let over = inner.config.max_pages.is_some_and(|n| fetched >= n)
            || inner.config.quota.is_some_and(|q| bytes >= q);
        if over {
            inner.quota_hit.store(true, Relaxed);
            self.wake_all();
        }
    }

    fn save(&self, url: &Url, body: &Body) {
        let Some(mirror) = &self.inner.mirror else {
            return;
        };
        let saved = body.reader().and_then(|mut r| mirror.save(url, &mut r));
        if let Err(e) = saved {
            self.inner.progress.io_errors.fetch_add(1, Relaxed);
            tracing::warn!(url = %url, error = %e, "cannot save the page");
        }
    }

    /// Writes the request and response records of a fetch.
    fn archive(&self, url: &Url, page: &Page) -> Result<(), CrawlError> {
        let mut warc = self.inner.warc.lock().unwrap_or_else(|e| e.into_inner());
        let Some(w) = warc.as_mut() else {
            return Ok(());
        };
        let request =
            warc::request_head(&http::Method::GET, url, page.version, &page.request_headers);
        let response = warc::response_head(page.version, page.status, &page.headers);
        let mut capture = warc::Capture::new(url, time::OffsetDateTime::now_utc());
        if let Some(ip) = page.ip {
            capture = capture.ip(ip);
        }
        match &page.body {
            Body::Memory(bytes) => {
                w.write_exchange(&capture, &request, &response, warc::Body::Bytes(bytes))?
            }
            Body::Spooled { path, .. } => {
                w.write_exchange(&capture, &request, &response, warc::Body::File(path))?
            }
        };
        Ok(())
    }

    /// What follows a robots.txt fetch: its log row, its archive records,
    /// its copy in the store and the mirror, the host's delay, sitemaps.
    async fn robots_fetched(
        &self,
        url: &Url,
        entry: &Arc<Entry>,
        pace: &Pace,
    ) -> Result<(), CrawlError> {
        let inner = &*self.inner;
        let fetch = entry.fetch();
        let origin = match Origin::of_url(url) {
            Ok(o) => o,
            Err(_) => return Ok(()),
        };
        inner.progress.requests.fetch_add(1, Relaxed);
        let policy = match entry.policy() {
            Policy::Rules => Policy::Rules.to_string(),
            whole => format!("{whole} ({})", fetch.outcome),
        };
        {
            let mut notes = inner.robots_notes.lock().unwrap_or_else(|e| e.into_inner());
            let note = notes
                .entry(origin.as_str().to_owned())
                .or_insert(RobotsNote {
                    outcome: String::new(),
                    policy: String::new(),
                    fetches: 0,
                });
            note.outcome = fetch.outcome.to_string();
            note.policy = policy.clone();
            note.fetches += 1;
        }
        let body = entry.robots().body();
        if let Some(status) = fetch.status {
            // The archive and the mirror get the file as it came.
            if let Some(w) = inner
                .warc
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_mut()
            {
                let status = http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::OK);
                let request = warc::request_head(
                    &http::Method::GET,
                    &fetch.final_url,
                    http::Version::HTTP_11,
                    &fetch.request_headers,
                );
                let response = warc::response_head(http::Version::HTTP_11, status, &fetch.headers);
                let capture = warc::Capture::new(&fetch.final_url, time::OffsetDateTime::now_utc());
                w.write_exchange(&capture, &request, &response, warc::Body::Bytes(body))?;
            }
            if (200..300).contains(&status) {
                self.save(&fetch.url, &Body::Memory(body.to_vec()));
            }
            inner
                .store
                .put_robots(RobotsRow {
                    origin: origin.as_str().to_owned(),
                    status,
                    headers: fetch
                        .headers
                        .iter()
                        .map(|(n, v)| (n.as_str().to_owned(), v.as_bytes().to_vec()))
                        .collect(),
                    body: body.to_vec(),
                    fetched_at: millis(fetch.fetched_at),
                })
                .await?;
        }
        let decision = if fetch.status.is_some() {
            Decision::Fetched
        } else {
            Decision::Error
        };
        let robots_url = fetch.url.to_string();
        let row = NewUrl {
            url: robots_url,
            origin: origin.as_str().to_owned(),
            depth: 0,
            parent: None,
            via: Via::Robot,
            hops: 0,
            outcome: Some(Final {
                decision,
                reason: Some(Reason::Note {
                    note: format!("robots.txt: {} ({policy})", fetch.outcome),
                }),
                status: fetch.status,
                bytes: Some(fetch.bytes as u64),
                time: millis(fetch.fetched_at),
            }),
        };
        let mut added = vec![row];
        if let Some(asked) = pace.crawl_delay {
            // Reported in seconds, as the file wrote them.
            let d = asked.as_secs_f64();
            if asked > inner.config.politeness.max_crawl_delay {
                inner
                    .capped
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(origin.as_str().to_owned(), d);
                tracing::warn!(origin = %origin, crawl_delay = d, cap = ?inner.config.politeness.max_crawl_delay, "Crawl-delay capped");
            }
        }
        if inner.config.sitemaps {
            for field in entry.robots().sitemaps() {
                let Some(sitemap) = resolve(url, field.value().trim()) else {
                    continue;
                };
                if !self.first_sight(sitemap.as_str()) {
                    continue;
                }
                let outcome = match inner.scope.check(&sitemap, 0) {
                    Verdict::Out(rule) => Some(Final::new(
                        Decision::OutOfScope,
                        Some(Reason::Scope { rule }),
                        now_ms(),
                    )),
                    _ => None,
                };
                added.push(NewUrl {
                    origin: sitemap.origin().ascii_serialization(),
                    url: sitemap.into(),
                    depth: 0,
                    parent: None,
                    via: Via::Sitemap,
                    hops: 0,
                    outcome,
                });
            }
        }
        inner.store.add(added).await?;
        let (delay, cause) = inner.config.politeness.delay(pace, 0.0);
        if cause != Cause::None {
            tracing::debug!(origin = %origin, delay = ?delay, cause = cause.as_str(), "host delay");
        }
        inner
            .store
            .update_host(
                origin.as_str(),
                HostUpdate {
                    not_before: Some(ms_after(delay)),
                    delay_ms: Some(inner.config.politeness.floor(pace).as_millis() as i64),
                    robots_tries: None,
                },
            )
            .await?;
        Ok(())
    }
}

/// Puts a robots.txt copy from the store back in the cache.
fn seed(cache: &RobotsCache, row: &RobotsRow) {
    let Ok(origin) = Origin::of(&row.origin) else {
        return;
    };
    let mut headers = http::HeaderMap::new();
    for (name, value) in &row.headers {
        if let (Ok(n), Ok(v)) = (
            http::HeaderName::from_bytes(name.as_bytes()),
            http::HeaderValue::from_bytes(value),
        ) {
            headers.append(n, v);
        }
    }
    let at = UNIX_EPOCH + Duration::from_millis(row.fetched_at.max(0) as u64);
    cache.insert_at(&origin, row.status, headers, &row.body, at);
}

/// `Retry-After` as a wait: seconds, or an HTTP date.
fn retry_after(headers: &http::HeaderMap) -> Option<Duration> {
    let value = headers
        .get(http::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(SystemTime::now()).unwrap_or_default())
}

/// Whether a page is HTML: its type says so, or, without a type, its
/// first octets look like it.
fn is_html(page: &Page) -> bool {
    match page.headers.get(http::header::CONTENT_TYPE) {
        Some(v) => {
            let t = v.to_str().unwrap_or("").trim_start().to_ascii_lowercase();
            t.starts_with("text/html") || t.starts_with("application/xhtml+xml")
        }
        None => norobots_fetch::looks_like_html(&page.headers, &page.body.head(512)),
    }
}

/// Where a crawl keeps its state by default: `DIR/.norobots/crawl.sqlite`.
///
/// ```
/// assert_eq!(norobots_crawl::default_store("out"), std::path::Path::new("out/.norobots/crawl.sqlite"));
/// ```
pub fn default_store(prefix: impl Into<PathBuf>) -> PathBuf {
    prefix.into().join(".norobots").join("crawl.sqlite")
}
