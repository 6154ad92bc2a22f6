//! Paths and patterns: what part of a URL is matched, how `%xx` escapes are
//! brought to one form in each dialect, and how a `*` pattern is matched.

use memchr::{memchr, memmem};

use crate::dialect::Dialect;
use crate::rule_kind::RuleKind;
use crate::scan::{find_any, find_any_or_high, has_percent_or_non_ascii};
use crate::work;

/// The part of a URL that rules match: path, `;params` and `?query`, without
/// the fragment, `/` when empty.
///
/// This is the reference library's reading of a URL (`GetPathParamsQuery`),
/// done without allocating because it runs on every check; a caller may pass
/// a bare path too.
pub(crate) struct UrlPath<'u> {
    /// The octets, a slice of the URL.
    pub bytes: &'u [u8],
    /// Whether a `/` must be put in front (a URL like `http://h?q` has a
    /// query but no path).
    pub slash: bool,
    /// Whether [`normalize`] would change the octets in the dialect asked.
    pub rewrite: bool,
}

/// Reads `url` as [`UrlPath`] says, for `dialect`.
pub(crate) fn path_of(dialect: Dialect, url: &[u8]) -> UrlPath<'_> {
    let Some(p) = path_start(url) else {
        return UrlPath {
            bytes: b"/",
            slash: false,
            rewrite: false,
        };
    };
    let rest = &url[p..];
    // One pass finds the fragment together with the first octet that makes
    // the path need rewriting (the octets `needs_normalizing` looks for):
    // most paths have neither, and are then scanned only once.
    let stop = match dialect {
        Dialect::Rfc9309 => find_any_or_high::<2, true>(rest, *b"#%"),
        Dialect::Draft1996 => find_any(rest, *b"#%"),
        Dialect::Norobots1994 | Dialect::Google => find_any(rest, [b'#']),
    };
    let (end, rewrite) = match stop {
        None => (rest.len(), false),
        Some(i) if rest[i] == b'#' => (i, false),
        Some(i) => (
            find_any(&rest[i..], [b'#']).map_or(rest.len(), |h| i + h),
            true,
        ),
    };
    UrlPath {
        bytes: &rest[..end],
        slash: rest[0] != b'/',
        rewrite,
    }
}

/// Where the path of `url` starts (at its `/`, or at a `?` or `;` that
/// comes first), as [`path_of`] reads it; `None` when the URL has no path
/// or a fragment comes first, so that the path is `/`.
#[inline]
fn path_start(url: &[u8]) -> Option<usize> {
    // Nearly every URL a crawler checks starts so; the general reading
    // below comes to the same for them (the first stop is the `/` after the
    // `:`, and another `/` follows).
    let host = if url.starts_with(b"https://") {
        Some(8)
    } else if url.starts_with(b"http://") {
        Some(7)
    } else {
        None
    };
    match host {
        Some(host) => find_path(url, host).filter(|&p| url[p] != b'#'),
        None => path_start_of_any(url),
    }
}

/// [`path_start`] for any URL.
fn path_start_of_any(url: &[u8]) -> Option<usize> {
    let search_start = if url.starts_with(b"//") { 2 } else { 0 };
    // The reference looks for `://` and ignores it when a `/`, `?` or `;`
    // comes first. Since `://` holds a `/`, that comes to: the first of
    // those octets is a `/` right after a `:` and right before a `/`.
    let early = find_path(url, search_start);
    let path_start = match early {
        Some(e) if e > search_start && url[e - 1] == b':' && url.get(e + 1) == Some(&b'/') => {
            find_path(url, e + 2)
        }
        _ => early,
    };
    // No path, or a fragment before it: the path is `/`.
    path_start.filter(|&p| url[p] != b'#')
}

/// The first `/`, `?`, `;` or `#` of `url` from `from` on: where a path (or
/// a fragment) may start.
#[inline]
fn find_path(url: &[u8], from: usize) -> Option<usize> {
    find_any(&url[from..], *b"/?;#").map(|i| from + i)
}

/// Whether [`normalize`] would change `bytes` in `dialect`.
pub(crate) fn needs_normalizing(dialect: Dialect, bytes: &[u8]) -> bool {
    match dialect {
        Dialect::Rfc9309 => has_percent_or_non_ascii(bytes),
        Dialect::Draft1996 => {
            let found = memchr(b'%', bytes);
            work::scanned(found, bytes.len());
            found.is_some()
        }
        // The reference library leaves the URL as given.
        Dialect::Norobots1994 | Dialect::Google => false,
    }
}

/// Appends a rule's pattern to `out` in the form it is matched in, when
/// that differs from `raw`: as a URL path would be rewritten, but in
/// `google` the pattern is escaped (see [`escape_google_pattern`]). False,
/// with nothing appended, when `raw` is already in that form (most are).
pub(crate) fn rewrite_pattern(dialect: Dialect, raw: &[u8], out: &mut Vec<u8>) -> bool {
    match dialect {
        Dialect::Google if has_percent_or_non_ascii(raw) => escape_google_pattern(raw, out),
        Dialect::Google => return false,
        _ if needs_normalizing(dialect, raw) => normalize(dialect, raw, out),
        _ => return false,
    }
    true
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn push_escaped(out: &mut Vec<u8>, b: u8) {
    out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// Appends `bytes` to `out` in the dialect's canonical form, used on both
/// sides of a comparison (rule pattern and URL path):
///
/// * `rfc9309` (RFC 9309 2.2.2): non-ASCII octets are percent-encoded,
///   `%xx` of an unreserved character is decoded, other `%xx` upper-cased;
/// * `draft1996` (draft 3.2.2): every `%xx` is decoded but `%2F`, which keeps
///   its special meaning apart from `/`;
/// * `norobots1994` compares octets as they are.
///
/// For `google` see [`escape_google_pattern`]: the reference library treats
/// the pattern and the URL differently.
pub(crate) fn normalize(dialect: Dialect, bytes: &[u8], out: &mut Vec<u8>) {
    if !needs_normalizing(dialect, bytes) {
        work::add_with(move || bytes.len());
        out.extend_from_slice(bytes);
        return;
    }
    work::add_with(move || bytes.len());
    out.reserve(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let decoded = if b == b'%' {
            match (
                bytes.get(i + 1).copied().and_then(hex_value),
                bytes.get(i + 2).copied().and_then(hex_value),
            ) {
                (Some(h), Some(l)) => Some(h << 4 | l),
                _ => None,
            }
        } else {
            None
        };
        match (dialect, decoded) {
            (Dialect::Rfc9309, Some(v)) if is_unreserved(v) => out.push(v),
            (Dialect::Rfc9309, Some(v)) => push_escaped(out, v),
            (Dialect::Rfc9309, None) if b >= 0x80 => {
                push_escaped(out, b);
                i += 1;
                continue;
            }
            (Dialect::Draft1996, Some(b'/')) => out.extend_from_slice(b"%2F"),
            (Dialect::Draft1996, Some(v)) => out.push(v),
            _ => {
                out.push(b);
                i += 1;
                continue;
            }
        }
        i += 3;
    }
}

/// The reference library's `MaybeEscapePattern`: a rule's non-ASCII octets
/// are percent-encoded and the hex digits of its `%xx` upper-cased; nothing
/// is decoded, and the URL is left as given.
fn escape_google_pattern(bytes: &[u8], out: &mut Vec<u8>) {
    work::add_with(move || bytes.len());
    out.reserve(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%'
            && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            out.extend_from_slice(&[
                b'%',
                bytes[i + 1].to_ascii_uppercase(),
                bytes[i + 2].to_ascii_uppercase(),
            ]);
            i += 3;
        } else if b >= 0x80 {
            push_escaped(out, b);
            i += 1;
        } else {
            out.push(b);
            i += 1;
        }
    }
}

/// The part of a pattern from its first `*` on: `*.php?*id=$` is the
/// segments `.php?` and `id=` and an end anchor.
///
/// It keeps the span of that text, not a list of its segments: a matcher
/// holds one per `*` rule, and a list was an allocation each while the
/// matcher was built. The segments are split out only when a check gets as
/// far as matching the glob, after its octet filter and the tail index have
/// passed over most globs.
#[derive(Clone, Debug, Default)]
pub(crate) struct Glob {
    /// The text from the first `*` on, without a final `$`: a span of the
    /// matcher's arena.
    pub tail: (u32, u32),
    /// Whether the last segment must end the path ([`Parts::last_ends`]).
    pub last_ends: bool,
    /// The segments' total length: a shorter path cannot match.
    pub min_len: u32,
    /// Every octet of the segments: a path that lacks one cannot match.
    pub needs: OctetFilter,
}

/// Which octets a string holds, one bit per class of octets, in one word.
///
/// A check gathers the octets of its path once, the first time it tries a
/// `*` rule, and passes over the rules that need an octet the path lacks
/// (`?`, `=`, `.`) without searching for their segments. Letters (either
/// case), digits and the punctuation of URLs each have a bit of their own,
/// so the filter is as sharp as a 256-bit set on real rules; other octets
/// share the last bits. A word in registers, where a 256-bit set was
/// updated in memory, octet by octet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct OctetFilter(u64);

/// The octets with a bit of their own in an [`OctetFilter`] besides letters
/// and digits, after them in bit order.
const PUNCTUATION: &[u8; 20] = b"./-_?=&%~+,;:!*$@()'";

/// Each octet's bit in an [`OctetFilter`] (see there).
static FILTER_BIT: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        // Everything else: bits 56 to 63.
        table[b] = 56 + (b & 7) as u8;
        b += 1;
    }
    let mut i = 0;
    while i < 26 {
        table[b'a' as usize + i] = i as u8;
        table[b'A' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 10 {
        table[b'0' as usize + i] = 26 + i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < PUNCTUATION.len() {
        table[PUNCTUATION[i] as usize] = 36 + i as u8;
        i += 1;
    }
    table
};

impl OctetFilter {
    /// The filter of `bytes`.
    pub fn of(bytes: &[u8]) -> OctetFilter {
        work::add_with(move || bytes.len());
        // Four words, one per octet of every four, so that octets in a row
        // do not each wait for the one before.
        let mut words = [OctetFilter::default(); 4];
        let mut chunks = bytes.chunks_exact(4);
        for chunk in &mut chunks {
            for (word, &b) in words.iter_mut().zip(chunk) {
                word.insert(b);
            }
        }
        for (word, &b) in words.iter_mut().zip(chunks.remainder()) {
            word.insert(b);
        }
        let [a, b, c, d] = words.map(|w| w.0);
        OctetFilter(a | b | c | d)
    }

    /// Adds `b` to the filter.
    #[inline]
    pub fn insert(&mut self, b: u8) {
        self.0 |= 1 << FILTER_BIT[usize::from(b)];
    }

    /// The octets that both filters' strings hold.
    #[inline]
    pub fn intersection(&self, other: &OctetFilter) -> OctetFilter {
        OctetFilter(self.0 & other.0)
    }

    /// The octets other than letters and digits that the string holds for
    /// certain, in the order of `PUNCTUATION`: those with a bit of their own.
    pub fn punctuation(&self) -> impl Iterator<Item = u8> + '_ {
        PUNCTUATION
            .iter()
            .copied()
            .filter(|&b| OctetFilter::of(&[b]).within(self))
    }

    /// Whether a string whose filter is `other` may hold every octet of a
    /// string whose filter is `self` (it surely lacks one if not).
    #[inline]
    pub fn within(&self, other: &OctetFilter) -> bool {
        self.0 & !other.0 == 0
    }
}

impl Glob {
    /// A glob over `tail`, the text from a pattern's first `*` on (see
    /// [`Parts::tail`]), which lies at `at` in the arena it will match with.
    pub fn new(tail: &[u8], at: u32, last_ends: bool) -> Glob {
        let mut min_len = 0u32;
        // Octet by octet into one word: tails are short, and
        // `OctetFilter::of` sets up four words to be quick on long paths.
        let mut needs = OctetFilter::default();
        work::add_with(move || tail.len());
        for &o in tail {
            if o != b'*' {
                min_len += 1;
                needs.insert(o);
            }
        }
        Glob {
            tail: (at, at + tail.len() as u32),
            last_ends,
            min_len,
            needs,
        }
    }

    /// What lies between the `*`s, empty pieces left out.
    pub fn segments<'a>(
        &self,
        arena: &'a [u8],
    ) -> impl DoubleEndedIterator<Item = &'a [u8]> + Clone {
        segments_of(&arena[self.tail.0 as usize..self.tail.1 as usize])
    }

    /// Whether the glob matches `text` (the path after the literal prefix).
    pub fn matches(&self, arena: &[u8], text: &[u8]) -> bool {
        text.len() >= self.min_len as usize
            && segments_match(self.segments(arena), self.last_ends, text)
    }
}

/// A rule's pattern (after any rewrite) cut where matching needs it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parts<'p> {
    /// Up to the first `*`, or all of it without a final `$`.
    pub literal: &'p [u8],
    /// From the first `*` on, without a final `$`; empty without a `*`.
    pub tail: &'p [u8],
    /// Whether a final `$` anchors the pattern.
    pub anchored: bool,
}

impl<'p> Parts<'p> {
    /// Cuts `pattern`; in the legacy dialects `*` and `$` are octets like
    /// any other.
    pub fn of(dialect: Dialect, pattern: &'p [u8]) -> Parts<'p> {
        if dialect.is_legacy() {
            return Parts {
                literal: pattern,
                tail: &[],
                anchored: false,
            };
        }
        let (body, anchored) = match pattern.split_last() {
            Some((b'$', rest)) => (rest, true),
            _ => (pattern, false),
        };
        let star = memchr(b'*', body);
        work::scanned(star, body.len());
        let (literal, tail) = body.split_at(star.unwrap_or(body.len()));
        Parts {
            literal,
            tail,
            anchored,
        }
    }

    /// What lies between the tail's `*`s, empty pieces left out.
    pub fn segments(&self) -> impl DoubleEndedIterator<Item = &'p [u8]> + Clone {
        segments_of(self.tail)
    }

    /// Whether the last segment must end the path: a `$` not after a `*`.
    pub fn last_ends(&self) -> bool {
        self.anchored && self.tail.last() != Some(&b'*')
    }
}

/// What lies between the `*`s of a tail, empty pieces left out.
fn segments_of(tail: &[u8]) -> impl DoubleEndedIterator<Item = &[u8]> + Clone {
    // Counted whole: whoever splits a tail mostly goes through it.
    work::add_with(move || tail.len());
    tail.split(|&b| b == b'*').filter(|s| !s.is_empty())
}

/// The rule that an `Allow` of `pattern` implies in `google`, and the
/// length it ranks by: the reference library allows `/x/` for an Allow of
/// `/x/index.htm` or `/x/index.html` (or longer), as if `Allow: /x/$` were
/// written too.
pub(crate) fn index_html_rule(
    dialect: Dialect,
    kind: RuleKind,
    pattern: &[u8],
) -> Option<(Parts<'_>, usize)> {
    if dialect != Dialect::Google || kind != RuleKind::Allow {
        return None;
    }
    work::add_with(move || pattern.len());
    let slash = pattern.iter().rposition(|&b| b == b'/')?;
    if !pattern[slash..].starts_with(b"/index.htm") {
        return None;
    }
    let dir = &pattern[..=slash];
    let parts = Parts {
        anchored: true,
        ..Parts::of(dialect, dir)
    };
    Some((parts, dir.len() + 1))
}

/// Whether the segments of a pattern's tail (what lies between its `*`s)
/// occur in `text` in order; with `last_ends` (a `$` not after a `*`), the
/// last must end `text`.
///
/// Taking the leftmost place for each segment is enough: `*` absorbs
/// anything, so an earlier end never loses a match. Each search starts
/// where the last one ended, so the cost is linear in the text.
pub(crate) fn segments_match<'s>(
    mut segments: impl DoubleEndedIterator<Item = &'s [u8]>,
    last_ends: bool,
    mut text: &[u8],
) -> bool {
    if last_ends {
        // The cheapest test first.
        let Some(last) = segments.next_back() else {
            return true;
        };
        work::add_with(move || last.len());
        if !text.ends_with(last) {
            return false;
        }
        text = &text[..text.len() - last.len()];
    }
    let mut pos = 0;
    for seg in segments {
        match find(&text[pos..], seg) {
            Some(at) => pos += at + seg.len(),
            None => return false,
        }
    }
    true
}

/// Needles up to this long are searched for without `memmem` (see `find`).
///
/// `memmem::find` builds a searcher for its needle on every call, and for
/// a needle of tens of octets that costs more than the search: with the
/// bound at 8, www.selfridges.com (`*/cat/jewellery-watches/…`) took 230.1
/// ns a URL and workswith.elavon.com (`/*ILinkListener-popularSlider-…`)
/// 171.5; at 64, 133.2 and 66.6 (builds taking turns, the best of four
/// runs). Up to it, a search tries each place that starts with the
/// needle's first octet, and compares its last octet before the rest: at
/// most `SHORT_NEEDLE` octets compared a place, where `memmem` is linear.
const SHORT_NEEDLE: usize = 64;

/// The first occurrence of `needle` in `haystack`. Short needles, the common
/// case in robots.txt, are found with `memchr` on their first byte; long
/// ones with `memmem`, whose worst case stays linear.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    match needle.len() {
        0 => Some(0),
        1 => {
            let found = memchr(needle[0], haystack);
            work::scanned(found, haystack.len());
            found
        }
        n if n <= SHORT_NEEDLE => {
            let mut from = 0;
            while let Some(i) = memchr(needle[0], &haystack[from..]) {
                // The octets passed over to this place, and the needle's
                // compared with those here.
                work::add_with(move || i + n);
                let at = from + i;
                if haystack.len() - at < n {
                    return None;
                }
                if haystack[at + n - 1] == needle[n - 1] && &haystack[at..at + n] == needle {
                    return Some(at);
                }
                from = at + 1;
            }
            work::add_with(move || haystack.len() - from);
            None
        }
        _ => {
            let found = memmem::find(haystack, needle);
            work::scanned(found.map(|at| at + needle.len() - 1), haystack.len());
            found
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter_of_one(b: u8) -> OctetFilter {
        let mut f = OctetFilter::default();
        f.insert(b);
        f
    }

    #[test]
    fn octet_filter_holds_every_octet_at_every_place() {
        // The filter is built four octets at a time: each length up to three
        // past a multiple of four, each octet value at each place in it.
        for len in 1..=11 {
            for place in 0..len {
                for b in 0..=255u8 {
                    let mut bytes = vec![b'a'; len];
                    bytes[place] = b;
                    let f = OctetFilter::of(&bytes);
                    assert!(filter_of_one(b).within(&f), "{len} {place} {b}");
                    // Nothing else: `a` fills the other places.
                    let mut expected = filter_of_one(b);
                    if len > 1 {
                        expected.insert(b'a');
                    }
                    assert_eq!(f, expected, "{len} {place} {b}");
                }
            }
        }
        assert_eq!(OctetFilter::of(b""), OctetFilter::default());
    }

    // The filter passes over a rule only when the path surely lacks one of
    // its octets; it must tell apart what URLs and rules are made of.
    #[test]
    fn octet_filter_tells_letters_digits_and_url_punctuation_apart() {
        let own: Vec<u8> = (b'a'..=b'z')
            .chain(b'0'..=b'9')
            .chain(*b"./-_?=&%~+,;:!*$@()'")
            .collect();
        for &x in &own {
            for &y in &own {
                assert_eq!(
                    filter_of_one(x).within(&filter_of_one(y)),
                    x == y,
                    "{x} {y}"
                );
            }
            // Either case of a letter shares its bit.
            let upper = x.to_ascii_uppercase();
            assert!(filter_of_one(upper).within(&filter_of_one(x)));
        }
    }

    fn norm(d: Dialect, s: &str) -> String {
        let mut out = Vec::new();
        normalize(d, s.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    fn path(url: &str) -> String {
        let p = path_of(Dialect::Google, url.as_bytes());
        format!(
            "{}{}",
            if p.slash { "/" } else { "" },
            std::str::from_utf8(p.bytes).unwrap()
        )
    }

    // dialects.md "what is matched": path, params and query, no fragment.
    #[test]
    fn path_keeps_params_and_query_and_drops_fragment() {
        assert_eq!(path("http://example.com/a;b?c=d#e"), "/a;b?c=d");
        assert_eq!(path("http://example.com"), "/");
        assert_eq!(path("http://example.com?q"), "/?q");
        assert_eq!(path("http://example.com#/x"), "/");
        assert_eq!(path("//example.com/a"), "/a");
        assert_eq!(path("/a/b?x"), "/a/b?x");
        assert_eq!(path("/a?u=http://b/c"), "/a?u=http://b/c");
        assert_eq!(path(""), "/");
    }

    // The shortcut for `http://` and `https://` must read as the general
    // rule does (the reference's `://` search), whatever follows.
    #[test]
    fn http_urls_find_their_path_as_any_url_does() {
        let rests = [
            "",
            "h",
            "h/",
            "h/a",
            "h?q",
            "h;p",
            "h#f",
            "h#/a",
            "/",
            "//a",
            "h:80/a",
            "h?u=http://x/",
            "h.example.com/a/b?c#d",
            "#",
            "?",
            ";",
            "x\u{e9}/\u{e9}",
        ];
        for scheme in [
            "http://", "https://", "http:", "https:/", "HTTP://", "//", "",
        ] {
            for rest in rests {
                let url = format!("{scheme}{rest}");
                assert_eq!(
                    path_start(url.as_bytes()),
                    path_start_of_any(url.as_bytes()),
                    "{url:?}"
                );
            }
        }
    }

    // RFC 9309 2.2.2: "/foo/bar/%62%61%7A" matches "/foo/bar/baz".
    #[test]
    fn rfc_decodes_unreserved_and_encodes_non_ascii() {
        assert_eq!(norm(Dialect::Rfc9309, "/foo/bar/%62%61%7A"), "/foo/bar/baz");
        assert_eq!(norm(Dialect::Rfc9309, "/a%3cb%2f"), "/a%3Cb%2F");
        assert_eq!(norm(Dialect::Rfc9309, "/caf\u{e9}"), "/caf%C3%A9");
        assert_eq!(norm(Dialect::Rfc9309, "/100%"), "/100%");
        assert_eq!(norm(Dialect::Rfc9309, "/%zz%4"), "/%zz%4");
    }

    // Draft 3.2.2: %xx is decoded except %2F.
    #[test]
    fn draft_decodes_all_but_slash() {
        assert_eq!(norm(Dialect::Draft1996, "/%7ejoe/a%2fb%3C"), "/~joe/a%2Fb<");
    }

    #[test]
    fn google_escapes_pattern_only() {
        let mut out = Vec::new();
        escape_google_pattern("/a%3c/\u{e9}%zz%".as_bytes(), &mut out);
        assert_eq!(out, b"/a%3C/%C3%A9%zz%");
    }

    fn glob(pattern: &str) -> (Glob, Vec<u8>) {
        let arena = pattern.as_bytes().to_vec();
        let parts = Parts::of(Dialect::Rfc9309, &arena);
        let glob = Glob::new(parts.tail, parts.literal.len() as u32, parts.last_ends());
        (glob, arena)
    }

    #[test]
    fn glob_matches_leftmost_and_anchors() {
        let (g, a) = glob("*.php$");
        assert!(g.matches(&a, b"/x.php"));
        assert!(!g.matches(&a, b"/x.php?a"));
        assert!(g.matches(&a, b"/x.php.php"));
        let (g, a) = glob("*a*b*$");
        assert!(g.matches(&a, b"xaxbx"));
        assert!(!g.matches(&a, b"bxa"));
        let (g, a) = glob("*ab");
        assert!(g.matches(&a, b"aab"));
    }

    #[test]
    fn find_handles_every_needle_length() {
        assert_eq!(find(b"abcabd", b"abd"), Some(3));
        assert_eq!(find(b"ab", b"abc"), None);
        assert_eq!(find(b"xxxxxxxxxxxxxxxxxxxy", b"xxxxxxxxxy"), Some(10));
        // On both sides of `SHORT_NEEDLE`: a needle whose first and last
        // octets are everywhere in the haystack, and which differs from it
        // only in the middle, until the haystack's end.
        for n in [SHORT_NEEDLE - 1, SHORT_NEEDLE, SHORT_NEEDLE + 1] {
            let mut needle = vec![b'x'; n];
            needle[n / 2] = b'y';
            let mut haystack = vec![b'x'; 300];
            assert_eq!(find(&haystack, &needle), None, "{n}");
            haystack[200 + n / 2] = b'y';
            assert_eq!(find(&haystack, &needle), Some(200), "{n}");
        }
    }

    fn naive_find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
        if needle.is_empty() {
            return Some(0);
        }
        haystack.windows(needle.len()).position(|w| w == needle)
    }

    proptest::proptest! {
        // Two letters, so that needles of every length (past
        // `SHORT_NEEDLE` too) are found, nearly found and not found.
        #[test]
        fn find_finds_what_a_naive_search_finds(
            haystack in proptest::collection::vec(b'a'..=b'b', 0..200),
            needle in proptest::collection::vec(b'a'..=b'b', 0..80),
            cut in proptest::num::usize::ANY,
        ) {
            proptest::prop_assert_eq!(
                find(&haystack, &needle),
                naive_find(&haystack, &needle)
            );
            // A needle taken from the haystack is always found.
            if !haystack.is_empty() {
                let from = cut % haystack.len();
                let to = (from + 1 + cut / 7 % 80).min(haystack.len());
                let needle = &haystack[from..to];
                proptest::prop_assert_eq!(
                    find(&haystack, needle),
                    naive_find(&haystack, needle)
                );
            }
        }
    }
}
