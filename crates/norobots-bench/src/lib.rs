//! Benchmark support for `norobots`: the corpus, the synthetic files, and one
//! adapter per robots.txt engine so that every benchmark drives `norobots`
//! and its crates.io peers through the same three steps.
//!
//! The benchmarks themselves are in `benches/peers.rs`; `src/bin/ratios.rs`
//! turns criterion's output into a comparison table. Run both with
//!
//! ```text
//! cargo bench -p norobots-bench --bench peers
//! cargo run -p norobots-bench --bin ratios --release
//! ```
//!
//! # Engines
//!
//! | name                  | crate                     | what is built per file           |
//! | --------------------- | ------------------------- | -------------------------------- |
//! | `norobots`            | this workspace            | `Robots`, then a `Matcher`       |
//! | `norobots-oneshot`    | this workspace            | nothing: `norobots::is_allowed`  |
//! | `fast-robots-plain`   | `fast-robots` 0.1.5       | `RobotsTxt` (checks scan it)     |
//! | `fast-robots-matcher` | `fast-robots` 0.1.5       | `RobotsTxt`, then `matcher()`    |
//! | `texting_robots`      | `texting_robots` 0.2.2    | `Robot` (one regex per rule)     |
//! | `robotparser`         | `robotparser` 0.11.0      | `RobotsTxt` for the file's origin|
//! | `robotstxt`           | `robotstxt` 0.3.0         | nothing: every check re-parses   |
//!
//! # Fairness notes
//!
//! * Every check gets the full URL, as a crawler has it. Engines that only
//!   take a path (fast-robots) get it cut out by [`path_of`] inside the timed
//!   code; engines that want a parsed `url::Url` (robotparser) parse it inside
//!   the timed code too. That is the work a caller of those crates must do.
//! * Engines that take `&str` get the body decoded (lossily, for the few
//!   files that are not UTF-8) before timing starts, so the decoding is not
//!   charged to them. `norobots` and `texting_robots` take the raw bytes.
//! * The agent is [`AGENT`] everywhere. Engines that match the agent at check
//!   time rather than at build time (fast-robots, robotparser, robotstxt) pay
//!   for that on every check, as their callers would.

use std::borrow::Cow;
use std::fs;
use std::path::{Path, PathBuf};

mod fallback;
pub mod synthetic;

/// The robot whose rules every benchmark checks.
pub const AGENT: &str = "Googlebot";

/// How many corpus files the benchmarks use unless `NOROBOTS_BENCH_FILES`
/// says otherwise.
pub const DEFAULT_FILE_COUNT: usize = 4_000;

/// Environment variable naming the corpus folder (the one holding `robots/`
/// and `urls/`).
pub const CORPUS_ENV: &str = "NOROBOTS_CORPUS";

/// Environment variable overriding [`DEFAULT_FILE_COUNT`], for quick runs.
pub const FILE_COUNT_ENV: &str = "NOROBOTS_BENCH_FILES";

/// One robots.txt file with the URLs to check against it.
#[derive(Clone, Debug)]
pub struct Doc {
    /// Base name of the file (the site's host for corpus files).
    pub name: String,
    /// The body, byte for byte as stored.
    pub body: Vec<u8>,
    /// The body as text, for engines that only take `&str`. Invalid UTF-8 is
    /// replaced, which only touches a handful of corpus files.
    pub text: String,
    /// Full URLs, all on the site's host.
    pub urls: Vec<String>,
    /// `scheme://host[:port]/` of the site, taken from the first URL, for
    /// robotparser, which wants the file's origin when parsing.
    pub origin: String,
}

impl Doc {
    /// Builds a doc; `text` and `origin` are derived here so that no engine
    /// pays for them inside a timed loop.
    pub fn new(name: String, body: Vec<u8>, urls: Vec<String>) -> Doc {
        let text = String::from_utf8_lossy(&body).into_owned();
        let origin = urls
            .first()
            .and_then(|url| origin_of(url))
            .unwrap_or_else(|| "https://example.invalid/".to_owned());
        Doc {
            name,
            body,
            text,
            urls,
            origin,
        }
    }

    /// The URL used when a benchmark checks only one URL per file: the first
    /// one, or the site root when the file has no URL list.
    pub fn first_url(&self) -> &str {
        self.urls
            .first()
            .map_or(self.origin.as_str(), String::as_str)
    }
}

/// `scheme://authority/` of an absolute URL, or `None` for a relative one.
fn origin_of(url: &str) -> Option<String> {
    let scheme_end = url.find("://")?;
    let authority_start = scheme_end + 3;
    let authority_end = url[authority_start..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |i| authority_start + i);
    Some(format!("{}/", &url[..authority_end]))
}

/// Where the benchmark files came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CorpusSource {
    /// The shared real-world corpus in this folder.
    Real(PathBuf),
    /// The small built-in set, because no corpus was found.
    BuiltIn,
}

/// The files one benchmark run uses.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// The files, in the order they were picked.
    pub docs: Vec<Doc>,
    /// Where they came from.
    pub source: CorpusSource,
    /// How many eligible files the corpus had before sampling.
    pub eligible: usize,
}

impl Corpus {
    /// Total body size in bytes: the unit of the parse throughput.
    pub fn total_bytes(&self) -> u64 {
        self.docs.iter().map(|d| d.body.len() as u64).sum()
    }

    /// Total number of URLs over all files.
    pub fn total_urls(&self) -> u64 {
        total_urls(self.docs.iter())
    }

    /// One line saying what was loaded, for the bench log.
    pub fn describe(&self) -> String {
        let from = match &self.source {
            CorpusSource::Real(dir) => format!("corpus {}", dir.display()),
            CorpusSource::BuiltIn => {
                "the BUILT-IN fallback set (no corpus found: numbers are not representative)"
                    .to_owned()
            }
        };
        format!(
            "{} files ({} eligible), {} bytes, {} URLs, from {from}",
            self.docs.len(),
            self.eligible,
            self.total_bytes(),
            self.total_urls()
        )
    }
}

/// Number of URLs over some docs.
pub fn total_urls<'a>(docs: impl Iterator<Item = &'a Doc>) -> u64 {
    docs.map(|d| d.urls.len() as u64).sum()
}

/// The corpus folder: `$NOROBOTS_CORPUS`, else `shared/corpus` beside the
/// repository (this crate is `<repo>/crates/norobots-bench`, and `shared/`
/// sits next to `<repo>`).
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os(CORPUS_ENV) {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    }
}

/// The number of files to use: `$NOROBOTS_BENCH_FILES` or
/// [`DEFAULT_FILE_COUNT`].
pub fn file_count() -> usize {
    std::env::var(FILE_COUNT_ENV)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(DEFAULT_FILE_COUNT)
}

/// Loads up to `count` files from [`corpus_dir`], or the built-in set when
/// the corpus is missing or empty.
pub fn load(count: usize) -> Corpus {
    let dir = corpus_dir();
    match load_real(&dir, count) {
        Some(corpus) if !corpus.docs.is_empty() => corpus,
        _ => built_in(),
    }
}

/// Picks `count` files deterministically: names sorted, `~N` variants
/// dropped (they are other versions of a site already in the set), then
/// every k-th name so the sample spreads over the whole alphabet rather than
/// taking the first hosts only.
fn load_real(dir: &Path, count: usize) -> Option<Corpus> {
    let robots_dir = dir.join("robots");
    let urls_dir = dir.join("urls");
    let mut names: Vec<String> = fs::read_dir(&robots_dir)
        .ok()?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".txt") && !name.contains('~'))
        .collect();
    names.sort();
    let eligible = names.len();
    let step = (eligible / count.max(1)).max(1);
    let docs = names
        .iter()
        .step_by(step)
        .take(count)
        .filter_map(|file| {
            let body = fs::read(robots_dir.join(file)).ok()?;
            let base = file.strip_suffix(".txt").unwrap_or(file);
            // A file without a URL list still counts for the parse benchmark;
            // it just contributes no checks.
            let urls = fs::read(urls_dir.join(format!("{base}.urls")))
                .map(|raw| parse_url_list(&raw))
                .unwrap_or_default();
            Some(Doc::new(base.to_owned(), body, urls))
        })
        .collect();
    Some(Corpus {
        docs,
        // Canonical, so the log shows where the files really are rather
        // than a chain of `..`.
        source: CorpusSource::Real(fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())),
        eligible,
    })
}

/// One URL per line; blank lines and CR line ends are tolerated.
fn parse_url_list(raw: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(raw)
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The small set in `fallback.rs`.
pub fn built_in() -> Corpus {
    let docs: Vec<Doc> = fallback::FILES
        .iter()
        .map(|(name, body, urls)| {
            Doc::new(
                (*name).to_owned(),
                body.as_bytes().to_vec(),
                urls.iter().map(|u| (*u).to_owned()).collect(),
            )
        })
        .collect();
    Corpus {
        eligible: docs.len(),
        docs,
        source: CorpusSource::BuiltIn,
    }
}

/// The path and query of a URL, as robots.txt rules see it: scheme and
/// authority cut off, fragment dropped, and `/` when nothing is left. Paths
/// are returned unchanged.
///
/// This is what a caller of a path-only engine (fast-robots) has to do with
/// each URL, so the benchmarks run it inside the timed check.
pub fn path_of(url: &str) -> Cow<'_, str> {
    // Only treat "x://" as a scheme when it comes before any path character,
    // so that "/a?u=http://b" stays a path.
    let after_authority = match url.find("://") {
        Some(i) if !url[..i].contains(['/', '?', '#']) => {
            let rest = &url[i + 3..];
            rest.find(['/', '?', '#']).map_or("", |j| &rest[j..])
        }
        _ => url,
    };
    let path = after_authority
        .split_once('#')
        .map_or(after_authority, |(before, _)| before);
    if path.starts_with('/') {
        Cow::Borrowed(path)
    } else {
        Cow::Owned(format!("/{path}"))
    }
}

/// One robots.txt implementation, seen through the three steps every
/// benchmark uses: parse a file, compile what is needed for one agent, then
/// check URLs.
///
/// The two build steps are separate because some engines borrow: fast-robots'
/// matcher borrows the parsed file, which borrows the body. With the steps
/// split, the warm benchmark can keep all parsed files in one `Vec` and the
/// compiled matchers in another, with no self-referential struct and no leak.
/// Engines with a single build step do it in [`Engine::compile`] and make
/// [`Engine::parse`] a no-op.
///
/// Methods are associated functions (engines are unit types) and the bench
/// is generic over `E: Engine`, so the hot loop has no dynamic dispatch that
/// would blur the few-nanosecond differences between fast checks.
pub trait Engine {
    /// Short name, used as criterion's function id.
    const NAME: &'static str;

    /// `true` when every check re-parses the whole file (robotstxt). The
    /// warm benchmark gives such engines a subset of the files.
    const REPARSES_ON_CHECK: bool = false;

    /// `false` for an engine that keeps nothing from a file between checks
    /// and has no parse pass of its own to time (the one-shot check): the
    /// parse+compile benchmark would time nothing for it.
    const IN_PARSE_COMPILE: bool = true;

    /// What [`Engine::parse`] produces; may borrow the doc.
    type Parsed<'a>;

    /// What [`Engine::compile`] produces; may borrow the parsed file.
    type Compiled<'p>;

    /// Parses one file.
    fn parse(doc: &Doc) -> Self::Parsed<'_>;

    /// Builds what the engine needs to answer checks for `agent`.
    fn compile<'p>(parsed: &'p Self::Parsed<'_>, agent: &'p str) -> Self::Compiled<'p>;

    /// Whether `url` (a full URL) may be fetched.
    fn check(compiled: &Self::Compiled<'_>, url: &str) -> bool;

    /// `false` when the engine rejected the file, in which case its checks
    /// answer "allowed" (what a crawler would do with an unusable file). Only
    /// used to report how many files an engine could not take.
    fn usable(_compiled: &Self::Compiled<'_>) -> bool {
        true
    }

    /// The parse+compile benchmark's unit of work: everything the engine
    /// builds for one file, then dropped. Returns something derived from the
    /// result so the optimiser cannot skip the work.
    fn parse_compile(doc: &Doc, agent: &str) -> usize {
        let parsed = Self::parse(doc);
        let compiled = Self::compile(&parsed, agent);
        std::hint::black_box(&compiled);
        usize::from(Self::usable(&compiled))
    }

    /// The cold benchmark's unit of work: parse, compile and one check.
    fn cold(doc: &Doc, agent: &str, url: &str) -> bool {
        let parsed = Self::parse(doc);
        let compiled = Self::compile(&parsed, agent);
        Self::check(&compiled, url)
    }
}

/// Something to run once per engine, with the engine as a type parameter
/// (closures cannot be generic, hence a trait).
pub trait EngineVisitor {
    /// Called once for each engine in [`for_each_engine`].
    fn visit<E: Engine>(&mut self);
}

/// Runs `visitor` for every engine, `norobots` first. This is the one list
/// of engines; benches and tests go through it.
pub fn for_each_engine(visitor: &mut impl EngineVisitor) {
    visitor.visit::<NoRobots>();
    visitor.visit::<NoRobotsOneShot>();
    visitor.visit::<FastRobotsPlain>();
    visitor.visit::<FastRobotsMatcher>();
    visitor.visit::<TextingRobots>();
    visitor.visit::<RobotParser>();
    visitor.visit::<RobotsTxtGoogle>();
}

/// Name of our own engine, as it appears in criterion's output.
pub const NOROBOTS: &str = NoRobots::NAME;

/// Name of our one-shot check, as it appears in criterion's output.
pub const NOROBOTS_ONESHOT: &str = NoRobotsOneShot::NAME;

/// Function id, in the `parse_compile` group, of `Robots::parse` alone:
/// our parse without building a matcher. fast-robots' plain engine, the
/// best peer there, builds nothing after its parse, so this is the figure
/// to set beside it when asking how much of the gap is parsing and how
/// much is compiling.
///
/// ```
/// assert!(norobots_bench::is_ours(norobots_bench::NOROBOTS_PARSE));
/// ```
pub const NOROBOTS_PARSE: &str = "norobots-parse-only";

/// Whether `engine` (a name in criterion's output) is one of ours.
///
/// ```
/// assert!(norobots_bench::is_ours("norobots"));
/// assert!(!norobots_bench::is_ours("fast-robots-plain"));
/// ```
pub fn is_ours(engine: &str) -> bool {
    engine == NOROBOTS || engine == NOROBOTS_ONESHOT || engine == NOROBOTS_PARSE
}

/// Function id of the `warm_check` baseline that reads every octet of every
/// URL and decides nothing: no engine can check a URL in less, since a
/// check must at least read through the host to find the path.
pub const READ_URLS: &str = "read-urls-only";

/// Reads every octet of `url` (what [`READ_URLS`] times per URL).
///
/// ```
/// assert_eq!(norobots_bench::read_url("ab"), b'a' ^ b'b');
/// ```
pub fn read_url(url: &str) -> u8 {
    url.bytes().fold(0, |acc, b| acc ^ b)
}

/// `norobots`: `Robots::parse` then `matcher(agent)`; checks take full URLs.
pub struct NoRobots;

impl Engine for NoRobots {
    const NAME: &'static str = "norobots";
    type Parsed<'a> = norobots::Robots;
    type Compiled<'p> = norobots::Matcher;

    fn parse(doc: &Doc) -> norobots::Robots {
        norobots::Robots::parse(&doc.body)
    }

    fn compile<'p>(parsed: &'p norobots::Robots, agent: &'p str) -> norobots::Matcher {
        parsed.matcher(agent)
    }

    fn check(compiled: &norobots::Matcher, url: &str) -> bool {
        compiled.is_allowed(url)
    }
}

/// `norobots::is_allowed(body, agent, url)`: each check reads the body once
/// and keeps nothing, the API for one question per file (as
/// `fast-robots-plain` is fast-robots' for one-off checks).
pub struct NoRobotsOneShot;

impl Engine for NoRobotsOneShot {
    const NAME: &'static str = "norobots-oneshot";
    const REPARSES_ON_CHECK: bool = true;
    const IN_PARSE_COMPILE: bool = false;
    type Parsed<'a> = &'a [u8];
    type Compiled<'p> = (&'p [u8], &'p str);

    fn parse(doc: &Doc) -> &[u8] {
        &doc.body
    }

    fn compile<'p>(parsed: &'p &[u8], agent: &'p str) -> (&'p [u8], &'p str) {
        (parsed, agent)
    }

    fn check((body, agent): &Self::Compiled<'_>, url: &str) -> bool {
        norobots::is_allowed(body, agent, url)
    }
}

/// fast-robots without its index: `RobotsTxt::parse`, and each check scans
/// the groups (`RobotsTxt::is_allowed(agent, path)`). Its docs recommend this
/// for one-off checks.
pub struct FastRobotsPlain;

impl Engine for FastRobotsPlain {
    const NAME: &'static str = "fast-robots-plain";
    type Parsed<'a> = fast_robots::RobotsTxt<'a>;
    type Compiled<'p> = (&'p fast_robots::RobotsTxt<'p>, &'p str);

    fn parse(doc: &Doc) -> fast_robots::RobotsTxt<'_> {
        fast_robots::RobotsTxt::parse(&doc.text)
    }

    fn compile<'p>(
        parsed: &'p fast_robots::RobotsTxt<'_>,
        agent: &'p str,
    ) -> (&'p fast_robots::RobotsTxt<'p>, &'p str) {
        (parsed, agent)
    }

    fn check((robots, agent): &Self::Compiled<'_>, url: &str) -> bool {
        robots.is_allowed(agent, &path_of(url))
    }
}

/// fast-robots with its index: `RobotsTxt::parse` then `matcher()` (tries
/// and hash maps over all groups), checks via `RobotsMatcher::is_allowed`.
/// Its docs recommend this for many checks against one file.
pub struct FastRobotsMatcher;

impl Engine for FastRobotsMatcher {
    const NAME: &'static str = "fast-robots-matcher";
    type Parsed<'a> = fast_robots::RobotsTxt<'a>;
    type Compiled<'p> = (fast_robots::RobotsMatcher<'p>, &'p str);

    fn parse(doc: &Doc) -> fast_robots::RobotsTxt<'_> {
        fast_robots::RobotsTxt::parse(&doc.text)
    }

    fn compile<'p>(
        parsed: &'p fast_robots::RobotsTxt<'_>,
        agent: &'p str,
    ) -> (fast_robots::RobotsMatcher<'p>, &'p str) {
        (parsed.matcher(), agent)
    }

    fn check((matcher, agent): &Self::Compiled<'_>, url: &str) -> bool {
        matcher.is_allowed(agent, &path_of(url))
    }
}

/// texting_robots: `Robot::new(agent, body)` does everything (parse, pick
/// the agent's rules, one regex per rule); `Robot::allowed` takes full URLs.
/// `parse` is therefore a no-op.
pub struct TextingRobots;

impl Engine for TextingRobots {
    const NAME: &'static str = "texting_robots";
    type Parsed<'a> = &'a [u8];
    type Compiled<'p> = Option<texting_robots::Robot>;

    fn parse(doc: &Doc) -> &[u8] {
        &doc.body
    }

    fn compile<'p>(parsed: &'p &[u8], agent: &'p str) -> Option<texting_robots::Robot> {
        // It returns an error for files it cannot parse; those are counted
        // by `usable` and treated as allow-all.
        texting_robots::Robot::new(agent, parsed).ok()
    }

    fn check(compiled: &Option<texting_robots::Robot>, url: &str) -> bool {
        compiled.as_ref().is_none_or(|robot| robot.allowed(url))
    }

    fn usable(compiled: &Option<texting_robots::Robot>) -> bool {
        compiled.is_some()
    }
}

/// robotparser: `parse_robots_txt(origin, text)` builds a `RobotsTxt` for
/// the site's origin; checks need a parsed `url::Url` (parsed inside the
/// timed check) and go through `RobotsTxtService::can_fetch`.
pub struct RobotParser;

impl Engine for RobotParser {
    const NAME: &'static str = "robotparser";
    type Parsed<'a> = robotparser::model::RobotsTxt;
    type Compiled<'p> = (&'p robotparser::model::RobotsTxt, &'p str);

    fn parse(doc: &Doc) -> robotparser::model::RobotsTxt {
        // The origin is part of its parse input; getting a `url::Origin` is
        // one short URL parse, which we charge to it as its callers would pay.
        let origin =
            url::Url::parse(&doc.origin).map_or_else(|_| url::Origin::new_opaque(), |u| u.origin());
        robotparser::parser::parse_robots_txt(origin, &doc.text).get_result()
    }

    fn compile<'p>(
        parsed: &'p robotparser::model::RobotsTxt,
        agent: &'p str,
    ) -> (&'p robotparser::model::RobotsTxt, &'p str) {
        (parsed, agent)
    }

    fn check((robots, agent): &Self::Compiled<'_>, url: &str) -> bool {
        use robotparser::service::RobotsTxtService;
        // A URL the `url` crate rejects cannot be asked about; allow it, as
        // the other engines' "no rule matched" would.
        url::Url::parse(url).map_or(true, |url| robots.can_fetch(agent, &url))
    }
}

/// robotstxt (a port of Google's C++ library): it has no parsed form at all;
/// `DefaultMatcher::one_agent_allowed_by_robots(body, agent, url)` parses the
/// whole body on every check. So `parse` and `compile` keep references, the
/// warm benchmark gives it a subset of files, and its parse+compile figure
/// is one parse pass with a handler that only counts directives (the
/// tokenising work each of its checks repeats).
pub struct RobotsTxtGoogle;

impl Engine for RobotsTxtGoogle {
    const NAME: &'static str = "robotstxt";
    const REPARSES_ON_CHECK: bool = true;
    type Parsed<'a> = &'a str;
    type Compiled<'p> = (&'p str, &'p str);

    fn parse(doc: &Doc) -> &str {
        &doc.text
    }

    fn compile<'p>(parsed: &'p &str, agent: &'p str) -> (&'p str, &'p str) {
        (parsed, agent)
    }

    fn check((body, agent): &Self::Compiled<'_>, url: &str) -> bool {
        // A fresh matcher per check: it is cheap to make (no allocation until
        // used) and its lifetime ties it to one URL anyway.
        robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(body, agent, url)
    }

    fn parse_compile(doc: &Doc, _agent: &str) -> usize {
        let mut counter = DirectiveCounter::default();
        robotstxt::parse_robotstxt(&doc.text, &mut counter);
        counter.0
    }
}

/// A robotstxt parse handler that only counts directives, so that its parse
/// pass can be timed on its own.
#[derive(Default)]
struct DirectiveCounter(usize);

impl robotstxt::RobotsParseHandler for DirectiveCounter {
    fn handle_robots_start(&mut self) {}
    fn handle_robots_end(&mut self) {}
    fn handle_user_agent(&mut self, _line: u32, _agent: &str) {
        self.0 += 1;
    }
    fn handle_allow(&mut self, _line: u32, _value: &str) {
        self.0 += 1;
    }
    fn handle_disallow(&mut self, _line: u32, _value: &str) {
        self.0 += 1;
    }
    fn handle_sitemap(&mut self, _line: u32, _value: &str) {
        self.0 += 1;
    }
    fn handle_unknown_action(&mut self, _line: u32, _action: &str, _value: &str) {
        self.0 += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_of_cuts_scheme_authority_and_fragment() {
        assert_eq!(path_of("https://h.example/a/b?c=d#e"), "/a/b?c=d");
        assert_eq!(path_of("https://h.example"), "/");
        assert_eq!(path_of("https://h.example?q=1"), "/?q=1");
        assert_eq!(path_of("http://h.example:8080/x"), "/x");
        assert_eq!(path_of("/a?u=http://b/c"), "/a?u=http://b/c");
        assert_eq!(path_of("/p#frag"), "/p");
    }

    #[test]
    fn origin_is_taken_from_the_first_url() {
        let doc = Doc::new(
            "x".into(),
            Vec::new(),
            vec!["https://a.example:8443/p?q".into()],
        );
        assert_eq!(doc.origin, "https://a.example:8443/");
        let none = Doc::new("x".into(), Vec::new(), Vec::new());
        assert_eq!(none.first_url(), "https://example.invalid/");
    }

    /// Every engine must agree on a file simple enough to have one answer,
    /// or the adapter is wired wrong (wrong agent, path vs URL, ...).
    #[test]
    fn every_engine_gets_the_obvious_cases_right() {
        struct Check(Vec<&'static str>);
        impl EngineVisitor for Check {
            fn visit<E: Engine>(&mut self) {
                let doc = Doc::new(
                    "t".into(),
                    // `*` allows what the agent's own group forbids, so a
                    // wrong agent shows. (`*` must not forbid what the
                    // agent's group is silent on: robotparser falls back
                    // to `*` then, unlike the others.)
                    b"User-agent: *\nAllow: /private\n\nUser-agent: googlebot\nDisallow: /private\n"
                        .to_vec(),
                    // robotparser answers "no" for URLs off the file's
                    // origin, which comes from the first URL.
                    vec!["https://t.example/".into()],
                );
                let parsed = E::parse(&doc);
                let compiled = E::compile(&parsed, AGENT);
                assert!(E::usable(&compiled), "{}", E::NAME);
                assert!(
                    !E::check(&compiled, "https://t.example/private/x"),
                    "{}",
                    E::NAME
                );
                assert!(
                    E::check(&compiled, "https://t.example/public"),
                    "{}",
                    E::NAME
                );
                assert!(
                    !E::cold(&doc, AGENT, "https://t.example/private"),
                    "{}",
                    E::NAME
                );
                self.0.push(E::NAME);
            }
        }
        let mut check = Check(Vec::new());
        for_each_engine(&mut check);
        assert_eq!(check.0.len(), 7);
        assert_eq!(check.0[0], NOROBOTS);
    }

    #[test]
    fn built_in_corpus_has_urls_for_every_file() {
        let corpus = built_in();
        assert!(corpus.docs.len() >= 5);
        assert!(corpus.docs.iter().all(|d| !d.urls.is_empty()));
    }
}
