//! From the rules that apply to a robot to its matcher: the rules ranked,
//! their literal prefixes sorted, and the trie made from them.

use std::cell::RefCell;
use std::sync::Arc;

use super::ordinal::{rank, Ordinals, Ranker};
use super::trie::{
    Ends, Node, Tail, DIRECT, DIRECT_SPREAD, INLINE, MAX_LABEL, NO_ENDS, NO_INDEX, WIDE,
};
use super::verdict::RuleInfo;
use super::Matcher;
use crate::index::{TailIndex, MIN_TAILS};
use crate::pattern::{index_html_rule, rewrite_pattern, Glob, Parts};
use crate::robots::Robots;
use crate::rule_kind::RuleKind;
use crate::scan::{common_prefix, first_eight};
use crate::select::select_first_of;
use crate::spare::trim_spare;
use crate::work;

/// A matcher keeps at most this many rules, and passes over the rest: with
/// two trie entries per rule at most (see `index_html_rule`), every
/// ordinal, its `Allow` bit included, fits in a `u32` (see `Ordinals`). A
/// file would need gigaoctets of rules to come near it.
const MAX_RULES: usize = (1 << 30) - 1;

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
                    group_line: group.line,
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
}

impl Robots {
    /// Compiles the rules that apply to one robot.
    ///
    /// `agent` is what the caller passes, a product token or a whole
    /// `User-Agent` header; each dialect reads it its own way
    /// ([`Dialect::robot_name`](crate::Dialect::robot_name)). In `google`, as in the reference library,
    /// only a valid product token (letters, `-`, `_`) can name a group:
    /// `Googlebot/2.1` matches no `User-agent` line and gets the `*` groups,
    /// so pass `Googlebot`. Build the matcher once per host and keep it.
    ///
    /// ```
    /// use norobots::{Dialect, ParseOptions, Robots};
    ///
    /// let body = b"User-agent: FooBot\nDisallow: /\n";
    /// let robots = Robots::parse(body);
    /// assert!(!robots.matcher("FooBot/1.2").is_allowed("https://example.com/page"));
    /// assert!(!robots.matcher("Mozilla/5.0 (compatible; FooBot/1.2)").is_allowed("/page"));
    ///
    /// let google = Robots::parse_with(body, &ParseOptions::new(Dialect::Google));
    /// assert!(google.matcher("FooBot/1.2").is_allowed("/page"));
    /// assert!(!google.matcher("FooBot").is_allowed("/page"));
    /// ```
    pub fn matcher(&self, agent: &str) -> Matcher {
        Matcher::new(self, &[agent])
    }

    /// The matcher for the first of `agents` that some group of the file
    /// names, each read as [`Robots::matcher`] reads it; when the file names
    /// none of them, the matcher for the `*` groups, which every robot
    /// shares. A crawler that answers to several tokens gives them from the
    /// most specific on: `["ExampleBot-Image", "ExampleBot"]` follows a
    /// group for `ExampleBot-Image` where the file has one, else the groups
    /// for `ExampleBot`, else `*`. Groups of different agents are not
    /// merged: only the first agent named counts.
    ///
    /// ```
    /// let body = b"User-agent: ExampleBot\nDisallow: /private/\n\n\
    ///              User-agent: *\nDisallow: /\n";
    /// let robots = norobots::Robots::parse(body);
    /// let images = robots.matcher_first_of(&["ExampleBot-Image/1.0", "ExampleBot/1.0"]);
    /// assert!(images.names_robot());
    /// assert!(images.is_allowed("/photo.jpg"));
    /// assert!(!images.is_allowed("/private/photo.jpg"));
    ///
    /// // A robot the file does not name, and no robot at all: the `*` group.
    /// assert!(!robots.matcher_first_of(&["OtherBot"]).is_allowed("/photo.jpg"));
    /// assert!(!robots.matcher_first_of(&[]).is_allowed("/photo.jpg"));
    /// ```
    pub fn matcher_first_of(&self, agents: &[&str]) -> Matcher {
        Matcher::new(self, agents)
    }

    /// Whether `agent` may fetch `url`: [`Robots::matcher`] and
    /// [`Matcher::is_allowed`] in one call, for a single question.
    ///
    /// ```
    /// let robots = norobots::Robots::parse(b"User-agent: *\nDisallow: /a\n");
    /// assert!(!robots.is_allowed("FooBot", "/a/b"));
    /// ```
    pub fn is_allowed(&self, agent: &str, url: &str) -> bool {
        self.matcher(agent).is_allowed(url)
    }
}

#[cfg(test)]
mod tests {
    use super::super::allowed;
    use super::super::ordinal::Ordinals;
    use super::super::trie::{DIRECT, INLINE, MAX_LABEL, WIDE};
    use super::Matcher;
    use crate::dialect::Dialect;
    use crate::parse::ParseOptions;
    use crate::robots::Robots;
    use crate::spare::{spare_octets, SPARE_KEPT};

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
            assert_eq!(
                none.crawl_delay(),
                Some(std::time::Duration::from_secs(3)),
                "{d}"
            );
        }
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
