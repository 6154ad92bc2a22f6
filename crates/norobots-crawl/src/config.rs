//! Everything a crawl is told, typed: what the command line says, without
//! the command line.

use std::path::PathBuf;
use std::time::Duration;

use norobots::Dialect;

use crate::politeness::Politeness;
use crate::scope::ScopeOptions;

/// A crawl's settings. [`Config::new`] gives wget's defaults where wget
/// has the option.
///
/// ```
/// use norobots_crawl::Config;
///
/// let c = Config::new("out");
/// assert_eq!((c.jobs, c.per_host, c.tries), (4, 1, 20));
/// assert_eq!(c.agent, "norobots");
/// assert!(c.robots);
/// ```
#[derive(Clone, Debug)]
pub struct Config {
    /// `-P`: where pages are saved, and the store by default.
    pub prefix: PathBuf,
    /// What `-l`, `-np`, `-H`, `-D`, `-A`, `-R` and the regexes say.
    pub scope: ScopeOptions,
    /// `-w`, `--random-wait`, `--max-crawl-delay`.
    pub politeness: Politeness,
    /// Obey robots.txt (`-e robots=off` turns it off).
    pub robots: bool,
    /// `--robots-first-page`: check the start URLs too.
    pub robots_first_page: bool,
    /// The dialect robots.txt is read in, and its status-code policy.
    pub dialect: Dialect,
    /// `-U`: the `User-Agent` header.
    pub user_agent: String,
    /// The product token matched against `User-agent` lines and robots
    /// meta names.
    pub agent: String,
    /// `--ignore-meta`: do not obey META robots and `X-Robots-Tag`.
    pub ignore_meta: bool,
    /// `-j`: requests in flight over all hosts.
    pub jobs: usize,
    /// `--per-host`: requests in flight to one host.
    pub per_host: u32,
    /// `--threads`: engine threads, each with its own event loop and
    /// connections, sharing the store.
    pub threads: usize,
    /// `-t`: tries per URL for transient failures.
    pub tries: u32,
    /// `--waitretry`: the longest wait between two tries.
    pub waitretry: Duration,
    /// How often a deferred robots.txt is tried before its URLs are
    /// logged as deferred.
    pub robots_tries: u32,
    /// `-T`.
    pub timeout: Duration,
    /// `--max-page-bytes`.
    pub max_page_bytes: u64,
    /// `--max-pages`: stop after this many pages fetched.
    pub max_pages: Option<u64>,
    /// `-Q`: stop once this many body octets were fetched.
    pub quota: Option<u64>,
    /// `--spider`: save nothing.
    pub spider: bool,
    /// `-nH`.
    pub host_directories: bool,
    /// `-nd` turns this off (`-x` on, the default).
    pub directories: bool,
    /// `--warc-file`: the WARC file's name (without `.warc.gz`).
    pub warc: Option<PathBuf>,
    /// The command line, for the WARC's `warcinfo`.
    pub arguments: Vec<String>,
    /// `--log`: the crawl log, JSON Lines.
    pub log: Option<PathBuf>,
    /// `--sitemaps`: also enqueue what robots.txt's sitemaps list.
    pub sitemaps: bool,
    /// The most redirects followed from one URL (wget's `--max-redirect`).
    pub max_redirects: u32,
}

impl Config {
    /// wget's defaults, saving under `prefix`.
    pub fn new(prefix: impl Into<PathBuf>) -> Config {
        Config {
            prefix: prefix.into(),
            scope: ScopeOptions::default(),
            politeness: Politeness::default(),
            robots: true,
            robots_first_page: false,
            dialect: Dialect::default(),
            user_agent: concat!("norobots/", env!("CARGO_PKG_VERSION")).to_owned(),
            agent: "norobots".to_owned(),
            ignore_meta: false,
            jobs: 4,
            per_host: 1,
            threads: 1,
            tries: 20,
            waitretry: Duration::from_secs(10),
            robots_tries: 3,
            timeout: Duration::from_secs(900),
            max_page_bytes: 10 << 20,
            max_pages: None,
            quota: None,
            spider: false,
            host_directories: true,
            directories: true,
            warc: None,
            arguments: Vec::new(),
            log: None,
            sitemaps: false,
            max_redirects: 20,
        }
    }
}
