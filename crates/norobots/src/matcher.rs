//! The rules for one robot, compiled into a radix trie over their literal
//! prefixes, so that a check walks the URL once instead of trying every rule.
//!
//! Every rule becomes a *rank*: a number whose maximum over the matching
//! rules is the deciding rule. For the longest-match dialects the rank is
//! `priority << 33 | allow << 32 | !order`; for the first-match dialects it
//! is `!order`. Rules with the same literal prefix meet in one trie node:
//! plain prefixes keep only their best rank, `$`-anchored literals another,
//! and patterns with `*` keep their tail (from the first `*` on), sorted by
//! rank so that a check stops at the first tail that matches or cannot win.
//! A node with many tails also gets an index of them (see `index.rs`).

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use crate::agent;
use crate::index::{TailIndex, MIN_TAILS};
use crate::pattern::{
    index_html_rule, normalize, path_of, rewrite_pattern, Glob, OctetFilter, Parts,
};
use crate::scan::common_prefix;
use crate::work;
use crate::{Dialect, RequestRate, Robots, RuleKind, VisitTime};

/// The compiled rules of one robot.
///
/// `Matcher` does not borrow the [`Robots`] it came from: it owns its trie
/// and shares the file's body (reference-counted) for the text of its rules.
/// It is `Send + Sync`: keep one per host. A check does not allocate.
///
/// How each dialect reads the `agent` given to [`Robots::matcher`]:
/// `norobots1994` and `draft1996` take the name up to the first `/` or white
/// space and look for it as a case-insensitive substring of each agent value,
/// the first matching record winning; `rfc9309` takes the leading product
/// token and merges every group whose token equals it; `google` compares the
/// value whole, as the reference library does.
///
/// # Example
///
/// ```
/// use norobots::{Robots, RuleKind};
///
/// let robots = Robots::parse(b"User-agent: *\nDisallow: /shop/\nAllow: /shop/help\n");
/// let matcher = robots.matcher("ExampleBot/1.0");
///
/// assert!(matcher.is_allowed("https://example.com/"));
/// assert!(!matcher.is_allowed("https://example.com/shop/cart?id=7"));
///
/// let verdict = matcher.check("/shop/help/returns");
/// assert!(verdict.allowed);
/// let rule = verdict.rule.unwrap();
/// assert_eq!((rule.line, rule.kind, rule.pattern), (3, RuleKind::Allow, "/shop/help"));
/// ```
#[derive(Clone)]
pub struct Matcher {
    dialect: Dialect,
    /// The octets that trie labels, glob segments and rule texts are spans
    /// of: the file's body, followed by the patterns that had to be
    /// rewritten (`%xx`, non-ASCII). Most files need no rewrite, and then
    /// this is the body itself, shared with the [`Robots`]: nothing copied.
    arena: Arc<[u8]>,
    /// The trie, children of a node side by side: a node's children are
    /// `nodes[first_child..][..n_children]` (with holes, for a node laid
    /// out by octet: see `DIRECT`), so no table of child ids is needed
    /// between a node and its children.
    nodes: Vec<Node>,
    /// The first octet of each node's label, by node id: a node's children
    /// have theirs side by side and sorted, so finding the child to descend
    /// to among a few more than `INLINE`, too spread out to be laid out by
    /// octet, is a short scan or a bisection of one cache line.
    first_octets: Vec<u8>,
    /// The exact and `*` rules that end at a node, for the nodes where some
    /// do (a node holds its best prefix rule itself).
    ends: Vec<Ends>,
    /// How the nodes hold ranks in four octets.
    ordinals: Ordinals,
    /// For nodes with many children too spread out to be laid out by
    /// octet: the position of the child for each first octet (0 also means
    /// none, which the label compare catches), one load instead of a
    /// bisection.
    wide: Vec<[u8; 256]>,
    tails: Vec<Tail>,
    indexes: Vec<TailIndex>,
    rules: Vec<RuleInfo>,
    /// The text of the rules that are not valid UTF-8 on their own.
    lossy: String,
    crawl_delay: Option<f64>,
    request_rate: Option<RequestRate>,
    visit_time: Option<VisitTime>,
    matched_group: bool,
    /// Whether some rule is a `Disallow`. Of the benchmark's 4,000 corpus
    /// files, 816 have none for Googlebot (644 no rule for it at all, 172
    /// only `Allow` lines): every URL is allowed there, and `is_allowed`
    /// need not read it.
    disallows: bool,
}

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
struct Node {
    /// The label's first eight octets, little-endian, zero-padded.
    head: u64,
    /// The label: a span of the arena, at most `MAX_LABEL` long.
    label: u32,
    label_len: u16,
    /// At most 256: one child per first octet; with `DIRECT`, the slots.
    n_children: u16,
    first_child: u32,
    /// The ordinal (see `Ordinals`) of the best prefix rule that ends at
    /// this node; 0 for none.
    prefix: u32,
    /// Into `Matcher::ends`, or `NO_ENDS`.
    ends: u32,
    /// With at most `INLINE` children, their first octets (little-endian,
    /// in order); with `DIRECT`, the first slot's octet; otherwise, with
    /// more than `WIDE` children, an index into `Matcher::wide`.
    pick: u32,
}

// Two to a cache line, none across two.
const _: () = assert!(std::mem::size_of::<Node>() == 32 && std::mem::align_of::<Node>() == 32);

/// Nodes with at most this many children (95% of them in the corpus) keep
/// their first octets in `Node::pick`.
const INLINE: usize = 4;

/// The flag in `Node::n_children` of a node whose children (more than
/// `INLINE`) lie one per octet from the octet in `Node::pick`, holes
/// included, as many as the low bits say: the child for an octet is found
/// without a load, so the check's next load can start as soon as this node
/// has arrived (a table or a scan of first octets would be one more load
/// in the chain).
const DIRECT: u16 = 0x8000;

/// How many slots per child a node may take for `DIRECT`: the holes cost
/// memory; otherwise it keeps the first octets of its children (or, with
/// more than `WIDE` children, a table).
const DIRECT_SPREAD: usize = 4;

/// Nodes with more children than this get a table in `Matcher::wide`.
const WIDE: usize = 16;

/// Longer labels are cut into a chain of nodes, so that a length fits in
/// `Node::label_len`.
const MAX_LABEL: usize = u16::MAX as usize;

const NO_ENDS: u32 = u32::MAX;

/// A matcher keeps at most this many rules, and passes over the rest: with
/// two trie entries per rule at most (see `index_html_rule`), every
/// ordinal, its `Allow` bit included, fits in a `u32` (see `Ordinals`). A
/// file would need gigaoctets of rules to come near it.
const MAX_RULES: usize = (1 << 30) - 1;

/// The exact and `*` rules that end at one node, as ordinals.
#[derive(Clone, Copy, Debug, Default)]
struct Ends {
    exact: u32,
    tails: (u32, u32),
    /// Into `Matcher::indexes` when the node has many tails, else `NO_INDEX`.
    index: u32,
}

const NO_INDEX: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Tail {
    /// An ordinal (see `Ordinals`).
    rank: u32,
    glob: Glob,
}

/// How ranks (see [`rank`], eight octets) are held in four: as ordinals
/// that order as the ranks do, 0 standing for no rule.
///
/// An ordinal's lowest bit says whether its rule is an `Allow`, below the
/// bits that order it: two rules never share the rest (their ranks differ
/// in `order`), so the bit never decides between them, and `is_allowed`
/// answers from the ordinal without reading the rule (see `allows`).
#[derive(Clone, Debug)]
enum Ordinals {
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
    fn order(&self, ordinal: u32) -> usize {
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
fn allows(ordinal: u32) -> bool {
    ordinal & 1 == 1
}

/// Turns ranks into ordinals while a matcher is built: `Ordinals`, and
/// when they are packed, the class of each top half.
enum Ranker {
    Packed {
        order_bits: u32,
        rules: u32,
        classes: Classes,
    },
    Dense(Vec<u64>),
}

/// The place of a rank's top half among the distinct top halves.
enum Classes {
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
    fn new(ranks: impl Iterator<Item = u64> + Clone, rules: u32, bits: u32) -> Ranker {
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
    fn ordinal(&self, rank: u64, allow: bool) -> u32 {
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
    fn into_ordinals(self) -> Ordinals {
        match self {
            Ranker::Packed {
                order_bits, rules, ..
            } => Ordinals::Packed { order_bits, rules },
            Ranker::Dense(ranks) => Ordinals::Dense(ranks),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct RuleInfo {
    line: u32,
    kind: RuleKind,
    /// The pattern as written: a span of `arena` (in its body part), or of
    /// `lossy`.
    text: (u32, u32),
    lossy: bool,
}

/// What a check decided, and which rule decided it.
///
/// ```
/// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /a\n");
/// let matcher = robots.matcher("bot");
/// let v = matcher.check("/a/b");
/// assert!(!v.allowed);
/// assert_eq!(v.rule.unwrap().to_string(), "line 2: Disallow: /a");
/// assert_eq!(matcher.check("/b").rule, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict<'a> {
    /// Whether the robot may fetch the URL.
    pub allowed: bool,
    /// The deciding rule; `None` when no rule matched (or the URL is
    /// `/robots.txt`, which the dialects that say so always allow).
    pub rule: Option<RuleRef<'a>>,
}

/// A rule as a [`Verdict`] reports it.
///
/// ```
/// use norobots::{RuleKind, RuleRef};
///
/// let rule = RuleRef { line: 4, kind: RuleKind::Disallow, pattern: "/tmp/" };
/// assert_eq!(rule.to_string(), "line 4: Disallow: /tmp/");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleRef<'a> {
    /// The line the rule is on (1-based).
    pub line: usize,
    /// `Allow` or `Disallow`.
    pub kind: RuleKind,
    /// The pattern as written in the file.
    pub pattern: &'a str,
}

impl fmt::Display for RuleRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}: {}", self.line, self.kind, self.pattern)
    }
}

/// One key of the trie and what ends there. Kept small and sorted in place:
/// the build reads entries in key order, and an index into a side table
/// would be a cache miss per rule in big files.
struct Entry {
    /// The key's first sixteen octets, big-endian, zero-padded, as two
    /// words: most sort comparisons end here, and the build reads the
    /// octets, common prefixes and labels of the trie's first levels from
    /// them instead of from the arena, where each key is a cache miss in a
    /// big file (sorted, the keys no longer follow the body's order).
    head: [u64; 2],
    key: (u32, u32),
    /// The ordinal (see `Ordinals`) of the rule's rank, once the build has
    /// ranked the entries (the ranks wait in `Build::ranks`): four octets
    /// where the rank takes eight, so that an entry fits in 32.
    ordinal: u32,
    what: What,
}

// Four entries to two cache lines: the sort moves them, and the build reads
// them in order.
const _: () = assert!(std::mem::size_of::<Entry>() == 32);

/// What ends at an entry's key: a prefix rule, an exact (`$`) rule, or
/// else a `*` rule, by the index of its glob in the build's glob table.
#[derive(Clone, Copy, PartialEq, Eq)]
struct What(u32);

impl What {
    const PREFIX: What = What(u32::MAX);
    const EXACT: What = What(u32::MAX - 1);
}

/// A node of the trie still to be built: (node, first entry, end entry,
/// depth).
type Job = (usize, usize, usize, usize);

/// What the rules become before the trie is built, and the vectors the
/// build works in. None of it outlives a build; a thread keeps it for its
/// next build while it is small (see `BUILD`).
#[derive(Default)]
struct Build {
    entries: Vec<Entry>,
    /// The rank of each entry, by its place before the sort.
    ranks: Vec<u64>,
    globs: Vec<Glob>,
    work: Vec<Job>,
    tails: Vec<Tail>,
    kids: Vec<Node>,
    jobs: Vec<Job>,
}

impl Build {
    /// Whether the vectors hold little enough to keep for the next build.
    fn small(&self) -> bool {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        bytes(&self.entries)
            + bytes(&self.ranks)
            + bytes(&self.globs)
            + bytes(&self.work)
            + bytes(&self.tails)
            + bytes(&self.kids)
            + bytes(&self.jobs)
            <= KEEP_BUILD
    }

    /// Gives the vectors back to this thread, emptied, when they are small
    /// (see `BUILD`); a build takes them as they are.
    fn keep(mut self) {
        if !self.small() {
            return;
        }
        self.entries.clear();
        self.ranks.clear();
        self.globs.clear();
        self.work.clear();
        self.tails.clear();
        self.kids.clear();
        self.jobs.clear();
        let _ = BUILD.try_with(|kept| kept.replace(self));
    }
}

/// The most a thread keeps of a build's vectors (see `BUILD`).
const KEEP_BUILD: usize = 64 << 10;

thread_local! {
    /// The vectors of the last build on this thread, emptied, when they
    /// were small: a crawler compiles one small file per host, and taking
    /// them back saves most of the allocations of a build (the matcher's own
    /// vectors are new each time). A large build's are freed, so a thread
    /// holds at most `KEEP_BUILD` octets of them.
    static BUILD: RefCell<Build> = RefCell::default();

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

/// Gives back the room `v` reserved and did not use, when it comes to
/// [`SPARE_KEPT`] octets or more. A crawler keeps a matcher per host for as
/// long as the file is fresh, and the build reserves for as many nodes as a
/// trie of its keys may need, where most tries need a third fewer: over the
/// benchmark's 4,000 files, the matchers (bodies included) held 20.7 MB
/// with their spare room given back, against 23.8 MB.
fn trim_spare<T>(v: &mut Vec<T>) {
    if spare_octets(v) >= SPARE_KEPT {
        v.shrink_to_fit();
    }
}

/// The octets `v` has reserved and does not use.
pub(crate) fn spare_octets<T>(v: &Vec<T>) -> usize {
    (v.capacity() - v.len()) * std::mem::size_of::<T>()
}

/// Less spare room than this stays: most matchers are small, and a call to
/// the allocator on each build would cost more than the octets it saves.
const SPARE_KEPT: usize = 512;

/// Longest-match priorities are capped so that the rank's fields never
/// overlap, however long a hostile pattern is.
const MAX_PRIORITY: u64 = (1 << 30) - 1;

impl Matcher {
    /// The matcher for the first of `agents` that a group names, else for
    /// the `*` groups: [`Robots::matcher`] gives one agent,
    /// [`Robots::matcher_first_of`] several.
    pub(crate) fn new(robots: &Robots, agents: &[&str]) -> Matcher {
        Matcher::compile(robots, agents, u32::BITS)
    }

    /// [`Matcher::new`], packing ranks into `ordinal_bits` bits where they
    /// fit (tests make that fail on small files).
    fn compile(robots: &Robots, agents: &[&str], ordinal_bits: u32) -> Matcher {
        let groups = select_first_of(robots, agents);
        let dialect = robots.dialect;
        let mut m = Matcher {
            dialect,
            arena: Arc::clone(&robots.body),
            nodes: Vec::new(),
            first_octets: Vec::new(),
            ends: Vec::new(),
            ordinals: Ordinals::Packed {
                order_bits: 0,
                rules: 0,
            },
            wide: Vec::new(),
            tails: Vec::new(),
            indexes: Vec::new(),
            rules: Vec::new(),
            lossy: String::new(),
            crawl_delay: None,
            request_rate: None,
            visit_time: None,
            matched_group: groups.specific,
            disallows: false,
        };
        let n_rules: usize = groups
            .indices
            .iter()
            .map(|&g| (robots.groups[g].rules.1 - robots.groups[g].rules.0) as usize)
            .sum();
        m.rules.reserve(n_rules);
        // Taken, not borrowed: a build on this thread that this one caused
        // (none does today) would start with new vectors, not panic; so
        // does a build in another thread-local's destructor, after this
        // one's is gone.
        let mut build = BUILD.try_with(RefCell::take).unwrap_or_default();
        build.entries.reserve(n_rules);
        build.ranks.reserve(n_rules);
        let body_len = robots.body.len();
        // The rewritten patterns, which follow the body in the arena.
        let mut rewritten = Vec::new();
        for &g in &groups.indices {
            let group = &robots.groups[g];
            // Each from the first group that gives it: where rfc9309
            // merges groups, a pace set in one is not undone by another.
            m.crawl_delay = m.crawl_delay.or(group.crawl_delay);
            m.request_rate = m.request_rate.or(group.request_rate);
            m.visit_time = m.visit_time.or(group.visit_time);
            for rule in &robots.rules[group.rules.0 as usize..group.rules.1 as usize] {
                // This turn, and this rule's in the search for a `Disallow`
                // below.
                work::add(2);
                let raw = robots.bytes(rule.span);
                if raw.is_empty() || m.rules.len() >= MAX_RULES {
                    // An empty pattern matches nothing in every dialect.
                    continue;
                }
                let order = m.rules.len() as u32;
                // Validated, and perhaps copied lossily, if the body is not
                // UTF-8.
                work::add_with(move || if robots.utf8 { 0 } else { 2 * raw.len() });
                let (text, lossy) = if robots.utf8 || std::str::from_utf8(raw).is_ok() {
                    ((rule.span.start, rule.span.end), false)
                } else {
                    let start = m.lossy.len() as u32;
                    m.lossy.push_str(&String::from_utf8_lossy(raw));
                    ((start, m.lossy.len() as u32), true)
                };
                m.rules.push(RuleInfo {
                    line: rule.line,
                    kind: rule.kind,
                    text,
                    lossy,
                });
                // Most patterns are already in canonical form: no copy then.
                let start = rewritten.len();
                let (pattern, at) = if rewrite_pattern(dialect, raw, &mut rewritten) {
                    if body_len + rewritten.len() >= u32::MAX as usize {
                        // Spans are u32; only a body of gigaoctets gets here.
                        rewritten.truncate(start);
                        m.rules.pop();
                        continue;
                    }
                    (&rewritten[start..], (body_len + start) as u32)
                } else {
                    (raw, rule.span.start)
                };
                let ranked = rank(dialect, pattern.len(), rule.kind, order);
                m.add_rule(&mut build, Parts::of(dialect, pattern), at, ranked);
                if let Some((dir, len)) = index_html_rule(dialect, rule.kind, pattern) {
                    // A prefix of the pattern: it lies where the pattern does.
                    let ranked = rank(dialect, len, rule.kind, order);
                    m.add_rule(&mut build, dir, at, ranked);
                }
            }
        }
        if !rewritten.is_empty() {
            work::add_with(|| body_len + rewritten.len());
            m.arena = [&robots.body[..], &rewritten].concat().into();
        }
        m.disallows = m.rules.iter().any(|r| r.kind == RuleKind::Disallow);
        m.build(&mut build, ordinal_bits);
        build.keep();
        m
    }

    /// Adds a rule of rank `rank` whose pattern (after any rewrite) lies at
    /// `at` in the arena that `Matcher::new` puts together.
    fn add_rule(&mut self, build: &mut Build, parts: Parts<'_>, at: u32, rank: u64) {
        let literal = parts.literal;
        let key = (at, at + literal.len() as u32);
        // Big-endian, so that heads order as the keys do.
        let word = |at: usize| u64::from_be_bytes(first_eight(literal.get(at..).unwrap_or(&[])));
        let head = [word(0), word(8)];
        let mut push = |what| {
            build.entries.push(Entry {
                head,
                key,
                ordinal: 0,
                what,
            });
            build.ranks.push(rank);
        };
        if parts.tail.is_empty() {
            push(if parts.anchored {
                What::EXACT
            } else {
                What::PREFIX
            });
            return;
        }
        if parts.segments().next().is_none() {
            // `/a*`, `/a*$` and `/a**` match whatever follows the prefix.
            push(What::PREFIX);
            return;
        }
        // The tail follows the literal in the arena, as in the pattern.
        let glob = Glob::new(parts.tail, key.1, parts.last_ends());
        // Fewer globs than rules, and fewer rules than `MAX_RULES`.
        push(What(build.globs.len() as u32));
        build.globs.push(glob);
    }

    /// Builds the radix trie from the entries, depth first from a stack of
    /// jobs rather than by recursion (a hostile file can nest prefixes
    /// 100,000 deep). Each node's children are still made together, side by
    /// side; a queue, which would lay the trie out level by level, measured
    /// no faster (see the scaling notes in `crates/norobots-bench/README.md`).
    fn build(&mut self, build: &mut Build, ordinal_bits: u32) {
        let Build {
            entries,
            ranks,
            globs,
            work,
            tails,
            kids,
            jobs,
        } = build;
        // Ranked in two passes (see `Ranker::new`).
        work::add_with(|| 2 * ranks.len());
        let ranker = Ranker::new(ranks.iter().copied(), self.rules.len() as u32, ordinal_bits);
        work::add_with(|| entries.len());
        for (entry, &rank) in entries.iter_mut().zip(ranks.iter()) {
            // The low half of every dialect's rank (see `rank`).
            let order = u32::MAX - rank as u32;
            let allow = self.rules[order as usize].kind == RuleKind::Allow;
            entry.ordinal = ranker.ordinal(rank, allow);
        }
        let arena = Arc::clone(&self.arena);
        let key = |e: &Entry| &arena[e.key.0 as usize..e.key.1 as usize];
        let len = |e: &Entry| (e.key.1 - e.key.0) as usize;
        // By head first, as integers, then each run of equal heads by the
        // rest of its keys: most heads differ, and a comparison of two
        // integers sorts faster than one that may read the arena (the
        // benchmark's builds, builds taking turns: 4.67-4.72 -> 4.54-4.56 us
        // a file; the 47,064 rules of its largest file, 5.05 -> 4.65 ms).
        entries.sort_unstable_by_key(|e| {
            work::add(1);
            wide(e.head)
        });
        work::add_with(|| entries.len());
        for run in entries.chunk_by_mut(|a, b| a.head == b.head) {
            if run.len() > 1 {
                run.sort_unstable_by(|a, b| {
                    // Up to the shorter key's octets past the heads.
                    work::add_with(move || 1 + len(a).min(len(b)).saturating_sub(HEAD));
                    if len(a) <= HEAD || len(b) <= HEAD {
                        // Padding makes `ab` and `ab\0` tie on the head; the
                        // shorter is a prefix of the other.
                        len(a).cmp(&len(b))
                    } else {
                        key(a)[HEAD..].cmp(&key(b)[HEAD..])
                    }
                });
            }
        }
        let key_at = |i: usize| key(&entries[i]);
        // The octet at `depth` of a key longer than that.
        let byte_at = |i: usize, depth: usize| {
            work::add(1);
            if depth < HEAD {
                (entries[i].head[depth / 8] >> (56 - 8 * (depth % 8))) as u8
            } else {
                key_at(i)[depth]
            }
        };
        self.nodes.reserve(entries.len() * 2 + 1);
        self.first_octets.reserve(entries.len() * 2 + 1);
        self.tails.reserve(globs.len());
        self.nodes.push(Node {
            ends: NO_ENDS,
            ..Node::default()
        });
        self.first_octets.push(0);
        work.push((0, 0, entries.len(), 0));
        while let Some((node, lo, hi, depth)) = work.pop() {
            work::add(1);
            let mut i = lo;
            let mut prefix = 0;
            let mut ends = Ends {
                index: NO_INDEX,
                ..Ends::default()
            };
            tails.clear();
            while i < hi && len(&entries[i]) == depth {
                work::add(1);
                let e = &entries[i];
                let rank = e.ordinal;
                match e.what {
                    What::PREFIX => prefix = prefix.max(rank),
                    What::EXACT => ends.exact = ends.exact.max(rank),
                    What(g) => tails.push(Tail {
                        rank,
                        glob: std::mem::take(&mut globs[g as usize]),
                    }),
                }
                i += 1;
            }
            self.nodes[node].prefix = prefix;
            if ends.exact != 0 || !tails.is_empty() {
                tails.sort_unstable_by_key(|t| {
                    work::add(1);
                    std::cmp::Reverse(t.rank)
                });
                let t0 = self.tails.len() as u32;
                if tails.len() >= MIN_TAILS {
                    ends.index = self.indexes.len() as u32;
                    self.indexes
                        .push(TailIndex::build(&arena, tails.iter().map(|t| &t.glob)));
                }
                self.tails.append(tails);
                ends.tails = (t0, self.tails.len() as u32);
                self.nodes[node].ends = self.ends.len() as u32;
                self.ends.push(ends);
            }
            let first_child = self.nodes.len() as u32;
            while i < hi {
                let byte = byte_at(i, depth);
                // Keys are sorted, so the group ends where the octet changes.
                // Galloping, then bisecting: most groups are a few entries
                // long, and a scan would make `/a`, `/aa`, `/aaa`, ...
                // quadratic.
                let (mut a, mut step) = (i + 1, 1);
                while a < hi && byte_at(a, depth) == byte {
                    a += step;
                    step *= 2;
                }
                let (mut a, mut b) = (a - step / 2, a.min(hi));
                while a < b {
                    let mid = a + (b - a) / 2;
                    if byte_at(mid, depth) == byte {
                        a = mid + 1;
                    } else {
                        b = mid;
                    }
                }
                let j = a;
                // A lone key is its own leaf; comparing it with itself would
                // only read the arena for nothing.
                let lcp = if j == i + 1 {
                    len(&entries[i])
                } else {
                    let (first, last) = (&entries[i], &entries[j - 1]);
                    let shortest = len(first).min(len(last));
                    let same = head_prefix(first.head, last.head);
                    if same < HEAD || shortest <= HEAD {
                        same.min(shortest)
                    } else {
                        let from = depth.max(HEAD);
                        from + common_prefix(&key(first)[from..], &key(last)[from..])
                    }
                };
                // A longer label goes on in a child of this one's, with the
                // same entries: none of them ends before `lcp`.
                let lcp = lcp.min(depth + MAX_LABEL);
                let label_len = lcp - depth;
                let start = entries[i].key.0 as usize + depth;
                // Little-endian, as a path's octets are loaded.
                let head_in_arena =
                    || u64::from_le_bytes(first_eight(&arena[start..start + label_len]));
                let head = if depth + label_len.min(8) <= HEAD {
                    label_head(entries[i].head, depth, label_len)
                } else {
                    head_in_arena()
                };
                debug_assert_eq!(head, head_in_arena());
                debug_assert!({
                    // Compared up to the longest label only: to the keys'
                    // ends, a key of a megaoctet, chained in labels of
                    // `MAX_LABEL`, made debug builds quadratic.
                    let (first, last) = (key_at(i), key_at(j - 1));
                    let end = |k: &[u8]| k.len().min(depth + MAX_LABEL);
                    let common = common_prefix(&first[depth..end(first)], &last[depth..end(last)]);
                    lcp == depth + common
                });
                // The label's head, read from the arena or the entry's.
                work::add_with(move || label_len.min(8));
                let child = self.nodes.len();
                self.nodes.push(Node {
                    head,
                    label: start as u32,
                    label_len: label_len as u16,
                    ends: NO_ENDS,
                    ..Node::default()
                });
                self.first_octets.push(byte);
                work.push((child, i, j, lcp));
                i = j;
            }
            let n_children = self.nodes.len() - first_child as usize;
            let octets = &self.first_octets[first_child as usize..];
            let spread = octets.last().map_or(0, |&b| usize::from(b - octets[0]) + 1);
            if n_children > INLINE && spread <= DIRECT_SPREAD * n_children {
                // Lay the children out one per octet from the first, with
                // holes, so that a check finds a child by arithmetic on the
                // octet (see `DIRECT`).
                let base = octets[0];
                work::add_with(move || 2 * spread);
                kids.clear();
                kids.extend(self.nodes.drain(first_child as usize..));
                jobs.clear();
                jobs.extend(work.drain(work.len() - n_children..));
                self.first_octets.truncate(first_child as usize);
                let mut next = kids.iter().zip(jobs.iter().copied()).peekable();
                for octet in (0..spread).map(|k| base.wrapping_add(k as u8)) {
                    let id = self.nodes.len();
                    self.first_octets.push(octet);
                    match next.next_if(|(kid, _)| kid.head as u8 == octet) {
                        Some((kid, (_, lo, hi, depth))) => {
                            self.nodes.push(*kid);
                            work.push((id, lo, hi, depth));
                        }
                        // A label of one octet that is not this one: no
                        // path gets past it.
                        None => self.nodes.push(Node {
                            head: u64::from(octet.wrapping_add(1)),
                            label_len: 1,
                            ends: NO_ENDS,
                            ..Node::default()
                        }),
                    }
                }
                let n = &mut self.nodes[node];
                n.first_child = first_child;
                n.n_children = DIRECT | spread as u16;
                n.pick = u32::from(base);
                continue;
            }
            let pick = if n_children <= INLINE {
                let mut inline = [0u8; 4];
                inline[..n_children].copy_from_slice(octets);
                u32::from_le_bytes(inline)
            } else if n_children > WIDE {
                work::add_with(move || 256 + n_children);
                let mut table = [0u8; 256];
                for (i, &b) in octets.iter().enumerate() {
                    // At most 256 children, one per octet: `i` fits.
                    table[usize::from(b)] = i as u8;
                }
                self.wide.push(table);
                self.wide.len() as u32 - 1
            } else {
                0
            };
            let n = &mut self.nodes[node];
            n.first_child = first_child;
            n.n_children = n_children as u16;
            n.pick = pick;
        }
        self.ordinals = ranker.into_ordinals();
        // Reserved above for the largest trie the keys could make.
        trim_spare(&mut self.nodes);
        trim_spare(&mut self.first_octets);
        trim_spare(&mut self.ends);
        trim_spare(&mut self.wide);
        trim_spare(&mut self.indexes);
    }

    /// Whether the label of `node` starts `rest`, first octet included (a
    /// wide node's table, or a hole among children laid out by octet, may
    /// offer a child whose first octet differs).
    #[inline]
    fn label_matches(&self, node: &Node, rest: &[u8]) -> bool {
        let len = usize::from(node.label_len);
        if rest.len() < len {
            return false;
        }
        let n = len.min(8);
        let head_ok = match rest.first_chunk::<8>() {
            Some(word) => {
                let mask = if n == 8 { u64::MAX } else { (1 << (8 * n)) - 1 };
                (u64::from_le_bytes(*word) ^ node.head) & mask == 0
            }
            // The path's last few octets: one by one, not a call to
            // `memcmp` for fewer than eight. Padding them with
            // `first_eight` to share the masked compare above measured
            // slower (six alternations, medians: 10,000-rule check 94.5 ->
            // 96.9 ns a URL, corpus check 81.5 -> 82.6).
            None => rest[..n]
                .iter()
                .zip(node.head.to_le_bytes())
                .all(|(&a, b)| a == b),
        };
        head_ok
            && (len <= 8 || {
                let a = node.label as usize;
                let label = &self.arena[a..a + len];
                if len <= 16 {
                    // The last eight octets, which overlap the head: one
                    // compare of words instead of a call to `memcmp`.
                    let word =
                        |b: &[u8]| u64::from_le_bytes(b[len - 8..len].try_into().expect("8"));
                    word(rest) == word(label)
                } else {
                    rest[8..len] == label[8..]
                }
            })
    }

    /// The best rank among the rules that match `path`, as an ordinal; 0 if
    /// none matches.
    ///
    /// The walk first settles the literal rules, which cost nothing extra,
    /// and remembers the nodes it passed; their `*` tails are tried after,
    /// deepest first, when the best rank so far has risen and most tails can
    /// be skipped without looking at the path.
    ///
    /// The walk starts at the root even in a large trie. Starting at the
    /// node of the path's deepest `/`-ended prefix, found in a hash table,
    /// cut the levels walked on the 10,000-rule benchmark file from 6.8 to
    /// 1.8 a URL, yet made the check slower: the levels it skips are those
    /// near the root, which every URL shares and the cache holds, and the
    /// table's own lookups miss the cache.
    fn best_rank(&self, path: &[u8]) -> u32 {
        const DEPTH: usize = 32;
        let mut visited = [(0u32, 0u32); DEPTH];
        let mut n_visited = 0;
        let mut seen = Seen::default();
        let mut best = 0;
        let mut node = &self.nodes[0];
        let mut pos = 0;
        loop {
            work::add(1);
            best = best.max(node.prefix);
            if node.ends != NO_ENDS {
                let ends = &self.ends[node.ends as usize];
                if pos == path.len() {
                    best = best.max(ends.exact);
                }
                if ends.tails.0 != ends.tails.1 {
                    if n_visited < DEPTH {
                        visited[n_visited] = (node.ends, pos as u32);
                        n_visited += 1;
                    } else {
                        best = self.try_tails(ends, path, pos, &mut seen, best);
                    }
                }
            }
            let Some(&byte) = path.get(pos) else { break };
            let first = node.first_child as usize;
            let n = usize::from(node.n_children);
            let i = if n & usize::from(DIRECT) != 0 {
                let i = usize::from(byte.wrapping_sub(node.pick as u8));
                if i >= n & usize::from(!DIRECT) {
                    break;
                }
                i
            } else if n <= INLINE {
                // A branch per child, not arithmetic on the four octets: the
                // branches are predicted, and the child's load starts before
                // this node's octets have arrived.
                let Some(i) = node.pick.to_le_bytes()[..n].iter().position(|&b| b == byte) else {
                    break;
                };
                i
            } else if n <= WIDE {
                let Some(i) = find_byte(byte, &self.first_octets[first..first + n]) else {
                    break;
                };
                i
            } else {
                // A position of 0 may mean "no child": the label compare,
                // which starts at the first octet, rejects it then.
                usize::from(self.wide[node.pick as usize][usize::from(byte)])
            };
            let child = &self.nodes[first + i];
            // At most the label's octets, and none past the path's end.
            work::add_with(move || 1 + usize::from(child.label_len).min(path.len() - pos));
            if !self.label_matches(child, &path[pos..]) {
                break;
            }
            pos += usize::from(child.label_len);
            node = child;
        }
        for &(ends, pos) in visited[..n_visited].iter().rev() {
            best = self.try_tails(
                &self.ends[ends as usize],
                path,
                pos as usize,
                &mut seen,
                best,
            );
        }
        best
    }

    /// The best of `best` and the ranks of the node's tails that match.
    #[inline]
    fn try_tails(&self, node: &Ends, path: &[u8], pos: usize, seen: &mut Seen, best: u32) -> u32 {
        let tails = &self.tails[node.tails.0 as usize..node.tails.1 as usize];
        let rest = &path[pos..];
        if node.index != NO_INDEX {
            // The index's grams already passed over most tails; what it
            // offers is searched for at once.
            let mut best = best;
            self.indexes[node.index as usize].for_each_candidate(rest, |t| {
                work::add(1);
                let tail = &tails[t as usize];
                if tail.rank > best
                    && seen.may_match(&tail.glob, path)
                    && tail.glob.matches(&self.arena, rest)
                {
                    best = tail.rank;
                }
            });
            return best;
        }
        for tail in tails {
            work::add(1);
            if tail.rank <= best {
                break;
            }
            if !seen.may_match(&tail.glob, path) {
                continue;
            }
            if tail.glob.matches(&self.arena, rest) {
                return tail.rank;
            }
        }
        best
    }

    /// The deciding rule's ordinal for a canonical path, 0 when none
    /// decides.
    fn decide(&self, path: &[u8]) -> u32 {
        if exempts_robots_txt(self.dialect, path) {
            return 0;
        }
        self.best_rank(path)
    }

    fn rule_of(&self, ordinal: u32) -> &RuleInfo {
        &self.rules[self.ordinals.order(ordinal)]
    }

    fn pattern_text(&self, info: &RuleInfo) -> &str {
        let (a, b) = (info.text.0 as usize, info.text.1 as usize);
        if info.lossy {
            &self.lossy[a..b]
        } else {
            // Checked when the matcher was built: see `Matcher::new`.
            work::add_with(move || b - a);
            std::str::from_utf8(&self.arena[a..b]).unwrap_or_default()
        }
    }

    /// Whether the robot may fetch `url` (a full URL or a path such as
    /// `/a?b`).
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /*.pdf$\n");
    /// let m = robots.matcher("bot");
    /// assert!(!m.is_allowed("https://example.com/docs/a.pdf"));
    /// assert!(m.is_allowed("https://example.com/docs/a.pdf?download=1"));
    /// ```
    pub fn is_allowed(&self, url: &str) -> bool {
        self.is_allowed_bytes(url.as_bytes())
    }

    /// [`Matcher::is_allowed`] for a URL that may not be UTF-8, such as a
    /// line of a log or of a URL list in another encoding: decided on its
    /// octets as given, which each dialect reads as it reads any other
    /// non-ASCII octet (`rfc9309` compares `\xE9` as `%E9`, `google` as the
    /// octet itself).
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /caf%E9\n");
    /// let m = robots.matcher("bot");
    /// // "/caf\u{e9}" in Latin-1, not in UTF-8 (which is `%C3%A9`).
    /// assert!(!m.is_allowed_bytes(b"https://example.com/caf\xE9/menu"));
    /// assert!(m.is_allowed("https://example.com/caf\u{e9}/menu"));
    /// ```
    pub fn is_allowed_bytes(&self, url: &[u8]) -> bool {
        if !self.disallows {
            return true;
        }
        let rank = self.rank_of_url(url);
        rank == 0 || allows(rank)
    }

    /// Decides `url` and says which rule decided it.
    ///
    /// ```
    /// use norobots::{Dialect, ParseOptions, Robots};
    ///
    /// // The 1996 draft: the first matching rule decides.
    /// let body = b"User-agent: *\nDisallow: /\nAllow: /public\n";
    /// let robots = Robots::parse_with(body, &ParseOptions::new(Dialect::Draft1996));
    /// let matcher = robots.matcher("bot");
    /// let v = matcher.check("/public/a.html");
    /// assert_eq!((v.allowed, v.rule.unwrap().line), (false, 2));
    /// ```
    pub fn check(&self, url: &str) -> Verdict<'_> {
        self.check_bytes(url.as_bytes())
    }

    /// [`Matcher::check`] for a URL that may not be UTF-8, decided on its
    /// octets as [`Matcher::is_allowed_bytes`] says.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /caf%E9\n");
    /// let matcher = robots.matcher("bot");
    /// let v = matcher.check_bytes(b"/caf\xE9");
    /// assert_eq!((v.allowed, v.rule.unwrap().pattern), (false, "/caf%E9"));
    /// ```
    pub fn check_bytes(&self, url: &[u8]) -> Verdict<'_> {
        let rank = self.rank_of_url(url);
        if rank == 0 {
            return Verdict {
                allowed: true,
                rule: None,
            };
        }
        let info = self.rule_of(rank);
        Verdict {
            allowed: info.kind == RuleKind::Allow,
            rule: Some(RuleRef {
                line: info.line as usize,
                kind: info.kind,
                pattern: self.pattern_text(info),
            }),
        }
    }

    /// The deciding rule's rank for `url`, 0 when none decides.
    fn rank_of_url(&self, url: &[u8]) -> u32 {
        if self.rules.is_empty() {
            // No rule, nothing to read the URL for.
            return 0;
        }
        with_path(self.dialect, url, |path| self.decide(path))
    }

    /// The dialect the rules were read in.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"");
    /// assert_eq!(robots.matcher("bot").dialect(), norobots::Dialect::Rfc9309);
    /// ```
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The `Crawl-delay` of the first group that applies and gives one.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nCrawl-delay: 5\n");
    /// assert_eq!(robots.matcher("bot").crawl_delay(), Some(5.0));
    /// ```
    pub fn crawl_delay(&self) -> Option<f64> {
        self.crawl_delay
    }

    /// The `Request-rate` of the first group that applies and gives one: at
    /// most so many documents per so many seconds.
    ///
    /// ```
    /// use norobots::RequestRate;
    ///
    /// let robots = norobots::Robots::parse(b"User-agent: *\nRequest-rate: 1/10m\n");
    /// let rate = robots.matcher("bot").request_rate();
    /// assert_eq!(rate, Some(RequestRate { requests: 1, seconds: 600 }));
    /// ```
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.request_rate
    }

    /// The `Visit-time` of the first group that applies and gives one: the
    /// window (UTC) in which the site prefers visits.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nVisit-time: 0100-0330\n");
    /// let window = robots.matcher("bot").visit_time().unwrap();
    /// assert_eq!((window.start_minute, window.end_minute), (60, 210));
    /// ```
    pub fn visit_time(&self) -> Option<VisitTime> {
        self.visit_time
    }

    /// Whether a group names this robot (as opposed to the `*` group, or
    /// none, applying).
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: FooBot\nDisallow:\n");
    /// assert!(robots.matcher("FooBot").names_robot());
    /// assert!(!robots.matcher("BarBot").names_robot());
    /// ```
    pub fn names_robot(&self) -> bool {
        self.matched_group
    }

    /// How many non-empty rules apply to this robot.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /a\nDisallow:\n");
    /// assert_eq!(robots.matcher("bot").rule_count(), 1);
    /// ```
    pub fn rule_count(&self) -> usize {
        self.rules.len()
    }
}

impl fmt::Debug for Matcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Matcher")
            .field("dialect", &self.dialect)
            .field("rules", &self.rules.len())
            .field("nodes", &self.nodes.len())
            .field("crawl_delay", &self.crawl_delay)
            .field("request_rate", &self.request_rate)
            .field("visit_time", &self.visit_time)
            .finish()
    }
}

impl fmt::Display for Verdict<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.allowed {
            "allowed"
        } else {
            "disallowed"
        })?;
        match self.rule {
            Some(rule) => write!(f, " by {rule}"),
            None => f.write_str(" (no rule)"),
        }
    }
}

/// The octets of the path being checked, gathered the first time a `*`
/// rule is tried, to pass over the rules that need an octet the path lacks
/// without searching for their segments.
///
/// Even for a path that meets a single `*` rule: gathering them is a
/// table lookup per octet, while searching for a segment that is not there
/// costs more (trying the first rule without them took the benchmark's
/// 10-rule check from 44-46 to 66-71 ns a URL).
#[derive(Default)]
struct Seen(Option<OctetFilter>);

impl Seen {
    /// False when `glob` needs an octet that `path` lacks.
    #[inline]
    fn may_match(&mut self, glob: &Glob, path: &[u8]) -> bool {
        // The octets of the whole path are a superset of any rest's.
        let octets = self.0.get_or_insert_with(|| OctetFilter::of(path));
        glob.needs.within(octets)
    }
}

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

/// How many of a key's first octets `Entry::head` holds.
const HEAD: usize = 16;

/// How many octets two entries' heads share, up to `HEAD` (padding
/// included: the caller bounds it by the keys' lengths).
#[inline]
fn head_prefix(a: [u64; 2], b: [u64; 2]) -> usize {
    (wide(a) ^ wide(b)).leading_zeros() as usize / 8
}

/// An `Entry::head` as one number, which orders as the keys' first
/// sixteen octets do.
#[inline]
fn wide(head: [u64; 2]) -> u128 {
    u128::from(head[0]) << 64 | u128::from(head[1])
}

/// A node's `head` (see `Node`) for the label of `len` octets at `depth`
/// of the key whose `Entry::head` is `head`, when the label's first octets
/// lie within it.
#[inline]
fn label_head(head: [u64; 2], depth: usize, len: usize) -> u64 {
    let word = (wide(head) << (8 * depth) >> 64) as u64;
    let kept = if len >= 8 {
        word
    } else {
        word & !(u64::MAX >> (8 * len))
    };
    kept.swap_bytes()
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

/// A node's child by first octet, when it has at most `WIDE` children:
/// most nodes have a few, where a plain loop is quickest.
#[inline]
fn find_byte(byte: u8, bytes: &[u8]) -> Option<usize> {
    if bytes.len() <= 8 {
        bytes.iter().position(|&b| b == byte)
    } else {
        // Children are built from sorted keys, so their octets are sorted.
        bytes.binary_search(&byte).ok()
    }
}

pub(crate) struct Selected {
    pub(crate) indices: Vec<usize>,
    specific: bool,
}

/// The groups of the first of `agents` that the file names, else the `*`
/// groups; an empty list names no group.
fn select_first_of(robots: &Robots, agents: &[&str]) -> Selected {
    let mut star = None;
    for &agent in agents {
        let selected = select_groups(robots, Some(agent::caller_name(robots.dialect, agent)));
        if selected.specific {
            return selected;
        }
        // Every agent the file does not name gets the same `*` groups.
        star.get_or_insert(selected);
    }
    star.unwrap_or_else(|| select_groups(robots, None))
}

/// The groups whose rules apply to the robot `name`, per dialect; with no
/// name, the `*` groups.
///
/// One pass over the agents: files that shut out hundreds of robots by
/// name, a group each, are common, and for every robot they do not name
/// the `*` group is the answer.
pub(crate) fn select_groups(robots: &Robots, name: Option<&str>) -> Selected {
    let dialect = robots.dialect;
    let mut named = Vec::new();
    let mut star = Vec::new();
    for (i, g) in robots.groups.iter().enumerate() {
        work::add(1);
        let (mut names, mut global) = (false, false);
        for &span in &robots.agents[g.agents.0 as usize..g.agents.1 as usize] {
            work::add(1);
            let value = robots.bytes(span);
            if agent::is_global(dialect, value) {
                global = true;
            } else if !names && name.is_some_and(|name| agent::names(dialect, value, name)) {
                names = true;
            }
        }
        if names {
            named.push(i);
            if dialect.is_legacy() {
                // The first matching record wins (draft 3.2.1); the 1994
                // text allows only one per robot, so the first is the
                // reading.
                break;
            }
        } else if global && (star.is_empty() || !dialect.is_legacy()) {
            // Every `*` group counts, or in the legacy dialects the first.
            star.push(i);
        }
    }
    if named.is_empty() {
        Selected {
            indices: star,
            specific: false,
        }
    } else {
        Selected {
            indices: named,
            specific: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{
        first_eight, spare_octets, Matcher, Ordinals, DIRECT, INLINE, KEEP_SCRATCH, MAX_LABEL,
        SCRATCH, SPARE_KEPT, WIDE,
    };
    use crate::{Dialect, ParseOptions, Robots};

    fn allowed(d: Dialect, body: &str, agent: &str, url: &str) -> bool {
        Robots::parse_with(body.as_bytes(), &ParseOptions::new(d))
            .matcher(agent)
            .is_allowed(url)
    }

    // A matcher is kept per host: the room its build reserved for a bigger
    // trie than the keys made is given back.
    #[test]
    fn a_kept_matcher_holds_little_spare_room() {
        let mut body = String::from("User-agent: *\n");
        for i in 0..5_000 {
            body.push_str(&format!("Disallow: /{i:x}/\nAllow: /{i:x}/*?q={i}\n"));
        }
        let m = Robots::parse(body.as_bytes()).matcher("bot");
        assert!(m.nodes.len() > 5_000);
        assert!(
            spare_octets(&m.nodes) < SPARE_KEPT,
            "{}",
            spare_octets(&m.nodes)
        );
        assert!(spare_octets(&m.first_octets) < SPARE_KEPT);
        assert!(spare_octets(&m.ends) < SPARE_KEPT);
        assert!(spare_octets(&m.wide) < SPARE_KEPT);
        assert!(spare_octets(&m.indexes) < SPARE_KEPT);
        // And it still decides, by the longest match.
        assert!(!m.is_allowed("/1f/page"));
        assert!(m.is_allowed("/1f/page?q=31"));
        assert!(!m.is_allowed("/1f/page?q=32"));
        assert!(m.is_allowed("/zz/page"));
    }

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

    // RFC 9309 2.2.2: the most specific (longest) match wins; Allow on a tie.
    #[test]
    fn rfc_longest_match_wins_and_allow_wins_ties() {
        let body =
            "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b/c\nAllow: /x\nDisallow: /x\n";
        for d in [Dialect::Rfc9309, Dialect::Google] {
            assert!(!allowed(d, body, "bot", "/a/z"));
            assert!(allowed(d, body, "bot", "/a/b/z"));
            assert!(!allowed(d, body, "bot", "/a/b/c"));
            assert!(allowed(d, body, "bot", "/x"));
        }
    }

    // A node's child is found by a scan, a bisection, its place among
    // children laid out one per octet (holes included) or a table of
    // positions (where 0 also stands for "no child"), by how many children
    // it has and how spread out their octets are: each size around those
    // bounds, every printable octet (in a hole, below, above), and octets
    // (NUL, the count itself) that a lookup could mistake for a child.
    #[test]
    fn a_node_with_many_children_finds_each_and_only_them() {
        let all: Vec<char> = ('0'..='9').chain('A'..='Z').chain('a'..='z').collect();
        let mut sets: Vec<Vec<char>> = [1, 2, INLINE, INLINE + 1, 8, 9, WIDE, WIDE + 1, all.len()]
            .iter()
            .map(|&n| all[..n].to_vec())
            .collect();
        // More than four slots per child: a scan, a bisection or a table,
        // not a layout by octet.
        for sparse in [
            "!1AQa",
            "!)19AIQYa",
            "!'-39AEKQWaeiosz",
            "!'()-.0159AHOV_aho",
        ] {
            sets.push(sparse.chars().collect());
        }
        let printable = (0x21u8..=0x7E)
            .map(char::from)
            .filter(|c| !"#%*$".contains(*c));
        for octets in &sets {
            let n = octets.len();
            let mut body = String::from("User-agent: *\n");
            for c in octets {
                body.push_str(&format!("Disallow: /k{c}z\n"));
            }
            for d in Dialect::ALL {
                let m = Robots::parse_with(body.as_bytes(), &ParseOptions::new(d)).matcher("bot");
                let direct = m.nodes.iter().any(|n| n.n_children & DIRECT != 0);
                let spread = *octets.last().unwrap() as usize - octets[0] as usize + 1;
                assert_eq!(direct, n > INLINE && spread <= 4 * n, "{d} {n}");
                assert_eq!(m.wide.len(), usize::from(n > WIDE && !direct), "{d} {n}");
                for c in printable.clone() {
                    let want = !octets.contains(&c);
                    assert_eq!(m.is_allowed(&format!("/k{c}z")), want, "{d} {n} {c}");
                    assert!(m.is_allowed(&format!("/k{c}y")), "{d} {n} {c}");
                }
                let count = format!("/k{}z", char::from(n as u8));
                for other in ["/k", "/k\u{e9}z", "/k\0z", "/k\u{7f}z", &count] {
                    assert!(m.is_allowed(other), "{d} {n} {other:?}");
                }
            }
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

    // A label is compared in its head, then in its last eight octets up to
    // 16, then octet by octet: a difference at each place of each length.
    #[test]
    fn labels_of_every_length_match_only_themselves() {
        let letters = "abcdefghijklmnopqrstuvwxyz";
        for len in 1..=letters.len() {
            let label = &letters[..len];
            let body = format!("User-agent: *\nDisallow: /x{label}\nDisallow: /y\n");
            for d in Dialect::ALL {
                assert!(
                    !allowed(d, &body, "bot", &format!("/x{label}")),
                    "{d} {len}"
                );
                assert!(!allowed(d, &body, "bot", &format!("/x{label}/more")));
                assert!(allowed(
                    d,
                    &body,
                    "bot",
                    &format!("/x{}", &label[..len - 1])
                ));
                for at in 0..len {
                    let mut other = label.as_bytes().to_vec();
                    other[at] = b'Z';
                    let path = format!("/x{}", String::from_utf8(other).unwrap());
                    assert!(allowed(d, &body, "bot", &path), "{d} {path}");
                }
            }
        }
    }

    // Draft 3.2.2: "The first match found is used."
    #[test]
    fn draft_first_match_wins() {
        let body = "User-agent: *\nAllow: /a/b\nDisallow: /a\n";
        assert!(allowed(Dialect::Draft1996, body, "bot", "/a/b/c"));
        let body = "User-agent: *\nDisallow: /a\nAllow: /a/b\n";
        assert!(!allowed(Dialect::Draft1996, body, "bot", "/a/b/c"));
    }

    // RFC 9309 2.2.3: `*` matches any sequence, `$` anchors the end.
    #[test]
    fn wildcards_only_in_rfc_dialects() {
        let body = "User-agent: *\nDisallow: /*.gif$\nDisallow: /a*b\n";
        for d in [Dialect::Rfc9309, Dialect::Google] {
            assert!(!allowed(d, body, "bot", "/x/y.gif"));
            assert!(allowed(d, body, "bot", "/x/y.gif?z"));
            assert!(!allowed(d, body, "bot", "/a/x/b"));
            assert!(allowed(d, body, "bot", "/a/x/c"));
        }
        for d in [Dialect::Norobots1994, Dialect::Draft1996] {
            assert!(allowed(d, body, "bot", "/x/y.gif"));
            assert!(!allowed(d, body, "bot", "/a*b/c"));
        }
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

    // `$` is an anchor only at the very end; elsewhere it is an octet.
    #[test]
    fn dollar_inside_pattern_is_literal() {
        let body = "User-agent: *\nDisallow: /a$b\n";
        assert!(!allowed(Dialect::Rfc9309, body, "bot", "/a$b/c"));
        assert!(allowed(Dialect::Rfc9309, body, "bot", "/ab"));
    }

    // RFC 9309 2.2.1: groups naming the same agent are merged.
    #[test]
    fn rfc_merges_groups_legacy_takes_first() {
        let body = "User-agent: bot\nDisallow: /a\n\nUser-agent: bot\nDisallow: /b\n";
        assert!(!allowed(Dialect::Rfc9309, body, "bot", "/b"));
        assert!(allowed(Dialect::Draft1996, body, "bot", "/b"));
    }

    // A crawler with several tokens follows the first that a group names,
    // else `*`, and never a merge of two agents' groups (the choice of
    // `Robots::matcher_first_of`; the texts know one robot at a time); one
    // agent alone is `Robots::matcher`.
    #[test]
    fn the_first_agent_named_decides_else_the_star_groups() {
        let body = "User-agent: ExampleBot\nDisallow: /bot\nCrawl-delay: 1\n\n\
                    User-agent: ExampleBot-Image\nDisallow: /image\n\n\
                    User-agent: (odd)\nDisallow: /odd\n\n\
                    User-agent: *\nDisallow: /star\nCrawl-delay: 3\n";
        let paths = ["/bot", "/image", "/odd", "/star", "/free"];
        let disallowed =
            |m: &Matcher| -> Vec<&str> { paths.into_iter().filter(|p| !m.is_allowed(p)).collect() };
        for d in Dialect::ALL {
            let robots = Robots::parse_with(body.as_bytes(), &ParseOptions::new(d));
            for agent in [
                "ExampleBot/2.0",
                "ExampleBot-Image",
                "ExampleBot-News",
                "Other",
                "",
            ] {
                let (one, chain) = (robots.matcher(agent), robots.matcher_first_of(&[agent]));
                assert_eq!(disallowed(&one), disallowed(&chain), "{d} {agent:?}");
                assert_eq!(one.names_robot(), chain.names_robot(), "{d} {agent:?}");
                assert_eq!(one.crawl_delay(), chain.crawl_delay(), "{d} {agent:?}");
            }
            let first = |agents: &[&str]| disallowed(&robots.matcher_first_of(agents));
            assert_eq!(
                first(&["ExampleBot-Image", "ExampleBot"]),
                ["/image"],
                "{d}"
            );
            assert_eq!(first(&["ExampleBot-News", "ExampleBot"]), ["/bot"], "{d}");
            assert_eq!(first(&["ExampleBot", "ExampleBot-Image"]), ["/bot"], "{d}");
            assert_eq!(first(&["Other", "Another"]), ["/star"], "{d}");
            // No agent names no group, not even one whose token is empty.
            assert_eq!(first(&[]), ["/star"], "{d}");
            let none = robots.matcher_first_of(&[]);
            assert!(!none.names_robot());
            assert_eq!(none.crawl_delay(), Some(3.0), "{d}");
        }
    }

    // A matcher with no `Disallow` answers "allowed" without reading the
    // URL, and `check` still names the `Allow` that decided; one
    // `Disallow` among them, or only in the group the robot does not use,
    // changes that as each dialect says.
    #[test]
    fn only_a_disallow_disallows_in_every_dialect() {
        let urls = ["/", "/a", "/b/c?d", "https://example.com/robots.txt", "*"];
        for d in Dialect::ALL {
            for body in [
                "",
                "User-agent: *\nAllow: /a\n",
                "User-agent: *\nDisallow:\n",
            ] {
                let robots = Robots::parse_with(body.as_bytes(), &ParseOptions::new(d));
                let m = robots.matcher("bot");
                for url in urls {
                    assert!(m.is_allowed(url), "{d} {body:?} {url}");
                    let v = m.check(url);
                    assert!(v.allowed, "{d} {body:?} {url}");
                    let by_allow =
                        body.contains("Allow: /a") && url == "/a" && d != Dialect::Norobots1994;
                    assert_eq!(
                        v.rule.map(|r| r.line),
                        by_allow.then_some(2),
                        "{d} {body:?} {url}"
                    );
                }
            }
            let body = "User-agent: bot\nAllow: /\n\nUser-agent: *\nDisallow: /\n";
            let robots = Robots::parse_with(body.as_bytes(), &ParseOptions::new(d));
            assert!(robots.matcher("bot").is_allowed("/a"), "{d}");
            assert!(!robots.matcher("other").is_allowed("/a"), "{d}");
            let body = "User-agent: *\nDisallow: /b/c\nAllow: /a\nAllow: /b\n";
            let robots = Robots::parse_with(body.as_bytes(), &ParseOptions::new(d));
            assert!(!robots.matcher("bot").is_allowed("/b/c"), "{d}");
        }
    }

    // The pace follows the groups the rules come from (RFC 9309 2.2.1
    // merges every group that names the robot; the 1996 draft 3.2.1 takes
    // the first record): each value from the first of them that gives it,
    // the `*` group's only when no group names the robot.
    #[test]
    fn pace_comes_from_the_first_applying_group_that_gives_it() {
        let body = b"User-agent: bot\nCrawl-delay: 2\nDisallow: /a\n\n\
            User-agent: *\nCrawl-delay: 7\nRequest-rate: 9/1s\nVisit-time: 0000-0100\nDisallow: /c\n\n\
            User-agent: bot\nCrawl-delay: 5\nRequest-rate: 1/10m\nVisit-time: 2300-0130\nDisallow: /d\n\n\
            User-agent: bot\nRequest-rate: 2/1s\nVisit-time: 0500-0600\n";
        let pace = |d: Dialect, agent: &str| {
            let m = Robots::parse_with(body, &ParseOptions::new(d)).matcher(agent);
            let rate = m.request_rate().map(|r| (r.requests, r.seconds));
            let window = m.visit_time().map(|v| (v.start_minute, v.end_minute));
            (m.crawl_delay(), rate, window)
        };
        let merged = (Some(2.0), Some((1, 600)), Some((23 * 60, 90)));
        assert_eq!(pace(Dialect::Rfc9309, "bot"), merged);
        assert_eq!(pace(Dialect::Google, "bot"), merged);
        assert_eq!(pace(Dialect::Draft1996, "bot"), (Some(2.0), None, None));
        let star = (Some(7.0), Some((9, 1)), Some((0, 60)));
        assert_eq!(pace(Dialect::Rfc9309, "other"), star);
        assert_eq!(pace(Dialect::Draft1996, "other"), star);
    }

    // Rewritten patterns (RFC 9309 2.2.2: `%xx` of unreserved octets compare
    // decoded; the reference library escapes non-ASCII) lie past the body,
    // plain ones in it: both kinds, with and without `*`, must read their
    // own octets.
    #[test]
    fn rewritten_patterns_follow_the_body_in_the_arena() {
        let body = "User-agent: *\nDisallow: /pl*ain\nDisallow: /a%62*%63d\n\
                    Allow: /caf\u{e9}/*.html\nDisallow: /caf\u{e9}/\nDisallow: /tail*x$\n";
        for d in [Dialect::Rfc9309, Dialect::Google] {
            assert!(!allowed(d, body, "bot", "/plXain"), "{d:?}");
            assert!(allowed(d, body, "bot", "/plXin"), "{d:?}");
            assert!(!allowed(d, body, "bot", "/tail/x"), "{d:?}");
            assert!(allowed(d, body, "bot", "/tail/xy"), "{d:?}");
            assert!(!allowed(d, body, "bot", "/caf%C3%A9/a.txt"), "{d:?}");
            assert!(allowed(d, body, "bot", "/caf%C3%A9/a.html"), "{d:?}");
        }
        assert!(!allowed(Dialect::Rfc9309, body, "bot", "/ab-cd"));
        assert!(allowed(Dialect::Rfc9309, body, "bot", "/ab-ce"));
        // The reference library compares `%62` as written, not as `b`.
        assert!(allowed(Dialect::Google, body, "bot", "/ab-cd"));
        assert!(!allowed(Dialect::Google, body, "bot", "/a%62-%63d"));
        let m = Robots::parse_with(body.as_bytes(), &ParseOptions::new(Dialect::Rfc9309))
            .matcher("bot");
        assert_eq!(m.check("/ab-cd").rule.unwrap().pattern, "/a%62*%63d");
        assert_eq!(m.check("/plain").rule.unwrap().pattern, "/pl*ain");
    }

    // dialects.md, google: an Allow of /x/index.html also allows /x/.
    #[test]
    fn google_index_html_allows_directory() {
        let body = "User-agent: *\nDisallow: /x/\nAllow: /x/index.html\n";
        assert!(allowed(Dialect::Google, body, "bot", "/x/"));
        assert!(!allowed(Dialect::Google, body, "bot", "/x/a"));
        assert!(!allowed(Dialect::Rfc9309, body, "bot", "/x/"));
        // The same, for a pattern that is rewritten (escaped) first.
        let body = "User-agent: *\nDisallow: /\u{e9}/\nAllow: /\u{e9}/index.htm\n";
        assert!(allowed(Dialect::Google, body, "bot", "/%C3%A9/"));
        assert!(!allowed(Dialect::Google, body, "bot", "/%C3%A9/a"));
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

    // Draft 3.2.2 decodes `%00`; a key that differs from another only by a
    // trailing NUL must still sort apart from it.
    #[test]
    fn keys_differing_by_trailing_nul_build() {
        let body = "User-agent: *\nDisallow: /ab%00\nDisallow: /ab\nAllow: /ab%00%00\n";
        assert!(!allowed(Dialect::Draft1996, body, "bot", "/ab"));
        assert!(!allowed(Dialect::Draft1996, body, "bot", "/ab%00%00"));
    }

    // The build reads a key's first sixteen octets from its entry and the
    // rest from the arena: keys that part just before, at and just after
    // the sixteenth octet, or are prefixes of one another across it, must
    // sort, split and label as they do everywhere else (RFC 9309 2.2.2:
    // the longest match wins, an Allow on a tie).
    #[test]
    fn keys_parting_around_the_sixteenth_octet_decide_by_longest_match() {
        let base = "/0123456789abcdefghijklm";
        let mut patterns: Vec<String> = (12..=base.len()).map(|n| base[..n].to_string()).collect();
        for at in [7, 8, 9, 14, 15, 16, 17, 18] {
            let mut p = base[..at].to_string();
            p.push('X');
            p.push_str(&base[at + 1..]);
            patterns.push(p.clone());
            p.truncate(at + 1);
            patterns.push(p);
        }
        let mut body = String::from("User-agent: *\n");
        for (i, p) in patterns.iter().enumerate() {
            let kind = if i % 3 == 0 { "Allow" } else { "Disallow" };
            body.push_str(&format!("{kind}: {p}\n"));
        }
        let m = Robots::parse(body.as_bytes()).matcher("bot");
        let mut paths: Vec<String> = (0..=base.len()).map(|n| base[..n].to_string()).collect();
        paths.extend(patterns.iter().map(|p| format!("{p}z")));
        paths.extend(patterns.iter().cloned());
        for path in &paths {
            // The rules are plain literals: a match is a prefix.
            let best = patterns
                .iter()
                .enumerate()
                .filter(|(_, p)| path.starts_with(p.as_str()))
                .max_by_key(|&(i, p)| (p.len(), i % 3 == 0));
            let verdict = m.check(path);
            assert_eq!(
                verdict.allowed,
                best.is_none_or(|(i, _)| i % 3 == 0),
                "{path}"
            );
            assert_eq!(
                verdict.rule.map(|r| r.line),
                best.map(|(i, _)| i + 2),
                "{path}"
            );
        }
        // Keys that differ by trailing NULs (decoded from `%00` in the
        // 1996 draft) on each side of the sixteenth octet: the first match
        // in file order wins there.
        let body =
            "User-agent: *\nDisallow: /0123456789abcd%00%00x\nAllow: /0123456789abcd%00%00\n\
            Disallow: /0123456789abcd%00\nAllow: /0123456789abcd\n";
        let d = Dialect::Draft1996;
        assert!(allowed(d, body, "bot", "/0123456789abcd"));
        assert!(!allowed(d, body, "bot", "/0123456789abcd%00"));
        assert!(allowed(d, body, "bot", "/0123456789abcd%00%00"));
        assert!(!allowed(d, body, "bot", "/0123456789abcd%00%00x"));
        assert!(allowed(d, body, "bot", "/0123456789abcd%00%00y"));
    }

    // A node with many `*` rules is searched through its gram index; the
    // answers must be those of trying every rule.
    #[test]
    fn indexed_tails_decide_like_a_scan() {
        let mut body = String::from("User-agent: *\n");
        for i in 0..40 {
            body.push_str(&format!("Disallow: /*?key{i}=\n"));
        }
        body.push_str("Allow: /*?key7=ok\nDisallow: /*.p\nDisallow: /x*$\n");
        for d in [Dialect::Rfc9309, Dialect::Google] {
            assert!(!allowed(d, &body, "bot", "/a/b?key7=1"));
            assert!(allowed(d, &body, "bot", "/a/b?key7=ok"));
            assert!(!allowed(d, &body, "bot", "/a?key39=2&x=1"));
            assert!(allowed(d, &body, "bot", "/a?key40=1"));
            assert!(!allowed(d, &body, "bot", "/a.p"));
            assert!(!allowed(d, &body, "bot", "/xy"));
            assert!(allowed(d, &body, "bot", "/a/b"));
        }
    }

    // Found by the hostile-input tests: two rules that are invalid UTF-8
    // alone but valid together must not share a character.
    #[test]
    fn rule_text_never_splits_a_character() {
        let body = b"User-agent: *\nDisallow: /a\xC3\nDisallow: \xA9\n";
        for d in Dialect::ALL {
            let robots = Robots::parse_with(body, &ParseOptions::new(d));
            let m = robots.matcher("bot");
            let v = m.check("/a%C3");
            assert!(
                v.rule.is_none_or(|r| r.pattern == "/a\u{FFFD}"),
                "{d}: {v:?}"
            );
            let _ = m.check("/a\u{e9}");
        }
    }

    #[test]
    fn nested_prefixes_build_without_recursion() {
        let mut body = String::from("User-agent: *\n");
        for i in 1..3000 {
            body.push_str("Disallow: /");
            body.push_str(&"a".repeat(i));
            body.push('\n');
        }
        assert!(!allowed(Dialect::Rfc9309, &body, "bot", "/aaaa"));
        assert!(allowed(Dialect::Rfc9309, &body, "bot", "/b"));
    }

    // A label longer than a node can say is a chain of nodes: each rule
    // still ends where it ends, and a path that differs past the first
    // link does not match.
    #[test]
    fn labels_longer_than_a_node_holds_are_chained() {
        let long = "x".repeat(3 * MAX_LABEL + 7);
        let body =
            format!("User-agent: *\nDisallow: /{long}a\nAllow: /{long}ab$\nDisallow: /{long}b\n");
        // Not `google`, which cuts lines at 16,663 octets.
        for d in [Dialect::Rfc9309, Dialect::Draft1996] {
            let robots = Robots::parse_with(body.as_bytes(), &ParseOptions::new(d));
            let m = robots.matcher("bot");
            let ab = if d == Dialect::Rfc9309 { 3 } else { 2 };
            assert_eq!(m.check(&format!("/{long}a")).rule.unwrap().line, 2);
            assert_eq!(m.check(&format!("/{long}ab")).rule.unwrap().line, ab);
            assert_eq!(m.check(&format!("/{long}abc")).rule.unwrap().line, 2);
            assert_eq!(m.check(&format!("/{long}b/c")).rule.unwrap().line, 4);
            assert_eq!(m.check(&format!("/{long}c")).rule, None);
            assert_eq!(m.check(&format!("/{}a", &long[1..])).rule, None);
            assert!(m
                .nodes
                .iter()
                .all(|n| usize::from(n.label_len) <= MAX_LABEL));
        }
    }

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

    // Ranks too many to pack in four octets are numbered by their place
    // among all the matcher's ranks: the same rule decides either way.
    #[test]
    fn dense_ordinals_decide_as_packed_ones() {
        let mut body = String::from("User-agent: *\n");
        for i in 0..40 {
            let kind = if i % 3 == 0 { "Allow" } else { "Disallow" };
            let pattern = match i % 4 {
                0 => format!("/{}", "a".repeat(i % 7)),
                1 => format!("/a*{}$", "b".repeat(i % 5)),
                2 => format!("/{}/index.html", "a".repeat(i % 3)),
                _ => format!("/a{}", "b".repeat(i % 6)),
            };
            body.push_str(&format!("{kind}: {pattern}\n"));
        }
        let paths = [
            "/", "/a", "/aa", "/aaa/", "/ab", "/abb", "/abbbbb", "/a/b", "/aa/", "/c",
        ];
        for d in Dialect::ALL {
            let robots = Robots::parse_with(body.as_bytes(), &ParseOptions::new(d));
            let packed = Matcher::compile(&robots, &["bot"], u32::BITS);
            let dense = Matcher::compile(&robots, &["bot"], 2);
            assert!(matches!(packed.ordinals, Ordinals::Packed { .. }));
            assert!(matches!(dense.ordinals, Ordinals::Dense(_)));
            for p in paths {
                assert_eq!(packed.check(p), dense.check(p), "{d} {p}");
                // `is_allowed` reads the kind from the ordinal, `check` from
                // the rule.
                for m in [&packed, &dense] {
                    assert_eq!(m.is_allowed(p), m.check(p).allowed, "{d} {p}");
                }
            }
            assert!(paths.iter().any(|p| packed.check(p).rule.is_some()));
        }
    }
}
