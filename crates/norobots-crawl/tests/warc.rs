//! The WARC files read back by a reader that is not ours: Python's
//! `warcio` (`check` and `index`), and a decoder written here from flate2
//! and sha1 that shares no code with the module.
//!
//! `warcio` is found through `NOROBOTS_WARCIO` (the path of the
//! executable), else on `PATH`. Without it the warcio checks print
//! `SKIPPED: warcio not found` and pass, except under `CI=true`, where
//! they fail.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::Command;

use flate2::bufread::GzDecoder;
use http::{HeaderMap, HeaderValue, Method, StatusCode, Version};
use norobots_crawl::warc::{
    self, BlockHasher, Body, Capture, RobotsMode, Tail, WarcInfo, WarcWriter,
};
use sha1::{Digest, Sha1};
use time::macros::datetime;
use url::Url;

fn warcio() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("NOROBOTS_WARCIO") {
        return Some(PathBuf::from(path));
    }
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("warcio"))
            .find(|candidate| candidate.is_file())
    });
    if found.is_none() {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "warcio not found: CI must run the WARC checks (set NOROBOTS_WARCIO or put warcio on PATH)"
        );
        eprintln!(
            "\n*** SKIPPED: warcio not found (set NOROBOTS_WARCIO or put warcio on PATH) ***\n"
        );
    }
    found
}

fn run(warcio: &Path, args: &[&str], file: &Path) -> String {
    let out = Command::new(warcio)
        .args(args)
        .arg(file)
        .output()
        .expect("warcio runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "warcio {args:?} failed: {text}");
    text
}

/// `warcio check` passes a file, and says nothing is invalid in it.
fn warcio_check(warcio: &Path, file: &Path) {
    let text = run(warcio, &["check", "-v"], file);
    assert!(!text.to_lowercase().contains("invalid"), "{text}");
    // -v lists each record's digest checks; make sure they were made.
    assert!(text.contains("digest pass"), "{text}");
}

/// `warcio index`: each record's type and target URI, in file order.
fn warcio_index(warcio: &Path, file: &Path) -> Vec<(String, Option<String>)> {
    let text = run(warcio, &["index", "-f", "warc-type,warc-target-uri"], file);
    text.lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect(line);
            (
                value["warc-type"].as_str().expect(line).to_string(),
                value["warc-target-uri"].as_str().map(str::to_string),
            )
        })
        .collect()
}

/// One record as decoded here.
#[derive(Debug)]
struct Decoded {
    fields: Vec<(String, String)>,
    block: Vec<u8>,
}

impl Decoded {
    fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn base32_sha1(bytes: &[u8]) -> String {
    format!(
        "sha1:{}",
        data_encoding::BASE32.encode(&Sha1::digest(bytes))
    )
}

/// Decodes every gzip member of `file` on its own, checks it holds exactly
/// one record, and checks both digests against the bytes.
fn decode(file: &Path) -> Vec<Decoded> {
    let mut input = BufReader::new(std::fs::File::open(file).unwrap());
    let mut records = Vec::new();
    while !input.fill_buf().unwrap().is_empty() {
        let mut member = Vec::new();
        GzDecoder::new(&mut input)
            .read_to_end(&mut member)
            .expect("a whole gzip member");
        let header_end = member
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a WARC header")
            + 4;
        let header = std::str::from_utf8(&member[..header_end]).unwrap();
        let mut lines = header.split("\r\n");
        assert_eq!(lines.next(), Some("WARC/1.1"));
        let fields: Vec<(String, String)> = lines
            .filter(|l| !l.is_empty())
            .map(|l| {
                let (n, v) = l.split_once(": ").expect(l);
                (n.to_string(), v.to_string())
            })
            .collect();
        let record = Decoded {
            fields,
            block: Vec::new(),
        };
        let len: usize = record.field("Content-Length").unwrap().parse().unwrap();
        assert_eq!(member.len(), header_end + len + 4, "one record per member");
        assert_eq!(&member[header_end + len..], b"\r\n\r\n");
        let block = member[header_end..header_end + len].to_vec();
        let record = Decoded { block, ..record };
        assert_eq!(
            record.field("WARC-Block-Digest"),
            Some(base32_sha1(&record.block).as_str())
        );
        if let Some(payload) = record.field("WARC-Payload-Digest") {
            let head_end = record
                .block
                .windows(4)
                .position(|w| w == b"\r\n\r\n")
                .expect("an HTTP head")
                + 4;
            assert_eq!(payload, base32_sha1(&record.block[head_end..]));
        }
        records.push(record);
    }
    records
}

struct Fetch {
    target: &'static [u8],
    status: StatusCode,
    headers: Vec<(&'static str, &'static [u8])>,
    body: Vec<u8>,
}

fn fetches() -> Vec<Fetch> {
    let binary: Vec<u8> = (0..70_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    vec![
        Fetch {
            target: b"http://127.0.0.1:8001/robots.txt",
            status: StatusCode::OK,
            headers: vec![("content-type", b"text/plain")],
            body: b"User-agent: *\nDisallow: /private\n".to_vec(),
        },
        Fetch {
            target: b"http://127.0.0.1:8001/",
            status: StatusCode::OK,
            headers: vec![
                ("content-type", b"text/html; charset=utf-8"),
                ("transfer-encoding", b"chunked"),
                ("set-cookie", b"a=1"),
                ("set-cookie", b"b=2"),
            ],
            body: b"<html><a href=\"/a b\">x</a></html>".to_vec(),
        },
        Fetch {
            target: b"http://127.0.0.1:8001/empty",
            status: StatusCode::NO_CONTENT,
            headers: vec![],
            body: Vec::new(),
        },
        Fetch {
            target: b"http://127.0.0.1:8001/blob.bin",
            status: StatusCode::OK,
            headers: vec![("content-type", b"application/octet-stream")],
            body: binary,
        },
        Fetch {
            // What a page may link to: a space and a byte that is not UTF-8.
            target: b"http://127.0.0.1:8001/odd path/\xff?q=\"x\"",
            status: StatusCode::NOT_FOUND,
            headers: vec![("content-type", b"text/plain")],
            body: b"not here".to_vec(),
        },
    ]
}

const EXPECTED_URIS: [&str; 5] = [
    "http://127.0.0.1:8001/robots.txt",
    "http://127.0.0.1:8001/",
    "http://127.0.0.1:8001/empty",
    "http://127.0.0.1:8001/blob.bin",
    "http://127.0.0.1:8001/odd%20path/%FF?q=%22x%22",
];

fn info() -> WarcInfo {
    WarcInfo::new(
        RobotsMode::Obey,
        [
            "norobots",
            "crawl",
            "--warc-file=crawl",
            "http://127.0.0.1:8001/",
        ],
    )
    .field("http-header-user-agent", "norobots/0.1")
}

/// Writes the fetches the three ways the crawler can hand a body over.
fn write_fetches(writer: &mut WarcWriter, dir: &Path) {
    for (i, fetch) in fetches().iter().enumerate() {
        let date =
            datetime!(2024-05-01 12:00:00 UTC) + time::Duration::milliseconds(i as i64 * 1500);
        let capture = Capture::from_bytes(fetch.target, date).ip("127.0.0.1".parse().unwrap());
        let url = Url::parse(&String::from_utf8_lossy(fetch.target)).unwrap();
        let mut request_headers = HeaderMap::new();
        request_headers.insert("user-agent", HeaderValue::from_static("norobots/0.1"));
        request_headers.insert("accept", HeaderValue::from_static("*/*"));
        let request = warc::request_head(&Method::GET, &url, Version::HTTP_11, &request_headers);
        let mut headers = HeaderMap::new();
        for (name, value) in &fetch.headers {
            headers.append(*name, HeaderValue::from_bytes(value).unwrap());
        }
        let response = warc::response_head(Version::HTTP_11, fetch.status, &headers);
        match i % 3 {
            0 => {
                writer
                    .write_exchange(&capture, &request, &response, Body::Bytes(&fetch.body))
                    .unwrap();
            }
            1 => {
                let mut hasher = BlockHasher::new(&response);
                for chunk in fetch.body.chunks(4096) {
                    hasher.update(chunk);
                }
                let mut reader = &fetch.body[..];
                let body = Body::Reader {
                    reader: &mut reader,
                    digests: hasher.finish(),
                };
                writer
                    .write_exchange(&capture, &request, &response, body)
                    .unwrap();
            }
            _ => {
                let spool = dir.join(format!("spool-{i}"));
                std::fs::write(&spool, &fetch.body).unwrap();
                writer
                    .write_exchange(&capture, &request, &response, Body::File(&spool))
                    .unwrap();
            }
        }
    }
}

#[test]
fn a_crawl_reads_back_whole_with_digests_that_hold() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(warc::warc_path("crawl"));
    let mut writer = WarcWriter::create(&path, &info()).unwrap();
    write_fetches(&mut writer, dir.path());
    drop(writer);

    let records = decode(&path);
    assert_eq!(records.len(), 11);
    let info = &records[0];
    assert_eq!(info.field("WARC-Type"), Some("warcinfo"));
    assert_eq!(info.field("WARC-Filename"), Some("crawl.warc.gz"));
    let text = String::from_utf8(info.block.clone()).unwrap();
    for line in [
        "format: WARC File Format 1.1",
        "robots: obey",
        "norobots-arguments: \"norobots\" \"crawl\" \"--warc-file=crawl\" \"http://127.0.0.1:8001/\"",
        "http-header-user-agent: norobots/0.1",
    ] {
        assert!(text.contains(&format!("{line}\r\n")), "{line} in {text}");
    }
    let info_id = info.field("WARC-Record-ID").unwrap();
    let fetches = fetches();
    for (i, pair) in records[1..].chunks(2).enumerate() {
        let [request, response] = pair else {
            unreachable!()
        };
        assert_eq!(request.field("WARC-Type"), Some("request"));
        assert_eq!(response.field("WARC-Type"), Some("response"));
        assert_eq!(
            response.field("WARC-Concurrent-To"),
            request.field("WARC-Record-ID")
        );
        for record in pair {
            assert_eq!(record.field("WARC-Warcinfo-ID"), Some(info_id));
            assert_eq!(record.field("WARC-Target-URI"), Some(EXPECTED_URIS[i]));
            assert_eq!(record.field("WARC-IP-Address"), Some("127.0.0.1"));
        }
        assert_eq!(request.field("WARC-Date"), response.field("WARC-Date"));
        assert!(
            request.block.starts_with(b"GET /"),
            "{:?}",
            String::from_utf8_lossy(&request.block)
        );
        assert!(response.block.ends_with(&fetches[i].body));
        let head = String::from_utf8_lossy(
            &response.block[..response.block.len() - fetches[i].body.len()],
        );
        assert!(!head.contains("transfer-encoding"), "{head}");
    }
    assert_eq!(
        records[6].field("WARC-Payload-Digest"),
        Some("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ")
    );

    let Some(warcio) = warcio() else { return };
    warcio_check(&warcio, &path);
    let index = warcio_index(&warcio, &path);
    let mut expected = vec![("warcinfo".to_string(), None)];
    for uri in EXPECTED_URIS {
        expected.push(("request".to_string(), Some(uri.to_string())));
        expected.push(("response".to_string(), Some(uri.to_string())));
    }
    assert_eq!(index, expected);
}

#[test]
fn a_crawl_killed_mid_record_resumes_into_a_valid_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(warc::warc_path("crawl"));
    let mut writer = WarcWriter::create(&path, &info()).unwrap();
    write_fetches(&mut writer, dir.path());
    drop(writer);
    let full = std::fs::read(&path).unwrap();
    let ends = {
        // Where each gzip member ends: one record a member.
        let mut ends = Vec::new();
        let mut input = BufReader::new(&full[..]);
        let mut at = 0;
        while !input.fill_buf().unwrap().is_empty() {
            let mut sink = Vec::new();
            GzDecoder::new(&mut input).read_to_end(&mut sink).unwrap();
            at = full.len() - input.fill_buf().unwrap().len();
            ends.push(at as u64);
        }
        assert_eq!(at, full.len());
        ends
    };
    let warcio = warcio();
    let cut_path = dir.path().join("cut.warc.gz");
    // A kill inside the big binary response, inside a gzip trailer, just
    // after a header, and on a boundary.
    let big_start = ends[7] as usize;
    let cuts = [
        big_start + (ends[8] as usize - big_start) / 2,
        ends[3] as usize - 3,
        ends[1] as usize + 12,
        ends[4] as usize,
    ];
    for cut in cuts {
        std::fs::write(&cut_path, &full[..cut]).unwrap();
        let (mut writer, scan) = WarcWriter::append(&cut_path, &info()).unwrap();
        let kept = ends.iter().filter(|&&e| e <= cut as u64).count();
        assert_eq!(scan.records as usize, kept, "cut at {cut}");
        let torn = if ends.contains(&(cut as u64)) {
            Tail::Clean
        } else {
            Tail::Torn
        };
        assert_eq!(scan.tail, torn, "cut at {cut}");
        let url = Url::parse("http://127.0.0.1:8001/after").unwrap();
        let capture = Capture::new(&url, datetime!(2024-05-02 00:00:00 UTC));
        let request = warc::request_head(&Method::GET, &url, Version::HTTP_11, &HeaderMap::new());
        let response = warc::response_head(Version::HTTP_11, StatusCode::OK, &HeaderMap::new());
        writer
            .write_exchange(&capture, &request, &response, Body::Bytes(b"resumed"))
            .unwrap();
        drop(writer);

        let records = decode(&cut_path);
        assert_eq!(records.len(), kept + 3, "cut at {cut}");
        assert_eq!(records[kept].field("WARC-Type"), Some("warcinfo"));
        assert_eq!(
            records[kept + 2].field("WARC-Warcinfo-ID"),
            records[kept].field("WARC-Record-ID")
        );
        if let Some(warcio) = &warcio {
            warcio_check(warcio, &cut_path);
            let index = warcio_index(warcio, &cut_path);
            assert_eq!(index.len(), kept + 3);
            assert_eq!(
                index[kept..],
                [
                    ("warcinfo".to_string(), None),
                    ("request".to_string(), Some(url.to_string())),
                    ("response".to_string(), Some(url.to_string())),
                ]
            );
        }
    }
}

/// The warcio checks above can fail: `warcio check` rejects a record
/// whose payload digest is wrong, so its passing the files above means
/// something.
#[test]
fn warcio_check_catches_a_wrong_digest() {
    let Some(warcio) = warcio() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("forged.warc.gz");
    let block = b"HTTP/1.1 200 OK\r\n\r\nbody";
    let header = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000000>\r\n\
         WARC-Date: 2024-05-01T12:00:00.000000Z\r\nWARC-Target-URI: http://a.example/\r\n\
         WARC-Block-Digest: {}\r\nWARC-Payload-Digest: {}\r\n\
         Content-Type: application/http;msgtype=response\r\nContent-Length: {}\r\n\r\n",
        base32_sha1(block),
        base32_sha1(b"not the body"),
        block.len()
    );
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &[header.as_bytes(), block, b"\r\n\r\n"].concat()).unwrap();
    std::fs::write(&path, gz.finish().unwrap()).unwrap();
    let out = Command::new(&warcio)
        .args(["check", "-v"])
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_lowercase();
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("payload digest failed"), "{text}");
}
