//! Frontier operations per second on the SQLite store, with 10 k, 100 k
//! and 1 M URLs queued, and the process's resident memory as the queue
//! grows: the queue lives in the file, so memory should not grow with it.
//!
//! ```text
//! cargo run -p norobots-bench --bin frontier --release [-- MAX_QUEUED]
//! ```
//!
//! For each size: `add` (batches of 1,000 new URLs over 1,000 hosts),
//! then rounds of `claim` (64 URLs, 16 per host) and `complete` (each
//! with one new child, as a crawl finds about one new URL a page, so the
//! queue keeps its size). The store file is on the temporary directory's
//! file system (`TMPDIR`).

use std::time::Instant;

use norobots_crawl::store::sqlite::SqliteStore;
use norobots_crawl::store::{Final, HostUpdate, NewUrl, Store, Via};
use norobots_crawl::Decision;

const HOSTS: usize = 1_000;

fn url(i: usize) -> NewUrl {
    let host = i % HOSTS;
    NewUrl {
        url: format!("http://host{host}.example/section/{}/page{i}.html", i / 100),
        origin: format!("http://host{host}.example"),
        depth: 1,
        parent: None,
        via: Via::Link,
        hops: 0,
        outcome: None,
    }
}

/// The resident set size, from /proc (Linux).
fn rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    println!("| queued | add URLs/s | claim+complete URLs/s | RSS after add | RSS after rounds |");
    println!("|---:|---:|---:|---:|---:|");
    for size in [10_000, 100_000, 1_000_000]
        .into_iter()
        .filter(|&n| n <= max)
    {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = SqliteStore::open(&dir.path().join("frontier.sqlite")).expect("a store");
        let began = Instant::now();
        for batch in (0..size).collect::<Vec<_>>().chunks(1_000) {
            store
                .add(batch.iter().map(|&i| url(i)).collect())
                .await
                .expect("add");
        }
        store.flush().await.expect("flush");
        let add_rate = size as f64 / began.elapsed().as_secs_f64();
        let rss_added = rss_mb();

        let rounds = 20_000usize;
        let mut next = size;
        let mut done = 0usize;
        let began = Instant::now();
        while done < rounds {
            let claim = store.claim(0, 64, 16, 0).await.expect("claim");
            assert!(!claim.leases.is_empty(), "the queue ran dry");
            for lease in claim.leases {
                let child = url(next);
                next += 1;
                let outcome = Final {
                    decision: Decision::Fetched,
                    reason: None,
                    status: Some(200),
                    bytes: Some(3_000),
                    time: 0,
                };
                store
                    .complete(lease.id, outcome, vec![child], None, HostUpdate::default())
                    .await
                    .expect("complete");
                done += 1;
            }
        }
        store.flush().await.expect("flush");
        let cycle_rate = done as f64 / began.elapsed().as_secs_f64();
        println!(
            "| {size} | {add_rate:.0} | {cycle_rate:.0} | {rss_added:.1} MB | {:.1} MB |",
            rss_mb()
        );
    }
}
