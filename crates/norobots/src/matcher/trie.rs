//! The trie's layout: what a node holds, and the rules that end at one.

use crate::pattern::Glob;

/// What a check reads at every level of the trie, in 32 octets (two nodes
/// to a cache line). A level costs one load where it can: the label's first
/// eight octets, the best prefix rule that ends here and, for a node of a
/// few children, their first octets sit in the node, and the children of a
/// node of more are mostly laid out by octet. Only long labels, spread-out
/// children and the rarer exact and `*` rules are read elsewhere.
///
/// Aligned to its size so that no node straddles two cache lines: the
/// allocator aligns a large `Vec` to 16 octets only, which put every other
/// node of the 10,000-rule benchmark file across a line. Its check went
/// from 67.2-67.9 to 66.2-66.7 ns a URL (seven alternations outside
/// criterion, whose own run-to-run noise is larger than that).
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(32))]
pub(super) struct Node {
    /// The label's first eight octets, little-endian, zero-padded.
    pub(super) head: u64,
    /// The label: a span of the arena, at most `MAX_LABEL` long.
    pub(super) label: u32,
    pub(super) label_len: u16,
    /// At most 256: one child per first octet; with `DIRECT`, the slots.
    pub(super) n_children: u16,
    pub(super) first_child: u32,
    /// The ordinal (see `Ordinals`) of the best prefix rule that ends at
    /// this node; 0 for none.
    pub(super) prefix: u32,
    /// Into `Matcher::ends`, or `NO_ENDS`.
    pub(super) ends: u32,
    /// With at most `INLINE` children, their first octets (little-endian,
    /// in order); with `DIRECT`, the first slot's octet; otherwise, with
    /// more than `WIDE` children, an index into `Matcher::wide`.
    pub(super) pick: u32,
}

// Two to a cache line, none across two.
const _: () = assert!(std::mem::size_of::<Node>() == 32 && std::mem::align_of::<Node>() == 32);

/// Nodes with at most this many children (95% of them in the corpus) keep
/// their first octets in `Node::pick`.
pub(super) const INLINE: usize = 4;

/// The flag in `Node::n_children` of a node whose children (more than
/// `INLINE`) lie one per octet from the octet in `Node::pick`, holes
/// included, as many as the low bits say: the child for an octet is found
/// without a load, so the check's next load can start as soon as this node
/// has arrived (a table or a scan of first octets would be one more load
/// in the chain).
pub(super) const DIRECT: u16 = 0x8000;

/// How many slots per child a node may take for `DIRECT`: the holes cost
/// memory; otherwise it keeps the first octets of its children (or, with
/// more than `WIDE` children, a table).
pub(super) const DIRECT_SPREAD: usize = 4;

/// Nodes with more children than this get a table in `Matcher::wide`.
pub(super) const WIDE: usize = 16;

/// Longer labels are cut into a chain of nodes, so that a length fits in
/// `Node::label_len`.
pub(super) const MAX_LABEL: usize = u16::MAX as usize;

pub(super) const NO_ENDS: u32 = u32::MAX;

/// The exact and `*` rules that end at one node, as ordinals.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Ends {
    pub(super) exact: u32,
    pub(super) tails: (u32, u32),
    /// Into `Matcher::indexes` when the node has many tails, else `NO_INDEX`.
    pub(super) index: u32,
}

pub(super) const NO_INDEX: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub(super) struct Tail {
    /// An ordinal (see `Ordinals`).
    pub(super) rank: u32,
    pub(super) glob: Glob,
}
