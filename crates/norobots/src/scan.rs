//! Octet scanning for short inputs: robots.txt lines and URLs are a few
//! dozen octets, where the set-up of a vectorised search costs more than
//! the search itself.

/// The first octet of `bytes` that is one of `NEEDLES`.
///
/// Tests eight octets per step with the "has a zero byte" trick on `u64`
/// words; `memchr` takes over for the long stretches that need no needle
/// but one or two (see its callers).
#[inline]
pub(crate) fn find_any<const N: usize>(bytes: &[u8], needles: [u8; N]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let zero_in = |x: u64| x.wrapping_sub(LO) & !x & HI;
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let w = u64::from_le_bytes(chunk.try_into().expect("eight octets"));
        let hits = needles
            .iter()
            .fold(0, |acc, &n| acc | zero_in(w ^ (LO * u64::from(n))));
        if hits != 0 {
            // The lowest flagged byte is exact; only higher ones can be false.
            return Some(at + hits.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|b| needles.contains(b))
        .map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
