//! The access-log auditor: which robots visit a site, how fast, and which
//! of their requests the site's robots.txt disallowed.
//!
//! The robots FAQ tells site owners to look for robots in their access
//! logs: clients that fetch `/robots.txt`, unusual `User-Agent` values,
//! request rates. [`Auditor`] does that over Apache or nginx logs in Common
//! or Combined Log Format, plain or gzip, streaming: memory grows with the
//! number of distinct clients, not with the length of the log.
//!
//! # Clients and the robot rule
//!
//! A *client* is a pair (the robot's name in the `User-Agent`, as
//! [`norobots::robot_token`] reads it: `Googlebot` in `Mozilla/5.0 (compatible;
//! Googlebot/2.1; …)`; client address). A client is a
//! **robot** when, in any of its requests,
//!
//! 1. it fetched `/robots.txt` (GET or HEAD; a query string is allowed), or
//! 2. its `User-Agent` looks like a robot's ([`looks_like_bot`]: contains
//!    `bot`, `crawl`, `spider`, `slurp`, `fetch` or `+http`, ignoring case),
//!    or
//! 3. it sent no `User-Agent` (absent, empty or `-`; a CLF log has none at
//!    all, so there every client is a robot by this rule).
//!
//! The other clients look human and are only counted
//! ([`AuditReport::humans`]). A client that turns into a robot late (it
//! fetches `/robots.txt` after browsing) is reported with all its requests,
//! which is why every client is tracked until the end.
//!
//! # Violations
//!
//! Every GET and HEAD request is decided with the core matcher for the
//! request's own `User-Agent` (`Robots::matcher(agent)`, in the dialect the
//! [`Robots`] was parsed in, given the robot's name from the header as the
//! robot itself would pass it), on the request target as logged (path and
//! query; an absolute-form target is read as a URL). A disallowed request
//! is a violation, whatever the server answered: the robot asked for it.
//! Requests for `/robots.txt` are never violations. Other methods (POST,
//! OPTIONS, unreadable request lines) are counted per robot
//! ([`RobotReport::other_methods`]) but not decided: robots.txt governs
//! what robots retrieve, and a POST is not a retrieval.
//!
//! # Example
//!
//! ```
//! use norobots::Robots;
//! use norobots_tools::audit::{AuditOptions, Auditor};
//!
//! let robots = Robots::parse(b"User-agent: *\nDisallow: /private/\n");
//! let log = "\
//! 192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /robots.txt HTTP/1.0\" 200 40 \"-\" \"FooBot/1.0\"
//! 192.0.2.1 - - [10/Oct/2000:13:55:37 -0700] \"GET /private/a HTTP/1.0\" 200 99 \"-\" \"FooBot/1.0\"
//! 198.51.100.9 - - [10/Oct/2000:13:56:00 -0700] \"GET /private/b HTTP/1.1\" 200 99 \"-\" \"Mozilla/5.0 Firefox/128.0\"
//! ";
//! let report = Auditor::new(&robots, AuditOptions::default()).audit_reader(log.as_bytes()).unwrap();
//! assert_eq!(report.totals.lines, 3);
//! assert_eq!(report.robots.len(), 1);
//! assert_eq!(report.robots[0].violations, 1);
//! assert_eq!(report.robots[0].examples[0].target, "/private/a");
//! assert_eq!(report.humans.clients, 1);
//! ```

mod client;
mod input;
mod parse;
mod report;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, RandomState};
use std::io::{self, Read};
use std::sync::Arc;
use std::time::Instant;

use hashbrown::HashTable;
use norobots::{Matcher, Robots, RuleRef};

pub use client::looks_like_bot;
use client::Client;
pub use parse::{parse_line, LineError, LogLine, Timestamp};
pub use report::{
    AuditReport, CutShort, HumanSummary, MalformedLine, RobotReasons, RobotReport, Rule, Totals,
    Violation,
};

/// Limits of an audit. The defaults suit any log.
///
/// ```
/// use norobots_tools::audit::AuditOptions;
///
/// let opts = AuditOptions { max_examples: 10, ..AuditOptions::default() };
/// assert_eq!(opts.max_malformed, 10);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditOptions {
    /// Example violations kept per robot (5).
    pub max_examples: usize,
    /// Malformed lines listed by number (10); all are counted.
    pub max_malformed: usize,
    /// Distinct `User-Agent` strings whose matcher is remembered (4096).
    /// When full, the memory of User-Agents is dropped and rebuilt as they
    /// come back; the matchers themselves are kept (see [`Auditor`]).
    pub user_agent_cache: usize,
    /// Longer lines are malformed (64 KiB). Real log lines are a few
    /// hundred octets; this bounds the memory a broken log can take.
    pub max_line_len: usize,
}

impl Default for AuditOptions {
    fn default() -> AuditOptions {
        AuditOptions {
            max_examples: 5,
            max_malformed: 10,
            user_agent_cache: 4096,
            max_line_len: 64 * 1024,
        }
    }
}

/// Reads access-log lines and collects, per client, what the report needs.
///
/// Feed it a whole log with [`Auditor::audit_reader`], or line by line with
/// [`Auditor::feed_line`] and then [`Auditor::finish`].
///
/// Matchers are cached: each distinct `User-Agent` string is mapped once to
/// the robots.txt groups that apply to it ([`Robots::groups_for`]), and one
/// matcher is built per distinct set of groups, since the set is all a
/// matcher depends on. So a log with thousands of browser versions builds a
/// handful of matchers, and the map of User-Agents is bounded by
/// [`AuditOptions::user_agent_cache`].
///
/// ```
/// use norobots::Robots;
/// use norobots_tools::audit::{AuditOptions, Auditor};
///
/// let robots = Robots::parse(b"User-agent: FooBot\nDisallow: /\n");
/// let mut auditor = Auditor::new(&robots, AuditOptions::default());
/// auditor.feed_line(br#"::1 - - [01/Jan/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "FooBot/2""#, 1);
/// auditor.feed_line(br#"::1 - - [01/Jan/2024:00:00:09 +0000] "GET / HTTP/1.1" 200 1 "-" "BarBot/2""#, 2);
/// let report = auditor.finish();
/// assert_eq!(report.robots.len(), 2);
/// assert_eq!((&*report.robots[0].token, report.robots[0].violations), ("FooBot", 1));
/// assert_eq!((&*report.robots[1].token, report.robots[1].violations), ("BarBot", 0));
/// ```
#[derive(Debug)]
pub struct Auditor {
    options: AuditOptions,
    matchers: Matchers,
    /// Client ids with the hash of the client's (token, address). The
    /// clients hold their keys, so the index does not hold a copy of each;
    /// the hash is kept so that growing the index reads no client.
    client_ids: HashTable<(u64, usize)>,
    /// Keyed, as `HashMap`'s own: the keys come from strangers.
    hasher: RandomState,
    clients: Vec<Client>,
    /// Reused for targets that must be rewritten before matching.
    url: Vec<u8>,
    /// The pattern of each rule quoted in an example, once: a big log has
    /// many examples of few rules.
    rule_texts: HashSet<Arc<str>>,
    totals: Totals,
    malformed: Vec<MalformedLine>,
    started: Instant,
}

impl Auditor {
    /// An auditor for the robots.txt `robots` (in force for the whole log),
    /// in the dialect it was parsed in.
    ///
    /// ```
    /// use norobots::{Dialect, ParseOptions, Robots};
    /// use norobots_tools::audit::{AuditOptions, Auditor};
    ///
    /// let robots = Robots::parse_with(b"User-agent: *\nDisallow: /tmp\n", &ParseOptions::new(Dialect::Draft1996));
    /// let report = Auditor::new(&robots, AuditOptions::default()).finish();
    /// assert_eq!(report.dialect, Dialect::Draft1996);
    /// ```
    pub fn new(robots: &Robots, options: AuditOptions) -> Auditor {
        Auditor {
            options,
            matchers: Matchers::new(robots),
            client_ids: HashTable::new(),
            hasher: RandomState::new(),
            clients: Vec::new(),
            url: Vec::new(),
            rule_texts: HashSet::new(),
            totals: Totals::default(),
            malformed: Vec::new(),
            started: Instant::now(),
        }
    }

    /// Reads one log line (without its line break); `line_no` is its
    /// 1-based number, used in the report. Malformed lines are counted, and
    /// the first few remembered; they never stop the audit.
    ///
    /// ```
    /// use norobots::Robots;
    /// use norobots_tools::audit::{AuditOptions, Auditor};
    ///
    /// let mut auditor = Auditor::new(&Robots::parse(b""), AuditOptions::default());
    /// auditor.feed_line(b"garbage", 1);
    /// auditor.feed_line(br#"h - - [01/Jan/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 1"#, 2);
    /// let totals = auditor.finish().totals;
    /// assert_eq!((totals.lines, totals.parsed, totals.malformed), (2, 1, 1));
    /// ```
    pub fn feed_line(&mut self, line: &[u8], line_no: u64) {
        self.totals.lines += 1;
        self.totals.bytes += line.len() as u64 + 1;
        if line.len() > self.options.max_line_len {
            self.note_malformed(line_no, LineError::TooLong);
            return;
        }
        match parse_line(line) {
            Ok(parsed) => {
                self.totals.parsed += 1;
                self.record(&parsed, line_no);
            }
            Err(e) => self.note_malformed(line_no, e),
        }
    }

    /// Audits a whole log, plain or gzip (told by the gzip magic number,
    /// not by a file name; concatenated gzip members are read as one log),
    /// and returns the report. Lines may end in LF or CRLF. Only I/O errors
    /// (including a corrupt gzip stream) are errors; one met while reading
    /// the log says on which line (`line 12: corrupt deflate stream`). A
    /// gzip stream that ends early is not one: the report covers the
    /// complete lines before the cut, and [`AuditReport::cut_short`] says
    /// where it fell.
    ///
    /// ```
    /// use std::io::Write;
    /// use flate2::{write::GzEncoder, Compression};
    /// use norobots::Robots;
    /// use norobots_tools::audit::{AuditOptions, Auditor};
    ///
    /// let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
    /// gz.write_all(b"h - - [01/Jan/2024:00:00:00 +0000] \"GET /robots.txt HTTP/1.1\" 200 1\n").unwrap();
    /// let log = gz.finish().unwrap();
    /// let report = Auditor::new(&Robots::parse(b""), AuditOptions::default()).audit_reader(&log[..]).unwrap();
    /// assert!(report.totals.gzip);
    /// assert_eq!(report.robots[0].robots_txt_fetches, 1);
    ///
    /// // The same log cut short: nothing complete was read, and the report says so.
    /// let cut = Auditor::new(&Robots::parse(b""), AuditOptions::default()).audit_reader(&log[..20]).unwrap();
    /// assert_eq!(cut.totals.lines, 0);
    /// assert_eq!(cut.cut_short.unwrap().line, 1);
    /// ```
    pub fn audit_reader(mut self, reader: impl Read) -> io::Result<AuditReport> {
        let counts = input::feed_reader(&mut self, reader)?;
        self.totals.bytes = counts.text_bytes;
        self.totals.input_bytes = counts.input_bytes;
        self.totals.gzip = counts.gzip;
        let mut report = self.finish();
        report.cut_short = counts.cut_short;
        Ok(report)
    }

    /// Ends the audit and builds the report: robots sorted by violations,
    /// then requests (both descending), then token and address.
    ///
    /// ```
    /// use norobots::Robots;
    /// use norobots_tools::audit::{AuditOptions, Auditor};
    ///
    /// let report = Auditor::new(&Robots::parse(b""), AuditOptions::default()).finish();
    /// assert!(report.robots.is_empty());
    /// assert_eq!(report.totals.lines, 0);
    /// ```
    pub fn finish(self) -> AuditReport {
        let mut totals = self.totals;
        if totals.input_bytes == 0 {
            totals.input_bytes = totals.bytes;
        }
        totals.elapsed = self.started.elapsed();
        // The index of clients is not needed past here; freed before the
        // reports are built, it does not add to the peak.
        drop(self.client_ids);
        let mut humans = HumanSummary::default();
        // Sized once: growing by doubling would hold the old and the new
        // buffer at once, on top of the clients.
        let mut robots = Vec::with_capacity(self.clients.iter().filter(|c| c.is_robot()).count());
        let mut clients = self.clients;
        while !clients.is_empty() {
            // A quarter at a time from the end, giving back the room it
            // took: the clients and their reports are not all held twice.
            // The order does not matter; the sort below fixes it.
            let rest = clients.len() - clients.len().div_ceil(4);
            for client in clients.drain(rest..) {
                if client.is_robot() {
                    robots.push(client.into_report());
                } else {
                    humans.clients += 1;
                    humans.requests += client.requests;
                    humans.disallowed += client.violations;
                }
            }
            clients.shrink_to_fit();
        }
        // Unstable, so without a scratch buffer of half the reports: no two
        // robots share a token and an address, so the order is total and
        // the same as a stable sort's.
        robots.sort_unstable_by(|a, b| {
            (b.violations, b.requests)
                .cmp(&(a.violations, a.requests))
                .then_with(|| (&a.token, &a.address).cmp(&(&b.token, &b.address)))
        });
        totals.robots = robots.len() as u64;
        AuditReport {
            dialect: self.matchers.robots.dialect(),
            totals,
            robots,
            humans,
            malformed: self.malformed,
            cut_short: None,
        }
    }

    /// A line the reader cut off because it did not fit its buffer.
    fn too_long(&mut self, line_no: u64) {
        self.totals.lines += 1;
        self.note_malformed(line_no, LineError::TooLong);
    }

    fn note_malformed(&mut self, line: u64, error: LineError) {
        self.totals.malformed += 1;
        if self.malformed.len() < self.options.max_malformed {
            self.malformed.push(MalformedLine { line, error });
        }
    }

    fn record(&mut self, l: &LogLine<'_>, line_no: u64) {
        let ua = l.user_agent.map(text);
        let info = self
            .matchers
            .info(ua.as_deref(), self.options.user_agent_cache);
        let id = self.client_id(&info.token, l.host, l.time);
        let client = &mut self.clients[id];
        client.saw(l.time, info.user_agent.as_ref(), info.bot_like);
        let method = match l.method {
            b"GET" => "GET",
            b"HEAD" => "HEAD",
            _ => {
                client.other_methods += 1;
                return;
            }
        };
        client.judged += 1;
        if is_robots_txt(l.target) {
            client.fetched_robots_txt(l.time);
            return;
        }
        // Decided on the octets the server logged (a raw `\xE9` is `%E9`
        // to rfc9309, which U+FFFD would not be); shown as text.
        let url = matchable(l.target, &mut self.url);
        let verdict = self.matchers.matchers[info.matcher].check_bytes(url);
        if verdict.allowed {
            return;
        }
        let patterns = &mut self.rule_texts;
        let example = || Violation {
            line: line_no,
            time: l.time,
            method,
            target: text(l.target).into_owned(),
            rule: shared_rule(patterns, verdict.rule),
        };
        client.violated(example, self.options.max_examples);
    }

    /// The client for (token, address), created on its first request.
    fn client_id(&mut self, token: &Arc<str>, host: &[u8], time: Timestamp) -> usize {
        let host = text(host);
        let hash = self.hasher.hash_one((&**token, &*host));
        let clients = &self.clients;
        if let Some(&(_, id)) = self.client_ids.find(hash, |&(h, id)| {
            h == hash && clients[id].key() == (&**token, &*host)
        }) {
            return id;
        }
        let id = self.clients.len();
        self.clients
            .push(Client::new(Arc::clone(token), &host, time));
        self.client_ids.insert_unique(hash, (hash, id), |&(h, _)| h);
        id
    }
}

/// Log bytes as text: borrowed when valid UTF-8 (nearly always: servers
/// escape other octets), else with U+FFFD for the invalid ones.
/// `str::from_utf8` is tried first because its ASCII fast path is several
/// times quicker than the lossy decoder's.
fn text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Whether a request target names `/robots.txt` (with or without a query),
/// in origin form or absolute form.
fn is_robots_txt(target: &[u8]) -> bool {
    let path = match memchr::memmem::find(target, b"://") {
        Some(i) if !target.starts_with(b"/") => {
            let after = &target[i + 3..];
            memchr::memchr(b'/', after).map_or(&b""[..], |p| &after[p..])
        }
        _ => target,
    };
    path.strip_prefix(b"/robots.txt")
        .is_some_and(|rest| matches!(rest.first(), None | Some(b'?' | b'#' | b';')))
}

/// The target as the matcher should read it. An origin-form target that
/// starts with `//` would be read as `//host/path` (a network-path
/// reference), so it gets a dummy origin in front.
fn matchable<'a>(target: &'a [u8], scratch: &'a mut Vec<u8>) -> &'a [u8] {
    if !target.starts_with(b"//") {
        return target;
    }
    scratch.clear();
    scratch.extend_from_slice(b"http://origin");
    scratch.extend_from_slice(target);
    scratch
}

/// The agent to build a matcher for, from a request's `User-Agent`: the
/// robot's name ([`norobots::robot_token`]), as the robot itself would pass it. A full
/// header would do for three dialects but not for `google`, which compares
/// the caller's agent whole, nor for browser-shaped headers, whose leading
/// token is `Mozilla` in every dialect.
fn matcher_agent(ua: &str) -> &str {
    match norobots::robot_token(ua) {
        "" => ua,
        name => name,
    }
}

/// `rule` with its pattern as the one copy in `patterns`, so that the
/// examples of one rule share it.
fn shared_rule(patterns: &mut HashSet<Arc<str>>, rule: Option<RuleRef<'_>>) -> Rule {
    // A disallowed request always has its rule; a lone default keeps the
    // type total.
    let (line, kind, pattern) = rule.map_or((0, norobots::RuleKind::Disallow, ""), |r| {
        (r.line, r.kind, r.pattern)
    });
    let pattern = match patterns.get(pattern) {
        Some(p) => Arc::clone(p),
        None => {
            let p: Arc<str> = pattern.into();
            patterns.insert(Arc::clone(&p));
            p
        }
    };
    Rule {
        line,
        kind,
        pattern,
    }
}

/// What the auditor remembers about one `User-Agent` string.
#[derive(Clone, Debug)]
struct UaInfo {
    /// Index into `Matchers::matchers`.
    matcher: usize,
    bot_like: bool,
    /// The string and its robot name (see `norobots::robot_token`), kept once and
    /// shared by every client that sends it.
    user_agent: Option<Arc<str>>,
    token: Arc<str>,
}

/// Matchers, one per distinct set of robots.txt groups, and which set each
/// recent `User-Agent` gets.
#[derive(Debug)]
struct Matchers {
    robots: Robots,
    /// Keyed by the string its `UaInfo` holds, not a copy of it.
    by_user_agent: HashMap<Arc<str>, UaInfo>,
    /// For requests without a User-Agent.
    no_user_agent: Option<UaInfo>,
    /// Matcher index by the lines of the groups that apply.
    by_groups: HashMap<Vec<usize>, usize>,
    matchers: Vec<Matcher>,
}

impl Matchers {
    fn new(robots: &Robots) -> Matchers {
        Matchers {
            robots: robots.clone(),
            by_user_agent: HashMap::new(),
            no_user_agent: None,
            by_groups: HashMap::new(),
            matchers: Vec::new(),
        }
    }

    fn info(&mut self, ua: Option<&str>, capacity: usize) -> UaInfo {
        let Some(ua) = ua else {
            if let Some(info) = &self.no_user_agent {
                return info.clone();
            }
            let info = self.compute(None, false);
            self.no_user_agent = Some(info.clone());
            return info;
        };
        if let Some(info) = self.by_user_agent.get(ua) {
            return info.clone();
        }
        let user_agent: Arc<str> = ua.into();
        let info = self.compute(Some(Arc::clone(&user_agent)), looks_like_bot(ua));
        if self.by_user_agent.len() >= capacity {
            // Crude but bounded: the map is cheap to refill, as matchers are
            // kept and only the group lookup is redone.
            self.by_user_agent.clear();
        }
        self.by_user_agent.insert(user_agent, info.clone());
        info
    }

    fn compute(&mut self, user_agent: Option<Arc<str>>, bot_like: bool) -> UaInfo {
        let ua = user_agent.as_deref().unwrap_or("");
        let agent = matcher_agent(ua);
        let groups: Vec<usize> = self
            .robots
            .groups_for(agent)
            .iter()
            .map(|g| g.line())
            .collect();
        let matcher = match self.by_groups.get(&groups) {
            Some(&i) => i,
            None => {
                self.matchers.push(self.robots.matcher(agent));
                self.by_groups.insert(groups, self.matchers.len() - 1);
                self.matchers.len() - 1
            }
        };
        UaInfo {
            matcher,
            bot_like,
            token: norobots::robot_token(ua).into(),
            user_agent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use norobots::{Dialect, ParseOptions};

    fn log_line(host: &str, target: &str, ua: &str) -> String {
        format!("{host} - - [01/Jan/2024:00:00:00 +0000] \"GET {target} HTTP/1.1\" 200 1 \"-\" \"{ua}\"")
    }

    #[test]
    fn robots_txt_is_recognised_in_origin_and_absolute_form() {
        assert!(is_robots_txt(b"/robots.txt"));
        assert!(is_robots_txt(b"/robots.txt?x=1"));
        assert!(is_robots_txt(b"http://example.com/robots.txt"));
        assert!(!is_robots_txt(b"/robots.txt.bak"));
        assert!(!is_robots_txt(b"/a/robots.txt"));
        assert!(!is_robots_txt(b"/x?u=http://e/robots.txt"));
        assert!(!is_robots_txt(b"http://example.com"));
    }

    #[test]
    fn double_slash_targets_are_paths_not_hosts() {
        let robots = Robots::parse(b"User-agent: *\nDisallow: //private\n");
        let mut a = Auditor::new(&robots, AuditOptions::default());
        a.feed_line(log_line("h", "//private/x", "FooBot").as_bytes(), 1);
        assert_eq!(a.finish().robots[0].violations, 1);
    }

    #[test]
    fn matchers_are_built_once_per_group_set() {
        let robots =
            Robots::parse(b"User-agent: FooBot\nDisallow: /f\n\nUser-agent: *\nDisallow: /s\n");
        let mut a = Auditor::new(&robots, AuditOptions::default());
        let uas = [
            "FooBot/1",
            "FooBot/2",
            "Mozilla/5.0 A",
            "Mozilla/5.0 B",
            "BarBot",
        ];
        for (i, ua) in uas.iter().enumerate() {
            a.feed_line(log_line("h", "/f", ua).as_bytes(), i as u64 + 1);
        }
        assert_eq!(a.matchers.matchers.len(), 2);
        assert_eq!(a.matchers.by_user_agent.len(), 5);
    }

    #[test]
    fn user_agent_cache_is_bounded() {
        let robots = Robots::parse(b"User-agent: *\nDisallow: /s\n");
        let opts = AuditOptions {
            user_agent_cache: 3,
            ..AuditOptions::default()
        };
        let mut a = Auditor::new(&robots, opts);
        for i in 0..10 {
            a.feed_line(
                log_line("h", "/s", &format!("Browser{i}")).as_bytes(),
                i + 1,
            );
        }
        assert!(a.matchers.by_user_agent.len() <= 3);
        assert_eq!(a.matchers.matchers.len(), 1);
    }

    #[test]
    fn every_dialect_is_given_the_robots_name() {
        let body = b"User-agent: FooBot\nDisallow: /\n";
        let robots = Robots::parse_with(body, &ParseOptions::new(Dialect::Google));
        let mut a = Auditor::new(&robots, AuditOptions::default());
        a.feed_line(log_line("h", "/x", "FooBot").as_bytes(), 1);
        a.feed_line(
            log_line("h", "/x", "FooBot/2.0 (+http://foo)").as_bytes(),
            2,
        );
        assert_eq!(a.finish().robots[0].violations, 2);
        assert_eq!(matcher_agent("42bot"), "42bot");
        assert_eq!(matcher_agent("FooBot/2"), "FooBot");
    }

    // The big crawlers send browser-shaped headers: their own group applies.
    #[test]
    fn a_browser_shaped_header_is_judged_by_the_robots_own_group() {
        let body = b"User-agent: Googlebot\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n";
        let ua = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
        for dialect in [
            Dialect::Norobots1994,
            Dialect::Draft1996,
            Dialect::Rfc9309,
            Dialect::Google,
        ] {
            let robots = Robots::parse_with(body, &ParseOptions::new(dialect));
            let mut a = Auditor::new(&robots, AuditOptions::default());
            a.feed_line(log_line("h", "/public", ua).as_bytes(), 1);
            a.feed_line(log_line("h", "/private/x", ua).as_bytes(), 2);
            let report = a.finish();
            assert_eq!(report.robots.len(), 1, "{dialect}");
            assert_eq!(&*report.robots[0].token, "Googlebot", "{dialect}");
            assert_eq!(report.robots[0].violations, 1, "{dialect}");
        }
    }

    // Memory grows with the distinct clients: what they have in common is
    // kept once, and one example takes room for one.
    #[test]
    fn clients_share_their_user_agent_and_examples_their_rule_text() {
        let robots = Robots::parse(b"User-agent: *\nDisallow: /private/\n");
        let ua = "Mozilla/5.0 (compatible; Googlebot/2.1)";
        let mut a = Auditor::new(&robots, AuditOptions::default());
        for (i, host) in ["10.0.0.1", "10.0.0.2", "10.0.0.3"].iter().enumerate() {
            a.feed_line(log_line(host, "/private/x", ua).as_bytes(), i as u64 + 1);
        }
        assert!(a.clients.iter().all(|c| c.examples.capacity() == 1));
        let report = a.finish();
        let [first, rest @ ..] = &report.robots[..] else {
            panic!("three robots");
        };
        assert_eq!(rest.len(), 2);
        for r in rest {
            assert!(Arc::ptr_eq(&r.token, &first.token));
            let (ua, first_ua) = (r.user_agent.as_ref(), first.user_agent.as_ref());
            assert!(Arc::ptr_eq(ua.unwrap(), first_ua.unwrap()));
            assert!(Arc::ptr_eq(
                &r.examples[0].rule.pattern,
                &first.examples[0].rule.pattern
            ));
        }
        assert_eq!(
            first.examples[0].rule.to_string(),
            "line 2: Disallow: /private/"
        );
        assert_eq!(first.examples[0].method, "GET");
    }
}
