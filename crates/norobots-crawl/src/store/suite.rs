//! The tests every [`Store`] must pass, written once and run against each
//! implementation: SQLite's (`sqlite/tests.rs`) and PostgreSQL's
//! (`postgres/tests.rs`), and, with feature `testing`, another crate's.
//! Each takes a function that opens the store under test, so that a test
//! can close and reopen it between its steps.

use super::*;

/// A new URL of `origin`, found by a link at depth 1.
pub(crate) fn url(u: &str, origin: &str) -> NewUrl {
    NewUrl {
        url: u.to_owned(),
        origin: origin.to_owned(),
        depth: 1,
        parent: None,
        via: Via::Link,
        hops: 0,
        outcome: None,
    }
}

fn fetched(time: i64) -> Final {
    Final {
        decision: Decision::Fetched,
        reason: None,
        status: Some(200),
        bytes: Some(10),
        time,
    }
}

/// Runs every test of the suite; `open` gives a store, the same one (its
/// state kept) each time it is called within one test, a fresh one for
/// the next test when `fresh` is true.
pub async fn run_all<S: Store, F>(open: F)
where
    F: Fn(bool) -> S,
{
    adding_is_idempotent(&open).await;
    one_host_is_leased_as_its_limit_allows(&open).await;
    a_host_is_not_claimed_before_its_time(&open).await;
    completing_adds_children_and_logs_in_order(&open).await;
    a_known_redirect_target_makes_a_duplicate(&open).await;
    release_puts_back_and_counts_attempts(&open).await;
    finish_host_and_finish_all_decide_every_queued_url(&open).await;
    recover_puts_back_what_a_dead_process_held(&open).await;
    the_log_mark_and_robots_rows_are_kept(&open).await;
}

async fn adding_is_idempotent<S: Store>(open: &impl Fn(bool) -> S) {
    let s = open(true);
    let added = s
        .add(vec![
            url("http://a/1", "http://a"),
            url("http://a/1", "http://a"),
            url("http://a/2", "http://a"),
        ])
        .await
        .unwrap();
    assert_eq!(added, [true, false, true]);
    drop(s);
    let s = open(false);
    assert_eq!(
        s.add(vec![url("http://a/2", "http://a")]).await.unwrap(),
        [false]
    );
    let mut out = url("http://b/x", "http://b");
    out.outcome = Some(Final::new(Decision::OutOfScope, None, 5));
    assert_eq!(s.add(vec![out.clone(), out]).await.unwrap(), [true, false]);
    let stats = s.stats(0).await.unwrap();
    assert_eq!(stats.queued, 2);
    assert_eq!(stats.decided.get(&Decision::OutOfScope), Some(&1));
}

async fn one_host_is_leased_as_its_limit_allows<S: Store>(open: &impl Fn(bool) -> S) {
    let s = open(true);
    let urls: Vec<NewUrl> = (0..5)
        .map(|i| url(&format!("http://a/{i}"), "http://a"))
        .collect();
    s.add(urls).await.unwrap();
    s.add(vec![url("http://b/0", "http://b")]).await.unwrap();
    let c = s.claim(0, 10, 2, 0).await.unwrap();
    let got: Vec<&str> = c.leases.iter().map(|l| l.url.as_str()).collect();
    assert_eq!(
        got,
        ["http://a/0", "http://a/1", "http://b/0"],
        "FIFO, two per host"
    );
    // Full hosts: nothing now, not drained.
    let c = s.claim(0, 10, 2, 0).await.unwrap();
    assert!(c.leases.is_empty() && !c.drained);
    drop(s);
    let s = open(false);
    let first = s.claim(0, 10, 1, 0).await.unwrap();
    assert!(first.leases.is_empty(), "leases survive a reopen");
}

async fn a_host_is_not_claimed_before_its_time<S: Store>(open: &impl Fn(bool) -> S) {
    let s = open(true);
    s.add(vec![
        url("http://a/0", "http://a"),
        url("http://a/1", "http://a"),
    ])
    .await
    .unwrap();
    s.update_host(
        "http://a",
        HostUpdate {
            delay_ms: Some(100),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let c = s.claim(1000, 10, 4, 0).await.unwrap();
    assert_eq!(c.leases.len(), 1, "a host with a delay gives one URL");
    let id = c.leases[0].id;
    // The claim held the host for its delay.
    let c = s.claim(1050, 10, 4, 0).await.unwrap();
    assert!(c.leases.is_empty());
    assert_eq!(c.next, Some(1100));
    s.complete(
        id,
        fetched(1060),
        vec![],
        None,
        HostUpdate {
            not_before: Some(1200),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert!(s.claim(1150, 10, 4, 0).await.unwrap().leases.is_empty());
    assert_eq!(s.claim(1200, 10, 4, 0).await.unwrap().leases.len(), 1);
    // The least delay of every host (`--wait`) holds a host of its own.
    s.add(vec![
        url("http://b/0", "http://b"),
        url("http://b/1", "http://b"),
    ])
    .await
    .unwrap();
    let c = s.claim(2000, 10, 4, 300).await.unwrap();
    assert_eq!(c.leases.len(), 1);
    assert_eq!(s.claim(2000, 10, 4, 300).await.unwrap().next, Some(2300));
}

async fn completing_adds_children_and_logs_in_order<S: Store>(open: &impl Fn(bool) -> S) {
    let s = open(true);
    s.add(vec![url("http://a/", "http://a")]).await.unwrap();
    let lease = s.claim(0, 1, 1, 0).await.unwrap().leases.remove(0);
    let mut child = url("http://a/c", "http://a");
    child.parent = Some(lease.id);
    child.depth = 2;
    let mut out = url("http://x/", "http://x");
    out.parent = Some(lease.id);
    out.outcome = Some(Final::new(
        Decision::OutOfScope,
        Some(Reason::Scope {
            rule: "host".into(),
        }),
        1,
    ));
    s.complete(
        lease.id,
        fetched(2),
        vec![out, child],
        None,
        HostUpdate::default(),
    )
    .await
    .unwrap();
    // A second completion of the same lease changes nothing.
    s.complete(lease.id, fetched(3), vec![], None, HostUpdate::default())
        .await
        .unwrap();
    drop(s);
    let s = open(false);
    s.flush().await.unwrap();
    let log = s.decided_after(0, 10).await.unwrap();
    let seen: Vec<(i64, &str, Decision)> = log
        .iter()
        .map(|d| (d.seq, d.url.as_str(), d.outcome.decision))
        .collect();
    assert_eq!(
        seen,
        [
            (1, "http://x/", Decision::OutOfScope),
            (2, "http://a/", Decision::Fetched)
        ]
    );
    assert_eq!(log[0].parent.as_deref(), Some("http://a/"));
    assert_eq!(
        log[0].outcome.reason,
        Some(Reason::Scope {
            rule: "host".into()
        })
    );
    assert_eq!(log[1].outcome.status, Some(200));
    let c = s.claim(0, 5, 1, 0).await.unwrap();
    assert_eq!(c.leases[0].url, "http://a/c");
    assert_eq!(c.leases[0].depth, 2);
    assert_eq!(s.decided_after(1, 10).await.unwrap().len(), 1);
}

async fn a_known_redirect_target_makes_a_duplicate<S: Store>(open: &impl Fn(bool) -> S) {
    let s = open(true);
    s.add(vec![
        url("http://a/old", "http://a"),
        url("http://a/new", "http://a"),
    ])
    .await
    .unwrap();
    let c = s.claim(0, 1, 1, 0).await.unwrap();
    let lease = &c.leases[0];
    assert_eq!(lease.url, "http://a/old");
    let mut target = url("http://a/new", "http://a");
    target.via = Via::Redirect;
    let mut redirected = fetched(1);
    redirected.status = Some(301);
    s.complete(
        lease.id,
        redirected,
        vec![],
        Some(target),
        HostUpdate::default(),
    )
    .await
    .unwrap();
    s.flush().await.unwrap();
    let log = s.decided_after(0, 10).await.unwrap();
    assert_eq!(log[0].outcome.decision, Decision::Duplicate);
    assert_eq!(
        log[0].outcome.reason,
        Some(Reason::Redirect {
            to: "http://a/new".into()
        })
    );
    assert_eq!(log[0].outcome.status, Some(301));
}

async fn release_puts_back_and_counts_attempts<S: Store>(open: &impl Fn(bool) -> S) {
    let s = open(true);
    s.add(vec![
        url("http://a/1", "http://a"),
        url("http://a/2", "http://a"),
    ])
    .await
    .unwrap();
    let lease = s.claim(0, 1, 1, 0).await.unwrap().leases.remove(0);
    s.release(
        lease.id,
        true,
        HostUpdate {
            not_before: Some(500),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert!(s.claim(499, 5, 1, 0).await.unwrap().leases.is_empty());
    let again = s.claim(500, 5, 1, 0).await.unwrap().leases.remove(0);
    assert_eq!(
        (again.url.as_str(), again.attempts),
        ("http://a/1", 1),
        "its place in the queue kept"
    );
    s.release(again.id, false, HostUpdate::default())
        .await
        .unwrap();
    assert_eq!(s.claim(500, 5, 1, 0).await.unwrap().leases[0].attempts, 1);
}

async fn finish_host_and_finish_all_decide_every_queued_url<S: Store>(open: &impl Fn(bool) -> S) {
    let s = open(true);
    s.add(vec![
        url("http://d/1", "http://d"),
        url("http://d/2", "http://d"),
        url("http://a/1", "http://a"),
    ])
    .await
    .unwrap();
    let deferred = Final::new(Decision::Deferred, None, 9);
    assert_eq!(s.finish_host("http://d", deferred).await.unwrap(), 2);
    assert_eq!(s.stats(0).await.unwrap().queued, 1);
    let quota = Final::new(
        Decision::OutOfScope,
        Some(Reason::Scope {
            rule: "--max-pages 1".into(),
        }),
        10,
    );
    assert_eq!(s.finish_all(quota).await.unwrap(), 1);
    let c = s.claim(0, 5, 1, 0).await.unwrap();
    assert!(c.leases.is_empty() && c.drained);
    s.flush().await.unwrap();
    let log = s.decided_after(0, 10).await.unwrap();
    let seqs: Vec<i64> = log.iter().map(|d| d.seq).collect();
    assert_eq!(seqs, [1, 2, 3]);
}

async fn recover_puts_back_what_a_dead_process_held<S: Store>(open: &impl Fn(bool) -> S) {
    let s = open(true);
    s.add(vec![
        url("http://a/1", "http://a"),
        url("http://a/2", "http://a"),
    ])
    .await
    .unwrap();
    assert_eq!(s.claim(0, 5, 5, 0).await.unwrap().leases.len(), 2);
    drop(s);
    let s = open(false);
    assert_eq!(s.recover().await.unwrap(), 2);
    let stats = s.stats(0).await.unwrap();
    assert_eq!((stats.queued, stats.leased), (2, 0));
    assert_eq!(s.claim(0, 5, 5, 0).await.unwrap().leases.len(), 2);
}

async fn the_log_mark_and_robots_rows_are_kept<S: Store>(open: &impl Fn(bool) -> S) {
    let s = open(true);
    assert_eq!(s.log_mark().await.unwrap(), (0, 0));
    s.set_log_mark(7, 1234).await.unwrap();
    let row = RobotsRow {
        origin: "http://a".into(),
        status: 200,
        headers: vec![("cache-control".into(), b"max-age=60".to_vec())],
        body: b"User-agent: *\nDisallow: /x\n".to_vec(),
        fetched_at: 42,
    };
    s.put_robots(row.clone()).await.unwrap();
    drop(s);
    let s = open(false);
    assert_eq!(s.log_mark().await.unwrap(), (7, 1234));
    assert_eq!(s.robots_of("http://a").await.unwrap(), Some(row));
    assert_eq!(s.robots_of("http://b").await.unwrap(), None);
}
