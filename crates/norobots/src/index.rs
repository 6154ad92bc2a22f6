//! An index over the `*` rules that hang from one trie node, for files that
//! have many of them (`Disallow: /*?sessionid=`, `/*?sort=`, … by the
//! hundred).
//!
//! Each rule is filed under four-octet strings (grams) of one of its
//! segments, which any path it matches must contain. A check then looks up
//! the grams of the path, not the rules, so its cost follows the URL. Rules
//! whose segments are all shorter than four octets cannot be filed and are
//! always tried.
//!
//! A check need not look up every gram of the path. When every filed rule
//! has a segment of at least `3 + s` octets, the rule is filed under `s`
//! consecutive grams of it, and wherever that segment lies in a path, one
//! of those grams starts at a multiple of `s`: the check looks up only the
//! grams there, `s` times fewer.
//!
//! Nor need it look up any when the rules share what a path must hold: a
//! path without the octets that every rule needs (`?` and `=` for
//! `/*?key=` rules) is turned away after a search for them, and when every
//! rule's first segment starts with one octet, a match starts at one too,
//! so the grams before the path's first are passed over.

use crate::pattern::Glob;
use crate::scan::find_any;
use crate::work;

/// The index of one node's tails.
#[derive(Clone, Debug)]
pub(crate) struct TailIndex {
    /// One bit per hash of a gram that some rule is filed under, so that
    /// most of the path's grams are rejected with one load. Sized to the
    /// rules (about 16 bits per filed gram) so that a node's map stays in
    /// the cache: a check probes it once per octet of the path.
    present: Box<[u64]>,
    /// How many bits of `present` are set before each of its words: with
    /// the bits below a set bit in its word, the rank of that bit, which
    /// finds its bucket in `starts` without a search.
    before: Box<[u32]>,
    /// Where each set bit's bucket of `filed` starts, by rank, and where
    /// the last one ends.
    starts: Box<[u32]>,
    /// `32 - log2(bits in present)`: a hash keeps its top bits.
    shift: u32,
    /// `(gram, tail)` pairs in buckets by the gram's bit of `present`;
    /// `tail` counts from the node's first tail.
    filed: Vec<(u32, u32)>,
    /// Tails that could not be filed, in the node's (rank) order.
    unfiled: Vec<u32>,
    /// Look up the path's grams at multiples of this (see the module
    /// comment).
    step: usize,
    /// Up to two octets that every tail needs, other than letters and
    /// digits (`?` and `=` for a node of `/*?key=` rules): a path without
    /// one of them cannot match any tail, and its grams are not looked up.
    /// `/` comes last: nearly every path holds one, but often not after the
    /// node (`/shop/item-12` past `/shop/`, whose tails are `*/reviews`).
    required: [Option<u8>; 2],
    /// The octet that starts every tail's first segment, if they share one
    /// (`?` for a node of `/*?key=` rules): a match starts at one, so the
    /// path's grams before its first are not looked up.
    lead: Option<u8>,
}

/// Nodes with fewer tails than this are searched rule by rule, which is
/// cheaper than looking up every bigram of the path.
pub(crate) const MIN_TAILS: usize = 16;

/// How many grams found in the map a check gathers before it looks them
/// up (see `for_each_candidate`).
const FOUND: usize = 8;

fn grams(seg: &[u8]) -> impl Iterator<Item = u32> + '_ {
    work::add_with(move || seg.len());
    seg.windows(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
}

/// The top `32 - shift` bits of a multiplicative hash of `gram`: a slot in
/// a table of `2^(32 - shift)` entries.
#[inline]
fn hash(gram: u32, shift: u32) -> usize {
    (gram.wrapping_mul(0x9E37_79B1) >> shift) as usize
}

/// The gram's bit in a map of `2^(32 - shift)` bits.
#[inline]
fn bit(gram: u32, shift: u32) -> (usize, u64) {
    let h = hash(gram, shift);
    (h >> 6, 1 << (h & 63))
}

/// `log2` of a table for `n` entries: the next power of two, within bounds.
fn size_log2(n: usize, min: u32, max: u32) -> u32 {
    n.next_power_of_two().trailing_zeros().clamp(min, max)
}

/// Where a rule is filed at one step: (how many rules share the most shared
/// gram of the run, segment, first gram of the run); `None` for nowhere.
type Run = Option<(u32, usize, usize)>;

/// The largest step: each rule is filed `step` times, so beyond this the
/// filed list grows more than the probes shrink.
const MAX_STEP: usize = 4;

/// At most this many rules, and one in sixteen, may spill out of the index
/// (see `build`) for the sake of a larger step.
const MAX_SPILLED: usize = 4;

/// Smallest and largest tables of shared-gram counters.
const COUNT_MIN_LOG2: u32 = 8;
const COUNT_MAX_LOG2: u32 = 16;

/// Smallest and largest maps: one cache line, and 65,536 bits.
const MIN_BITS_LOG2: u32 = 9;
const MAX_BITS_LOG2: u32 = 16;

impl TailIndex {
    /// Files each glob under its least shared gram.
    pub fn build<'g>(arena: &[u8], globs: impl Iterator<Item = &'g Glob> + Clone) -> TailIndex {
        let segments = |g: &'g Glob| g.segments(arena);
        // How many rules share each gram, estimated: counters indexed by a
        // hash, so colliding grams add up. Only the choice of gram depends on
        // it (any gram of a rule files it correctly), and a flat table costs a
        // fraction of a hash map when a node's rules hold thousands of grams.
        let total: usize = globs
            .clone()
            .flat_map(segments)
            .map(|s| s.len().saturating_sub(3))
            .sum();
        let count_log2 = size_log2(total, COUNT_MIN_LOG2, COUNT_MAX_LOG2);
        let mut shared = vec![0u16; 1 << count_log2];
        let slot = |gram: u32| hash(gram, 32 - count_log2);
        for g in globs.clone() {
            for gram in segments(g).flat_map(grams) {
                let c = &mut shared[slot(gram)];
                *c = c.saturating_add(1);
            }
        }
        // For each glob and each step: the run of `step` consecutive grams,
        // within one segment, whose most shared gram the fewest other rules
        // share, as (that count, segment, first gram); all steps from one
        // look at each segment's counts.
        let mut counts: Vec<u32> = Vec::new();
        let runs: Vec<[Run; MAX_STEP]> = globs
            .clone()
            .map(|g| {
                let mut best: [Run; MAX_STEP] = [None; MAX_STEP];
                for (si, seg) in segments(g).enumerate() {
                    counts.clear();
                    counts.extend(grams(seg).map(|gram| u32::from(shared[slot(gram)])));
                    // The windows of one to `MAX_STEP` counts below.
                    work::add_with(|| counts.len() * MAX_STEP * (MAX_STEP + 1) / 2);
                    for (step, best) in (1..).zip(&mut best) {
                        for (at, run) in counts.windows(step).enumerate() {
                            let cost = run.iter().copied().max().unwrap_or(0);
                            if best.is_none_or(|(c, _, _)| cost < c) {
                                *best = Some((cost, si, at));
                            }
                        }
                    }
                }
                best
            })
            .collect();
        // How many rules share each rule's rarest gram; `None` when it has
        // no segment of four octets and cannot be filed at any step.
        let rarest: Vec<Option<u32>> = runs
            .iter()
            .map(|r| r[0].map(|(count, _, _)| count))
            .collect();
        // The run a rule is filed under at `step`; `None` when it spills (is
        // always tried) because it has no run that long, or only runs much
        // more shared than its rarest gram.
        let run_at = |i: usize, step: usize| {
            let rarest = rarest[i]?;
            runs[i][step - 1].filter(|&(count, _, _)| count <= (2 * rarest).max(8))
        };
        let n_globs = rarest.len();
        // `rarest`, a pass per step tried, `filing`, `common`.
        work::add_with(move || n_globs * (MAX_STEP + 3));
        let may_spill = MAX_SPILLED.min(n_globs / 16);
        let step = (2..=MAX_STEP)
            .rev()
            .find(|&step| {
                let mut spilled =
                    (0..n_globs).filter(|&i| rarest[i].is_some() && run_at(i, step).is_none());
                spilled.nth(may_spill).is_none()
            })
            .unwrap_or(1);
        let filing: Vec<Run> = (0..n_globs).map(|i| run_at(i, step)).collect();
        let bits_log2 = size_log2(n_globs * step * 16, MIN_BITS_LOG2, MAX_BITS_LOG2);
        let shift = 32 - bits_log2;
        let mut index = TailIndex {
            present: vec![0u64; 1 << (bits_log2 - 6)].into_boxed_slice(),
            before: Box::default(),
            starts: Box::default(),
            shift,
            filed: Vec::with_capacity(n_globs * step),
            unfiled: Vec::new(),
            step,
            required: [None; 2],
            lead: None,
        };
        // From the tails' octet filters, in which these octets have a bit
        // each: a word per tail, not a set of 256 filled octet by octet
        // (that took 7% of the build of www.sophos.com, 583 `*` rules).
        let common = globs
            .clone()
            .map(|g| g.needs)
            .reduce(|a, b| a.intersection(&b))
            .unwrap_or_default();
        // `/` only if there is room (see `required`). Past a node of
        // `/a/*/b-1` rules, the 10,000-rule benchmark's pages (`/a/c-2.html`)
        // hold no `/`: asking for it took its check from 77.8 to 70.4 ns a
        // URL, against 34.0 for the 10-rule file (three runs, each the best
        // of 800 passes), and the corpus check did not move.
        let slash = common.punctuation().filter(|&b| b == b'/');
        let mut marks = common.punctuation().filter(|&b| b != b'/').chain(slash);
        index.required = [marks.next(), marks.next()];
        // On the 10,000-rule benchmark file (999 `/*?key=` rules from the
        // root) this took the check from 70.6 to 67.6 ns a URL.
        index.lead = globs
            .clone()
            .map(|g| g.segments(arena).next().and_then(|s| s.first().copied()))
            .reduce(|a, b| a.filter(|&a| Some(a) == b))
            .flatten();
        let mut window: Vec<u32> = Vec::with_capacity(step);
        for (i, (g, run)) in globs.zip(filing).enumerate() {
            let Some((_, si, at)) = run else {
                index.unfiled.push(i as u32);
                continue;
            };
            let seg = segments(g).nth(si).unwrap_or_default();
            window.clear();
            work::add(step);
            window.extend(grams(seg).skip(at).take(step));
            window.sort_unstable();
            window.dedup();
            for &gram in &window {
                let (word, mask) = bit(gram, shift);
                index.present[word] |= mask;
                index.filed.push((gram, i as u32));
            }
        }
        work::add_with(|| work::sort_steps(index.filed.len()));
        index
            .filed
            .sort_unstable_by_key(|&(gram, tail)| (hash(gram, shift), gram, tail));
        work::add_with(|| index.present.len() + index.filed.len());
        let mut set = 0;
        index.before = index
            .present
            .iter()
            .map(|word| {
                let before = set;
                set += word.count_ones();
                before
            })
            .collect();
        let mut starts = Vec::with_capacity(set as usize + 1);
        let mut last = None;
        for (at, &(gram, _)) in index.filed.iter().enumerate() {
            let slot = Some(hash(gram, shift));
            if slot != last {
                starts.push(at as u32);
                last = slot;
            }
        }
        starts.push(index.filed.len() as u32);
        index.starts = starts.into_boxed_slice();
        index
    }

    /// Calls `f` with every tail that may match `rest` (each at least once;
    /// some more than once, when the path holds several of its grams).
    #[inline]
    pub fn for_each_candidate(&self, rest: &[u8], mut f: impl FnMut(u32)) {
        // A match starts at a `lead` (see there), and holds every gram it
        // is filed under: none lies before the first. The grams from it on
        // still include one at every `step`-th position of each segment.
        // The lead may be a required octet too; searched for again below,
        // it is found at once (taking it out of `required` measured no
        // faster).
        let rest = match self.lead {
            Some(lead) => match find_any(rest, [lead]) {
                Some(at) => &rest[at..],
                None => return,
            },
            None => rest,
        };
        if !self
            .required
            .iter()
            .flatten()
            .all(|&b| find_any(rest, [b]).is_some())
        {
            return;
        }
        self.unfiled.iter().for_each(|&t| f(t));
        // The map turns most grams away: it is probed in a loop that does
        // nothing else, and the few grams it holds are looked up after.
        // With the lookups in the loop, and the tails' search inlined
        // there too, the loop kept its values on the stack. Over the 40
        // URLs of www.uab.edu (31 `*` rules at `/`, every gram of a path
        // probed) the check went from 165.2 to 145.2 ns a URL, 98.4 to
        // 85.1 on www.sophos.com, 124.7 to 117.7 on msdn.microsoft.com;
        // the corpus and the 10,000-rule file did not move (builds taking
        // turns, the best of six runs).
        let mut found = [0u32; FOUND];
        let mut n = 0;
        let mut at = 0;
        while let Some(w) = rest.get(at..).and_then(|r| r.first_chunk::<4>()) {
            work::add(1);
            let gram = u32::from_le_bytes(*w);
            let (word, mask) = bit(gram, self.shift);
            if self.present[word] & mask != 0 {
                if n == FOUND {
                    self.look_up(&found, &mut f);
                    n = 0;
                }
                found[n] = gram;
                n += 1;
            }
            at += self.step;
        }
        self.look_up(&found[..n], &mut f);
    }

    /// Calls `f` with the tails filed under each of `grams`, all of which
    /// have their bit in `present`.
    #[inline]
    fn look_up(&self, grams: &[u32], f: &mut impl FnMut(u32)) {
        for &gram in grams {
            // The bit is found again rather than kept with the gram: few
            // grams get here, and the probe loop stays one store a find.
            let (word, mask) = bit(gram, self.shift);
            let bits = self.present[word];
            let rank = (self.before[word] + (bits & (mask - 1)).count_ones()) as usize;
            let bucket = self.starts[rank] as usize..self.starts[rank + 1] as usize;
            work::add_with(|| 1 + bucket.len());
            // Other grams may share the bucket: their hashes collide.
            for &(k, t) in &self.filed[bucket] {
                if k == gram {
                    f(t);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(arena: &mut Vec<u8>, segs: &[&str]) -> Glob {
        let a = arena.len() as u32;
        for s in segs {
            arena.push(b'*');
            arena.extend_from_slice(s.as_bytes());
        }
        Glob::new(&arena[a as usize..], a, false)
    }

    /// The index of `n` globs, the `i`th made of the segments `segs(i)`.
    fn index_of(arena: &mut Vec<u8>, n: u32, segs: impl Fn(u32) -> Vec<String>) -> TailIndex {
        let globs: Vec<Glob> = (0..n)
            .map(|i| {
                let segs = segs(i);
                glob(arena, &segs.iter().map(String::as_str).collect::<Vec<_>>())
            })
            .collect();
        TailIndex::build(arena, globs.iter())
    }

    /// Every tail the index offers for `path`, as often as it offers it.
    fn candidates(index: &TailIndex, path: &[u8]) -> Vec<u32> {
        let mut found = Vec::new();
        index.for_each_candidate(path, |t| found.push(t));
        found
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
        let mut found = candidates(&index, b"/a/b?sort=1");
        found.sort_unstable();
        found.dedup();
        assert!(found.contains(&0) && found.contains(&2));
        assert!(!found.contains(&3));
    }

    // The grams that the map holds are gathered a few at a time: a path
    // that holds more of them than that still gets every tail.
    #[test]
    fn a_path_with_more_filed_grams_than_are_gathered_at_once_gets_every_tail() {
        let mut arena = Vec::new();
        let n = 3 * FOUND as u32 + 1;
        let index = index_of(&mut arena, n, |i| vec![format!("q{i:03}")]);
        let path: String = (0..n).map(|i| format!("/q{i:03}")).collect();
        let mut found = candidates(&index, path.as_bytes());
        found.sort_unstable();
        found.dedup();
        assert_eq!(found, (0..n).collect::<Vec<_>>());
    }

    // A path without an octet that every tail needs matches none of them,
    // and the index offers none; the octets it needs come from the tails'
    // filters, which know punctuation octet by octet (not letters and
    // digits, which share bits by case), `/` last.
    #[test]
    fn a_path_without_an_octet_every_tail_needs_gets_no_candidate() {
        let mut arena = Vec::new();
        let index = index_of(&mut arena, 20, |i| vec![format!("/?key{i}=#a"), "b".into()]);
        assert_eq!(index.required, [Some(b'?'), Some(b'=')]);
        for (path, offered) in [
            (&b"/x/?key7=#ab"[..], true),
            (b"/x/?key7#ab", false),
            (b"/x/key7=#ab", false),
        ] {
            let found = candidates(&index, path);
            assert_eq!(
                found.contains(&7),
                offered,
                "{:?}",
                String::from_utf8_lossy(path)
            );
        }
        let index = index_of(&mut arena, 20, |i| vec![format!("page{i}")]);
        assert_eq!(index.required, [None, None]);
    }

    // `/shop/*/reviews-1`, `/shop/*/reviews-2`, ... hang from `/shop/`: a
    // path with no `/` past it (`/shop/item-12`) cannot match them, though
    // `/` is in every path.
    #[test]
    fn a_slash_is_required_when_no_other_mark_takes_its_place() {
        let mut arena = Vec::new();
        let index = index_of(&mut arena, 20, |i| vec![format!("/reviews-{i}")]);
        assert_eq!(index.required, [Some(b'-'), Some(b'/')]);
        assert!(candidates(&index, b"item-12/reviews-7").contains(&7));
        assert!(candidates(&index, b"item-12reviews-7").is_empty());
        // Two other marks leave no room for it.
        let index = index_of(&mut arena, 20, |i| vec![format!("/?key{i}=")]);
        assert_eq!(index.required, [Some(b'?'), Some(b'=')]);
    }

    // Every `*?key{i}=` tail starts its match at a `?`: grams before the
    // path's first `?` are not looked up, those after it are.
    #[test]
    fn grams_before_the_octet_that_starts_every_tail_are_not_looked_up() {
        let mut arena = Vec::new();
        let globs: Vec<Glob> = (0..20)
            .map(|i| glob(&mut arena, &[&format!("?key{i}="), "&page"]))
            .collect();
        let index = TailIndex::build(&arena, globs.iter());
        assert_eq!(index.lead, Some(b'?'));
        assert!(candidates(&index, b"a?key7=1&page=2").contains(&7));
        assert!(candidates(&index, b"key7=1?key7=&page").contains(&7));
        assert!(!candidates(&index, b"key7=1?q=&page").contains(&7));
        assert!(candidates(&index, b"key7=&page").is_empty());
        // Tails that start with different octets share no lead.
        let mut mixed = globs[..19].to_vec();
        mixed.push(glob(&mut arena, &[".pdf"]));
        let index = TailIndex::build(&arena, mixed.iter());
        assert_eq!(index.lead, None);
        assert!(candidates(&index, b"a/b.pdf").contains(&19));
    }

    // Thousands of rules fill the shared-gram counters with collisions; the
    // count only steers which gram a rule is filed under, so every rule must
    // still come up for a path that holds its segments.
    #[test]
    fn every_rule_is_a_candidate_for_its_own_path_in_a_crowded_index() {
        let mut arena = Vec::new();
        let index = index_of(&mut arena, 3_000, |i| {
            vec![format!("?sort={i}&"), "id=".into()]
        });
        assert!(index.unfiled.is_empty());
        for i in (0..3_000).step_by(7) {
            let path = format!("/list?sort={i}&id=9");
            let found = candidates(&index, path.as_bytes());
            assert!(found.contains(&(i as u32)), "rule {i} not a candidate");
            // Filed under a rare gram, not under `?sor` that all share.
            assert!(found.len() < 50, "{} candidates for rule {i}", found.len());
        }
    }

    // With long segments the check probes every fourth gram of the path;
    // a rule's segment must be found wherever it starts, at every offset
    // modulo the step.
    #[test]
    fn a_stepped_index_finds_a_segment_at_every_offset() {
        let mut arena = Vec::new();
        let index = index_of(&mut arena, 64, |i| {
            vec![format!("p{:08x}", i.wrapping_mul(0x9E37_79B1))]
        });
        assert_eq!(index.step, MAX_STEP);
        assert!(index.unfiled.is_empty());
        for i in 0..64u32 {
            for pad in 0..2 * MAX_STEP {
                let path = format!(
                    "/{}/p{:08x}/x",
                    "a".repeat(pad),
                    i.wrapping_mul(0x9E37_79B1)
                );
                let found = candidates(&index, path.as_bytes());
                assert!(found.contains(&i), "rule {i} at offset {pad}");
            }
        }
    }

    // A rule whose segment is too short for the step, or shared by many,
    // would be always tried: a step is taken only when few rules spill.
    #[test]
    fn short_segments_keep_the_step_at_one() {
        let mut arena = Vec::new();
        let index = index_of(&mut arena, 32, |i| vec![format!("?k{i:02}")]);
        assert_eq!(index.step, 1);
        assert!(index.unfiled.is_empty());
    }
}
