//! Prints a markdown table of norobots against the best peer for each
//! measure, from the results of `cargo bench -p norobots-bench --bench peers`.
//!
//! ```text
//! cargo run -p norobots-bench --bin ratios --release [CRITERION_DIR]
//! ```
//!
//! It reads every `new/benchmark.json` (group, engine, throughput) and the
//! `new/estimates.json` next to it under `target/criterion` (or
//! `$CRITERION_HOME`, `$CARGO_TARGET_DIR/criterion`, or the folder given as
//! the argument). Times are criterion's median estimate per iteration: the
//! machine is shared and small, and the median shrugs off the odd slow
//! sample that would drag the mean.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use norobots_bench::{is_ours, NOROBOTS, NOROBOTS_ONESHOT, NOROBOTS_PARSE, READ_URLS};
use serde_json::Value;

/// What one iteration of a benchmark processed.
#[derive(Clone, Copy, Debug)]
enum Unit {
    /// Bytes of robots.txt: shown as throughput, MB/s.
    Bytes(u64),
    /// URLs or files: shown as time per element.
    Elements(u64),
}

/// One engine's result in one group.
#[derive(Clone, Debug)]
struct Measured {
    engine: String,
    /// Median nanoseconds per iteration.
    nanos: f64,
    unit: Unit,
}

impl Measured {
    /// Cost of one byte or element in ns; lower is better for every unit,
    /// which lets one comparison serve throughput and latency alike.
    fn cost(&self) -> f64 {
        match self.unit {
            Unit::Bytes(n) | Unit::Elements(n) => self.nanos / n.max(1) as f64,
        }
    }

    fn show(&self) -> String {
        match self.unit {
            // bytes per ns is GB/s; times 1000 gives MB/s (decimal).
            Unit::Bytes(_) => format!("{:.1} MB/s", 1_000.0 / self.cost()),
            Unit::Elements(_) => show_nanos(self.cost()),
        }
    }
}

fn show_nanos(ns: f64) -> String {
    if ns < 1_000.0 {
        format!("{ns:.1} ns")
    } else if ns < 1_000_000.0 {
        format!("{:.2} µs", ns / 1_000.0)
    } else {
        format!("{:.2} ms", ns / 1_000_000.0)
    }
}

/// How many times faster norobots is than `peer` (below 1: slower).
fn speedup(norobots: &Measured, peer: &Measured) -> f64 {
    peer.cost() / norobots.cost()
}

/// How much faster norobots is than `peer` (above 1) or slower (below 1).
fn ratio_text(norobots: &Measured, peer: &Measured) -> String {
    let speedup = speedup(norobots, peer);
    if speedup >= 1.0 {
        format!("{speedup:.2}× (norobots faster)")
    } else {
        format!("{speedup:.2}× (norobots {:.2}× slower)", 1.0 / speedup)
    }
}

/// The speed-up on the best peer that the project sets as its goal for a
/// group (issue 2), if it sets one: norobots is that many times faster.
fn goal(group: &str) -> Option<f64> {
    match group {
        "parse_compile" | "cold_check" => Some(3.0),
        "warm_check" => Some(10.0),
        _ => None,
    }
}

/// The most a check of the 10,000-rule file may cost, as a multiple of a
/// check of the 10-rule file (issue 2): a compiled matcher's cost must not
/// grow with the number of rules.
const SCALING_GOAL: f64 = 2.0;

/// The goal column: the speed-up asked for, and whether `speedup` meets it.
fn goal_text(speedup: f64, goal: Option<f64>) -> String {
    match goal {
        Some(goal) if speedup >= goal => format!("{goal}× (met)"),
        Some(goal) => format!("{goal}× (not met)"),
        None => String::new(),
    }
}

/// How many times a norobots check of the 10,000-rule file costs one of
/// the 10-rule file, with its goal, when both were measured.
fn scaling_text(small: &Measured, large: &Measured) -> (String, String) {
    let factor = large.cost() / small.cost();
    let verdict = if factor <= SCALING_GOAL {
        "met"
    } else {
        "not met"
    };
    (
        format!("{factor:.2}×"),
        format!("at most {SCALING_GOAL}× ({verdict})"),
    )
}

/// The rule count of a scaling group (`scaling_10_rules`), `None` for
/// other groups.
fn scaling_rules(group: &str) -> Option<usize> {
    group
        .strip_prefix("scaling_")?
        .strip_suffix("_rules")?
        .parse()
        .ok()
}

/// Human name and reading hint for a group id; groups this table does not
/// know still print, under their id.
fn describe(group: &str) -> String {
    match group {
        "parse_compile" => "parse+compile, whole corpus (throughput)".to_owned(),
        "warm_check" => "warm check, per URL".to_owned(),
        "cold_check" => "cold: parse+compile+1 check, per file".to_owned(),
        other => match scaling_rules(other) {
            Some(rules) => format!("check vs synthetic {rules}-rule file, per URL"),
            None => other.to_owned(),
        },
    }
}

/// Sort key of a group in the tables: `rank` first (see [`rank`]), then the
/// group id and criterion's parameter, which also tell groups apart.
type GroupKey = (Rank, String, Option<String>);

/// Suite position, rule count for the scaling groups, id for unknown groups.
type Rank = (usize, usize, String);

/// Order of the groups in the table: the suite's order, then anything else.
fn rank(group: &str) -> Rank {
    let fixed = ["parse_compile", "warm_check", "cold_check"];
    if let Some(i) = fixed.iter().position(|g| *g == group) {
        return (i, 0, String::new());
    }
    match scaling_rules(group) {
        Some(n) => (fixed.len(), n, String::new()),
        None => (fixed.len() + 1, 0, group.to_owned()),
    }
}

fn criterion_dir() -> PathBuf {
    if let Some(dir) = std::env::args_os().nth(1) {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(dir).join("criterion");
    }
    // The workspace's target folder; this crate is <repo>/crates/norobots-bench.
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/criterion")
}

/// Every `new` folder below `dir` (criterion keeps the latest run there and
/// older ones in `base`, which we ignore).
fn new_dirs(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "new") {
            found.push(path);
        } else {
            new_dirs(&path, found);
        }
    }
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_slice(&fs::read(path).ok()?).ok()
}

/// `(group, value, result)` from one `new` folder, or `None` when it is not
/// a complete benchmark with a throughput.
fn read_result(dir: &Path) -> Option<(String, Option<String>, Measured)> {
    let bench = read_json(&dir.join("benchmark.json"))?;
    let estimates = read_json(&dir.join("estimates.json"))?;
    let group = bench.get("group_id")?.as_str()?.to_owned();
    let engine = bench.get("function_id")?.as_str()?.to_owned();
    let value = bench
        .get("value_str")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let throughput = bench.get("throughput")?;
    let unit = if let Some(n) = throughput
        .get("Bytes")
        .or_else(|| throughput.get("BytesDecimal"))
    {
        Unit::Bytes(n.as_u64()?)
    } else if let Some(n) = throughput.get("Elements") {
        Unit::Elements(n.as_u64()?)
    } else {
        return None;
    };
    let nanos = estimates.get("median")?.get("point_estimate")?.as_f64()?;
    Some((
        group,
        value,
        Measured {
            engine,
            nanos,
            unit,
        },
    ))
}

fn main() -> ExitCode {
    let dir = criterion_dir();
    // Canonical for the closing note, so it names the real folder.
    let dir = fs::canonicalize(&dir).unwrap_or(dir);
    let mut dirs = Vec::new();
    new_dirs(&dir, &mut dirs);

    // Results of every engine, per group, in table order.
    let mut groups: BTreeMap<GroupKey, Vec<Measured>> = BTreeMap::new();
    for d in &dirs {
        if let Some((group, value, result)) = read_result(d) {
            groups
                .entry((rank(&group), group, value))
                .or_default()
                .push(result);
        }
    }
    if groups.is_empty() {
        eprintln!(
            "no criterion results under {}; run `cargo bench -p norobots-bench --bench peers` first",
            dir.display()
        );
        return ExitCode::FAILURE;
    }

    println!("## norobots vs the best peer\n");
    println!("| measure | norobots | best peer | peer's figure | ratio | goal |");
    println!("| --- | ---: | --- | ---: | ---: | ---: |");
    for ((_, group, value), results) in &groups {
        let measure = match value {
            Some(v) => format!("{} ({v})", describe(group)),
            None => describe(group),
        };
        let ours = results.iter().find(|r| r.engine == NOROBOTS);
        let best_peer = results
            .iter()
            .filter(|r| !is_ours(&r.engine) && r.engine != READ_URLS)
            .min_by(|a, b| a.cost().total_cmp(&b.cost()));
        match (ours, best_peer) {
            (Some(ours), Some(peer)) => println!(
                "| {measure} | {} | {} | {} | {} | {} |",
                ours.show(),
                peer.engine,
                peer.show(),
                ratio_text(ours, peer),
                goal_text(speedup(ours, peer), goal(group))
            ),
            (Some(ours), None) => {
                println!("| {measure} | {} | (no peer result) | | | |", ours.show())
            }
            (None, Some(peer)) => println!(
                "| {measure} | (no result) | {} | {} | | |",
                peer.engine,
                peer.show()
            ),
            (None, None) => {}
        }
        // The one-shot check is ours for one question per file: shown on
        // its own row where that is the question (cold).
        let one_shot = results.iter().find(|r| r.engine == NOROBOTS_ONESHOT);
        if let (true, Some(one_shot), Some(peer)) = (group == "cold_check", one_shot, best_peer) {
            println!(
                "| cold: one check by `norobots::is_allowed`, per file | {} | {} | {} | {} | {} |",
                one_shot.show(),
                peer.engine,
                peer.show(),
                ratio_text(one_shot, peer),
                goal_text(speedup(one_shot, peer), goal(group))
            );
        }
        // Our parse alone, beside the peer whose parse is all it builds.
        let parse = results.iter().find(|r| r.engine == NOROBOTS_PARSE);
        if let (true, Some(parse), Some(peer)) = (group == "parse_compile", parse, best_peer) {
            println!(
                "| parse only, no matcher (`Robots::parse`) | {} | {} | {} | {} | |",
                parse.show(),
                peer.engine,
                peer.show(),
                ratio_text(parse, peer)
            );
        }
        // What a warm check cannot go below, beside what the goal asks.
        let floor = results.iter().find(|r| r.engine == READ_URLS);
        if let (Some(floor), Some(peer)) = (floor, best_peer) {
            println!(
                "| warm: reading each URL's octets, no check (a floor) | {} | {} | {} | {:.2}× | |",
                floor.show(),
                peer.engine,
                peer.show(),
                peer.cost() / floor.cost()
            );
        }
    }
    // The scaling goal compares norobots with itself, not with a peer.
    let ours_in = |rules: usize| {
        groups
            .iter()
            .find(|((_, group, _), _)| scaling_rules(group) == Some(rules))
            .and_then(|(_, results)| results.iter().find(|r| r.engine == NOROBOTS))
    };
    if let (Some(small), Some(large)) = (ours_in(10), ours_in(10_000)) {
        let (factor, goal) = scaling_text(small, large);
        println!(
            "| scaling: a check of the 10,000-rule file over one of the 10-rule file | {factor} | | | | {goal} |"
        );
    }

    println!("\n## Every engine\n");
    for ((_, group, value), results) in &groups {
        let mut results = results.clone();
        results.sort_by(|a, b| a.cost().total_cmp(&b.cost()));
        let ours = results.iter().find(|r| r.engine == NOROBOTS).cloned();
        match value {
            Some(v) => println!("### {} ({v})\n", describe(group)),
            None => println!("### {}\n", describe(group)),
        }
        println!("| engine | figure | norobots vs it |");
        println!("| --- | ---: | ---: |");
        for r in &results {
            let vs = match &ours {
                Some(ours) if r.engine != NOROBOTS => ratio_text(ours, r),
                _ => String::new(),
            };
            println!("| {} | {} | {vs} |", r.engine, r.show());
        }
        println!();
    }

    println!("Notes:");
    println!("* Figures are criterion's median per iteration, divided by the bytes, URLs or files one iteration handles.");
    println!("* A ratio above 1 means norobots is faster; in the tables of every engine, `norobots` is the matcher.");
    println!("* norobots-oneshot is `norobots::is_allowed`, which reads the body for each check and keeps nothing: it has no parse+compile figure, and like robotstxt it gets a subset of the files in `warm_check` and 50 URLs in the scaling groups.");
    println!(
        "* robotstxt re-parses the file on every check: in `warm_check` it runs on a spread-out subset of the files, and in the scaling groups on the first 50 URLs; its figures are still per URL."
    );
    println!("* {NOROBOTS_PARSE} is `Robots::parse` alone, without building a matcher: the part of parse+compile that compares with a peer that only parses.");
    println!("* {READ_URLS} reads every octet of the warm_check URLs and decides nothing: no engine checks a URL in less (a check reads at least through the host). Its ratio is the most any engine could gain on the best peer.");
    println!("* Results come from {}.", dir.display());
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::{goal, goal_text, scaling_text, Measured, Unit};

    fn per_url(nanos: f64) -> Measured {
        Measured {
            engine: "norobots".to_owned(),
            nanos,
            unit: Unit::Elements(1),
        }
    }

    #[test]
    fn the_goals_are_the_issues() {
        assert_eq!(goal("parse_compile"), Some(3.0));
        assert_eq!(goal("warm_check"), Some(10.0));
        assert_eq!(goal("cold_check"), Some(3.0));
        assert_eq!(goal("scaling_10_rules"), None);
    }

    #[test]
    fn a_goal_is_met_at_the_speed_up_it_asks_for_and_above() {
        assert_eq!(goal_text(3.0, Some(3.0)), "3× (met)");
        assert_eq!(goal_text(10.5, Some(10.0)), "10× (met)");
        assert_eq!(goal_text(2.99, Some(3.0)), "3× (not met)");
        assert_eq!(goal_text(0.33, None), "");
    }

    #[test]
    fn scaling_is_the_large_files_check_over_the_small_ones() {
        let (factor, goal) = scaling_text(&per_url(80.0), &per_url(150.0));
        assert_eq!(factor, "1.88×");
        assert_eq!(goal, "at most 2× (met)");
        let (factor, goal) = scaling_text(&per_url(50.0), &per_url(150.0));
        assert_eq!(factor, "3.00×");
        assert_eq!(goal, "at most 2× (not met)");
    }
}
