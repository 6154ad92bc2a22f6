//! Hostile inputs: nothing panics, work grows linearly and memory stays
//! proportional to the input, in every dialect.
//!
//! Work is counted, not timed: the library counts its steps per thread
//! (`norobots::work`, on for its own tests), an octet looked at or a turn
//! of a loop over what the input made, and the counts are the same on an
//! idle machine and a loaded one. Where size matters a test runs the same
//! shape at `n` and about `4n` and asserts that the steps grow less than 1.5
//! times as fast as the input (linear gives 4, `n log n` a little more,
//! quadratic 16), that the larger run stays within a budget of steps per
//! input octet (about twice what it takes: a linear cost with a blown-up
//! constant, a search that compares far more per place, breaks it), and
//! that the memory grows at most 1.5 times as fast as the input and stays
//! under a bound per octet. Memory is counted by a global allocator that
//! keeps a per-thread peak.
//!
//! Each run is also timed, against [`WALL_BOUND`], for work the library
//! does not count (a standard-library call, a loop added without its count):
//! a bound so loose that no load on a 2-core machine reaches it, so it
//! catches only a blow-up that costs minutes (see there). The tests run
//! one at a time (a mutex) so that their memory peaks and times are their
//! own.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use norobots::work::counted;
use norobots::{Dialect, ParseOptions, Robots};

#[path = "support/alloc.rs"]
mod alloc;
use alloc::{allocations, measure};

// ---------------------------------------------------------------------------
// Measuring

/// The wall time any one measured run here may take.
///
/// More than 20 times what the slowest runs of a debug build take (nested
/// prefixes, 12.5 MB; a 4 MB line of words), on an idle machine or with the
/// load average at 10 (other builds and tests on the two cores); the
/// figures are in crates/norobots-bench/README.md, "Other figures behind
/// the code". It catches what the counts cannot see, work in code that
/// counts no steps (a standard-library call, a loop added without its
/// count), where that work goes quadratic over the larger inputs: a pass
/// over 4 MB per octet of it is 8 * 10^12 octets, over 1,000 s even at the
/// speed `<[u8]>::contains` scans at in a debug build (the standard
/// library comes optimised), and a pass over the 10 MB file per line of it
/// (350,000 lines) 1.8 * 10^12 octets, minutes. It does not catch one over
/// the inputs of 10,000 to 100,000 octets, nor a pass over the 100,000
/// rules per rule (5 * 10^9 pairs, seconds), such as a pass per place over
/// the 40,000-octet path of the segment test. There only the counts do
/// (the same pass through the library's own scan, which counts, made
/// 76,000 steps an octet against a budget of 1,200).
const WALL_BOUND: Duration = Duration::from_secs(60);

/// The tests of this file run one at a time: they measure memory and time.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What one run of `work` cost: its steps, the most heap it held, its time.
struct Cost {
    steps: u64,
    held: usize,
    time: Duration,
}

/// Runs `work` once, counting its steps and timing it.
fn cost(work: impl FnOnce()) -> Cost {
    let (((), time, held), steps) = counted(|| measure(work));
    Cost { steps, held, time }
}

/// Asserts that `cost` is within [`WALL_BOUND`] and `budget` steps.
fn assert_within(what: &str, cost: &Cost, budget: u64) {
    eprintln!("{what}: {} steps in {:?}", cost.steps, cost.time);
    assert!(cost.steps > 0, "{what}: no step was counted");
    assert!(
        cost.steps <= budget,
        "{what}: {} steps (budget {budget})",
        cost.steps
    );
    assert!(
        cost.time < WALL_BOUND,
        "{what} took {:?} (bound {WALL_BOUND:?})",
        cost.time
    );
}

/// Runs `work` on `make(sizes[0])` and on `make(sizes[1])`, an input about
/// 4 times longer, and asserts:
///
/// * per input octet the larger run makes less than 1.5 times the steps of
///   the smaller: under 6 times the steps for 4 times the input, where a
///   linear cost gives 4 (less, with a fixed part) and a quadratic one 16;
/// * each run makes at most `steps_per_octet` steps per input octet, and
///   takes under [`WALL_BOUND`];
/// * per input octet it holds at most 1.5 times the memory of the smaller
///   one, and at most `max_bytes_per_input_byte` (plus 1 MB).
fn assert_linear<I: AsRef<[u8]>>(
    what: &str,
    sizes: [usize; 2],
    steps_per_octet: u64,
    max_bytes_per_input_byte: usize,
    make: impl Fn(usize) -> I,
    work: impl Fn(&I),
) {
    let inputs = sizes.map(make);
    let [small_len, large_len] = [inputs[0].as_ref().len(), inputs[1].as_ref().len()];
    let input_ratio = large_len as f64 / small_len as f64;
    assert!(
        input_ratio > 3.0,
        "{what}: the inputs are {small_len} B and {large_len} B"
    );
    let budget = |len: usize| steps_per_octet.saturating_mul(len as u64);
    // The smaller run first, on its own: a blowup that already shows there
    // fails now, not after a larger run that may take hours.
    let small = cost(|| work(&inputs[0]));
    assert!(
        small.steps <= budget(small_len) && small.time < WALL_BOUND,
        "{what}: {} steps for {small_len} B (budget {steps_per_octet} an octet) in {:?}",
        small.steps,
        small.time
    );
    let large = cost(|| work(&inputs[1]));
    eprintln!(
        "{what}: {small_len} B in {} steps, {:?} ({} B held); \
         {large_len} B in {} steps ({:.1} an octet), {:?} ({} B held)",
        small.steps,
        small.time,
        small.held,
        large.steps,
        large.steps as f64 / large_len as f64,
        large.time,
        large.held
    );
    assert!(small.steps > 0, "{what}: no step was counted");
    let ratio = large.steps as f64 / small.steps as f64;
    assert!(
        ratio < 1.5 * input_ratio,
        "{what}: {input_ratio:.1}x the input took {ratio:.1}x the steps \
         ({} -> {})",
        small.steps,
        large.steps
    );
    assert!(
        large.steps <= budget(large_len),
        "{what}: {} steps for {large_len} B (budget {steps_per_octet} an octet)",
        large.steps
    );
    assert!(
        large.time < WALL_BOUND,
        "{what}: {large_len} B took {:?} (bound {WALL_BOUND:?})",
        large.time
    );
    let (small_m, large_m) = (small.held, large.held);
    assert!(
        large_m as f64 <= 1.5 * input_ratio * small_m.max(64 * 1024) as f64,
        "{what}: {input_ratio:.1}x the input held {large_m} B against {small_m} B"
    );
    assert!(
        large_m <= max_bytes_per_input_byte * large_len + (1 << 20),
        "{what}: {large_m} B held for {large_len} B of input"
    );
}

// ---------------------------------------------------------------------------
// Inputs

fn parse(dialect: Dialect, body: &[u8]) -> Robots {
    Robots::parse_with(body, &ParseOptions::new(dialect))
}

/// Parses, walks every view, builds the matcher for `agent` and checks every
/// URL, asserting `check` and `is_allowed` agree; returns how many URLs were
/// disallowed.
fn exercise(dialect: Dialect, body: &[u8], agent: &str, urls: &[&str]) -> usize {
    let robots = parse(dialect, body);
    let mut seen = 0usize;
    for group in robots.groups() {
        seen += group.agents().map(|a| a.len()).sum::<usize>();
        seen += group
            .rules()
            .map(|r| r.pattern().len() + r.line())
            .sum::<usize>();
    }
    seen += robots
        .sitemaps()
        .chain(robots.hosts())
        .chain(robots.other_fields())
        .count();
    seen += robots.diagnostics().len();
    std::hint::black_box(seen);
    let matcher = robots.matcher(agent);
    // The one-shot check reads the whole body per URL: two are enough to
    // hold it to the same bounds.
    for url in urls.iter().take(2) {
        let once = norobots::is_allowed_with(body, &ParseOptions::new(dialect), agent, url);
        assert_eq!(
            once,
            matcher.is_allowed(url),
            "[{dialect}] one-shot {:.80}",
            url
        );
    }
    let mut disallowed = 0;
    for url in urls {
        let verdict = matcher.check(url);
        assert_eq!(
            verdict.allowed,
            matcher.is_allowed(url),
            "[{dialect}] {:.80}",
            url
        );
        if let Some(rule) = verdict.rule {
            assert_eq!(verdict.allowed, rule.kind == norobots::RuleKind::Allow);
        }
        disallowed += usize::from(!verdict.allowed);
    }
    disallowed
}

/// A small deterministic generator (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const BOTS: [&str; 9] = [
    "*",
    "Googlebot",
    "Bingbot",
    "Slurp",
    "Baiduspider",
    "YandexBot",
    "DuckDuckBot",
    "AhrefsBot",
    "MJ12bot",
];
const WORDS: [&str; 24] = [
    "admin",
    "cgi-bin",
    "search",
    "cart",
    "checkout",
    "wp-admin",
    "tmp",
    "private",
    "user",
    "login",
    "api",
    "static",
    "images",
    "print",
    "tag",
    "category",
    "feed",
    "comments",
    "trackback",
    "wp-includes",
    "cache",
    "session",
    "download",
    "archive",
];
const EXTS: [&str; 6] = ["php", "pdf", "gif", "jpg", "cgi", "asp"];

/// A robots.txt of about `size` bytes that looks like the real ones: groups
/// for well-known robots, path and wildcard rules, comments, extensions,
/// sitemaps, blank lines, some CRLF.
fn real_looking(size: usize) -> Vec<u8> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out = String::with_capacity(size + 200);
    while out.len() < size {
        let eol = if rng.below(5) == 0 { "\r\n" } else { "\n" };
        out.push_str(&format!("# rules for {}{eol}", rng.pick(&WORDS)));
        for _ in 0..1 + rng.below(3) {
            out.push_str(&format!("User-agent: {}{eol}", rng.pick(&BOTS)));
        }
        for _ in 0..5 + rng.below(30) {
            let (w1, w2) = (rng.pick(&WORDS), rng.pick(&WORDS));
            let n = rng.below(1000);
            let line = match rng.below(12) {
                0 => format!("Allow: /{w1}/{n}.html"),
                1 => format!("Disallow: /*?{w1}="),
                2 => format!("Disallow: /*.{}$", rng.pick(&EXTS)),
                3 => format!("Disallow: /{w1}/*/{w2}"),
                4 => format!("Disallow: /{w1}%20{w2}/"),
                5 => format!("Crawl-delay: {}", rng.below(20)),
                6 => format!("Disallow: /{w1}/{w2}-{n}/ # old"),
                7 => "Disallow:".to_string(),
                8 => format!("Noindex: /{w1}/"),
                9 => format!("Allow: /{w1}/{w2}$"),
                _ => format!("Disallow: /{w1}/{w2}-{n}/"),
            };
            out.push_str(&line);
            out.push_str(eol);
        }
        match rng.below(4) {
            0 => out.push_str(&format!(
                "Sitemap: https://www.example.com/sitemap-{}.xml\n",
                rng.below(99)
            )),
            1 => {
                out.push_str("Host: www.example.com\nRequest-rate: 1/10s\nVisit-time: 0100-0500\n")
            }
            _ => {}
        }
        out.push_str(eol);
    }
    out.into_bytes()
}

fn real_looking_urls() -> Vec<String> {
    let mut rng = Rng(42);
    (0..200)
        .map(|i| {
            let (w1, w2) = (rng.pick(&WORDS), rng.pick(&WORDS));
            match i % 5 {
                0 => format!("https://www.example.com/{w1}/{w2}-{}/", rng.below(1000)),
                1 => format!("https://www.example.com/{w1}/{}.html", rng.below(1000)),
                2 => format!("/{w1}/x.{}", rng.pick(&EXTS)),
                3 => format!("/{w1}/a/{w2}?{w1}=1"),
                _ => format!("http://example.com/{w1}%20{w2}/"),
            }
        })
        .collect()
}

/// Makes a body of about the given number of octets.
type MakeBody = fn(usize) -> Vec<u8>;

/// Makes a URL of about the given number of octets.
type MakeUrl = fn(usize) -> String;

fn refs(urls: &[String]) -> Vec<&str> {
    urls.iter().map(String::as_str).collect()
}

// ---------------------------------------------------------------------------
// Big files

#[test]
fn ten_megabyte_file_of_real_looking_rules_parses_and_matches_in_linear_time() {
    let _serial = serial();
    let urls = real_looking_urls();
    let urls = refs(&urls);
    for dialect in Dialect::ALL {
        assert_linear(
            &format!("[{dialect}] real-looking file"),
            [10 << 20 >> 2, 10 << 20],
            // Steps per octet: at most 8.7 measured.
            18,
            16,
            real_looking,
            |body| {
                let disallowed = exercise(dialect, body, "Googlebot/2.1", &urls);
                assert!(disallowed > 0, "[{dialect}] some URL is disallowed");
            },
        );
    }
}

#[test]
fn one_megabyte_single_line_bodies_parse_in_linear_time() {
    let _serial = serial();
    let long = |n: usize| "a".repeat(n);
    // (shape, body of about n octets, steps and heap octets allowed per
    // body octet). The budgets are about twice the most steps any dialect
    // makes (which the comments give).
    let shapes: [(&str, MakeBody, u64, usize); 9] = [
        (
            "rule line after a group",
            |n| format!("User-agent: *\nDisallow: /{}\n", "a".repeat(n)).into_bytes(),
            26, // 13
            16,
        ),
        (
            "whole body one rule",
            |n| format!("Disallow: /{}", "a".repeat(n)).into_bytes(),
            14, // 7
            16,
        ),
        (
            "agent line",
            |n| format!("User-agent: {}\nDisallow: /", "b".repeat(n)).into_bytes(),
            40, // 20
            16,
        ),
        // The legacy dialects split this line into 350,000 one-word rules
        // (the Lycos variant); their matcher peaks near 270 octets per rule.
        (
            "many words on a rule line",
            |n| format!("User-agent: *\nDisallow:{}", " /a".repeat(n / 3)).into_bytes(),
            38, // 18.7
            128,
        ),
        (
            "many words on an agent line",
            |n| format!("User-agent:{}\nDisallow: /", " bot".repeat(n / 4)).into_bytes(),
            34, // 16.8
            32,
        ),
        ("no colon", |n| "x".repeat(n).into_bytes(), 12, 16), // 6
        (
            "two words, no colon",
            |n| format!("Disallow /{}", "a".repeat(n)).into_bytes(),
            20, // 10
            16,
        ),
        (
            "digits of a crawl delay",
            |n| format!("User-agent: *\nCrawl-delay: {}", "9".repeat(n)).into_bytes(),
            14, // 7
            16,
        ),
        (
            "request rate and visit time",
            |n| {
                format!(
                    "User-agent: *\nRequest-rate: 1/{0}\nVisit-time: {0}-{0}",
                    "1".repeat(n / 2)
                )
                .into_bytes()
            },
            14, // 7
            16,
        ),
    ];
    let urls_owned = [
        format!("/{}", long(1000)),
        "/".to_string(),
        "/a".to_string(),
    ];
    let urls = refs(&urls_owned);
    for dialect in Dialect::ALL {
        for (shape, make, steps_per_octet, heap_per_octet) in &shapes {
            assert_linear(
                &format!("[{dialect}] 1 MB line: {shape}"),
                [1 << 20, 4 << 20],
                *steps_per_octet,
                *heap_per_octet,
                make,
                |body| {
                    exercise(dialect, body, "bot", &urls);
                },
            );
        }
    }
}

#[test]
fn hundred_thousand_rules_parse_build_and_match_in_linear_time() {
    let _serial = serial();
    let make = |n: usize| {
        let mut body = String::from("User-agent: *\n");
        for i in 0..n {
            let kind = if i % 3 == 0 { "Allow" } else { "Disallow" };
            body.push_str(&format!("{kind}: /dir{}/page{i}.html\n", i % 977));
        }
        body.into_bytes()
    };
    let urls_owned: Vec<String> = (0..1000)
        .map(|i| format!("/dir{}/page{}.html", i * 7 % 977, i * 7))
        .collect();
    let urls = refs(&urls_owned);
    for dialect in Dialect::ALL {
        assert_linear(
            &format!("[{dialect}] 100,000 rules"),
            [25_000, 100_000],
            // At most 13.9 measured.
            28,
            32,
            make,
            |body| {
                let disallowed = exercise(dialect, body, "bot", &urls);
                assert!(disallowed > 0, "[{dialect}]");
            },
        );
    }
}

#[test]
fn hundred_thousand_wildcard_rules_under_one_prefix_build_in_linear_time() {
    let _serial = serial();
    // Every rule is a tail of the same trie node.
    let make = |n: usize| {
        let mut body = String::from("User-agent: *\n");
        for i in 0..n {
            body.push_str(&format!("Disallow: /x*{i}*y$\n"));
        }
        body.into_bytes()
    };
    let urls = ["/x/1/y", "/x/0/y?", "/z", "/x"];
    for dialect in Dialect::ALL {
        assert_linear(
            &format!("[{dialect}] 100,000 wildcard rules"),
            [25_000, 100_000],
            // At most 15.6 measured.
            32,
            64,
            make,
            |body| {
                exercise(dialect, body, "bot", &urls);
            },
        );
    }
}

// ---------------------------------------------------------------------------
// Wildcards

/// `/*a*a*...*a*b$` with `stars` stars.
fn star_a_pattern(stars: usize) -> String {
    format!("/{}*b$", "*a".repeat(stars - 1))
}

#[test]
fn star_a_patterns_with_ten_thousand_stars_match_ten_kilobyte_paths_in_linear_time() {
    let _serial = serial();
    // n is both the number of stars and the path length.
    let make = |n: usize| {
        let body = format!(
            "User-agent: *\nDisallow: {}\nAllow: /{}*b\n",
            star_a_pattern(n),
            "*a".repeat(n - 1)
        );
        let urls = [
            format!("/{}", "a".repeat(n)),
            format!("/{}b", "a".repeat(n - 1)),
            format!("/{}", "ab".repeat(n / 2)),
            format!("/{}b?", "a".repeat(n)),
            format!("/{}", "a".repeat(n * 3 / 4)),
        ];
        (body, urls)
    };
    for dialect in Dialect::ALL {
        let (body, urls) = make(10_000);
        let robots = parse(dialect, body.as_bytes());
        let matcher = robots.matcher("bot");
        let verdicts: Vec<bool> = urls.iter().map(|u| matcher.is_allowed(u)).collect();
        match dialect {
            // 9,999 `a` then a final `b`: only the second URL has both, and
            // the Allow (one octet shorter) loses to the Disallow there.
            Dialect::Rfc9309 => {
                assert_eq!(verdicts, [true, false, true, true, true], "[{dialect}]")
            }
            // The reference library keeps 16,663 octets of a line: the
            // Disallow becomes `/*a` x 8,326 and the Allow `/*a` x 8,327 `*`,
            // longer, so wherever the Disallow matches the Allow does too.
            Dialect::Google => {
                assert_eq!(verdicts, [true; 5], "[{dialect}]");
                let truncated = robots
                    .diagnostics()
                    .iter()
                    .filter(|d| d.kind == norobots::DiagnosticKind::LineTruncated)
                    .count();
                assert_eq!(truncated, 2, "[{dialect}]");
            }
            Dialect::Norobots1994 | Dialect::Draft1996 => {
                assert_eq!(verdicts, [true; 5], "[{dialect}] `*` is an octet")
            }
        }
        assert_linear(
            &format!("[{dialect}] /*a*a...*b$ against long paths"),
            [2_500, 10_000],
            // At most 31.7 measured.
            64,
            // The input measured is the body; the URLs add about as much.
            64,
            |n| StarCase(make(n)),
            |StarCase((body, urls))| {
                exercise(dialect, body.as_bytes(), "bot", &refs(urls));
            },
        );
        // Checks alone, on a built matcher: each is linear in pattern and path.
        let checks = cost(|| {
            for url in &urls {
                std::hint::black_box(matcher.check(url));
            }
        });
        let octets: usize = urls.iter().map(String::len).sum::<usize>() + body.len();
        assert_within(
            &format!("[{dialect}] 5 checks of 10 KB paths"),
            &checks,
            // 3.1 steps an octet of paths and body measured.
            6 * octets as u64,
        );
    }
}

#[test]
fn one_shot_checks_of_many_wildcard_rules_against_long_paths_are_linear() {
    let _serial = serial();
    // n rules of `/*a{i}b` and a path of n / 10 octets: trying every rule
    // on the path would cost n^2 / 10.
    let make = |n: usize| {
        let mut body = String::from("User-agent: *\n");
        for i in 0..n {
            body.push_str(&format!("Disallow: /*a{i}b\n"));
        }
        StarCase::one_url(body, format!("/{}", "a".repeat(n / 10)))
    };
    // No rule has its `b`.
    // The rules' search runs out of budget and the matcher is built: at most
    // 34.7 steps an octet measured.
    assert_one_shot_linear("n `*` rules against an n/10 path", make, true, 70);
}

// A rule line is passed over once its value parts from the path (see
// `oneshot`), before its end is known: a path that goes on as the file does
// (line ends and all) must not make every line compare the whole path.
#[test]
fn one_shot_checks_of_a_path_that_repeats_the_file_are_linear() {
    let _serial = serial();
    let make = |n: usize| {
        let line = "Disallow: /a\n";
        let body = format!("User-agent: *\n{}", line.repeat(n));
        let mut url = String::from("/a\n");
        while url.len() < n {
            url.push_str(line);
        }
        StarCase::one_url(body, url)
    };
    // At most 13.5 steps an octet measured.
    assert_one_shot_linear(
        "n rule lines against a path of n octets like them",
        make,
        false,
        28,
    );
}

/// The one-shot check of `make(n)`'s first URL, in the dialects that read
/// `*`: linear in the body, and answering `allowed`.
fn assert_one_shot_linear(
    what: &str,
    make: impl Fn(usize) -> StarCase,
    allowed: bool,
    steps_per_octet: u64,
) {
    for dialect in [Dialect::Rfc9309, Dialect::Google] {
        assert_linear(
            &format!("[{dialect}] one-shot, {what}"),
            [10_000, 40_000],
            steps_per_octet,
            64,
            &make,
            |StarCase((body, urls))| {
                let options = ParseOptions::new(dialect);
                let once = norobots::is_allowed_with(body.as_bytes(), &options, "bot", &urls[0]);
                assert_eq!(once, allowed, "[{dialect}] {what}");
            },
        );
    }
}

/// A generated body with its URLs, measured by the body's length.
struct StarCase((String, [String; 5]));

impl StarCase {
    /// A case whose URLs are all `url`.
    fn one_url(body: String, url: String) -> StarCase {
        StarCase((
            body,
            [url.clone(), url.clone(), url.clone(), url.clone(), url],
        ))
    }
}

impl AsRef<[u8]> for StarCase {
    fn as_ref(&self) -> &[u8] {
        self.0 .0.as_bytes()
    }
}

/// A body and one URL whose path is what the case grows by.
struct LongPath {
    body: String,
    url: String,
}

impl AsRef<[u8]> for LongPath {
    fn as_ref(&self) -> &[u8] {
        self.url.as_bytes()
    }
}

// A segment is searched for at each place of the path that starts with its
// first octet. Fifteen rules (too few for an index), each a `*` and then a
// segment of `a`s with another octet in the middle: the path is all `a`s
// (with the other octets at its end, so that the octet filter lets every
// rule through), so every place starts and ends like the segment and
// differs only in its middle. Segments of 64 octets are searched for place
// by place, those of 65 with `memmem`: both linear in the path. Per octet of
// the path, a place-by-place search compares at most 64 octets a rule
// (960 for the fifteen: what it measures, the budget 1,200), `memmem` much
// fewer (17.8 measured, the budget 36).
#[test]
fn segments_that_nearly_match_at_every_place_of_a_long_path_are_searched_in_linear_time() {
    let _serial = serial();
    let middles = "bcdefghijklmnop";
    for (len, steps_per_octet) in [(64, 1_200), (65, 36)] {
        let make = |n: usize| {
            let mut body = String::from("User-agent: *\n");
            for middle in middles.chars() {
                let half = "a".repeat(len / 2 - 1);
                let rest = "a".repeat(len - len / 2);
                body.push_str(&format!("Disallow: /*{half}{middle}{rest}\n"));
            }
            LongPath {
                body,
                url: format!("/{}{middles}", "a".repeat(n)),
            }
        };
        for dialect in Dialect::ALL {
            let case = make(1_000);
            assert_eq!(
                exercise(dialect, case.body.as_bytes(), "bot", &[&case.url]),
                0
            );
            assert_linear(
                &format!("[{dialect}] {len}-octet segments against a path of `a`s"),
                [10_000, 40_000],
                steps_per_octet,
                64,
                make,
                |case| {
                    let robots = parse(dialect, case.body.as_bytes());
                    let matcher = robots.matcher("bot");
                    assert!(matcher.is_allowed(&case.url));
                },
            );
        }
    }
}

#[test]
fn ten_thousand_stars_in_a_row_match_everything_in_linear_time() {
    let _serial = serial();
    let shapes: [(&str, MakeBody); 4] = [
        ("Disallow: ***...", |n| {
            format!("User-agent: *\nDisallow: {}\n", "*".repeat(n)).into_bytes()
        }),
        ("Disallow: /***...", |n| {
            format!("User-agent: *\nDisallow: /{}\n", "*".repeat(n)).into_bytes()
        }),
        ("Disallow: /***...$", |n| {
            format!("User-agent: *\nDisallow: /{}$\n", "*".repeat(n)).into_bytes()
        }),
        ("Allow: /***...x*", |n| {
            format!(
                "User-agent: *\nDisallow: /\nAllow: /{}x{}\n",
                "*".repeat(n / 2),
                "*".repeat(n / 2)
            )
            .into_bytes()
        }),
    ];
    let long = format!("/{}", "*".repeat(10_000));
    let urls = ["/", "/page", "/a/b/c?d", &long[..], "/xyz"];
    for dialect in Dialect::ALL {
        for (shape, make) in &shapes {
            let body = make(10_000);
            let disallowed = exercise(dialect, &body, "bot", &urls);
            let wildcards = matches!(dialect, Dialect::Rfc9309 | Dialect::Google);
            match (*shape, wildcards) {
                // Only stars: matches every path.
                ("Disallow: ***..." | "Disallow: /***..." | "Disallow: /***...$", true) => {
                    assert_eq!(disallowed, urls.len(), "[{dialect}] {shape}");
                }
                // Stars as octets: only the URL made of stars starts with them.
                ("Disallow: /***...$", false) => {
                    assert_eq!(disallowed, 0, "[{dialect}] {shape}: `$` is an octet too");
                }
                ("Disallow: /***...", false) => {
                    assert_eq!(disallowed, 1, "[{dialect}] {shape}");
                }
                ("Disallow: ***...", false) => assert_eq!(disallowed, 0, "[{dialect}] {shape}"),
                _ => {}
            }
            assert_linear(
                &format!("[{dialect}] {shape}"),
                [2_500, 10_000],
                // At most 37.7 measured (the 10,000-octet URL weighs on the
                // smaller file).
                64,
                64,
                make,
                |body| {
                    exercise(dialect, body, "bot", &urls);
                },
            );
        }
    }
}

#[test]
fn nested_prefixes_build_a_deep_trie_in_linear_time() {
    let _serial = serial();
    // `/a`, `/aa`, `/aaa`, ...: n nested prefixes take n^2 / 2 octets, so
    // 50,000 would be 1.25 GB. n = 2,500 and 5,000 (3 MB and 12.5 MB) build
    // a trie 5,000 nodes deep, four times the octets for twice the rules.
    let make = |n: usize| {
        let mut body = Vec::with_capacity(n * n / 2 + 20 * n);
        body.extend_from_slice(b"User-agent: *\n");
        for i in 1..=n {
            body.extend_from_slice(if i % 2 == 0 {
                b"Allow: /"
            } else {
                b"Disallow: /"
            });
            body.resize(body.len() + i, b'a');
            body.push(b'\n');
        }
        body
    };
    let deep = format!("/{}", "a".repeat(8_000));
    let urls = [&deep[..], "/a", "/aa", "/b", "/", &deep[..2_000]];
    for dialect in Dialect::ALL {
        assert_linear(
            &format!("[{dialect}] nested prefixes"),
            // Twice the rules, four times the octets.
            [2_500, 5_000],
            // At most 17.5 measured.
            36,
            16,
            make,
            |body| {
                let disallowed = exercise(dialect, body, "bot", &urls);
                match dialect {
                    // Longest match: `/aaaa...` of odd length is a Disallow.
                    Dialect::Rfc9309 | Dialect::Google => assert_eq!(disallowed, 2, "[{dialect}]"),
                    // First match: `/a`, a Disallow, for every `a` path.
                    Dialect::Norobots1994 | Dialect::Draft1996 => {
                        assert_eq!(disallowed, 4, "[{dialect}]")
                    }
                }
            },
        );
    }
}

// ---------------------------------------------------------------------------
// Odd octets

/// Parses `body` in every dialect and asks a few URLs; returns the number of
/// groups per dialect.
fn groups_in_every_dialect(what: &str, body: &[u8]) -> [usize; 4] {
    let urls = ["/", "/a", "/robots.txt", "http://example.com/\u{e9}?q"];
    Dialect::ALL.map(|dialect| {
        let mut groups = 0;
        let run = cost(|| {
            exercise(dialect, body, "Googlebot", &urls);
            groups = parse(dialect, body).groups().count();
        });
        assert_within(
            &format!("[{dialect}] {what}"),
            &run,
            // At most 14.4 steps an octet measured (10,000 lines with
            // NUL), and 1,507 for a small body.
            32 * body.len() as u64 + 10_000,
        );
        groups
    })
}

#[test]
fn invalid_utf8_everywhere_parses_without_panic() {
    let _serial = serial();
    let mut body = Vec::new();
    for bad in [
        &b"\xff"[..],
        b"\xc3",
        b"\xe2\x82",
        b"\xf0\x9f\x98",
        b"\x80\xbf",
        b"\xc0\xaf",
        b"\xed\xa0\x80",
        b"\xfe\xfe\xff",
    ] {
        body.extend_from_slice(b"User-agent: ");
        body.extend_from_slice(bad);
        body.extend_from_slice(b"bot\nUser-agent: *\nDisallow: /");
        body.extend_from_slice(bad);
        body.extend_from_slice(b"\nAllow: /a");
        body.extend_from_slice(bad);
        body.extend_from_slice(b"*$\nDis");
        body.extend_from_slice(bad);
        body.extend_from_slice(b"allow: /b\nSitemap: ");
        body.extend_from_slice(bad);
        body.extend_from_slice(b"\n# ");
        body.extend_from_slice(bad);
        body.extend_from_slice(b"\n\n");
    }
    let groups = groups_in_every_dialect("invalid UTF-8", &body);
    assert!(groups.iter().all(|&g| g > 0), "{groups:?}");
    for dialect in Dialect::ALL {
        let robots = parse(dialect, &body);
        assert!(robots
            .diagnostics()
            .iter()
            .any(|d| d.kind == norobots::DiagnosticKind::InvalidUtf8));
        // The lossy views replace what is not UTF-8.
        let rule = robots
            .groups()
            .flat_map(|g| g.rules().collect::<Vec<_>>())
            .next()
            .unwrap();
        assert!(
            rule.pattern().contains('\u{fffd}'),
            "[{dialect}] {}",
            rule.pattern()
        );
    }
    // And a megabyte of it.
    let noise: Vec<u8> = (0..1 << 20)
        .map(|i: u32| (i.wrapping_mul(2_654_435_761) >> 24) as u8 | 0x80)
        .collect();
    groups_in_every_dialect("1 MB of non-UTF-8 octets", &noise);
}

/// Regression: two rules that are not UTF-8 each (`/a\xC3`, `\xA9`) but
/// whose octets side by side are (`é`): the deciding rule's pattern must
/// still be reported whole, not sliced inside a character.
#[test]
fn rules_whose_octets_join_into_utf8_are_reported_without_panic() {
    let _serial = serial();
    let body = b"User-agent: *\nDisallow: /a\xC3\nDisallow: \xA9\n";
    for dialect in Dialect::ALL {
        let robots = parse(dialect, body);
        let matcher = robots.matcher("bot");
        let mut decided = 0;
        for url in ["/a%C3", "/a%c3", "/a\u{e9}", "http://example.com/a%C3x"] {
            let verdict = std::panic::catch_unwind(|| matcher.check(url))
                .unwrap_or_else(|_| panic!("[{dialect}] check({url:?}) panicked"));
            assert_eq!(
                verdict.allowed,
                matcher.is_allowed(url),
                "[{dialect}] {url}"
            );
            if let Some(rule) = verdict.rule {
                assert!(!verdict.allowed);
                assert_eq!(
                    (rule.line, rule.pattern),
                    (2, "/a\u{fffd}"),
                    "[{dialect}] {url}"
                );
                decided += 1;
            }
        }
        assert!(decided > 0, "[{dialect}] `/a\\xC3` matched no URL");
    }
}

#[test]
fn nul_bytes_end_lines_without_panic() {
    let _serial = serial();
    let body = b"User-agent: *\0evil\nDisallow: /a\0/b\n\0Disallow: /c\nAllow\0: /d\n";
    assert_eq!(groups_in_every_dialect("NUL in lines", body), [1; 4]);
    for dialect in Dialect::ALL {
        let robots = parse(dialect, body);
        let m = robots.matcher("bot");
        assert!(
            !m.is_allowed("/a/c"),
            "[{dialect}] the rule before NUL stays"
        );
        assert!(
            m.is_allowed("/c"),
            "[{dialect}] a line starting with NUL is empty"
        );
    }
    let zeros = vec![0u8; 1 << 20];
    assert_eq!(groups_in_every_dialect("1 MB of NUL", &zeros), [0; 4]);
    let mut nul_runs = b"User-agent: *\nDisallow: /x".to_vec();
    for _ in 0..10_000 {
        nul_runs.extend_from_slice(b"\0\0\0\0\0\0\0\nDisallow: /y\0");
    }
    groups_in_every_dialect("10,000 lines with NUL", &nul_runs);
}

#[test]
fn body_of_only_carriage_returns_is_empty_and_linear() {
    let _serial = serial();
    for dialect in Dialect::ALL {
        assert_linear(
            &format!("[{dialect}] only \\r"),
            [256 << 10, 1 << 20],
            // 4 measured.
            8,
            4,
            |n| vec![b'\r'; n],
            |body| {
                let robots = parse(dialect, body);
                assert_eq!(robots.groups().count(), 0);
                assert!(robots.matcher("bot").is_allowed("/"));
            },
        );
    }
}

#[test]
fn body_of_only_hashes_is_one_comment() {
    let _serial = serial();
    for dialect in Dialect::ALL {
        assert_linear(
            &format!("[{dialect}] only #"),
            [1 << 20, 4 << 20],
            // 3 measured.
            6,
            4,
            |n| vec![b'#'; n],
            |body| {
                let robots = parse(dialect, body);
                assert_eq!(robots.groups().count(), 0);
                // A comment is no diagnostic; `google` may report that it
                // kept only 16,663 octets of the line.
                assert!(
                    robots
                        .diagnostics()
                        .iter()
                        .all(|d| dialect == Dialect::Google
                            && d.kind == norobots::DiagnosticKind::LineTruncated),
                    "[{dialect}] {:?}",
                    robots.diagnostics()
                );
                assert!(robots.matcher("bot").is_allowed("/"));
            },
        );
    }
}

#[test]
fn body_of_only_colons_has_no_field() {
    let _serial = serial();
    for dialect in Dialect::ALL {
        assert_linear(
            &format!("[{dialect}] only :"),
            [1 << 20, 4 << 20],
            // 3 measured.
            6,
            4,
            |n| vec![b':'; n],
            |body| {
                let robots = parse(dialect, body);
                assert_eq!(robots.groups().count(), 0);
                assert_eq!(
                    robots.other_fields().count(),
                    0,
                    "[{dialect}] an empty name is no field"
                );
                assert!(robots.matcher("bot").is_allowed("/"));
            },
        );
    }
}

#[test]
fn degenerate_small_bodies_parse_without_panic() {
    let _serial = serial();
    for body in [
        &b""[..],
        b"\r",
        b"\n",
        b"\r\n\r\n\n\r",
        b"#",
        b":",
        b"::::",
        b" ",
        b"\t\x0b\x0c",
        b"*",
        b"$",
        b"%",
        b"\xef\xbb\xbf",
        b"\xef\xbb",
        b"\xef",
        b"User-agent:",
        b"User-agent: *",
        b"User-agent: *\nDisallow:",
        b"User-agent: *\nDisallow: *",
        b"User-agent: *\nDisallow: $",
        b"User-agent: *\nDisallow: *$",
        b"User-agent: *\nDisallow: %",
        b"User-agent: *\nDisallow: /%",
        b"User-agent: *\nDisallow: %2",
        b"User-agent: *\nDisallow: %zz",
        b"User-agent: *\nAllow: /index.html\nAllow: /index.htm\nAllow: index.html",
        b"User-agent: *\nCrawl-delay: 1e308\nCrawl-delay: NaN\nRequest-rate: 0/0\nVisit-time: -",
        b": \n :x\nx:\n:\n",
    ] {
        groups_in_every_dialect(&format!("{:?}", String::from_utf8_lossy(body)), body);
    }
}

// ---------------------------------------------------------------------------
// Hostile URLs

const RULES_FOR_URLS: &str = "User-agent: *\nDisallow: /\nAllow: /a%\nAllow: /%zz\nAllow: /caf\u{e9}\nAllow: /*?x=$\nDisallow: /*%2F*\nAllow: /robots.txt\n";

/// The first 80 characters of `url`, for messages.
fn short(url: &str) -> String {
    url.chars().take(80).collect()
}

fn hostile_urls() -> Vec<String> {
    let mut urls: Vec<String> = [
        "",
        "/",
        "?",
        "??",
        "#",
        "/#",
        "//",
        "///",
        "http://",
        "https://",
        "http:///",
        "http://?",
        "http://#",
        "http://#/x",
        "://",
        ":///a",
        "/a%",
        "/%",
        "/a%4",
        "/%zz",
        "/a%zz%",
        "/%%%%",
        "/%2F%2f%2",
        "/caf\u{e9}",
        "/caf%C3%A9",
        "http://b\u{fc}cher.example/\u{fc}/\u{65e5}\u{672c}?\u{e9}=\u{1f600}",
        "/\u{0}\u{1}\u{7f}",
        "/a?u=http://b/c",
        "//host/a;b?c#d",
        "?x=",
        ";",
        "http://example.com;x",
        "http://example.com?x",
    ]
    .iter()
    .map(|u| u.to_string())
    .collect();
    urls.push(format!("/{}", "x".repeat(1 << 20)));
    urls.push(format!("/{}", "%".repeat(1 << 16)));
    urls.push(format!("/{}", "\u{e9}".repeat(1 << 16)));
    urls.push(format!("http://{}", "h".repeat(1 << 16)));
    urls.push("?".repeat(1 << 16));
    urls.push("/".repeat(1 << 16));
    urls.push("://".repeat(1 << 16));
    urls
}

#[test]
fn hostile_urls_are_answered_without_panic() {
    let _serial = serial();
    let urls = hostile_urls();
    for dialect in Dialect::ALL {
        let robots = parse(dialect, RULES_FOR_URLS.as_bytes());
        let matcher = robots.matcher("bot");
        let checks = cost(|| {
            for url in &urls {
                let verdict = matcher.check(url);
                assert_eq!(
                    verdict.allowed,
                    matcher.is_allowed(url),
                    "[{dialect}] {}",
                    short(url)
                );
                if let Some(rule) = verdict.rule {
                    assert_eq!(verdict.allowed, rule.kind == norobots::RuleKind::Allow);
                }
            }
        });
        let octets: usize = urls.iter().map(String::len).sum();
        assert_within(
            &format!("[{dialect}] {} hostile URLs", urls.len()),
            &checks,
            // At most 4.6 steps an octet measured.
            10 * octets as u64,
        );
    }
}

#[test]
fn every_url_is_matched_as_a_path_under_slash() {
    let _serial = serial();
    // Whatever the URL, what rules see starts with `/`: `Disallow: /` refuses
    // it (but /robots.txt, where the dialect exempts it).
    let urls = hostile_urls();
    for dialect in Dialect::ALL {
        let robots = parse(dialect, b"User-agent: *\nDisallow: /\n");
        let matcher = robots.matcher("bot");
        for url in &urls {
            let verdict = matcher.check(url);
            assert!(
                !verdict.allowed,
                "[{dialect}] {} escaped `Disallow: /`",
                short(url)
            );
            assert_eq!(verdict.rule.map(|r| r.line), Some(2));
        }
    }
}

#[test]
fn huge_urls_are_checked_in_linear_time_without_allocating_much() {
    let _serial = serial();
    let body = "User-agent: *\nDisallow: /*a*b*c$\nAllow: /x%41\nDisallow: /\u{e9}\n";
    let shapes: [(&str, MakeUrl); 5] = [
        ("plain path", |n| {
            format!("http://example.com/{}", "a".repeat(n))
        }),
        ("percent escapes", |n| {
            format!("/{}", "%41%2f%zz".repeat(n / 9))
        }),
        ("non-ASCII", |n| format!("/{}", "\u{e9}".repeat(n / 2))),
        ("percent at the end", |n| {
            format!("/{}%", "ab".repeat(n / 2))
        }),
        ("query only", |n| format!("?{}", "c".repeat(n))),
    ];
    for dialect in Dialect::ALL {
        let robots = parse(dialect, body.as_bytes());
        let matcher = robots.matcher("bot");
        for (shape, make) in &shapes {
            assert_linear(
                &format!("[{dialect}] huge URL: {shape}"),
                [256 << 10, 1 << 20],
                // At most 10 measured (rfc9309 writes each non-ASCII octet as
                // three).
                20,
                // A check may rewrite the path (3 octets per non-ASCII
                // octet; a query without a path gets a `/` in front) into a
                // buffer of its own, freed after: a path this long is not
                // kept in the thread's scratch buffer.
                4,
                make,
                |url| {
                    let verdict = matcher.check(url);
                    assert_eq!(verdict.allowed, matcher.is_allowed(url));
                },
            );
        }
    }
}

// The contract of a kept matcher: checks do not allocate, whatever the URL
// needs (`%xx` and non-ASCII rewrites, a query without a path, raw octets),
// once the thread has checked one as long, up to the kept 16 KiB; a longer
// one gets a buffer of its own (see the test above).
#[test]
fn checks_do_not_allocate() {
    let _serial = serial();
    let body =
        b"User-agent: *\nDisallow: /*a*b*c$\nAllow: /x%41\nDisallow: /\xc3\xa9\nDisallow: /*?id=\n";
    let long = format!("/{}", "%41\u{e9}".repeat(2_000));
    let urls: Vec<Vec<u8>> = [
        "https://example.com/shop/cart?id=7",
        "/x%41/b",
        "/\u{e9}t\u{e9}",
        "/a%2fb%7e",
        "http://example.com?q=1",
        "//example.com/a#frag",
        &long,
    ]
    .iter()
    .map(|u| u.as_bytes().to_vec())
    .chain([b"/caf\xe9/menu".to_vec()])
    .collect();
    for dialect in Dialect::ALL {
        let matcher = parse(dialect, body).matcher("bot");
        for url in &urls {
            matcher.check_bytes(url);
        }
        let (_, calls) = allocations(|| {
            for _ in 0..100 {
                for url in &urls {
                    std::hint::black_box(matcher.check_bytes(url));
                    let text = std::str::from_utf8(url).unwrap_or("/");
                    std::hint::black_box(matcher.is_allowed(text));
                }
            }
        });
        assert_eq!(calls, 0, "[{dialect}] {calls} allocations in 1,600 checks");
    }
}

// A matcher's build allocates per file, not per rule: each `*` rule used to
// allocate the list of its segments, which a file of thousands of such
// rules paid thousands of times. The vectors the build grows still
// reallocate a few times as the count doubles.
#[test]
fn compiling_star_rules_allocates_per_file_not_per_rule() {
    let _serial = serial();
    let body = |n: usize| {
        let rules: String = (0..n).map(|i| format!("Disallow: /p/*a{i}*b$\n")).collect();
        format!("User-agent: *\n{rules}")
    };
    for dialect in [Dialect::Rfc9309, Dialect::Google] {
        let few = parse(dialect, body(10).as_bytes());
        let many = parse(dialect, body(1_000).as_bytes());
        let (m, a) = allocations(|| few.matcher("bot"));
        assert_eq!(m.rule_count(), 10);
        let (m, b) = allocations(|| many.matcher("bot"));
        assert_eq!(m.rule_count(), 1_000);
        assert!(
            b < a + 100,
            "[{dialect}] {a} allocations for 10 `*` rules, {b} for 1,000"
        );
    }
}

// A thread keeps the vectors of a small build for its next one: a crawler
// compiles a small file per host, and most of a build's allocations were
// its working vectors. The file has `*` rules enough for a tail index and
// a node whose children are laid out by octet, so every vector is used.
#[test]
fn a_second_small_build_on_a_thread_reuses_the_working_vectors() {
    let _serial = serial();
    let mut body = String::from("User-agent: *\n");
    for c in b'a'..=b'h' {
        body.push_str(&format!("Disallow: /{}/x\n", c as char));
    }
    for i in 0..20 {
        body.push_str(&format!("Disallow: /*?key{i}=\n"));
    }
    let robots = parse(Dialect::Rfc9309, body.as_bytes());
    let (first, second) = std::thread::spawn(move || {
        let (m, first) = allocations(|| robots.matcher("bot"));
        drop(m);
        let (m, second) = allocations(|| robots.matcher("bot"));
        assert!(!m.is_allowed("/p?key7=1") && !m.is_allowed("/c/x") && m.is_allowed("/c/y"));
        (first, second)
    })
    .join()
    .expect("the build thread");
    assert!(
        second + 6 <= first,
        "{first} allocations in a thread's first build, {second} in its second"
    );
}

// A crawler may drop its last matcher, or build one, while a thread shuts
// down, after the thread-locals a build or a check keeps its buffers in are
// gone: that must work (a panic in a thread-local's destructor aborts the
// process), without the kept buffers.
#[test]
fn building_and_checking_in_a_thread_local_destructor_works() {
    struct AtExit;
    impl Drop for AtExit {
        fn drop(&mut self) {
            let robots = Robots::parse(b"User-agent: *\nDisallow: /~a\nDisallow: /*.pdf$\n");
            let matcher = robots.matcher("bot");
            // `%7E` and a query without a path are rewritten before
            // matching, in the buffer a thread keeps.
            assert!(!matcher.is_allowed("/%7Ea/b"));
            assert!(matcher.is_allowed("?q"));
            RAN.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }
    thread_local! {
        static AT_EXIT: AtExit = const { AtExit };
    }
    static RAN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    std::thread::spawn(|| {
        // Registered first, so destroyed last: after the buffers the build
        // and check below make this thread keep.
        AT_EXIT.with(|_| ());
        let robots = Robots::parse(b"User-agent: *\nDisallow: /x\n");
        assert!(robots.matcher("bot").is_allowed("?y"));
    })
    .join()
    .expect("the thread");
    assert!(RAN.load(std::sync::atomic::Ordering::SeqCst));
}
