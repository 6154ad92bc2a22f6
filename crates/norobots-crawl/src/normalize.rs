//! One spelling per URL, so that the seen set finds a page however a link
//! wrote it: the `url` crate lower-cases the scheme and host, drops a
//! default port and resolves dot segments; this module also drops the
//! fragment and normalises percent-encoding (RFC 3986 6.2.2: hex digits
//! upper-cased, unreserved characters decoded).

use url::Url;

/// `url` with its fragment dropped and its percent-encoding normalised.
///
/// ```
/// use url::Url;
/// use norobots_crawl::normalize::normalize;
///
/// let mut url = Url::parse("HTTP://Example.COM:80/a/../%7euser/%2f%e9?q=%41%2a#top").unwrap();
/// normalize(&mut url);
/// assert_eq!(url.as_str(), "http://example.com/~user/%2F%E9?q=A%2A");
/// ```
pub fn normalize(url: &mut Url) {
    url.set_fragment(None);
    if url.path().contains('%') {
        if let Some(path) = normalized_escapes(url.path()) {
            url.set_path(&path);
        }
    }
    if let Some(query) = url.query() {
        if query.contains('%') {
            if let Some(query) = normalized_escapes(query) {
                url.set_query(Some(&query));
            }
        }
    }
}

/// A link of a page at `base`, resolved and normalised; `None` for what a
/// web robot cannot fetch: a URL that does not parse, and schemes other
/// than `http` and `https` (`mailto:`, `javascript:`, `data:`, `ftp:`).
///
/// ```
/// use url::Url;
/// use norobots_crawl::normalize::resolve;
///
/// let base = Url::parse("http://a.test/docs/index.html").unwrap();
/// assert_eq!(resolve(&base, "../img/x.png#f").unwrap().as_str(), "http://a.test/img/x.png");
/// assert_eq!(resolve(&base, "//B.test/p").unwrap().as_str(), "http://b.test/p");
/// assert!(resolve(&base, "mailto:me@a.test").is_none());
/// assert!(resolve(&base, "http://[::1").is_none());
/// ```
pub fn resolve(base: &Url, href: &str) -> Option<Url> {
    let mut url = base.join(href).ok()?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return None;
    }
    normalize(&mut url);
    Some(url)
}

/// `text` with each `%xx` upper-cased, and decoded when it is an
/// unreserved character; `None` when nothing changes.
fn normalized_escapes(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            if let (Some(h), Some(l)) = (hex(bytes.get(i + 1)), hex(bytes.get(i + 2))) {
                let value = h << 4 | l;
                if value.is_ascii_alphanumeric() || matches!(value, b'-' | b'.' | b'_' | b'~') {
                    out.push(value as char);
                    changed = true;
                } else {
                    let upper = [
                        b'%',
                        bytes[i + 1].to_ascii_uppercase(),
                        bytes[i + 2].to_ascii_uppercase(),
                    ];
                    changed |= upper[1] != bytes[i + 1] || upper[2] != bytes[i + 2];
                    // Three ASCII octets.
                    out.push_str(std::str::from_utf8(&upper).unwrap_or_default());
                }
                i += 3;
                continue;
            }
        }
        // `text` is a str: copy whole characters.
        let len = utf8_len(b);
        out.push_str(&text[i..i + len]);
        i += len;
    }
    changed.then_some(out)
}

fn hex(b: Option<&u8>) -> Option<u8> {
    let b = *b?;
    (b as char).to_digit(16).map(|d| d as u8)
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn norm(s: &str) -> String {
        let mut u = Url::parse(s).unwrap();
        normalize(&mut u);
        u.to_string()
    }

    #[test]
    fn escapes_are_normalised_in_path_and_query_only() {
        assert_eq!(norm("http://a.test/%61%62c"), "http://a.test/abc");
        assert_eq!(norm("http://a.test/%3f%3F"), "http://a.test/%3F%3F");
        assert_eq!(norm("http://a.test/a%"), "http://a.test/a%");
        assert_eq!(norm("http://a.test/a%4"), "http://a.test/a%4");
        assert_eq!(norm("http://a.test/a%zz"), "http://a.test/a%zz");
        assert_eq!(
            norm("http://a.test/%C3%A9?x=%c3%a9"),
            "http://a.test/%C3%A9?x=%C3%A9"
        );
        assert_eq!(norm("http://a.test/?a=%7e"), "http://a.test/?a=~");
        assert_eq!(norm("http://a.test/caf\u{e9}"), "http://a.test/caf%C3%A9");
    }

    #[test]
    fn spellings_of_one_url_normalise_alike() {
        let same = [
            "http://A.test:80/x/./y/../%7Ez?q#f",
            "http://a.test/x/~z?q",
            "HTTP://a.TEST/x/%7ez?q#other",
        ];
        let first = norm(same[0]);
        for s in same {
            assert_eq!(norm(s), first, "{s}");
        }
    }

    proptest! {
        // Normalising twice changes nothing the first time did not.
        #[test]
        fn normalising_is_idempotent(path in "[a-zA-Z0-9%/._~?=&é-]{0,40}") {
            if let Ok(mut u) = Url::parse(&format!("http://a.test/{path}")) {
                normalize(&mut u);
                let once = u.to_string();
                normalize(&mut u);
                prop_assert_eq!(u.to_string(), once);
            }
        }
    }
}
