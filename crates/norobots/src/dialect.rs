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
///
/// With the `serde` feature a dialect is its [`name`](Dialect::name), read
/// back as [`FromStr`] reads it:
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use norobots::Dialect;
///
/// assert_eq!(serde_json::to_string(&Dialect::Rfc9309).unwrap(), r#""rfc9309""#);
/// assert_eq!(serde_json::from_str::<Dialect>(r#""google""#).unwrap(), Dialect::Google);
/// assert!(serde_json::from_str::<Dialect>(r#""rfc""#).is_err());
/// # }
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

    /// Whether the dialect reads records the 1990s way (`norobots1994`,
    /// `draft1996`): blank lines end a record, one line may carry several
    /// agents or several paths (the Lycos variant), the agent matches by
    /// substring, the first matching record and (in the draft) the first
    /// matching rule decide, and `*` and `$` are plain octets.
    ///
    /// ```
    /// use norobots::Dialect;
    ///
    /// assert!(Dialect::Draft1996.is_legacy());
    /// assert!(!Dialect::Google.is_legacy());
    /// ```
    pub fn is_legacy(self) -> bool {
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

#[cfg(feature = "serde")]
impl serde::Serialize for Dialect {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Dialect {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Dialect, D::Error> {
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = Dialect;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("norobots1994, draft1996, rfc9309 or google")
            }
            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<Dialect, E> {
                name.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Name)
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
