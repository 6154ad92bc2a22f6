//! Claim latency of the PostgreSQL crawl store as the queue grows to
//! millions of URLs, and the size of its tables and indexes.
//!
//! ```text
//! cargo run -p norobots-bench --bin frontier_size --release -- \
//!     postgres://USER@127.0.0.1:PORT/DB [SIZES]
//! ```
//!
//! For each size in `SIZES` (`100000,1000000,10000000`): a job of that
//! many queued URLs, 100 per host, written by the server itself
//! (`generate_series`) and vacuumed; then one worker claims (8 URLs a
//! claim, batches of 16 per host) and completes what it claimed, 20,000
//! URLs, and the latency of each claim is kept. Then the sizes of the
//! tables and indexes (run it on an empty database: they count every
//! job's rows), and the job's rows are deleted before the next size.

use std::time::Instant;

use norobots_crawl::store::postgres::{PgOptions, PgStore};
use norobots_crawl::store::{now_ms, Final, HostUpdate, Store};
use norobots_crawl::Decision;
use tokio_postgres::NoTls;

fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let pg = args
        .next()
        .expect("usage: frontier_size postgres://USER@HOST:PORT/DB [SIZES]");
    let sizes: Vec<i64> = args
        .next()
        .map_or(vec![100_000, 1_000_000, 10_000_000], |a| {
            a.split(',').map(|n| n.parse().expect("SIZES")).collect()
        });
    let (client, connection) = tokio_postgres::connect(&pg, NoTls)
        .await
        .expect("the database");
    tokio::spawn(connection);

    println!("| queued URLs | hosts | load | claims p50 | claims p99 | claim+complete URLs/s |");
    println!("|---:|---:|---:|---:|---:|---:|");
    for &n in &sizes {
        let name = format!("size-{n}-{}", now_ms());
        let (store, _) = PgStore::open(&pg, &name, PgOptions::new("w"))
            .await
            .expect("a worker");
        let job = store.job_id();
        let hosts = (n / 100).max(1);
        let began = Instant::now();
        client
            .execute(
                "INSERT INTO norobots_urls (job, url, origin, state, depth, via)
                 SELECT $1, 'http://host' || (i % $2) || '.test/section/' || (i / 1000) || '/page' || i || '.html',
                        'http://host' || (i % $2) || '.test', 0, 1, 'link'
                 FROM generate_series(1, $3::bigint) AS i",
                &[&job, &hosts, &n],
            )
            .await
            .expect("the URLs");
        client
            .execute(
                "INSERT INTO norobots_hosts (job, origin, queued)
                 SELECT $1, origin, COUNT(*) FROM norobots_urls WHERE job = $1 GROUP BY origin",
                &[&job],
            )
            .await
            .expect("the hosts");
        // One statement each: VACUUM cannot run in the transaction that a
        // batch of statements is.
        for sql in [
            "VACUUM ANALYZE norobots_urls",
            "VACUUM ANALYZE norobots_hosts",
        ] {
            client.batch_execute(sql).await.expect("vacuum");
        }
        let load = began.elapsed().as_secs_f64();

        let mut latencies = Vec::new();
        let mut done = 0;
        let began = Instant::now();
        while done < 20_000 {
            let t = Instant::now();
            let claim = store.claim(now_ms(), 8, 1, 0).await.expect("claim");
            latencies.push(t.elapsed().as_secs_f64() * 1e3);
            assert!(!claim.leases.is_empty(), "the queue ran dry");
            for lease in claim.leases {
                store
                    .complete(
                        lease.id,
                        Final::new(Decision::Fetched, None, now_ms()),
                        vec![],
                        None,
                        HostUpdate::default(),
                    )
                    .await
                    .expect("complete");
                done += 1;
            }
        }
        let rate = done as f64 / began.elapsed().as_secs_f64();
        latencies.sort_by(f64::total_cmp);
        println!(
            "| {n} | {hosts} | {load:.0} s | {:.2} ms | {:.2} ms | {rate:.0} |",
            pct(&latencies, 0.5),
            pct(&latencies, 0.99)
        );
        // Sizes now, with this job's rows in (and the space the sizes
        // before freed, which these reuse).
        let sizes = client
            .query(
                "SELECT c.relname, pg_size_pretty(pg_relation_size(c.oid))
                 FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
                 WHERE (c.relname LIKE 'norobots_urls%' OR c.relname LIKE 'norobots_hosts%')
                   AND s.nspname = current_schema()
                 ORDER BY c.relname",
                &[],
            )
            .await
            .expect("sizes");
        let sizes: Vec<String> = sizes
            .iter()
            .map(|r| format!("{} {}", r.get::<_, &str>(0), r.get::<_, &str>(1)))
            .collect();
        println!("|  | sizes: {} | | | | |", sizes.join(", "));
        for sql in [
            format!("DELETE FROM norobots_urls WHERE job = {job}"),
            format!("DELETE FROM norobots_hosts WHERE job = {job}"),
            "VACUUM norobots_urls".to_owned(),
            "VACUUM norobots_hosts".to_owned(),
        ] {
            client
                .batch_execute(&sql)
                .await
                .expect("the job's rows removed");
        }
    }
}
