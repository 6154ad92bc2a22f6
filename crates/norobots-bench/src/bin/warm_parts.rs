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

use norobots_bench::synthetic::shuffle;

/// Rounds over one file's URLs in the hot measures.
const ROUNDS: usize = 10;

/// For each file, the rounds of its URLs one pass goes through in turn.
type Rounds<'a> = Vec<Vec<Vec<&'a str>>>;

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
    let total = corpus.total_urls() as usize;
    if total == 0 {
        eprintln!("warm_parts: the corpus has no URLs");
        std::process::exit(2);
    }
    // The three ways differ only in the rounds, all made before timing.
    let rounds = |count: usize, shuffled: bool| -> Rounds<'_> {
        let mut seed = 0;
        corpus
            .docs
            .iter()
            .map(|doc| {
                (0..count)
                    .map(|_| {
                        let mut round: Vec<&str> = doc.urls.iter().map(String::as_str).collect();
                        if shuffled {
                            seed += 1;
                            shuffle(&mut round, seed);
                        }
                        round
                    })
                    .collect()
            })
            .collect()
    };
    let in_turn = rounds(1, false);
    let hot_same = rounds(ROUNDS, false);
    let hot_shuffled = rounds(ROUNDS, true);

    let best = |f: &dyn Fn() -> usize, urls_a_pass: usize| {
        let mut best = f64::MAX;
        for _ in 0..passes {
            let start = Instant::now();
            black_box(f());
            best = best.min(start.elapsed().as_secs_f64());
        }
        best * 1e9 / urls_a_pass as f64
    };
    let read = |rounds: &Rounds<'_>| {
        let mut acc = 0u8;
        for round in rounds.iter().flatten() {
            for url in round {
                acc ^= norobots_bench::read_url(black_box(url));
            }
        }
        usize::from(acc)
    };
    let check = |rounds: &Rounds<'_>| {
        let mut allowed = 0;
        for (m, file) in matchers.iter().zip(rounds) {
            for url in file.iter().flatten() {
                allowed += usize::from(m.is_allowed(url));
            }
        }
        allowed
    };

    let read_in_turn = best(&|| read(&in_turn), total);
    let read_hot = best(&|| read(&hot_same), total * ROUNDS);
    let check_in_turn = best(&|| check(&in_turn), total);
    let check_hot_same = best(&|| check(&hot_same), total * ROUNDS);
    let check_hot_shuffled = best(&|| check(&hot_shuffled), total * ROUNDS);

    println!(
        "{} files, {total} URLs, best of {passes} passes, ns a URL",
        corpus.docs.len()
    );
    println!("| measure | in turn | hot, same order | hot, shuffled |");
    println!("|---|---:|---:|---:|");
    println!("| read the URL (the floor) | {read_in_turn:.1} | {read_hot:.1} | |");
    println!(
        "| norobots check | {check_in_turn:.1} | {check_hot_same:.1} | {check_hot_shuffled:.1} |"
    );
}
