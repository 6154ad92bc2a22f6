//! An index over the `*` rules that hang from one trie node, for files that
//! have many of them (`Disallow: /*?sessionid=`, `/*?sort=`, … by the
//! hundred).
//!
//! Each rule is filed under one four-octet string (a gram) that any path it
//! matches must contain: the gram of its segments that the fewest other
//! rules share. A check then looks up the grams of the path, not the rules,
//! so its cost follows the URL. Rules whose segments are all shorter than
//! four octets cannot be filed and are always tried.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::pattern::{ByteSet, Glob};

/// A multiplicative hash for the `u32` grams: the keys are not chosen to
/// collide on purpose by anyone who gains from it (a file can only slow its
/// own matcher's build), so SipHash's protection buys nothing here.
#[derive(Default)]
struct GramHasher(u64);

impl Hasher for GramHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517C_C1B7_2722_0A95);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The index of one node's tails.
#[derive(Clone, Debug)]
pub(crate) struct TailIndex {
    /// One bit per hash of a gram that some rule is filed under (65,536
    /// bits), so that most of the path's grams are rejected with one load.
    present: Box<[u64]>,
    /// `(gram, tail)` pairs sorted by gram; `tail` counts from the node's
    /// first tail.
    filed: Vec<(u32, u32)>,
    /// Tails that could not be filed, in the node's (rank) order.
    unfiled: Vec<u32>,
    /// The octets every tail needs (`?` and `=` for a node of `/*?key=`
    /// rules): a path without one of them cannot match any, and is not
    /// scanned at all.
    pub common: ByteSet,
}

/// Nodes with fewer tails than this are searched rule by rule, which is
/// cheaper than looking up every bigram of the path.
pub(crate) const MIN_TAILS: usize = 16;

fn grams(seg: &[u8]) -> impl Iterator<Item = u32> + '_ {
    seg.windows(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
}

/// The gram's bit in `present`: a multiplicative hash folded to 16 bits.
fn bit(gram: u32) -> (usize, u64) {
    let h = gram.wrapping_mul(0x9E37_79B1) >> 16;
    ((h >> 6) as usize, 1 << (h & 63))
}

impl TailIndex {
    /// Files each glob under its least shared gram.
    pub fn build<'g>(arena: &[u8], globs: impl Iterator<Item = &'g Glob> + Clone) -> TailIndex {
        let segments = |g: &'g Glob| {
            g.segments
                .iter()
                .map(|&(a, b)| &arena[a as usize..b as usize])
        };
        let mut shared: HashMap<u32, u32, BuildHasherDefault<GramHasher>> = HashMap::default();
        for g in globs.clone() {
            for gram in segments(g).flat_map(grams) {
                *shared.entry(gram).or_default() += 1;
            }
        }
        let mut index = TailIndex {
            present: vec![0u64; 1024].into_boxed_slice(),
            filed: Vec::new(),
            unfiled: Vec::new(),
            common: globs
                .clone()
                .map(|g| g.needs)
                .reduce(|a, b| a.intersection(&b))
                .unwrap_or_default(),
        };
        for (i, g) in globs.enumerate() {
            let rarest = segments(g)
                .flat_map(grams)
                .min_by_key(|gram| shared.get(gram).copied().unwrap_or(0));
            match rarest {
                Some(gram) => {
                    let (word, mask) = bit(gram);
                    index.present[word] |= mask;
                    index.filed.push((gram, i as u32));
                }
                None => index.unfiled.push(i as u32),
            }
        }
        index.filed.sort_unstable();
        index
    }

    /// Calls `f` with every tail that may match `rest` (each at least once;
    /// some more than once when the path repeats a gram).
    #[inline]
    pub fn for_each_candidate(&self, rest: &[u8], mut f: impl FnMut(u32)) {
        self.unfiled.iter().for_each(|&t| f(t));
        for w in rest.windows(4) {
            let gram = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            let (word, mask) = bit(gram);
            if self.present[word] & mask == 0 {
                continue;
            }
            let from = self.filed.partition_point(|&(k, _)| k < gram);
            for &(k, t) in &self.filed[from..] {
                if k != gram {
                    break;
                }
                f(t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(arena: &mut Vec<u8>, segs: &[&str]) -> Glob {
        let mut ranges = Vec::new();
        for s in segs {
            let a = arena.len() as u32;
            arena.extend_from_slice(s.as_bytes());
            ranges.push((a, arena.len() as u32));
        }
        Glob::new(arena, ranges, false, false)
    }

    #[test]
    fn candidates_include_every_tail_whose_gram_is_in_the_path() {
        let mut arena = Vec::new();
        let globs = [
            glob(&mut arena, &["?sort="]),
            glob(&mut arena, &["?sid="]),
            glob(&mut arena, &["xyz"]),
            glob(&mut arena, &[".pdf"]),
        ];
        let index = TailIndex::build(&arena, globs.iter());
        let mut found = Vec::new();
        index.for_each_candidate(b"/a/b?sort=1", |t| found.push(t));
        found.sort_unstable();
        found.dedup();
        assert!(found.contains(&0) && found.contains(&2));
        assert!(!found.contains(&3));
    }
}
