//! The site over real HTTP: what a client gets, and what the log says.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use norobots_testsite::scenario::{self, GENERATED_ORIGIN, GENERATED_START};
use norobots_testsite::{OriginSpec, Response, RunningSite, Site};
use reqwest::blocking::Client;

fn client() -> Client {
    Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent("norobots/test")
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

fn get(site: &RunningSite, origin: &str, path: &str) -> reqwest::blocking::Response {
    client().get(site.url(origin, path)).send().unwrap()
}

/// A raw request line, for paths a URL parser would rewrite.
fn raw(site: &RunningSite, origin: &str, path: &str) -> String {
    let mut tcp = TcpStream::connect(site.addr(origin)).unwrap();
    write!(
        tcp,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).unwrap();
    answer
}

#[test]
fn placeholders_become_the_origins_ports() {
    let site = scenario::standard().start().unwrap();
    let index = get(&site, "a", "/index.html");
    assert_eq!(index.status(), 200);
    assert_eq!(index.headers()["content-type"], "text/html; charset=utf-8");
    let body = index.text().unwrap();
    assert!(body.contains(&format!("href=\"{}\"", site.url("b", "/landing.html"))));
    assert!(body.contains(&format!("href=\"{}\"", site.url("m", "/many.html"))));
    assert!(!body.contains("{origin:"));

    let robots = get(&site, "a", "/robots.txt").text().unwrap();
    assert!(robots.contains(&format!("Sitemap: {}", site.url("a", "/sitemap.xml"))));
    assert!(robots.contains("User-agent: norobots\nDisallow: /private/\n"));

    let other = get(&site, "a", "/go/other");
    assert_eq!(other.status(), 302);
    assert_eq!(
        other.headers()["location"],
        site.url("b", "/from-redirect.html")
    );
}

#[test]
fn every_robots_txt_answers_as_documented() {
    let site = scenario::standard().start().unwrap();
    let status = |o: &str| get(&site, o, "/robots.txt").status().as_u16();
    assert_eq!(status("a"), 200);
    assert_eq!(status("b"), 404);
    assert_eq!(status("c"), 403);
    assert_eq!(status("i"), 401);
    assert_eq!(status("m"), 200);
    let d = get(&site, "d", "/robots.txt");
    assert_eq!(
        (d.status().as_u16(), &d.headers()["retry-after"]),
        (503, &"1".parse().unwrap())
    );
    let e = get(&site, "e", "/robots.txt");
    assert_eq!(e.status(), 301);
    let target = e.headers()["location"].to_str().unwrap().to_owned();
    assert_eq!(target, site.url("f", "/robots-for-e.txt"));
    let rules = client().get(&target).send().unwrap().text().unwrap();
    assert!(rules.contains("Disallow: /e-private/"));
    // Each origin logged its own requests, and f only the file asked of it.
    assert_eq!(site.count("e", "/robots.txt"), 1);
    assert_eq!(
        site.paths_requested("f").into_iter().collect::<Vec<_>>(),
        ["/robots-for-e.txt"]
    );
    assert!(site.paths_requested("h").is_empty());
}

#[test]
fn a_hanging_answer_makes_the_client_time_out_and_is_logged_at_once() {
    let site = scenario::standard().start().unwrap();
    let quick = Client::builder()
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let started = Instant::now();
    let err = quick.get(site.url("g", "/robots.txt")).send().unwrap_err();
    assert!(err.is_timeout(), "{err}");
    assert!(started.elapsed() < Duration::from_secs(3));
    let log = site.requests();
    assert_eq!(log.len(), 1);
    assert_eq!(
        (log[0].origin.as_str(), log[0].path_and_query.as_str()),
        ("g", "/robots.txt")
    );
    assert_eq!(log[0].status, 0);
}

#[test]
fn a_slow_page_is_late_but_logged_on_arrival() {
    let site = scenario::standard().start().unwrap();
    let started = Instant::now();
    let slow = std::thread::scope(|s| {
        let fetch = s.spawn(|| get(&site, "a", "/slow.html"));
        // The log has the request long before the answer comes.
        while !site.requested("a", "/slow.html") {
            assert!(
                started.elapsed() < Duration::from_secs(1),
                "not logged on arrival"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(started.elapsed() < Duration::from_millis(1200));
        fetch.join().unwrap()
    });
    assert_eq!(slow.status(), 200);
    assert!(started.elapsed() >= Duration::from_millis(1500));
}

#[test]
fn retry_routes_fail_first_then_recover() {
    let site = scenario::standard().start().unwrap();
    for (path, first) in [("/retry/503.html", 503), ("/retry/429.html", 429)] {
        let r = get(&site, "a", path);
        assert_eq!(r.status().as_u16(), first);
        assert_eq!(r.headers()["retry-after"], "1");
        for _ in 0..2 {
            let r = get(&site, "a", path);
            assert_eq!(r.status(), 200);
            assert!(r.text().unwrap().contains("Back after"));
        }
        let statuses: Vec<u16> = site
            .requests()
            .iter()
            .filter(|r| r.path_and_query == path)
            .map(|r| r.status)
            .collect();
        assert_eq!(statuses, [first, 200, 200]);
    }
}

#[test]
fn keep_alive_connections_are_reused_and_numbered() {
    let site = scenario::standard().start().unwrap();
    let one = client();
    for path in ["/robots.txt", "/index.html", "/allowed.html"] {
        let r = one.get(site.url("a", path)).send().unwrap();
        assert_eq!(r.status(), 200);
        r.bytes().unwrap();
    }
    client()
        .get(site.url("a", "/search"))
        .send()
        .unwrap()
        .bytes()
        .unwrap();
    let connections: Vec<u64> = site.requests().iter().map(|r| r.connection).collect();
    assert_eq!(
        connections[..3],
        [connections[0]; 3],
        "one client, one connection"
    );
    assert_ne!(
        connections[3], connections[0],
        "a second client, a second connection"
    );
    let log = site.requests();
    assert!(log
        .iter()
        .all(|r| r.user_agent.as_deref() == Some("norobots/test")));
    assert!(log.iter().all(|r| r.method == "GET" && r.origin == "a"));
}

#[test]
fn min_interval_measures_the_gaps_per_origin() {
    let site = scenario::standard().start().unwrap();
    let c = client();
    for (k, path) in ["/index.html", "/allowed.html", "/search"]
        .iter()
        .enumerate()
    {
        if k > 0 {
            std::thread::sleep(Duration::from_millis(150));
        }
        c.get(site.url("a", path)).send().unwrap().bytes().unwrap();
        // Another origin in between does not count for a.
        c.get(site.url("b", "/landing.html"))
            .send()
            .unwrap()
            .bytes()
            .unwrap();
    }
    let gap = site.min_interval("a").unwrap();
    assert!(gap >= Duration::from_millis(150), "{gap:?}");
    assert!(gap < Duration::from_secs(2), "{gap:?}");
    assert!(site.min_interval("b").unwrap() >= Duration::from_millis(150));
    assert_eq!(site.min_interval("c"), None);
}

#[test]
fn a_broken_body_fails_the_client() {
    let site = scenario::standard().start().unwrap();
    let r = get(&site, "a", "/broken.html");
    assert_eq!(r.status(), 200);
    let announced: usize = r.headers()["content-length"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(announced > 300);
    assert!(r.bytes().is_err(), "the body should break");
    // Exactly the first 300 bytes arrive before the close.
    let answer = raw(&site, "a", "/broken.html");
    let (_, body) = answer.split_once("\r\n\r\n").unwrap();
    assert_eq!(body.len(), 300);
    // The site still serves after a broken connection.
    assert_eq!(get(&site, "a", "/allowed.html").status(), 200);
}

#[test]
fn raw_paths_are_matched_as_sent() {
    let site = scenario::standard().start().unwrap();
    for path in [
        "/nul%00byte.html",
        "/..%2F..%2Fescape.html",
        "/%2e%2e/%2e%2e/escape2.html",
        "/q?x=1&y=2",
    ] {
        let answer = raw(&site, "a", path);
        assert!(
            answer.starts_with("HTTP/1.1 200 OK\r\n"),
            "{path}: {answer}"
        );
    }
    assert!(raw(&site, "a", "/q?y=2&x=1").starts_with("HTTP/1.1 404"));
    let paths = site.paths_requested("a");
    assert!(paths.contains("/%2e%2e/%2e%2e/escape2.html"));
    assert!(paths.contains("/q?y=2&x=1"));
}

#[test]
fn content_is_what_the_table_says() {
    let site = scenario::standard().start().unwrap();
    let no_type = get(&site, "a", "/no-type");
    assert!(no_type.headers().get("content-type").is_none());
    assert!(no_type.text().unwrap().contains("/from-sniffed.html"));
    let png = get(&site, "a", "/files/image.png");
    assert_eq!(png.headers()["content-type"], "image/png");
    assert!(png.bytes().unwrap().starts_with(b"\x89PNG\r\n"));
    let xrt = get(&site, "a", "/xrt/norobots.html");
    assert_eq!(xrt.headers()["x-robots-tag"], "norobots: nofollow");
    let many = get(&site, "m", "/many.html").text().unwrap();
    assert_eq!(many.matches("<a href=\"/many/").count(), scenario::MANY);
    assert_eq!(get(&site, "m", "/many/4999.html").status(), 200);
    assert_eq!(get(&site, "m", "/many/5000.html").status(), 404);
    assert_eq!(get(&site, "m", "/many/07.html").status(), 404);
    let long = format!("/{}", scenario::long_name());
    assert_eq!(get(&site, "a", &long).status(), 200);
    assert_eq!(get(&site, "a", "/missing.html").status(), 404);
    assert_eq!(get(&site, "a", "/nothing-here").status(), 404);
}

#[test]
fn the_gzip_sitemap_has_the_real_ports() {
    let site = scenario::standard().start().unwrap();
    let gz = get(&site, "a", "/sitemap-more.xml.gz");
    assert_eq!(gz.headers()["content-type"], "application/gzip");
    assert!(gz.headers().get("content-encoding").is_none());
    let mut xml = String::new();
    flate2::read::GzDecoder::new(&gz.bytes().unwrap()[..])
        .read_to_string(&mut xml)
        .unwrap();
    assert!(xml.contains(&format!(
        "<loc>{}</loc>",
        site.url("a", "/only-in-gz-sitemap.html")
    )));
    let index = get(&site, "a", "/sitemap-index.xml").text().unwrap();
    assert!(index.contains(&site.url("a", "/sitemap-more.xml.gz")));
}

#[test]
fn the_generated_site_serves_its_tree() {
    let site = scenario::generated(1000).start().unwrap();
    let start = get(&site, GENERATED_ORIGIN, GENERATED_START)
        .text()
        .unwrap();
    for child in 1..=10 {
        assert!(start.contains(&format!("<a href=\"{}\">", scenario::generated_path(child))));
    }
    assert!((2000..=4096).contains(&start.len()));
    assert_eq!(
        get(&site, GENERATED_ORIGIN, "/private/17.html").status(),
        200
    );
    assert_eq!(get(&site, GENERATED_ORIGIN, "/p/17.html").status(), 404);
    assert_eq!(get(&site, GENERATED_ORIGIN, "/p/1000.html").status(), 404);
    let robots = get(&site, GENERATED_ORIGIN, "/robots.txt").text().unwrap();
    assert_eq!(robots, "User-agent: *\nDisallow: /private/\n");
}

#[test]
fn the_generated_site_is_quick() {
    // Not a benchmark: a guard against per-request work growing with the
    // site (a crawl of 100,000 pages must not wait on the server).
    let site = scenario::generated(100_000).start().unwrap();
    let c = client();
    let started = Instant::now();
    for i in (0..100_000).step_by(500) {
        let r = c
            .get(site.url(GENERATED_ORIGIN, &scenario::generated_path(i)))
            .send()
            .unwrap();
        assert_eq!(r.status(), 200);
        r.bytes().unwrap();
    }
    assert_eq!(site.requests().len(), 200);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn head_requests_get_headers_only() {
    let site = scenario::standard().start().unwrap();
    let r = client().head(site.url("a", "/index.html")).send().unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.bytes().unwrap().is_empty());
    assert_eq!(site.requests()[0].method, "HEAD");
}

#[test]
fn the_site_stops_when_dropped() {
    let site = Site::new()
        .origin(OriginSpec::new("a").route("/", Response::html("up").hanging()))
        .start()
        .unwrap();
    let addr = site.addr("a");
    let mut tcp = TcpStream::connect(addr).unwrap();
    tcp.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    while !site.requested("a", "/") {
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(site);
    // The hanging connection is closed, and nothing listens any more.
    tcp.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut rest = Vec::new();
    assert_eq!(tcp.read_to_end(&mut rest).unwrap(), 0);
    assert!(TcpStream::connect(addr).is_err());
}

#[test]
fn fixed_ports_are_used() {
    // Find a free port, let it go, and ask for it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let site = Site::new()
        .origin(OriginSpec::new("a"))
        .ports_from(port)
        .start()
        .unwrap();
    assert_eq!(site.origin("a"), format!("http://127.0.0.1:{port}"));
    let taken = Site::new()
        .origin(OriginSpec::new("a"))
        .ports_from(port)
        .start();
    assert!(matches!(taken, Err(norobots_testsite::Error::Bind { port: p, .. }) if p == port));
}
