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
        let parsed = Url::parse(url).map_err(|e| Error::BadUrl {
            url: url.to_string(),
            reason: e.to_string(),
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
    let host = match url.host() {
        Some(host) => host.to_string(),
        None => {
            return Err(Error::BadUrl {
                url: url.to_string(),
                reason: "no host".to_string(),
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
/// returns `None` and goes through the `url` crate.
///
/// The cache calls this on every check; `Url::parse` would cost more than
/// the check itself.
pub(crate) fn fast_key<'a>(url: &'a str, buf: &'a mut KeyBuf) -> Option<&'a str> {
    let b = url.as_bytes();
    let (scheme, rest) = if b.len() > 7 && b[..7].eq_ignore_ascii_case(b"http://") {
        ("http", 7)
    } else if b.len() > 8 && b[..8].eq_ignore_ascii_case(b"https://") {
        ("https", 8)
    } else {
        return None;
    };
    let tail = &b[rest..];
    let end = tail
        .iter()
        .position(|&c| matches!(c, b'/' | b'?' | b'#'))
        .unwrap_or(tail.len());
    let mut authority = &tail[..end];
    if let Some(at) = authority.iter().rposition(|&c| c == b'@') {
        authority = &authority[at + 1..];
    }
    let (host, port) = match authority.iter().position(|&c| c == b':') {
        Some(i) => (&authority[..i], Some(&authority[i + 1..])),
        None => (authority, None),
    };
    if !plain_host(host) {
        return None;
    }
    let port = match port {
        None => None,
        Some(p) => {
            if p.is_empty() || p.len() > 5 || p[0] == b'0' || !p.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let n: u32 = p.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0'));
            let default = if scheme == "http" { 80 } else { 443 };
            if n > 65535 {
                return None;
            }
            (n != default).then_some(p)
        }
    };
    let len = scheme.len() + 3 + host.len() + port.map_or(0, |p| p.len() + 1);
    if len > buf.bytes.len() {
        return None;
    }
    let out = &mut buf.bytes[..len];
    out[..scheme.len()].copy_from_slice(scheme.as_bytes());
    let mut at = scheme.len();
    out[at..at + 3].copy_from_slice(b"://");
    at += 3;
    for (o, &c) in out[at..at + host.len()].iter_mut().zip(host) {
        *o = c.to_ascii_lowercase();
    }
    at += host.len();
    if let Some(p) = port {
        out[at] = b':';
        out[at + 1..].copy_from_slice(p);
    }
    // Only ASCII was written.
    std::str::from_utf8(out).ok()
}

/// A host the `url` crate would keep as it is, up to case: labels of
/// `[A-Za-z0-9-]`, none empty, none punycode, and a last label that is not
/// a number (the WHATWG parser reads `0x7f.1` or `1.2.3.4` as IPv4).
fn plain_host(host: &[u8]) -> bool {
    if host.is_empty() || host.len() > 100 {
        return false;
    }
    let mut label_start = 0;
    for (i, &c) in host.iter().enumerate() {
        match c {
            b'.' => {
                if i == label_start {
                    return false;
                }
                label_start = i + 1;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' => {}
            _ => return false,
        }
    }
    if label_start == host.len() {
        // A trailing dot: rare, and the url crate's to keep.
        return false;
    }
    for label in host.split(|&c| c == b'.') {
        if label.len() >= 4 && label[..4].eq_ignore_ascii_case(b"xn--") {
            return false;
        }
    }
    let last = &host[label_start..];
    let numeric = last.iter().all(u8::is_ascii_digit)
        || (last.len() >= 2 && last[0] == b'0' && (last[1] | 0x20) == b'x');
    !numeric
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
        assert_eq!(fast("http://u:p@a.example/").unwrap(), "http://a.example");
        assert_eq!(slow("http://u:p@a.example/").unwrap(), "http://a.example");
    }

    #[test]
    fn odd_hosts_take_the_slow_path_and_agree() {
        for url in [
            "http://0x7f.1/",
            "http://127.0.0.1:8080/",
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
        for url in [
            "http://Example.COM/a",
            "HTTPS://example.com:8443?x",
            "http://example.com#frag",
            "http://a-b.c-d.example:65535/",
            "http://a.example:65536/",
            "http://1.example/",
            "http://example.123abc/",
        ] {
            if let Some(f) = fast(url) {
                assert_eq!(Some(f), slow(url), "{url}");
            }
        }
    }

    proptest::proptest! {
        // Whatever the fast path accepts, the url crate reads the same way.
        #[test]
        fn fast_key_matches_the_url_crate(
            scheme in "(?i:https?)",
            user in proptest::option::of("[a-z:]{0,5}@"),
            host in "[a-zA-Z0-9.-]{1,20}",
            port in proptest::option::of(":[0-9]{0,6}"),
            rest in "[/?#]?[a-z/]{0,5}",
        ) {
            let url = format!("{scheme}://{}{host}{}{rest}", user.unwrap_or_default(), port.unwrap_or_default());
            if let Some(f) = fast(&url) {
                proptest::prop_assert_eq!(Some(f), slow(&url), "{}", url);
            }
        }
    }
}
