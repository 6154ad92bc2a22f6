//! The path of a URL as the rules see it, rewritten in a reused buffer
//! when the dialect says so.

use std::cell::RefCell;

use crate::dialect::Dialect;
use crate::pattern::{normalize, path_of};

thread_local! {

    /// Room for a URL path that must be rewritten before matching; reused so
    /// that checks do not allocate once a thread has seen its longest URL
    /// (up to `KEEP_SCRATCH` octets).
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The longest path rewritten in `SCRATCH`; a longer one gets a buffer of
/// its own, freed after the check. Kept, the rewrite of a hostile URL (three
/// octets for each it has outside US-ASCII in rfc9309) would stay allocated
/// for as long as the thread lives, on every thread that met one. Real URLs
/// are far shorter (crawlers stop at a few kilobytes).
const KEEP_SCRATCH: usize = 16 << 10;

/// The 1996 draft (3.1) and RFC 9309 (2.2.2) always allow `/robots.txt`.
pub(crate) fn exempts_robots_txt(dialect: Dialect, path: &[u8]) -> bool {
    matches!(dialect, Dialect::Draft1996 | Dialect::Rfc9309)
        && path.starts_with(b"/robots.txt")
        && matches!(path.get(11), None | Some(b'?') | Some(b';'))
}

/// Calls `f` with the path of `url` as rules see it in `dialect`.
pub(crate) fn with_path<R>(dialect: Dialect, url: &[u8], f: impl FnOnce(&[u8]) -> R) -> R {
    let path = path_of(dialect, url);
    if !path.slash && !path.rewrite {
        return f(path.bytes);
    }
    let canonical = |buf: &mut Vec<u8>| {
        buf.clear();
        if path.slash {
            buf.push(b'/');
        }
        // Copies the octets as they are when nothing needs rewriting.
        normalize(dialect, path.bytes, buf);
    };
    // A check from within a check, or from another thread-local's
    // destructor once this one's is gone, gets a buffer of its own; so does
    // a path too long to keep (see `KEEP_SCRATCH`).
    let mut f = Some(f);
    if path.bytes.len() < KEEP_SCRATCH {
        let kept = SCRATCH.try_with(|cell| {
            let mut buf = cell.try_borrow_mut().ok()?;
            canonical(&mut buf);
            f.take().map(|f| f(&buf))
        });
        if let Ok(Some(out)) = kept {
            return out;
        }
    }
    let mut buf = Vec::new();
    canonical(&mut buf);
    let f = f
        .take()
        .expect("not called when the scratch buffer was not used");
    f(&buf)
}

#[cfg(test)]
mod tests {
    use super::super::allowed;
    use super::{KEEP_SCRATCH, SCRATCH};
    use crate::dialect::Dialect;
    use crate::parse::ParseOptions;
    use crate::robots::Robots;

    // A hostile URL: a megabyte of octets that rfc9309 writes as `%XX`,
    // three times as long. The check must still answer, and the thread must
    // not keep the rewrite's buffer once it has.
    #[test]
    fn a_long_rewritten_url_leaves_no_large_buffer_behind() {
        let m = Robots::parse(b"User-agent: *\nDisallow: /%E9\n").matcher("bot");
        let mut url = b"/".to_vec();
        url.resize(1 << 20, 0xE9);
        assert!(!m.is_allowed_bytes(&url));
        assert!(m.is_allowed("/a%2fb"));
        let kept = SCRATCH.with(|buf| buf.borrow().capacity());
        assert!(kept <= 3 * KEEP_SCRATCH + 1, "{kept} octets kept");
    }

    // A fragment is never part of what is matched, whether the octets that
    // need rewriting come before it, after it, or not at all.
    #[test]
    fn fragment_is_cut_before_or_after_escapes() {
        let body = "User-agent: *\nDisallow: /abc$\nDisallow: /caf%C3%A9$\nAllow: /x/*$\n";
        let cases = [
            ("https://h/abc#frag", "/abc"),
            ("https://h/abc#%41", "/abc"),
            ("https://h/a%62c#x", "/a%62c"),
            ("https://h/caf\u{e9}#f", "/caf\u{e9}"),
            ("https://h/caf%C3%A9#%20", "/caf%C3%A9"),
            ("https://h/x/y#z", "/x/y"),
            ("https://h/abcd#", "/abcd"),
            ("https://h#abc", "/"),
        ];
        for d in [
            Dialect::Norobots1994,
            Dialect::Draft1996,
            Dialect::Rfc9309,
            Dialect::Google,
        ] {
            let robots = Robots::parse_with(body.as_bytes(), &ParseOptions::new(d));
            let m = robots.matcher("bot");
            for (url, path) in cases {
                assert_eq!(m.check(url), m.check(path), "{d:?} {url}");
            }
        }
    }

    #[test]
    fn robots_txt_is_exempt_where_the_dialect_says() {
        let body = "User-agent: *\nDisallow: /\n";
        assert!(allowed(Dialect::Rfc9309, body, "bot", "/robots.txt"));
        assert!(allowed(Dialect::Draft1996, body, "bot", "/robots.txt"));
        assert!(!allowed(Dialect::Google, body, "bot", "/robots.txt"));
        assert!(!allowed(Dialect::Norobots1994, body, "bot", "/robots.txt"));
        assert!(!allowed(Dialect::Rfc9309, body, "bot", "/robots.txt.bak"));
    }

    #[test]
    fn query_without_path_gets_a_slash() {
        let body = "User-agent: *\nDisallow: /?\n";
        assert!(!allowed(
            Dialect::Google,
            body,
            "bot",
            "http://example.com?x"
        ));
    }
}
