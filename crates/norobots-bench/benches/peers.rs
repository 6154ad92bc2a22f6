//! norobots against its crates.io peers, side by side in one run.
//!
//! ```text
//! cargo bench -p norobots-bench --bench peers
//! cargo run -p norobots-bench --bin ratios --release   # the comparison table
//! ```
//!
//! Groups (criterion group id / function id = engine name):
//!
//! * `parse_compile`: build everything an engine needs for `Googlebot`, for
//!   every corpus file. Throughput in bytes of robots.txt. Beside the
//!   engines, `norobots-parse-only` times `Robots::parse` without the
//!   matcher.
//! * `warm_check`: matchers built beforehand; check every URL of every file.
//!   Throughput in URLs. robotstxt re-parses the file on each check, so it
//!   gets a spread-out subset of the files (see `REPARSE_WARM_FILES`).
//!   Beside the engines, `read-urls-only` reads every octet of the same
//!   URLs and decides nothing: the floor under any engine's figure.
//! * `cold_check`: per file, parse + compile + one check (a crawler that
//!   fetches robots.txt for one URL). Throughput in files. Engines that
//!   keep nothing (robotstxt, `norobots-oneshot`) do their one check.
//! * `scaling_10_rules` / `scaling_10000_rules`: one synthetic file of that
//!   many rules, the same URL list checked against both; the check cost
//!   should not grow with the rule count for a compiled matcher. Each
//!   engine is measured on both files back to back.
//!
//! Quick run on a slice of the corpus: `NOROBOTS_BENCH_FILES=200 cargo bench
//! -p norobots-bench --bench peers`. Other corpus: `NOROBOTS_CORPUS=dir`.

use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
use norobots_bench::{
    for_each_engine, read_url, synthetic, total_urls, Corpus, Doc, Engine, EngineVisitor, AGENT,
    NOROBOTS_PARSE, READ_URLS,
};

/// Files given to engines that re-parse on every check, in `warm_check`.
/// At ~100 URLs a file and a full parse per URL, 200 files keep one
/// iteration well under a second; per-URL cost is what is reported, so the
/// smaller set is still comparable (it is spread over the whole sample).
const REPARSE_WARM_FILES: usize = 200;

/// URLs checked against each synthetic file.
const SCALING_URLS: usize = 1_000;

/// URLs given to re-parsing engines in the scaling groups: a check there
/// parses the whole 10,000-rule file (~400 KB), so 1,000 of them would take
/// seconds per iteration for one number.
const REPARSE_SCALING_URLS: usize = 50;

/// Rule counts of the scaling files.
const SCALING_SIZES: [usize; 2] = [10, 10_000];

fn main() {
    let corpus = norobots_bench::load(norobots_bench::file_count());
    eprintln!("norobots-bench: {}", corpus.describe());

    // Every corpus-wide iteration runs over thousands of files (milliseconds
    // to seconds), so 10 samples already average a lot of work; together with
    // short warm-up and measurement times this keeps the whole run to a few
    // minutes on two cores. Command-line flags still override all of it.
    let mut criterion = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .without_plots()
        .configure_from_args();

    parse_compile(&mut criterion, &corpus);
    warm_check(&mut criterion, &corpus);
    cold_check(&mut criterion, &corpus);
    scaling(&mut criterion);

    criterion.final_summary();
}

/// Settings shared by the corpus-wide groups: each iteration is long, so
/// flat sampling (the same iteration count per sample) rather than criterion's
/// linear ramp, which would spend most of the budget on the slowest engines.
fn corpus_group<'c>(criterion: &'c mut Criterion, name: &str) -> BenchmarkGroup<'c, WallTime> {
    let mut group = criterion.benchmark_group(name);
    group.sampling_mode(SamplingMode::Flat);
    group
}

fn parse_compile(criterion: &mut Criterion, corpus: &Corpus) {
    struct Visit<'c, 'g> {
        group: &'g mut BenchmarkGroup<'c, WallTime>,
        docs: &'g [Doc],
    }
    impl EngineVisitor for Visit<'_, '_> {
        fn visit<E: Engine>(&mut self) {
            if !E::IN_PARSE_COMPILE {
                return;
            }
            let docs = self.docs;
            self.group.bench_function(E::NAME, |b| {
                b.iter(|| {
                    docs.iter()
                        .map(|doc| E::parse_compile(doc, AGENT))
                        .sum::<usize>()
                });
            });
        }
    }
    let mut group = corpus_group(criterion, "parse_compile");
    group.throughput(Throughput::Bytes(corpus.total_bytes()));
    for_each_engine(&mut Visit {
        group: &mut group,
        docs: &corpus.docs,
    });
    // Our parse without the matcher: the best peer here only parses, so
    // this splits our gap to it into parsing and compiling.
    group.bench_function(NOROBOTS_PARSE, |b| {
        b.iter(|| {
            corpus
                .docs
                .iter()
                .map(|doc| {
                    std::hint::black_box(norobots::Robots::parse(&doc.body))
                        .groups()
                        .len()
                })
                .sum::<usize>()
        });
    });
    group.finish();
}

fn warm_check(criterion: &mut Criterion, corpus: &Corpus) {
    struct Visit<'c, 'g> {
        group: &'g mut BenchmarkGroup<'c, WallTime>,
        docs: &'g [Doc],
    }
    impl EngineVisitor for Visit<'_, '_> {
        fn visit<E: Engine>(&mut self) {
            let docs: Vec<&Doc> = if E::REPARSES_ON_CHECK {
                let subset = spread(self.docs, REPARSE_WARM_FILES);
                eprintln!(
                    "norobots-bench: warm_check/{}: re-parses on every check, so it gets {} of the {} files ({} URLs)",
                    E::NAME,
                    subset.len(),
                    self.docs.len(),
                    total_urls(subset.iter().copied())
                );
                subset
            } else {
                self.docs.iter().collect()
            };
            // Built once, outside the measurement: this group times checks only.
            let parsed: Vec<E::Parsed<'_>> = docs.iter().map(|doc| E::parse(doc)).collect();
            let compiled: Vec<E::Compiled<'_>> =
                parsed.iter().map(|p| E::compile(p, AGENT)).collect();
            report_rejected::<E>(&compiled);
            let pairs: Vec<(&E::Compiled<'_>, &[String])> = compiled
                .iter()
                .zip(&docs)
                .map(|(c, doc)| (c, doc.urls.as_slice()))
                .collect();

            self.group
                .throughput(Throughput::Elements(total_urls(docs.iter().copied())));
            self.group.bench_function(E::NAME, |b| {
                b.iter(|| {
                    let mut allowed = 0usize;
                    for (compiled, urls) in &pairs {
                        for url in *urls {
                            allowed += usize::from(E::check(compiled, url));
                        }
                    }
                    allowed
                });
            });
        }
    }
    let mut group = corpus_group(criterion, "warm_check");
    for_each_engine(&mut Visit {
        group: &mut group,
        docs: &corpus.docs,
    });
    // The URLs live where the engines' loop finds them (one `String` each,
    // file after file), so this pays the same memory traffic.
    group.throughput(Throughput::Elements(corpus.total_urls()));
    group.bench_function(READ_URLS, |b| {
        b.iter(|| {
            let mut acc = 0u8;
            for doc in &corpus.docs {
                for url in &doc.urls {
                    acc ^= read_url(std::hint::black_box(url));
                }
            }
            acc
        });
    });
    group.finish();
}

fn cold_check(criterion: &mut Criterion, corpus: &Corpus) {
    struct Visit<'c, 'g> {
        group: &'g mut BenchmarkGroup<'c, WallTime>,
        docs: &'g [Doc],
    }
    impl EngineVisitor for Visit<'_, '_> {
        fn visit<E: Engine>(&mut self) {
            let docs = self.docs;
            self.group.bench_function(E::NAME, |b| {
                b.iter(|| {
                    docs.iter()
                        .filter(|doc| E::cold(doc, AGENT, doc.first_url()))
                        .count()
                });
            });
        }
    }
    let mut group = corpus_group(criterion, "cold_check");
    group.throughput(Throughput::Elements(corpus.docs.len() as u64));
    for_each_engine(&mut Visit {
        group: &mut group,
        docs: &corpus.docs,
    });
    group.finish();
}

fn scaling(criterion: &mut Criterion) {
    struct Visit<'c> {
        criterion: &'c mut Criterion,
        docs: &'c [(usize, Doc)],
    }
    impl EngineVisitor for Visit<'_> {
        fn visit<E: Engine>(&mut self) {
            // One engine's two files back to back: the goal is the ratio of
            // the two, and this machine's speed drifts over minutes, so
            // measuring every engine on one file before any on the other
            // put a minute or more between the two halves of a ratio.
            for (rules, doc) in self.docs {
                let urls = if E::REPARSES_ON_CHECK {
                    &doc.urls[..REPARSE_SCALING_URLS.min(doc.urls.len())]
                } else {
                    &doc.urls[..]
                };
                let parsed = E::parse(doc);
                let compiled = E::compile(&parsed, AGENT);
                report_rejected::<E>(std::slice::from_ref(&compiled));
                let mut group = self
                    .criterion
                    .benchmark_group(format!("scaling_{rules}_rules"));
                // Iterations are short for compiled matchers, so criterion may
                // use its linear sampling and 3 s is plenty. Engines that try
                // every rule on every check take far longer an iteration on
                // the big file and overrun that (criterion warns); 10 samples
                // keep each of them within seconds.
                group.measurement_time(Duration::from_secs(3));
                group.throughput(Throughput::Elements(urls.len() as u64));
                group.bench_function(E::NAME, |b| {
                    b.iter(|| urls.iter().filter(|url| E::check(&compiled, url)).count());
                });
                group.finish();
            }
        }
    }
    // The URLs come from the largest file's rules, so that with 10,000 rules
    // about half of them hit a rule; the 10-rule file gets the very same list.
    let urls = synthetic::urls(SCALING_URLS, SCALING_SIZES[SCALING_SIZES.len() - 1]);
    let docs: Vec<(usize, Doc)> = SCALING_SIZES
        .iter()
        .map(|&rules| (rules, synthetic::doc(rules, urls.clone())))
        .collect();
    for_each_engine(&mut Visit {
        criterion,
        docs: &docs,
    });
}

/// `count` docs spread evenly over `docs` (every k-th), so a subset sees the
/// same mix of sites as the whole sample.
fn spread(docs: &[Doc], count: usize) -> Vec<&Doc> {
    let step = (docs.len() / count.max(1)).max(1);
    docs.iter().step_by(step).take(count).collect()
}

/// Says on stderr how many files an engine refused to build from, since its
/// checks on those files are a free "allowed".
fn report_rejected<E: Engine>(compiled: &[E::Compiled<'_>]) {
    let rejected = compiled.iter().filter(|c| !E::usable(c)).count();
    if rejected > 0 {
        eprintln!(
            "norobots-bench: {}: rejected {rejected} of {} files (checked as allow-all)",
            E::NAME,
            compiled.len()
        );
    }
}
