//! The cache against real HTTP servers on 127.0.0.1, faults included. Each
//! test asserts what the server saw as well as what the cache answered.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use norobots::{Dialect, RuleKind};
use norobots_fetch::{Decision, Failure, Outcome, Policy, Reason, RedirectProblem, RobotsCache};
use support::{cache_for, config_for, Reply, Server};

const RULES: &str = "User-agent: *\nDisallow: /private\n";

/// A rule of a file whose one group starts on line 1, as most here are.
fn rule(line: usize, kind: RuleKind, pattern: &str) -> Reason {
    Reason::Rule {
        line,
        kind,
        pattern: pattern.into(),
        group_line: 1,
    }
}

/// Asserts that `decision` answers a fetch that failed (as `failed` says)
/// the way `dialect` treats an unreachable robots.txt: defer in the legacy
/// dialects, disallow all in RFC 9309 (2.3.1.4).
fn assert_unreachable(
    dialect: Dialect,
    decision: &Decision,
    failed: impl Fn(&Failure) -> bool,
    what: &str,
) {
    let failure = match (dialect, decision) {
        (
            Dialect::Norobots1994 | Dialect::Draft1996,
            Decision::Defer {
                outcome: Outcome::Failure(f),
                ..
            },
        ) => f,
        (
            Dialect::Rfc9309 | Dialect::Google,
            Decision::Disallow(Reason::Fetch(Outcome::Failure(f))),
        ) => f,
        _ => panic!("{what} {dialect}: {decision:?}"),
    };
    assert!(failed(failure), "{what} {dialect}: {decision:?}");
}

/// A server answering `/robots.txt` on host `sNNN.test` with status NNN.
async fn status_server() -> Server {
    Server::start(|_, seen| {
        let status: u16 = seen
            .host
            .trim_start_matches('s')
            .trim_end_matches(".test")
            .parse()
            .unwrap();
        match status {
            200 => Reply::ok(RULES),
            s => Reply::status(s),
        }
    })
    .await
}

const STATUSES: [u16; 9] = [200, 401, 403, 404, 410, 429, 500, 503, 504];

// Draft 3.1 and RFC 9309 2.3.1: each status class per dialect.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_status_class_per_dialect() {
    let server = status_server().await;
    let hosts: Vec<String> = STATUSES.iter().map(|s| format!("s{s}.test")).collect();
    let hosts: Vec<&str> = hosts.iter().map(String::as_str).collect();
    for dialect in [
        Dialect::Norobots1994,
        Dialect::Draft1996,
        Dialect::Rfc9309,
        Dialect::Google,
    ] {
        let legacy = matches!(dialect, Dialect::Norobots1994 | Dialect::Draft1996);
        let cache = cache_for(dialect, &server, &hosts);
        for status in STATUSES {
            let url = server.url(&format!("s{status}.test"), "/private/page");
            let decision = cache.check(&url, "TestBot").await.unwrap();
            let failure = Outcome::Failure(Failure::Status(status));
            let got = match status {
                200 => {
                    matches!(&decision, Decision::Disallow(b) if *b == rule(2, RuleKind::Disallow, "/private"))
                }
                401 | 403 if legacy => {
                    decision == Decision::Disallow(Reason::Fetch(Outcome::Status(status)))
                }
                429 => matches!(&decision, Decision::Defer { outcome, .. } if *outcome == failure),
                404 | 410 | 401 | 403 => {
                    decision == Decision::Allow(Reason::Fetch(Outcome::Status(status)))
                }
                _ if legacy => {
                    matches!(&decision, Decision::Defer { outcome, .. } if *outcome == failure)
                }
                _ => decision == Decision::Disallow(Reason::Fetch(failure)),
            };
            assert!(got, "{dialect} {status}: {decision:?}");
            // A second check is a hit: no new request.
            cache.check(&url, "TestBot").await.unwrap();
        }
        let m = cache.metrics();
        assert_eq!(m.fetches, STATUSES.len() as u64, "{dialect}: {m:?}");
        assert_eq!(m.hits, STATUSES.len() as u64, "{dialect}: {m:?}");
    }
    let seen = server.seen();
    assert_eq!(seen.len(), 4 * STATUSES.len());
    for s in &seen {
        assert_eq!((s.method.as_str(), s.path.as_str()), ("GET", "/robots.txt"));
        assert_eq!(
            s.header("user-agent"),
            Some("TestBot/1.0 (+http://127.0.0.1/bot)")
        );
    }
}

/// A server where `/rN` redirects to `/r(N-1)` and `/r0` is the file; the
/// first request is `/robots.txt`, which redirects to `/r{hops-1}`.
async fn chain_server(hops: usize) -> Server {
    Server::start(move |_, seen| {
        if seen.path == "/robots.txt" {
            return if hops == 0 {
                Reply::ok(RULES)
            } else {
                Reply::redirect(301, &format!("/r{}", hops - 1))
            };
        }
        let n: usize = seen.path[2..].parse().unwrap();
        if n == 0 {
            Reply::ok(RULES)
        } else {
            Reply::redirect(
                if n.is_multiple_of(2) { 302 } else { 307 },
                &format!("/r{}", n - 1),
            )
        }
    })
    .await
}

// RFC 9309 2.3.1.2: follow at least five redirects; past that, unavailable.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirect_chains_of_one_five_and_six_hops() {
    for (hops, followed) in [(1, true), (5, true), (6, false)] {
        let server = chain_server(hops).await;
        for dialect in [Dialect::Draft1996, Dialect::Rfc9309] {
            let cache = cache_for(dialect, &server, &["a.test"]);
            let url = server.url("a.test", "/private/x");
            let decision = cache.check(&url, "TestBot").await.unwrap();
            let entry = cache.entry(&url).unwrap().unwrap();
            if followed {
                assert_eq!(
                    decision,
                    Decision::Disallow(rule(2, RuleKind::Disallow, "/private"))
                );
                assert_eq!(entry.fetch().redirects.len(), hops);
                assert_eq!(entry.fetch().final_url.path(), "/r0");
            } else {
                assert_eq!(
                    decision,
                    Decision::Allow(Reason::Fetch(Outcome::Redirect(RedirectProblem::TooMany(
                        6
                    ))))
                );
            }
            // The rules apply to the origin asked about.
            assert_eq!(
                entry.origin().as_str(),
                format!("http://a.test:{}", server.addr.port())
            );
        }
        // Per dialect: the first request plus min(hops, 5) redirects.
        assert_eq!(server.requests(), 2 * (1 + hops.min(5)), "{hops} hops");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_loop_is_detected() {
    let server = Server::start(|_, seen| match seen.path.as_str() {
        "/robots.txt" => Reply::redirect(301, "/a"),
        "/a" => Reply::redirect(301, "/b"),
        _ => Reply::redirect(301, "/robots.txt"),
    })
    .await;
    let cache = cache_for(Dialect::Rfc9309, &server, &["a.test"]);
    let decision = cache
        .check(&server.url("a.test", "/x"), "TestBot")
        .await
        .unwrap();
    let Decision::Allow(Reason::Fetch(Outcome::Redirect(RedirectProblem::Loop(url)))) = decision
    else {
        panic!("{decision:?}");
    };
    assert!(url.ends_with("/robots.txt"), "{url}");
    let paths: Vec<String> = server.seen().into_iter().map(|s| s.path).collect();
    assert_eq!(paths, ["/robots.txt", "/a", "/b"]);
}

// RFC 9309 2.3.1.2: "even to another host"; the rules found apply to the
// original origin.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_to_another_host_applies_to_the_original_origin() {
    let server = Server::start(|_, seen| match seen.host.as_str() {
        "www.test" => Reply::ok("User-agent: *\nDisallow: /moved\n"),
        _ => Reply::redirect(301, "PLACEHOLDER"),
    })
    .await;
    let port = server.addr.port();
    // The handler needs the port, known only now: a second server that
    // redirects to the first.
    let origin_server = Server::start(move |_, _| {
        Reply::redirect(301, &format!("http://www.test:{port}/robots.txt"))
    })
    .await;
    let config = config_for(Dialect::Rfc9309, &server, &["www.test"])
        .resolve("bare.test", origin_server.addr);
    let cache = RobotsCache::new(config).unwrap();
    let url = origin_server.url("bare.test", "/moved/page");
    let decision = cache.check(&url, "TestBot").await.unwrap();
    assert_eq!(
        decision,
        Decision::Disallow(rule(2, RuleKind::Disallow, "/moved"))
    );
    let entry = cache.entry(&url).unwrap().unwrap();
    assert_eq!(
        entry.origin().as_str(),
        format!("http://bare.test:{}", origin_server.addr.port())
    );
    assert_eq!(
        entry.fetch().final_url.as_str(),
        format!("http://www.test:{port}/robots.txt")
    );
    assert_eq!(origin_server.seen()[0].host, "bare.test");
    assert_eq!(server.seen()[0].host, "www.test");
    assert_eq!((origin_server.requests(), server.requests()), (1, 1));
    // The other host's own origin was not filled in by the redirect.
    assert!(cache
        .entry(&format!("http://www.test:{port}/"))
        .unwrap()
        .is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_to_another_scheme_is_no_file() {
    let server = Server::start(|_, _| Reply::redirect(302, "ftp://files.test/robots.txt")).await;
    for dialect in [Dialect::Draft1996, Dialect::Rfc9309] {
        let cache = cache_for(dialect, &server, &["a.test"]);
        let decision = cache
            .check(&server.url("a.test", "/x"), "TestBot")
            .await
            .unwrap();
        assert_eq!(
            decision,
            Decision::Allow(Reason::Fetch(Outcome::Redirect(
                RedirectProblem::BadTarget("ftp://files.test/robots.txt".into())
            )))
        );
    }
    assert_eq!(server.requests(), 2);
}

// RFC 9309 2.5: parse at least 500 KiB, ignore the rest; read no further.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ten_megabyte_body_is_cut_at_the_cap() {
    let size = 10 * 1024 * 1024;
    let server = Server::start(move |_, _| Reply::Huge { size }).await;
    let cache = cache_for(Dialect::Rfc9309, &server, &["big.test"]);
    let url = server.url("big.test", "/private/x");
    let decision = cache.check(&url, "TestBot").await.unwrap();
    assert_eq!(
        decision,
        Decision::Disallow(rule(2, RuleKind::Disallow, "/private"))
    );
    let entry = cache.entry(&url).unwrap().unwrap();
    assert!(entry.fetch().truncated);
    assert_eq!(entry.fetch().bytes, 500 * 1024);
    assert_eq!(entry.fetch().status, Some(200));
    // The parsed file holds exactly the cap.
    assert!(entry.robots().groups().len() > 10_000);
    let last_line = entry.robots().groups().last().unwrap().line();
    assert!(last_line <= 500 * 1024 / 14, "{last_line}");
    // Give the server a moment to notice the closed connection.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        server.written() < size as u64,
        "the server wrote all {} bytes",
        server.written()
    );
}

// A Location with UTF-8 in it is followed, percent-encoded, as browsers do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_to_a_utf8_location_is_followed_encoded() {
    let server = Server::start(|_, seen| match seen.path.as_str() {
        "/robots.txt" => Reply::redirect(301, "/r\u{f6}bots.txt"),
        "/r%C3%B6bots.txt" => Reply::ok(RULES),
        _ => Reply::status(404),
    })
    .await;
    let cache = cache_for(Dialect::Rfc9309, &server, &["utf8.test"]);
    let url = server.url("utf8.test", "/private");
    let decision = cache.check(&url, "TestBot").await.unwrap();
    assert_eq!(
        decision,
        Decision::Disallow(rule(2, RuleKind::Disallow, "/private"))
    );
    let paths: Vec<String> = server.seen().into_iter().map(|s| s.path).collect();
    assert_eq!(paths, ["/robots.txt", "/r%C3%B6bots.txt"]);
}

// Headers without end, in many short lines or in one long one: the client
// gives up on the head, and the answer counts as a server that could not be
// reached. Not a timeout (30 s): that would be a failure of another kind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endless_headers_are_a_failure_not_a_hang() {
    let server = Server::start(|_, seen| Reply::EndlessHeaders {
        line: if seen.host == "many.test" {
            32
        } else {
            1 << 20
        },
    })
    .await;
    for host in ["many.test", "long.test"] {
        for dialect in [Dialect::Draft1996, Dialect::Rfc9309] {
            let cache = cache_for(dialect, &server, &[host]);
            let decision = cache
                .check(&server.url(host, "/public"), "TestBot")
                .await
                .unwrap();
            let network = |f: &Failure| matches!(f, Failure::Network(_));
            assert_unreachable(dialect, &decision, network, host);
        }
    }
    // The client stopped reading: what the server got out is bounded by
    // the client's header buffer and the sockets' buffers, not endless.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(server.written() < 64 << 20, "{}", server.written());
}

// The total timeout fires on a server that trickles a byte a second: the
// check fails as a timeout, no sooner than the timeout and long before the
// body could have ended (35 s), however late a busy machine runs the timer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trickling_server_times_out() {
    let server = Server::start(|_, _| Reply::Trickle {
        body: RULES.as_bytes().to_vec(),
        every: Duration::from_secs(1),
    })
    .await;
    for dialect in [Dialect::Draft1996, Dialect::Rfc9309] {
        let config =
            config_for(dialect, &server, &["slow.test"]).timeout(Duration::from_millis(1500));
        let cache = RobotsCache::new(config).unwrap();
        let start = Instant::now();
        let decision = cache
            .check(&server.url("slow.test", "/x"), "TestBot")
            .await
            .unwrap();
        let took = start.elapsed();
        let whole_body = Duration::from_secs(RULES.len() as u64);
        assert!(
            took >= Duration::from_millis(1500) && took < whole_body,
            "{took:?}"
        );
        let timeout = |f: &Failure| *f == Failure::Timeout;
        assert_unreachable(dialect, &decision, timeout, "slow.test");
        assert_eq!(
            cache
                .metrics()
                .failures
                .iter()
                .find(|f| f.0 == "timeout")
                .unwrap()
                .1,
            1
        );
    }
    assert_eq!(server.requests(), 2);
    assert!(server.written() < RULES.len() as u64 * 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_reset_mid_body_is_a_failure() {
    let server = Server::start(|_, _| Reply::Reset {
        declared: 1000,
        sent: b"User-agent: *\nDisallow: /private\n".to_vec(),
    })
    .await;
    for dialect in [Dialect::Draft1996, Dialect::Rfc9309] {
        let cache = cache_for(dialect, &server, &["reset.test"]);
        let decision = cache
            .check(&server.url("reset.test", "/public"), "TestBot")
            .await
            .unwrap();
        // A half file must not count: its missing rules would allow too much.
        assert_unreachable(
            dialect,
            &decision,
            |f| matches!(f, Failure::Body(_)),
            "reset",
        );
    }
    assert_eq!(server.requests(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_connection_is_a_failure() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let cache = RobotsCache::new(norobots_fetch::Config::new(Dialect::Rfc9309)).unwrap();
    let decision = cache
        .check(&format!("http://127.0.0.1:{port}/x"), "TestBot")
        .await
        .unwrap();
    assert!(
        matches!(
            &decision,
            Decision::Disallow(Reason::Fetch(Outcome::Failure(Failure::Connect(_))))
        ),
        "{decision:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gzip_and_brotli_bodies_are_decoded() {
    let server = Server::start(|_, seen| {
        let (encoding, body) = if seen.host == "gz.test" {
            ("gzip", support::gzip(RULES.as_bytes()))
        } else {
            ("br", support::brotli(RULES.as_bytes()))
        };
        Reply::Full {
            status: 200,
            headers: vec![("Content-Encoding".into(), encoding.into())],
            body,
        }
    })
    .await;
    let cache = cache_for(Dialect::Rfc9309, &server, &["gz.test", "br.test"]);
    for host in ["gz.test", "br.test"] {
        let decision = cache
            .check(&server.url(host, "/private"), "TestBot")
            .await
            .unwrap();
        assert_eq!(
            decision,
            Decision::Disallow(rule(2, RuleKind::Disallow, "/private")),
            "{host}"
        );
    }
    for seen in server.seen() {
        let accept = seen.header("accept-encoding").unwrap();
        assert!(accept.contains("gzip") && accept.contains("br"), "{accept}");
    }
}

// The cap counts decoded octets: an answer of a few kilobytes that decodes
// to 64 MiB yields the cap's worth of the file, whatever the coding.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compression_bomb_is_cut_at_the_cap_after_decoding() {
    let size = 64 << 20;
    let codings = ["gzip", "deflate", "br"];
    let bodies: Vec<Vec<u8>> = codings
        .iter()
        .map(|coding| support::bomb(coding, RULES.as_bytes(), size))
        .collect();
    for (coding, body) in codings.iter().zip(&bodies) {
        assert!(body.len() < size / 100, "{coding}: {} octets", body.len());
    }
    let server = Server::start(move |_, seen| {
        let coding = seen.host.trim_end_matches(".test");
        let at = codings.iter().position(|c| *c == coding).unwrap();
        Reply::Full {
            status: 200,
            headers: vec![("Content-Encoding".into(), coding.into())],
            body: bodies[at].clone(),
        }
    })
    .await;
    let hosts = ["gzip.test", "deflate.test", "br.test"];
    let cache = cache_for(Dialect::Rfc9309, &server, &hosts);
    for host in hosts {
        let url = server.url(host, "/private/x");
        let decision = cache.check(&url, "TestBot").await.unwrap();
        assert_eq!(
            decision,
            Decision::Disallow(rule(2, RuleKind::Disallow, "/private")),
            "{host}"
        );
        let entry = cache.entry(&url).unwrap().unwrap();
        assert!(entry.fetch().truncated, "{host}");
        assert_eq!(entry.fetch().bytes, 500 * 1024, "{host}");
        // Whole copies of RULES up to the cap; the cap falls five octets
        // into the next one's `User-agent` line, which makes no group.
        assert_eq!(500 * 1024 % RULES.len(), 5);
        let groups = entry.robots().groups().len();
        assert_eq!(groups, 500 * 1024 / RULES.len(), "{host}");
    }
}

// The rest of a compressed answer is never decoded: the client stops
// reading at the cap. The answer here never ends, so a client that read on
// would wait for the timeout (30 s) and report a failure, not the file; no
// bound on time is needed to tell the two apart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compressed_answer_without_end_is_read_to_the_cap_only() {
    let server = Server::start(|_, seen| Reply::EndlessBomb {
        coding: seen.host.trim_end_matches(".test").into(),
    })
    .await;
    let hosts = ["gzip.test", "deflate.test", "br.test"];
    let cache = cache_for(Dialect::Rfc9309, &server, &hosts);
    for host in hosts {
        let url = server.url(host, "/private/x");
        let decision = cache.check(&url, "TestBot").await.unwrap();
        assert_eq!(
            decision,
            Decision::Disallow(rule(2, RuleKind::Disallow, "/private")),
            "{host}"
        );
        let entry = cache.entry(&url).unwrap().unwrap();
        assert!(entry.fetch().truncated, "{host}");
        assert_eq!(entry.fetch().bytes, 500 * 1024, "{host}");
    }
}

// A body that does not decode as its Content-Encoding says (cut short, or
// not compressed at all) is a failed fetch, as a connection reset mid-body
// is: the part that did decode may be missing rules.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_does_not_decode_is_a_failure() {
    let gzipped = support::gzip(RULES.repeat(100).as_bytes());
    let short = gzipped[..gzipped.len() / 2].to_vec();
    let server = Server::start(move |_, seen| {
        let (coding, body) = match seen.host.as_str() {
            "short.test" => ("gzip", short.clone()),
            "plain.test" => ("gzip", RULES.as_bytes().to_vec()),
            _ => ("br", RULES.as_bytes().to_vec()),
        };
        Reply::Full {
            status: 200,
            headers: vec![("Content-Encoding".into(), coding.into())],
            body,
        }
    })
    .await;
    let hosts = ["short.test", "plain.test", "plainbr.test"];
    for dialect in [Dialect::Draft1996, Dialect::Rfc9309] {
        let cache = cache_for(dialect, &server, &hosts);
        for host in hosts {
            let decision = cache
                .check(&server.url(host, "/public"), "TestBot")
                .await
                .unwrap();
            assert_unreachable(dialect, &decision, |f| matches!(f, Failure::Body(_)), host);
        }
    }
    assert_eq!(server.requests(), 6);
}

/// A server that counts requests and answers with `headers`.
async fn counting_server(headers: Vec<(String, String)>) -> Server {
    Server::start(move |_, _| Reply::Full {
        status: 200,
        headers: headers.clone(),
        body: RULES.as_bytes().to_vec(),
    })
    .await
}

// RFC 9111 5.3: Expires in the past is stale at once; in the future, fresh.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expires_in_the_past_refetches_and_in_the_future_does_not() {
    let now = SystemTime::now();
    for (offset, expected) in [(-3600i64, 3usize), (3600, 1)] {
        let at = if offset < 0 {
            now - Duration::from_secs(offset.unsigned_abs())
        } else {
            now + Duration::from_secs(offset as u64)
        };
        let server = counting_server(vec![
            ("Date".into(), httpdate::fmt_http_date(now)),
            ("Expires".into(), httpdate::fmt_http_date(at)),
        ])
        .await;
        let cache = cache_for(Dialect::Draft1996, &server, &["a.test"]);
        for _ in 0..3 {
            let d = cache
                .check(&server.url("a.test", "/private"), "TestBot")
                .await
                .unwrap();
            assert!(!d.is_allowed());
        }
        assert_eq!(server.requests(), expected, "Expires {offset:+}s");
    }
}

// RFC 9111 5.2.2.1: max-age. A copy is kept as long as it says (an hour,
// so that no pause of a busy machine between two checks outlasts it) and
// no longer (a second, slept through).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_age_keeps_the_copy_that_long() {
    let server = Server::start(|_, seen| {
        let age = if seen.host == "hour.test" { 3600 } else { 1 };
        Reply::ok(RULES).with("Cache-Control", &format!("max-age={age}"))
    })
    .await;
    let cache = cache_for(Dialect::Rfc9309, &server, &["hour.test", "second.test"]);
    let requests = |host: &str| server.seen().iter().filter(|s| s.host == host).count();
    for (host, age) in [("hour.test", 3600), ("second.test", 1)] {
        let url = server.url(host, "/private");
        cache.check(&url, "TestBot").await.unwrap();
        assert_eq!(
            cache.entry(&url).unwrap().unwrap().ttl(),
            Duration::from_secs(age),
            "{host}"
        );
    }
    let hour = server.url("hour.test", "/private");
    cache.check(&hour, "TestBot").await.unwrap();
    assert_eq!(requests("hour.test"), 1);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let second = server.url("second.test", "/private");
    cache.check(&second, "TestBot").await.unwrap();
    assert_eq!(requests("second.test"), 2);
}

// A server's lifetime is a stranger's number: u64::MAX seconds once
// overflowed the clock and panicked the check (legacy dialects have no cap);
// one past u64 is 2^31 seconds (RFC 9111 1.2.2); s-maxage, for shared caches
// only (RFC 9111 5.2.2.10), used to leave no lifetime at all, so every check
// fetched the file again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lifetimes_from_the_server_never_overflow_or_vanish() {
    let year = Duration::from_secs(365 * 86_400);
    for (dialect, value, at_least) in [
        (
            Dialect::Draft1996,
            "max-age=18446744073709551615",
            50 * year,
        ),
        (
            Dialect::Norobots1994,
            "max-age=18446744073709551616",
            Duration::from_secs(1 << 31),
        ),
        (
            Dialect::Rfc9309,
            "max-age=18446744073709551616",
            Duration::from_secs(86_400),
        ),
        (
            Dialect::Draft1996,
            "public, s-maxage=1",
            7 * Duration::from_secs(86_400),
        ),
    ] {
        let server = counting_server(vec![("Cache-Control".into(), value.into())]).await;
        let cache = cache_for(dialect, &server, &["a.test"]);
        let url = server.url("a.test", "/private");
        for _ in 0..3 {
            assert!(!cache.check(&url, "TestBot").await.unwrap().is_allowed());
        }
        assert_eq!(server.requests(), 1, "{dialect:?} {value}");
        let ttl = cache.entry(&url).unwrap().unwrap().ttl();
        assert!(ttl >= at_least, "{dialect:?} {value}: {ttl:?}");
    }
}

// RFC 9111 4.3: a stale copy is revalidated; 304 keeps it and renews it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_304_renews_the_copy() {
    let server = Server::start(|i, seen| {
        if i == 0 {
            Reply::ok(RULES)
                .with("ETag", "\"v1\"")
                .with("Cache-Control", "no-cache")
        } else if seen.header("if-none-match") == Some("\"v1\"") {
            Reply::status(304)
                .with("ETag", "\"v1\"")
                .with("Cache-Control", "max-age=600")
        } else {
            Reply::ok("User-agent: *\nDisallow: /\n")
        }
    })
    .await;
    let cache = cache_for(Dialect::Rfc9309, &server, &["a.test"]);
    let url = server.url("a.test", "/private");
    assert!(!cache.check(&url, "TestBot").await.unwrap().is_allowed());
    // no-cache: the next check revalidates.
    let d = cache.check(&url, "TestBot").await.unwrap();
    assert_eq!(
        d,
        Decision::Disallow(rule(2, RuleKind::Disallow, "/private"))
    );
    let entry = cache.entry(&url).unwrap().unwrap();
    assert_eq!(entry.ttl(), Duration::from_secs(600));
    assert_eq!(entry.fetch().status, Some(200));
    assert_eq!(cache.metrics().revalidated, 1);
    // Renewed for ten minutes: no third request.
    cache.check(&url, "TestBot").await.unwrap();
    let seen = server.seen();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].header("if-none-match"), None);
    assert_eq!(seen[1].header("if-none-match"), Some("\"v1\""));
}

// RFC 9309 2.4: a cached copy may stand in while the server fails.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_5xx_after_a_good_copy_keeps_the_copy() {
    for dialect in [Dialect::Draft1996, Dialect::Rfc9309] {
        let server = Server::start(|i, _| {
            if i == 0 {
                Reply::ok(RULES).with("Cache-Control", "max-age=0")
            } else {
                Reply::status(503)
            }
        })
        .await;
        let cache = cache_for(dialect, &server, &["a.test"]);
        let url = server.url("a.test", "/private");
        cache.check(&url, "TestBot").await.unwrap();
        let d = cache.check(&url, "TestBot").await.unwrap();
        assert_eq!(
            d,
            Decision::Disallow(rule(2, RuleKind::Disallow, "/private")),
            "{dialect}"
        );
        assert!(cache
            .check(&server.url("a.test", "/open"), "TestBot")
            .await
            .unwrap()
            .is_allowed());
        let entry = cache.entry(&url).unwrap().unwrap();
        assert_eq!(entry.stale(), Some(&Failure::Status(503)));
        assert_eq!(entry.failures(), 1);
        let m = cache.metrics();
        assert_eq!((m.fetches, m.stale_served), (2, 1), "{m:?}");
        assert_eq!(server.requests(), 2);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stale_limit_ends_the_stand_in() {
    let server = Server::start(|i, _| {
        if i == 0 {
            Reply::ok(RULES).with("Cache-Control", "max-age=0")
        } else {
            Reply::status(500)
        }
    })
    .await;
    let config = config_for(Dialect::Rfc9309, &server, &["a.test"]).stale_limit(Duration::ZERO);
    let cache = RobotsCache::new(config).unwrap();
    let url = server.url("a.test", "/open");
    assert!(cache.check(&url, "TestBot").await.unwrap().is_allowed());
    tokio::time::sleep(Duration::from_millis(20)).await;
    let d = cache.check(&url, "TestBot").await.unwrap();
    assert_eq!(
        d,
        Decision::Disallow(Reason::Fetch(Outcome::Failure(Failure::Status(500))))
    );
    assert_eq!(server.requests(), 2);
}

// One fetch per origin however many checks wait for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_concurrent_checks_make_one_request() {
    let server = Server::start(|_, _| {
        Reply::Delayed(Duration::from_millis(300), Box::new(Reply::ok(RULES)))
    })
    .await;
    let cache = cache_for(Dialect::Rfc9309, &server, &["cold.test"]);
    let url = server.url("cold.test", "/private/x");
    let started = Arc::new(AtomicUsize::new(0));
    let tasks: Vec<_> = (0..100)
        .map(|_| {
            let cache = cache.clone();
            let url = url.clone();
            let started = Arc::clone(&started);
            tokio::spawn(async move {
                started.fetch_add(1, Ordering::SeqCst);
                cache.check(&url, "TestBot").await.unwrap()
            })
        })
        .collect();
    for t in tasks {
        assert_eq!(
            t.await.unwrap(),
            Decision::Disallow(rule(2, RuleKind::Disallow, "/private"))
        );
    }
    assert_eq!(started.load(Ordering::SeqCst), 100);
    assert_eq!(server.requests(), 1);
    let m = cache.metrics();
    assert_eq!(m.fetches, 1);
    assert_eq!(m.hits + m.misses, 100, "{m:?}");
    assert_eq!(m.coalesced, m.misses - 1, "{m:?}");
}

// RFC 9110 10.2.3: Retry-After sets the wait; without it waits grow. A
// wait runs from the answer, which comes between the times taken before and
// after the check: the bounds hold however long a busy machine takes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_sets_the_deferral_and_waits_grow_without_it() {
    let server = Server::start(|_, seen| match seen.host.as_str() {
        "later.test" => Reply::status(503).with("Retry-After", "120"),
        "busy.test" => Reply::status(429).with("Retry-After", "30"),
        _ => Reply::status(503),
    })
    .await;
    let hosts = ["later.test", "busy.test", "down.test"];
    let draft = cache_for(Dialect::Draft1996, &server, &hosts);
    let rfc = cache_for(Dialect::Rfc9309, &server, &hosts);

    let within = |until: SystemTime, before: SystemTime, after: SystemTime, wait: u64| {
        let wait = Duration::from_secs(wait);
        assert!(
            before + wait <= until && until <= after + wait,
            "{wait:?} from {before:?} to {after:?}: {until:?}"
        );
    };
    let before = SystemTime::now();
    let Decision::Defer { until, .. } = draft
        .check(&server.url("later.test", "/"), "TestBot")
        .await
        .unwrap()
    else {
        panic!()
    };
    within(until, before, SystemTime::now(), 120);

    let before = SystemTime::now();
    let Decision::Defer { until, outcome } = rfc
        .check(&server.url("busy.test", "/"), "TestBot")
        .await
        .unwrap()
    else {
        panic!()
    };
    assert_eq!(outcome, Outcome::Failure(Failure::Status(429)));
    within(until, before, SystemTime::now(), 30);

    // No Retry-After: 10 s, then 20 s. Ten, not the one second the other
    // tests start at, so that the check right after each failure is sure
    // to come before the wait is over.
    let config = config_for(Dialect::Draft1996, &server, &hosts)
        .retry(Duration::from_secs(10), Duration::from_secs(3600));
    let draft = RobotsCache::new(config).unwrap();
    let url = server.url("down.test", "/");
    for wait in [10, 20] {
        let before = SystemTime::now();
        let Decision::Defer { until, .. } = draft.check(&url, "TestBot").await.unwrap() else {
            panic!()
        };
        within(until, before, SystemTime::now(), wait);
        let entry = draft.entry(&url).unwrap().unwrap();
        assert_eq!(entry.ttl(), Duration::from_secs(wait));
        // A check before `until` is a hit: no request.
        assert!(matches!(
            draft.check(&url, "TestBot").await.unwrap(),
            Decision::Defer { .. }
        ));
        if wait == 10 {
            tokio::time::sleep(
                until.duration_since(SystemTime::now()).unwrap_or_default()
                    + Duration::from_millis(50),
            )
            .await;
        }
    }
    assert_eq!(draft.entry(&url).unwrap().unwrap().failures(), 2);
    let down = server
        .seen()
        .iter()
        .filter(|s| s.host == "down.test")
        .count();
    assert_eq!(down, 2);
}

// An HTML page served with 200 is parsed like any body, and the entry says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_html_page_is_parsed_and_flagged() {
    let server = Server::start(|_, _| Reply::Full {
        status: 200,
        headers: vec![("Content-Type".into(), "text/html".into())],
        body: b"<!DOCTYPE html><html><body>Welcome! Disallow: nothing</body></html>".to_vec(),
    })
    .await;
    let cache = cache_for(Dialect::Rfc9309, &server, &["a.test"]);
    let url = server.url("a.test", "/x");
    assert_eq!(
        cache.check(&url, "TestBot").await.unwrap(),
        Decision::Allow(Reason::NoRule)
    );
    let entry = cache.entry(&url).unwrap().unwrap();
    assert!(entry.is_html());
    assert_eq!(entry.policy(), Policy::Rules);
    assert_eq!(server.requests(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sitemaps_and_crawl_delay_are_exposed() {
    let server = Server::start(|_, _| {
        Reply::ok(
            "Sitemap: http://a.test/s.xml\nUser-agent: TestBot\nCrawl-delay: 2\nDisallow: /tmp\n",
        )
    })
    .await;
    let cache = cache_for(Dialect::Rfc9309, &server, &["a.test"]);
    let entry = cache.load(&server.url("a.test", "/")).await.unwrap();
    assert_eq!(
        entry
            .robots()
            .sitemaps()
            .map(|s| s.value().into_owned())
            .collect::<Vec<_>>(),
        ["http://a.test/s.xml"]
    );
    assert_eq!(
        entry.crawl_delay("TestBot/1.0"),
        Some(std::time::Duration::from_secs(2))
    );
    assert_eq!(entry.crawl_delay("OtherBot"), None);
    assert_eq!(
        entry.fetch().body.len(),
        0,
        "the body moved into the parsed file"
    );
}
