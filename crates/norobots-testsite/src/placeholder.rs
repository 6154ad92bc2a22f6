//! `{origin:NAME}` in bodies and headers, replaced by the origin's URL once
//! its port is known.
//!
//! The scan is on bytes, so binary bodies pass through untouched unless they
//! hold the exact marker; a body without one is not copied.

use bytes::Bytes;
use memchr::memmem;

const OPEN: &[u8] = b"{origin:";

/// `text` with every `{origin:NAME}` replaced by `url(NAME)`; the first name
/// that `url` does not know is the error.
pub(crate) fn expand<'a>(
    text: &Bytes,
    url: impl Fn(&str) -> Option<&'a str>,
) -> Result<Bytes, String> {
    let Some(first) = memmem::find(text, OPEN) else {
        return Ok(text.clone());
    };
    let mut out = Vec::with_capacity(text.len() + 16);
    let mut rest = &text[..];
    let mut at = first;
    loop {
        out.extend_from_slice(&rest[..at]);
        let after = &rest[at + OPEN.len()..];
        let Some(close) = memchr::memchr(b'}', after) else {
            // An opening without a close is text, not a placeholder.
            out.extend_from_slice(&rest[at..]);
            return Ok(out.into());
        };
        let name = String::from_utf8_lossy(&after[..close]);
        match url(&name) {
            Some(u) => out.extend_from_slice(u.as_bytes()),
            None => return Err(name.into_owned()),
        }
        rest = &after[close + 1..];
        match memmem::find(rest, OPEN) {
            Some(next) => at = next,
            None => {
                out.extend_from_slice(rest);
                return Ok(out.into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(name: &str) -> Option<&'static str> {
        match name {
            "a" => Some("http://127.0.0.1:1000"),
            "b" => Some("http://127.0.0.1:2000"),
            _ => None,
        }
    }

    fn run(text: &str) -> Result<String, String> {
        expand(&Bytes::copy_from_slice(text.as_bytes()), urls)
            .map(|b| String::from_utf8(b.to_vec()).unwrap())
    }

    #[test]
    fn replaces_every_marker() {
        assert_eq!(
            run("<a href=\"{origin:a}/x\">{origin:b}</a>{origin:a}").unwrap(),
            "<a href=\"http://127.0.0.1:1000/x\">http://127.0.0.1:2000</a>http://127.0.0.1:1000"
        );
    }

    #[test]
    fn text_without_markers_is_shared_not_copied() {
        let text = Bytes::from_static(b"plain {origin text");
        let out = expand(&text, urls).unwrap();
        assert_eq!(out, text);
        assert_eq!(out.as_ptr(), text.as_ptr());
    }

    #[test]
    fn an_unknown_name_is_an_error() {
        assert_eq!(run("{origin:a} {origin:zz}/x"), Err("zz".to_owned()));
    }

    #[test]
    fn an_unclosed_marker_stays() {
        assert_eq!(
            run("x {origin:a} {origin:b").unwrap(),
            "x http://127.0.0.1:1000 {origin:b"
        );
    }
}
