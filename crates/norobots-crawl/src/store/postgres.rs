//! [`Store`] in PostgreSQL, shared by any number of crawler processes (on
//! one machine or many) that cooperate on one crawl, a *job*.
//!
//! **Claim by host.** A host's row holds its next-allowed time, its lease
//! (the worker that holds it, and until when) and its count of queued
//! URLs. A claim takes due hosts that no other worker holds with
//! `FOR UPDATE SKIP LOCKED` (over a partial index of the hosts with queued
//! URLs), leases a few of each one's URLs in their order, and holds the
//! host: until every URL it leased is completed or released, no other
//! worker gets the host, and its next-allowed time is set when the last
//! one is done. So the delay between two requests to one host holds
//! across all workers, as it does within one.
//!
//! **Leases expire.** A worker's heartbeat (every third of the lease)
//! renews the leases of the hosts it holds. A worker killed with SIGKILL
//! stops beating; when its leases expire, the next claim of any worker
//! puts its hosts and URLs back in the queue, and the URLs it had in
//! flight are fetched again, once.
//!
//! **Robots.txt once per job.** The robots.txt answers are rows of the
//! job: the worker that holds a host fetches its robots.txt (one per host
//! at a time, by the lease) and keeps it; the others read it from here
//! before they would fetch it.
//!
//! **The log.** Each decision is the deciding worker's, numbered in its
//! order: a worker's `--log` holds its own decisions, resumable as with
//! SQLite, and [`Store::job_log`] gives the whole job's, each URL once.
//!
//! **Failures.** Each call is one transaction, serialised per worker on
//! one connection (a second one beats the heartbeat). A call that fails
//! because the server restarted or the connection broke is tried again
//! with back-off, for [`PgOptions::retry_for`]; as a failed commit may
//! still have happened, the next call first puts back any URL leased to
//! this worker that the worker does not know it holds. Every change is
//! guarded by the lease it needs, so a call applied twice changes nothing
//! the second time.
//!
//! The schema is created and migrated by the program (versioned, under an
//! advisory lock, so that workers starting together migrate once); a
//! database migrated by a newer norobots is refused.

use std::collections::{HashMap, HashSet, VecDeque};
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod};
use tokio::sync::{oneshot, Mutex};
use tokio_postgres::{NoTls, Row};

use super::{
    now_ms, Claim, Decided, Final, HostCounts, HostUpdate, Lease, NewUrl, RobotsRow, Stats, Store,
    StoreError, UrlId, Via,
};
use crate::decision::{Decision, Reason};

/// The schema version this code writes; a newer database is refused.
pub const SCHEMA: i64 = 2;

/// The migrations, in order: version `i + 1` is `MIGRATIONS[i]`.
const MIGRATIONS: &[&str] = &[
    // 1: jobs, workers, hosts, URLs, robots.txt answers.
    "
CREATE TABLE norobots_jobs (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
);
CREATE TABLE norobots_workers (
    id BIGSERIAL PRIMARY KEY,
    job BIGINT NOT NULL REFERENCES norobots_jobs(id),
    name TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    heartbeat BIGINT NOT NULL,
    log_seq BIGINT NOT NULL DEFAULT 0,
    log_len BIGINT NOT NULL DEFAULT 0,
    UNIQUE (job, name)
);
CREATE TABLE norobots_hosts (
    job BIGINT NOT NULL,
    origin TEXT NOT NULL,
    not_before BIGINT NOT NULL DEFAULT 0,
    delay_ms BIGINT NOT NULL DEFAULT 0,
    robots_tries INT NOT NULL DEFAULT 0,
    queued BIGINT NOT NULL DEFAULT 0,
    leased BIGINT NOT NULL DEFAULT 0,
    lease_worker BIGINT,
    lease_until BIGINT,
    PRIMARY KEY (job, origin)
);
CREATE INDEX norobots_hosts_due ON norobots_hosts (job, not_before) WHERE queued > 0;
CREATE INDEX norobots_hosts_held ON norobots_hosts (job, lease_until) WHERE lease_worker IS NOT NULL;
CREATE INDEX norobots_hosts_worker ON norobots_hosts (lease_worker) WHERE lease_worker IS NOT NULL;
CREATE INDEX norobots_hosts_leased ON norobots_hosts (job) WHERE leased > 0;
CREATE SEQUENCE norobots_done_seq;
CREATE TABLE norobots_urls (
    id BIGSERIAL PRIMARY KEY,
    job BIGINT NOT NULL,
    url TEXT NOT NULL,
    origin TEXT NOT NULL,
    state SMALLINT NOT NULL,
    depth INT NOT NULL,
    parent BIGINT,
    via TEXT NOT NULL,
    hops INT NOT NULL DEFAULT 0,
    attempts INT NOT NULL DEFAULT 0,
    worker BIGINT,
    decision TEXT,
    reason TEXT,
    status INT,
    bytes BIGINT,
    time BIGINT,
    decider BIGINT,
    seq BIGINT,
    done BIGINT
);
-- A digest, not the text: a btree key has a size limit that URLs from
-- strangers exceed.
CREATE UNIQUE INDEX norobots_urls_seen ON norobots_urls (job, md5(url));
CREATE INDEX norobots_urls_queue ON norobots_urls (job, origin, id) WHERE state = 0;
CREATE INDEX norobots_urls_leased ON norobots_urls (worker) WHERE state = 1;
CREATE INDEX norobots_urls_log ON norobots_urls (decider, seq) WHERE seq IS NOT NULL;
CREATE INDEX norobots_urls_done ON norobots_urls (job, done) WHERE done IS NOT NULL;
CREATE TABLE norobots_robots (
    job BIGINT NOT NULL,
    origin TEXT NOT NULL,
    status INT NOT NULL,
    headers TEXT NOT NULL,
    body BYTEA NOT NULL,
    fetched_at BIGINT NOT NULL,
    PRIMARY KEY (job, origin)
);
",
    // 2: vacuum the hot tables sooner. Every URL's claim and completion
    // rewrites its row and its host's, and none of those updates can be
    // HOT (they change indexed columns), so dead tuples pile up in the
    // indexes a claim scans. A host row is rewritten for every URL of
    // the host: its table is vacuumed after a fixed count, however small
    // it is, without the cost delay; the URLs after 2% of the table, not
    // the default 20% (at 10 M rows, 2 M dead index entries).
    "
ALTER TABLE norobots_hosts SET (
    fillfactor = 70,
    autovacuum_vacuum_scale_factor = 0,
    autovacuum_vacuum_threshold = 1000,
    autovacuum_vacuum_cost_delay = 0,
    autovacuum_analyze_scale_factor = 0.05
);
ALTER TABLE norobots_urls SET (
    autovacuum_vacuum_scale_factor = 0.02,
    autovacuum_vacuum_insert_scale_factor = 0.05,
    autovacuum_analyze_scale_factor = 0.02,
    autovacuum_vacuum_cost_delay = 1
);
",
];

/// The key of the advisory lock that migrations take.
const MIGRATION_LOCK: i64 = 0x6e6f_726f_626f_7473;

/// URL states, as in the SQLite store.
const QUEUED: i16 = 0;
const LEASED: i16 = 1;
const DONE: i16 = 2;

/// How a worker joins a job.
///
/// ```
/// use std::time::Duration;
/// let o = norobots_crawl::store::postgres::PgOptions::new("worker-1");
/// assert_eq!(o.lease, Duration::from_secs(60));
/// ```
#[derive(Clone, Debug)]
pub struct PgOptions {
    /// The worker's name within the job: a worker that comes back under
    /// its name takes up its log and what it held.
    pub worker: String,
    /// How long a host stays held by a worker that stopped beating.
    pub lease: Duration,
    /// How long a call is tried again while the server is unreachable.
    pub retry_for: Duration,
    /// How many of a host's URLs one claim leases (at least `--per-host`):
    /// the worker holds the host and hands them out at the host's pace
    /// without asking the database again. A killed worker's batch goes
    /// back to the queue when its lease expires; only the URLs it had in
    /// flight are fetched again.
    pub batch: u32,
    /// Take the name over even if a worker of that name beat recently
    /// (for tests that reopen a store; two live workers of one name
    /// would take each other's URLs back).
    pub takeover: bool,
}

impl PgOptions {
    /// Options for the worker `name`: a lease of 60 s, calls retried for
    /// 5 minutes, batches of 16 URLs.
    pub fn new(name: &str) -> PgOptions {
        PgOptions {
            worker: name.to_owned(),
            lease: Duration::from_secs(60),
            retry_for: Duration::from_secs(300),
            batch: 16,
            takeover: false,
        }
    }
}

/// What one worker's calls share, under one lock.
struct State {
    /// The last decision number this worker gave.
    seq: i64,
    /// URLs leased to this worker: those handed to the engine and those
    /// waiting in a batch. What a lost reply must not take from it.
    leased: HashMap<UrlId, Lease>,
    /// The hosts this worker holds, by origin.
    held: HashMap<String, Held>,
    /// A call failed in a way that may have committed: check the leases.
    reconcile: bool,
    /// When the claims last looked for expired leases.
    last_reclaim: i64,
}

/// A host this worker holds: the rest of the batch a claim leased, and the
/// host's pace, which no other worker changes while it is held (so it is
/// kept here and handed out without asking the database).
#[derive(Debug, Default)]
struct Held {
    /// Leased URLs not handed to the engine yet, in their order.
    waiting: VecDeque<Lease>,
    /// URLs handed to the engine and not completed or released yet.
    out: u32,
    /// No request before this time (ms).
    not_before: i64,
    /// The host's own delay (ms), as the last update gave it.
    delay: i64,
    /// How often its robots.txt was deferred in a row.
    robots_tries: u32,
}

impl Held {
    /// Takes what the database's row takes from `host`.
    fn apply(&mut self, host: &HostUpdate) {
        if let Some(t) = host.not_before {
            self.not_before = self.not_before.max(t);
        }
        if let Some(d) = host.delay_ms {
            self.delay = d;
        }
        if let Some(t) = host.robots_tries {
            self.robots_tries = t;
        }
    }
}

impl State {
    /// Hands out due URLs of the held hosts, at most `max` in all: a host
    /// with a delay one at a time, held for its delay from `now`; one
    /// without, up to `per_host` in flight. The longest-waiting first.
    fn hand_out(
        &mut self,
        now: i64,
        max: usize,
        per_host: u32,
        min_delay: i64,
        out: &mut Vec<Lease>,
    ) {
        let mut due: Vec<(i64, String)> = self
            .held
            .iter()
            .filter(|(_, h)| !h.waiting.is_empty() && h.not_before <= now)
            .map(|(o, h)| (h.not_before, o.clone()))
            .collect();
        due.sort_unstable();
        for (_, origin) in due {
            if out.len() >= max {
                break;
            }
            let Some(h) = self.held.get_mut(&origin) else {
                continue;
            };
            let delay = h.delay.max(min_delay);
            let room = if delay > 0 {
                u32::from(h.out == 0)
            } else {
                per_host.saturating_sub(h.out)
            };
            let take = (room as usize).min(max - out.len()).min(h.waiting.len());
            for mut lease in h.waiting.drain(..take) {
                lease.robots_tries = h.robots_tries;
                out.push(lease);
            }
            h.out += take as u32;
            if delay > 0 && take > 0 {
                h.not_before = h.not_before.max(now.saturating_add(delay));
            }
        }
    }

    /// A URL handed out is done with (completed or released): its host's
    /// pace takes `host`, and a host with nothing left is no longer held.
    fn returned(&mut self, id: UrlId, host: &HostUpdate) {
        let Some(lease) = self.leased.remove(&id) else {
            return;
        };
        let Some(h) = self.held.get_mut(&lease.origin) else {
            return;
        };
        h.out = h.out.saturating_sub(1);
        h.apply(host);
        if h.waiting.is_empty() && h.out == 0 {
            self.held.remove(&lease.origin);
        }
    }

    /// A URL handed out goes back to the front of its host's batch (a
    /// retry, a wait for the host): it keeps its place, and the host stays
    /// held. False when its host is not held here.
    fn put_back(&mut self, id: UrlId, failed: bool, host: &HostUpdate) -> bool {
        let Some(lease) = self.leased.get_mut(&id) else {
            return false;
        };
        let Some(h) = self.held.get_mut(&lease.origin) else {
            return false;
        };
        lease.attempts += u32::from(failed);
        h.out = h.out.saturating_sub(1);
        h.apply(host);
        h.waiting.push_front(lease.clone());
        true
    }

    /// The waiting URLs of the held hosts (of `origin`, or all).
    fn waiting(&self, origin: Option<&str>) -> Vec<UrlId> {
        self.held
            .iter()
            .filter(|(o, _)| origin.is_none_or(|want| want == o.as_str()))
            .flat_map(|(_, h)| h.waiting.iter().map(|l| l.id))
            .collect()
    }

    /// Forgets what [`State::waiting`] gave, once the database agrees.
    fn take_waiting(&mut self, origin: Option<&str>) {
        for (o, h) in &mut self.held {
            if origin.is_none_or(|want| want == o.as_str()) {
                for l in h.waiting.drain(..) {
                    self.leased.remove(&l.id);
                }
            }
        }
        self.held.retain(|_, h| h.out > 0);
    }
}

/// A completion waiting for its commit (see [`PgStore::complete`]).
struct Completion {
    id: UrlId,
    outcome: Final,
    children: Vec<NewUrl>,
    redirect: Option<NewUrl>,
    host: HostUpdate,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

struct Shared {
    /// Completions not taken into a commit yet.
    pending: std::sync::Mutex<Vec<Completion>>,
    pool: Pool,
    job: i64,
    worker: i64,
    lease_ms: i64,
    retry_for: Duration,
    batch: u32,
    state: Mutex<State>,
}

/// The PostgreSQL store: one worker of one job.
///
/// ```no_run
/// # #[tokio::main]
/// # async fn main() -> Result<(), norobots_crawl::store::StoreError> {
/// use norobots_crawl::store::postgres::{PgOptions, PgStore};
/// use norobots_crawl::store::Store;
///
/// let (store, resumed) =
///     PgStore::open("postgres://crawler@127.0.0.1:5432/crawl", "default", PgOptions::new("w1")).await?;
/// println!("{} queued, resumed: {resumed}", store.stats(0).await?.queued);
/// # Ok(()) }
/// ```
pub struct PgStore {
    shared: Arc<Shared>,
    /// Renews the worker's leases; none for a store that only reads.
    heartbeat: Option<tokio::task::JoinHandle<()>>,
}

impl Drop for PgStore {
    fn drop(&mut self) {
        if let Some(h) = &self.heartbeat {
            h.abort();
        }
    }
}

/// A PostgreSQL error as one line: the server's message when it sent one.
pub(crate) fn describe(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{}: {} ({})", db.severity(), db.message(), db.code().code()),
        None => match std::error::Error::source(e) {
            Some(cause) => format!("{e}: {cause}"),
            None => e.to_string(),
        },
    }
}

/// Whether a failed call is worth trying again: the server is restarting
/// or unreachable, the connection broke, or the transaction lost a race
/// (a deadlock, a serialisation failure) and was rolled back whole.
fn transient(e: &StoreError) -> bool {
    match e {
        StoreError::Pool(deadpool_postgres::PoolError::Backend(e)) | StoreError::Postgres(e) => {
            match e.code() {
                Some(code) => {
                    let c = code.code();
                    c.starts_with("08") || c.starts_with("57P") || c == "40001" || c == "40P01"
                }
                // No code: the connection, not the statement, failed.
                None => {
                    e.is_closed()
                        || std::error::Error::source(e)
                            .is_some_and(|s| s.downcast_ref::<std::io::Error>().is_some())
                }
            }
        }
        StoreError::Pool(deadpool_postgres::PoolError::Timeout(_)) => true,
        _ => false,
    }
}

/// Whether the failed call may have committed before the reply was lost.
fn unknown_outcome(e: &StoreError) -> bool {
    match e {
        StoreError::Postgres(e) => !matches!(e.code().map(|c| c.code()), Some("40001" | "40P01")),
        _ => false,
    }
}

/// Runs `$body` (an expression that may use `?`, with `$c` the
/// connection and `$st` the worker's state) as one call: retried with
/// back-off while the failure is transient, the state's decision number
/// put back when it failed. A macro, not a function taking a closure,
/// so that the future stays `Send` without naming its type.
macro_rules! call {
    ($shared:expr, |$c:ident, $st:ident| $body:expr) => {{
        let shared: &Shared = &$shared;
        let began = Instant::now();
        let mut wait = Duration::from_millis(100);
        loop {
            let mut guard = shared.state.lock().await;
            let seq0 = guard.seq;
            let result: Result<_, StoreError> = async {
                #[allow(unused_mut)]
                let mut $c = shared.pool.get().await?;
                let $st: &mut State = &mut guard;
                if $st.reconcile {
                    shared.reconcile(&$c, $st).await?;
                }
                $body
            }
            .await;
            match result {
                Err(e) => {
                    guard.seq = seq0;
                    if unknown_outcome(&e) {
                        guard.reconcile = true;
                    }
                    if !transient(&e) || began.elapsed() >= shared.retry_for {
                        break Err(e);
                    }
                    drop(guard);
                    tracing::warn!(error = %e, retry_in = ?wait, "crawl store: trying again");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(5));
                }
                ok => break ok,
            }
        }
    }};
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://USER@HOST:PORT/DB`),
    /// creates or migrates the schema, and joins the job `job` (made if
    /// new) as the worker `options.worker`. Returns the store and whether
    /// the worker had been in the job before (its log and leases are taken
    /// up, as `--continue` does with SQLite).
    pub async fn open(
        url: &str,
        job: &str,
        options: PgOptions,
    ) -> Result<(PgStore, bool), StoreError> {
        let pool = connect(url)?;
        let lease_ms = options.lease.as_millis().clamp(1, i64::MAX as u128) as i64;
        let mut client = pool.get().await?;
        migrate(&mut client).await?;
        let (job_id, worker, resumed, seq) = join(&mut client, job, &options, lease_ms).await?;
        drop(client);
        let shared = Shared::new(pool, job_id, worker, lease_ms, &options, seq);
        let beat = Arc::clone(&shared);
        let heartbeat = tokio::spawn(async move {
            let every = Duration::from_millis((beat.lease_ms / 3).max(1) as u64);
            loop {
                tokio::time::sleep(every).await;
                if let Err(e) = beat.beat().await {
                    tracing::warn!(error = %e, "crawl store: heartbeat failed");
                }
            }
        });
        Ok((
            PgStore {
                shared,
                heartbeat: Some(heartbeat),
            },
            resumed,
        ))
    }

    /// The job `job` in the database at `url`, to read and not to crawl
    /// (`--status`, `--export-log`): no worker joins, so none is counted;
    /// [`Store::stats`] counts the workers that beat within `recent`.
    /// A job the database does not hold is an error; so is a schema newer
    /// than this norobots knows (an older one is read as it is: reading
    /// migrates nothing).
    pub async fn inspect(url: &str, job: &str, recent: Duration) -> Result<PgStore, StoreError> {
        let pool = connect(url)?;
        let client = pool.get().await?;
        let version: Option<i64> = match client
            .query_opt("SELECT version FROM norobots_schema", &[])
            .await
        {
            Ok(row) => row.map(|r| r.get(0)),
            // No schema table: no crawl was ever run here.
            Err(e) if e.code() == Some(&tokio_postgres::error::SqlState::UNDEFINED_TABLE) => None,
            Err(e) => return Err(e.into()),
        };
        match version {
            Some(v) if v > SCHEMA => {
                return Err(StoreError::Newer {
                    found: v,
                    known: SCHEMA,
                })
            }
            // Every version keeps the tables `--status` reads.
            Some(v) if v >= 1 => {}
            _ => {
                return Err(StoreError::Usage(format!(
                    "no job `{job}` in this database"
                )))
            }
        }
        let job_id: i64 = client
            .query_opt("SELECT id FROM norobots_jobs WHERE name = $1", &[&job])
            .await?
            .ok_or_else(|| StoreError::Usage(format!("no job `{job}` in this database")))?
            .get(0);
        drop(client);
        let options = PgOptions::new("");
        let lease_ms = recent.as_millis().clamp(1, i64::MAX as u128) as i64;
        Ok(PgStore {
            shared: Shared::new(pool, job_id, 0, lease_ms, &options, 0),
            heartbeat: None,
        })
    }

    /// The job's row number (its URLs' key).
    pub fn job_id(&self) -> i64 {
        self.shared.job
    }

    /// Marks this worker stopped, so that its name may be used again at
    /// once, and stops its heartbeat.
    pub async fn close(self) -> Result<(), StoreError> {
        if let Some(h) = &self.heartbeat {
            h.abort();
        }
        let client = self.shared.pool.get().await?;
        client
            .execute(
                "UPDATE norobots_workers SET heartbeat = 0 WHERE id = $1",
                &[&self.shared.worker],
            )
            .await?;
        Ok(())
    }
}

/// A pool for the database at `url`: one connection for the calls (they
/// are serialised: each worker's decisions are numbered in commit order),
/// one for the heartbeat.
fn connect(url: &str) -> Result<Pool, StoreError> {
    let mut config: tokio_postgres::Config = url
        .parse()
        .map_err(|e| StoreError::Usage(format!("`{url}`: {e}")))?;
    config.application_name("norobots");
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(Duration::from_secs(10));
    }
    let manager = Manager::from_config(
        config,
        NoTls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    Pool::builder(manager)
        .max_size(2)
        .wait_timeout(Some(Duration::from_secs(30)))
        .runtime(deadpool_postgres::Runtime::Tokio1)
        .build()
        .map_err(|e| StoreError::Usage(e.to_string()))
}

/// Creates or migrates the schema, once across workers starting together.
async fn migrate(client: &mut Object) -> Result<(), StoreError> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS norobots_schema (version BIGINT NOT NULL)")
        .await?;
    let found: Option<i64> = tx
        .query_opt("SELECT version FROM norobots_schema", &[])
        .await?
        .map(|r| r.get(0));
    let found = found.unwrap_or(0);
    if found > SCHEMA {
        return Err(StoreError::Newer {
            found,
            known: SCHEMA,
        });
    }
    for sql in &MIGRATIONS[found as usize..] {
        tx.batch_execute(sql).await?;
    }
    tx.execute("DELETE FROM norobots_schema", &[]).await?;
    tx.execute("INSERT INTO norobots_schema VALUES ($1)", &[&SCHEMA])
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Finds or makes the job and the worker; (job, worker, resumed, seq).
async fn join(
    client: &mut Object,
    job: &str,
    options: &PgOptions,
    lease_ms: i64,
) -> Result<(i64, i64, bool, i64), StoreError> {
    let now = now_ms();
    let tx = client.transaction().await?;
    tx.execute(
        "INSERT INTO norobots_jobs (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        &[&job, &now],
    )
    .await?;
    let job_id: i64 = tx
        .query_one("SELECT id FROM norobots_jobs WHERE name = $1", &[&job])
        .await?
        .get(0);
    let known = tx
        .query_opt(
            "SELECT id, heartbeat FROM norobots_workers WHERE job = $1 AND name = $2 FOR UPDATE",
            &[&job_id, &options.worker],
        )
        .await?;
    let (worker, resumed) = match known {
        Some(row) => {
            let (id, beat): (i64, i64) = (row.get(0), row.get(1));
            if !options.takeover && beat > now - lease_ms {
                return Err(StoreError::Usage(format!(
                    "worker `{}` of job `{job}` is running (its heartbeat is {:.1} s old); give another --worker",
                    options.worker,
                    (now - beat) as f64 / 1000.0
                )));
            }
            tx.execute(
                "UPDATE norobots_workers SET heartbeat = $2, started_at = $2 WHERE id = $1",
                &[&id, &now],
            )
            .await?;
            (id, true)
        }
        None => {
            let id: i64 = tx
                .query_one(
                    "INSERT INTO norobots_workers (job, name, started_at, heartbeat)
                     VALUES ($1, $2, $3, $3) RETURNING id",
                    &[&job_id, &options.worker, &now],
                )
                .await?
                .get(0);
            (id, false)
        }
    };
    let seq: i64 = tx
        .query_one(
            "SELECT COALESCE(MAX(seq), 0) FROM norobots_urls WHERE decider = $1",
            &[&worker],
        )
        .await?
        .get(0);
    tx.commit().await?;
    Ok((job_id, worker, resumed, seq))
}

fn reason_json(reason: &Option<Reason>) -> Option<String> {
    reason.as_ref().and_then(|r| serde_json::to_string(r).ok())
}

fn to_i32(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

fn to_u32(n: i32) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

/// A decided row as the log reads it (the columns of `DECIDED_COLUMNS`).
fn decided(r: &Row) -> Decided {
    let via: String = r.get(4);
    let decision: String = r.get(5);
    let reason: Option<String> = r.get(6);
    Decided {
        seq: r.get(0),
        url: r.get(1),
        depth: to_u32(r.get(2)),
        parent: r.get(3),
        via: Via::from_str(&via).unwrap_or(Via::Link),
        outcome: Final {
            decision: decision.parse().unwrap_or(Decision::Error),
            reason: reason.and_then(|r| serde_json::from_str(&r).ok()),
            status: r.get::<_, Option<i32>>(7).map(|s| s as u16),
            bytes: r.get::<_, Option<i64>>(8).map(|b| b as u64),
            time: r.get::<_, Option<i64>>(9).unwrap_or(0),
        },
    }
}

const DECIDED_COLUMNS: &str =
    "u.url, u.depth, p.url, u.via, u.decision, u.reason, u.status, u.bytes, u.time
     FROM norobots_urls u LEFT JOIN norobots_urls p ON p.id = u.parent";

/// What a host row `h` takes from a [`HostUpdate`] whose three values
/// are the parameters `$nb`, `$delay` and `$tries`: the later
/// next-allowed time, and the delay and the robots.txt tries when given.
fn pace_sql(nb: u8, delay: u8, tries: u8) -> String {
    format!(
        "not_before = GREATEST(h.not_before, COALESCE(${nb}::bigint, 0)),
         delay_ms = COALESCE(${delay}::bigint, h.delay_ms),
         robots_tries = COALESCE(${tries}::int, h.robots_tries)"
    )
}

/// What a host row `h` takes when `leased` of the URLs leased from it are
/// done or go back, `queued` of them to its queue (an SQL expression
/// each): the lease given up with its last URL.
fn lease_done_sql(leased: &str, queued: &str) -> String {
    format!(
        "leased = GREATEST(h.leased - {leased}, 0),
         queued = GREATEST(h.queued + {queued}, 0),
         lease_worker = CASE WHEN h.leased - {leased} <= 0 THEN NULL ELSE h.lease_worker END,
         lease_until = CASE WHEN h.leased - {leased} <= 0 THEN NULL ELSE h.lease_until END"
    )
}

/// Puts URLs leased to a worker back in their hosts' queues: those that
/// `which` (a condition on `norobots_urls`, with parameters after `$1`,
/// the job) picks, their hosts' counts with them, a host given up with
/// its last URL. The statement returns how many went back.
fn requeue_sql(which: &str) -> String {
    format!(
        "WITH r AS (UPDATE norobots_urls SET state = {QUEUED}, worker = NULL
                    WHERE state = {LEASED} AND {which} RETURNING origin),
              n AS (SELECT origin, COUNT(*) AS n FROM r GROUP BY origin),
              h AS (UPDATE norobots_hosts h SET {} FROM n
                    WHERE h.job = $1 AND h.origin = n.origin)
         SELECT COALESCE(SUM(n), 0)::bigint FROM n",
        lease_done_sql("n.n", "n.n")
    )
}

impl Shared {
    fn lock_pending(&self) -> std::sync::MutexGuard<'_, Vec<Completion>> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn new(
        pool: Pool,
        job: i64,
        worker: i64,
        lease_ms: i64,
        options: &PgOptions,
        seq: i64,
    ) -> Arc<Shared> {
        Arc::new(Shared {
            pending: std::sync::Mutex::new(Vec::new()),
            pool,
            job,
            worker,
            lease_ms,
            retry_for: options.retry_for,
            batch: options.batch.max(1),
            state: Mutex::new(State {
                seq,
                leased: HashMap::new(),
                held: HashMap::new(),
                reconcile: false,
                last_reclaim: i64::MIN,
            }),
        })
    }

    /// Renews this worker's heartbeat and the leases of the hosts it holds.
    async fn beat(&self) -> Result<(), StoreError> {
        let now = now_ms();
        let client = self.pool.get().await?;
        client
            .execute(
                "UPDATE norobots_workers SET heartbeat = $2 WHERE id = $1 AND heartbeat > 0",
                &[&self.worker, &now],
            )
            .await?;
        // Between two calls (no claim is committing), what the database
        // says this worker holds is the truth: a host whose lease ran out
        // while this process stalled, and that another worker took back,
        // is given up here, so that the rest of its batch is not fetched
        // twice. During a call, the leases are only renewed.
        let state = self.state.try_lock();
        let rows = client
            .query(
                "UPDATE norobots_hosts SET lease_until = $3 WHERE job = $1 AND lease_worker = $2
                 RETURNING origin",
                &[&self.job, &self.worker, &(now + self.lease_ms)],
            )
            .await?;
        if let Ok(mut st) = state {
            let still: HashSet<&str> = rows.iter().map(|r| r.get::<_, &str>(0)).collect();
            let lost: Vec<String> = st
                .held
                .keys()
                .filter(|o| !still.contains(o.as_str()))
                .cloned()
                .collect();
            for origin in lost {
                if let Some(h) = st.held.remove(&origin) {
                    tracing::warn!(
                        origin = %origin,
                        waiting = h.waiting.len(),
                        in_flight = h.out,
                        "crawl store: the host's lease ran out and another worker took it"
                    );
                    for l in h.waiting {
                        st.leased.remove(&l.id);
                    }
                }
            }
        }
        Ok(())
    }

    /// After a call whose commit is unknown: puts back the URLs leased to
    /// this worker that it does not know it holds (a claim whose reply
    /// was lost), and reads its decision number again.
    async fn reconcile(&self, c: &Object, st: &mut State) -> Result<(), StoreError> {
        let held: Vec<i64> = st.leased.keys().copied().collect();
        c.query_one(
            &requeue_sql("worker = $2 AND NOT (id = ANY($3))"),
            &[&self.job, &self.worker, &held],
        )
        .await?;
        st.seq = c
            .query_one(
                "SELECT COALESCE(MAX(seq), 0) FROM norobots_urls WHERE decider = $1",
                &[&self.worker],
            )
            .await?
            .get(0);
        st.reconcile = false;
        Ok(())
    }

    /// Adds URLs within `tx`; per URL, whether it was new. A URL decided
    /// on sight is this worker's decision, numbered in the order given.
    async fn add(
        &self,
        tx: &deadpool_postgres::Transaction<'_>,
        st: &mut State,
        urls: &[NewUrl],
    ) -> Result<Vec<bool>, StoreError> {
        if urls.is_empty() {
            return Ok(Vec::new());
        }
        let mut url = Vec::with_capacity(urls.len());
        let mut origin = Vec::with_capacity(urls.len());
        let mut depth = Vec::with_capacity(urls.len());
        let mut parent = Vec::with_capacity(urls.len());
        let mut via = Vec::with_capacity(urls.len());
        let mut hops = Vec::with_capacity(urls.len());
        let mut state = Vec::with_capacity(urls.len());
        let mut decision = Vec::with_capacity(urls.len());
        let mut reason = Vec::with_capacity(urls.len());
        let mut status = Vec::with_capacity(urls.len());
        let mut bytes = Vec::with_capacity(urls.len());
        let mut time = Vec::with_capacity(urls.len());
        for u in urls {
            url.push(u.url.as_str());
            origin.push(u.origin.as_str());
            depth.push(to_i32(u.depth));
            parent.push(u.parent);
            via.push(u.via.as_str());
            hops.push(to_i32(u.hops));
            let o = u.outcome.as_ref();
            state.push(if o.is_some() { DONE } else { QUEUED });
            decision.push(o.map(|o| o.decision.as_str()));
            reason.push(o.and_then(|o| reason_json(&o.reason)));
            status.push(o.and_then(|o| o.status).map(i32::from));
            bytes.push(o.and_then(|o| o.bytes).map(|b| b as i64));
            time.push(o.map(|o| o.time));
        }
        // In the order given: a URL's row number is its place in its
        // host's queue. (Two workers adding the same new URLs in other
        // orders can deadlock; the loser is rolled back and tried again.)
        let sql = format!(
            "WITH input AS (
                SELECT * FROM unnest($2::text[], $3::text[], $4::int[], $5::bigint[], $6::text[],
                                     $7::int[], $8::smallint[], $9::text[], $10::text[], $11::int[],
                                     $12::bigint[], $13::bigint[]) WITH ORDINALITY
                    AS t(url, origin, depth, parent, via, hops, state, decision, reason, status,
                         bytes, time, ord)),
             ins AS (
                INSERT INTO norobots_urls (job, url, origin, state, depth, parent, via, hops,
                                           decision, reason, status, bytes, time, decider, done)
                SELECT $1, url, origin, state, depth, parent, via, hops, decision, reason, status,
                       bytes, time, CASE WHEN state = {DONE} THEN $14::bigint END,
                       CASE WHEN state = {DONE} THEN nextval('norobots_done_seq') END
                FROM input ORDER BY ord
                ON CONFLICT (job, md5(url)) DO NOTHING
                RETURNING id, url, origin, state),
             n AS (SELECT origin, COUNT(*) FILTER (WHERE state = {QUEUED}) AS n
                   FROM ins GROUP BY origin),
             hosts AS (
                INSERT INTO norobots_hosts (job, origin, queued)
                SELECT $1, origin, n FROM n ORDER BY origin
                ON CONFLICT (job, origin) DO UPDATE SET queued = norobots_hosts.queued + EXCLUDED.queued)
             SELECT id, url, state FROM ins"
        );
        let stmt = tx.prepare_cached(&sql).await?;
        let rows = tx
            .query(
                &stmt,
                &[
                    &self.job,
                    &url,
                    &origin,
                    &depth,
                    &parent,
                    &via,
                    &hops,
                    &state,
                    &decision,
                    &reason,
                    &status,
                    &bytes,
                    &time,
                    &self.worker,
                ],
            )
            .await?;
        let mut new: HashMap<&str, (i64, i16)> = rows
            .iter()
            .map(|r| (r.get::<_, &str>(1), (r.get(0), r.get(2))))
            .collect();
        let mut added = Vec::with_capacity(urls.len());
        let (mut ids, mut seqs) = (Vec::new(), Vec::new());
        for u in urls {
            // The first of duplicates in the batch is the new one.
            match new.remove(u.url.as_str()) {
                Some((id, s)) => {
                    if s == DONE {
                        st.seq += 1;
                        ids.push(id);
                        seqs.push(st.seq);
                    }
                    added.push(true);
                }
                None => added.push(false),
            }
        }
        if !ids.is_empty() {
            let stmt = tx
                .prepare_cached(
                    "UPDATE norobots_urls u SET seq = x.seq
                     FROM unnest($1::bigint[], $2::bigint[]) AS x(id, seq) WHERE u.id = x.id",
                )
                .await?;
            tx.execute(&stmt, &[&ids, &seqs]).await?;
        }
        Ok(added)
    }

    /// Decides every queued URL of `origin` (or of the job) within one
    /// transaction; how many.
    async fn finish(
        &self,
        c: &mut Object,
        st: &mut State,
        origin: Option<&str>,
        outcome: &Final,
    ) -> Result<u64, StoreError> {
        // This worker's batches hold some of the queue: those are decided
        // too (they are leased to it, and none is in flight).
        let waiting = st.waiting(origin);
        let tx = c.transaction().await?;
        let rows = tx
            .query(
                &format!(
                    "SELECT id, origin, state FROM norobots_urls
                     WHERE job = $1
                       AND ((($2::text IS NULL OR origin = $2) AND state = {QUEUED})
                            OR (id = ANY($3) AND state = {LEASED} AND worker = $4))
                     ORDER BY id FOR UPDATE"
                ),
                &[&self.job, &origin, &waiting, &self.worker],
            )
            .await?;
        let mut ids = Vec::with_capacity(rows.len());
        let mut seqs = Vec::with_capacity(rows.len());
        let mut per_origin: HashMap<String, (i64, i64)> = HashMap::new();
        let mut seq = st.seq;
        for r in &rows {
            ids.push(r.get::<_, i64>(0));
            seq += 1;
            seqs.push(seq);
            let n = per_origin.entry(r.get(1)).or_default();
            if r.get::<_, i16>(2) == QUEUED {
                n.0 += 1;
            } else {
                n.1 += 1;
            }
        }
        tx.execute(
            &format!(
                "UPDATE norobots_urls u SET state = {DONE}, decision = $2, reason = $3, status = $4,
                    bytes = $5, time = $6, decider = $7, seq = x.seq, worker = NULL,
                    done = nextval('norobots_done_seq')
                 FROM unnest($8::bigint[], $9::bigint[]) AS x(id, seq)
                 WHERE u.id = x.id AND u.job = $1"
            ),
            &[
                &self.job,
                &outcome.decision.as_str(),
                &reason_json(&outcome.reason),
                &outcome.status.map(i32::from),
                &outcome.bytes.map(|b| b as i64),
                &outcome.time,
                &self.worker,
                &ids,
                &seqs,
            ],
        )
        .await?;
        let mut origins: Vec<(String, (i64, i64))> = per_origin.into_iter().collect();
        origins.sort();
        let mut names = Vec::with_capacity(origins.len());
        let (mut queued, mut leased) = (Vec::new(), Vec::new());
        for (name, (q, l)) in origins {
            names.push(name);
            queued.push(q);
            leased.push(l);
        }
        tx.execute(
            &format!(
                "UPDATE norobots_hosts h SET {}
                 FROM unnest($2::text[], $3::bigint[], $4::bigint[]) AS x(origin, q, l)
                 WHERE h.job = $1 AND h.origin = x.origin",
                lease_done_sql("x.l", "-x.q")
            ),
            &[&self.job, &names, &queued, &leased],
        )
        .await?;
        tx.commit().await?;
        st.seq = seq;
        st.take_waiting(origin);
        Ok(ids.len() as u64)
    }

    /// Puts this worker's waiting URLs back in the queue (the crawl is
    /// over for it, or it stops): others may take them at once.
    async fn give_back(&self, c: &mut Object, st: &mut State) -> Result<u64, StoreError> {
        let waiting = st.waiting(None);
        if waiting.is_empty() {
            return Ok(0);
        }
        let n: i64 = c
            .query_one(
                &requeue_sql("worker = $2 AND id = ANY($3)"),
                &[&self.job, &self.worker, &waiting],
            )
            .await?
            .get(0);
        st.take_waiting(None);
        Ok(n as u64)
    }

    /// Records `batch`'s completions in one transaction, in order.
    async fn complete_all(
        &self,
        c: &mut Object,
        st: &mut State,
        batch: &[Completion],
    ) -> Result<(), StoreError> {
        let tx = c.transaction().await?;
        let stmt = tx
            .prepare_cached(&format!(
                "WITH fin AS (
                    UPDATE norobots_urls SET state = {DONE}, decision = $3, reason = $4,
                        status = $5, bytes = $6, time = $7, decider = $8, seq = $9,
                        done = nextval('norobots_done_seq'), worker = NULL
                    WHERE id = $2 AND job = $1 AND state = {LEASED} AND worker = $8
                    RETURNING origin)
                 UPDATE norobots_hosts h SET {} FROM fin
                 WHERE h.job = $1 AND h.origin = fin.origin",
                lease_done_sql("1", "0") + ", " + &pace_sql(10, 11, 12)
            ))
            .await?;
        for done in batch {
            let mut outcome = done.outcome.clone();
            let mut urls = done.children.clone();
            if let Some(r) = &done.redirect {
                urls.push(r.clone());
            }
            let added = self.add(&tx, st, &urls).await?;
            if let (Some(target), Some(false)) = (&done.redirect, added.last()) {
                outcome.decision = Decision::Duplicate;
                outcome.reason = Some(Reason::Redirect {
                    to: target.url.clone(),
                });
            }
            let seq = st.seq + 1;
            let host = &done.host;
            let n = tx
                .execute(
                    &stmt,
                    &[
                        &self.job,
                        &done.id,
                        &outcome.decision.as_str(),
                        &reason_json(&outcome.reason),
                        &outcome.status.map(i32::from),
                        &outcome.bytes.map(|b| b as i64),
                        &outcome.time,
                        &self.worker,
                        &seq,
                        &host.not_before,
                        &host.delay_ms,
                        &host.robots_tries.map(to_i32),
                    ],
                )
                .await?;
            // A lease another worker took back is not this one's to decide.
            if n == 1 {
                st.seq = seq;
            }
        }
        tx.commit().await?;
        for done in batch {
            st.returned(done.id, &done.host);
        }
        Ok(())
    }

    async fn claim(
        &self,
        c: &mut Object,
        st: &mut State,
        now: i64,
        max: usize,
        per_host: u32,
        min_delay: i64,
    ) -> Result<Claim, StoreError> {
        let per_host = per_host.max(1);
        let mut leases = Vec::new();
        st.hand_out(now, max, per_host, min_delay, &mut leases);
        if leases.len() >= max {
            return Ok(Claim {
                leases,
                next: None,
                drained: false,
            });
        }
        match self
            .claim_more(c, st, now, max, per_host, min_delay, &mut leases)
            .await
        {
            Ok(claim) => Ok(claim),
            // What the held hosts gave is the engine's now: a retry of the
            // call must not lose it. The database is asked again next time.
            Err(e) if !leases.is_empty() => {
                if unknown_outcome(&e) {
                    st.reconcile = true;
                }
                tracing::warn!(error = %e, "crawl store: a claim of more hosts failed");
                Ok(Claim {
                    leases,
                    next: None,
                    drained: false,
                })
            }
            Err(e) => Err(e),
        }
    }

    /// The part of [`Shared::claim`] that asks the database for more hosts
    /// (and, when none is due, when one will be).
    #[allow(clippy::too_many_arguments)]
    async fn claim_more(
        &self,
        c: &mut Object,
        st: &mut State,
        now: i64,
        max: usize,
        per_host: u32,
        min_delay: i64,
        leases: &mut Vec<Lease>,
    ) -> Result<Claim, StoreError> {
        let tx = c.transaction().await?;
        if now.saturating_sub(st.last_reclaim) >= 1000 {
            // Hosts of workers that stopped beating go back to the queue,
            // with what those workers had leased.
            let stmt = tx
                .prepare_cached(&format!(
                    "WITH dead AS (
                        UPDATE norobots_hosts SET queued = queued + leased, leased = 0,
                            lease_worker = NULL, lease_until = NULL
                        WHERE job = $1 AND lease_worker IS NOT NULL AND lease_until < $2
                          AND lease_worker <> $3
                        RETURNING origin)
                     UPDATE norobots_urls u SET state = {QUEUED}, worker = NULL FROM dead
                     WHERE u.job = $1 AND u.origin = dead.origin AND u.state = {LEASED}"
                ))
                .await?;
            let back = tx.execute(&stmt, &[&self.job, &now, &self.worker]).await?;
            if back > 0 {
                tracing::info!(
                    urls = back,
                    "crawl store: took back the leases of a stopped worker"
                );
            }
            st.last_reclaim = now;
        }
        // Due hosts nobody holds, and those this worker holds with nothing
        // left of their batch (their queue grew since: links, retries).
        let busy: Vec<&str> = st
            .held
            .iter()
            .filter(|(_, h)| !h.waiting.is_empty())
            .map(|(o, _)| o.as_str())
            .collect();
        let stmt = tx
            .prepare_cached(
                "SELECT origin, delay_ms, robots_tries FROM norobots_hosts
                 WHERE job = $1 AND queued > 0 AND not_before <= $2
                   AND (lease_worker IS NULL OR lease_worker = $3) AND NOT (origin = ANY($4))
                 ORDER BY not_before LIMIT $5 FOR UPDATE SKIP LOCKED",
            )
            .await?;
        let hosts = (max - leases.len()) as i64;
        let due = tx
            .query(&stmt, &[&self.job, &now, &self.worker, &busy, &hosts])
            .await?;
        if !due.is_empty() {
            let mut origins = Vec::with_capacity(due.len());
            let mut holds = Vec::with_capacity(due.len());
            let mut rows_of: HashMap<String, (i64, u32)> = HashMap::with_capacity(due.len());
            for r in &due {
                let origin: String = r.get(0);
                // A host held already keeps the pace known here.
                let delay = match st.held.get(&origin) {
                    Some(h) => h.delay,
                    None => r.get::<_, i64>(1).max(0),
                };
                holds.push(delay.max(min_delay).max(0));
                rows_of.insert(origin.clone(), (delay, to_u32(r.get(2))));
                origins.push(origin);
            }
            // Each host's batch: its first URLs in the order they came.
            let take = i64::from(self.batch.max(per_host));
            let stmt = tx
                .prepare_cached(&format!(
                    "WITH want AS (SELECT * FROM unnest($2::text[], $3::bigint[])
                                   AS w(origin, hold)),
                          pick AS (SELECT l.id FROM want CROSS JOIN LATERAL
                                   (SELECT id FROM norobots_urls
                                    WHERE job = $1 AND origin = want.origin AND state = {QUEUED}
                                    ORDER BY id LIMIT $4) l),
                          got AS (UPDATE norobots_urls u SET state = {LEASED}, worker = $5
                                  FROM pick WHERE u.id = pick.id
                                  RETURNING u.id, u.url, u.origin, u.depth, u.parent, u.via,
                                            u.hops, u.attempts),
                          n AS (SELECT origin, COUNT(*) AS n FROM got GROUP BY origin),
                          held AS (UPDATE norobots_hosts h SET leased = h.leased + n.n,
                                       queued = GREATEST(h.queued - n.n, 0),
                                       lease_worker = $5, lease_until = $6,
                                       not_before = GREATEST(h.not_before, $7 + want.hold)
                                   FROM n JOIN want ON want.origin = n.origin
                                   WHERE h.job = $1 AND h.origin = n.origin)
                     SELECT * FROM got ORDER BY id"
                ))
                .await?;
            let rows = tx
                .query(
                    &stmt,
                    &[
                        &self.job,
                        &origins,
                        &holds,
                        &take,
                        &self.worker,
                        &(now + self.lease_ms),
                        &now,
                    ],
                )
                .await?;
            tx.commit().await?;
            for r in &rows {
                let origin: String = r.get(2);
                let via: String = r.get(5);
                let lease = Lease {
                    id: r.get(0),
                    url: r.get(1),
                    origin,
                    depth: to_u32(r.get(3)),
                    parent: r.get(4),
                    via: Via::from_str(&via).unwrap_or(Via::Link),
                    hops: to_u32(r.get(6)),
                    attempts: to_u32(r.get(7)),
                    robots_tries: 0,
                };
                st.leased.insert(lease.id, lease.clone());
                let (delay, robots_tries) = rows_of.get(&lease.origin).copied().unwrap_or_default();
                st.held
                    .entry(lease.origin.clone())
                    .or_insert_with(|| Held {
                        not_before: now,
                        delay,
                        robots_tries,
                        ..Held::default()
                    })
                    .waiting
                    .push_back(lease);
            }
            st.hand_out(now, max, per_host, min_delay, leases);
        } else {
            tx.commit().await?;
        }
        if !leases.is_empty() {
            return Ok(Claim {
                leases: std::mem::take(leases),
                next: None,
                drained: false,
            });
        }
        let stmt = c
            .prepare_cached(
                "SELECT (SELECT MIN(not_before) FROM norobots_hosts
                         WHERE job = $1 AND queued > 0
                           AND (lease_worker IS NULL OR lease_worker = $2)),
                        EXISTS (SELECT 1 FROM norobots_hosts WHERE job = $1 AND queued > 0)
                        OR EXISTS (SELECT 1 FROM norobots_hosts WHERE job = $1 AND leased > 0)",
            )
            .await?;
        let row = c.query_one(&stmt, &[&self.job, &self.worker]).await?;
        let ours = st
            .held
            .values()
            .filter(|h| !h.waiting.is_empty())
            .map(|h| h.not_before)
            .min();
        let next: Option<i64> = match (row.get::<_, Option<i64>>(0), ours) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // A host due now that another worker is claiming this instant: look
        // again shortly rather than at once.
        let next = next.map(|t| t.max(now + 10));
        Ok(Claim {
            leases: Vec::new(),
            next,
            drained: !row.get::<_, bool>(1) && st.held.is_empty(),
        })
    }
}

/// Whose log [`Shared::log_rows`] reads.
#[derive(Clone, Copy)]
enum LogOf {
    /// This worker's decisions, by its own numbers (`seq`).
    Worker,
    /// The whole job's, in commit order (`done`).
    Job,
}

impl Shared {
    /// Decided rows after position `after` of `which` log, at most `limit`.
    async fn log_rows(
        &self,
        which: LogOf,
        after: i64,
        limit: usize,
    ) -> Result<Vec<Decided>, StoreError> {
        let (position, owner, key) = match which {
            LogOf::Worker => ("seq", "decider", self.worker),
            LogOf::Job => ("done", "job", self.job),
        };
        call!(*self, |c, _st| {
            let stmt = c
                .prepare_cached(&format!(
                    "SELECT u.{position}, {DECIDED_COLUMNS}
                     WHERE u.{owner} = $1 AND u.{position} > $2 ORDER BY u.{position} LIMIT $3"
                ))
                .await?;
            let rows = c.query(&stmt, &[&key, &after, &(limit as i64)]).await?;
            Ok(rows.iter().map(decided).collect())
        })
    }
}

impl Store for PgStore {
    fn flush(&self) -> impl Future<Output = Result<(), StoreError>> + Send {
        // Every call commits before it returns.
        std::future::ready(Ok(()))
    }

    async fn add(&self, urls: Vec<NewUrl>) -> Result<Vec<bool>, StoreError> {
        call!(*self.shared, |c, st| {
            let tx = c.transaction().await?;
            let added = self.shared.add(&tx, st, &urls).await?;
            tx.commit().await?;
            Ok(added)
        })
    }

    async fn claim(
        &self,
        now: i64,
        max: usize,
        per_host: u32,
        min_delay_ms: i64,
    ) -> Result<Claim, StoreError> {
        call!(*self.shared, |c, st| {
            self.shared
                .claim(&mut c, st, now, max, per_host, min_delay_ms)
                .await
        })
    }

    async fn complete(
        &self,
        id: UrlId,
        outcome: Final,
        children: Vec<NewUrl>,
        redirect: Option<NewUrl>,
        host: HostUpdate,
    ) -> Result<(), StoreError> {
        let sh = &*self.shared;
        let (reply, answer) = oneshot::channel();
        sh.lock_pending().push(Completion {
            id,
            outcome,
            children,
            redirect,
            host,
            reply,
        });
        // Group commit: whoever gets the connection next commits every
        // completion waiting then, its own and those that came while the
        // last commit was on its way to disk. A completion is answered
        // once its commit is done, so a crash never takes back one that
        // was answered.
        let mut batch: Option<Vec<Completion>> = None;
        let result = call!(*sh, |c, st| {
            let batch = batch.get_or_insert_with(|| std::mem::take(&mut *sh.lock_pending()));
            if batch.is_empty() {
                // Another call took this one into its commit.
                return Ok(());
            }
            sh.complete_all(&mut c, st, batch).await
        });
        let batch = batch.unwrap_or_default();
        let shared = result.err().map(Arc::new);
        for done in batch {
            let _ = done.reply.send(match &shared {
                None => Ok(()),
                Some(e) => Err(StoreError::Grouped(Arc::clone(e))),
            });
        }
        answer.await.unwrap_or(Err(StoreError::Closed))
    }

    async fn release(&self, id: UrlId, failed: bool, host: HostUpdate) -> Result<(), StoreError> {
        let sh = &*self.shared;
        call!(*sh, |c, st| {
            let held = st
                .leased
                .get(&id)
                .is_some_and(|l| st.held.contains_key(&l.origin));
            // A held host keeps the URL in its batch; otherwise it goes
            // back to the queue, and the host too once nothing of it is out.
            let stmt = if held {
                c.prepare_cached(&format!(
                    "WITH r AS (
                        UPDATE norobots_urls SET attempts = attempts + $3
                        WHERE id = $2 AND job = $1 AND state = {LEASED} AND worker = $4
                        RETURNING origin)
                     UPDATE norobots_hosts h SET {} FROM r
                     WHERE h.job = $1 AND h.origin = r.origin",
                    pace_sql(5, 6, 7)
                ))
                .await?
            } else {
                c.prepare_cached(&format!(
                    "WITH r AS (
                        UPDATE norobots_urls SET state = {QUEUED}, worker = NULL,
                            attempts = attempts + $3
                        WHERE id = $2 AND job = $1 AND state = {LEASED} AND worker = $4
                        RETURNING origin)
                     UPDATE norobots_hosts h SET {} FROM r
                     WHERE h.job = $1 AND h.origin = r.origin",
                    lease_done_sql("1", "1") + ", " + &pace_sql(5, 6, 7)
                ))
                .await?
            };
            c.execute(
                &stmt,
                &[
                    &sh.job,
                    &id,
                    &i32::from(failed),
                    &sh.worker,
                    &host.not_before,
                    &host.delay_ms,
                    &host.robots_tries.map(to_i32),
                ],
            )
            .await?;
            if !(held && st.put_back(id, failed, &host)) {
                st.returned(id, &host);
            }
            Ok(())
        })
    }

    async fn finish_host(&self, origin: &str, outcome: Final) -> Result<u64, StoreError> {
        call!(*self.shared, |c, st| {
            self.shared.finish(&mut c, st, Some(origin), &outcome).await
        })
    }

    async fn finish_all(&self, outcome: Final) -> Result<u64, StoreError> {
        call!(*self.shared, |c, st| {
            self.shared.finish(&mut c, st, None, &outcome).await
        })
    }

    async fn update_host(&self, origin: &str, host: HostUpdate) -> Result<(), StoreError> {
        let sh = &*self.shared;
        call!(*sh, |c, st| {
            let stmt = c
                .prepare_cached(&format!(
                    "INSERT INTO norobots_hosts AS h (job, origin, not_before, delay_ms, robots_tries)
                     VALUES ($1, $2, COALESCE($3::bigint, 0), COALESCE($4::bigint, 0),
                             COALESCE($5::int, 0))
                     ON CONFLICT (job, origin) DO UPDATE SET {}",
                    pace_sql(3, 4, 5)
                ))
                .await?;
            c.execute(
                &stmt,
                &[
                    &sh.job,
                    &origin,
                    &host.not_before,
                    &host.delay_ms,
                    &host.robots_tries.map(to_i32),
                ],
            )
            .await?;
            if let Some(h) = st.held.get_mut(origin) {
                h.apply(&host);
            }
            Ok(())
        })
    }

    /// Other workers free hosts and add new ones at moments no one tells
    /// this worker of: an idle worker looks again soon (a look is one
    /// short transaction), so that it takes its share of the hosts others'
    /// pages link to rather than leave them to the worker that found them.
    fn idle_look(&self) -> Duration {
        Duration::from_millis(100)
    }

    async fn give_back(&self) -> Result<u64, StoreError> {
        call!(*self.shared, |c, st| {
            self.shared.give_back(&mut c, st).await
        })
    }

    async fn recover(&self) -> Result<u64, StoreError> {
        let sh = &*self.shared;
        call!(*sh, |c, st| {
            // What this worker's name held in its last life.
            st.leased.clear();
            st.held.clear();
            let tx = c.transaction().await?;
            let n: i64 = tx
                .query_one(&requeue_sql("worker = $2"), &[&sh.job, &sh.worker])
                .await?
                .get(0);
            tx.execute(
                "UPDATE norobots_hosts SET lease_worker = NULL, lease_until = NULL, leased = 0
                 WHERE job = $1 AND lease_worker = $2",
                &[&sh.job, &sh.worker],
            )
            .await?;
            tx.commit().await?;
            Ok(n as u64)
        })
    }

    async fn decided_after(&self, seq: i64, limit: usize) -> Result<Vec<Decided>, StoreError> {
        self.shared.log_rows(LogOf::Worker, seq, limit).await
    }

    async fn job_log(&self, after: i64, limit: usize) -> Result<Vec<Decided>, StoreError> {
        self.shared.log_rows(LogOf::Job, after, limit).await
    }

    async fn log_mark(&self) -> Result<(i64, u64), StoreError> {
        let sh = &*self.shared;
        call!(*sh, |c, _st| {
            let r = c
                .query_one(
                    "SELECT log_seq, log_len FROM norobots_workers WHERE id = $1",
                    &[&sh.worker],
                )
                .await?;
            Ok((r.get::<_, i64>(0), r.get::<_, i64>(1) as u64))
        })
    }

    async fn set_log_mark(&self, seq: i64, len: u64) -> Result<(), StoreError> {
        let sh = &*self.shared;
        call!(*sh, |c, _st| {
            c.execute(
                "UPDATE norobots_workers SET log_seq = $2, log_len = $3 WHERE id = $1",
                &[&sh.worker, &seq, &(len as i64)],
            )
            .await?;
            Ok(())
        })
    }

    async fn put_robots(&self, row: RobotsRow) -> Result<(), StoreError> {
        let sh = &*self.shared;
        call!(*sh, |c, _st| {
            c.execute(
                "INSERT INTO norobots_robots VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (job, origin) DO UPDATE SET status = EXCLUDED.status,
                    headers = EXCLUDED.headers, body = EXCLUDED.body,
                    fetched_at = EXCLUDED.fetched_at
                 WHERE norobots_robots.fetched_at <= EXCLUDED.fetched_at",
                &[
                    &sh.job,
                    &row.origin,
                    &i32::from(row.status),
                    &super::headers_json(&row.headers),
                    &row.body,
                    &row.fetched_at,
                ],
            )
            .await?;
            Ok(())
        })
    }

    async fn robots_of(&self, origin: &str) -> Result<Option<RobotsRow>, StoreError> {
        let sh = &*self.shared;
        call!(*sh, |c, _st| {
            let stmt = c
                .prepare_cached(
                    "SELECT origin, status, headers, body, fetched_at FROM norobots_robots
                     WHERE job = $1 AND origin = $2",
                )
                .await?;
            let row = c.query_opt(&stmt, &[&sh.job, &origin]).await?;
            Ok(row.map(|r| RobotsRow {
                origin: r.get(0),
                status: r.get::<_, i32>(1) as u16,
                headers: super::headers_from_json(r.get(2)),
                body: r.get(3),
                fetched_at: r.get(4),
            }))
        })
    }

    async fn stats(&self, now: i64) -> Result<Stats, StoreError> {
        let sh = &*self.shared;
        call!(*sh, |c, _st| {
            let h = c
                .query_one(
                    "SELECT COALESCE(SUM(queued), 0)::bigint, COALESCE(SUM(leased), 0)::bigint,
                        COUNT(*) FILTER (WHERE queued > 0),
                        COUNT(*) FILTER (WHERE queued > 0 AND not_before > $2)
                     FROM norobots_hosts WHERE job = $1",
                    &[&sh.job, &now],
                )
                .await?;
            let mut decided = std::collections::BTreeMap::new();
            for r in c
                .query(
                    &format!(
                        "SELECT decision, COUNT(*) FROM norobots_urls
                         WHERE job = $1 AND state = {DONE} GROUP BY decision"
                    ),
                    &[&sh.job],
                )
                .await?
            {
                if let Ok(d) = r.get::<_, &str>(0).parse::<Decision>() {
                    decided.insert(d, r.get::<_, i64>(1) as u64);
                }
            }
            let workers: i64 = c
                .query_one(
                    "SELECT COUNT(*) FROM norobots_workers WHERE job = $1 AND heartbeat > $2",
                    &[&sh.job, &now.saturating_sub(sh.lease_ms)],
                )
                .await?
                .get(0);
            Ok(Stats {
                queued: h.get::<_, i64>(0) as u64,
                leased: h.get::<_, i64>(1) as u64,
                decided,
                hosts_with_work: h.get::<_, i64>(2) as u64,
                hosts_waiting: h.get::<_, i64>(3) as u64,
                workers: workers as u64,
            })
        })
    }

    async fn host_counts(&self) -> Result<HostCounts, StoreError> {
        let sh = &*self.shared;
        call!(*sh, |c, _st| {
            let mut out = HostCounts::new();
            for r in c
                .query(
                    &format!(
                        "SELECT origin, decision, COUNT(*) FROM norobots_urls
                         WHERE job = $1 AND state = {DONE} GROUP BY origin, decision"
                    ),
                    &[&sh.job],
                )
                .await?
            {
                if let Ok(d) = r.get::<_, &str>(1).parse::<Decision>() {
                    out.entry(r.get(0))
                        .or_default()
                        .insert(d, r.get::<_, i64>(2) as u64);
                }
            }
            Ok(out)
        })
    }
}

#[cfg(test)]
mod tests;
