//! What a rule does with what it matches.

use std::fmt;

/// Whether a rule allows or disallows what it matches.
///
/// ```
/// assert_eq!(norobots::RuleKind::Disallow.to_string(), "Disallow");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleKind {
    /// An `Allow` line.
    Allow,
    /// A `Disallow` line.
    Disallow,
}

impl RuleKind {
    /// The field name as the texts spell it.
    ///
    /// ```
    /// assert_eq!(norobots::RuleKind::Allow.as_str(), "Allow");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            RuleKind::Allow => "Allow",
            RuleKind::Disallow => "Disallow",
        }
    }
}

impl fmt::Display for RuleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
