//! The four readings of robots.txt that norobots implements.

use std::fmt;
use std::str::FromStr;

/// Which text of the Robots Exclusion Protocol a file is read by.
///
/// The dialects differ in how records are delimited, how a robot finds its
/// record, which rule decides and how `%xx` escapes compare; the table in the
/// crate documentation lists every difference.
///
/// # Example
///
/// ```
/// use norobots::Dialect;
///
/// let d: Dialect = "draft1996".parse().unwrap();
/// assert_eq!(d, Dialect::Draft1996);
/// assert_eq!(d.to_string(), "draft1996");
/// assert_eq!(Dialect::default(), Dialect::Rfc9309);
/// assert!("nonsense".parse::<Dialect>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    /// "A Standard for Robot Exclusion", 1994: `User-agent` and `Disallow`
    /// only, records separated by blank lines, any matching `Disallow`
    /// excludes.
    Norobots1994,
    /// draft-koster-robots-00, 1996: adds `Allow`; the first matching record
    /// and the first matching rule decide; `%xx` is decoded before comparing.
    Draft1996,
    /// RFC 9309, 2022: groups merged per product token, `*` and `$`
    /// wildcards, the longest match decides.
    #[default]
    Rfc9309,
    /// RFC 9309 as Google's reference library (google/robotstxt) reads it,
    /// bit for bit, quirks included.
    Google,
}

impl Dialect {
    /// Every dialect, oldest first.
    ///
    /// ```
    /// assert_eq!(norobots::Dialect::ALL.len(), 4);
    /// ```
    pub const ALL: [Dialect; 4] = [
        Dialect::Norobots1994,
        Dialect::Draft1996,
        Dialect::Rfc9309,
        Dialect::Google,
    ];

    /// The dialect's name as the CLI and the conformance data spell it.
    ///
    /// ```
    /// assert_eq!(norobots::Dialect::Google.name(), "google");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Norobots1994 => "norobots1994",
            Dialect::Draft1996 => "draft1996",
            Dialect::Rfc9309 => "rfc9309",
            Dialect::Google => "google",
        }
    }

    /// The robot name this dialect compares with `User-agent` lines, read
    /// from what the caller passes as its agent: a product token or a whole
    /// `User-Agent` header.
    ///
    /// - `norobots1994`, `draft1996`: the name up to the first `/` or
    ///   space (1996 draft 3.2.1), compared as a substring of each value;
    /// - `rfc9309`: the robot's product token ([`robot_token`](crate::robot_token));
    /// - `google`: the agent as given, as the reference library takes it.
    ///   Only a valid product token ([`is_product_token`](crate::is_product_token))
    ///   can equal a `User-agent` value there: `Googlebot/2.1` names no
    ///   group, and the robot gets the `*` groups.
    ///
    /// ```
    /// use norobots::Dialect;
    ///
    /// let ua = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    /// assert_eq!(Dialect::Rfc9309.robot_name(ua), "Googlebot");
    /// assert_eq!(Dialect::Draft1996.robot_name("FigTree/0.1 Robot libwww-perl/5.04"), "FigTree");
    /// assert_eq!(Dialect::Google.robot_name("Googlebot/2.1"), "Googlebot/2.1");
    /// ```
    pub fn robot_name(self, agent: &str) -> &str {
        crate::agent::caller_name(self, agent)
    }

    /// Whether the dialect reads records the 1990s way: blank lines end a
    /// record, one line may carry several agents or several paths (the
    /// Lycos variant), the agent matches by substring.
    pub(crate) fn is_legacy(self) -> bool {
        matches!(self, Dialect::Norobots1994 | Dialect::Draft1996)
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`Dialect`] from a name that is not one.
///
/// ```
/// let err = "rfc".parse::<norobots::Dialect>().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "unknown dialect `rfc` (expected norobots1994, draft1996, rfc9309 or google)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseDialectError {
    given: String,
}

impl fmt::Display for ParseDialectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown dialect `{}` (expected norobots1994, draft1996, rfc9309 or google)",
            self.given
        )
    }
}

impl std::error::Error for ParseDialectError {}

impl FromStr for Dialect {
    type Err = ParseDialectError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseDialectError {
                given: s.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for d in Dialect::ALL {
            assert_eq!(d.name().parse::<Dialect>(), Ok(d));
        }
    }

    #[test]
    fn default_is_rfc9309() {
        assert_eq!(Dialect::default(), Dialect::Rfc9309);
    }
}
