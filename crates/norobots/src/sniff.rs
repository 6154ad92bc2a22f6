//! What a body is when it is not robots.txt text at all: compressed,
//! UTF-16, or binary. Servers answer `/robots.txt` with all of these; the
//! parser reads any octets (and finds no field in them), so saying what
//! the body is belongs to whoever shows the result: `norobots parse` and
//! the linter both ask here.

/// A body that is not text a robots.txt parser can read.
///
/// ```
/// use norobots::{not_text, NotText};
///
/// assert_eq!(not_text(b"\x1f\x8b\x08\x00"), Some(NotText::Gzip));
/// assert_eq!(not_text("User-agent: *".encode_utf16().flat_map(u16::to_le_bytes).collect::<Vec<_>>().as_slice()),
///            Some(NotText::Utf16 { big_endian: false }));
/// assert_eq!(not_text(b"User-agent: *\nDisallow: /\n"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotText {
    /// A gzip stream (`1f 8b`): a file stored compressed and served
    /// without `Content-Encoding`.
    Gzip,
    /// UTF-16 text, by its byte order mark or by the NUL octet beside each
    /// ASCII character; RFC 9309 files are UTF-8.
    Utf16 {
        /// Whether the high octet comes first.
        big_endian: bool,
    },
    /// Octets that are not text: many control characters near the start.
    Binary,
}

impl NotText {
    /// What the body is, for a message: `gzip-compressed`, `UTF-16
    /// (little-endian) text`, `binary data`.
    ///
    /// ```
    /// assert_eq!(norobots::NotText::Binary.describe(), "binary data");
    /// ```
    pub fn describe(self) -> &'static str {
        match self {
            NotText::Gzip => "gzip-compressed",
            NotText::Utf16 { big_endian: false } => "UTF-16 (little-endian) text",
            NotText::Utf16 { big_endian: true } => "UTF-16 (big-endian) text",
            NotText::Binary => "binary data",
        }
    }
}

/// How much of the body is looked at: a verdict from the first kilobyte,
/// so that the cost does not grow with the body.
const HEAD: usize = 1024;

/// What `body` is, when it is not robots.txt text; `None` for text (an
/// HTML page is text: it is parsed, and finds nothing). A UTF-8 byte order
/// mark is skipped first, as the parser skips it.
///
/// ```
/// use norobots::{not_text, NotText};
///
/// assert_eq!(not_text(b"\xfe\xff\x00U\x00s"), Some(NotText::Utf16 { big_endian: true }));
/// assert_eq!(not_text(&[0u8, 1, 2, 3, 4, 5, 6, 7, 8, 14, 15, 16]), Some(NotText::Binary));
/// assert_eq!(not_text(b"<html><body>Not found</body></html>"), None);
/// assert_eq!(not_text(b""), None);
/// ```
pub fn not_text(body: &[u8]) -> Option<NotText> {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    if body.starts_with(b"\x1F\x8B") {
        return Some(NotText::Gzip);
    }
    if body.starts_with(b"\xFF\xFE") {
        return Some(NotText::Utf16 { big_endian: false });
    }
    if body.starts_with(b"\xFE\xFF") {
        return Some(NotText::Utf16 { big_endian: true });
    }
    let head = &body[..body.len().min(HEAD)];
    // ASCII in UTF-16 puts a NUL beside every character: most octets of
    // one parity are NUL, almost none of the other.
    if head.len() >= 8 {
        let nul_at = |parity: usize| {
            head.iter()
                .skip(parity)
                .step_by(2)
                .filter(|&&b| b == 0)
                .count()
        };
        let (even, odd, half) = (nul_at(0), nul_at(1), head.len() / 2);
        if odd * 10 >= half * 7 && even * 20 < half {
            return Some(NotText::Utf16 { big_endian: false });
        }
        if even * 10 >= half * 7 && odd * 20 < half {
            return Some(NotText::Utf16 { big_endian: true });
        }
    }
    let controls = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0B | 0x0C))
        .count();
    (controls >= 8 && controls * 20 >= head.len()).then_some(NotText::Binary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| {
                if big_endian {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    }

    #[test]
    fn utf16_is_found_with_and_without_a_byte_order_mark() {
        let text = "User-agent: *\r\nDisallow: /private/\r\n";
        for be in [false, true] {
            let bare = utf16(text, be);
            assert_eq!(not_text(&bare), Some(NotText::Utf16 { big_endian: be }));
            let mut marked = utf16("\u{FEFF}", be);
            marked.extend_from_slice(&bare);
            assert_eq!(not_text(&marked), Some(NotText::Utf16 { big_endian: be }));
        }
    }

    #[test]
    fn text_with_a_few_control_characters_or_nuls_is_text() {
        assert_eq!(not_text(b"User-agent: *\nDisallow: /a\x00b\n"), None);
        assert_eq!(not_text(b"\xef\xbb\xbfUser-agent: *\n"), None);
        let mut body = b"User-agent: *\nDisallow: /\n".repeat(40);
        body.extend_from_slice(b"\x01\x02\x03\x04\x05\x06\x07");
        assert_eq!(not_text(&body), None);
    }

    #[test]
    fn random_octets_are_binary_and_gzip_is_gzip() {
        // A deterministic stand-in for random data: every octet value.
        let all: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
        assert_eq!(not_text(&all), Some(NotText::Binary));
        assert_eq!(not_text(b"\xef\xbb\xbf\x1f\x8b"), Some(NotText::Gzip));
    }

    // Whatever the octets, the answer comes from the first kilobyte.
    #[test]
    fn only_the_head_is_read() {
        let mut body = b"User-agent: *\nDisallow: /\n".repeat(100);
        body.extend(std::iter::repeat_n(0u8, 1 << 20));
        assert_eq!(not_text(&body), None);
    }
}
