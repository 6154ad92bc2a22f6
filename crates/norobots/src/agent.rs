//! How a robot's name is read from what the caller passes, and how it is
//! compared with a `User-agent` value, per dialect.

use crate::dialect::Dialect;
use crate::work;

/// The leading product token of a `User-Agent` header: its longest prefix
/// made of `A-Z a-z _ -` (RFC 9309 section 2.2.1).
///
/// ```
/// use norobots::product_token;
///
/// assert_eq!(product_token("Googlebot/2.1 (+http://www.google.com/bot.html)"), "Googlebot");
/// assert_eq!(product_token("FigTree/0.1 Robot libwww-perl/5.04"), "FigTree");
/// assert_eq!(product_token("Mozilla/5.0 (compatible; bingbot/2.0)"), "Mozilla");
/// assert_eq!(product_token("42bot"), "");
/// ```
pub fn product_token(user_agent: &str) -> &str {
    let found = user_agent.bytes().position(|b| !is_token_byte(b));
    work::scanned(found, user_agent.len());
    let end = found.unwrap_or(user_agent.len());
    &user_agent[..end]
}

/// The robot's product token in a `User-Agent` header: the leading
/// product token, except in a browser-shaped header, where it is the first
/// token inside that names a robot.
///
/// Most robots send their own name first (`FigTree/0.1 Robot
/// libwww-perl/5.04`, `curl/8.5`). The big crawlers send browser-shaped
/// headers, `Mozilla/5.0 (compatible; Googlebot/2.1;
/// +http://www.google.com/bot.html)`, whose leading token `Mozilla` is a
/// compatibility marker, not the product: for those, and for a header
/// that starts with no token at all, the first token
/// whose name says robot (`bot`, `crawl`, `spider`, `slurp`, ignoring
/// case) is the robot's, and contact URLs (`+http://…`) name nobody. A
/// browser-shaped header with no such token is read as `Mozilla`, which
/// matches only `*` groups in any file that does not name it.
///
/// This is the token RFC 9309 (section 2.2.1) matches against
/// `User-agent` lines; [`Robots::matcher`](crate::Robots::matcher) reads
/// the caller's agent with it in the `rfc9309` dialect.
///
/// ```
/// use norobots::robot_token;
///
/// assert_eq!(robot_token("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"), "Googlebot");
/// assert_eq!(robot_token("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0 Safari/537.36"), "bingbot");
/// assert_eq!(robot_token("FigTree/0.1 Robot libwww-perl/5.04"), "FigTree");
/// assert_eq!(robot_token("Googlebot-Image/1.0"), "Googlebot-Image");
/// assert_eq!(robot_token("Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"), "Mozilla");
/// assert_eq!(robot_token("  ExampleBot"), "ExampleBot");
/// ```
pub fn robot_token(user_agent: &str) -> &str {
    let user_agent = user_agent.trim_start();
    let leading = product_token(user_agent);
    if !(leading.is_empty() || leading.eq_ignore_ascii_case("Mozilla")) {
        return leading;
    }
    let pieces =
        user_agent.split(|c: char| c.is_whitespace() || matches!(c, ';' | '(' | ')' | ','));
    for piece in pieces {
        // Octets, not a `str` slice: the fourth octet of a stranger's
        // header may fall inside a character.
        let scheme = piece.trim_start_matches('+').as_bytes().get(..4);
        if scheme.is_some_and(|s| s.eq_ignore_ascii_case(b"http")) {
            continue;
        }
        let token = product_token(piece);
        if names_a_robot(token) {
            return token;
        }
    }
    leading
}

/// Whether a product token says robot, the way robots name themselves
/// (Googlebot, bingbot, Baiduspider, Yahoo! Slurp, a "crawler").
fn names_a_robot(token: &str) -> bool {
    ["bot", "crawl", "spider", "slurp"]
        .iter()
        .any(|w| contains_ignore_case(token.as_bytes(), w.as_bytes()))
}

/// Whether `agent` is a product token as RFC 9309 defines it: one or more
/// of `A-Z a-z _ -`. The `google` dialect, like the reference library,
/// matches `User-agent` lines only against such a token: an agent like
/// `Googlebot/2.1` is compared whole and names no group.
///
/// ```
/// assert!(norobots::is_product_token("Googlebot-Image"));
/// assert!(!norobots::is_product_token("Googlebot/2.1"));
/// assert!(!norobots::is_product_token(""));
/// ```
pub fn is_product_token(agent: &str) -> bool {
    !agent.is_empty() && agent.bytes().all(is_token_byte)
}

/// The octets RFC 9309 allows in a product token.
pub(crate) fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'-'
}

/// The robot's name without version, as the 1994 and 1996 texts ask robots
/// to match it: everything up to the first `/` or white space.
pub(crate) fn legacy_name(agent: &str) -> &str {
    let agent = agent.trim_start();
    let found = agent
        .bytes()
        .position(|b| b == b'/' || b.is_ascii_whitespace());
    work::scanned(found, agent.len());
    let end = found.unwrap_or(agent.len());
    &agent[..end]
}

/// Whether a `User-agent` value names the default record or group.
///
/// The reference library also treats `* foo` as global; the legacy dialects
/// split values at white space first, so for them `*` must be whole.
pub(crate) fn is_global(dialect: Dialect, value: &[u8]) -> bool {
    match dialect {
        Dialect::Norobots1994 | Dialect::Draft1996 => value == b"*",
        Dialect::Rfc9309 | Dialect::Google => {
            value.first() == Some(&b'*') && (value.len() == 1 || value[1].is_ascii_whitespace())
        }
    }
}

/// The robot name a matcher compares with, read from what the caller passes.
pub(crate) fn caller_name(dialect: Dialect, agent: &str) -> &str {
    match dialect {
        Dialect::Norobots1994 | Dialect::Draft1996 => legacy_name(agent),
        Dialect::Rfc9309 => robot_token(agent),
        Dialect::Google => agent,
    }
}

/// Whether one `User-agent` value (one whitespace-separated value in the
/// legacy dialects) names the robot `name` (already read by [`caller_name`]).
pub(crate) fn names(dialect: Dialect, value: &[u8], name: &str) -> bool {
    match dialect {
        Dialect::Norobots1994 | Dialect::Draft1996 => {
            // A liberal, case-insensitive substring match (1994 standard, "The
            // robot should be liberal in interpreting this field"); an empty
            // name would be a substring of everything, so it names nothing.
            !name.is_empty() && contains_ignore_case(value, name.as_bytes())
        }
        Dialect::Rfc9309 | Dialect::Google => {
            // The same as comparing `value_token(value)` with `name`, but a
            // file with thousands of agents mostly fails on the first octets
            // or the length, without cutting every token out first.
            let name = name.as_bytes();
            // The value's first octets and the name's, at most.
            work::add_with(move || 1 + 2 * name.len());
            value.len() >= name.len()
                && value.get(name.len()).is_none_or(|&b| !is_token_byte(b))
                && value[..name.len()].eq_ignore_ascii_case(name)
                && name.iter().all(|&b| is_token_byte(b))
        }
    }
}

fn contains_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    // At most the needle's octets at each place.
    work::add_with(move || 1 + haystack.len() * needle.len());
    needle.len() <= haystack.len()
        && haystack
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
}

impl Dialect {
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
        caller_name(self, agent)
    }
}

/// What a user should be told about how `agent` is read in `dialect`,
/// when there is something to say: a `warning:` when the agent can match
/// only `*` groups (empty, no product token, or in `google` anything but
/// a bare token), a `note:` when the dialect compares less than what was
/// typed. The CLI prints it on stderr; the Python binding raises a
/// `ValueError` with a warning. One line, no trailing newline.
///
/// ```
/// use norobots::{agent_note, Dialect};
///
/// assert_eq!(agent_note(Dialect::Rfc9309, "Googlebot"), None);
/// assert_eq!(
///     agent_note(Dialect::Rfc9309, "Googlebot/2.1").unwrap(),
///     "note: matching User-agent lines against the product token `Googlebot`"
/// );
/// assert!(agent_note(Dialect::Google, "Googlebot/2.1").unwrap().starts_with("warning:"));
/// assert!(agent_note(Dialect::Draft1996, "").unwrap().contains("only `*` groups"));
/// ```
pub fn agent_note(dialect: Dialect, agent: &str) -> Option<String> {
    if agent.trim().is_empty() {
        return Some(
            "warning: the agent is empty: it matches no named group, only `*` groups".into(),
        );
    }
    let name = dialect.robot_name(agent);
    match dialect {
        Dialect::Google if !is_product_token(agent) => {
            let token = robot_token(agent);
            let instead = if token.is_empty() {
                String::new()
            } else {
                format!("; pass `{token}` to match its groups")
            };
            Some(format!(
                "warning: `{agent}` is not a product token the google dialect can match \
                 (as the reference library, it matches only letters, `-` and `_`), \
                 so it gets only `*` groups{instead}"
            ))
        }
        Dialect::Google => None,
        _ if name.is_empty() => Some(format!(
            "warning: `{agent}` does not start with a product token (letters, `-`, `_`): \
             it matches only `*` groups"
        )),
        _ if name == agent => None,
        Dialect::Rfc9309 => Some(format!(
            "note: matching User-agent lines against the product token `{name}`"
        )),
        _ => Some(format!(
            "note: {dialect} matches `{name}` (the name before the first `/` or space) \
             as a substring of User-agent lines"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // RFC 9309 2.2.1: "the product token" is the leading [A-Za-z_-]+ part.
    #[test]
    fn product_token_stops_at_first_non_token_octet() {
        assert_eq!(product_token("Googlebot-Image/1.0"), "Googlebot-Image");
        assert_eq!(product_token("foo_bar baz"), "foo_bar");
        assert_eq!(product_token(""), "");
    }

    // 1996 draft 3.2.1: "the name without version information".
    #[test]
    fn legacy_name_drops_version_and_comment() {
        assert_eq!(legacy_name("FigTree/0.1 Robot libwww-perl/5.04"), "FigTree");
        assert_eq!(legacy_name("Lycos"), "Lycos");
        assert_eq!(legacy_name("  Rex"), "Rex");
    }

    // 1994 standard: "A case insensitive substring match of the name".
    #[test]
    fn legacy_agents_match_by_substring() {
        assert!(names(Dialect::Draft1996, b"superfigtreebot", "FigTree"));
        assert!(!names(Dialect::Draft1996, b"figtre", "FigTree"));
        assert!(!names(Dialect::Norobots1994, b"anything", ""));
    }

    // RFC 9309 2.2.1: "case-insensitive match of the product token".
    #[test]
    fn rfc_agents_match_by_equal_token() {
        assert!(names(Dialect::Rfc9309, b"FooBot/2.1", "foobot"));
        assert!(!names(Dialect::Rfc9309, b"superfoobot", "foobot"));
        assert!(names(Dialect::Google, b"Foo Bar", "foo"));
    }

    /// The leading token of a `User-agent` value, as the reference library
    /// cuts it: what `names` compares, spelled out.
    fn value_token(value: &[u8]) -> &[u8] {
        let end = value
            .iter()
            .position(|&b| !is_token_byte(b))
            .unwrap_or(value.len());
        &value[..end]
    }

    // The fast comparison in `names` must agree with cutting the token out
    // and comparing it, for every pairing of these awkward values and names.
    #[test]
    fn token_comparison_agrees_with_cutting_the_token() {
        let values: [&[u8]; 12] = [
            b"", b"foo", b"FOO", b"foobot", b"foo-bar", b"foo/1", b"foo bar", b"Foo_", b"f",
            b"9foo", b"foo\xff", b"-",
        ];
        let names_: [&str; 9] = [
            "", "foo", "FoO", "foobot", "foo-bar", "foo/1", "foo bar", "f", "-",
        ];
        for d in [Dialect::Rfc9309, Dialect::Google] {
            for v in values {
                for n in names_ {
                    let want = value_token(v).eq_ignore_ascii_case(n.as_bytes());
                    assert_eq!(names(d, v, n), want, "{d:?} {v:?} {n:?}");
                }
            }
        }
    }

    // Browser-shaped headers carry the robot's token inside; a robot that
    // sends its own name first keeps it, whatever follows.
    #[test]
    fn robot_token_looks_inside_browser_shaped_headers_only() {
        assert_eq!(
            robot_token("Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)"),
            "Slurp"
        );
        assert_eq!(
            robot_token("Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
            "Googlebot"
        );
        // A contact URL is not a name, even one that says "bot".
        assert_eq!(
            robot_token("Mozilla/5.0 (+http://example.com/bot.html)"),
            "Mozilla"
        );
        assert_eq!(
            robot_token("mozilla/5.0 (compatible; FooCrawler/1)"),
            "FooCrawler"
        );
        assert_eq!(robot_token("Wget/1.21 (compatible; OtherBot)"), "Wget");
        assert_eq!(robot_token("Lycos/1.0 libwww/3.1"), "Lycos");
        assert_eq!(robot_token(""), "");
        // Found by the `audit` fuzz target (when this rule lived in the
        // auditor): a header whose fourth octet falls inside a character
        // made the contact-URL test slice a `str` mid-character.
        assert_eq!(
            robot_token("Mozilla/5.0 (com\u{FFFD}atible; Googlebot/2.1; +http://x/bot.html)"),
            "Googlebot"
        );
        for ua in [
            "abc\u{e9}",
            "+h\u{e9}t",
            "\u{1F916}bot/1",
            "ab\u{FFFD}",
            "Mozilla +h\u{e9}t",
        ] {
            let _ = robot_token(ua);
        }
        assert_eq!(robot_token("+HTTP://x (crawler/1)"), "crawler");
        assert_eq!(
            robot_token("Mozilla/5.0 (compatible; \u{FFFD}bot)"),
            "Mozilla"
        );
    }

    #[test]
    fn star_with_trailing_words_is_global() {
        assert!(is_global(Dialect::Google, b"*"));
        assert!(is_global(Dialect::Rfc9309, b"* foo"));
        assert!(!is_global(Dialect::Google, b"*foo"));
        assert!(!is_global(Dialect::Draft1996, b"* foo"));
    }
}

#[cfg(test)]
mod note_tests {
    use super::*;

    #[test]
    fn a_full_header_names_the_token_that_is_matched() {
        let ua = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
        assert_eq!(
            agent_note(Dialect::Rfc9309, ua).unwrap(),
            "note: matching User-agent lines against the product token `Googlebot`"
        );
        assert_eq!(agent_note(Dialect::Rfc9309, "Googlebot"), None);
        assert!(agent_note(Dialect::Draft1996, "FigTree/0.1 Robot")
            .unwrap()
            .contains("`FigTree`"));
    }

    #[test]
    fn google_warns_of_an_agent_it_cannot_match_and_names_the_token() {
        let n = agent_note(Dialect::Google, "Googlebot/2.1").unwrap();
        assert!(
            n.starts_with("warning: `Googlebot/2.1` is not a product token"),
            "{n}"
        );
        assert!(n.ends_with("pass `Googlebot` to match its groups"), "{n}");
        assert_eq!(agent_note(Dialect::Google, "Googlebot-Image"), None);
    }

    #[test]
    fn an_empty_or_tokenless_agent_matches_only_star_groups() {
        for d in Dialect::ALL {
            assert!(
                agent_note(d, "").unwrap().contains("only `*` groups"),
                "{d}"
            );
        }
        assert!(agent_note(Dialect::Rfc9309, "42bot")
            .unwrap()
            .contains("only `*` groups"));
    }
}
