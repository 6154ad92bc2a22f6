//! Output: rustc-style text and JSON.

use std::borrow::Cow;
use std::fmt::Write as _;

use serde_json::{json, Value};

use crate::printable::{needs_escape, printable};

use super::lines::LineTable;
use super::{Finding, Report, Severity};

/// Source lines are shown in a window of this many characters around the
/// column, so that a 10 MB line prints as one screen line.
const WINDOW: usize = 100;

impl Report {
    /// The findings as rustc prints diagnostics: `file:line:col:
    /// severity[code]: message`, the source line with a caret under the
    /// column, `= help: …` and, for divergences, `= example: …`; then a
    /// summary line. `body` must be the body that was linted.
    ///
    /// ```
    /// use norobots_tools::lint::{lint, LintOptions};
    ///
    /// let body = b"User-agent: *\nAlow: /tmp\n";
    /// let text = lint(body, &LintOptions::default()).render_text("robots.txt", body);
    /// assert_eq!(
    ///     text,
    ///     "robots.txt:2:1: error[misspelled-field]: misspelled field name `Alow` (rfc9309 ignores the line)\n  |\n2 | Alow: /tmp\n  | ^\n  = help: write `Allow`\n\nrobots.txt: 1 error, 0 warnings, 0 infos\n"
    /// );
    /// ```
    pub fn render_text(&self, file_name: &str, body: &[u8]) -> String {
        let body = &body[..body.len().min(u32::MAX as usize - 1)];
        let table = LineTable::new(body, self.dialect);
        let mut out = String::new();
        for f in &self.findings {
            render_one(&mut out, file_name, &table, body, f);
        }
        let _ = write!(
            out,
            "{file_name}: {} error{}, {} warning{}, {} info{}",
            self.count(Severity::Error),
            plural(self.count(Severity::Error)),
            self.count(Severity::Warning),
            plural(self.count(Severity::Warning)),
            self.count(Severity::Info),
            plural(self.count(Severity::Info)),
        );
        if self.omitted > 0 {
            let _ = write!(out, " ({} more not shown)", self.omitted);
        }
        out.push('\n');
        // Messages quote the file's fields and patterns; a robots.txt is
        // often someone else's.
        if let Cow::Owned(escaped) = printable(&out) {
            return escaped;
        }
        out
    }

    /// The findings as one JSON object: `file`, `dialect`, `summary`
    /// (`errors`, `warnings`, `infos`, `omitted`) and `findings`, each with
    /// `line`, `column`, `severity`, `code`, `message`, `help` (string or
    /// null) and `example` (`url`, `agent`, `allowed_in`, `disallowed_in`,
    /// or null).
    ///
    /// ```
    /// use norobots_tools::lint::{lint, LintOptions};
    ///
    /// let json = lint(b"User-agent: *\nDisallow: /*.pdf$\n", &LintOptions::default()).to_json("robots.txt");
    /// assert_eq!(json["summary"]["warnings"], 1);
    /// let f = &json["findings"][0];
    /// assert_eq!(f["code"], "dialect-divergence");
    /// assert_eq!(f["example"]["url"], "https://example.com/x.pdf");
    /// assert_eq!(f["example"]["disallowed_in"], "rfc9309");
    /// ```
    pub fn to_json(&self, file_name: &str) -> Value {
        let findings: Vec<Value> = self.findings.iter().map(finding_json).collect();
        json!({
            "file": file_name,
            "dialect": self.dialect.name(),
            "summary": {
                "errors": self.count(Severity::Error),
                "warnings": self.count(Severity::Warning),
                "infos": self.count(Severity::Info),
                "omitted": self.omitted,
            },
            "findings": findings,
        })
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn finding_json(f: &Finding) -> Value {
    json!({
        "line": f.line,
        "column": f.column,
        "severity": f.severity.as_str(),
        "code": f.code.as_str(),
        "message": f.message,
        "help": f.help,
        "example": f.example.as_ref().map(|e| json!({
            "url": e.url,
            "agent": e.agent,
            "allowed_in": e.allowed_in.name(),
            "disallowed_in": e.disallowed_in.name(),
        })),
    })
}

fn render_one(out: &mut String, file_name: &str, table: &LineTable, body: &[u8], f: &Finding) {
    let _ = writeln!(
        out,
        "{file_name}:{}:{}: {}[{}]: {}",
        f.line, f.column, f.severity, f.code, f.message
    );
    let number = f.line.to_string();
    let pad = " ".repeat(number.len());
    if (1..=table.len()).contains(&f.line) {
        let (start, end) = table.range(f.line);
        let (text, caret) = window(&body[start..end], f.column);
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(out, "{number} | {text}");
        let _ = writeln!(out, "{pad} | {}^", " ".repeat(caret));
    }
    if let Some(help) = &f.help {
        let _ = writeln!(out, "{pad} = help: {help}");
    }
    if let Some(e) = &f.example {
        let _ = writeln!(
            out,
            "{pad} = example: `{}` on {}: allowed in {}, disallowed in {}",
            e.agent, e.url, e.allowed_in, e.disallowed_in
        );
    }
    out.push('\n');
}

/// The part of `line` to print around `column` (from 1, in characters),
/// and how many characters precede the caret in it.
fn window(line: &[u8], column: usize) -> (String, usize) {
    let is_lead = |b: &u8| b & 0xC0 != 0x80;
    let chars = line.iter().filter(|b| is_lead(b)).count();
    let col = column.saturating_sub(1).min(chars);
    let first = col.saturating_sub(WINDOW / 2);
    let last = (first + WINDOW).min(chars);
    // The byte offset of character `c` (or the end of the line).
    let byte = |c: usize| {
        line.iter()
            .enumerate()
            .filter(|(_, b)| is_lead(b))
            .nth(c)
            .map_or(line.len(), |(i, _)| i)
    };
    let mut text = String::new();
    if first > 0 {
        text.push('…');
    }
    text.extend(
        String::from_utf8_lossy(&line[byte(first)..byte(last)])
            .chars()
            // A blank, not an escape, so that the caret stays under its
            // column; the message names what is there.
            .map(|c| if needs_escape(c) { ' ' } else { c }),
    );
    if last < chars {
        text.push('…');
    }
    (text, col - first + usize::from(first > 0))
}

#[cfg(test)]
mod tests {
    use super::window;

    #[test]
    fn long_lines_are_windowed_around_the_column() {
        let line = vec![b'a'; 10_000];
        let (text, caret) = window(&line, 5_000);
        assert_eq!(text.chars().count(), 102);
        assert_eq!(caret, 51);
        assert_eq!(window(b"ab\tc", 4), ("ab c".to_string(), 3));
        assert_eq!(window("é/x".as_bytes(), 2), ("é/x".to_string(), 1));
    }
}
