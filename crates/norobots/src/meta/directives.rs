//! The directive lists of a robots meta tag's `CONTENT` and of an
//! `X-Robots-Tag` header value, and how lists combine.

use crate::agent::robot_token;

/// At most this many other directives are kept: a page may repeat meta tags
/// without end, and what it keeps must not grow with the page.
const MAX_OTHER: usize = 64;

/// Names that are directives, so that `name:` before them in a header is
/// never read as an agent prefix (`unavailable_after: 25 Jun 2010`).
const KNOWN_DIRECTIVES: &[&str] = &[
    "all",
    "none",
    "index",
    "noindex",
    "follow",
    "nofollow",
    "noarchive",
    "nocache",
    "nosnippet",
    "noodp",
    "noydir",
    "notranslate",
    "noimageindex",
    "indexifembedded",
    "unavailable_after",
    "max-snippet",
    "max-image-preview",
    "max-video-preview",
];

/// The directives of one or more robots meta tags or `X-Robots-Tag` values,
/// for one agent.
///
/// The six terms of the robots FAQ (seed 003) become the two flags; every
/// other directive (`noarchive`, `max-snippet:20`, …) is kept in
/// [`other`](Directives::other) as written. Combining is restrictive: once a
/// term says `NOINDEX` or `NOFOLLOW`, no `INDEX`, `FOLLOW` or `ALL` undoes it.
///
/// ```
/// use norobots::meta::Directives;
///
/// let d = Directives::parse_content("NOINDEX, follow, noarchive");
/// assert!(d.noindex);
/// assert!(!d.nofollow);
/// assert_eq!(d.other, ["noarchive"]);
/// assert_eq!(Directives::default(), Directives::parse_content("ALL"));
/// # #[cfg(feature = "serde")]
/// assert_eq!(
///     serde_json::to_string(&d).unwrap(),
///     r#"{"noindex":true,"nofollow":false,"other":["noarchive"]}"#
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Directives {
    /// `NOINDEX` or `NONE` was given: the page must not be indexed.
    pub noindex: bool,
    /// `NOFOLLOW` or `NONE` was given: the page's links must not be followed.
    pub nofollow: bool,
    /// Directives other than the FAQ's six, as written (trimmed), first
    /// occurrence only (compared case-insensitively), at most 64.
    pub other: Vec<String>,
}

/// One of the robots FAQ's six terms, by its effect.
enum Term {
    /// `ALL`, `INDEX`, `FOLLOW`: what holds anyway, so they restrict nothing.
    Permissive,
    NoIndex,
    NoFollow,
    None,
}

impl Directives {
    /// Reads the `CONTENT` of a `<meta name="robots">` (or agent-named) tag.
    ///
    /// Terms are separated by commas, white space or both and compared
    /// case-insensitively; empty content means `ALL` (robots FAQ, seed 003).
    /// A `name: value` item (`max-snippet: 20`) is one other directive.
    ///
    /// ```
    /// use norobots::meta::Directives;
    ///
    /// let d = Directives::parse_content("noindex nofollow");
    /// assert!(d.noindex && d.nofollow);
    /// assert!(Directives::parse_content("None").noindex);
    /// assert_eq!(Directives::parse_content(""), Directives::default());
    /// ```
    pub fn parse_content(content: &str) -> Directives {
        let mut out = Directives::default();
        for segment in Segments::new(content) {
            out.add_segment(segment);
        }
        out
    }

    /// Reads one `X-Robots-Tag` header value, keeping what applies to
    /// `agent`.
    ///
    /// An item may start with an agent prefix (`googlebot: noindex`): it and
    /// the items after it, up to the next prefix, apply only to the robot
    /// whose robot token ([`robot_token`] of
    /// `agent`, so a browser-shaped header names its robot) equals the prefix, ignoring case. Items before any prefix
    /// apply to every robot. A known directive that takes a value
    /// (`unavailable_after: …`, `max-snippet: …`) is not a prefix.
    ///
    /// ```
    /// use norobots::meta::Directives;
    ///
    /// let d = Directives::parse_header("noarchive, googlebot: noindex, nofollow", "Googlebot/2.1");
    /// assert!(d.noindex && d.nofollow);
    /// assert_eq!(d.other, ["noarchive"]);
    ///
    /// let d = Directives::parse_header("googlebot: noindex", "bingbot");
    /// assert_eq!(d, Directives::default());
    /// ```
    pub fn parse_header(value: &str, agent: &str) -> Directives {
        let token = robot_token(agent);
        let mut out = Directives::default();
        let mut applies = true;
        for segment in Segments::new(value) {
            let segment = match agent_prefix(segment) {
                Some((name, rest)) => {
                    applies = !token.is_empty() && name.eq_ignore_ascii_case(token);
                    rest
                }
                None => segment,
            };
            if applies {
                out.add_segment(segment);
            }
        }
        out
    }

    /// Adds `other`'s directives to these; the restrictive term wins.
    ///
    /// ```
    /// use norobots::meta::Directives;
    ///
    /// let mut d = Directives::parse_content("index, follow");
    /// d.merge(Directives::parse_content("noindex"));
    /// assert!(d.noindex);
    /// assert!(!d.nofollow);
    /// ```
    pub fn merge(&mut self, other: Directives) {
        self.noindex |= other.noindex;
        self.nofollow |= other.nofollow;
        for directive in other.other {
            self.add_other(&directive);
        }
    }

    /// One comma-separated item, agent prefix already removed.
    fn add_segment(&mut self, segment: &str) {
        let segment = segment.trim_ascii();
        let words = match valued_name(segment) {
            Some((name, value)) => {
                let end = segment.len() - value.len() + value_len(name, value);
                self.add_other(&segment[..end]);
                &segment[end..]
            }
            None => segment,
        };
        for word in words.split_ascii_whitespace() {
            self.add_word(word);
        }
    }

    fn add_word(&mut self, word: &str) {
        match term(word) {
            Some(Term::Permissive) => {}
            Some(Term::NoIndex) => self.noindex = true,
            Some(Term::NoFollow) => self.nofollow = true,
            Some(Term::None) => {
                self.noindex = true;
                self.nofollow = true;
            }
            None => self.add_other(word),
        }
    }

    fn add_other(&mut self, directive: &str) {
        let known = self
            .other
            .iter()
            .any(|kept| kept.eq_ignore_ascii_case(directive));
        if !known && self.other.len() < MAX_OTHER {
            self.other.push(directive.to_owned());
        }
    }
}

fn term(word: &str) -> Option<Term> {
    const TERMS: [(&str, Term); 6] = [
        ("all", Term::Permissive),
        ("index", Term::Permissive),
        ("follow", Term::Permissive),
        ("noindex", Term::NoIndex),
        ("nofollow", Term::NoFollow),
        ("none", Term::None),
    ];
    TERMS
        .into_iter()
        .find(|(name, _)| word.eq_ignore_ascii_case(name))
        .map(|(_, term)| term)
}

/// The `name` of a `name: value` item, a word of letters, digits, `-`, `_`
/// or `.` before the first colon, and what follows the colon.
fn valued_name(segment: &str) -> Option<(&str, &str)> {
    let (name, value) = segment.split_once(':')?;
    let name = name.trim_ascii();
    let is_word = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    is_word.then_some((name, value))
}

/// How much of `value` belongs to directive `name`: a date, with its
/// spaces, for `unavailable_after`; otherwise one word, so that a term
/// after it (`max-snippet: 20 noindex`) still counts.
fn value_len(name: &str, value: &str) -> usize {
    if name.eq_ignore_ascii_case("unavailable_after") {
        return value.len();
    }
    let word = value.trim_ascii_start();
    let spaces = value.len() - word.len();
    spaces
        + word
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(word.len())
}

/// An agent prefix and the rest of the item: a `name:` that is no known
/// directive. A name with digits (`360Spider`) never equals a product token,
/// but it still ends the scope of the prefix before it.
fn agent_prefix(segment: &str) -> Option<(&str, &str)> {
    let (name, rest) = valued_name(segment.trim_ascii())?;
    let is_agent = !KNOWN_DIRECTIVES
        .iter()
        .any(|known| name.eq_ignore_ascii_case(known));
    is_agent.then_some((name, rest))
}

/// The comma-separated items of a list. `unavailable_after` takes a date,
/// which may itself hold a comma (`Friday, 25-Jun-10 15:00:00 PST`, the
/// RFC 850 form): an item after it that starts with a digit continues it.
struct Segments<'a> {
    rest: Option<&'a str>,
}

impl<'a> Segments<'a> {
    fn new(list: &'a str) -> Self {
        Segments { rest: Some(list) }
    }
}

impl<'a> Iterator for Segments<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let text = self.rest?;
        let mut end = text.find(',').unwrap_or(text.len());
        if contains_ignore_case(&text[..end], "unavailable_after") {
            while let Some(after) = text.get(end + 1..) {
                if !after
                    .trim_ascii_start()
                    .starts_with(|c: char| c.is_ascii_digit())
                {
                    break;
                }
                end += 1 + after.find(',').unwrap_or(after.len());
            }
        }
        self.rest = text.get(end + 1..);
        Some(&text[..end])
    }
}

fn contains_ignore_case(haystack: &str, needle: &str) -> bool {
    haystack
        .as_bytes()
        .windows(needle.len())
        .any(|window| window.eq_ignore_ascii_case(needle.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(d: &Directives) -> (bool, bool) {
        (d.noindex, d.nofollow)
    }

    // Seed 003 (robots FAQ): "<META NAME="ROBOTS" CONTENT="NOINDEX">" — the
    // document won't be indexed.
    #[test]
    fn faq_noindex_forbids_indexing_only() {
        assert_eq!(flags(&Directives::parse_content("NOINDEX")), (true, false));
    }

    // Seed 003: with NOFOLLOW "the links in that document will not be parsed
    // by the robot".
    #[test]
    fn faq_nofollow_forbids_following_only() {
        assert_eq!(flags(&Directives::parse_content("NOFOLLOW")), (false, true));
    }

    // Seed 003: "NONE" = NOINDEX, NOFOLLOW.
    #[test]
    fn faq_none_is_noindex_nofollow() {
        assert_eq!(flags(&Directives::parse_content("NONE")), (true, true));
    }

    // Seed 003: "ALL" = INDEX, FOLLOW; so are INDEX and FOLLOW alone.
    #[test]
    fn faq_all_index_follow_restrict_nothing() {
        for content in ["ALL", "INDEX", "FOLLOW", "INDEX,FOLLOW"] {
            assert_eq!(Directives::parse_content(content), Directives::default());
        }
    }

    // Seed 003: an empty or missing robot_terms means INDEX, FOLLOW (ALL).
    #[test]
    fn faq_empty_content_is_all() {
        for content in ["", "   ", ",", " , ,"] {
            assert_eq!(Directives::parse_content(content), Directives::default());
        }
    }

    // Seed 003: the terms are case-insensitive.
    #[test]
    fn faq_terms_are_case_insensitive() {
        assert_eq!(
            flags(&Directives::parse_content("NoIndex,nOfOlLoW")),
            (true, true)
        );
        assert_eq!(flags(&Directives::parse_content("nOnE")), (true, true));
    }

    // Seed 003: on conflicting terms (FOLLOW, NOFOLLOW) the restrictive one
    // wins, whatever the order.
    #[test]
    fn faq_conflict_restrictive_wins() {
        for content in [
            "follow, nofollow",
            "nofollow, follow",
            "all, none",
            "none, all",
        ] {
            assert!(Directives::parse_content(content).nofollow, "{content}");
        }
        assert!(Directives::parse_content("index,noindex").noindex);
    }

    // Seed 003 gives a comma-separated list; pages also separate with
    // spaces, or both.
    #[test]
    fn faq_list_separators_comma_and_space() {
        for content in [
            "noindex,nofollow",
            "noindex nofollow",
            " noindex ,\tnofollow ",
            "noindex,,nofollow",
        ] {
            assert_eq!(
                flags(&Directives::parse_content(content)),
                (true, true),
                "{content}"
            );
        }
    }

    #[test]
    fn unknown_terms_are_other_directives_not_errors() {
        let d = Directives::parse_content("noarchive, NOSNIPPET, max-snippet:20, noindex");
        assert_eq!(d.other, ["noarchive", "NOSNIPPET", "max-snippet:20"]);
        assert!(d.noindex);
    }

    #[test]
    fn valued_directive_with_space_is_one_item() {
        let d = Directives::parse_content("max-image-preview: large, nofollow");
        assert_eq!(d.other, ["max-image-preview: large"]);
        assert!(d.nofollow);
    }

    // A value is one word, so a restrictive term after it is not lost.
    #[test]
    fn valued_directive_takes_one_word() {
        let d = Directives::parse_content("max-snippet:20 none");
        assert_eq!(d.other, ["max-snippet:20"]);
        assert_eq!(flags(&d), (true, true));
        let d = Directives::parse_header("googlebot: max-snippet: 20 noindex", "googlebot");
        assert_eq!(d.other, ["max-snippet: 20"]);
        assert!(d.noindex);
    }

    #[test]
    fn other_directives_are_deduplicated_and_capped() {
        let d = Directives::parse_content("noarchive, NOARCHIVE, noarchive");
        assert_eq!(d.other, ["noarchive"]);
        let many: Vec<String> = (0..200).map(|i| format!("x{i}")).collect();
        assert_eq!(
            Directives::parse_content(&many.join(",")).other.len(),
            MAX_OTHER
        );
    }

    // Header documentation (Google's robots meta tag and X-Robots-Tag page):
    // `X-Robots-Tag: noindex` applies to every crawler.
    #[test]
    fn header_without_prefix_applies_to_every_agent() {
        let d = Directives::parse_header("noindex", "AnyBot/1.0");
        assert_eq!(flags(&d), (true, false));
    }

    // Header documentation: `X-Robots-Tag: googlebot: nofollow` applies to
    // Googlebot only; user agent names are not case sensitive.
    #[test]
    fn header_agent_prefix_applies_to_that_agent_only() {
        assert!(Directives::parse_header("googlebot: nofollow", "Googlebot/2.1").nofollow);
        assert!(Directives::parse_header("GOOGLEBOT:nofollow", "googlebot").nofollow);
        assert!(!Directives::parse_header("googlebot: nofollow", "bingbot/2.0").nofollow);
        // The whole token must match, not a prefix of it.
        assert!(!Directives::parse_header("googlebot: nofollow", "Googlebot-News").nofollow);
    }

    // Header documentation: `X-Robots-Tag: otherbot: noindex, nofollow`
    // gives both directives to otherbot.
    #[test]
    fn header_agent_prefix_covers_following_items() {
        assert_eq!(
            flags(&Directives::parse_header(
                "otherbot: noindex, nofollow",
                "otherbot"
            )),
            (true, true)
        );
        assert_eq!(
            flags(&Directives::parse_header(
                "otherbot: noindex, nofollow",
                "mybot"
            )),
            (false, false)
        );
        let d = Directives::parse_header("nofollow, a: noindex, b: noarchive", "b");
        assert_eq!(flags(&d), (false, true));
        assert_eq!(d.other, ["noarchive"]);
    }

    // Header documentation: `X-Robots-Tag: unavailable_after: 25 Jun 2010
    // 15:00:00 PST` is a directive with a value, not an agent.
    #[test]
    fn header_valued_directives_are_not_agents() {
        let d = Directives::parse_header("unavailable_after: 25 Jun 2010 15:00:00 PST", "bot");
        assert_eq!(d.other, ["unavailable_after: 25 Jun 2010 15:00:00 PST"]);
        let d = Directives::parse_header("max-snippet: 20, noindex", "bot");
        assert_eq!(d.other, ["max-snippet: 20"]);
        assert!(d.noindex);
    }

    #[test]
    fn header_rfc850_date_keeps_its_comma() {
        let d = Directives::parse_header(
            "unavailable_after: Friday, 25-Jun-10 15:00:00 PST, noindex",
            "bot",
        );
        assert_eq!(
            d.other,
            ["unavailable_after: Friday, 25-Jun-10 15:00:00 PST"]
        );
        assert!(d.noindex);
    }

    #[test]
    fn header_agent_without_product_token_matches_no_prefix() {
        let d = Directives::parse_header("noarchive, 42bot: noindex", "42bot");
        assert!(!d.noindex);
        assert_eq!(d.other, ["noarchive"]);
    }

    #[test]
    fn merge_is_restrictive_and_keeps_other_once() {
        let mut d = Directives::parse_content("nofollow, noarchive");
        d.merge(Directives::parse_content("noindex, NOARCHIVE, nosnippet"));
        assert_eq!(flags(&d), (true, true));
        assert_eq!(d.other, ["noarchive", "nosnippet"]);
    }
}
