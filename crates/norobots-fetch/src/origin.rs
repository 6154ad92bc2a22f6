//! Where a URL's robots.txt lives: its origin, and `/robots.txt` on it.
//!
//! RFC 9309 2.3 and the 1996 draft (section 3.1) put the file at the top of
//! the origin: scheme, host and port all count, so `http://a.example:8001/`
//! and `https://a.example/` have different files. The host is what the
//! `url` crate makes of it (lower case, IDNA to punycode, IPv4 forms
//! normalised); userinfo and default ports drop out.

use std::fmt;

use url::Url;

use crate::Error;

/// The origin of an `http` or `https` URL: scheme, host and port, written as
/// `scheme://host[:port]` with the port only when it is not the default.
///
/// It is the cache's key: two URLs share a robots.txt exactly when their
/// origins are equal.
///
/// ```
/// use norobots_fetch::Origin;
///
/// let origin = Origin::of("HTTP://User:pw@WWW.Example.COM:80/a?b").unwrap();
/// assert_eq!(origin.as_str(), "http://www.example.com");
/// assert_eq!(origin.robots_url().as_str(), "http://www.example.com/robots.txt");
/// assert_eq!(Origin::of("http://www.bar.com:8001/x").unwrap().as_str(), "http://www.bar.com:8001");
/// assert!(Origin::of("ftp://example.com/").is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Origin(Box<str>);

impl Origin {
    /// The origin of `url`, a full `http` or `https` URL.
    ///
    /// ```
    /// use norobots_fetch::Origin;
    ///
    /// // IDNA hosts become punycode.
    /// assert_eq!(Origin::of("https://bücher.example/x").unwrap().as_str(), "https://xn--bcher-kva.example");
    /// ```
    pub fn of(url: &str) -> Result<Origin, Error> {
        let mut buf = KeyBuf::new();
        if let Some(key) = fast_key(url, &mut buf) {
            return Ok(Origin(key.into()));
        }
        let parsed = Url::parse(url).map_err(|source| Error::BadUrl {
            url: url.to_string(),
            source,
        })?;
        Origin::of_url(&parsed)
    }

    /// The origin of a parsed URL.
    ///
    /// ```
    /// use norobots_fetch::Origin;
    ///
    /// let url = url::Url::parse("https://example.com:8443/a").unwrap();
    /// assert_eq!(Origin::of_url(&url).unwrap().as_str(), "https://example.com:8443");
    /// ```
    pub fn of_url(url: &Url) -> Result<Origin, Error> {
        Ok(Origin(slow_key(url)?.into()))
    }

    /// The origin as `scheme://host[:port]`.
    ///
    /// ```
    /// assert_eq!(norobots_fetch::Origin::of("https://a.example/").unwrap().as_str(), "https://a.example");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The URL of this origin's robots.txt.
    ///
    /// ```
    /// let origin = norobots_fetch::Origin::of("http://[::1]:8080/x").unwrap();
    /// assert_eq!(origin.robots_url().as_str(), "http://[::1]:8080/robots.txt");
    /// ```
    pub fn robots_url(&self) -> Url {
        // An origin string is always a valid base; the join cannot fail.
        Url::parse(&format!("{}/robots.txt", self.0)).expect("an origin is a valid URL")
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Origin({:?})", &*self.0)
    }
}

/// The robots.txt URL for any `http`/`https` URL.
///
/// ```
/// let url = norobots_fetch::robots_url("http://www.bar.com:8001/x").unwrap();
/// assert_eq!(url.as_str(), "http://www.bar.com:8001/robots.txt");
/// ```
pub fn robots_url(url: &str) -> Result<Url, Error> {
    Ok(Origin::of(url)?.robots_url())
}

fn slow_key(url: &Url) -> Result<String, Error> {
    let scheme = url.scheme();
    if scheme != "http" && scheme != "https" {
        return Err(Error::UnsupportedScheme {
            url: url.to_string(),
        });
    }
    // The `url` crate gives every http(s) URL a host; one built some other
    // way is refused as the parser would refuse it.
    let host = match url.host() {
        Some(host) => host.to_string(),
        None => {
            return Err(Error::BadUrl {
                url: url.to_string(),
                source: url::ParseError::EmptyHost,
            })
        }
    };
    Ok(match url.port() {
        Some(port) => format!("{scheme}://{host}:{port}"),
        None => format!("{scheme}://{host}"),
    })
}

/// Room for the key of the fast path; longer hosts take the slow path.
pub(crate) struct KeyBuf {
    bytes: [u8; 128],
}

impl KeyBuf {
    pub(crate) fn new() -> KeyBuf {
        KeyBuf { bytes: [0; 128] }
    }
}

/// The origin key of `url` without parsing it into a [`Url`] and without
/// allocating, for the URLs where that is certain to give the same key:
/// `http`/`https`, an ASCII host of letters, digits, dots and hyphens that
/// cannot be an IPv4 address or punycode, and a plain port. Anything else
/// (userinfo, IPv6, `%`, non-ASCII, odd ports) returns `None` and goes
/// through the `url` crate.
///
/// The cache calls this on every check, where `Url::parse` would cost more
/// than the check itself. A URL already in canonical form (lower case, no
/// default port), as crawlers keep them, yields a slice of itself.
pub(crate) fn fast_key<'a>(url: &'a str, buf: &'a mut KeyBuf) -> Option<&'a str> {
    let b = url.as_bytes();
    let https = match b.get(..8) {
        Some(head) if head[..7].eq_ignore_ascii_case(b"http://") => false,
        Some(head) if head.eq_ignore_ascii_case(b"https://") => true,
        _ => return None,
    };
    let start = if https { 8 } else { 7 };
    let mut canonical = b[..start - 3].iter().all(u8::is_ascii_lowercase);
    let mut i = start;
    let mut label = start;
    while i < b.len() {
        match b[i] {
            b'a'..=b'z' | b'0'..=b'9' => {}
            b'-' => {}
            b'A'..=b'Z' => canonical = false,
            b'.' => {
                if i == label || is_punycode(&b[label..i]) {
                    return None;
                }
                label = i + 1;
            }
            b':' | b'/' | b'?' | b'#' => break,
            // `@`, `%`, `[`, a backslash, spaces, non-ASCII: the url crate's to read.
            _ => return None,
        }
        i += 1;
    }
    let host_end = i;
    let last = &b[label..host_end];
    // An empty host or last label (`a.example.`), punycode, or a last label
    // that makes the host an IPv4 address to the WHATWG parser (`0x7f.1`).
    let numeric = !last.is_empty() && last.iter().all(u8::is_ascii_digit);
    if last.is_empty()
        || is_punycode(last)
        || (numeric && !is_dotted_quad(&b[start..host_end]))
        || (last.len() >= 2 && last[0] == b'0' && (last[1] | 0x20) == b'x')
    {
        return None;
    }
    let mut end = host_end;
    let mut keep_port = false;
    if b.get(host_end) == Some(&b':') {
        let digits = host_end + 1;
        let mut j = digits;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j < b.len() && !matches!(b[j], b'/' | b'?' | b'#') {
            return None;
        }
        let port = &b[digits..j];
        if port.is_empty() || port.len() > 5 || port[0] == b'0' {
            return None;
        }
        let n = port.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
        if n > 65535 {
            return None;
        }
        keep_port = n != if https { 443 } else { 80 };
        canonical &= keep_port;
        end = j;
    }
    if canonical {
        return Some(&url[..end]);
    }
    let scheme: &[u8] = if https { b"https://" } else { b"http://" };
    let host = &b[start..host_end];
    let port = if keep_port {
        &b[host_end..end]
    } else {
        &[][..]
    };
    let len = scheme.len() + host.len() + port.len();
    let out = buf.bytes.get_mut(..len)?;
    out[..scheme.len()].copy_from_slice(scheme);
    for (o, &c) in out[scheme.len()..].iter_mut().zip(host) {
        *o = c.to_ascii_lowercase();
    }
    out[scheme.len() + host.len()..].copy_from_slice(port);
    // Only ASCII was written.
    std::str::from_utf8(out).ok()
}

/// Whether `host` is an IPv4 address as the WHATWG parser writes one: four
/// decimal parts of 0 to 255 without leading zeros (`127.0.0.1`); other
/// spellings (`0127.1`, `2130706433`) are the url crate's to read.
fn is_dotted_quad(host: &[u8]) -> bool {
    let mut parts = 0;
    for part in host.split(|&b| b == b'.') {
        parts += 1;
        let canonical = !part.is_empty()
            && part.len() <= 3
            && part.iter().all(u8::is_ascii_digit)
            && (part.len() == 1 || part[0] != b'0')
            && part.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0')) <= 255;
        if !canonical {
            return false;
        }
    }
    parts == 4
}

fn is_punycode(label: &[u8]) -> bool {
    label.len() >= 4 && label[..4].eq_ignore_ascii_case(b"xn--")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow(url: &str) -> Option<String> {
        Url::parse(url).ok().and_then(|u| slow_key(&u).ok())
    }

    fn fast(url: &str) -> Option<String> {
        let mut buf = KeyBuf::new();
        fast_key(url, &mut buf).map(str::to_string)
    }

    // Draft 3.1 / dialects.md: scheme, host and port all matter.
    #[test]
    fn origin_keeps_scheme_host_and_port() {
        assert_eq!(
            fast("http://www.bar.com:8001/x").unwrap(),
            "http://www.bar.com:8001"
        );
        assert_eq!(
            fast("https://www.bar.com:8001/x").unwrap(),
            "https://www.bar.com:8001"
        );
        assert_eq!(fast("http://www.bar.com/x").unwrap(), "http://www.bar.com");
    }

    // RFC 3986 6.2.3: a default port is the same origin as none.
    #[test]
    fn default_ports_drop_out() {
        assert_eq!(fast("http://a.example:80/").unwrap(), "http://a.example");
        assert_eq!(fast("https://a.example:443").unwrap(), "https://a.example");
        assert_eq!(
            fast("https://a.example:80").unwrap(),
            "https://a.example:80"
        );
    }

    #[test]
    fn userinfo_is_stripped() {
        assert_eq!(fast("http://u:p@a.example/"), None);
        assert_eq!(
            Origin::of("http://u:p@a.example/").unwrap().as_str(),
            "http://a.example"
        );
    }

    // The hot path: a canonical URL's key is a slice of the URL itself.
    #[test]
    fn canonical_urls_key_without_copying() {
        let mut buf = KeyBuf::new();
        let url = "https://a.example:8443/x?y";
        let key = fast_key(url, &mut buf).unwrap();
        assert_eq!(key, "https://a.example:8443");
        assert_eq!(key.as_ptr(), url.as_ptr());
        let mut buf = KeyBuf::new();
        assert_eq!(
            fast_key("http://A.example:80/", &mut buf).unwrap(),
            "http://a.example"
        );
    }

    #[test]
    fn odd_hosts_take_the_slow_path_and_agree() {
        for url in [
            "http://0x7f.1/",
            "http://[::1]/",
            "http://xn--bcher-kva.example/",
            "http://bücher.example/",
            "http://a.example./",
            "http://a..example/",
            "http://a.example:/",
            "http://a.example:080/",
            " http://a.example/",
            "http://a\texample/",
            "http://a%41.example/",
            "http:\\\\a.example\\x",
        ] {
            assert_eq!(fast(url), None, "{url}");
        }
        assert_eq!(slow("http://0x7f.1/").unwrap(), "http://127.0.0.1");
        assert_eq!(slow("http://a.example:080/").unwrap(), "http://a.example");
        assert_eq!(
            slow("http://bücher.example/").unwrap(),
            "http://xn--bcher-kva.example"
        );
    }

    #[test]
    fn other_schemes_are_refused() {
        assert!(Origin::of("ftp://a.example/").is_err());
        assert!(Origin::of("mailto:x@a.example").is_err());
        assert!(Origin::of("/just/a/path").is_err());
    }

    #[test]
    fn fast_and_slow_agree_on_usual_urls() {
        // The first four are the fast path's to take; a fast path that
        // refused them all would pass an agreement test on its own.
        for url in [
            "http://Example.COM/a",
            "HTTPS://example.com:8443?x",
            "http://example.com#frag",
            "http://a-b.c-d.example:65535/",
        ] {
            assert_eq!(fast(url), slow(url), "{url}");
            assert!(fast(url).is_some(), "{url}");
        }
        for url in [
            "http://a.example:65536/",
            "http://1.example/",
            "http://example.123abc/",
        ] {
            if let Some(f) = fast(url) {
                assert_eq!(Some(f), slow(url), "{url}");
            }
        }
    }

    // A crawler of its own machine asks about 127.0.0.1 all day: the fast
    // path takes a canonical IPv4 address, and leaves the others.
    #[test]
    fn dotted_quads_take_the_fast_path_and_odd_ones_do_not() {
        for (url, origin) in [
            ("http://127.0.0.1:8080/a", "http://127.0.0.1:8080"),
            ("https://10.0.0.255/", "https://10.0.0.255"),
        ] {
            assert_eq!(fast(url).as_deref(), Some(origin));
            assert_eq!(slow(url).as_deref(), Some(origin));
        }
        for odd in [
            "http://127.1/",
            "http://0127.0.0.1/",
            "http://256.0.0.1/",
            "http://1.2.3.4.5/",
            "http://2130706433/",
        ] {
            assert_eq!(fast(odd), None, "{odd}");
        }
    }

    /// Runs `strategy`'s cases through `fast` and `slow`: where the fast
    /// path answers, the url crate must answer the same. Returns how many
    /// the fast path answered, so that a test can require some: a fast
    /// path that refused everything would agree with anything.
    fn agreement(strategy: impl proptest::strategy::Strategy<Value = String>) -> u32 {
        let taken = std::cell::Cell::new(0);
        proptest::test_runner::TestRunner::default()
            .run(&strategy, |url| {
                if let Some(f) = fast(&url) {
                    taken.set(taken.get() + 1);
                    proptest::prop_assert_eq!(Some(f), slow(&url), "{}", url);
                }
                Ok(())
            })
            .unwrap();
        taken.get()
    }

    #[test]
    fn numeric_hosts_read_as_the_url_crate_reads_them() {
        use proptest::strategy::Strategy;
        // Half the hosts are dotted quads the fast path may take: drawn as
        // digits alone, four well-formed parts come about one case in a
        // hundred, and some runs drew none.
        let quad = proptest::array::uniform4(0u8..=255)
            .prop_map(|[a, b, c, d]| format!("{a}.{b}.{c}.{d}"));
        let host = proptest::prop_oneof![quad.boxed(), "[0-9]{1,4}(\\.[0-9]{1,4}){0,4}".boxed()];
        let urls = (host, proptest::option::of(":[0-9]{1,5}"))
            .prop_map(|(host, port)| format!("http://{host}{}/x", port.unwrap_or_default()));
        let taken = agreement(urls);
        assert!(taken > 0, "the fast path took no numeric host");
    }

    // Whatever the fast path accepts, the url crate reads the same way.
    #[test]
    fn fast_key_matches_the_url_crate() {
        use proptest::strategy::Strategy;
        let urls = (
            "(?i:https?)",
            proptest::option::of("[a-z:]{0,5}@"),
            "[a-zA-Z0-9.-]{1,20}",
            proptest::option::of(":[0-9]{0,6}"),
            "[/?#]?[a-z/]{0,5}",
        )
            .prop_map(|(scheme, user, host, port, rest)| {
                format!(
                    "{scheme}://{}{host}{}{rest}",
                    user.unwrap_or_default(),
                    port.unwrap_or_default()
                )
            });
        let taken = agreement(urls);
        assert!(taken > 0, "the fast path took no URL");
    }
}
