//! The harnesses of the fuzz targets: one target per dialect for parsing
//! and matching, all feeding [`run`]; [`meta::run`] for META robots and
//! `X-Robots-Tag`; [`tools::lint`] and [`tools::audit`] for the site
//! owner's tools; [`fetch::run`] for a server's answer in the cache.
//!
//! [`run`]'s input layout: `body 0xFF agent 0xFF url 0xFF url ...`.
//! Everything before the first `0xFF` is the robots.txt body (so a plain
//! robots.txt file is a good seed as it is); the agent defaults to
//! `Googlebot` when absent. The agent is read as lossy UTF-8, the URLs as
//! the octets they are (the API for text is checked on those that are
//! UTF-8). Besides
//! the URLs given, every input is also checked against a few fixed URLs and
//! against URLs made from the first rules' own patterns, so that seeds
//! without URLs still reach the matcher.

use std::collections::HashSet;

use norobots::{DiagnosticKind, Dialect, ParseOptions, Robots, RuleKind};

pub mod crawl;
pub mod fetch;
pub mod meta;
pub mod tools;

/// The byte separating body, agent and URLs (never valid in UTF-8).
pub const SEPARATOR: u8 = 0xFF;

const MAX_URLS: usize = 8;
const FIXED_URLS: [&str; 8] = [
    "/",
    "/robots.txt",
    "https://example.com/robots.txt?x=1",
    "http://example.com/a/b;c?d=%2F#e",
    "//example.com/x/index.html",
    "?",
    "",
    "http://",
];

/// Parses `data` in `dialect`, builds a matcher, checks URLs and walks every
/// view, asserting what the API promises.
pub fn run(dialect: Dialect, data: &[u8]) {
    let mut parts = data.split(|&b| b == SEPARATOR);
    let body = parts.next().unwrap_or_default();
    let agent = parts.next().map_or_else(
        || "Googlebot".to_string(),
        |a| String::from_utf8_lossy(a).into_owned(),
    );
    let mut urls: Vec<Vec<u8>> = parts.take(MAX_URLS).map(<[u8]>::to_vec).collect();

    let robots = Robots::parse_with(body, &ParseOptions::new(dialect));
    assert_eq!(robots.dialect(), dialect);
    assert!(!robots.truncated());
    let rules = check_views(&robots, body.len());

    // URLs made from the first rules themselves, so that rules get matched.
    for group in robots.groups() {
        for rule in group.rules() {
            if urls.len() >= 3 * MAX_URLS {
                break;
            }
            urls.extend(urls_from_pattern(rule.pattern_bytes()));
        }
    }
    urls.extend(FIXED_URLS.iter().map(|u| u.as_bytes().to_vec()));

    let matcher = robots.matcher(&agent);
    assert_eq!(matcher.dialect(), dialect);
    // The matcher's pace is that of the groups `groups_for` lists, each
    // value from the first of them that gives it.
    let groups = robots.groups_for(&agent);
    let first_delay = groups.iter().find_map(|g| g.crawl_delay());
    assert_eq!(matcher.crawl_delay(), first_delay);
    let first_rate = groups.iter().find_map(|g| g.request_rate());
    assert_eq!(matcher.request_rate(), first_rate);
    let first_window = groups.iter().find_map(|g| g.visit_time());
    assert_eq!(matcher.visit_time(), first_window);
    for url in &urls {
        let verdict = matcher.check_bytes(url);
        let shown = String::from_utf8_lossy(url);
        assert_eq!(
            verdict.allowed,
            matcher.is_allowed_bytes(url),
            "check and is_allowed disagree on {shown:?}"
        );
        assert_eq!(
            verdict,
            matcher.check_bytes(url),
            "check is not deterministic on {shown:?}"
        );
        if let Ok(text) = std::str::from_utf8(url) {
            assert_eq!(verdict, matcher.check(text), "{text:?}: text and octets");
        }
        if matches!(dialect, Dialect::Draft1996 | Dialect::Rfc9309) {
            // Both compare an octet outside US-ASCII and its `%xx` escape as
            // one (draft 3.2.2 decodes, RFC 9309 2.2.2 encodes).
            let escaped = escape_non_ascii(url);
            assert_eq!(
                verdict,
                matcher.check(&escaped),
                "{shown:?} and {escaped:?} differ"
            );
        }
        let _ = verdict.to_string();
        match verdict.rule {
            Some(rule) => {
                assert_eq!(
                    verdict.allowed,
                    rule.kind == RuleKind::Allow,
                    "{shown:?}: {verdict}"
                );
                assert!(
                    rules.contains(&(rule.line, rule.kind, rule.pattern.to_string())),
                    "{shown:?}: the deciding rule {rule} is not one of the file's rules"
                );
                if dialect == Dialect::Norobots1994 {
                    assert_eq!(rule.kind, RuleKind::Disallow, "the 1994 text has no Allow");
                }
            }
            None => assert!(verdict.allowed, "{shown:?} disallowed without a rule"),
        }
        if rules.is_empty() {
            assert!(
                verdict.allowed && verdict.rule.is_none(),
                "{shown:?} decided without rules"
            );
        }
    }
    // One agent alone is the same matcher, by either door.
    let chain = robots.matcher_first_of(&[&agent]);
    assert_eq!(chain.names_robot(), matcher.names_robot());
    for url in &urls {
        assert_eq!(chain.check_bytes(url), matcher.check_bytes(url));
    }
    // The text API, for the URLs that are text.
    let text_urls: Vec<&str> = urls
        .iter()
        .filter_map(|u| std::str::from_utf8(u).ok())
        .collect();
    if let Some(url) = text_urls.first() {
        assert_eq!(robots.is_allowed(&agent, url), matcher.is_allowed(url));
        if dialect == Dialect::Rfc9309 {
            assert_eq!(
                norobots::is_allowed(body, &agent, url),
                matcher.is_allowed(url)
            );
        }
    }
    // The one-shot check reads the body itself: it must answer as the
    // matcher does, whatever the body.
    let options = ParseOptions::new(dialect);
    for url in &text_urls {
        assert_eq!(
            norobots::is_allowed_with(body, &options, &agent, url),
            matcher.is_allowed(url),
            "one-shot and matcher disagree on {url:?}"
        );
    }
    if matches!(dialect, Dialect::Draft1996 | Dialect::Rfc9309) {
        // Draft 3.1 and RFC 9309 2.2.2: /robots.txt is always allowed.
        for url in ["/robots.txt", "https://example.com/robots.txt?x=1"] {
            assert_eq!(matcher.check(url).rule, None, "{url}");
            assert!(matcher.is_allowed(url), "{url}");
        }
    }

    let token = norobots::product_token(&agent);
    assert!(agent.starts_with(token));
    assert!(token
        .bytes()
        .all(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'-'));
    // The robot's token is a token, and a part of what was passed.
    let robot = norobots::robot_token(&agent);
    assert!(agent.contains(robot));
    assert!(robot.is_empty() || norobots::is_product_token(robot));

    // A byte limit reads exactly the prefix, and says so.
    let limit = body.len() / 2;
    let cut = Robots::parse_with(body, &ParseOptions::new(dialect).max_bytes(limit));
    assert_eq!(cut.truncated(), body.len() > limit);
    assert_eq!(
        cut.truncated(),
        cut.diagnostics()
            .iter()
            .any(|d| d.kind == DiagnosticKind::BodyTruncated)
    );
    let prefix = Robots::parse_with(&body[..limit], &ParseOptions::new(dialect));
    assert_eq!(check_views(&cut, limit), check_views(&prefix, limit));
    if let Some(url) = text_urls.first() {
        let options = ParseOptions::new(dialect).max_bytes(limit);
        assert_eq!(
            norobots::is_allowed_with(body, &options, &agent, url),
            cut.matcher(&agent).is_allowed(url),
            "one-shot and matcher disagree on {url:?} under a byte limit"
        );
    }
}

/// The pattern with `*` filled in and a final `$` dropped, twice: with
/// octets outside US-ASCII percent-encoded, and as they are.
fn urls_from_pattern(pattern: &[u8]) -> [Vec<u8>; 2] {
    let pattern = pattern.strip_suffix(b"$").unwrap_or(pattern);
    let filled: Vec<u8> = pattern
        .iter()
        .map(|&b| if b == b'*' { b'x' } else { b })
        .collect();
    [escape_non_ascii(&filled).into_bytes(), filled]
}

/// `url` with each octet outside US-ASCII written as `%XX`.
fn escape_non_ascii(url: &[u8]) -> String {
    let mut escaped = String::with_capacity(url.len());
    for &b in url {
        match b {
            0x80.. => escaped.push_str(&format!("%{b:02X}")),
            _ => escaped.push(char::from(b)),
        }
    }
    escaped
}

/// Walks groups, rules, fields and diagnostics; returns every rule as
/// (line, kind, pattern).
fn check_views(robots: &Robots, body_len: usize) -> HashSet<(usize, RuleKind, String)> {
    let max_line = body_len + 1;
    let mut rules = HashSet::new();
    for group in robots.groups() {
        assert!((1..=max_line).contains(&group.line()));
        for agent in group.agents() {
            let _ = agent.len();
        }
        for rule in group.rules() {
            assert!(rule.line() >= group.line() && rule.line() <= max_line);
            assert_eq!(
                rule.pattern(),
                String::from_utf8_lossy(rule.pattern_bytes())
            );
            assert_eq!(rule.kind().to_string(), rule.kind().as_str());
            rules.insert((rule.line(), rule.kind(), rule.pattern().into_owned()));
        }
        // A `Duration`, so neither negative nor NaN; as seconds, a number.
        if let Some(delay) = group.crawl_delay() {
            assert!(delay.as_secs_f64() >= 0.0);
        }
        if let Some(rate) = group.request_rate() {
            assert!(rate.seconds > 0);
        }
        if let Some(time) = group.visit_time() {
            assert!(time.start_minute < 24 * 60 && time.end_minute < 24 * 60);
            let _ = time.contains(0);
        }
    }
    for field in robots
        .sitemaps()
        .chain(robots.hosts())
        .chain(robots.other_fields())
    {
        assert!((1..=max_line).contains(&field.line()));
        let _ = (field.name(), field.value());
    }
    let diagnostics = robots.diagnostics();
    assert!(
        diagnostics.windows(2).all(|w| w[0].line <= w[1].line),
        "diagnostics out of order"
    );
    for d in diagnostics {
        assert!(d.line <= max_line);
        let _ = d.to_string();
    }
    rules
}
