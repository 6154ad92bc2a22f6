//! `norobots parse`: show how a robots file is read, for people debugging
//! one (which group did my rule land in? was that line ignored, and why?).

use std::io::{self, BufWriter, Write};

use norobots::{Dialect, Field, Group, NotText, ParseOptions, Robots, VisitTime};
use norobots_tools::Escaped;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::json;

use crate::error::CliError;
use crate::input::RobotsSource;
use crate::json::Each;

/// Everything `norobots parse` needs.
#[derive(Clone, Debug)]
pub struct ParseCommand {
    /// The dialect to parse with.
    pub dialect: Dialect,
    /// Where the robots file comes from.
    pub robots: RobotsSource,
    /// Print one JSON document instead of text.
    pub json: bool,
}

/// Runs `norobots parse` against the real stdout.
pub fn run(command: &ParseCommand) -> Result<(), CliError> {
    let body = command.robots.read()?;
    let not_text = norobots::not_text(&body);
    let robots = Robots::parse_with(&body, &ParseOptions::new(command.dialect));
    drop(body);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = if command.json {
        write_json(&robots, not_text, &mut out)
    } else {
        write_text(&robots, not_text, &mut Escaped(&mut out))
    }
    .and_then(|()| out.flush());
    match result {
        // As in `check`: a reader that stopped reading is not an error.
        Err(err) if err.kind() != io::ErrorKind::BrokenPipe => Err(CliError::Write(err)),
        _ => Ok(()),
    }
}

/// The text dump: one item per line, rules in the same `line N: Kind:
/// pattern` shape that `check --explain` prints.
///
/// `not_text` says what the body is when it is not text
/// ([`norobots::not_text`]): then it is said first, and the noise a robot
/// reads in it is counted rather than listed.
pub fn write_text(
    robots: &Robots,
    not_text: Option<NotText>,
    out: &mut impl Write,
) -> io::Result<()> {
    writeln!(out, "dialect: {}", robots.dialect())?;
    if let Some(what) = not_text {
        writeln!(
            out,
            "body: {}, not robots.txt text; what a robot reads in it follows",
            what.describe()
        )?;
    }
    if robots.truncated() {
        writeln!(out, "truncated: the body was cut at the byte limit")?;
    }
    for group in robots.groups() {
        write_group_text(group, out)?;
    }
    for field in robots.sitemaps() {
        writeln!(out, "sitemap (line {}): {}", field.line(), field.value())?;
    }
    for field in robots.hosts() {
        writeln!(out, "host (line {}): {}", field.line(), field.value())?;
    }
    if not_text.is_some() {
        // Each "line" of a binary body is noise: counted, not listed (the
        // JSON document still lists them).
        let others = robots.other_fields().count();
        if others > 0 {
            writeln!(
                out,
                "other fields: {others} (not listed for a body that is not text)"
            )?;
        }
        return write_diagnostic_counts(robots, out);
    }
    for field in robots.other_fields() {
        writeln!(
            out,
            "other field (line {}): {}: {}",
            field.line(),
            field.name(),
            field.value()
        )?;
    }
    for diagnostic in robots.diagnostics() {
        writeln!(out, "diagnostic: {diagnostic}")?;
    }
    Ok(())
}

/// One line per kind of diagnostic, with its count and first line.
fn write_diagnostic_counts(robots: &Robots, out: &mut impl Write) -> io::Result<()> {
    let mut kinds: Vec<(norobots::DiagnosticKind, usize, usize)> = Vec::new();
    for d in robots.diagnostics() {
        match kinds.iter_mut().find(|(k, _, _)| *k == d.kind) {
            Some((_, n, _)) => *n += 1,
            None => kinds.push((d.kind, 1, d.line)),
        }
    }
    for (kind, n, first) in kinds {
        let lines = if n == 1 { "line" } else { "lines" };
        writeln!(
            out,
            "diagnostic: {kind}: on {n} {lines}, the first is line {first}"
        )?;
    }
    Ok(())
}

fn write_group_text(group: Group<'_>, out: &mut impl Write) -> io::Result<()> {
    let agents: Vec<_> = group.agents().collect();
    writeln!(out, "group (line {}): {}", group.line(), agents.join(", "))?;
    for rule in group.rules() {
        writeln!(
            out,
            "  line {}: {}: {}",
            rule.line(),
            rule.kind(),
            rule.pattern()
        )?;
    }
    if let Some(delay) = group.crawl_delay() {
        writeln!(out, "  crawl-delay: {}", delay.as_secs_f64())?;
    }
    if let Some(rate) = group.request_rate() {
        writeln!(out, "  request-rate: {}/{}s", rate.requests, rate.seconds)?;
    }
    if let Some(window) = group.visit_time() {
        let (start, end) = visit_window(window);
        writeln!(out, "  visit-time: {start}-{end} UTC")?;
    }
    Ok(())
}

/// The JSON dump: a single pretty-printed document, written as it is
/// walked. A file of two million rules (64 MiB, the most read) would take
/// gigabytes as a tree of `Value`s; written this way, one rule at a time.
pub fn write_json(
    robots: &Robots,
    not_text: Option<NotText>,
    out: &mut impl Write,
) -> io::Result<()> {
    let mut serializer = serde_json::Serializer::pretty(&mut *out);
    Document(robots, not_text)
        .serialize(&mut serializer)
        .map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// The whole file. Keys come in the order of a `json!` object's (sorted),
/// as they did when the document was one.
struct Document<'a>(&'a Robots, Option<NotText>);

impl Serialize for Document<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let robots = self.0;
        let field = |field: Field<'_>| json!({"line": field.line(), "value": field.value()});
        let mut map = serializer.serialize_map(Some(8))?;
        let body = self.1.map(|what| match what {
            NotText::Gzip => "gzip",
            NotText::Utf16 { big_endian: false } => "utf-16le",
            NotText::Utf16 { big_endian: true } => "utf-16be",
            NotText::Binary => "binary",
        });
        map.serialize_entry("body_not_text", &body)?;
        map.serialize_entry(
            "diagnostics",
            &Each(|| {
                robots.diagnostics().iter().map(|d| {
                    json!({"line": d.line, "code": d.kind.as_str(), "message": d.kind.to_string()})
                })
            }),
        )?;
        map.serialize_entry("dialect", robots.dialect().name())?;
        map.serialize_entry("groups", &Each(|| robots.groups().map(GroupJson)))?;
        map.serialize_entry("hosts", &Each(|| robots.hosts().map(field)))?;
        map.serialize_entry(
            "other_fields",
            &Each(|| {
                robots
                    .other_fields()
                    .map(|f| json!({"line": f.line(), "name": f.name(), "value": f.value()}))
            }),
        )?;
        map.serialize_entry("sitemaps", &Each(|| robots.sitemaps().map(field)))?;
        map.serialize_entry("truncated", &robots.truncated())?;
        map.end()
    }
}

/// One group, its rules written one at a time.
struct GroupJson<'a>(Group<'a>);

impl Serialize for GroupJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let group = self.0;
        let mut map = serializer.serialize_map(Some(6))?;
        map.serialize_entry("agents", &Each(|| group.agents()))?;
        // Seconds, a JSON number.
        map.serialize_entry("crawl_delay", &group.crawl_delay().map(|d| d.as_secs_f64()))?;
        map.serialize_entry("line", &group.line())?;
        map.serialize_entry(
            "request_rate",
            &group
                .request_rate()
                .map(|rate| json!({"requests": rate.requests, "seconds": rate.seconds})),
        )?;
        map.serialize_entry(
            "rules",
            &Each(|| {
                group.rules().map(|rule| {
                    json!({"line": rule.line(), "kind": rule.kind().as_str(), "pattern": rule.pattern()})
                })
            }),
        )?;
        map.serialize_entry(
            "visit_time",
            &group.visit_time().map(|window| {
                let (start, end) = visit_window(window);
                json!({"start": start, "end": end})
            }),
        )?;
        map.end()
    }
}

/// The window as `hhmm` strings, the way robots files write it.
pub(crate) fn visit_window(window: VisitTime) -> (String, String) {
    let hhmm = |minute: u16| format!("{:02}{:02}", minute / 60, minute % 60);
    (hhmm(window.start_minute), hhmm(window.end_minute))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    const BODY: &[u8] = b"User-agent: a\nUser-agent: b\nDisallow: /x\nAllow: /x/y\n\
        Crawl-delay: 2.5\nRequest-rate: 1/10m\nVisit-time: 0100-0330\n\
        Sitemap: https://example.com/s.xml\nDisalow: /typo\n";

    #[test]
    fn text_dump_lists_groups_rules_extensions_sitemaps_and_diagnostics() {
        let robots = Robots::parse_with(BODY, &ParseOptions::new(Dialect::Google));
        let mut out = Vec::new();
        write_text(&robots, None, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for needle in [
            "dialect: google\n",
            "group (line 1): a, b\n",
            "  line 3: Disallow: /x\n",
            "  line 4: Allow: /x/y\n",
            "  crawl-delay: 2.5\n",
            "  request-rate: 1/600s\n",
            "  visit-time: 0100-0330 UTC\n",
            "sitemap (line 8): https://example.com/s.xml\n",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
        }
    }

    // Written as it is walked, the document is still the one a tree of
    // values would print, keys in the same order, octet for octet.
    #[test]
    fn json_dump_prints_as_the_tree_of_its_values() {
        let robots = Robots::parse_with(BODY, &ParseOptions::new(Dialect::Google));
        let mut out = Vec::new();
        write_json(&robots, None, &mut out).unwrap();
        let tree = json!({
            "body_not_text": null,
            "dialect": "google",
            "truncated": false,
            "groups": [{
                "line": 1,
                "agents": ["a", "b"],
                "rules": [
                    {"line": 3, "kind": "Disallow", "pattern": "/x"},
                    {"line": 4, "kind": "Allow", "pattern": "/x/y"},
                    {"line": 9, "kind": "Disallow", "pattern": "/typo"},
                ],
                "crawl_delay": 2.5,
                "request_rate": {"requests": 1, "seconds": 600},
                "visit_time": {"start": "0100", "end": "0330"},
            }],
            "sitemaps": [{"line": 8, "value": "https://example.com/s.xml"}],
            "hosts": [],
            "other_fields": [],
            "diagnostics": robots
                .diagnostics()
                .iter()
                .map(|d| json!({"line": d.line, "code": d.kind.as_str(), "message": d.kind.to_string()}))
                .collect::<Vec<_>>(),
        });
        let mut expected = serde_json::to_vec_pretty(&tree).unwrap();
        expected.push(b'\n');
        assert_eq!(
            String::from_utf8(out).unwrap(),
            String::from_utf8(expected).unwrap()
        );
        assert!(!robots.diagnostics().is_empty());
    }

    #[test]
    fn json_dump_is_one_document_with_every_section() {
        let robots = Robots::parse_with(BODY, &ParseOptions::new(Dialect::Rfc9309));
        let mut out = Vec::new();
        write_json(&robots, None, &mut out).unwrap();
        let value: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["dialect"], "rfc9309");
        assert_eq!(value["truncated"], false);
        assert_eq!(value["groups"][0]["agents"], json!(["a", "b"]));
        assert_eq!(
            value["groups"][0]["rules"][0],
            json!({"line": 3, "kind": "Disallow", "pattern": "/x"})
        );
        assert_eq!(value["sitemaps"][0]["line"], 8);
        assert!(value["diagnostics"].is_array());
        assert!(value["hosts"].is_array());
        assert!(value["other_fields"].is_array());
    }
}
