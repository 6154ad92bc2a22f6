//! The linter on the real-world corpus and on hostile input: it never
//! panics, and its time stays bounded.
//!
//! The linter counts no work, so the bounds are on wall time, each far
//! above what the run takes in a debug build on an idle machine, beyond
//! what any load makes of it, and below what a pairwise or quadratic pass
//! over the input would take (one such pass: the coverers of 100,000 rules
//! found pair by pair instead of by sorting, 10^10 pairs). What each run
//! and such a pass took on 2 cores is in crates/norobots-bench/README.md,
//! "Other figures behind the code".
//!
//! The corpus run prints the ten most frequent finding codes; see them with
//! `cargo test -p norobots-tools --test lint -- --nocapture`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use norobots::Dialect;
use norobots_tools::lint::{lint, Code, DivergenceKind, LintOptions, Report};
use proptest::prelude::*;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/robots");

/// The corpus's robots.txt files, sorted; `None` (the test skips) where
/// there is no corpus, but under CI, which must run these tests.
fn corpus() -> Option<Vec<PathBuf>> {
    let Ok(entries) = std::fs::read_dir(CORPUS) else {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "the corpus is missing at {CORPUS}"
        );
        println!("SKIPPED: no corpus at {CORPUS}");
        return None;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    Some(paths)
}

/// Lints, renders both ways, and returns the report with the time taken.
fn lint_all_ways(body: &[u8], dialect: Dialect) -> (Report, Duration) {
    let start = Instant::now();
    let report = lint(body, &LintOptions::new(dialect));
    let text = report.render_text("robots.txt", body);
    let json = report.to_json("robots.txt");
    assert!(text.ends_with('\n'));
    // Divergences are shown once per kind.
    let shown = text
        .lines()
        .filter(|l| l.starts_with("robots.txt:") && l.contains(": warning[dialect-divergence]: "))
        .count();
    assert!(shown <= DivergenceKind::ALL.len(), "{text}");
    assert_eq!(
        json["findings"].as_array().map(Vec::len),
        Some(report.findings.len())
    );
    (report, start.elapsed())
}

#[test]
fn corpus_never_panics_and_stays_fast() {
    let Some(paths) = corpus() else {
        return;
    };
    let mut counts: HashMap<Code, usize> = HashMap::new();
    let (mut files, mut bytes, mut with_errors, mut omitted) = (0usize, 0usize, 0usize, 0usize);
    let mut slowest = (Duration::ZERO, String::new());
    let start = Instant::now();
    for path in &paths {
        let Ok(body) = std::fs::read(path) else {
            continue;
        };
        let (report, took) = lint_all_ways(&body, Dialect::Rfc9309);
        files += 1;
        bytes += body.len();
        with_errors += usize::from(report.has_errors());
        omitted += report.omitted;
        for f in &report.findings {
            *counts.entry(f.code).or_insert(0) += 1;
        }
        if took > slowest.0 {
            slowest = (took, path.display().to_string());
        }
    }
    let elapsed = start.elapsed();
    let mut top: Vec<(Code, usize)> = counts.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!(
        "linted {files} files ({:.1} MB) in {:.2?}; {with_errors} with errors; {omitted} findings over the per-code cap",
        bytes as f64 / 1e6,
        elapsed
    );
    println!("slowest file: {} in {:.2?}", slowest.1, slowest.0);
    println!("most frequent findings:");
    for (code, n) in top.iter().take(10) {
        println!("{n:>9}  {code}");
    }
    assert!(files > 0);
    // Far above an idle run of the 20,657 files (41 MB) and of the slowest
    // (the largest, 3.7 MB): a pass over that file per octet of it would be
    // 7 * 10^12 octets, hours.
    assert!(
        elapsed < Duration::from_secs(600),
        "corpus took {elapsed:?}"
    );
    assert!(slowest.0 < Duration::from_secs(60), "{slowest:?}");
}

// github.com's file diverges on 600-odd lines, nearly all of one kind
// (`*` in patterns): its text report still fits on a screen.
#[test]
fn a_file_that_diverges_everywhere_fits_on_a_screen() {
    if corpus().is_none() {
        return;
    }
    let body = std::fs::read(Path::new(CORPUS).join("github.com.txt")).unwrap();
    let report = lint(&body, &LintOptions::default());
    let divergences = report
        .findings
        .iter()
        .filter(|f| f.code == Code::DialectDivergence)
        .count();
    assert!(divergences > 100, "{divergences}");
    let text = report.render_text("github.com.txt", &body);
    assert!(text.lines().count() <= 60, "{text}");
    let summary = format!(
        "github.com.txt: 0 errors, {} warnings, 0 infos\n",
        report.findings.len()
    );
    assert!(text.ends_with(&summary), "{text}");
}

// 186 files of the corpus start with a byte order mark. Robots skip it, so
// the linter must find in each what it finds without the mark, plus the
// note about the mark: no finding the mark itself caused.
#[test]
fn corpus_files_with_a_byte_order_mark_lint_as_without_it() {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let Some(paths) = corpus() else {
        return;
    };
    let mut files = 0;
    for path in paths {
        let Ok(body) = std::fs::read(&path) else {
            continue;
        };
        let Some(rest) = body.strip_prefix(BOM) else {
            continue;
        };
        files += 1;
        for d in Dialect::ALL {
            let with = lint(&body, &LintOptions::new(d)).findings;
            let without = lint(rest, &LintOptions::new(d)).findings;
            let (notes, others): (Vec<_>, Vec<_>) = with
                .into_iter()
                .partition(|f| f.code == Code::ByteOrderMark);
            assert_eq!(notes.len(), 1, "{d}: {}", path.display());
            assert_eq!(others, without, "{d}: {}", path.display());
        }
    }
    assert!(
        files > 0,
        "no file in {CORPUS} starts with a byte order mark"
    );
}

/// Lints in every dialect and checks the time.
fn bounded(body: &[u8], limit: Duration) {
    for d in Dialect::ALL {
        let (_, took) = lint_all_ways(body, d);
        assert!(took < limit, "{d}: {took:?} for {} octets", body.len());
    }
}

#[test]
fn ten_megabyte_line() {
    let mut body = b"User-agent: *\nDisallow: /".to_vec();
    body.extend(std::iter::repeat_n(b'a', 10 << 20));
    body.extend_from_slice(b"\nAllow: /a\n");
    // A pass per octet over the line would be 5 * 10^13 octets.
    bounded(&body, Duration::from_secs(60));
}

#[test]
fn ten_megabytes_of_newlines_and_of_agents() {
    // The core parses every line three times (the chosen dialect, draft1996
    // and rfc9309): two dialects are enough here.
    let body = vec![b'\n'; 10 << 20];
    for d in [Dialect::Draft1996, Dialect::Rfc9309] {
        let (_, took) = lint_all_ways(&body, d);
        // A pass per line over the lines would be 5 * 10^13 of them.
        assert!(took < Duration::from_secs(120), "{d}: {took:?}");
    }
    let body = "User-agent: a\n".repeat(200_000);
    // The 200,000 agents pair by pair would be 2 * 10^10 pairs, minutes.
    bounded(body.as_bytes(), Duration::from_secs(40));
}

#[test]
fn hundred_thousand_rules() {
    // One group: shadowing and duplicate checks must not be pairwise.
    let mut body = String::from("User-agent: *\n");
    for i in 0..100_000 {
        let kind = if i % 3 == 0 { "Allow" } else { "Disallow" };
        body.push_str(&format!("{kind}: /d{}/p{}\n", i % 1000, i));
    }
    // The rules' coverers pair by pair: 10^10 pairs, over a minute.
    bounded(body.as_bytes(), Duration::from_secs(30));
    // Many groups, each naming its own robot, some of them twice. The
    // bound holds against a hang, not against a pass over the groups pair
    // by pair (10^9 pairs, seconds), which no bound on time that load
    // cannot reach tells from this.
    let mut body = String::new();
    for i in 0..50_000 {
        body.push_str(&format!(
            "User-agent: bot{}\nDisallow: /x{i}\nAllow: /x{i}/y\n\n",
            i % 20_000
        ));
    }
    bounded(body.as_bytes(), Duration::from_secs(30));
}

#[test]
fn hostile_patterns() {
    let star = "*".repeat(10_000);
    let body =
        format!("User-agent: *\nDisallow: /{star}\nAllow: /a{star}$\nDisallow: /%%%%{star}%zz\n");
    // Milliseconds idle; a pass per octet over the 30,000 octets would be
    // 4.5 * 10^8 octets, seconds.
    bounded(body.as_bytes(), Duration::from_secs(1));
}

/// Octets that make robots.txt-like noise, with every special octet.
fn noise() -> impl Strategy<Value = Vec<u8>> {
    let tokens = prop_oneof![
        Just(b"User-agent:".to_vec()),
        Just(b"Disallow:".to_vec()),
        Just(b"Allow:".to_vec()),
        Just(b"Dissallow".to_vec()),
        Just(b" /a".to_vec()),
        Just(b"*".to_vec()),
        Just(b"$".to_vec()),
        Just(b"%2F".to_vec()),
        Just(b"%3c".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"#".to_vec()),
        Just(b"\0".to_vec()),
        Just(b"\xEF\xBB\xBF".to_vec()),
        Just(b"\xC3".to_vec()),
        Just("é".as_bytes().to_vec()),
        any::<u8>().prop_map(|b| vec![b]),
    ];
    prop::collection::vec(tokens, 0..200).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..2000)) {
        for d in Dialect::ALL {
            lint_all_ways(&body, d);
        }
    }

    #[test]
    fn robots_like_noise_never_panics(body in noise()) {
        for d in Dialect::ALL {
            let (report, _) = lint_all_ways(&body, d);
            for f in &report.findings {
                prop_assert!(f.line >= 1 && f.column >= 1);
            }
        }
    }
}

// A robots.txt is often someone else's: findings quote its fields and
// patterns escaped, and the source line shows blanks in their place.
#[test]
fn text_report_escapes_what_the_file_wrote() {
    let body =
        "User-agent: *\nDisallow: /a\u{1b}[2Jb\nFo\u{1b}]0;x\u{7}o: bar\nDisallow: /\u{202e}c\n";
    let report = lint(body.as_bytes(), &LintOptions::default());
    let text = report.render_text("robots.txt", body.as_bytes());
    // Nothing a terminal would act on is left to escape.
    assert_eq!(norobots_tools::printable(&text), text);
    assert!(text.contains("unknown field `Fo\\x1b]0;x\\x07o`"), "{text}");
    assert!(text.contains("\n3 | Fo ]0;x o: bar\n"), "{text}");
}
