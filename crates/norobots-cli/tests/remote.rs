//! `norobots check` without `--robots` and `norobots fetch`, against real
//! HTTP servers on 127.0.0.1 (one per origin: the port makes the origin).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;

use assert_cmd::Command;

const BIN: &str = env!("CARGO_BIN_EXE_norobots");

/// A server that answers every request with one fixed response and records
/// the request heads it saw.
struct Server {
    port: u16,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start(status: u16, extra_headers: &str, body: &str) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let response = format!(
            "HTTP/1.1 {status} X\r\nConnection: close\r\nContent-Length: {}\r\n{extra_headers}\r\n{body}",
            body.len()
        );
        let log = Arc::clone(&seen);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let log = Arc::clone(&log);
                let response = response.clone();
                thread::spawn(move || serve(stream, &log, &response));
            }
        });
        Server { port, seen }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn requests(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

fn serve(mut stream: TcpStream, log: &Mutex<Vec<String>>, response: &str) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 2048];
    loop {
        let Ok(n) = stream.read(&mut chunk) else {
            return;
        };
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&chunk[..n]);
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut req = httparse::Request::new(&mut headers);
        if let Ok(httparse::Status::Complete(_)) = req.parse(&buf) {
            let ua = req
                .headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case("user-agent"))
                .map(|h| String::from_utf8_lossy(h.value).into_owned())
                .unwrap_or_default();
            log.lock().unwrap().push(format!(
                "{} {} {ua}",
                req.method.unwrap(),
                req.path.unwrap()
            ));
            break;
        }
    }
    let _ = stream.write_all(response.as_bytes());
}

fn run(args: &[&str], stdin: Option<&str>) -> (String, String, i32) {
    let mut cmd = Command::new(BIN);
    cmd.args(args);
    if let Some(input) = stdin {
        cmd.write_stdin(input);
    }
    let out = cmd.output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

#[test]
fn each_origin_is_fetched_once_and_decides_its_urls() {
    let site = Server::start(200, "", "User-agent: *\nDisallow: /private\n");
    let gone = Server::start(404, "", "");
    let urls = [
        site.url("/a"),
        site.url("/private/b"),
        gone.url("/private/c"),
        site.url("/c"),
    ];
    let mut args = vec!["check", "--agent", "TestBot", "--user-agent", "TestBot/2.0"];
    args.extend(urls.iter().map(String::as_str));
    let (out, err, code) = run(&args, None);
    assert_eq!(err, "");
    assert_eq!(
        out,
        format!(
            "allowed\t{}\ndisallowed\t{}\nallowed\t{}\nallowed\t{}\n",
            urls[0], urls[1], urls[2], urls[3]
        )
    );
    assert_eq!(code, 1);
    assert_eq!(site.requests(), ["GET /robots.txt TestBot/2.0"]);
    assert_eq!(gone.requests(), ["GET /robots.txt TestBot/2.0"]);
}

#[test]
fn explain_and_json_say_why_for_whole_site_answers() {
    let gone = Server::start(404, "", "");
    let url = gone.url("/x");
    let (out, _, code) = run(&["check", "--agent", "bot", "--explain", &url], None);
    assert_eq!(out, format!("allowed\t{url}\trobots.txt: HTTP 404\n"));
    assert_eq!(code, 0);
    let (out, _, _) = run(&["check", "--agent", "bot", "--json", &url], None);
    assert_eq!(
        out,
        format!("{{\"url\":\"{url}\",\"allowed\":true,\"rule\":null,\"decision\":\"allow\",\"reason\":\"robots.txt: HTTP 404\"}}\n")
    );
}

// Draft 3.1: a 5xx is a temporary failure; the robot defers (exit 3).
#[test]
fn a_deferred_origin_prints_defer_and_exits_3() {
    let down = Server::start(503, "Retry-After: 60\r\n", "");
    let site = Server::start(200, "", "User-agent: *\nDisallow:\n");
    let (out, err, code) = run(
        &[
            "check",
            "--dialect",
            "draft1996",
            "--agent",
            "bot",
            &down.url("/a"),
            &site.url("/b"),
        ],
        None,
    );
    assert_eq!(err, "");
    assert_eq!(
        out,
        format!("defer\t{}\nallowed\t{}\n", down.url("/a"), site.url("/b"))
    );
    assert_eq!(code, 3);
    let (out, _, code) = run(
        &[
            "check",
            "--dialect",
            "draft1996",
            "--agent",
            "bot",
            "--explain",
            &down.url("/a"),
        ],
        None,
    );
    assert!(
        out.starts_with(&format!("defer\t{}\tuntil ", down.url("/a"))),
        "{out}"
    );
    assert!(out.ends_with(": robots.txt: HTTP 503\n"), "{out}");
    assert_eq!(code, 3);
    // RFC 9309 2.3.1.4: the same answer there disallows everything.
    let (out, _, code) = run(&["check", "--agent", "bot", &down.url("/a")], None);
    assert_eq!(out, format!("disallowed\t{}\n", down.url("/a")));
    assert_eq!(code, 1);
}

#[test]
fn urls_stream_from_stdin_with_one_fetch_per_origin() {
    let site = Server::start(200, "", "User-agent: *\nDisallow: /0\n");
    let input: String = (0..2000)
        .map(|i| format!("{}\r\n", site.url(&format!("/{}", i % 10))))
        .collect();
    let (out, err, code) = run(&["check", "--agent", "bot"], Some(&input));
    assert_eq!(err, "");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2000);
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("disallowed\t"))
            .count(),
        200
    );
    for (i, line) in lines.iter().enumerate() {
        assert!(line.ends_with(&format!("/{}", i % 10)), "line {i}: {line}");
    }
    assert_eq!(code, 1);
    assert_eq!(site.requests().len(), 1);
}

// As with `--robots`: a URL that is not UTF-8 is decided on its octets
// (`\xE9` is `%E9` to rfc9309) and echoed as given; only its origin must be
// text, and it is fetched once.
#[cfg(unix)]
#[test]
fn urls_that_are_not_utf8_are_fetched_for_decided_and_echoed_as_given() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let site = Server::start(200, "", "User-agent: *\nDisallow: /caf%E9\n");
    let url = |path: &[u8]| [site.url("").as_bytes(), path].concat();
    let mut input = url(b"/caf\xe9");
    input.push(b'\n');
    input.extend(url(b"/the\xe9"));
    input.push(b'\n');
    let output = Command::new(BIN)
        .args(["check", "--agent", "bot", "--explain"])
        .write_stdin(input)
        .output()
        .unwrap();
    let expected = [
        b"disallowed\t".as_slice(),
        &url(b"/caf\xe9"),
        b"\tline 2: Disallow: /caf%E9\nallowed\t",
        &url(b"/the\xe9"),
        b"\tno rule\n",
    ]
    .concat();
    assert_eq!(output.stdout, expected);
    assert_eq!(output.status.code(), Some(1));

    let output = Command::new(BIN)
        .args(["check", "--agent", "bot", "--json"])
        .arg(OsStr::from_bytes(&url(b"/caf\xe9")))
        .output()
        .unwrap();
    let line = String::from_utf8(output.stdout).unwrap();
    assert!(
        line.starts_with(&format!(
            "{{\"url\":\"{}/caf\u{fffd}\",\"allowed\":false,",
            site.url("")
        )),
        "{line}"
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(site.requests().len(), 2);
}

#[test]
fn a_bad_url_on_stdin_names_its_line_and_the_others_are_still_answered() {
    let site = Server::start(404, "", "");
    let input = format!(
        "{}\nnot a url\n\n/path\n{}\n",
        site.url("/a"),
        site.url("/b")
    );
    let (out, err, code) = run(&["check", "--agent", "bot"], Some(&input));
    assert_eq!(
        out,
        format!("allowed\t{}\nallowed\t{}\n", site.url("/a"), site.url("/b"))
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(
        lines[0].starts_with("norobots: error: stdin line 2: `not a url` is neither a URL"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("norobots: error: stdin line 3: empty"),
        "{err}"
    );
    assert!(
        lines[2].starts_with("norobots: error: stdin line 4: bad URL `/path`"),
        "{err}"
    );
    assert_eq!(code, 2);
    assert_eq!(site.requests().len(), 1, "one fetch for the one origin");
}

#[test]
fn fetch_shows_the_outcome_policy_groups_and_sitemaps() {
    let site = Server::start(
        200,
        "Cache-Control: max-age=3600\r\n",
        "User-agent: TestBot\nDisallow: /tmp\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /\n\nSitemap: http://x.test/s.xml\n",
    );
    let (out, err, code) = run(
        &["fetch", "--agent", "TestBot/1.0", &site.url("/some/page")],
        None,
    );
    assert_eq!(err, "");
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        format!("robots.txt   {}", site.url("/robots.txt"))
    );
    assert!(
        lines[1].starts_with("outcome      HTTP 200, 0 redirects, 107 bytes, "),
        "{out}"
    );
    assert_eq!(lines[2], "policy       obey the file's rules");
    assert!(lines[3].starts_with("fresh for    1h 0m (at "), "{out}");
    assert_eq!(
        &lines[4..],
        [
            "group        line 1: User-agent: TestBot",
            "  rule       line 2: Disallow: /tmp",
            "  delay      5 s",
            "sitemap      http://x.test/s.xml",
        ]
    );
    assert_eq!(site.requests().len(), 1);
}

#[test]
fn fetch_of_a_deferred_host_exits_3_and_of_a_bad_url_exits_2() {
    let down = Server::start(500, "", "");
    let (out, _, code) = run(&["fetch", "--dialect", "draft1996", &down.url("/")], None);
    assert!(out.contains("outcome      HTTP 500, "), "{out}");
    assert!(out.contains("\npolicy       defer the host\n"), "{out}");
    assert!(out.contains("\nretry after  1m 0s (at "), "{out}");
    assert_eq!(code, 3);
    let (out, err, code) = run(&["fetch", "ftp://example.com/"], None);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "norobots: error: not an http or https URL: ftp://example.com/\n"
    );
    assert_eq!(code, 2);
}

// Issue 47, item 8: the error chain was printed twice (outcome and policy),
// with the URL inside it, and the failure was "fresh for 1m 0s".
#[test]
fn fetch_of_an_unreachable_origin_says_the_cause_once_and_when_to_retry() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let (out, err, code) = run(&["fetch", &format!("http://127.0.0.1:{port}/")], None);
    assert_eq!(err, "");
    assert_eq!(
        code, 0,
        "rfc9309 answers an unreachable robots.txt with disallow all"
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[1].split(", 0 redirects").next().unwrap(),
        "outcome      cannot connect: tcp connect error: Connection refused (os error 111)",
        "{out}"
    );
    assert_eq!(out.matches("Connection refused").count(), 1, "{out}");
    assert_eq!(
        out.matches("127.0.0.1").count(),
        1,
        "the URL only on its line: {out}"
    );
    assert_eq!(lines[2], "policy       disallow all");
    assert!(lines[3].starts_with("retry after  1m 0s (at "), "{out}");
    assert!(!out.contains("fresh"), "{out}");
}

// A stranger's robots.txt cannot drive the terminal of whoever looks at it.
#[test]
fn fetch_and_explain_escape_what_the_server_wrote() {
    let site = Server::start(
        200,
        "",
        "User-agent: *\nDisallow: /x\u{202e}y\nSitemap: http://x.test/\x1b]0;owned\x07\n",
    );
    let (out, _, code) = run(&["fetch", "--agent", "TestBot", &site.url("/")], None);
    assert_eq!(code, 0);
    // Nothing a terminal would act on is left to escape.
    assert_eq!(norobots_tools::printable(&out), out);
    assert!(
        out.contains("  rule       line 2: Disallow: /x\\u{202e}y\n"),
        "{out}"
    );
    assert!(
        out.contains("sitemap      http://x.test/\\x1b]0;owned\\x07\n"),
        "{out}"
    );
    // The caller's URL is echoed as given; the server's pattern is escaped.
    let url = site.url("/x%E2%80%AEy");
    let (out, _, code) = run(&["check", "--agent", "TestBot", "--explain", &url], None);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        format!("disallowed\t{url}\tline 2: Disallow: /x\\u{{202e}}y\n")
    );
}
