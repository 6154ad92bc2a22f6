//! Ranks, the numbers whose maximum over the matching rules is the
//! deciding rule, and the ordinals that hold them in four octets.

use crate::dialect::Dialect;
use crate::rule_kind::RuleKind;
use crate::work;

/// Longest-match priorities are capped so that the rank's fields never
/// overlap, however long a hostile pattern is.
const MAX_PRIORITY: u64 = (1 << 30) - 1;

/// The rank of the `order`-th rule (counting from 0 over the rules that
/// apply), whose pattern after any rewrite is `pattern_len` octets long.
pub(crate) fn rank(dialect: Dialect, pattern_len: usize, kind: RuleKind, order: u32) -> u64 {
    let first = u64::from(u32::MAX - order);
    match dialect {
        Dialect::Norobots1994 | Dialect::Draft1996 => first,
        Dialect::Rfc9309 | Dialect::Google => {
            let priority = (pattern_len as u64).min(MAX_PRIORITY);
            priority << 33 | u64::from(kind == RuleKind::Allow) << 32 | first
        }
    }
}

/// How ranks (see [`rank`], eight octets) are held in four: as ordinals
/// that order as the ranks do, 0 standing for no rule.
///
/// An ordinal's lowest bit says whether its rule is an `Allow`, below the
/// bits that order it: two rules never share the rest (their ranks differ
/// in `order`), so the bit never decides between them, and `is_allowed`
/// answers from the ordinal without reading the rule (see `allows`).
#[derive(Clone, Debug)]
pub(super) enum Ordinals {
    /// `(class << order_bits | (rules - order)) << 1 | allow`, where
    /// `class` is the place of the rank's top half (priority and kind)
    /// among the distinct top halves of the matcher's ranks, and `order`
    /// the rule's index. Nothing to look up: the rule's index is in the low
    /// bits. Fits unless a file has both very many rules and very many
    /// pattern lengths.
    Packed { order_bits: u32, rules: u32 },
    /// Otherwise: `place << 1 | allow`, where `place` is the place among
    /// all the distinct ranks, which this holds (0 first).
    Dense(Vec<u64>),
}

impl Ordinals {
    /// The index of the rule that an ordinal (not 0) stands for.
    pub(super) fn order(&self, ordinal: u32) -> usize {
        let ordinal = ordinal >> 1;
        match self {
            Ordinals::Packed { order_bits, rules } => {
                let low = u64::from(ordinal) & ((1 << order_bits) - 1);
                (u64::from(*rules) - low) as usize
            }
            Ordinals::Dense(ranks) => (u32::MAX - ranks[ordinal as usize] as u32) as usize,
        }
    }
}

/// Whether the rule an ordinal (not 0) stands for is an `Allow` (see
/// `Ordinals`).
///
/// Reading the kind from `Matcher::rules` was one more load per check, far
/// from the trie, and a miss when the file is big or its matcher not
/// recently used: with the bit, the corpus check went from 85.0-87.3 to
/// 80.6-84.4 ns a URL and the 10,000-rule one from 68.6 to 67.2 (the
/// builds taking turns; four and six runs).
#[inline]
pub(super) fn allows(ordinal: u32) -> bool {
    ordinal & 1 == 1
}

/// Turns ranks into ordinals while a matcher is built: `Ordinals`, and
/// when they are packed, the class of each top half.
pub(super) enum Ranker {
    Packed {
        order_bits: u32,
        rules: u32,
        classes: Classes,
    },
    Dense(Vec<u64>),
}

/// The place of a rank's top half among the distinct top halves.
pub(super) enum Classes {
    /// By top half, for files whose patterns are at most `CLASS_TABLE / 2`
    /// octets long (all but hostile ones): one load per rule.
    Table(Vec<u32>),
    /// The distinct top halves, in order, to bisect.
    Sorted(Vec<u32>),
}

/// See `Classes::Table`.
const CLASS_TABLE: u32 = 1 << 12;

impl Ranker {
    /// Ordinals for `ranks`, the ranks of a matcher of `rules` rules, in at
    /// most `bits` bits (the `Allow` bit included) when they can be packed.
    pub(super) fn new(ranks: impl Iterator<Item = u64> + Clone, rules: u32, bits: u32) -> Ranker {
        let top = |r: u64| (r >> 32) as u32;
        let max_top = ranks.clone().map(top).max().unwrap_or(0);
        let (classes, count) = if max_top < CLASS_TABLE {
            let mut table = vec![0u32; max_top as usize + 1];
            // Its caller counts the passes over the ranks.
            work::add_with(|| table.len());
            for r in ranks.clone() {
                table[top(r) as usize] = 1;
            }
            // Flags to places: the count of the tops below each.
            let mut count = 0;
            for slot in &mut table {
                let present = *slot;
                *slot = count;
                count += present;
            }
            (Classes::Table(table), count)
        } else {
            let mut sorted: Vec<u32> = ranks.clone().map(top).collect();
            work::add_with(|| work::sort_steps(sorted.len()));
            sorted.sort_unstable();
            sorted.dedup();
            let count = sorted.len() as u32;
            (Classes::Sorted(sorted), count)
        };
        let order_bits = u32::BITS - rules.leading_zeros();
        let class_bits = u32::BITS - count.saturating_sub(1).leading_zeros();
        if class_bits + order_bits < bits {
            return Ranker::Packed {
                order_bits,
                rules,
                classes,
            };
        }
        let mut all: Vec<u64> = ranks.collect();
        // Ordinal 0 is no rule; every rule's rank is above 0.
        all.push(0);
        work::add_with(|| work::sort_steps(all.len()));
        all.sort_unstable();
        all.dedup();
        Ranker::Dense(all)
    }

    /// The ordinal of `rank`, one of the ranks `Ranker::new` was given, the
    /// rank of an `Allow` rule if `allow`.
    pub(super) fn ordinal(&self, rank: u64, allow: bool) -> u32 {
        // The shift loses no bit: a packed place fits in `bits - 1` bits
        // (see `new`), and a dense one is at most the number of entries,
        // below 2^31 (see `MAX_RULES`).
        let place = match self {
            Ranker::Packed {
                order_bits,
                rules,
                classes,
            } => {
                let top = (rank >> 32) as u32;
                let class = match classes {
                    Classes::Table(table) => table[top as usize],
                    Classes::Sorted(sorted) => {
                        sorted.binary_search(&top).unwrap_or_default() as u32
                    }
                };
                let order = u32::MAX - rank as u32;
                (u64::from(class) << order_bits | u64::from(rules - order)) as u32
            }
            Ranker::Dense(ranks) => ranks.binary_search(&rank).unwrap_or_default() as u32,
        };
        place << 1 | u32::from(allow)
    }

    /// What the matcher keeps to turn ordinals back into rules.
    pub(super) fn into_ordinals(self) -> Ordinals {
        match self {
            Ranker::Packed {
                order_bits, rules, ..
            } => Ordinals::Packed { order_bits, rules },
            Ranker::Dense(ranks) => Ordinals::Dense(ranks),
        }
    }
}
#[cfg(test)]
mod tests {
    use crate::dialect::Dialect;

    // Ordinals order as the ranks do, are never 0, and give back the rule
    // and its kind: looked up in a table by top half, bisected for long
    // patterns, and numbered densely when they do not pack.
    #[test]
    fn ordinals_keep_the_order_of_ranks_and_find_the_rule() {
        use super::{allows, rank, Classes, Ranker};
        use crate::RuleKind::{Allow, Disallow};
        for longest in [40, 5_000] {
            for d in Dialect::ALL {
                let allow = |i: usize| i % 3 == 0;
                let ranks: Vec<u64> = (0..50u32)
                    .map(|i| {
                        let len = (i as usize * 7919) % longest + 1;
                        rank(d, len, if allow(i as usize) { Allow } else { Disallow }, i)
                    })
                    .collect();
                let ordinal = |ranker: &Ranker, r: u64| {
                    ranker.ordinal(r, allow((u32::MAX - r as u32) as usize))
                };
                for bits in [32, 3] {
                    let ranker = Ranker::new(ranks.iter().copied(), 50, bits);
                    if bits == 32 && !d.is_legacy() {
                        let table = matches!(
                            ranker,
                            Ranker::Packed {
                                classes: Classes::Table(_),
                                ..
                            }
                        );
                        assert_eq!(table, longest < 2_000, "{d} {longest}");
                    }
                    let mut by_rank: Vec<(u64, u32)> =
                        ranks.iter().map(|&r| (r, ordinal(&ranker, r))).collect();
                    by_rank.sort_unstable();
                    assert!(by_rank[0].1 > 0);
                    assert!(by_rank.windows(2).all(|w| w[0].1 < w[1].1), "{d} {bits}");
                    let ordinals: Vec<u32> = ranks.iter().map(|&r| ordinal(&ranker, r)).collect();
                    let kept = ranker.into_ordinals();
                    for (i, &o) in ordinals.iter().enumerate() {
                        assert_eq!(kept.order(o), i, "{d} {bits}");
                        assert_eq!(allows(o), allow(i), "{d} {bits}");
                    }
                }
            }
        }
    }
}
