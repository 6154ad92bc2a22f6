//! What the parser ignored or repaired, line by line.

use std::fmt;

/// Something the parser ignored or repaired, on a given line.
///
/// ```
/// use norobots::{Diagnostic, DiagnosticKind};
///
/// let robots = norobots::Robots::parse(b"User-agent: *\nDisalow: /x\n");
/// assert_eq!(robots.diagnostics(), [Diagnostic { line: 2, kind: DiagnosticKind::MisspelledField }]);
/// # #[cfg(feature = "serde")]
/// assert_eq!(
///     serde_json::to_string(&robots.diagnostics()[0]).unwrap(),
///     r#"{"line":2,"kind":"misspelled_field"}"#
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Diagnostic {
    /// The line (1-based); 0 when it concerns the whole body.
    pub line: usize,
    /// What happened.
    pub kind: DiagnosticKind,
}

/// The kinds of [`Diagnostic`]. With the `serde` feature a kind is its
/// stable code, [`as_str`](DiagnosticKind::as_str).
///
/// ```
/// use norobots::DiagnosticKind;
///
/// assert_eq!(DiagnosticKind::MissingSeparator.to_string(), "line has no `:` between field name and value");
/// # #[cfg(feature = "serde")]
/// assert_eq!(serde_json::to_string(&DiagnosticKind::NulByte).unwrap(), r#""nul_byte""#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// An `Allow` or `Disallow` before any `User-agent`: ignored.
    RuleOutsideGroup,
    /// A group-level extension (`Crawl-delay`, …) before any `User-agent`: ignored.
    ExtensionOutsideGroup,
    /// A line without `:`. `rfc9309` and `google` accept it when it is two
    /// words (`Disallow /x`), as the reference library does; otherwise it
    /// is ignored.
    MissingSeparator,
    /// A field name the dialect accepts only as a known misspelling.
    MisspelledField,
    /// A field the dialect does not know: recorded in [`Robots::other_fields`](crate::Robots::other_fields).
    UnknownField,
    /// A field this dialect ignores though another one uses it (`Allow` in 1994).
    IgnoredField,
    /// A value that could not be read (`Crawl-delay: soon`).
    InvalidValue,
    /// A line longer than the dialect keeps (16,663 octets in `google`); the rest was dropped.
    LineTruncated,
    /// A NUL octet; the rest of its line was dropped.
    NulByte,
    /// Octets that are not UTF-8.
    InvalidUtf8,
    /// A UTF-8 byte order mark (or a piece of one) at the start, skipped.
    ByteOrderMark,
    /// The body was longer than [`ParseOptions::max_bytes`](crate::ParseOptions::max_bytes); the rest was not read.
    BodyTruncated,
}

impl DiagnosticKind {
    /// A stable, machine-readable name (`snake_case`), for JSON output and
    /// for tools that filter diagnostics.
    ///
    /// ```
    /// assert_eq!(norobots::DiagnosticKind::MisspelledField.as_str(), "misspelled_field");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            DiagnosticKind::RuleOutsideGroup => "rule_outside_group",
            DiagnosticKind::ExtensionOutsideGroup => "extension_outside_group",
            DiagnosticKind::MissingSeparator => "missing_separator",
            DiagnosticKind::MisspelledField => "misspelled_field",
            DiagnosticKind::UnknownField => "unknown_field",
            DiagnosticKind::IgnoredField => "ignored_field",
            DiagnosticKind::InvalidValue => "invalid_value",
            DiagnosticKind::LineTruncated => "line_truncated",
            DiagnosticKind::NulByte => "nul_byte",
            DiagnosticKind::InvalidUtf8 => "invalid_utf8",
            DiagnosticKind::ByteOrderMark => "byte_order_mark",
            DiagnosticKind::BodyTruncated => "body_truncated",
        }
    }
}

impl fmt::Display for DiagnosticKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DiagnosticKind::RuleOutsideGroup => "rule before any `User-agent` line is ignored",
            DiagnosticKind::ExtensionOutsideGroup => {
                "group field before any `User-agent` line is ignored"
            }
            DiagnosticKind::MissingSeparator => "line has no `:` between field name and value",
            DiagnosticKind::MisspelledField => "misspelled field name",
            DiagnosticKind::UnknownField => "unknown field",
            DiagnosticKind::IgnoredField => "field is ignored in this dialect",
            DiagnosticKind::InvalidValue => "value cannot be read",
            DiagnosticKind::LineTruncated => "line is too long; the rest was dropped",
            DiagnosticKind::NulByte => "NUL octet; the rest of the line was dropped",
            DiagnosticKind::InvalidUtf8 => "octets that are not UTF-8",
            DiagnosticKind::ByteOrderMark => "byte order mark skipped",
            DiagnosticKind::BodyTruncated => {
                "body longer than the byte limit; the rest was not read"
            }
        })
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for DiagnosticKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}
