//! What a rule does with what it matches.

use std::fmt;

/// Whether a rule allows or disallows what it matches.
///
/// ```
/// assert_eq!(norobots::RuleKind::Disallow.to_string(), "Disallow");
/// ```
///
/// With the `serde` feature it is its [`as_str`](RuleKind::as_str):
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use norobots::RuleKind;
///
/// assert_eq!(serde_json::to_string(&RuleKind::Allow).unwrap(), r#""Allow""#);
/// assert_eq!(serde_json::from_str::<RuleKind>(r#""Disallow""#).unwrap(), RuleKind::Disallow);
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
