//! The store suite and the sharing between workers, against a real
//! PostgreSQL server: `NOROBOTS_TEST_PG=postgres://USER@HOST:PORT/DB`
//! (`.ci/run` starts a throw-away one). Without it the tests say so and
//! pass, except under `CI=true`, where an untested store is a failure.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex as StdMutex;

use super::*;
use crate::store::suite::{self, url};

/// The test server's URL, or `None` (loudly) outside CI.
pub(crate) fn pg_url() -> Option<String> {
    match std::env::var("NOROBOTS_TEST_PG") {
        Ok(u) if !u.is_empty() => Some(u),
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true but NOROBOTS_TEST_PG is not set: the PostgreSQL store would go untested"
            );
            eprintln!(
                "SKIPPED: the PostgreSQL store tests need NOROBOTS_TEST_PG=postgres://USER@HOST:PORT/DB"
            );
            None
        }
    }
}

/// A job name no other test (or earlier run) uses.
fn fresh_job(what: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    format!(
        "{what}-{}-{}-{}",
        std::process::id(),
        now_ms(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// Completes `id` as fetched at `time`, with nothing found on the page.
async fn fetched(store: &PgStore, id: UrlId, time: i64) {
    store
        .complete(
            id,
            Final::new(Decision::Fetched, None, time),
            vec![],
            None,
            HostUpdate::default(),
        )
        .await
        .unwrap();
}

async fn open(url: &str, job: &str, worker: &str, lease_ms: u64) -> PgStore {
    let mut o = PgOptions::new(worker);
    o.lease = Duration::from_millis(lease_ms);
    o.takeover = true;
    PgStore::open(url, job, o).await.unwrap().0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_store_suite_passes() {
    let Some(pg) = pg_url() else { return };
    let job = StdMutex::new(String::new());
    let open_suite = |fresh: bool| {
        let mut name = job.lock().unwrap();
        if fresh {
            *name = fresh_job("suite");
        }
        let name = name.clone();
        tokio::task::block_in_place(|| {
            tokio::runtime::Handle::current().block_on(open(&pg, &name, "suite", 60_000))
        })
    };
    suite::run_all(open_suite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_held_by_one_worker_is_not_given_to_another() {
    let Some(pg) = pg_url() else { return };
    let job = fresh_job("held");
    let a = open(&pg, &job, "a", 60_000).await;
    let b = open(&pg, &job, "b", 60_000).await;
    a.add(vec![
        url("http://h/1", "http://h"),
        url("http://h/2", "http://h"),
    ])
    .await
    .unwrap();
    let got_a = a.claim(0, 1, 1, 0).await.unwrap().leases;
    assert_eq!(got_a.len(), 1);
    assert_eq!(got_a[0].url, "http://h/1");
    b.add(vec![url("http://g/1", "http://g")]).await.unwrap();
    let got_b = b.claim(0, 10, 4, 0).await.unwrap().leases;
    let origins: Vec<&str> = got_b.iter().map(|l| l.origin.as_str()).collect();
    assert_eq!(origins, ["http://g"], "b got a's host");
    // a holds h for its batch: h/2 and h/1's link h/3 stay a's while any
    // of h is out or waiting with a.
    a.complete(
        got_a[0].id,
        Final::new(Decision::Fetched, None, 1),
        vec![url("http://h/3", "http://h")],
        None,
        HostUpdate::default(),
    )
    .await
    .unwrap();
    assert!(b.claim(0, 10, 4, 0).await.unwrap().leases.is_empty());
    let second = a.claim(0, 1, 1, 0).await.unwrap().leases;
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].url, "http://h/2", "the rest of a's batch first");
    assert!(b.claim(0, 10, 4, 0).await.unwrap().leases.is_empty());
    // The host is free again once its worker is done with what it held.
    fetched(&a, second[0].id, 1).await;
    let again = b.claim(0, 10, 4, 0).await.unwrap().leases;
    let urls: Vec<&str> = again.iter().map(|l| l.url.as_str()).collect();
    assert_eq!(urls, ["http://h/3"]);
    let stats = b.stats(now_ms()).await.unwrap();
    assert_eq!(stats.workers, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_goes_back_to_the_queue_when_its_worker_is_done() {
    let Some(pg) = pg_url() else { return };
    let job = fresh_job("giveback");
    let a = open(&pg, &job, "a", 60_000).await;
    let b = open(&pg, &job, "b", 60_000).await;
    a.add(
        (1..=5)
            .map(|i| url(&format!("http://h/{i}"), "http://h"))
            .collect(),
    )
    .await
    .unwrap();
    let first = a.claim(0, 1, 1, 0).await.unwrap().leases;
    assert_eq!(first.len(), 1);
    assert!(b.claim(0, 10, 1, 0).await.unwrap().leases.is_empty());
    // A released URL keeps its place at the head of a's batch.
    a.release(first[0].id, true, HostUpdate::default())
        .await
        .unwrap();
    let again = a.claim(0, 1, 1, 0).await.unwrap().leases;
    assert_eq!(
        (again[0].url.as_str(), again[0].attempts),
        ("http://h/1", 1),
        "its place kept, its failure counted"
    );
    fetched(&a, again[0].id, 1).await;
    // a is done claiming: the rest of its batch is b's to take.
    assert_eq!(a.give_back().await.unwrap(), 4);
    let got = b.claim(0, 10, 1, 0).await.unwrap().leases;
    let urls: Vec<&str> = got.iter().map(|l| l.url.as_str()).collect();
    assert_eq!(urls, ["http://h/2"]);
    // finish_host decides what is queued and what waits in b's batch.
    let n = b
        .finish_host("http://h", Final::new(Decision::Deferred, None, 2))
        .await
        .unwrap();
    assert_eq!(n, 3);
    b.complete(
        got[0].id,
        Final::new(Decision::Deferred, None, 2),
        vec![],
        None,
        HostUpdate::default(),
    )
    .await
    .unwrap();
    let claim = a.claim(0, 10, 1, 0).await.unwrap();
    assert!(claim.drained, "{claim:?}");
    let log = a.job_log(0, 100).await.unwrap();
    assert_eq!(log.len(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_workers_host_comes_back_when_its_lease_expires() {
    let Some(pg) = pg_url() else { return };
    let job = fresh_job("expire");
    let a = open(&pg, &job, "a", 300).await;
    a.add(vec![url("http://h/1", "http://h")]).await.unwrap();
    let now = now_ms();
    let lease = a.claim(now, 1, 1, 0).await.unwrap().leases.remove(0);
    // A live worker's heartbeat keeps its lease past the lease's length.
    let b = open(&pg, &job, "b", 300).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    let c = b.claim(now_ms(), 5, 1, 0).await.unwrap();
    assert!(c.leases.is_empty() && !c.drained, "{c:?}");
    // Killed: no more heartbeat.
    drop(a);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let c = b.claim(now_ms(), 5, 1, 0).await.unwrap();
    assert_eq!(c.leases.len(), 1, "{c:?}");
    assert_eq!((c.leases[0].id, c.leases[0].attempts), (lease.id, 0));
    fetched(&b, c.leases[0].id, 2).await;
    assert!(b.claim(now_ms(), 5, 1, 0).await.unwrap().drained);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn robots_rows_and_the_job_log_are_the_jobs() {
    let Some(pg) = pg_url() else { return };
    let job = fresh_job("shared");
    let a = open(&pg, &job, "a", 60_000).await;
    let b = open(&pg, &job, "b", 60_000).await;
    let row = RobotsRow {
        origin: "http://h".into(),
        status: 200,
        headers: vec![],
        body: b"User-agent: *\nDisallow: /x\n".to_vec(),
        fetched_at: 5,
    };
    a.put_robots(row.clone()).await.unwrap();
    assert_eq!(b.robots_of("http://h").await.unwrap(), Some(row));
    a.add(
        (0..6)
            .map(|i| url(&format!("http://h{i}/"), &format!("http://h{i}")))
            .collect(),
    )
    .await
    .unwrap();
    for s in [&a, &b, &a, &b, &a, &b] {
        let l = s.claim(0, 1, 1, 0).await.unwrap().leases.remove(0);
        fetched(s, l.id, 3).await;
    }
    // Each worker's log has its own three, numbered 1, 2, 3.
    for s in [&a, &b] {
        let mine: Vec<i64> = s
            .decided_after(0, 10)
            .await
            .unwrap()
            .iter()
            .map(|d| d.seq)
            .collect();
        assert_eq!(mine, [1, 2, 3]);
    }
    let all = a.job_log(0, 4).await.unwrap();
    let rest = a.job_log(all[3].seq, 10).await.unwrap();
    let mut urls: Vec<String> = all.iter().chain(&rest).map(|d| d.url.clone()).collect();
    urls.sort();
    assert_eq!(
        urls,
        (0..6).map(|i| format!("http://h{i}/")).collect::<Vec<_>>()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_worker_name_is_refused_and_a_newer_schema_too() {
    let Some(pg) = pg_url() else { return };
    let job = fresh_job("names");
    let (_a, resumed) = PgStore::open(&pg, &job, PgOptions::new("w")).await.unwrap();
    assert!(!resumed);
    let Err(e) = PgStore::open(&pg, &job, PgOptions::new("w")).await else {
        panic!("a second live `w` was let in");
    };
    assert!(e.to_string().contains("worker `w`"), "{e}");

    // A schema of its own, so that the other tests keep theirs.
    let schema = fresh_job("newer").replace('-', "_");
    let (client, conn) = tokio_postgres::connect(&pg, NoTls).await.unwrap();
    tokio::spawn(conn);
    client
        .batch_execute(&format!(
            "CREATE SCHEMA {schema}; CREATE TABLE {schema}.norobots_schema (version BIGINT NOT NULL);
             INSERT INTO {schema}.norobots_schema VALUES (99)"
        ))
        .await
        .unwrap();
    let sep = if pg.contains('?') { '&' } else { '?' };
    let in_schema = format!("{pg}{sep}options=-c%20search_path%3D{schema}");
    let Err(e) = PgStore::open(&in_schema, "j", PgOptions::new("w")).await else {
        panic!("a newer schema was used");
    };
    assert!(
        matches!(
            e,
            StoreError::Newer {
                found: 99,
                known: SCHEMA
            }
        ),
        "{e}"
    );
    client
        .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .await
        .unwrap();
}
