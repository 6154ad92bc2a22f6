//! The check: a walk down the trie along the path, then the `*` rules
//! of the nodes passed, deepest first.

use super::ordinal::allows;
use super::path::{exempts_robots_txt, with_path};
use super::trie::{Ends, Node, DIRECT, INLINE, NO_ENDS, NO_INDEX, WIDE};
use super::{Matcher, RuleRef, Verdict};
use crate::pattern::{Glob, OctetFilter};
use crate::rule_kind::RuleKind;
use crate::work;

impl Matcher {
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
                group_line: info.group_line as usize,
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

#[cfg(test)]
mod tests {
    use super::super::allowed;
    use crate::dialect::Dialect;
    use crate::parse::ParseOptions;
    use crate::robots::Robots;

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

    // `$` is an anchor only at the very end; elsewhere it is an octet.
    #[test]
    fn dollar_inside_pattern_is_literal() {
        let body = "User-agent: *\nDisallow: /a$b\n";
        assert!(!allowed(Dialect::Rfc9309, body, "bot", "/a$b/c"));
        assert!(allowed(Dialect::Rfc9309, body, "bot", "/ab"));
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
}
