//! The crawl store's claim-fetch-complete cycle, shared by workers: URLs
//! per second and the database's CPU, for 1, 2, 4 and 8 workers on one
//! PostgreSQL job, and for one worker on SQLite, each fetching every URL
//! from a local HTTP server with politeness off.
//!
//! ```text
//! cargo run -p norobots-bench --bin shared_frontier --release -- \
//!     postgres://USER@127.0.0.1:PORT/DB [URLS [HOSTS [BATCHES [WORKERS]]]]
//! ```
//!
//! `URLS` (100,000) URLs over `HOSTS` (1,000) hosts; `BATCHES` is a list
//! of claim batch sizes (`16` by default; `1,4,16,64` compares them), each
//! run with every worker count of `WORKERS` (`1,2,4,8`). A host is a key of the store (a claim
//! holds it); every URL is fetched from one test server on 127.0.0.1, so
//! the figures are the store's and the cycle's, not a network's. Each
//! worker is a store of its own (its own connections), as a process
//! would be; they share this process's two-thread runtime and its HTTP
//! client. The database's CPU is read from `/proc` for every process
//! named `postgres`: run it on the same machine.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use norobots_crawl::store::postgres::{PgOptions, PgStore};
use norobots_crawl::store::sqlite::SqliteStore;
use norobots_crawl::store::{now_ms, Final, HostUpdate, NewUrl, Store, Via};
use norobots_crawl::Decision;
use norobots_testsite::{OriginSpec, Response, Site};

/// URLs a worker has in flight at once (`-j`).
const JOBS: usize = 8;

/// The CPU seconds of every process called `postgres` (the server and its
/// backends), from `/proc`.
fn postgres_cpu() -> f64 {
    let tick = 100.0; // USER_HZ on Linux
    let mut total = 0.0;
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return f64::NAN;
    };
    for e in dir.flatten() {
        let path = e.path();
        let Ok(comm) = std::fs::read_to_string(path.join("comm")) else {
            continue;
        };
        if comm.trim() != "postgres" {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(path.join("stat")) else {
            continue;
        };
        // After the `(comm)` field: state is field 3, utime 14, stime 15.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.len() > 12 {
            let u: f64 = f[11].parse().unwrap_or(0.0);
            let s: f64 = f[12].parse().unwrap_or(0.0);
            total += (u + s) / tick;
        }
    }
    total
}

/// This process's CPU seconds (the workers and the test server).
fn own_cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    if f.len() > 12 {
        (f[11].parse::<f64>().unwrap_or(0.0) + f[12].parse::<f64>().unwrap_or(0.0)) / 100.0
    } else {
        f64::NAN
    }
}

fn urls(base: &str, n: usize, hosts: usize) -> Vec<NewUrl> {
    (0..n)
        .map(|i| {
            let host = i % hosts;
            NewUrl {
                url: format!("{base}/h{host}/p{i}.html"),
                origin: format!("http://host{host}.test"),
                depth: 1,
                parent: None,
                via: Via::Link,
                hops: 0,
                outcome: None,
            }
        })
        .collect()
}

/// One worker: claim, fetch, complete until the job is drained; returns
/// how many it completed.
async fn work<S: Store>(store: Arc<S>, client: reqwest::Client) -> usize {
    let permits = Arc::new(tokio::sync::Semaphore::new(JOBS));
    let done = Arc::new(AtomicUsize::new(0));
    loop {
        let free = permits.available_permits();
        if free == 0 {
            // Wait until one URL is done.
            drop(permits.acquire().await);
            continue;
        }
        let claim = store.claim(now_ms(), free, 1, 0).await.expect("claim");
        if claim.leases.is_empty() {
            if claim.drained && permits.available_permits() == JOBS {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
            continue;
        }
        for lease in claim.leases {
            let permit = Arc::clone(&permits).acquire_owned().await.expect("permit");
            let (store, client, done) = (Arc::clone(&store), client.clone(), Arc::clone(&done));
            tokio::spawn(async move {
                let response = client.get(&lease.url).send().await.expect("a local GET");
                let status = response.status().as_u16();
                let body = response.bytes().await.expect("a body");
                let outcome = Final {
                    decision: Decision::Fetched,
                    reason: None,
                    status: Some(status),
                    bytes: Some(body.len() as u64),
                    time: now_ms(),
                };
                store
                    .complete(lease.id, outcome, vec![], None, HostUpdate::default())
                    .await
                    .expect("complete");
                done.fetch_add(1, Relaxed);
                drop(permit);
            });
        }
    }
    let _ = permits.acquire_many(JOBS as u32).await;
    done.load(Relaxed)
}

struct Run {
    rate: f64,
    db_cpu_us: f64,
    own_cpu_us: f64,
}

async fn run_pg(
    pg: &str,
    base: &str,
    n: usize,
    hosts: usize,
    workers: usize,
    batch: u32,
    client: &reqwest::Client,
) -> Run {
    let job = format!("bench-{}-{workers}-{batch}", now_ms());
    let (loader, _) = PgStore::open(pg, &job, PgOptions::new("loader"))
        .await
        .expect("the database");
    for chunk in urls(base, n, hosts).chunks(5_000) {
        loader.add(chunk.to_vec()).await.expect("add");
    }
    let mut stores = Vec::new();
    for w in 0..workers {
        let mut o = PgOptions::new(&format!("w{w}"));
        o.batch = batch;
        stores.push(Arc::new(
            PgStore::open(pg, &job, o).await.expect("a worker").0,
        ));
    }
    let (db0, own0, began) = (postgres_cpu(), own_cpu(), Instant::now());
    let tasks: Vec<_> = stores
        .iter()
        .map(|s| tokio::spawn(work(Arc::clone(s), client.clone())))
        .collect();
    let mut total = 0;
    for t in tasks {
        total += t.await.expect("a worker");
    }
    let secs = began.elapsed().as_secs_f64();
    let (db, own) = (postgres_cpu() - db0, own_cpu() - own0);
    assert_eq!(total, n, "every URL completed once");
    Run {
        rate: n as f64 / secs,
        db_cpu_us: db / n as f64 * 1e6,
        own_cpu_us: own / n as f64 * 1e6,
    }
}

async fn run_sqlite(base: &str, n: usize, hosts: usize, client: &reqwest::Client) -> Run {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Arc::new(SqliteStore::open(&dir.path().join("crawl.sqlite")).expect("a store"));
    for chunk in urls(base, n, hosts).chunks(5_000) {
        store.add(chunk.to_vec()).await.expect("add");
    }
    store.flush().await.expect("flush");
    let (own0, began) = (own_cpu(), Instant::now());
    let total = work(Arc::clone(&store), client.clone()).await;
    store.flush().await.expect("flush");
    let secs = began.elapsed().as_secs_f64();
    assert_eq!(total, n, "every URL completed once");
    Run {
        rate: n as f64 / secs,
        db_cpu_us: f64::NAN,
        own_cpu_us: (own_cpu() - own0) / n as f64 * 1e6,
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args().skip(1);
    let pg = args.next().expect(
        "usage: shared_frontier postgres://USER@HOST:PORT/DB [URLS [HOSTS [BATCHES [WORKERS]]]]",
    );
    let n: usize = args.next().map_or(100_000, |a| a.parse().expect("URLS"));
    let hosts: usize = args.next().map_or(1_000, |a| a.parse().expect("HOSTS"));
    let batches: Vec<u32> = args.next().map_or(vec![16], |a| {
        a.split(',').map(|b| b.parse().expect("BATCHES")).collect()
    });
    let workers: Vec<usize> = args.next().map_or(vec![1, 2, 4, 8], |a| {
        a.split(',').map(|w| w.parse().expect("WORKERS")).collect()
    });

    let page = Response::html(format!("<html><body>{}</body></html>", "x".repeat(2_000)));
    let site = Site::new()
        .origin(OriginSpec::new("s").generate(move |_| Some(page.clone())))
        .start()
        .expect("the test server");
    let base = site.origin("s");
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()
        .expect("a client");

    println!("{n} URLs over {hosts} hosts, {JOBS} in flight per worker; CPU per URL");
    println!();
    println!("| store | workers | batch | URLs/s | database CPU | workers' and server's CPU |");
    println!("|---|---:|---:|---:|---:|---:|");
    let r = run_sqlite(&base, n, hosts, &client).await;
    println!(
        "| SQLite | 1 | - | {:.0} | (in process) | {:.0} µs |",
        r.rate, r.own_cpu_us
    );
    for &batch in &batches {
        for &workers in &workers {
            let r = run_pg(&pg, &base, n, hosts, workers, batch, &client).await;
            println!(
                "| PostgreSQL | {workers} | {batch} | {:.0} | {:.0} µs | {:.0} µs |",
                r.rate, r.db_cpu_us, r.own_cpu_us
            );
        }
    }
}
