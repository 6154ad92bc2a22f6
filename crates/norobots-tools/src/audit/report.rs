//! What an audit found, as data, as a text table and as JSON.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

use norobots::Dialect;
use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};
use serde_json::{json, Value};

use super::parse::{LineError, Timestamp};
use crate::{printable, Escaped};

/// The result of an audit: totals, the robots (worst offenders first), a
/// count of the clients that look human, and the first malformed lines.
///
/// ```
/// use norobots::Robots;
/// use norobots_tools::audit::{AuditOptions, Auditor};
///
/// let robots = Robots::parse(b"User-agent: *\nDisallow: /private/\n");
/// let log = "192.0.2.1 - - [10/Oct/2000:13:55:36 +0000] \"GET /private/a HTTP/1.0\" 200 10 \"-\" \"FooBot/1.0\"\n";
/// let report = Auditor::new(&robots, AuditOptions::default()).audit_reader(log.as_bytes()).unwrap();
/// assert_eq!(report.robots[0].violations, 1);
/// assert!(report.render_text().contains("FooBot"));
/// assert_eq!(report.to_json()["robots"][0]["violations"], 1);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct AuditReport {
    /// The dialect the robots.txt was read in.
    pub dialect: Dialect,
    /// Line, byte and time counts.
    pub totals: Totals,
    /// Every client the robot rule picked, most violations first, then most
    /// requests.
    pub robots: Vec<RobotReport>,
    /// The clients that did not look like robots, only counted.
    pub humans: HumanSummary,
    /// The first malformed lines ([`AuditOptions::max_malformed`](super::AuditOptions::max_malformed) of them);
    /// [`Totals::malformed`] counts them all.
    pub malformed: Vec<MalformedLine>,
    /// Where a gzip log ended before its stream did, if it did: the report
    /// covers the lines before that.
    pub cut_short: Option<CutShort>,
}

/// Where a gzip log was cut short: its stream ended early (a copy that did
/// not finish, a rotation that was still writing). The complete lines
/// before the cut are in the report; the line being read is not, as half a
/// request line could be judged on half its path.
///
/// ```
/// use norobots_tools::audit::CutShort;
///
/// let cut = CutShort { line: 7, text_offset: 1040 };
/// assert_eq!(
///     cut.to_string(),
///     "the gzip stream ends in line 7, after 1040 octets of log text; the report covers the lines before it"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CutShort {
    /// The line being read when the stream ended (1-based): one past the
    /// last complete line, whether or not part of it was read.
    pub line: u64,
    /// Octets of log text (after decompression) read before the end.
    pub text_offset: u64,
}

impl std::fmt::Display for CutShort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the gzip stream ends in line {}, after {} octets of log text; the report covers the lines before it",
            self.line, self.text_offset
        )
    }
}

/// Counts over the whole log.
///
/// ```
/// use std::time::Duration;
/// use norobots_tools::audit::Totals;
///
/// let t = Totals { bytes: 5_000_000, elapsed: Duration::from_secs(2), ..Totals::default() };
/// assert_eq!(t.mb_per_s(), 2.5);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// Lines read (a last line without a line break counts).
    pub lines: u64,
    /// Lines that parsed as CLF or Combined.
    pub parsed: u64,
    /// Lines that did not.
    pub malformed: u64,
    /// Clients the robot rule picked.
    pub robots: u64,
    /// Octets of log text, after decompression.
    pub bytes: u64,
    /// Octets read from the input (the compressed size of a gzip log).
    pub input_bytes: u64,
    /// Whether the input was gzip.
    pub gzip: bool,
    /// Wall time of the audit.
    pub elapsed: Duration,
}

impl Totals {
    /// Log text processed per second, in megabytes (10^6 octets); 0 when no
    /// time was measured.
    ///
    /// ```
    /// assert_eq!(norobots_tools::audit::Totals::default().mb_per_s(), 0.0);
    /// ```
    pub fn mb_per_s(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.bytes as f64 / 1e6 / secs
        } else {
            0.0
        }
    }
}

/// Why a client counts as a robot. A client (one product token from one
/// address) is a robot when any of these holds for any of its requests.
///
/// ```
/// use norobots_tools::audit::RobotReasons;
///
/// let r = RobotReasons { fetched_robots_txt: true, ..RobotReasons::default() };
/// assert!(r.any());
/// assert_eq!(r.to_string(), "robots.txt");
/// assert!(!RobotReasons::default().any());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RobotReasons {
    /// It fetched `/robots.txt` (GET or HEAD), which browsers never do on
    /// their own.
    pub fetched_robots_txt: bool,
    /// Its User-Agent looks like a robot's (see
    /// [`looks_like_bot`](super::looks_like_bot)).
    pub bot_like_user_agent: bool,
    /// It sent a request without a User-Agent (or with `-`): every browser
    /// sends one, scripts often do not.
    pub no_user_agent: bool,
}

impl RobotReasons {
    /// Whether any reason holds.
    ///
    /// ```
    /// let r = norobots_tools::audit::RobotReasons { no_user_agent: true, ..Default::default() };
    /// assert!(r.any());
    /// ```
    pub fn any(&self) -> bool {
        self.fetched_robots_txt || self.bot_like_user_agent || self.no_user_agent
    }

    /// The names of the reasons that hold, in the report's order; on the
    /// stack, as they are written for every robot.
    fn names(&self) -> impl Iterator<Item = &'static str> + Clone {
        [
            (self.fetched_robots_txt, "robots.txt"),
            (self.bot_like_user_agent, "bot-ua"),
            (self.no_user_agent, "no-ua"),
        ]
        .into_iter()
        .filter_map(|(holds, name)| holds.then_some(name))
    }
}

impl std::fmt::Display for RobotReasons {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, name) in self.names().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

/// One robot: a product token seen from one address.
///
/// ```
/// use norobots::Robots;
/// use norobots_tools::audit::{AuditOptions, Auditor};
///
/// let log = "192.0.2.1 - - [10/Oct/2000:13:55:36 +0000] \"GET /robots.txt HTTP/1.0\" 200 10 \"-\" \"FooBot/1.0\"\n\
///            192.0.2.1 - - [10/Oct/2000:13:55:40 +0000] \"GET /a HTTP/1.0\" 200 10 \"-\" \"FooBot/1.0\"\n";
/// let report = Auditor::new(&Robots::parse(b""), AuditOptions::default()).audit_reader(log.as_bytes()).unwrap();
/// let r = &report.robots[0];
/// assert_eq!((&*r.token, r.address.as_str(), r.requests), ("FooBot", "192.0.2.1", 2));
/// assert_eq!(r.robots_txt_fetches, 1);
/// assert_eq!(r.first_robots_txt.unwrap().to_string(), "2000-10-10T13:55:36Z");
/// assert_eq!((r.peak_per_minute, r.mean_per_minute), (2, 2.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct RobotReport {
    /// The product token of its User-Agent ([`norobots::product_token`]);
    /// empty when it sent none, or one that does not start with a letter.
    /// Shared by the robots that send the same User-Agent, as is that.
    pub token: Arc<str>,
    /// The client address.
    pub address: String,
    /// A User-Agent it sent: the first robot-looking one, else the first.
    pub user_agent: Option<Arc<str>>,
    /// Why it counts as a robot.
    pub reasons: RobotReasons,
    /// Requests of any kind.
    pub requests: u64,
    /// GET and HEAD requests, the ones checked against robots.txt.
    pub judged_requests: u64,
    /// Requests with other methods (POST, OPTIONS, unreadable requests…),
    /// counted but not checked.
    pub other_methods: u64,
    /// How many times it fetched `/robots.txt`.
    pub robots_txt_fetches: u64,
    /// When it first fetched `/robots.txt`.
    pub first_robots_txt: Option<Timestamp>,
    /// Its earliest request.
    pub first_seen: Timestamp,
    /// Its latest request.
    pub last_seen: Timestamp,
    /// The most requests in one calendar minute.
    pub peak_per_minute: u64,
    /// The start of that minute (the earliest, on a tie).
    pub peak_minute: Timestamp,
    /// Requests per minute over its active span (last seen minus first
    /// seen, at least one minute).
    pub mean_per_minute: f64,
    /// Requests the robots.txt disallowed for it.
    pub violations: u64,
    /// Of those, the ones logged before its first `/robots.txt` fetch (all
    /// of them if it never fetched it).
    pub violations_before_robots_txt: u64,
    /// The first few violations, in log order.
    pub examples: Vec<Violation>,
}

/// A request robots.txt disallowed.
///
/// ```
/// use norobots_tools::audit::{Timestamp, Violation};
///
/// use norobots::RuleKind;
/// use norobots_tools::audit::Rule;
///
/// let rule = Rule { line: 2, kind: RuleKind::Disallow, pattern: "/private/".into() };
/// let v = Violation { line: 7, time: Timestamp(0), method: "GET".into(), target: "/private/x".into(), rule };
/// assert_eq!(v.rule.to_string(), "line 2: Disallow: /private/");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The log line number (1-based).
    pub line: u64,
    /// When it was requested.
    pub time: Timestamp,
    /// `GET` or `HEAD`.
    pub method: &'static str,
    /// The request target as logged (path and query).
    pub target: String,
    /// The rule that disallowed it.
    pub rule: Rule,
}

/// The rule that decided a request, as `norobots check` names one: its
/// line, its kind and its pattern (one copy of the pattern for all the
/// examples of a rule). It shows as `line N: Disallow: pattern`.
///
/// ```
/// use norobots::RuleKind;
/// use norobots_tools::audit::Rule;
///
/// let rule = Rule { line: 9, kind: RuleKind::Disallow, pattern: "/*.pdf$".into() };
/// assert_eq!(rule.to_string(), "line 9: Disallow: /*.pdf$");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The rule's line in the robots.txt (from 1).
    pub line: usize,
    /// `Allow` or `Disallow`.
    pub kind: norobots::RuleKind,
    /// The pattern as written.
    pub pattern: Arc<str>,
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}: {}", self.line, self.kind, self.pattern)
    }
}

/// The clients that did not look like robots.
///
/// ```
/// let h = norobots_tools::audit::HumanSummary::default();
/// assert_eq!((h.clients, h.requests), (0, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HumanSummary {
    /// Distinct (product token, address) pairs.
    pub clients: u64,
    /// Their requests.
    pub requests: u64,
    /// Their requests robots.txt would have disallowed for them (browsers
    /// are not bound by it; a high number may hint at a disguised robot).
    pub disallowed: u64,
}

/// A line that could not be read.
///
/// ```
/// use norobots_tools::audit::{LineError, MalformedLine};
///
/// let m = MalformedLine { line: 3, error: LineError::NoDate };
/// assert_eq!(m.error.as_str(), "no [date]");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MalformedLine {
    /// The line number (1-based).
    pub line: u64,
    /// What was wrong.
    pub error: LineError,
}

impl AuditReport {
    /// A human-readable report: totals, a table of robots (worst first),
    /// the violations of each offender with examples, the human summary and
    /// the first malformed lines.
    ///
    /// ```
    /// use norobots::Robots;
    /// use norobots_tools::audit::{AuditOptions, Auditor};
    ///
    /// let report = Auditor::new(&Robots::parse(b""), AuditOptions::default()).finish();
    /// assert!(report.render_text().starts_with("lines: 0"));
    /// ```
    pub fn render_text(&self) -> String {
        let mut out = Vec::new();
        self.write_text(&mut out)
            .expect("writing to a Vec does not fail");
        String::from_utf8(out).expect("the report is text")
    }

    /// [`AuditReport::render_text`], written to `out` as it is made: the
    /// report is as long as the log has robots (a line each, and more for
    /// each offender), and held whole it would take more memory than the
    /// audit itself.
    ///
    /// ```
    /// use norobots::Robots;
    /// use norobots_tools::audit::{AuditOptions, Auditor};
    ///
    /// let report = Auditor::new(&Robots::parse(b""), AuditOptions::default()).finish();
    /// let mut out = Vec::new();
    /// report.write_text(&mut out)?;
    /// assert!(out.starts_with(b"lines: 0"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write_text(&self, out: impl io::Write) -> io::Result<()> {
        // User-Agents, paths and addresses come from whoever made the
        // requests: everything is escaped on its way out (the table's cells
        // also before they are measured, so that columns stay aligned).
        let mut out = Escaped(out);
        self.write_totals(&mut out)?;
        self.write_robot_table(&mut out)?;
        self.write_violations(&mut out)?;
        self.write_malformed(&mut out)
    }

    fn write_totals(&self, out: &mut impl Write) -> io::Result<()> {
        let t = &self.totals;
        writeln!(
            out,
            "lines: {}  parsed: {}  malformed: {}  robots: {}  human-looking clients: {} ({} requests)",
            t.lines, t.parsed, t.malformed, t.robots, self.humans.clients, self.humans.requests
        )?;
        let gz = if t.gzip {
            format!(" (gzip, {} read)", t.input_bytes)
        } else {
            String::new()
        };
        writeln!(
            out,
            "bytes: {}{gz}  elapsed: {:.3} s  {:.1} MB/s  dialect: {}",
            t.bytes,
            t.elapsed.as_secs_f64(),
            t.mb_per_s(),
            self.dialect
        )?;
        match &self.cut_short {
            Some(cut) => writeln!(out, "cut short: {cut}"),
            None => Ok(()),
        }
    }

    /// Two passes over the robots, one to measure the columns and one to
    /// write the rows, with one row's cells in memory at a time.
    fn write_robot_table(&self, out: &mut impl Write) -> io::Result<()> {
        if self.robots.is_empty() {
            return out.write_all(b"\nno robots found\n");
        }
        const HEADER: [&str; 10] = [
            "violations",
            "requests",
            "robots.txt",
            "peak/min",
            "mean/min",
            "first seen",
            "last seen",
            "why",
            "robot",
            "address",
        ];
        let mut columns = Columns::new(5);
        columns.measure(&HEADER);
        let mut cells: [String; 10] = Default::default();
        for r in &self.robots {
            robot_cells(r, &mut cells);
            columns.measure(&cells);
        }
        out.write_all(b"\n")?;
        let mut line = String::new();
        columns.write_row(out, &HEADER, &mut line)?;
        for r in &self.robots {
            robot_cells(r, &mut cells);
            columns.write_row(out, &cells, &mut line)?;
        }
        Ok(())
    }

    fn write_violations(&self, out: &mut impl Write) -> io::Result<()> {
        for r in self.robots.iter().filter(|r| r.violations > 0) {
            writeln!(
                out,
                "\n{} {}: {} disallowed of {} GET/HEAD requests, {} before its first robots.txt fetch ({})",
                display_token(&r.token),
                r.address,
                r.violations,
                r.judged_requests,
                r.violations_before_robots_txt,
                r.first_robots_txt
                    .map_or_else(|| "never fetched".to_string(), |t| format!("at {t}"))
            )?;
            if let Some(ua) = &r.user_agent {
                writeln!(out, "  user-agent: {ua}")?;
            }
            for v in &r.examples {
                writeln!(
                    out,
                    "  line {}  {}  {} {}  ({})",
                    v.line, v.time, v.method, v.target, v.rule
                )?;
            }
        }
        Ok(())
    }

    fn write_malformed(&self, out: &mut impl Write) -> io::Result<()> {
        if self.totals.malformed == 0 {
            return Ok(());
        }
        write!(out, "\nmalformed lines: {}", self.totals.malformed)?;
        let firsts: Vec<String> = self
            .malformed
            .iter()
            .map(|m| format!("{} ({})", m.line, m.error))
            .collect();
        writeln!(out, "; first: {}", firsts.join(", "))
    }

    /// The report as one JSON document: `dialect`, `totals`, `robots` (in
    /// report order), `humans`, `malformed` (`count` and `first`) and
    /// `cut_short` (`line` and `text_offset`, or null; see [`CutShort`]).
    /// Times are RFC 3339 strings in UTC.
    ///
    /// ```
    /// use norobots::Robots;
    /// use norobots_tools::audit::{AuditOptions, Auditor};
    ///
    /// let mut auditor = Auditor::new(&Robots::parse(b""), AuditOptions::default());
    /// auditor.feed_line(b"not a log line", 1);
    /// let json = auditor.finish().to_json();
    /// assert_eq!(json["totals"]["malformed"], 1);
    /// assert_eq!(json["malformed"]["first"][0]["line"], 1);
    /// assert_eq!(json["dialect"], "rfc9309");
    /// assert!(json["cut_short"].is_null());
    /// ```
    pub fn to_json(&self) -> Value {
        let robots = self.robots.iter().map(|r| {
            // Serializing into a value fails only on a map key that is not
            // a string; every key here is one.
            serde_json::to_value(RobotJson(r)).expect("a robot's keys are strings")
        });
        self.json_around(robots.collect())
    }

    /// Writes the document of [`AuditReport::to_json`], pretty-printed, to
    /// `out`, one robot at a time: a log from a million robot addresses
    /// needs its report in memory, not also a tree of JSON values for it
    /// (far more memory than the report; crates/norobots-bench/README.md
    /// has the figure).
    ///
    /// ```
    /// use norobots::Robots;
    /// use norobots_tools::audit::{AuditOptions, Auditor};
    ///
    /// let mut auditor = Auditor::new(&Robots::parse(b"User-agent: *\nDisallow: /\n"), AuditOptions::default());
    /// auditor.feed_line(br#"192.0.2.1 - - [01/Jan/2024:00:00:00 +0000] "GET /a HTTP/1.1" 200 1 "-" "FooBot/1.0""#, 1);
    /// let report = auditor.finish();
    /// let mut out = Vec::new();
    /// report.write_json(&mut out).unwrap();
    /// assert_eq!(out, serde_json::to_vec_pretty(&report.to_json()).unwrap());
    /// ```
    pub fn write_json(&self, out: impl io::Write) -> io::Result<()> {
        let mut serializer = serde_json::Serializer::pretty(out);
        Streamed {
            around: self.json_around(Value::Null),
            robots: &self.robots,
        }
        .serialize(&mut serializer)
        .map_err(io::Error::from)
    }

    /// The report's JSON document with `robots` as its robots.
    fn json_around(&self, robots: Value) -> Value {
        let t = &self.totals;
        json!({
            "dialect": self.dialect.name(),
            "totals": {
                "lines": t.lines,
                "parsed": t.parsed,
                "malformed": t.malformed,
                "robots": t.robots,
                "bytes": t.bytes,
                "input_bytes": t.input_bytes,
                "gzip": t.gzip,
                "elapsed_s": t.elapsed.as_secs_f64(),
                "mb_per_s": t.mb_per_s(),
            },
            "robots": robots,
            "humans": {
                "clients": self.humans.clients,
                "requests": self.humans.requests,
                "disallowed": self.humans.disallowed,
            },
            "malformed": {
                "count": t.malformed,
                "first": self.malformed.iter().map(|m| json!({
                    "line": m.line,
                    "error": m.error.as_str(),
                })).collect::<Vec<_>>(),
            },
            "cut_short": self.cut_short.map(|c| json!({
                "line": c.line,
                "text_offset": c.text_offset,
            })),
        })
    }
}

/// The report's document with its robots serialized one by one in place
/// of the `null` that holds their place in `around`.
struct Streamed<'a> {
    around: Value,
    robots: &'a [RobotReport],
}

impl Serialize for Streamed<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Robots<'a>(&'a [RobotReport]);

        impl Serialize for Robots<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_seq(self.0.iter().map(RobotJson))
            }
        }

        let fields = self.around.as_object().expect("the report is an object");
        let mut map = serializer.serialize_map(Some(fields.len()))?;
        for (key, value) in fields {
            if key == "robots" {
                map.serialize_entry(key, &Robots(self.robots))?;
            } else {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

/// A robot as the JSON report has it, serialized field by field: a
/// `json!` tree for each robot (a map of 17 keys, and a string for each
/// time) was a large share of the time the report of a million robots
/// took to write (crates/norobots-bench/README.md has the figure). The
/// keys are in the order of their names, as serde_json's map keeps them,
/// so that `write_json` writes what `to_json` builds.
struct RobotJson<'a>(&'a RobotReport);

impl Serialize for RobotJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let mut m = serializer.serialize_struct("Robot", 17)?;
        m.serialize_field("address", &r.address)?;
        m.serialize_field("examples", &Examples(&r.examples))?;
        m.serialize_field("first_robots_txt", &r.first_robots_txt.map(Shown))?;
        m.serialize_field("first_seen", &Shown(r.first_seen))?;
        m.serialize_field("judged_requests", &r.judged_requests)?;
        m.serialize_field("last_seen", &Shown(r.last_seen))?;
        m.serialize_field("mean_per_minute", &r.mean_per_minute)?;
        m.serialize_field("other_methods", &r.other_methods)?;
        m.serialize_field("peak_minute", &Shown(r.peak_minute))?;
        m.serialize_field("peak_per_minute", &r.peak_per_minute)?;
        m.serialize_field("reasons", &Names(r.reasons.names()))?;
        m.serialize_field("requests", &r.requests)?;
        m.serialize_field("robots_txt_fetches", &r.robots_txt_fetches)?;
        m.serialize_field("token", &*r.token)?;
        m.serialize_field("user_agent", &r.user_agent.as_deref())?;
        m.serialize_field("violations", &r.violations)?;
        m.serialize_field(
            "violations_before_robots_txt",
            &r.violations_before_robots_txt,
        )?;
        m.end()
    }
}

/// A robot's examples, each with its keys in the order of their names.
struct Examples<'a>(&'a [Violation]);

impl Serialize for Examples<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Example<'a>(&'a Violation);

        impl Serialize for Example<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let v = self.0;
                let mut m = serializer.serialize_struct("Example", 5)?;
                m.serialize_field("line", &v.line)?;
                m.serialize_field("method", v.method)?;
                // The shape of `norobots check --json`'s rule.
                m.serialize_field(
                    "rule",
                    &json!({"line": v.rule.line, "kind": v.rule.kind.as_str(), "pattern": &*v.rule.pattern}),
                )?;
                m.serialize_field("target", &v.target)?;
                m.serialize_field("time", &Shown(v.time))?;
                m.end()
            }
        }

        serializer.collect_seq(self.0.iter().map(Example))
    }
}

/// Names as a JSON array, written as they come.
struct Names<I>(I);

impl<I: Iterator<Item = &'static str> + Clone> Serialize for Names<I> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.clone())
    }
}

/// A time as a JSON string, formatted straight into the output.
#[derive(Clone, Copy)]
struct Shown(Timestamp);

impl Serialize for Shown {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

fn display_token(token: &str) -> &str {
    if token.is_empty() {
        "-"
    } else {
        token
    }
}

/// A robot's row of the table, into `cells` (emptied first, so that one
/// set of buffers serves every row).
fn robot_cells(r: &RobotReport, cells: &mut [String; 10]) {
    for cell in cells.iter_mut() {
        cell.clear();
    }
    let [violations, requests, fetches, peak, mean, first, last, why, robot, address] = cells;
    let _ = write!(violations, "{}", r.violations);
    let _ = write!(requests, "{}", r.requests);
    let _ = write!(fetches, "{}", r.robots_txt_fetches);
    let _ = write!(peak, "{}", r.peak_per_minute);
    let _ = write!(mean, "{:.2}", r.mean_per_minute);
    let _ = write!(first, "{}", r.first_seen);
    let _ = write!(last, "{}", r.last_seen);
    let _ = write!(why, "{}", r.reasons);
    robot.push_str(&printable(display_token(&r.token)));
    address.push_str(&printable(&r.address));
}

/// Columns two spaces apart, as wide as their widest cell (in characters);
/// the first `numeric` are right-aligned, the rest left-aligned (the last
/// one not padded).
struct Columns {
    widths: Vec<usize>,
    numeric: usize,
}

impl Columns {
    fn new(numeric: usize) -> Columns {
        Columns {
            widths: Vec::new(),
            numeric,
        }
    }

    /// Widens the columns to fit a row.
    fn measure(&mut self, row: &[impl AsRef<str>]) {
        if self.widths.len() < row.len() {
            self.widths.resize(row.len(), 0);
        }
        for (width, cell) in self.widths.iter_mut().zip(row) {
            *width = (*width).max(cell.as_ref().chars().count());
        }
    }

    /// Writes a row that was measured, through `line` (a buffer reused
    /// from row to row).
    fn write_row(
        &self,
        out: &mut impl Write,
        row: &[impl AsRef<str>],
        line: &mut String,
    ) -> io::Result<()> {
        line.clear();
        for (c, cell) in row.iter().enumerate() {
            let cell = cell.as_ref();
            if c > 0 {
                line.push_str("  ");
            }
            let pad = self.widths[c] - cell.chars().count();
            if c < self.numeric {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                if c + 1 < row.len() {
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
        }
        writeln!(out, "{}", line.trim_end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_aligns_numbers_right_and_text_left() {
        let rows = [["n", "name", "x"], ["100", "a", "yy"], ["7", "é", ""]];
        let mut columns = Columns::new(1);
        rows.iter().for_each(|row| columns.measure(row));
        let (mut out, mut line) = (Vec::new(), String::new());
        for row in &rows {
            columns.write_row(&mut out, row, &mut line).unwrap();
        }
        assert_eq!(out, "  n  name  x\n100  a     yy\n  7  é\n".as_bytes());
    }

    #[test]
    fn a_write_error_is_returned_as_it_was() {
        struct Full;
        impl io::Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let report = crate::audit::Auditor::new(
            &norobots::Robots::parse(b""),
            crate::audit::AuditOptions::default(),
        )
        .finish();
        let err = report.write_text(Full).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::StorageFull);
    }

    #[test]
    fn reasons_print_joined() {
        let r = RobotReasons {
            fetched_robots_txt: true,
            bot_like_user_agent: true,
            no_user_agent: true,
        };
        assert_eq!(r.to_string(), "robots.txt+bot-ua+no-ua");
    }
}
