//! Splits the warm check's cost per URL into what the cache and the branch
//! predictor add, on the corpus of the `peers` benchmark.
//!
//! ```text
//! cargo run -p norobots-bench --bin warm_parts --release [PASSES]
//! ```
//!
//! The `warm_check` group checks each file's URLs once, file after file, as
//! a crawler going from host to host would: a file's matcher and URLs are
//! out of the cache when its turn comes, and the branch predictor has last
//! seen another file's trie. This tool times the same checks three ways,
//! and the floor (reading the URLs) two ways, each the best of `PASSES`
//! passes (default 10) outside criterion:
//!
//! * `in turn`: as `warm_check` does;
//! * `hot, same order`: each file's URLs ten times over before the next
//!   file, in one order: after the first round the matcher and the URLs are
//!   in the cache and the predictor has seen the very same sequence;
//! * `hot, shuffled`: ten times over, shuffled anew each round (the
//!   orders are made before timing): the cache is as warm, the predictor
//!   cannot replay the sequence.
//!
//! A goal below the `hot, same order` figure cannot be met by making the
//! check wait less on memory or mispredict less: it would need fewer
//! instructions per URL.

use std::hint::black_box;
use std::time::Instant;

/// Rounds over one file's URLs in the hot measures.
const ROUNDS: usize = 10;

fn main() {
    let passes: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(10);
    let corpus = norobots_bench::load(norobots_bench::file_count());
    eprintln!("warm_parts: {}", corpus.describe());
    let matchers: Vec<norobots::Matcher> = corpus
        .docs
        .iter()
        .map(|doc| norobots::Robots::parse(&doc.body).matcher(norobots_bench::AGENT))
        .collect();
    let urls: Vec<Vec<&str>> = corpus
        .docs
        .iter()
        .map(|doc| doc.urls.iter().map(String::as_str).collect())
        .collect();
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let shuffled: Vec<Vec<Vec<&str>>> = urls
        .iter()
        .map(|list| {
            (0..ROUNDS)
                .map(|_| {
                    let mut round = list.clone();
                    rng.shuffle(&mut round);
                    round
                })
                .collect()
        })
        .collect();
    let total: usize = urls.iter().map(Vec::len).sum();
    if total == 0 {
        eprintln!("warm_parts: the corpus has no URLs");
        std::process::exit(2);
    }

    let best = |f: &mut dyn FnMut() -> usize, per_pass: usize| {
        let mut best = f64::MAX;
        for _ in 0..passes {
            let start = Instant::now();
            black_box(f());
            best = best.min(start.elapsed().as_secs_f64());
        }
        best * 1e9 / per_pass as f64
    };
    let pairs = || matchers.iter().zip(&urls);

    let read_in_turn = best(
        &mut || {
            let mut acc = 0u8;
            for list in &urls {
                for url in list {
                    acc ^= norobots_bench::read_url(black_box(url));
                }
            }
            usize::from(acc)
        },
        total,
    );
    let read_hot = best(
        &mut || {
            let mut acc = 0u8;
            for list in &urls {
                for _ in 0..ROUNDS {
                    for url in list {
                        acc ^= norobots_bench::read_url(black_box(url));
                    }
                }
            }
            usize::from(acc)
        },
        total * ROUNDS,
    );
    let in_turn = best(
        &mut || {
            let mut allowed = 0;
            for (m, list) in pairs() {
                for url in list {
                    allowed += usize::from(m.is_allowed(url));
                }
            }
            allowed
        },
        total,
    );
    let hot_same = best(
        &mut || {
            let mut allowed = 0;
            for (m, list) in pairs() {
                for _ in 0..ROUNDS {
                    for url in list {
                        allowed += usize::from(m.is_allowed(url));
                    }
                }
            }
            allowed
        },
        total * ROUNDS,
    );
    let hot_shuffled = best(
        &mut || {
            let mut allowed = 0;
            for (m, rounds) in matchers.iter().zip(&shuffled) {
                for round in rounds {
                    for url in round {
                        allowed += usize::from(m.is_allowed(url));
                    }
                }
            }
            allowed
        },
        total * ROUNDS,
    );

    println!(
        "{} files, {total} URLs, best of {passes} passes, ns a URL",
        urls.len()
    );
    println!("| measure | in turn | hot, same order | hot, shuffled |");
    println!("|---|---:|---:|---:|");
    println!("| read the URL (the floor) | {read_in_turn:.1} | {read_hot:.1} | |");
    println!("| norobots check | {in_turn:.1} | {hot_same:.1} | {hot_shuffled:.1} |");
}

/// Marsaglia's xorshift64: a fixed, repeatable order is all the shuffle
/// needs, not a good generator.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Fisher-Yates.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}
