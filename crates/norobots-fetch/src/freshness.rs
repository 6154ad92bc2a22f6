//! How long a robots.txt answer stays fresh: HTTP caching (RFC 9111, via
//! `http-cache-semantics`) within each dialect's default and cap.

use std::time::{Duration, SystemTime};

use http::header::{HeaderMap, HeaderValue};
use http_cache_semantics::{CacheOptions, CachePolicy};
use url::Url;

use crate::{Config, Fetch};

/// The longest an entry stays fresh, or a failed origin waits, whatever the
/// server or the configuration says. Lifetimes are added to the clocks, and
/// `Cache-Control: max-age=18446744073709551615` from a stranger's server
/// must not overflow them; to a crawler, a century is forever.
pub(crate) const FOREVER: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// HTTP's view of a fetched answer, as a private cache keeps it.
pub(crate) fn cache_policy(fetch: &Fetch, now: SystemTime) -> Option<CachePolicy> {
    let status = fetch.status?;
    Some(CachePolicy::new_options(
        &http_request(&fetch.url, &fetch.request_headers),
        &http_response(status, &fetch.headers),
        now,
        CacheOptions {
            shared: false,
            ..CacheOptions::default()
        },
    ))
}

/// The freshness lifetime of an answer: its HTTP lifetime when it gives
/// one (`Cache-Control` or `Expires`), else the dialect's default; never
/// more than the dialect's cap.
pub(crate) fn lifetime(
    config: &Config,
    fetch: &Fetch,
    policy: Option<&CachePolicy>,
    now: SystemTime,
) -> Duration {
    let h = &fetch.headers;
    let explicit = h.contains_key(http::header::EXPIRES)
        // Not `s-maxage`: it is for shared caches (RFC 9111 5.2.2.10),
        // and this one is private.
        || ["max-age", "no-cache", "no-store"]
            .iter()
            .any(|d| has_directive(h, d));
    let ttl = match policy {
        _ if has_directive(h, "no-store") => Duration::ZERO,
        // The HTTP cache does not know every status (403 say); their
        // lifetime is ours to give.
        Some(p) if explicit && understood(fetch.status) => p.time_to_live(now),
        _ => config.default_ttl,
    };
    match config.max_ttl {
        Some(max) => ttl.min(max),
        None => ttl,
    }
    .min(FOREVER)
}

fn understood(status: Option<u16>) -> bool {
    matches!(
        status,
        Some(200 | 203 | 204 | 300 | 301 | 302 | 303 | 307 | 308 | 404 | 405 | 410 | 414 | 501)
    )
}

pub(crate) fn has_directive(headers: &HeaderMap, directive: &str) -> bool {
    cache_control(headers).any(|d| {
        let name = d.split('=').next().unwrap_or("").trim();
        name.eq_ignore_ascii_case(directive)
    })
}

/// Every `Cache-Control` directive as written (`max-age=60`), over all the
/// header's lines; lines that are not text are skipped.
fn cache_control(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    headers
        .get_all(http::header::CACHE_CONTROL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
}

pub(crate) fn http_request(url: &Url, headers: &HeaderMap) -> http::Request<()> {
    let mut request = http::Request::new(());
    if let Ok(uri) = url.as_str().parse() {
        *request.uri_mut() = uri;
    }
    *request.headers_mut() = headers.clone();
    request
}

pub(crate) fn http_response(status: u16, headers: &HeaderMap) -> http::Response<()> {
    let mut response = http::Response::new(());
    *response.status_mut() = http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::OK);
    *response.headers_mut() = headers.clone();
    clamp_delta_seconds(response.headers_mut());
    response
}

/// RFC 9111 1.2.2: a cache MUST take a delta-seconds value too large to
/// represent as 2^31 (or its largest integer). `http-cache-semantics` reads
/// one past `u64` as no lifetime at all, which would refetch the file on
/// every check; so such values are rewritten to 2^31 before it sees them.
fn clamp_delta_seconds(headers: &mut HeaderMap) {
    fn overflows(directive: &str) -> bool {
        directive.split_once('=').is_some_and(|(_, value)| {
            let value = value.trim().trim_matches('"');
            !value.is_empty()
                && value.bytes().all(|b| b.is_ascii_digit())
                && value.parse::<u64>().is_err()
        })
    }
    if !cache_control(headers).any(overflows) {
        return;
    }
    let values: Vec<HeaderValue> = headers
        .get_all(http::header::CACHE_CONTROL)
        .iter()
        .cloned()
        .collect();
    headers.remove(http::header::CACHE_CONTROL);
    for value in values {
        let clamped = value.to_str().ok().and_then(|text| {
            let directives: Vec<String> = text
                .split(',')
                .map(|d| match d.split_once('=') {
                    Some((name, _)) if overflows(d) => format!("{name}={}", 1u64 << 31),
                    _ => d.to_owned(),
                })
                .collect();
            HeaderValue::from_str(&directives.join(",")).ok()
        });
        headers.append(http::header::CACHE_CONTROL, clamped.unwrap_or(value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Origin, RobotsCache};
    use norobots::Dialect;

    fn cache(dialect: Dialect) -> RobotsCache {
        RobotsCache::new(Config::new(dialect)).unwrap()
    }

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(
                http::header::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        h
    }

    fn ttl_of(dialect: Dialect, status: u16, pairs: &[(&str, &str)]) -> Duration {
        let c = cache(dialect);
        let o = Origin::of("http://a.example").unwrap();
        c.insert(&o, status, headers(pairs), b"User-agent: *\nDisallow: /x\n");
        c.entry("http://a.example/").unwrap().unwrap().ttl()
    }

    // Draft 3.4: "the default expiry ... 7 days"; RFC 9309 2.4: "SHOULD NOT
    // use the cached version for more than 24 hours".
    #[test]
    fn default_freshness_is_per_dialect() {
        assert_eq!(ttl_of(Dialect::Draft1996, 200, &[]).as_secs(), 7 * 86_400);
        assert_eq!(
            ttl_of(Dialect::Norobots1994, 200, &[]).as_secs(),
            7 * 86_400
        );
        assert_eq!(ttl_of(Dialect::Rfc9309, 200, &[]).as_secs(), 86_400);
        assert_eq!(ttl_of(Dialect::Google, 404, &[]).as_secs(), 86_400);
    }

    // RFC 9111 5.2.2.1: max-age; RFC 9309 2.4 caps it at a day.
    #[test]
    fn max_age_sets_freshness_within_the_dialects_cap() {
        let h = [("cache-control", "public, max-age=120")];
        assert_eq!(ttl_of(Dialect::Rfc9309, 200, &h).as_secs(), 120);
        let h = [("cache-control", "max-age=999999")];
        assert_eq!(ttl_of(Dialect::Rfc9309, 200, &h).as_secs(), 86_400);
        assert_eq!(ttl_of(Dialect::Draft1996, 200, &h).as_secs(), 999_999);
    }

    // RFC 9111 5.2.2.10: s-maxage is for shared caches; this one is private,
    // so a file with only s-maxage gets the default lifetime, not none.
    #[test]
    fn s_maxage_alone_leaves_the_default_lifetime() {
        for v in ["s-maxage=3600", "public, s-maxage=60"] {
            let h = [("cache-control", v)];
            assert_eq!(ttl_of(Dialect::Draft1996, 200, &h).as_secs(), 7 * 86_400);
            assert_eq!(ttl_of(Dialect::Rfc9309, 200, &h).as_secs(), 86_400);
        }
    }

    // RFC 9111 1.2.2: a max-age too large to represent is 2^31 seconds, not
    // zero (which would refetch the file on every check).
    #[test]
    fn max_age_past_u64_is_two_to_the_31_seconds() {
        let h = [("cache-control", "public, max-age=18446744073709551616")];
        assert_eq!(ttl_of(Dialect::Draft1996, 200, &h).as_secs(), 1 << 31);
        assert_eq!(ttl_of(Dialect::Rfc9309, 200, &h).as_secs(), 86_400);
        let h = [(
            "cache-control",
            "max-age=\"99999999999999999999999\", no-cache",
        )];
        assert_eq!(ttl_of(Dialect::Draft1996, 200, &h), Duration::ZERO);
    }

    // A stranger's server decides max-age; added to the clocks as it was,
    // u64::MAX seconds overflowed `Instant` and panicked. With no cap in the
    // legacy dialects, a century stands for forever.
    #[test]
    fn lifetimes_past_any_clock_are_a_century() {
        for v in [
            "max-age=18446744073709551615",
            "max-age=9223372036854775807",
        ] {
            let h = [("cache-control", v)];
            assert_eq!(ttl_of(Dialect::Norobots1994, 200, &h), FOREVER);
            assert_eq!(ttl_of(Dialect::Draft1996, 200, &h), FOREVER);
        }
        let h = [("expires", "Fri, 31 Dec 9999 23:59:59 GMT")];
        assert_eq!(ttl_of(Dialect::Draft1996, 200, &h), FOREVER);
        // The configuration cannot overflow them either.
        let config = Config::new(Dialect::Draft1996)
            .default_ttl(Duration::MAX)
            .retry(Duration::MAX, Duration::MAX);
        let c = RobotsCache::new(config).unwrap();
        for (status, host) in [(200, "http://a.example"), (503, "http://b.example")] {
            let o = Origin::of(host).unwrap();
            c.insert(
                &o,
                status,
                HeaderMap::new(),
                b"User-agent: *\nDisallow: /x\n",
            );
            let e = c.entry(host).unwrap().unwrap();
            assert_eq!((e.ttl(), e.is_fresh()), (FOREVER, true), "{status}");
        }
    }

    // RFC 9111 5.3: Expires, relative to Date.
    #[test]
    fn expires_in_the_past_is_stale_and_in_the_future_is_fresh() {
        let now = SystemTime::now();
        let date = httpdate::fmt_http_date(now);
        let past = httpdate::fmt_http_date(now - Duration::from_secs(3600));
        let future = httpdate::fmt_http_date(now + Duration::from_secs(3600));
        let t = ttl_of(
            Dialect::Draft1996,
            200,
            &[("date", &date), ("expires", &past)],
        );
        assert_eq!(t, Duration::ZERO);
        let t = ttl_of(
            Dialect::Draft1996,
            200,
            &[("date", &date), ("expires", &future)],
        );
        assert!(t.as_secs() > 3590 && t.as_secs() <= 3600, "{t:?}");
        let t = ttl_of(Dialect::Draft1996, 200, &[("expires", "0")]);
        assert_eq!(t, Duration::ZERO);
    }

    // RFC 9111 5.2.2.4 and 5.2.2.5: no-cache revalidates, no-store keeps
    // nothing.
    #[test]
    fn no_cache_and_no_store_mean_no_freshness() {
        assert_eq!(
            ttl_of(Dialect::Rfc9309, 200, &[("cache-control", "no-cache")]),
            Duration::ZERO
        );
        assert_eq!(
            ttl_of(Dialect::Rfc9309, 200, &[("cache-control", "No-Store")]),
            Duration::ZERO
        );
        let c = cache(Dialect::Rfc9309);
        let o = Origin::of("http://a.example").unwrap();
        c.insert(&o, 200, headers(&[("cache-control", "no-store")]), b"");
        assert!(!c.entry("http://a.example/").unwrap().unwrap().answer().good);
    }

    #[test]
    fn statuses_the_http_cache_does_not_know_get_the_default() {
        let h = [("cache-control", "max-age=60")];
        assert_eq!(ttl_of(Dialect::Rfc9309, 403, &h).as_secs(), 86_400);
        assert_eq!(ttl_of(Dialect::Rfc9309, 404, &h).as_secs(), 60);
    }
}
