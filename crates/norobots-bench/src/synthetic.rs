//! Synthetic robots.txt files of a chosen size, for the scaling benchmark.
//!
//! The point of that benchmark is to show how a check's cost moves with the
//! number of rules, so the files must differ only in rule count: the file with
//! `n` rules is the first `n` rules of one fixed sequence, and every size is
//! checked against the same URL list. Everything is derived from a fixed seed,
//! so runs on different machines check exactly the same inputs.

use crate::Doc;

/// Host of the synthetic site; every generated URL is on it.
const HOST: &str = "https://www.example.com";

/// Path words, in the spirit of what real sites disallow.
const WORDS: &[&str] = &[
    "admin",
    "api",
    "archive",
    "assets",
    "basket",
    "blog",
    "cart",
    "category",
    "cgi-bin",
    "checkout",
    "comments",
    "docs",
    "download",
    "en",
    "feed",
    "files",
    "forum",
    "gallery",
    "help",
    "images",
    "includes",
    "json",
    "login",
    "media",
    "members",
    "news",
    "page",
    "print",
    "private",
    "products",
    "profile",
    "search",
    "share",
    "shop",
    "static",
    "tag",
    "tmp",
    "track",
    "uploads",
    "user",
    "v1",
    "v2",
    "wp-admin",
    "wp-content",
    "wp-includes",
    "xml",
];

const EXTENSIONS: &[&str] = &["html", "php", "pdf", "jpg", "json", "xml", "aspx", "js"];

const QUERY_KEYS: &[&str] = &[
    "id",
    "q",
    "sessionid",
    "sort",
    "page",
    "ref",
    "utm_source",
    "replytocom",
];

/// splitmix64: a few lines, good enough spread for picking words, and the
/// same output everywhere (no dependency on a `rand` version or on hashing).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`). The modulo bias is irrelevant here.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn percent(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }
}

/// Puts `items` in an order fixed by `seed` (Fisher-Yates on the same
/// generator as the files): the same on every machine and every run.
///
/// ```
/// let mut a = [1, 2, 3, 4, 5];
/// let mut b = a;
/// norobots_bench::synthetic::shuffle(&mut a, 7);
/// norobots_bench::synthetic::shuffle(&mut b, 7);
/// assert_eq!(a, b);
/// a.sort();
/// assert_eq!(a, [1, 2, 3, 4, 5]);
/// ```
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = Rng(seed);
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

/// One generated rule: `Allow` or `Disallow` plus its pattern.
#[derive(Clone, Debug)]
pub struct SyntheticRule {
    /// `true` for `Allow`.
    pub allow: bool,
    /// The pattern as written after the colon.
    pub pattern: String,
}

/// The first `n` rules of the fixed rule sequence.
///
/// The mix follows what real large files look like: about 70 % literal
/// paths (some with a query), 20 % with a `*`, and 10 % with a `*` and a
/// closing `$`; one rule in five is an `Allow`. The rule index is part of most literal paths so that a 10,000-rule
/// file really has 10,000 distinct rules rather than a few hundred repeated.
pub fn rules(n: usize) -> Vec<SyntheticRule> {
    let mut rng = Rng(0x6E6F_726F_626F_7473); // "norobots"
    (0..n)
        .map(|i| {
            let allow = rng.percent(20);
            let a = rng.pick(WORDS);
            let b = rng.pick(WORDS);
            let ext = rng.pick(EXTENSIONS);
            let key = rng.pick(QUERY_KEYS);
            let pattern = match rng.below(10) {
                0..=3 => format!("/{a}/{b}-{i}/"),
                4 | 5 => format!("/{a}-{i}/{b}.{ext}"),
                6 => format!("/{a}/{b}?{key}={i}"),
                7 => format!("/{a}/*/{b}-{i}"),
                8 => format!("/*?{key}={b}{i}"),
                _ => format!("/{a}/{b}{i}/*.{ext}$"),
            };
            SyntheticRule { allow, pattern }
        })
        .collect()
}

/// A robots.txt body with `n` rules, in one group that names both our agent
/// and `*`, so that every engine applies all `n` rules whatever its view on
/// agent matching.
pub fn robots_body(n: usize) -> String {
    let mut body = String::from(
        "# synthetic file for the scaling benchmark\nUser-agent: Googlebot\nUser-agent: *\n",
    );
    for rule in rules(n) {
        body.push_str(if rule.allow { "Allow: " } else { "Disallow: " });
        body.push_str(&rule.pattern);
        body.push('\n');
    }
    body.push_str("\nSitemap: https://www.example.com/sitemap.xml\n");
    body
}

/// `count` URLs on the synthetic host: half of them built from rules of the
/// `rules_for_urls`-rule sequence (so some rules match, with `*` filled in and
/// `$` both honoured and broken), half plausible pages no rule names.
pub fn urls(count: usize, rules_for_urls: usize) -> Vec<String> {
    let rules = rules(rules_for_urls.max(1));
    let mut rng = Rng(0x7572_6C73); // "urls"
    (0..count)
        .map(|i| {
            let path = if i % 2 == 0 {
                let rule = &rules[rng.below(rules.len())];
                let mut path = rule
                    .pattern
                    .replace('*', rng.pick(&["x", "a/b", "", "item-7"]));
                if path.ends_with('$') {
                    path.pop();
                    if rng.percent(50) {
                        path.push_str("?v=2");
                    }
                } else if rng.percent(50) {
                    path.push_str(rng.pick(WORDS));
                }
                path
            } else {
                format!(
                    "/{}/{}-{}.{}",
                    rng.pick(WORDS),
                    rng.pick(WORDS),
                    rng.below(100_000),
                    rng.pick(EXTENSIONS)
                )
            };
            format!("{HOST}{path}")
        })
        .collect()
}

/// A [`Doc`] holding [`robots_body`]`(rules)` and the given URLs.
pub fn doc(rules: usize, urls: Vec<String>) -> Doc {
    Doc::new(
        format!("synthetic-{rules}-rules"),
        robots_body(rules).into_bytes(),
        urls,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smaller_files_are_prefixes_of_larger_ones() {
        let small = rules(10);
        let large = rules(10_000);
        assert_eq!(large.len(), 10_000);
        for (s, l) in small.iter().zip(&large) {
            assert_eq!(s.pattern, l.pattern);
            assert_eq!(s.allow, l.allow);
        }
    }

    #[test]
    fn mix_has_wildcards_and_anchors() {
        let rules = rules(1_000);
        let stars = rules.iter().filter(|r| r.pattern.contains('*')).count();
        let anchors = rules.iter().filter(|r| r.pattern.ends_with('$')).count();
        assert!((100..400).contains(&stars), "{stars}");
        assert!((40..200).contains(&anchors), "{anchors}");
    }

    #[test]
    fn urls_are_deterministic_and_absolute() {
        let a = urls(100, 10_000);
        assert_eq!(a, urls(100, 10_000));
        assert!(a.iter().all(|u| u.starts_with("https://www.example.com/")));
    }
}
