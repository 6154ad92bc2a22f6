//! A linter for robots.txt authors, in the style of rustc and ruff: every
//! finding has a place (`file:line:col`), a severity, a stable code, a
//! message and, where there is one, a fix.
//!
//! Its headline check is **dialect divergence**: rules that a robot of the
//! 1996 draft (`draft1996`) and a robot of RFC 9309 (`rfc9309`) read
//! differently. Each such finding carries an example URL (and robot name)
//! that one dialect allows and the other forbids, and the example has been
//! checked by running both dialects' matchers from the core crate; nothing
//! is reported on suspicion.
//!
//! # Example
//!
//! ```
//! use norobots::Dialect;
//! use norobots_tools::lint::{lint, Code, LintOptions, Severity};
//!
//! let body = b"User-agent: *\nDisalow: /tmp\nDisallow: /\nAllow: /public\n";
//! let report = lint(body, &LintOptions::new(Dialect::Rfc9309));
//! let misspelled = &report.findings[0];
//! assert_eq!((misspelled.line, misspelled.column), (2, 1));
//! assert_eq!(misspelled.code, Code::MisspelledField);
//! assert_eq!(misspelled.severity, Severity::Warning);
//! // `Allow: /public` after `Disallow: /` means nothing to a 1996 robot.
//! let divergence = report.findings.iter().find(|f| f.code == Code::DialectDivergence).unwrap();
//! assert_eq!(divergence.example.as_ref().unwrap().url, "https://example.com/public");
//! assert!(!report.has_errors());
//! println!("{}", report.render_text("robots.txt", body));
//! ```
//!
//! # Codes
//!
//! The code is a readable slug, stable across versions ([`Code::as_str`]).
//! Where the severity depends on the dialect the table gives each case.
//!
//! | code | severity | what it finds |
//! |---|---|---|
//! | `not-robots-txt` | error | the body is HTML, JSON, gzip or binary data, not a robots.txt (line findings are then not reported) |
//! | `file-too-large` | warning | the body is over 500 KiB: RFC 9309 crawlers may ignore the rest (RFC 9309 2.5) |
//! | `byte-order-mark` | warning | a UTF-8 byte order mark (in `google`, also a piece of one): older parsers read it as part of the first field name. The linter skips it as the dialect's parser does ([`norobots::bom_len`]), so line 1 is read as robots read it |
//! | `invalid-utf8` | warning | octets that are not UTF-8 (RFC 9309 files are UTF-8) |
//! | `nul-byte` | warning | a NUL octet: the reference library drops the rest of the line |
//! | `line-too-long` | warning | a line over 16,663 octets: Google drops the rest |
//! | `missing-colon` | error; warning where the dialect repairs it (`rfc9309`, `google`: exactly two words) | a line without `:` |
//! | `misspelled-field` | error when the dialect drops the line (`Dissallow` in `draft1996`, `Alow` anywhere); warning when it accepts it | a field name close to a known one; the fix spells it right |
//! | `unknown-field` | info | a field no dialect or common extension knows; robots ignore it |
//! | `ignored-field` | warning | a field the dialect ignores though others use it (`Allow` in `norobots1994`) |
//! | `rule-outside-group` | error | an `Allow`/`Disallow` before any `User-agent` (or, in the legacy dialects, after a blank line ended the record) |
//! | `field-outside-group` | warning | a group field (`Crawl-delay`, …) before any `User-agent` |
//! | `invalid-value` | warning | a value the dialect cannot read (`Crawl-delay: soon`) |
//! | `invalid-path` | error | an `Allow`/`Disallow` value that starts with neither `/` nor `*`: it never matches |
//! | `several-values` | warning in `rfc9309`, `google`; info in the legacy dialects | several paths on one `Allow`/`Disallow` line, or several names on one `User-agent` line (the Lycos variant) |
//! | `literal-wildcard` | warning in `norobots1994`, `draft1996`; info for a `$` that is not last in `rfc9309`, `google` | `*` or `$` in a pattern of a dialect that reads them as plain octets |
//! | `record-without-disallow` | error (`norobots1994`, `draft1996` only) | a record with no `Disallow` (1994) or no rule line (1996): the texts require one |
//! | `multiple-default-groups` | error in `norobots1994`; warning in `draft1996`; info in `rfc9309`, `google` | more than one `User-agent: *` group (forbidden in 1994, only the first used in 1996, merged since) |
//! | `duplicate-agent` | warning in the legacy dialects; info in `rfc9309`, `google` | the same robot named in two groups (only the first is used in the legacy dialects, merged in RFC 9309) |
//! | `duplicate-rule` | warning | a rule identical to an earlier one of its group |
//! | `shadowed-rule` | warning | a rule that can never decide anything: an earlier rule matches everything it matches (first match), or an identical `Allow` wins the tie (longest match), or a shorter rule of the same kind already covers it in a group with one kind of rule |
//! | `dialect-divergence` | warning | `draft1996` and `rfc9309` disagree on a URL: rule order, `*`/`$`, `%xx` decoding, agent matching, record boundaries, several values on a line; with a verified example |
//!
//! Columns count characters (UTF-8 lead octets) from 1, on line 1 from
//! after the byte order mark. Findings are sorted by line and column. Each
//! code keeps at most [`LintOptions::max_findings_per_code`] findings;
//! [`Report::omitted`] counts the rest.
//!
//! # Output
//!
//! [`Report::render_text`] prints rustc-style text. A file written for one
//! dialect often diverges the same way on hundreds of lines (every rule
//! with a `*`, for a 1996 robot), so the text shows each
//! [`DivergenceKind`] once: its first finding in full, then a note of how
//! many more of that kind there are and on which lines. The summary line
//! counts every finding; [`Report::render_text_with`] and
//! [`TextOptions::all_divergence`] print each one (`norobots lint
//! --all-divergence`). [`Report::to_json`] always lists every finding, a
//! divergence's `example` with its `kind` slug ([`DivergenceKind::as_str`]).
//!
//! # Bounds
//!
//! The linter runs in time linear in the body (up to a logarithmic factor
//! for sorting rules): shadowing is found by sorting each group's patterns
//! rather than comparing pairs, and the divergence check builds matchers
//! for at most 16 robot names, tries at most 50,000 example URLs per file
//! and takes examples only from patterns of at most 1,024 octets.

mod divergence;
mod fields;
mod lines;
mod render;
mod structure;

use std::collections::HashMap;

use norobots::{Dialect, ParseOptions, Robots};

pub use divergence::{DivergenceKind, Example};
pub use render::TextOptions;

/// How bad a finding is.
///
/// ```
/// use norobots_tools::lint::Severity;
///
/// assert_eq!(Severity::Error.as_str(), "error");
/// assert!(Severity::Error > Severity::Warning && Severity::Warning > Severity::Info);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Worth knowing; robots behave as the author most likely meant.
    Info,
    /// Robots may not behave as the author meant.
    Warning,
    /// The file does not say what its author meant, or breaks the dialect's text.
    Error,
}

impl Severity {
    /// The name used in text and JSON output.
    ///
    /// ```
    /// assert_eq!(norobots_tools::lint::Severity::Info.as_str(), "info");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident => $slug:literal,)*) => {
        /// What a finding is about; see the table in the [module
        /// documentation](self) for each code's meaning and severity.
        ///
        /// ```
        /// use norobots_tools::lint::Code;
        ///
        /// assert_eq!(Code::MisspelledField.as_str(), "misspelled-field");
        /// assert_eq!("shadowed-rule".parse::<Code>(), Ok(Code::ShadowedRule));
        /// assert_eq!(Code::ALL.len(), 22);
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $($(#[$doc])* $variant,)*
        }

        impl Code {
            /// Every code, in the order of the table.
            ///
            /// ```
            /// use norobots_tools::lint::Code;
            ///
            /// assert_eq!(Code::ALL.first(), Some(&Code::NotRobotsTxt));
            /// assert!(Code::ALL.iter().all(|c| c.as_str().parse::<Code>() == Ok(*c)));
            /// ```
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable slug, as printed in `severity[code]`.
            ///
            /// ```
            /// assert_eq!(norobots_tools::lint::Code::DialectDivergence.as_str(), "dialect-divergence");
            /// ```
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $slug,)*
                }
            }
        }
    };
}

codes! {
    /// The body is HTML, JSON, compressed or binary.
    NotRobotsTxt => "not-robots-txt",
    /// The body is over 500 KiB.
    FileTooLarge => "file-too-large",
    /// A UTF-8 byte order mark.
    ByteOrderMark => "byte-order-mark",
    /// Octets that are not UTF-8.
    InvalidUtf8 => "invalid-utf8",
    /// A NUL octet.
    NulByte => "nul-byte",
    /// A line over 16,663 octets.
    LineTooLong => "line-too-long",
    /// A line without `:`.
    MissingColon => "missing-colon",
    /// A field name close to a known one.
    MisspelledField => "misspelled-field",
    /// A field nobody knows.
    UnknownField => "unknown-field",
    /// A field the dialect ignores.
    IgnoredField => "ignored-field",
    /// A rule before any `User-agent`.
    RuleOutsideGroup => "rule-outside-group",
    /// A group field before any `User-agent`.
    FieldOutsideGroup => "field-outside-group",
    /// A value that cannot be read.
    InvalidValue => "invalid-value",
    /// A path that starts with neither `/` nor `*`.
    InvalidPath => "invalid-path",
    /// Several values on one line.
    SeveralValues => "several-values",
    /// `*` or `$` read literally.
    LiteralWildcard => "literal-wildcard",
    /// A legacy record without a rule.
    RecordWithoutDisallow => "record-without-disallow",
    /// More than one `User-agent: *` group.
    MultipleDefaultGroups => "multiple-default-groups",
    /// A robot named in two groups.
    DuplicateAgent => "duplicate-agent",
    /// A rule repeated in its group.
    DuplicateRule => "duplicate-rule",
    /// A rule that can never decide.
    ShadowedRule => "shadowed-rule",
    /// `draft1996` and `rfc9309` disagree.
    DialectDivergence => "dialect-divergence",
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a [`Code`] from a string that is not one.
///
/// ```
/// assert!("R001".parse::<norobots_tools::lint::Code>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCode(pub String);

impl std::fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown lint code `{}`", self.0)
    }
}

impl std::error::Error for UnknownCode {}

impl std::str::FromStr for Code {
    type Err = UnknownCode;

    fn from_str(s: &str) -> Result<Code, UnknownCode> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownCode(s.to_string()))
    }
}

/// One finding.
///
/// ```
/// use norobots::Dialect;
/// use norobots_tools::lint::{lint, Code, LintOptions};
///
/// let report = lint(b"User-agent: *\nDisallow: tmp/\n", &LintOptions::new(Dialect::Rfc9309));
/// let f = &report.findings[0];
/// assert_eq!((f.line, f.column, f.code), (2, 11, Code::InvalidPath));
/// assert_eq!(f.help.as_deref(), Some("write `Disallow: /tmp/`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub column: usize,
    /// How bad it is.
    pub severity: Severity,
    /// What it is about.
    pub code: Code,
    /// What is wrong, in one sentence.
    pub message: String,
    /// How to fix it, or what it means, when there is more to say.
    pub help: Option<String>,
    /// For [`Code::DialectDivergence`]: a URL the dialects disagree on.
    pub example: Option<Example>,
}

/// What to check, and in which dialect.
///
/// ```
/// use norobots::Dialect;
/// use norobots_tools::lint::LintOptions;
///
/// let opts = LintOptions::new(Dialect::Draft1996);
/// assert!(opts.divergence);
/// assert_eq!(LintOptions::default().dialect, Dialect::Rfc9309);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LintOptions {
    /// The dialect the file is meant for: it decides what is an error.
    pub dialect: Dialect,
    /// Whether to look for `draft1996`/`rfc9309` divergences (the slowest
    /// check: it builds matchers and runs example URLs).
    pub divergence: bool,
    /// At most this many findings per code; the rest are counted in
    /// [`Report::omitted`].
    pub max_findings_per_code: usize,
}

impl LintOptions {
    /// Every check, for `dialect`, at most 1,000 findings per code.
    ///
    /// ```
    /// let opts = norobots_tools::lint::LintOptions::new(norobots::Dialect::Google);
    /// assert_eq!(opts.max_findings_per_code, 1000);
    /// ```
    pub fn new(dialect: Dialect) -> LintOptions {
        LintOptions {
            dialect,
            divergence: true,
            max_findings_per_code: 1000,
        }
    }
}

impl Default for LintOptions {
    fn default() -> LintOptions {
        LintOptions::new(Dialect::default())
    }
}

/// What the linter found in one file.
///
/// ```
/// use norobots_tools::lint::{lint, LintOptions, Severity};
///
/// let report = lint(b"Disallow: /x\n", &LintOptions::default());
/// assert!(report.has_errors());
/// assert_eq!(report.count(Severity::Error), 1);
/// assert_eq!(report.exit_code(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The dialect the file was checked for.
    pub dialect: Dialect,
    /// The findings, by line and column.
    pub findings: Vec<Finding>,
    /// Findings left out by [`LintOptions::max_findings_per_code`].
    pub omitted: usize,
}

impl Report {
    /// Whether any finding is an error.
    ///
    /// ```
    /// let report = norobots_tools::lint::lint(b"User-agent: *\nDisallow: /\n", &Default::default());
    /// assert!(!report.has_errors());
    /// ```
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// How many findings have this severity.
    ///
    /// ```
    /// use norobots_tools::lint::{lint, Severity};
    ///
    /// let report = lint(b"User-agent: *\nNoindex: /x\n", &Default::default());
    /// assert_eq!(report.count(Severity::Info), 1);
    /// ```
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }

    /// The exit status a command-line tool should return: 1 when there is
    /// an error, else 0.
    ///
    /// ```
    /// let report = norobots_tools::lint::lint(b"User-agent: *\nDisallow:\n", &Default::default());
    /// assert_eq!(report.exit_code(), 0);
    /// ```
    pub fn exit_code(&self) -> i32 {
        i32::from(self.has_errors())
    }
}

/// Lints a robots.txt body for the dialect in `options`.
///
/// Never panics, whatever the body; the time it takes grows linearly with
/// the body (see "Bounds" in the module documentation).
///
/// ```
/// use norobots::Dialect;
/// use norobots_tools::lint::{lint, Code, LintOptions};
///
/// let body = b"User-agent: *\nDisallow: /private/\nDisallow: /private/x\n";
/// let report = lint(body, &LintOptions::new(Dialect::Draft1996));
/// let codes: Vec<Code> = report.findings.iter().map(|f| f.code).collect();
/// assert_eq!(codes, [Code::ShadowedRule]);
/// ```
pub fn lint(body: &[u8], options: &LintOptions) -> Report {
    // Offsets are kept as u32, as the core parser does: a body is read up
    // to 4 GiB.
    let body = &body[..body.len().min(u32::MAX as usize - 1)];
    let mut sink = Sink::new(options.max_findings_per_code);
    let table = lines::LineTable::new(body, options.dialect);
    let is_robots = lines::check_file(body, &table, &mut sink);
    if is_robots {
        let robots = Robots::parse_with(body, &ParseOptions::new(options.dialect));
        let scan = lines::check_lines(body, table, options.dialect, &robots, &mut sink);
        structure::check(&robots, &scan, &mut sink);
        if options.divergence {
            divergence::check(body, &robots, &scan, &mut sink);
        }
    }
    sink.finish(options.dialect)
}

/// Collects findings, keeping at most a given number per code.
pub(crate) struct Sink {
    findings: Vec<Finding>,
    per_code: HashMap<Code, usize>,
    max: usize,
    omitted: usize,
}

impl Sink {
    fn new(max: usize) -> Sink {
        Sink {
            findings: Vec::new(),
            per_code: HashMap::new(),
            max,
            omitted: 0,
        }
    }

    /// Whether another finding of `code` would be kept; lets the costly
    /// checks stop early.
    pub(crate) fn wants(&self, code: Code) -> bool {
        self.per_code.get(&code).copied().unwrap_or(0) < self.max
    }

    pub(crate) fn push(&mut self, finding: Finding) {
        let n = self.per_code.entry(finding.code).or_insert(0);
        if *n < self.max {
            *n += 1;
            self.findings.push(finding);
        } else {
            self.omitted += 1;
        }
    }

    fn finish(mut self, dialect: Dialect) -> Report {
        self.findings.sort_by_key(|f| (f.line, f.column, f.code));
        Report {
            dialect,
            findings: self.findings,
            omitted: self.omitted,
        }
    }
}

/// A finding at `line:column` without help or example: the builders below
/// fill in the rest.
pub(crate) fn finding(
    line: usize,
    column: usize,
    severity: Severity,
    code: Code,
    message: String,
) -> Finding {
    Finding {
        line,
        column,
        severity,
        code,
        message,
        help: None,
        example: None,
    }
}

impl Finding {
    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Finding {
        self.help = Some(help.into());
        self
    }
}

/// Whether a dialect reads records the 1990s way (the core crate keeps its
/// own copy of this private).
pub(crate) fn is_legacy(dialect: Dialect) -> bool {
    matches!(dialect, Dialect::Norobots1994 | Dialect::Draft1996)
}

/// Text from the body for a message: lossy, and cut short so that a
/// hostile 10 MB line does not end up in every message.
pub(crate) fn shown(bytes: &[u8]) -> String {
    const MAX: usize = 80;
    if bytes.len() <= MAX {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut s = String::from_utf8_lossy(&bytes[..MAX]).into_owned();
    s.push('…');
    s
}

#[cfg(test)]
mod tests;
