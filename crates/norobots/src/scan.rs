//! Octet scanning for short inputs: robots.txt lines and URLs are a few
//! dozen octets, where the set-up of a general vectorised search (`memchr`)
//! costs more than the search itself. Sixteen-octet SSE2 chunks on x86-64,
//! words of eight octets elsewhere and for what is left of a short input.
//! And where a body's lines start ([`LineStarts`]), found for 128 octets
//! at a time, for readers that look at little more of most lines.

use crate::work;

// Counted, the scans below have wrappers that add the octets they passed
// over; uncounted, their names are the scans' own. Not wrappers that count
// nothing: those changed how the scans were inlined into the check, and
// the check is measured in tens of nanoseconds.
#[cfg(not(feature = "count-work"))]
pub(crate) use self::{
    line_end as find_line_end, line_parts as find_line_parts, same_prefix as common_prefix,
    search_any_or_high as find_any_or_high,
};

/// One in every octet of a word.
const LO: u64 = 0x0101_0101_0101_0101;
/// The top bit of every octet of a word.
const HI: u64 = 0x8080_8080_8080_8080;

/// The top bit of each zero octet of `x` (the "has a zero byte" trick): the
/// lowest one is exact, higher ones can be false (borrows run upwards).
#[inline]
fn zero_octets(x: u64) -> u64 {
    x.wrapping_sub(LO) & !x & HI
}

/// The first octet of `bytes` that is one of `NEEDLES`.
///
/// `memchr` takes over for the long stretches that need no needle but one
/// or two (see its callers).
#[inline]
pub(crate) fn find_any<const N: usize>(bytes: &[u8], needles: [u8; N]) -> Option<usize> {
    find_any_or_high::<N, false>(bytes, needles)
}

/// [`search_any_or_high`], its octets counted.
#[cfg(feature = "count-work")]
#[inline(always)]
pub(crate) fn find_any_or_high<const N: usize, const HIGH: bool>(
    bytes: &[u8],
    needles: [u8; N],
) -> Option<usize> {
    let found = search_any_or_high::<N, HIGH>(bytes, needles);
    work::scanned(found, bytes.len());
    found
}

/// The first octet of `bytes` that is one of `NEEDLES` or, when `HIGH`,
/// non-ASCII.
///
/// Sixteen octets per step on x86-64 (a URL's host and path take a few),
/// the last step overlapping the one before; below sixteen octets, and
/// on other targets, eight per step with the "has a zero byte" trick on
/// `u64` words (and their top bits for non-ASCII).
#[inline]
pub(crate) fn search_any_or_high<const N: usize, const HIGH: bool>(
    bytes: &[u8],
    needles: [u8; N],
) -> Option<usize> {
    let hits_of = |w: u64| {
        let high = if HIGH { w & HI } else { 0 };
        needles
            .iter()
            .fold(high, |acc, &n| acc | zero_octets(w ^ (LO * u64::from(n))))
    };
    #[cfg(all(target_arch = "x86_64", not(feature = "portable-scan")))]
    if bytes.len() >= 16 {
        let hits = |at: usize| {
            let chunk = bytes[at..at + 16].try_into().expect("sixteen octets");
            sse2::find::<N, HIGH>(chunk, needles, 0)
        };
        let mut at = 0;
        while at + 16 <= bytes.len() {
            let found = hits(at);
            if found != 0 {
                return Some(at + found.trailing_zeros() as usize);
            }
            at += 16;
        }
        if at == bytes.len() {
            return None;
        }
        // The last sixteen octets, less those already searched.
        let last = bytes.len() - 16;
        let found = hits(last) >> (at - last);
        return (found != 0).then(|| at + found.trailing_zeros() as usize);
    }
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let hits = hits_of(u64::from_le_bytes(chunk.try_into().expect("eight octets")));
        if hits != 0 {
            // The lowest flagged byte is exact; only higher ones can be false.
            return Some(at + hits.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    let rest = chunks.remainder().len();
    if rest == 0 {
        return None;
    }
    if bytes.len() >= 8 {
        // URLs end in a few odd octets: one more word, the last eight
        // octets, with those already searched shifted out (zeros come in,
        // and the mask drops any flag they raise).
        let last = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("eight"));
        let w = last >> (8 * (8 - rest));
        let hits = hits_of(w) & (HI >> (8 * (8 - rest)));
        return (hits != 0).then(|| at + hits.trailing_zeros() as usize / 8);
    }
    bytes
        .iter()
        .position(|&b| (HIGH && b >= 0x80) || needles.contains(&b))
}

/// The first octet of `bytes` that stops a robots.txt line's scan: an end
/// of line (LF, CR), a NUL, a `#`, and when `COLON`, a `:`.
///
/// The three control octets are found with one test ("below 14") instead
/// of three: eight octets take three tests, not five.
/// The few other control octets below 14 (a tab, say) are passed over one
/// at a time. Its octets are not counted: those of its caller,
/// [`line_parts`], are, the whole line.
#[inline]
pub(crate) fn find_line_stop<const COLON: bool>(bytes: &[u8]) -> Option<usize> {
    let is_stop = |b: u8| ends_content(b) || (COLON && b == b':');
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let w = u64::from_le_bytes(chunk.try_into().expect("eight octets"));
        // Below 14 (the lowest flag is exact), `#`, `:`.
        let mut hits = w.wrapping_sub(LO * 14) & !w & HI;
        hits |= zero_octets(w ^ (LO * u64::from(b'#')));
        if COLON {
            hits |= zero_octets(w ^ (LO * u64::from(b':')));
        }
        if hits == 0 {
            at += 8;
            continue;
        }
        // Only the lowest flag is sure; a tab or the like means "look again
        // from the next octet".
        let i = at + hits.trailing_zeros() as usize / 8;
        if is_stop(bytes[i]) {
            return Some(i);
        }
        at = i + 1;
    }
    bytes[at..].iter().position(|&b| is_stop(b)).map(|i| at + i)
}

/// Whether `bytes` holds a `%` or a non-ASCII octet: the octets that make
/// a path or pattern need rewriting.
pub(crate) fn has_percent_or_non_ascii(bytes: &[u8]) -> bool {
    find_any_or_high::<1, true>(bytes, [b'%']).is_some()
}

/// [`same_prefix`], its octets counted.
#[cfg(feature = "count-work")]
#[inline(always)]
pub(crate) fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let same = same_prefix(a, b);
    work::add_with(move || same + 1);
    same
}

/// The length of the longest common prefix of `a` and `b`, eight octets
/// per step.
pub(crate) fn same_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        let x = u64::from_le_bytes(a[i..i + 8].try_into().expect("eight octets"));
        let y = u64::from_le_bytes(b[i..i + 8].try_into().expect("eight octets"));
        if x != y {
            return i + (x ^ y).trailing_zeros() as usize / 8;
        }
        i += 8;
    }
    i + a[i..n]
        .iter()
        .zip(&b[i..n])
        .take_while(|(x, y)| x == y)
        .count()
}

/// [`line_end`], its octets counted.
#[cfg(feature = "count-work")]
#[inline(always)]
pub(crate) fn find_line_end(bytes: &[u8]) -> Option<usize> {
    let found = line_end(bytes);
    work::scanned(found, bytes.len());
    found
}

/// The first LF or CR of `bytes`. What the full parse passes over to a
/// line's end is a comment, and about two thirds of the comments in the
/// corpus (63%, from `#` to the line's end) are shorter than 32 octets: two
/// SSE2 compares and one branch find their end, where `memchr2` would pay
/// its set-up and branches on the length; past them, `memchr2` takes over.
#[inline]
pub(crate) fn line_end(bytes: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", not(feature = "portable-scan")))]
    if let Some(head) = bytes.first_chunk::<32>() {
        let (a, b) = head.split_at(16);
        let hits = sse2::find::<2, false>(a.try_into().expect("sixteen"), *b"\n\r", 0)
            | sse2::find::<2, false>(b.try_into().expect("sixteen"), *b"\n\r", 0) << 16;
        if hits != 0 {
            return Some(hits.trailing_zeros() as usize);
        }
        return memchr::memchr2(b'\n', b'\r', &bytes[32..]).map(|k| k + 32);
    }
    memchr::memchr2(b'\n', b'\r', bytes)
}

/// Where a body's lines start, after the first: just past each LF, and past
/// each CR that no LF follows (a CRLF ends one line), in order. The start
/// of an empty last line is the body's length.
///
/// Every line's start is needed but most lines are wanted for little more
/// (a first octet, a key, a rule's first few octets against a path), so the
/// starts are found for 128 octets at once, from one mask of LFs and one
/// of CRs, and then taken a bit at a time. Finding each line's end on its own
/// cost more than the rest of reading most lines: a search set up per line,
/// and a branch on where it ends that mispredicts whenever line lengths vary.
pub(crate) struct LineStarts<'b> {
    body: &'b [u8],
    /// A bit for each octet of the last block read at which a line starts
    /// and that has not been taken.
    pending: u128,
    /// Where the next block starts: the last block read starts `BLOCK`
    /// octets before.
    next_block: usize,
    /// Whether the last octet read is a LF, a CR: the next block's first
    /// octet starts a line (after a CR, unless it is a LF).
    last_lf: bool,
    last_cr: bool,
}

impl<'b> LineStarts<'b> {
    /// The starts of the lines of `body` after its first.
    pub(crate) fn new(body: &'b [u8]) -> LineStarts<'b> {
        LineStarts {
            body,
            pending: 0,
            next_block: 0,
            last_lf: false,
            last_cr: false,
        }
    }

    /// Reads the next block's line starts into `pending`; false past the
    /// body's end.
    #[inline]
    fn advance(&mut self) -> bool {
        let at = self.next_block;
        let len = self.body.len();
        if at >= len {
            // A break that ends the body starts an empty last line.
            if at != len || !(self.last_lf || self.last_cr) {
                return false;
            }
            self.last_lf = false;
            self.last_cr = false;
            self.pending = 1;
            self.next_block = at + BLOCK;
            return true;
        }
        work::add(BLOCK);
        let (lf, cr) = match self.body.get(at..at + BLOCK) {
            Some(block) => line_breaks(block.try_into().expect("a block")),
            None => {
                // Zeros are neither break: the padding starts no line.
                let mut block = [0; BLOCK];
                block[..len - at].copy_from_slice(&self.body[at..]);
                line_breaks(&block)
            }
        };
        // A line ends at each LF and at each CR that no LF follows, and
        // starts past it; a start past the block's last octet (shifted out
        // here) is the next block's first, told by `last_lf` and `last_cr`.
        let ends = lf | (cr & !(lf >> 1));
        let first = self.last_lf || (self.last_cr && lf & 1 == 0);
        self.pending = ends << 1 | u128::from(first);
        self.last_lf = lf >> (BLOCK - 1) != 0;
        self.last_cr = cr >> (BLOCK - 1) != 0;
        self.next_block = at + BLOCK;
        true
    }
}

impl Iterator for LineStarts<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.pending == 0 {
            if !self.advance() {
                return None;
            }
        }
        let bit = self.pending.trailing_zeros() as usize;
        self.pending &= self.pending - 1;
        Some(self.next_block - BLOCK + bit)
    }
}

/// Octets read at a time by [`LineStarts`]. Taking a block's starts ends
/// in a mispredicted branch (lines end anywhere): 128 octets have half the
/// ends of 64, for a few more instructions per block. Measured over the
/// one-shot benchmark, best of 200 passes: 4.87-4.89 ms with 128, 5.11-5.39
/// with 64.
const BLOCK: usize = 128;

/// A bit for each LF of `block`, and one for each CR.
#[inline]
fn line_breaks(block: &[u8; BLOCK]) -> (u128, u128) {
    let (mut lf, mut cr) = (0, 0);
    #[cfg(all(target_arch = "x86_64", not(feature = "portable-scan")))]
    for (i, chunk) in block.chunks_exact(16).enumerate() {
        let (l, c) = sse2::breaks(chunk.try_into().expect("sixteen octets"));
        lf |= u128::from(l) << (16 * i);
        cr |= u128::from(c) << (16 * i);
    }
    #[cfg(any(not(target_arch = "x86_64"), feature = "portable-scan"))]
    for (i, &b) in block.iter().enumerate() {
        lf |= u128::from(b == b'\n') << i;
        cr |= u128::from(b == b'\r') << i;
    }
    (lf, cr)
}

/// Whether `b` ends a robots.txt line's content: LF, CR, NUL or `#`.
#[inline]
fn ends_content(b: u8) -> bool {
    matches!(b, b'\n' | b'\r' | 0 | b'#')
}

/// [`line_parts`], its octets counted.
#[cfg(feature = "count-work")]
#[inline(always)]
pub(crate) fn find_line_parts(bytes: &[u8]) -> (Option<usize>, Option<usize>) {
    let found = line_parts(bytes);
    work::scanned(found.0, bytes.len());
    found
}

/// Where a robots.txt line's content ends (the first LF, CR, NUL or `#`),
/// and its first `:` before that: `(end, colon)`, `None` for none.
///
/// Thirty-two octets at a time on x86-64, which hold the key, the colon
/// and most lines whole; [`find_line_stop`] does the last few octets (and
/// all of them elsewhere).
#[inline]
pub(crate) fn line_parts(bytes: &[u8]) -> (Option<usize>, Option<usize>) {
    let mut colon = None;
    let mut at = 0;
    #[cfg(all(target_arch = "x86_64", not(feature = "portable-scan")))]
    while let Some(window) = bytes.get(at..).and_then(<[u8]>::first_chunk::<32>) {
        // Both halves, then one branch: whether a line ends in the first
        // sixteen octets or the next varies from line to line, and a branch
        // between them was mispredicted.
        let (a, b) = window.split_at(16);
        let (a, b) = (a.try_into().expect("16"), b.try_into().expect("16"));
        // Exact masks, so that no loop runs over the hits: their number
        // varies from line to line, and each exit of such a loop is a branch
        // mispredicted.
        let stops = sse2::find::<4, false>(a, *b"\n\r\0#", 0)
            | sse2::find::<4, false>(b, *b"\n\r\0#", 0) << 16;
        let colons =
            sse2::find::<1, false>(a, *b":", 0) | sse2::find::<1, false>(b, *b":", 0) << 16;
        // The bits below the first stop; all of them when there is none.
        let before = stops.wrapping_sub(1) & !stops;
        if colon.is_none() && colons & before != 0 {
            colon = Some(at + (colons & before).trailing_zeros() as usize);
        }
        if stops != 0 {
            return (Some(at + stops.trailing_zeros() as usize), colon);
        }
        at += 32;
    }
    loop {
        let found = match colon {
            None => find_line_stop::<true>(&bytes[at..]),
            // Values hold URLs full of `:`: no longer a stop.
            Some(_) => find_line_stop::<false>(&bytes[at..]),
        };
        let Some(k) = found else {
            return (None, colon);
        };
        let i = at + k;
        if bytes[i] != b':' {
            return (Some(i), colon);
        }
        colon = Some(i);
        at = i + 1;
    }
}

/// Octets of a body that [`prefetch`] asks for: four cache lines. Past
/// them, the processor's own prefetcher follows the sequential read.
const PREFETCHED: usize = 256;

/// Starts loading the first cache lines of `bytes` without waiting for
/// them.
///
/// A one-shot check reads the URL before the body. When neither is in the
/// cache (a crawler going from host to host), the two loads from memory
/// came one after the other; asked for first, the body's arrives while the
/// URL is read. Over the benchmark's 4,000 files, checked one after the
/// other, this took 6-12% off the one-shot check (old and new code taking
/// turns in one process).
#[inline]
pub(crate) fn prefetch(bytes: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    for line in bytes[..bytes.len().min(PREFETCHED)].chunks(64) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch reads nothing into the program and cannot
        // fault, whatever the address; this one is inside `bytes`.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = bytes;
}

/// Sixteen octets at a time, with the SSE2 instructions every x86-64 has.
#[cfg(all(target_arch = "x86_64", not(feature = "portable-scan")))]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_set_epi64x, _mm_setzero_si128,
    };

    /// One bit per octet of `chunk` that is one of `needles`, or below
    /// `below` (none when 0), or non-ASCII when `HIGH`.
    #[inline]
    pub(super) fn find<const N: usize, const HIGH: bool>(
        chunk: &[u8; 16],
        needles: [u8; N],
        below: u8,
    ) -> u32 {
        // SAFETY: `find_sse2` only needs SSE2, which every x86-64
        // processor has (it is in the target's baseline), and touches no
        // memory: the octets come in as two integers.
        unsafe { find_sse2::<N, HIGH>(chunk, needles, below) }
    }

    // An `unsafe fn` although its body is safe from Rust 1.87 on: before,
    // a `#[target_feature]` function and the intrinsics had to be unsafe,
    // and the crate builds with 1.85 (its `rust-version`).
    #[target_feature(enable = "sse2")]
    unsafe fn find_sse2<const N: usize, const HIGH: bool>(
        chunk: &[u8; 16],
        needles: [u8; N],
        below: u8,
    ) -> u32 {
        // In a register from two integers: no pointer to read through.
        let (lo, hi) = chunk.split_at(8);
        let word = |b: &[u8]| i64::from_le_bytes(b.try_into().expect("eight octets"));
        let v = _mm_set_epi64x(word(hi), word(lo));
        let mut hits: __m128i = if below > 0 {
            // Unsigned "below": the octet equals its minimum with below - 1.
            _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8((below - 1) as i8)), v)
        } else {
            _mm_setzero_si128()
        };
        for n in needles {
            hits = _mm_or_si128(hits, _mm_cmpeq_epi8(v, _mm_set1_epi8(n as i8)));
        }
        let high = if HIGH { _mm_movemask_epi8(v) } else { 0 };
        (_mm_movemask_epi8(hits) | high) as u32
    }

    /// One bit per LF of `chunk`, and one per CR.
    #[inline]
    pub(super) fn breaks(chunk: &[u8; 16]) -> (u16, u16) {
        // SAFETY: as in `find`.
        unsafe { breaks_sse2(chunk) }
    }

    #[target_feature(enable = "sse2")]
    unsafe fn breaks_sse2(chunk: &[u8; 16]) -> (u16, u16) {
        // SAFETY: `chunk` is sixteen octets to read, and an unaligned load
        // asks no more of the pointer. (Blocks are read whole: one load, not
        // the two words `find` takes.)
        let v = unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) };
        let mask = |n: u8| _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(n as i8))) as u16;
        (mask(b'\n'), mask(b'\r'))
    }
}

/// The first eight octets of `bytes`, zero-padded.
#[inline]
pub(crate) fn first_eight(bytes: &[u8]) -> [u8; 8] {
    if let Some(head) = bytes.first_chunk::<8>() {
        // One load, where the copy below is a call to `memcpy`.
        return *head;
    }
    // Shorter: two loads that overlap, each shifted into place, where a
    // copy of a length known only now would be a call to `memcpy` (labels
    // and keys this short are most of a trie's).
    let n = bytes.len();
    let word = if n >= 4 {
        let load =
            |at: usize| u64::from(u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4")));
        load(0) | load(n - 4) << (8 * (n - 4))
    } else if n > 0 {
        let load = |at: usize| u64::from(bytes[at]) << (8 * at);
        load(0) | load(n / 2) | load(n - 1)
    } else {
        0
    };
    word.to_le_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lengths, or offsets, that a test walks in `range`: all of them;
    /// under Miri, which runs these loops thousands of times slower, the
    /// first two, the last, and those on either side of a multiple of
    /// sixteen, where the SSE2 chunks meet: what the unsafe code reads
    /// depends on them, not on the octets read (the words of eight
    /// between are safe code, walked whole in the usual runs).
    fn walk(range: std::ops::Range<usize>) -> impl Iterator<Item = usize> {
        let last = range.end.saturating_sub(1);
        range.filter(move |&n| !cfg!(miri) || n < 2 || n == last || matches!(n % 16, 0 | 1 | 15))
    }

    /// The octets, or breaks, that a test puts at place `at`: all of them;
    /// under Miri one a place, in turn, so that each is still put somewhere.
    fn each<T: Copy>(values: &[T], at: usize) -> impl Iterator<Item = T> + '_ {
        let pick = at % values.len();
        (0..values.len())
            .filter(move |&i| !cfg!(miri) || i == pick)
            .map(|i| values[i])
    }

    #[test]
    fn percent_and_non_ascii_are_found_anywhere() {
        assert!(!has_percent_or_non_ascii(b""));
        assert!(!has_percent_or_non_ascii(b"/plain/ascii/path?q=1"));
        assert!(has_percent_or_non_ascii(b"/plain/ascii/path?q=%"));
        assert!(has_percent_or_non_ascii(b"%"));
        assert!(has_percent_or_non_ascii(b"/caf\xc3\xa9/and/more/octets"));
        assert!(has_percent_or_non_ascii(b"/abcdefg\x80"));
        // `%` is 0x25; its neighbours must not count.
        assert!(!has_percent_or_non_ascii(b"$$$$&&&&$&$&$&"));
    }

    #[test]
    fn prefetch_takes_bodies_shorter_and_longer_than_it_asks_for() {
        for len in [
            0,
            1,
            63,
            64,
            65,
            PREFETCHED - 1,
            PREFETCHED,
            10 * PREFETCHED + 3,
        ] {
            prefetch(&vec![b'a'; len]);
        }
    }

    #[test]
    fn common_prefix_counts_across_words() {
        assert_eq!(common_prefix(b"", b"abc"), 0);
        assert_eq!(common_prefix(b"abcdefghijk", b"abcdefghijx"), 10);
        assert_eq!(common_prefix(b"abcdefgh", b"abcdefgh"), 8);
        assert_eq!(common_prefix(b"abcXefghij", b"abcdefghij"), 3);
        assert_eq!(common_prefix(b"abcdefghijklmnop", b"abcdefghijklmnopq"), 16);
    }

    #[test]
    fn first_needle_or_high_octet_is_found_in_words_and_tail() {
        let cases: [(&[u8], Option<usize>, Option<usize>); 7] = [
            (b"", None, None),
            (b"/plain/path?q=1", None, None),
            (b"/plain/path?q=1#f", Some(15), Some(15)),
            (b"/caf\xc3\xa9#x", Some(6), Some(4)),
            (b"/a%2Fb/c/d#", Some(2), Some(2)),
            (b"/abcdefghijk\x80", None, Some(12)),
            // `#` is 0x23 and `%` 0x25: their neighbours must not count.
            (b"$$$$\"\"\"\"$\"$\"$", None, None),
        ];
        for (s, want_needles, want_high) in cases {
            assert_eq!(
                find_any_or_high::<2, false>(s, *b"#%"),
                want_needles,
                "{s:?}"
            );
            assert_eq!(find_any_or_high::<2, true>(s, *b"#%"), want_high, "{s:?}");
        }
    }

    // The first LF or CR, whether it lies in the first 32 octets, past
    // them, or nowhere, at every length around the window's edges.
    #[test]
    fn line_ends_are_found_in_and_past_the_first_window() {
        let naive = |s: &[u8]| s.iter().position(|&b| b == b'\n' || b == b'\r');
        for len in walk(0..80) {
            for at in walk(0..len).chain([usize::MAX]) {
                for end in [b'\n', b'\r'] {
                    let mut s = vec![b'a'; len];
                    if let Some(x) = s.get_mut(at) {
                        *x = end;
                    }
                    // Octets near LF and CR must not count.
                    s.iter_mut()
                        .step_by(3)
                        .filter(|x| **x == b'a')
                        .for_each(|x| *x = 0x0B);
                    assert_eq!(find_line_end(&s), naive(&s), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn line_stops_are_found_past_other_control_octets() {
        let naive = |s: &[u8], colon: bool| {
            s.iter()
                .position(|&b| matches!(b, b'\n' | b'\r' | 0 | b'#') || (colon && b == b':'))
        };
        let mut cases: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"Disallow: /a\n".to_vec(),
            b"Disallow\t\t\t\t\t\t\t\t\t: /a\r\n".to_vec(),
            b"\x0b\x0c\x01\x0d".to_vec(),
            b"abcdefgh\tijklmnop\x00".to_vec(),
            b"no stop at all here, none".to_vec(),
            b"\x0e\x0f\x1f\x22\x24\x39\x3b#".to_vec(),
        ];
        // Every octet at every offset of a word, behind a run of tabs.
        for b in 0..=255u8 {
            for pad in walk(0..10) {
                let mut s = vec![b'\t'; pad];
                s.push(b);
                s.extend_from_slice(b"xyz");
                cases.push(s);
            }
        }
        for s in &cases {
            assert_eq!(find_line_stop::<true>(s), naive(s, true), "{s:?}");
            assert_eq!(find_line_stop::<false>(s), naive(s, false), "{s:?}");
        }
    }

    /// Line starts as the 1994 standard's CR, LF or CRLF line ends put
    /// them, one octet at a time.
    fn naive_line_starts(body: &[u8]) -> Vec<usize> {
        let mut starts = Vec::new();
        let mut i = 0;
        while i < body.len() {
            match body[i] {
                b'\r' if body.get(i + 1) == Some(&b'\n') => i += 1,
                b'\n' | b'\r' => {}
                _ => {
                    i += 1;
                    continue;
                }
            }
            i += 1;
            starts.push(i);
        }
        starts
    }

    // A CR, a LF or a CRLF on either side of a block's edge (at 128
    // octets, and at 64, where blocks once ended), the body's end on either
    // side of one, and a break that ends the body (an empty last line).
    #[test]
    fn line_starts_are_found_across_block_edges() {
        for len in [0usize, 1, 2, 62, 63, 64, 65, 66, 127, 128, 129, 200] {
            for at in len.saturating_sub(3)..len + 1 {
                for brk in each(&[&b"\n"[..], b"\r", b"\r\n", b"\n\r", b"\r\r", b"\n\n"], at) {
                    for edge in [63usize, 64, 127, 128] {
                        let mut body = vec![b'x'; len.max(edge + 3)];
                        for (k, &b) in brk.iter().enumerate() {
                            body[edge - 1 + k] = b;
                        }
                        body.truncate(len.max(at));
                        if at <= body.len() {
                            body.splice(at..at, brk.iter().copied());
                        }
                        let found: Vec<usize> = LineStarts::new(&body).collect();
                        assert_eq!(found, naive_line_starts(&body), "{body:?}");
                    }
                }
            }
        }
    }

    proptest::proptest! {
        // Under Miri a case takes seconds, not microseconds, most of them
        // in the default generator (ChaCha); its isolation keeps the
        // regressions file shut.
        #![proptest_config({
            let default = proptest::test_runner::Config::default();
            if cfg!(miri) {
                proptest::test_runner::Config {
                    cases: 16,
                    failure_persistence: None,
                    rng_algorithm: proptest::test_runner::RngAlgorithm::XorShift,
                    ..default
                }
            } else {
                default
            }
        })]

        // Bodies mostly of breaks and long runs between them, so that lines
        // of every length fall on every offset of a block.
        #[test]
        fn line_starts_are_where_an_octet_by_octet_scan_puts_them(
            body in proptest::collection::vec(
                proptest::prop_oneof![
                    4 => proptest::strategy::Just(b'a'),
                    1 => proptest::strategy::Just(b'\n'),
                    1 => proptest::strategy::Just(b'\r'),
                    1 => proptest::num::u8::ANY,
                ],
                0..300,
            )
        ) {
            let found: Vec<usize> = LineStarts::new(&body).collect();
            proptest::prop_assert_eq!(found, naive_line_starts(&body));
        }
    }

    #[test]
    fn line_parts_are_found_in_chunks_and_tail() {
        let naive = |s: &[u8]| {
            let end = s.iter().position(|&b| b"\n\r\0#".contains(&b));
            let colon = s[..end.unwrap_or(s.len())].iter().position(|&b| b == b':');
            (end, colon)
        };
        // Each octet that matters, some that share a flag (tab, 0x0B) and
        // some that must not (0x0E, 0x80, 0xFF), at each place of 0 to 55
        // octets, after a colon or not; a second colon after the first; text
        // after the end.
        let specials = [
            b'\n', b'\r', 0, b'#', b':', b'\t', 0x0B, 0x0E, 0x80, 0xFF, b'x',
        ];
        for len in walk(0..56) {
            for at in walk(0..len) {
                for b in each(&specials, len + at) {
                    for colon_at in [None, Some(0), Some(at / 2), Some(len - 1)] {
                        let mut s = vec![b'k'; len];
                        if let Some(c) = colon_at {
                            s[c] = b':';
                        }
                        s[at] = b;
                        s.extend_from_slice(b"\n:tail#");
                        assert_eq!(find_line_parts(&s), naive(&s), "{s:?}");
                        s.truncate(len);
                        assert_eq!(find_line_parts(&s), naive(&s), "{s:?}");
                    }
                }
            }
        }
    }

    // The odd octets after the last whole word are searched as the tail of
    // an overlapping word: every length and position must come out as a
    // plain scan says, the octets already searched must not count again.
    #[test]
    fn needles_and_high_octets_are_found_at_every_length_and_offset() {
        let naive = |s: &[u8], high: bool| {
            s.iter()
                .position(|&b| matches!(b, b'#' | b'%') || (high && b >= 0x80))
        };
        // Past 32 octets: two chunks of sixteen on x86-64, then the last
        // sixteen, overlapping; words of eight and single octets below 16.
        for len in walk(0..41) {
            for at in walk(0..len) {
                // The needles, the non-ASCII edges, and neighbours of each.
                for hit in each(&[b'#', b'%', 0x80, 0xff, b'"', b'$', b'&', 0x7f], len + at) {
                    // Non-needles everywhere else, in particular zeros, which
                    // the overlapping word shifts in.
                    for fill in [b'a', 0] {
                        let mut s = vec![fill; len];
                        s[at] = hit;
                        if at + 1 < len {
                            s[len - 1] = b'#';
                        }
                        assert_eq!(find_any(&s, *b"#%"), naive(&s, false), "{s:?}");
                        assert_eq!(
                            find_any_or_high::<2, true>(&s, *b"#%"),
                            naive(&s, true),
                            "{s:?}"
                        );
                    }
                }
            }
            let plain = vec![b'x'; len];
            assert_eq!(find_any_or_high::<2, true>(&plain, *b"#%"), None);
        }
    }

    #[test]
    fn first_needle_is_found_in_words_and_tail() {
        let cases: [(&[u8], Option<usize>); 8] = [
            (b"", None),
            (b"abc", None),
            (b"abcdefgh", None),
            (b"abcdefghij/", Some(10)),
            (b"abcdefg?", Some(7)),
            (b";", Some(0)),
            (b"ab/cdefg;ijklmnop", Some(2)),
            (b"\x80\xff\x2e\x30abcd;", Some(8)),
        ];
        for (s, want) in cases {
            assert_eq!(find_any(s, *b"/?;"), want, "{s:?}");
        }
    }

    // Every length up to and past eight, with distinct octets, so that an
    // octet loaded into the wrong place or left out shows.
    #[test]
    fn first_eight_is_the_zero_padded_head_at_every_length() {
        let octets: Vec<u8> = (1..=12).collect();
        for len in 0..=octets.len() {
            let mut expected = [0u8; 8];
            for (e, &b) in expected.iter_mut().zip(&octets[..len]) {
                *e = b;
            }
            assert_eq!(first_eight(&octets[..len]), expected, "{len}");
        }
    }
}
