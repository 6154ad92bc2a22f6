//! The harness of the `fetch_answer` target: what a stranger's server
//! answers for `/robots.txt` (status, headers, body), stored in the cache
//! as a fetch would store it, for a URL from the same stranger.
//!
//! Input layout: `url 0xFF dialect status_hi status_lo headers \n\n body`.
//! The URL names the origin (a URL the `url` crate rejects falls back to
//! `http://a.example/`); `dialect` picks one of the four by its low two
//! bits; the status is `status_hi * 256 + status_lo` folded into 100..=999;
//! headers are `name: value` lines up to the first empty line, and lines
//! that are not a valid header are skipped.

use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use http::header::{HeaderMap, HeaderName, HeaderValue};
use norobots::Dialect;
use norobots_fetch::{parse_retry_after, Config, Origin, RobotsCache};

use crate::SEPARATOR;

const DAY: Duration = Duration::from_secs(86_400);

/// The cache's own bound on any lifetime (a century), whatever it is told.
const CENTURY: Duration = Duration::from_secs(100 * 365 * 86_400);

/// Stores the answer in `data` and reads the entry back, asserting what
/// the cache promises.
pub fn run(data: &[u8]) {
    let (raw_url, answer) = match data.iter().position(|&b| b == SEPARATOR) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&b"http://a.example/"[..], data),
    };
    let url = String::from_utf8_lossy(raw_url).into_owned();
    let [d, hi, lo, rest @ ..] = answer else {
        return;
    };
    let dialect = Dialect::ALL[usize::from(d & 3)];
    let status = 100 + u16::from_be_bytes([*hi, *lo]) % 900;
    let (head, body) = split_head(rest);

    let mut headers = HeaderMap::new();
    let now = SystemTime::now();
    for line in head.split(|&b| b == b'\n') {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(&line[..colon]),
            HeaderValue::from_bytes(line[colon + 1..].trim_ascii()),
        ) else {
            continue;
        };
        if let Ok(text) = value.to_str() {
            let wait = parse_retry_after(text, now);
            if let Ok(secs) = text.trim().parse::<u64>() {
                assert_eq!(wait, Some(Duration::from_secs(secs)));
            }
        }
        headers.append(name, value);
    }

    // `Origin::of` reads most URLs by hand, without the `url` crate, for
    // speed: it must come to the `url` crate's reading, or reject alike.
    let by_hand = Origin::of(&url).ok();
    let by_url_crate = url::Url::parse(&url)
        .ok()
        .and_then(|u| Origin::of_url(&u).ok());
    assert_eq!(
        by_hand.as_ref().map(Origin::as_str),
        by_url_crate.as_ref().map(Origin::as_str),
        "{url:?}"
    );
    let url_is_known = by_hand.is_some();
    let origin = match by_hand {
        Some(origin) => {
            // An origin is its own origin, and its robots.txt is on it.
            let again = Origin::of(origin.as_str()).expect("an origin parses");
            assert_eq!(again.as_str(), origin.as_str());
            let robots_url = origin.robots_url();
            assert!(robots_url.as_str().ends_with("/robots.txt"), "{robots_url}");
            origin
        }
        None => Origin::of("http://a.example/").expect("a plain origin parses"),
    };
    let config = Config::new(dialect)
        .connect_timeout(Duration::from_millis(1))
        .timeout(Duration::from_millis(1));
    let longest = match dialect {
        Dialect::Norobots1994 | Dialect::Draft1996 => CENTURY,
        // RFC 9309 2.4 caps freshness at a day, and waits after failures
        // are at most `retry_max`, a day by default.
        Dialect::Rfc9309 | Dialect::Google => DAY.max(config.retry_max),
    };
    let cache = RobotsCache::new(config).expect("a default cache builds");
    cache.insert(&origin, status, headers, body);

    // The entry is found again by the URL it came from.
    let lookup = if url_is_known {
        url.as_str()
    } else {
        "http://a.example/"
    };
    let entry = cache
        .entry(lookup)
        .expect("the URL parsed once")
        .unwrap_or_else(|| panic!("no entry for {lookup:?} (origin {})", origin.as_str()));
    assert_eq!(entry.origin().as_str(), origin.as_str());
    assert!(
        entry.ttl() <= longest,
        "{dialect:?} {status}: ttl {:?}",
        entry.ttl()
    );
    if entry.ttl().is_zero() {
        assert!(!entry.is_fresh(), "fresh with no lifetime");
    } else if entry.ttl() >= Duration::from_secs(60) {
        assert!(
            entry.is_fresh(),
            "stale at once with a lifetime of {:?}",
            entry.ttl()
        );
        // A check answers from the fresh entry: a miss would be a fetch
        // (kept from the network by the timeouts).
        let allowed = runtime().block_on(cache.is_allowed(lookup, "Googlebot"));
        assert!(allowed.is_ok(), "{allowed:?}");
        let metrics = cache.metrics();
        assert_eq!(
            (metrics.hits, metrics.misses),
            (1, 0),
            "{lookup:?} missed its entry"
        );
        // The URL as octets finds the same entry (only its origin is read
        // as text) and, when it is UTF-8, gets the answer its text gets.
        if url_is_known {
            let by_octets = runtime().block_on(cache.check_bytes(raw_url, "Googlebot"));
            let by_text = runtime().block_on(cache.check(&url, "Googlebot"));
            assert!(by_octets.is_ok(), "{by_octets:?}");
            if std::str::from_utf8(raw_url).is_ok() {
                assert_eq!(by_octets.ok(), by_text.ok(), "{url:?}");
            }
            assert_eq!(cache.metrics().misses, 0, "{url:?} missed its entry");
        }
    }
    if let Some(delay) = entry.crawl_delay("Googlebot") {
        assert!(delay.as_secs_f64() >= 0.0, "crawl-delay {delay:?}");
    }
    let matcher = entry.robots().matcher("Googlebot");
    let _ = matcher.is_allowed(&url);
    let _ = matcher.is_allowed("/");
    let _ = (entry.policy(), entry.is_html(), entry.stale());
}

/// One runtime for every input: `is_allowed` is async, though a hit never
/// waits.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime builds")
    })
}

/// The header block (up to the first empty line) and the body after it.
fn split_head(rest: &[u8]) -> (&[u8], &[u8]) {
    match rest.windows(2).position(|w| w == b"\n\n") {
        Some(i) => (&rest[..i], &rest[i + 2..]),
        None => (rest, &[]),
    }
}
