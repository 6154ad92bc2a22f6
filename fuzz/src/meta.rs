//! The harness of the `meta` target: a page and header values from a
//! stranger, read for one robot.
//!
//! Input layout: `html 0xFF agent 0xFF header 0xFF header ...`. Everything
//! before the first `0xFF` is the page (so an HTML file is a good seed as it
//! is); the agent defaults to `Googlebot`; at most eight header values.

use norobots::meta::{Directives, DocumentState, PageDirectives};

use crate::SEPARATOR;

const MAX_HEADERS: usize = 8;

/// The most other directives a [`Directives`] keeps (the module's promise).
const MAX_OTHER: usize = 64;

/// Reads `data` as a page and as header values, asserting what the `meta`
/// API promises.
pub fn run(data: &[u8]) {
    let mut parts = data.split(|&b| b == SEPARATOR);
    let html = parts.next().unwrap_or_default();
    let agent = parts.next().map_or_else(
        || "Googlebot".to_string(),
        |a| String::from_utf8_lossy(a).into_owned(),
    );
    let headers: Vec<String> = parts
        .take(MAX_HEADERS)
        .map(|h| String::from_utf8_lossy(h).into_owned())
        .collect();

    let page = PageDirectives::from_html(html, &agent);
    assert_eq!(
        page,
        PageDirectives::from_html(html, &agent),
        "from_html is not deterministic"
    );
    check_other(&page.other);
    for link in &page.links {
        assert_eq!(
            link.href,
            link.href.trim_ascii(),
            "a link's href keeps surrounding white space"
        );
    }

    // The page's own text, read as a tag's content and as a header value.
    let text = String::from_utf8_lossy(html);
    let content = Directives::parse_content(&text);
    check_other(&content.other);
    let _ = DocumentState::parse(&text);
    let from_text = Directives::parse_header(&text, &agent);
    check_other(&from_text.other);

    let headed = PageDirectives::from_headers(headers.iter().map(String::as_str), &agent);
    check_other(&headed.other);
    // Each header restricts at least as much as it does alone, and the
    // whole restricts no more than its parts together.
    let mut merged = Directives::default();
    for header in &headers {
        let one = Directives::parse_header(header, &agent);
        check_other(&one.other);
        if one.noindex {
            assert!(!headed.index, "a header's noindex was lost");
        }
        if one.nofollow {
            assert!(!headed.follow, "a header's nofollow was lost");
        }
        merged.merge(one);
    }
    assert_eq!(PageDirectives::from(merged), headed);

    // Combining: the restrictive term wins, links are concatenated, and the
    // metadata comes from the first side that has it.
    let both = headed.clone().combine(page.clone());
    assert_eq!(both.index, headed.index && page.index);
    assert_eq!(both.follow, headed.follow && page.follow);
    assert_eq!(both.links.len(), headed.links.len() + page.links.len());
    assert_eq!(both.document_state, page.document_state);
    assert_eq!(both.url, page.url);
    check_other(&both.other);
}

/// Other directives are kept once each (ignoring case), trimmed, and at
/// most [`MAX_OTHER`] of them.
fn check_other(other: &[String]) {
    assert!(
        other.len() <= MAX_OTHER,
        "{} other directives kept",
        other.len()
    );
    for (i, a) in other.iter().enumerate() {
        assert!(!a.is_empty(), "an empty directive was kept");
        assert_eq!(a.as_str(), a.trim_ascii(), "a directive keeps white space");
        for b in &other[..i] {
            assert!(!a.eq_ignore_ascii_case(b), "{a:?} kept twice");
        }
    }
}
