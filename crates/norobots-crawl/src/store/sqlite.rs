//! [`Store`] in one SQLite file.
//!
//! Changes go into a transaction that is committed every
//! [`COMMIT_EVERY`] or [`COMMIT_OPS`] changes, whichever comes first, and
//! on [`Store::flush`]: grouping commits is what lets thousands of pages
//! a second be recorded, where a commit each would write the same pages
//! of the file again and again. Each call runs in a savepoint of its own,
//! so a failing call undoes only itself. With the write-ahead log and
//! `synchronous = NORMAL`, a commit survives the process being killed at
//! any moment (a power cut may lose the last ones, never corrupt the
//! file).
//!
//! What a kill loses is the last uncommitted group, and that is always
//! safe to lose: the calls are applied in order, so the store comes back
//! as it was at a commit, with the URLs leased after it queued again
//! ([`Store::recover`]). Nothing outside the store depends on an
//! uncommitted change: the log is written only from committed decisions
//! ([`Store::decided_after`] returns no others).
//!
//! The calls run on the caller's thread, under a lock: each is a few
//! indexed statements, shorter than handing it to another thread. The
//! queue lives in the file, not in memory: memory holds SQLite's page
//! cache (16 MiB), the counts by decision and a cache of host ids.

use std::collections::{BTreeMap, HashMap};
use std::future::{ready, Future};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rusqlite::{params, Connection, OptionalExtension};

use super::{
    Claim, Decided, Final, HostCounts, HostUpdate, Lease, NewUrl, RobotsRow, Stats, Store,
    StoreError, UrlId, Via,
};
use crate::decision::{Decision, Reason};

/// The schema this code writes; a newer file is refused.
const SCHEMA: i64 = 1;

/// Changes are committed at least this often.
pub const COMMIT_EVERY: Duration = Duration::from_millis(50);

/// ... and at least every this many calls.
pub const COMMIT_OPS: u32 = 2048;

/// Host ids kept in memory; past this the cache starts over.
const HOST_CACHE: usize = 100_000;

const SCHEMA_SQL: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS hosts (
    id INTEGER PRIMARY KEY,
    origin TEXT NOT NULL UNIQUE,
    not_before INTEGER NOT NULL DEFAULT 0,
    delay_ms INTEGER NOT NULL DEFAULT 0,
    queued INTEGER NOT NULL DEFAULT 0,
    leased INTEGER NOT NULL DEFAULT 0,
    robots_tries INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS hosts_due ON hosts(not_before) WHERE queued > 0;
CREATE TABLE IF NOT EXISTS urls (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    host INTEGER NOT NULL,
    state INTEGER NOT NULL,
    depth INTEGER NOT NULL,
    parent INTEGER,
    via TEXT NOT NULL,
    hops INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    decision TEXT,
    reason TEXT,
    status INTEGER,
    bytes INTEGER,
    time INTEGER,
    seq INTEGER
);
CREATE INDEX IF NOT EXISTS urls_queue ON urls(host, id) WHERE state = 0;
CREATE UNIQUE INDEX IF NOT EXISTS urls_seq ON urls(seq) WHERE seq IS NOT NULL;
CREATE TABLE IF NOT EXISTS robots (
    origin TEXT PRIMARY KEY,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    body BLOB NOT NULL,
    fetched_at INTEGER NOT NULL
);
";

/// URL states.
const QUEUED: i64 = 0;
const LEASED: i64 = 1;

/// What the store owns: the connection, with a transaction open.
struct State {
    conn: Connection,
    /// The last `seq` given out, and the last committed.
    seq: i64,
    committed_seq: i64,
    hosts: HashMap<String, i64>,
    /// The host of each URL leased in this run, so that completing one
    /// needs no lookup.
    leased: HashMap<UrlId, i64>,
    decided: BTreeMap<Decision, u64>,
    /// Calls since the last commit, and when it was.
    ops: u32,
    last_commit: Instant,
}

/// The SQLite store.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), norobots_crawl::store::StoreError> {
/// use norobots_crawl::store::{sqlite::SqliteStore, NewUrl, Store, Via};
///
/// let store = SqliteStore::memory()?;
/// let url = |u: &str| NewUrl { url: u.into(), origin: "http://a.test".into(), depth: 0,
///                              parent: None, via: Via::Start, hops: 0, outcome: None };
/// assert_eq!(store.add(vec![url("http://a.test/"), url("http://a.test/")]).await?, [true, false]);
/// let claim = store.claim(0, 10, 1, 0).await?;
/// assert_eq!(claim.leases.len(), 1);
/// assert_eq!(claim.leases[0].url, "http://a.test/");
/// # Ok(()) }
/// ```
pub struct SqliteStore {
    state: Mutex<State>,
}

impl SqliteStore {
    /// Opens (or creates) the store at `path`.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::start(Connection::open(path)?)
    }

    /// A store in memory, for tests and one-off crawls.
    pub fn memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::start(Connection::open_in_memory()?)
    }

    fn start(conn: Connection) -> Result<SqliteStore, StoreError> {
        let state = State::new(conn)?;
        state.conn.execute_batch("BEGIN IMMEDIATE")?;
        Ok(SqliteStore {
            state: Mutex::new(state),
        })
    }

    /// Runs `f` in a savepoint of the open transaction, and commits when
    /// the group is due.
    fn call<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut State) -> Result<R, StoreError>,
    ) -> impl Future<Output = Result<R, StoreError>> + Send {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let result = state.savepoint(f);
        state.ops += 1;
        let result = match state.commit_if_due() {
            Ok(()) => result,
            Err(e) => Err(e),
        };
        ready(result)
    }
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        let state = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        let _ = state.commit();
    }
}

impl State {
    fn new(conn: Connection) -> Result<State, StoreError> {
        // Every statement of this file stays prepared (rusqlite keeps 16).
        conn.set_prepared_statement_cache_capacity(64);
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "cache_size", -16_000)?;
        conn.pragma_update(None, "temp_store", "MEMORY")?;
        conn.busy_timeout(std::time::Duration::from_secs(30))?;
        conn.execute_batch(SCHEMA_SQL)?;
        let found: Option<i64> = conn
            .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
                r.get(0)
            })
            .optional()?;
        match found {
            Some(v) if v > SCHEMA => {
                return Err(StoreError::Newer {
                    found: v,
                    known: SCHEMA,
                })
            }
            Some(_) => {}
            None => {
                conn.execute("INSERT INTO meta VALUES ('schema', ?1)", [SCHEMA])?;
            }
        }
        let (seq, decided) = State::counts(&conn)?;
        Ok(State {
            conn,
            seq,
            committed_seq: seq,
            hosts: HashMap::new(),
            leased: HashMap::new(),
            decided,
            ops: 0,
            last_commit: Instant::now(),
        })
    }

    fn commit_if_due(&mut self) -> Result<(), StoreError> {
        if self.ops >= COMMIT_OPS || self.last_commit.elapsed() >= COMMIT_EVERY {
            self.commit()?;
        }
        Ok(())
    }

    /// Commits the open transaction and opens the next.
    fn commit(&mut self) -> Result<(), StoreError> {
        self.conn.prepare_cached("COMMIT")?.execute([])?;
        self.committed_seq = self.seq;
        self.ops = 0;
        self.last_commit = Instant::now();
        self.conn.prepare_cached("BEGIN IMMEDIATE")?.execute([])?;
        Ok(())
    }

    fn counts(conn: &Connection) -> Result<(i64, BTreeMap<Decision, u64>), StoreError> {
        let seq = conn.query_row("SELECT COALESCE(MAX(seq), 0) FROM urls", [], |r| r.get(0))?;
        let mut decided = BTreeMap::new();
        let mut st =
            conn.prepare("SELECT decision, COUNT(*) FROM urls WHERE state = 2 GROUP BY decision")?;
        let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
        for row in rows {
            let (d, n) = row?;
            if let Ok(d) = d.parse::<Decision>() {
                decided.insert(d, n as u64);
            }
        }
        Ok((seq, decided))
    }

    /// Runs `f` in a savepoint: on error, only its own changes are undone.
    fn savepoint<R>(
        &mut self,
        f: impl FnOnce(&mut State) -> Result<R, StoreError>,
    ) -> Result<R, StoreError> {
        self.conn.prepare_cached("SAVEPOINT job")?.execute([])?;
        let (seq, decided) = (self.seq, self.decided.clone());
        let result = f(self);
        if result.is_err() {
            if let Ok(mut st) = self.conn.prepare_cached("ROLLBACK TO job") {
                let _ = st.execute([]);
            }
            (self.seq, self.decided) = (seq, decided);
            self.hosts.clear();
        }
        self.conn.prepare_cached("RELEASE job")?.execute([])?;
        result
    }

    fn host(&mut self, origin: &str) -> Result<i64, StoreError> {
        if let Some(&id) = self.hosts.get(origin) {
            return Ok(id);
        }
        self.conn
            .prepare_cached("INSERT OR IGNORE INTO hosts(origin) VALUES (?1)")?
            .execute([origin])?;
        let id: i64 = self
            .conn
            .prepare_cached("SELECT id FROM hosts WHERE origin = ?1")?
            .query_row([origin], |r| r.get(0))?;
        if self.hosts.len() >= HOST_CACHE {
            self.hosts.clear();
        }
        self.hosts.insert(origin.to_owned(), id);
        Ok(id)
    }

    fn next_seq(&mut self, decision: Decision) -> i64 {
        self.seq += 1;
        *self.decided.entry(decision).or_default() += 1;
        self.seq
    }

    /// Adds one URL; whether it was new.
    fn insert(&mut self, url: &NewUrl) -> Result<bool, StoreError> {
        let host = self.host(&url.origin)?;
        match &url.outcome {
            None => {
                let added = self
                    .conn
                    .prepare_cached(
                        "INSERT OR IGNORE INTO urls(url, host, state, depth, parent, via, hops)
                         VALUES (?1, ?2, 0, ?3, ?4, ?5, ?6)",
                    )?
                    .execute(params![
                        url.url,
                        host,
                        url.depth,
                        url.parent,
                        url.via.as_str(),
                        url.hops
                    ])?
                    == 1;
                if added {
                    self.conn
                        .prepare_cached("UPDATE hosts SET queued = queued + 1 WHERE id = ?1")?
                        .execute([host])?;
                }
                Ok(added)
            }
            Some(outcome) => {
                let known: bool = self
                    .conn
                    .prepare_cached("SELECT EXISTS(SELECT 1 FROM urls WHERE url = ?1)")?
                    .query_row([&url.url], |r| r.get(0))?;
                if known {
                    return Ok(false);
                }
                let seq = self.next_seq(outcome.decision);
                self.conn
                    .prepare_cached(
                        "INSERT INTO urls(url, host, state, depth, parent, via, hops,
                                          decision, reason, status, bytes, time, seq)
                         VALUES (?1, ?2, 2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                    )?
                    .execute(params![
                        url.url,
                        host,
                        url.depth,
                        url.parent,
                        url.via.as_str(),
                        url.hops,
                        outcome.decision.as_str(),
                        reason_json(&outcome.reason),
                        outcome.status,
                        outcome.bytes.map(|b| b as i64),
                        outcome.time,
                        seq
                    ])?;
                Ok(true)
            }
        }
    }

    fn update_host(
        &mut self,
        host: i64,
        u: &HostUpdate,
        leased: i64,
        queued: i64,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(
                "UPDATE hosts SET leased = MAX(0, leased + ?2), queued = MAX(0, queued + ?3),
                    not_before = MAX(not_before, COALESCE(?4, 0)),
                    delay_ms = COALESCE(?5, delay_ms),
                    robots_tries = COALESCE(?6, robots_tries)
                 WHERE id = ?1",
            )?
            .execute(params![
                host,
                leased,
                queued,
                u.not_before,
                u.delay_ms,
                u.robots_tries
            ])?;
        Ok(())
    }

    /// Makes URL `id` final with `outcome`; false when it was not leased
    /// (a stale lease changes nothing).
    fn finalize(&mut self, id: UrlId, outcome: &Final, from: i64) -> Result<bool, StoreError> {
        // The state test is in the UPDATE: one statement, and a stale
        // lease matches no row.
        let seq = self.seq + 1;
        let changed = self
            .conn
            .prepare_cached(
                "UPDATE urls SET state = 2, decision = ?2, reason = ?3, status = ?4, bytes = ?5,
                    time = ?6, seq = ?7 WHERE id = ?1 AND state = ?8",
            )?
            .execute(params![
                id,
                outcome.decision.as_str(),
                reason_json(&outcome.reason),
                outcome.status,
                outcome.bytes.map(|b| b as i64),
                outcome.time,
                seq,
                from
            ])?;
        if changed == 1 {
            self.next_seq(outcome.decision);
        }
        Ok(changed == 1)
    }

    fn host_of(&mut self, id: UrlId) -> Result<Option<i64>, StoreError> {
        if let Some(h) = self.leased.remove(&id) {
            return Ok(Some(h));
        }
        Ok(self
            .conn
            .prepare_cached("SELECT host FROM urls WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?)
    }

    fn claim(
        &mut self,
        now: i64,
        max: usize,
        per_host: u32,
        min_delay: i64,
    ) -> Result<Claim, StoreError> {
        let per_host = i64::from(per_host.max(1));
        // Limits are written into the statements, not bound: SQLite
        // prepares a statement again on every run when its LIMIT is a
        // parameter (with STAT4, which the bundled build enables).
        let due: Vec<(i64, String, i64, i64, u32)> = self
            .conn
            .prepare_cached(
                "SELECT id, origin, delay_ms, leased, robots_tries FROM hosts
                 WHERE queued > 0 AND leased < ?1 AND not_before <= ?2
                 ORDER BY not_before, id LIMIT 256",
            )?
            .query_map(params![per_host, now], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })?
            .take(max)
            .collect::<Result<_, _>>()?;
        let mut leases = Vec::new();
        for (host, origin, delay_ms, leased, robots_tries) in due {
            let delay_ms = delay_ms.max(min_delay);
            if leases.len() >= max {
                break;
            }
            // A host with a delay gives one URL per delay; one without, as
            // many as it has room for.
            let room = if delay_ms > 0 {
                1
            } else {
                (per_host - leased).max(0)
            };
            let take = room.min((max - leases.len()) as i64);
            let picked: Vec<Lease> = self
                .conn
                .prepare_cached(
                    "SELECT id, url, depth, parent, via, hops, attempts FROM urls
                     WHERE host = ?1 AND state = 0 ORDER BY id LIMIT 256",
                )?
                .query_map(params![host], |r| {
                    let via: String = r.get(4)?;
                    Ok(Lease {
                        id: r.get(0)?,
                        url: r.get(1)?,
                        origin: origin.clone(),
                        depth: r.get(2)?,
                        parent: r.get(3)?,
                        via: Via::from_str(&via).unwrap_or(Via::Link),
                        hops: r.get(5)?,
                        attempts: r.get(6)?,
                        robots_tries,
                    })
                })?
                .take(take as usize)
                .collect::<Result<_, _>>()?;
            for lease in &picked {
                self.conn
                    .prepare_cached("UPDATE urls SET state = 1 WHERE id = ?1")?
                    .execute([lease.id])?;
                self.leased.insert(lease.id, host);
            }
            let n = picked.len() as i64;
            // Held for its delay from now, so that a process that dies
            // mid-request still leaves the host alone that long.
            let hold = HostUpdate {
                not_before: Some(now + delay_ms),
                ..HostUpdate::default()
            };
            self.update_host(host, &hold, n, -n)?;
            leases.extend(picked);
        }
        if !leases.is_empty() {
            return Ok(Claim {
                leases,
                next: None,
                drained: false,
            });
        }
        let (next, open): (Option<i64>, i64) = self
            .conn
            .prepare_cached(
                "SELECT (SELECT MIN(not_before) FROM hosts WHERE queued > 0 AND leased < ?1),
                    (SELECT COALESCE(SUM(queued) + SUM(leased), 0) FROM hosts)",
            )?
            .query_row([per_host], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(Claim {
            leases,
            next,
            drained: open == 0,
        })
    }

    /// Gives every queued URL matching `filter` (a host, or all) its
    /// final decision, in queue order.
    fn finish(&mut self, host: Option<i64>, outcome: &Final) -> Result<u64, StoreError> {
        let ids: Vec<(i64, i64)> = match host {
            Some(h) => self
                .conn
                .prepare_cached(
                    "SELECT id, host FROM urls WHERE host = ?1 AND state = 0 ORDER BY id",
                )?
                .query_map([h], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?,
            None => self
                .conn
                .prepare_cached("SELECT id, host FROM urls WHERE state = 0 ORDER BY id")?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?,
        };
        for &(id, _) in &ids {
            self.finalize(id, outcome, QUEUED)?;
        }
        match host {
            Some(h) => self
                .conn
                .prepare_cached("UPDATE hosts SET queued = 0 WHERE id = ?1")?
                .execute([h])?,
            None => self.conn.execute("UPDATE hosts SET queued = 0", [])?,
        };
        Ok(ids.len() as u64)
    }
}

fn reason_json(reason: &Option<Reason>) -> Option<String> {
    reason.as_ref().and_then(|r| serde_json::to_string(r).ok())
}

fn meta_get(conn: &Connection, key: &str) -> Result<i64, StoreError> {
    Ok(conn
        .prepare_cached("SELECT value FROM meta WHERE key = ?1")?
        .query_row([key], |r| r.get(0))
        .optional()?
        .unwrap_or(0))
}

fn meta_set(conn: &Connection, key: &str, value: i64) -> Result<(), StoreError> {
    conn.prepare_cached("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)")?
        .execute(params![key, value])?;
    Ok(())
}

impl Store for SqliteStore {
    fn flush(&self) -> impl Future<Output = Result<(), StoreError>> + Send {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        ready(state.commit())
    }

    fn add(&self, urls: Vec<NewUrl>) -> impl Future<Output = Result<Vec<bool>, StoreError>> + Send {
        self.call(move |s| urls.iter().map(|u| s.insert(u)).collect())
    }

    fn claim(
        &self,
        now: i64,
        max: usize,
        per_host: u32,
        min_delay_ms: i64,
    ) -> impl Future<Output = Result<Claim, StoreError>> + Send {
        self.call(move |s| s.claim(now, max, per_host, min_delay_ms))
    }

    fn complete(
        &self,
        id: UrlId,
        mut outcome: Final,
        children: Vec<NewUrl>,
        redirect: Option<NewUrl>,
        host: HostUpdate,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        self.call(move |s| {
            let Some(host_id) = s.host_of(id)? else {
                return Ok(());
            };
            if let Some(target) = redirect {
                if !s.insert(&target)? {
                    outcome.decision = Decision::Duplicate;
                    outcome.reason = Some(Reason::Redirect { to: target.url });
                }
            }
            for child in &children {
                s.insert(child)?;
            }
            if s.finalize(id, &outcome, LEASED)? {
                s.update_host(host_id, &host, -1, 0)?;
            }
            Ok(())
        })
    }

    fn release(
        &self,
        id: UrlId,
        failed: bool,
        host: HostUpdate,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        self.call(move |s| {
            let h = s.host_of(id)?;
            let changed = s
                .conn
                .prepare_cached(
                    "UPDATE urls SET state = 0, attempts = attempts + ?2 WHERE id = ?1 AND state = 1",
                )?
                .execute(params![id, i64::from(failed)])?;
            if let (1, Some(h)) = (changed, h) {
                s.update_host(h, &host, -1, 1)?;
            }
            Ok(())
        })
    }

    fn finish_host(
        &self,
        origin: &str,
        outcome: Final,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send {
        let origin = origin.to_owned();
        self.call(move |s| {
            let h = s.host(&origin)?;
            s.finish(Some(h), &outcome)
        })
    }

    fn finish_all(&self, outcome: Final) -> impl Future<Output = Result<u64, StoreError>> + Send {
        self.call(move |s| s.finish(None, &outcome))
    }

    fn update_host(
        &self,
        origin: &str,
        host: HostUpdate,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        let origin = origin.to_owned();
        self.call(move |s| {
            let h = s.host(&origin)?;
            s.update_host(h, &host, 0, 0)
        })
    }

    fn recover(&self) -> impl Future<Output = Result<u64, StoreError>> + Send {
        self.call(|s| {
            s.leased.clear();
            let n = s.conn.execute("UPDATE urls SET state = 0 WHERE state = 1", [])?;
            s.conn.execute(
                "UPDATE hosts SET leased = 0,
                    queued = (SELECT COUNT(*) FROM urls WHERE urls.host = hosts.id AND urls.state = 0)",
                [],
            )?;
            Ok(n as u64)
        })
    }

    fn decided_after(
        &self,
        seq: i64,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<Decided>, StoreError>> + Send {
        self.call(move |s| {
            let mut st = s.conn.prepare_cached(
                "SELECT u.seq, u.url, u.depth, p.url, u.via, u.decision, u.reason, u.status,
                        u.bytes, u.time
                 FROM urls u LEFT JOIN urls p ON p.id = u.parent
                 WHERE u.seq > ?1 AND u.seq <= ?2 ORDER BY u.seq LIMIT 4096",
            )?;
            let rows = st.query_map(params![seq, s.committed_seq], |r| {
                let via: String = r.get(4)?;
                let decision: String = r.get(5)?;
                let reason: Option<String> = r.get(6)?;
                Ok(Decided {
                    seq: r.get(0)?,
                    url: r.get(1)?,
                    depth: r.get(2)?,
                    parent: r.get(3)?,
                    via: Via::from_str(&via).unwrap_or(Via::Link),
                    outcome: Final {
                        decision: decision.parse().unwrap_or(Decision::Error),
                        reason: reason.and_then(|r| serde_json::from_str(&r).ok()),
                        status: r.get(7)?,
                        bytes: r.get::<_, Option<i64>>(8)?.map(|b| b as u64),
                        time: r.get::<_, Option<i64>>(9)?.unwrap_or(0),
                    },
                })
            })?;
            Ok(rows.take(limit).collect::<Result<Vec<_>, _>>()?)
        })
    }

    fn log_mark(&self) -> impl Future<Output = Result<(i64, u64), StoreError>> + Send {
        self.call(|s| {
            Ok((
                meta_get(&s.conn, "log_seq")?,
                meta_get(&s.conn, "log_len")? as u64,
            ))
        })
    }

    fn set_log_mark(
        &self,
        seq: i64,
        len: u64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        self.call(move |s| {
            meta_set(&s.conn, "log_seq", seq)?;
            meta_set(&s.conn, "log_len", len as i64)
        })
    }

    fn put_robots(&self, row: RobotsRow) -> impl Future<Output = Result<(), StoreError>> + Send {
        self.call(move |s| {
            let headers = super::headers_json(&row.headers);
            s.conn
                .prepare_cached("INSERT OR REPLACE INTO robots VALUES (?1, ?2, ?3, ?4, ?5)")?
                .execute(params![
                    row.origin,
                    row.status,
                    headers,
                    row.body,
                    row.fetched_at
                ])?;
            Ok(())
        })
    }

    fn robots_of(
        &self,
        origin: &str,
    ) -> impl Future<Output = Result<Option<RobotsRow>, StoreError>> + Send {
        let origin = origin.to_owned();
        self.call(move |s| {
            let row = s
                .conn
                .prepare_cached(
                    "SELECT origin, status, headers, body, fetched_at FROM robots WHERE origin = ?1",
                )?
                .query_row([origin], |r| {
                    let headers: String = r.get(2)?;
                    Ok(RobotsRow {
                        origin: r.get(0)?,
                        status: r.get(1)?,
                        headers: super::headers_from_json(&headers),
                        body: r.get(3)?,
                        fetched_at: r.get(4)?,
                    })
                })
                .optional()?;
            Ok(row)
        })
    }

    fn stats(&self, now: i64) -> impl Future<Output = Result<Stats, StoreError>> + Send {
        self.call(move |s| {
            let (queued, leased, with_work, waiting): (i64, i64, i64, i64) = s.conn.prepare_cached(
                "SELECT COALESCE(SUM(queued), 0), COALESCE(SUM(leased), 0),
                        COALESCE(SUM(queued > 0), 0), COALESCE(SUM(queued > 0 AND not_before > ?1), 0)
                 FROM hosts",
            )?
            .query_row([now], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
            Ok(Stats {
                queued: queued as u64,
                leased: leased as u64,
                decided: s.decided.clone(),
                hosts_with_work: with_work as u64,
                hosts_waiting: waiting as u64,
                workers: 0,
            })
        })
    }

    fn host_counts(&self) -> impl Future<Output = Result<HostCounts, StoreError>> + Send {
        self.call(|s| {
            let mut st = s.conn.prepare_cached(
                "SELECT h.origin, u.decision, COUNT(*) FROM urls u JOIN hosts h ON h.id = u.host
                 WHERE u.state = 2 GROUP BY h.origin, u.decision",
            )?;
            let mut out = HostCounts::new();
            let rows = st.query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                ))
            })?;
            for row in rows {
                let (origin, d, n) = row?;
                if let Ok(d) = d.parse::<Decision>() {
                    out.entry(origin).or_default().insert(d, n as u64);
                }
            }
            Ok(out)
        })
    }
}

#[cfg(test)]
mod tests;
