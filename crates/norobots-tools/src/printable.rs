//! Text from strangers, made safe to show on a terminal.
//!
//! A robots.txt, an HTML page and an access log are written by people the
//! reader of a report does not know: a User-Agent header or a requested
//! path can carry escape sequences that a terminal would obey (clear the
//! screen, set the window title, hide the rest of a line), and the Unicode
//! characters that reorder text can make a rule read as another. Reports
//! meant for people pass such text through [`printable`]; JSON output
//! escapes control characters by itself.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io;

/// `text` with every character a terminal would act on, or that reorders
/// what is shown, written as a visible escape instead: control characters
/// (C0 but the line feed, DEL, C1) as `\x1b` or `\u{9b}`, and the
/// bidirectional embeddings, overrides, isolates and marks as `\u{202e}`.
/// Borrows when there is nothing to escape (the usual case).
///
/// ```
/// use norobots_tools::printable;
///
/// assert_eq!(printable("Disallow: /private"), "Disallow: /private");
/// assert_eq!(printable("Evil\x1b]0;pwned\x07Bot"), "Evil\\x1b]0;pwned\\x07Bot");
/// assert_eq!(printable("/a\u{202e}txt.exe"), "/a\\u{202e}txt.exe");
/// assert_eq!(printable("two\nlines"), "two\nlines");
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    // Most text is printable ASCII up to its end: that much is passed over
    // an octet at a time, not decoded character by character.
    let plain = plain_ascii(text.as_bytes());
    let Some(first) = text[plain..].find(needs_escape).map(|i| plain + i) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if !needs_escape(c) {
            out.push(c);
        } else if c.is_ascii() {
            let _ = write!(out, "\\x{:02x}", c as u32);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
    Cow::Owned(out)
}

/// A writer that passes everything through [`printable`] on its way to the
/// inner one: for text reports that quote robots.txt files, pages and logs
/// that are often someone else's. Not for JSON (its own escapes suffice,
/// and `\u{..}` is not JSON) nor for `norobots check`'s verdict lines,
/// which echo the caller's URLs exactly.
///
/// Each write must hold whole characters, as `write!` and `writeln!` give
/// it; an octet that is not UTF-8 is shown as U+FFFD.
///
/// ```
/// use std::io::Write;
/// use norobots_tools::Escaped;
///
/// let mut out = Vec::new();
/// writeln!(Escaped(&mut out), "sitemap: {}", "http://x/\x1b]0;t\x07")?;
/// assert_eq!(out, b"sitemap: http://x/\\x1b]0;t\\x07\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Escaped<W>(pub W);

impl<W: io::Write> io::Write for Escaped<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if plain_ascii(buf) == buf.len() {
            // Nothing to escape and valid UTF-8: as it is.
            self.0.write_all(buf)?;
            return Ok(buf.len());
        }
        let text = String::from_utf8_lossy(buf);
        self.0.write_all(printable(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// How many octets `bytes` starts with that are printable ASCII or line
/// feeds, none of which [`printable`] escapes.
fn plain_ascii(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| !matches!(b, b' '..=b'~' | b'\n'))
        .unwrap_or(bytes.len())
}

/// Whether [`printable`] escapes `c`.
pub(crate) fn needs_escape(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_character_but_the_line_feed_is_escaped() {
        for c in (0u32..0x20).chain(0x7f..0xa0).filter_map(char::from_u32) {
            let shown = printable(&c.to_string()).into_owned();
            if c == '\n' {
                assert_eq!(shown, "\n");
            } else {
                assert!(shown.starts_with('\\'), "{c:?} -> {shown:?}");
                assert!(!shown.chars().any(|s| s.is_control()), "{c:?} -> {shown:?}");
            }
        }
        assert_eq!(printable("\t\r\x7f\u{9b}"), "\\x09\\x0d\\x7f\\u{9b}");
    }

    #[test]
    fn characters_that_reorder_text_are_escaped() {
        for c in [
            '\u{200e}', '\u{200f}', '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}',
        ] {
            assert_eq!(printable(&c.to_string()), format!("\\u{{{:x}}}", c as u32));
        }
    }

    #[test]
    fn escaped_writer_escapes_what_a_terminal_would_act_on_and_keeps_line_feeds() {
        use std::io::Write as _;
        let mut out = Vec::new();
        let sitemap = "http://x/\x1b]0;t\x07";
        writeln!(Escaped(&mut out), "sitemap (line 3): {sitemap}").unwrap();
        assert_eq!(out, b"sitemap (line 3): http://x/\\x1b]0;t\\x07\n");
    }

    #[test]
    fn other_text_is_borrowed_unchanged() {
        for text in [
            "",
            "/caf\u{e9}",
            "日本語/パス",
            "a\\x1b",
            "\u{fffd}",
            "emoji \u{1f916}",
        ] {
            assert!(matches!(printable(text), Cow::Borrowed(t) if t == text));
        }
    }

    proptest::proptest! {
        // Whatever a stranger wrote: nothing a terminal acts on is left,
        // the line feeds are kept, and what was plain is unchanged.
        #[test]
        fn any_text_comes_out_printable(chars in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::arbitrary::any::<char>(),
                proptest::sample::select(
                    &['\x1b', '\x07', '\t', '\r', '\n', '\x7f', '\u{9b}', '\u{202e}', '\u{2066}', '\\', 'a', '/'][..],
                ),
            ],
            0..64,
        )) {
            let text: String = chars.into_iter().collect();
            let shown = printable(&text);
            proptest::prop_assert!(!shown.chars().any(needs_escape));
            proptest::prop_assert_eq!(shown.matches('\n').count(), text.matches('\n').count());
            let plain: String = text.chars().filter(|&c| !needs_escape(c)).collect();
            let kept: String = shown.chars().filter(|&c| c != '\\').collect();
            let plain_kept: String = plain.chars().filter(|&c| c != '\\').collect();
            proptest::prop_assert!(is_subsequence(&plain_kept, &kept), "{:?} -> {:?}", text, shown);
            proptest::prop_assert_eq!(printable(&shown), shown.clone());
        }
    }

    // The writer's shortcut for plain ASCII changes nothing: whatever the
    // octets, it writes what `printable` makes of their text. Only the
    // shortcut's inputs test anything (the writer hands the others to
    // `printable` itself), so half the inputs are plain text, which random
    // octets of any length but the shortest almost never are, and some
    // must take it.
    #[test]
    fn the_writer_writes_what_printable_shows() {
        use proptest::strategy::Just;
        use std::io::Write as _;
        let plain =
            proptest::collection::vec(proptest::prop_oneof![b' '..=b'~', Just(b'\n')], 1..64);
        let any = proptest::collection::vec(
            proptest::prop_oneof![
                proptest::arbitrary::any::<u8>(),
                proptest::sample::select(&[b'\t', b'\n', b'\r', 0x7f, b' ', b'~', b'a'][..]),
            ],
            0..64,
        );
        let shortcut = std::cell::Cell::new(0);
        proptest::test_runner::TestRunner::default()
            .run(&proptest::prop_oneof![plain, any], |bytes| {
                if !bytes.is_empty() && plain_ascii(&bytes) == bytes.len() {
                    shortcut.set(shortcut.get() + 1);
                }
                let mut out = Vec::new();
                Escaped(&mut out).write_all(&bytes).unwrap();
                let want = printable(&String::from_utf8_lossy(&bytes)).into_owned();
                proptest::prop_assert_eq!(String::from_utf8(out).unwrap(), want);
                Ok(())
            })
            .unwrap();
        assert!(shortcut.get() > 0, "no input took the shortcut");
    }

    fn is_subsequence(small: &str, big: &str) -> bool {
        let mut big = big.chars();
        small.chars().all(|c| big.any(|b| b == c))
    }

    #[test]
    fn escaping_twice_changes_nothing_more() {
        let once = printable("a\x1b[2Jb\u{202e}c\u{85}").into_owned();
        assert_eq!(once, "a\\x1b[2Jb\\u{202e}c\\u{85}");
        assert_eq!(printable(&once), once);
    }
}
