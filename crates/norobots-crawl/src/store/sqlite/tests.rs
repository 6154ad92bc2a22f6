use std::path::PathBuf;

use super::*;

#[tokio::test]
async fn the_suite_passes_on_a_file_reopened_between_steps() {
    let dir = tempfile::tempdir().unwrap();
    let n = std::sync::atomic::AtomicUsize::new(0);
    let path = |k: usize| -> PathBuf { dir.path().join(format!("crawl-{k}.sqlite")) };
    crate::store::suite::run_all(|fresh| {
        if fresh {
            n.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        SqliteStore::open(&path(n.load(std::sync::atomic::Ordering::SeqCst))).unwrap()
    })
    .await;
}

#[tokio::test]
async fn a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite");
    drop(SqliteStore::open(&path).unwrap());
    let conn = Connection::open(&path).unwrap();
    conn.execute("UPDATE meta SET value = 99 WHERE key = 'schema'", [])
        .unwrap();
    drop(conn);
    match SqliteStore::open(&path) {
        Err(StoreError::Newer {
            found: 99,
            known: SCHEMA,
        }) => {}
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("opened a newer schema"),
    }
}

// A job that fails undoes its own changes and no other's.
#[tokio::test]
async fn a_failing_call_leaves_the_others_of_its_commit() {
    let store = SqliteStore::memory().unwrap();
    let ok = store.add(vec![NewUrl {
        url: "http://a/1".into(),
        origin: "http://a".into(),
        depth: 0,
        parent: None,
        via: Via::Start,
        hops: 0,
        outcome: None,
    }]);
    let bad = store.call(|s: &mut State| -> Result<(), StoreError> {
        s.conn
            .execute("INSERT INTO hosts(origin) VALUES ('http://z')", [])?;
        s.conn.execute("INSERT INTO nowhere VALUES (1)", [])?;
        Ok(())
    });
    let (ok, bad) = (ok.await, bad.await);
    assert_eq!(ok.unwrap(), [true]);
    assert!(bad.is_err());
    let origins: i64 = store
        .call(|s: &mut State| {
            Ok(s.conn.query_row(
                "SELECT COUNT(*) FROM hosts WHERE origin = 'http://z'",
                [],
                |r| r.get(0),
            )?)
        })
        .await
        .unwrap();
    assert_eq!(origins, 0);
    assert_eq!(store.stats(0).await.unwrap().queued, 1);
}

// The log reads only what a crash cannot take back.
#[tokio::test]
async fn decided_after_returns_committed_decisions_only() {
    let store = SqliteStore::memory().unwrap();
    let mut url = NewUrl {
        url: "http://a/x".into(),
        origin: "http://a".into(),
        depth: 1,
        parent: None,
        via: Via::Link,
        hops: 0,
        outcome: Some(Final::new(Decision::OutOfScope, None, 0)),
    };
    store.add(vec![url.clone()]).await.unwrap();
    url.url = "http://a/y".into();
    store.add(vec![url]).await.unwrap();
    let seen = store.decided_after(0, 10).await.unwrap().len();
    store.flush().await.unwrap();
    assert_eq!(store.decided_after(0, 10).await.unwrap().len(), 2);
    // Both calls came within the commit interval, unless the machine
    // was slow enough for a commit between them.
    assert!(seen <= 2);
}
