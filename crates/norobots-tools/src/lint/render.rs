//! Output: rustc-style text and JSON.
//!
//! The text renderer is our own rather than `annotate-snippets`: that crate
//! renders `&str` source, and robots.txt comes from strangers as bytes. A
//! line here may hold invalid UTF-8, NUL, terminal escapes or 50 MB; it is
//! shown escaped ([`printable`]) in a window of [`WINDOW`] characters, and
//! the caret must point into the escaped text at the column the finding
//! names in the raw one. Doing that would mean escaping and cutting each
//! line before handing it over, and mapping every column across both, which
//! is most of what this file does; what remains (a gutter, a caret, a
//! `help:` line) is a few lines of `write!`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::{json, Value};

use crate::printable::{needs_escape, printable};

use super::lines::LineTable;
use super::{Code, DivergenceKind, Finding, Report, Severity};

/// Source lines are shown in a window of this many characters around the
/// column, so that a 10 MB line prints as one screen line.
const WINDOW: usize = 100;

/// A folded kind's note lists this many lines (or runs of lines) of the
/// findings it stands for.
const NOTE_RUNS: usize = 6;

/// How [`Report::render_text_with`] prints.
///
/// By default each kind of dialect divergence ([`DivergenceKind`]) is
/// printed once: its first finding in full, with a note of how many more
/// findings of that kind there are and on which lines. A file written for
/// one dialect often diverges in the same way on hundreds of lines (every
/// rule with a `*`), and one finding says what the rest would. Every other
/// finding is always printed.
///
/// ```
/// use norobots_tools::lint::TextOptions;
///
/// assert!(!TextOptions::default().all_divergence);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextOptions {
    /// Print every dialect-divergence finding in full.
    pub all_divergence: bool,
}

impl Report {
    /// The findings as rustc prints diagnostics, with
    /// [`TextOptions::default`]: dialect divergences once per kind.
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
        self.render_text_with(file_name, body, &TextOptions::default())
    }

    /// The findings as rustc prints diagnostics: `file:line:col:
    /// severity[code]: message`, the source line with a caret under the
    /// column, `= help: …` and, for divergences, `= example: …` (and, for a
    /// kind shown once, `= note: N more …`); then a summary line, which
    /// counts every finding, printed or folded. `body` must be the body
    /// that was linted.
    ///
    /// ```
    /// use norobots_tools::lint::{lint, LintOptions, TextOptions};
    ///
    /// let body = b"User-agent: *\nDisallow: /*.pdf$\nDisallow: /*.doc$\nDisallow: /*.xls$\n";
    /// let report = lint(body, &LintOptions::default());
    /// let folded = report.render_text("robots.txt", body);
    /// assert_eq!(folded.matches("warning[dialect-divergence]").count(), 1);
    /// assert!(folded.contains("  = note: 2 more `wildcard` divergences, on lines 3-4\n"));
    /// assert!(folded.ends_with("robots.txt: 0 errors, 3 warnings, 0 infos\n"));
    ///
    /// let all = report.render_text_with("robots.txt", body, &TextOptions { all_divergence: true });
    /// assert_eq!(all.matches("warning[dialect-divergence]").count(), 3);
    /// ```
    pub fn render_text_with(&self, file_name: &str, body: &[u8], options: &TextOptions) -> String {
        let body = &body[..body.len().min(u32::MAX as usize - 1)];
        let table = LineTable::new(body, self.dialect);
        let mut folds = if options.all_divergence {
            HashMap::new()
        } else {
            self.folds()
        };
        let mut out = String::new();
        for f in &self.findings {
            match f.example.as_ref().map(|e| e.kind) {
                Some(kind) if f.code == Code::DialectDivergence => match folds.get_mut(&kind) {
                    Some(Fold::Shown) => {}
                    Some(fold) => {
                        render_one(&mut out, file_name, &table, body, f, fold.note(kind));
                        *fold = Fold::Shown;
                    }
                    None => render_one(&mut out, file_name, &table, body, f, None),
                },
                _ => render_one(&mut out, file_name, &table, body, f, None),
            }
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
    /// null) and `example` (`kind`, the [`DivergenceKind`] slug; `url`,
    /// `agent`, `allowed_in`, `disallowed_in`; or null). Every finding is
    /// listed: JSON is not folded by kind as text is.
    ///
    /// ```
    /// use norobots_tools::lint::{lint, LintOptions};
    ///
    /// let json = lint(b"User-agent: *\nDisallow: /*.pdf$\n", &LintOptions::default()).to_json("robots.txt");
    /// assert_eq!(json["summary"]["warnings"], 1);
    /// let f = &json["findings"][0];
    /// assert_eq!(f["code"], "dialect-divergence");
    /// assert_eq!(f["example"]["kind"], "wildcard");
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

/// Where a kind of divergence stands while the text is written: not yet
/// printed (with the lines of the findings after its first), or printed.
enum Fold {
    Pending(Vec<usize>),
    Shown,
}

impl Fold {
    /// The note under the first finding of `kind`, if more follow.
    fn note(&self, kind: DivergenceKind) -> Option<String> {
        let Fold::Pending(rest) = self else {
            return None;
        };
        if rest.is_empty() {
            return None;
        }
        Some(format!(
            "{} more `{kind}` divergence{}, on {}",
            rest.len(),
            plural(rest.len()),
            lines_text(rest)
        ))
    }
}

impl Report {
    /// For each kind of divergence, the lines of its findings after the
    /// first.
    fn folds(&self) -> HashMap<DivergenceKind, Fold> {
        let mut folds: HashMap<DivergenceKind, Fold> = HashMap::new();
        for f in &self.findings {
            let Some(e) = f
                .example
                .as_ref()
                .filter(|_| f.code == Code::DialectDivergence)
            else {
                continue;
            };
            match folds.get_mut(&e.kind) {
                Some(Fold::Pending(rest)) => rest.push(f.line),
                _ => {
                    folds.insert(e.kind, Fold::Pending(Vec::new()));
                }
            }
        }
        folds
    }
}

/// `lines` (ascending, maybe repeated) in words, runs of consecutive lines
/// joined (`lines 3-5, 9`), the first few runs only: `lines 3-5, 9, …, 12
/// and 40 more`.
fn lines_text(lines: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &line in lines {
        match runs.last_mut() {
            Some((_, last)) if line <= *last + 1 => *last = (*last).max(line),
            _ => runs.push((line, line)),
        }
    }
    let run = |&(a, b): &(usize, usize)| {
        if a == b {
            a.to_string()
        } else {
            format!("{a}-{b}")
        }
    };
    let shown: Vec<String> = runs.iter().take(NOTE_RUNS).map(run).collect();
    let word = if runs.len() == 1 && runs[0].0 == runs[0].1 {
        "line"
    } else {
        "lines"
    };
    let mut text = format!("{word} {}", shown.join(", "));
    if runs.len() > NOTE_RUNS {
        let hidden: usize = runs[NOTE_RUNS..].iter().map(|(a, b)| b - a + 1).sum();
        let _ = write!(text, " and {hidden} more");
    }
    text
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
            "kind": e.kind.as_str(),
            "url": e.url,
            "agent": e.agent,
            "allowed_in": e.allowed_in.name(),
            "disallowed_in": e.disallowed_in.name(),
        })),
    })
}

fn render_one(
    out: &mut String,
    file_name: &str,
    table: &LineTable,
    body: &[u8],
    f: &Finding,
    note: Option<String>,
) {
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
    if let Some(note) = note {
        let _ = writeln!(out, "{pad} = note: {note}");
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
    use super::{lines_text, window};

    #[test]
    fn note_lines_are_runs_and_stop_after_a_few() {
        assert_eq!(lines_text(&[7]), "line 7");
        assert_eq!(lines_text(&[7, 7]), "line 7");
        assert_eq!(lines_text(&[3, 4, 5, 9]), "lines 3-5, 9");
        let many: Vec<usize> = (1..=100).filter(|n| n % 3 != 0).collect();
        assert_eq!(
            lines_text(&many),
            "lines 1-2, 4-5, 7-8, 10-11, 13-14, 16-17 and 55 more"
        );
    }

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
