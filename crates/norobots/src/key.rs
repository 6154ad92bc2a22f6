//! Field names: which field each dialect reads a `name:` as, the
//! misspellings it forgives (`Disalow`, `useragent`) and, in `google`, the
//! longer words it reads by their start (`Disallowed`), as the reference
//! library does.

use crate::dialect::Dialect;

/// A field that some dialect acts on or records: what a field name means
/// ([`field_key`]).
///
/// ```
/// use norobots::{field_key, Dialect, Key};
///
/// assert_eq!(field_key(Dialect::Rfc9309, b"crawl-delay"), Some(Key::CrawlDelay));
/// assert_eq!(Key::CrawlDelay.name(), "Crawl-delay");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Key {
    /// `User-agent`: starts a group, or adds a robot to it.
    UserAgent,
    /// `Allow`: a rule (not in `norobots1994`).
    Allow,
    /// `Disallow`: a rule.
    Disallow,
    /// `Sitemap`: a file-wide field ([`Robots::sitemaps`](crate::Robots::sitemaps)).
    Sitemap,
    /// `Host`: Yandex's preferred mirror ([`Robots::hosts`](crate::Robots::hosts)).
    Host,
    /// `Crawl-delay`, in a group ([`Group::crawl_delay`](crate::Group::crawl_delay)).
    CrawlDelay,
    /// `Request-rate`, in a group ([`RequestRate`](crate::RequestRate)).
    RequestRate,
    /// `Visit-time`, in a group ([`VisitTime`](crate::VisitTime)).
    VisitTime,
}

impl Key {
    /// The field name as the texts spell it.
    ///
    /// ```
    /// assert_eq!(norobots::Key::UserAgent.name(), "User-agent");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Key::UserAgent => "User-agent",
            Key::Allow => "Allow",
            Key::Disallow => "Disallow",
            Key::Sitemap => "Sitemap",
            Key::Host => "Host",
            Key::CrawlDelay => "Crawl-delay",
            Key::RequestRate => "Request-rate",
            Key::VisitTime => "Visit-time",
        }
    }
}

/// What the field name `name` (as written, white space trimmed) means in
/// `dialect`: the parser's own reading, misspellings that the dialect
/// forgives included (the parser notes each with a
/// [`DiagnosticKind::MisspelledField`](crate::DiagnosticKind::MisspelledField)).
/// `None` for a name the dialect does not know, which it records in
/// [`Robots::other_fields`](crate::Robots::other_fields).
///
/// ```
/// use norobots::{field_key, Dialect, Key};
///
/// assert_eq!(field_key(Dialect::Rfc9309, b"DISALLOW"), Some(Key::Disallow));
/// // Misspellings that RFC 9309 parsers forgive, as the reference library does.
/// assert_eq!(field_key(Dialect::Rfc9309, b"disalow"), Some(Key::Disallow));
/// assert_eq!(field_key(Dialect::Rfc9309, b"user agent"), Some(Key::UserAgent));
/// assert_eq!(field_key(Dialect::Draft1996, b"disalow"), None);
/// // `google` reads a key by its start.
/// assert_eq!(field_key(Dialect::Google, b"Allowance"), Some(Key::Allow));
/// assert_eq!(field_key(Dialect::Rfc9309, b"Allowance"), None);
/// // The 1994 standard has no `Allow`.
/// assert_eq!(field_key(Dialect::Norobots1994, b"Allow"), None);
/// ```
pub fn field_key(dialect: Dialect, name: &[u8]) -> Option<Key> {
    classify(dialect, name).0
}

const USER_AGENT_TYPOS: [&[u8]; 2] = [b"useragent", b"user agent"];
const DISALLOW_TYPOS: [&[u8]; 5] = [
    b"dissallow",
    b"dissalow",
    b"disalow",
    b"diasllow",
    b"disallaw",
];

fn starts_with_ci(key: &[u8], prefix: &[u8]) -> bool {
    key.len() >= prefix.len() && key[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// What a field name means (`None`: nothing the dialect knows), and whether it was only accepted as a known
/// misspelling (or, in `google`, as a longer word that starts like a key).
pub(crate) fn classify(dialect: Dialect, key: &[u8]) -> (Option<Key>, bool) {
    // Most keys are spelled the usual way, and every dialect reads those
    // alike: settle them with one comparison.
    match key {
        b"Disallow" | b"disallow" | b"DISALLOW" => return (Some(Key::Disallow), false),
        b"User-agent" | b"user-agent" | b"User-Agent" | b"USER-AGENT" => {
            return (Some(Key::UserAgent), false)
        }
        b"Allow" | b"allow" if dialect != Dialect::Norobots1994 => {
            return (Some(Key::Allow), false)
        }
        b"Sitemap" | b"sitemap" => return (Some(Key::Sitemap), false),
        _ => {}
    }
    let is = |name: &[u8]| key.eq_ignore_ascii_case(name);
    let any = |names: &[&[u8]]| names.iter().any(|n| key.eq_ignore_ascii_case(n));
    match dialect {
        Dialect::Google => {
            // The reference library compares keys by prefix, in this order.
            let any_prefix = |names: &[&[u8]]| names.iter().any(|n| starts_with_ci(key, n));
            if starts_with_ci(key, b"user-agent") {
                (Some(Key::UserAgent), key.len() != 10)
            } else if any_prefix(&USER_AGENT_TYPOS) {
                (Some(Key::UserAgent), true)
            } else if starts_with_ci(key, b"allow") {
                (Some(Key::Allow), key.len() != 5)
            } else if starts_with_ci(key, b"disallow") {
                (Some(Key::Disallow), key.len() != 8)
            } else if any_prefix(&DISALLOW_TYPOS) {
                (Some(Key::Disallow), true)
            } else if starts_with_ci(key, b"sitemap") {
                (Some(Key::Sitemap), key.len() != 7)
            } else if starts_with_ci(key, b"site-map") {
                (Some(Key::Sitemap), true)
            } else {
                (extension(key), false)
            }
        }
        Dialect::Rfc9309 => {
            if is(b"user-agent") {
                (Some(Key::UserAgent), false)
            } else if any(&USER_AGENT_TYPOS) {
                (Some(Key::UserAgent), true)
            } else if is(b"allow") {
                (Some(Key::Allow), false)
            } else if is(b"disallow") {
                (Some(Key::Disallow), false)
            } else if any(&DISALLOW_TYPOS) {
                (Some(Key::Disallow), true)
            } else if is(b"sitemap") {
                (Some(Key::Sitemap), false)
            } else if is(b"site-map") {
                (Some(Key::Sitemap), true)
            } else {
                (extension(key), false)
            }
        }
        Dialect::Draft1996 | Dialect::Norobots1994 => {
            if is(b"user-agent") {
                (Some(Key::UserAgent), false)
            } else if is(b"disallow") {
                (Some(Key::Disallow), false)
            } else if dialect == Dialect::Draft1996 && is(b"allow") {
                (Some(Key::Allow), false)
            } else if is(b"sitemap") {
                (Some(Key::Sitemap), false)
            } else {
                (extension(key), false)
            }
        }
    }
}

fn extension(key: &[u8]) -> Option<Key> {
    if key.eq_ignore_ascii_case(b"host") {
        Some(Key::Host)
    } else if key.eq_ignore_ascii_case(b"crawl-delay") {
        Some(Key::CrawlDelay)
    } else if key.eq_ignore_ascii_case(b"request-rate") {
        Some(Key::RequestRate)
    } else if key.eq_ignore_ascii_case(b"visit-time") {
        Some(Key::VisitTime)
    } else {
        None
    }
}
