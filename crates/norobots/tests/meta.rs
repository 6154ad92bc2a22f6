//! `norobots::meta`: META robots, `X-Robots-Tag` and `rel="nofollow"`.
//!
//! The properties at the top need no HTML: random directive lists, split
//! over meta contents and header values, must give what the robots FAQ's
//! rule (seed 003) gives when applied by hand: `NOINDEX` or `NONE` anywhere
//! forbids indexing, `NOFOLLOW` or `NONE` anywhere forbids following,
//! nothing else restricts. The `html` module (feature `html`) feeds real-world
//! markup to [`PageDirectives::from_html`]: quoting, entities, comments,
//! scripts, broken markup, invalid UTF-8, random bytes and a 20 MB page.

use norobots::meta::{Directives, PageDirectives};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::Config;

/// Failures are not persisted: a failing case found here is kept as a named
/// `#[test]` instead.
fn config() -> Config {
    Config {
        failure_persistence: None,
        ..Config::default()
    }
}

const TERMS: [&str; 9] = [
    "all",
    "none",
    "index",
    "noindex",
    "follow",
    "nofollow",
    "noarchive",
    "nosnippet",
    "max-snippet:20",
];

/// A term with each letter's case chosen by `mask`.
fn with_case(term: &str, mask: u32) -> String {
    term.chars()
        .enumerate()
        .map(|(i, c)| {
            if mask >> (i % 32) & 1 == 1 {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect()
}

/// Terms (index into [`TERMS`], case mask) joined by random separators.
fn render_list(terms: &[(usize, u32)], separators: &[&str]) -> String {
    let mut out = String::new();
    for (k, &(term, mask)) in terms.iter().enumerate() {
        if k > 0 {
            out.push_str(separators[k % separators.len()]);
        }
        out.push_str(&with_case(TERMS[term], mask));
    }
    out
}

/// The FAQ's rule applied by hand: (noindex, nofollow).
fn naive(terms: &[(usize, u32)]) -> (bool, bool) {
    let has = |name: &str| terms.iter().any(|&(t, _)| TERMS[t] == name);
    (
        has("noindex") || has("none"),
        has("nofollow") || has("none"),
    )
}

fn term_list() -> impl Strategy<Value = Vec<(usize, u32)>> {
    prop::collection::vec((0..TERMS.len(), any::<u32>()), 0..12)
}

fn separators() -> impl Strategy<Value = Vec<&'static str>> {
    prop::collection::vec(select(vec![",", ", ", " ", " ,\t", ",,", "  "]), 1..4)
}

proptest! {
    #![proptest_config(config())]

    /// One content list: the naive rule, and every unknown term kept.
    #[test]
    fn content_list_follows_naive_rule(terms in term_list(), seps in separators()) {
        let d = Directives::parse_content(&render_list(&terms, &seps));
        prop_assert_eq!((d.noindex, d.nofollow), naive(&terms));
        let unknown = terms.iter().filter(|&&(t, _)| t >= 6).map(|&(t, _)| t);
        let mut distinct: Vec<usize> = unknown.collect();
        distinct.sort_unstable();
        distinct.dedup();
        prop_assert_eq!(d.other.len(), distinct.len());
    }

    /// The same terms split over several meta tags or header values give the
    /// same flags, whatever the split: restrictive wins across sources.
    #[test]
    fn split_lists_combine_as_one(terms in term_list(), cuts in prop::collection::vec(any::<bool>(), 12)) {
        let mut parts: Vec<Vec<(usize, u32)>> = vec![Vec::new()];
        for (k, &term) in terms.iter().enumerate() {
            if cuts[k] {
                parts.push(Vec::new());
            }
            if let Some(last) = parts.last_mut() {
                last.push(term);
            }
        }
        let rendered: Vec<String> = parts.iter().map(|p| render_list(p, &[", "])).collect();
        let mut merged = Directives::default();
        for part in &rendered {
            merged.merge(Directives::parse_content(part));
        }
        let headers = PageDirectives::from_headers(rendered.iter().map(String::as_str), "AnyBot/1.0");
        prop_assert_eq!((merged.noindex, merged.nofollow), naive(&terms));
        prop_assert_eq!((!headers.index, !headers.follow), naive(&terms));
    }

    /// Any text, as content or header value, parses without panicking, and
    /// the other directives stay bounded.
    #[test]
    fn any_text_parses(text in "[a-zA-Z_:, \t\u{e9}\u{FFFD}0-9-]{0,80}|\\PC{0,80}", agent in "\\PC{0,12}") {
        prop_assert!(Directives::parse_content(&text).other.len() <= 64);
        prop_assert!(Directives::parse_header(&text, &agent).other.len() <= 64);
    }

    /// Header items under agent prefixes: an item counts when no prefix
    /// precedes it in its value or the last prefix names the caller.
    #[test]
    fn header_prefixes_scope_items(
        items in prop::collection::vec((select(vec![None, Some("testbot"), Some("OTHERBOT"), Some("TestBot")]), 0..TERMS.len()), 0..10),
    ) {
        let mut value = Vec::new();
        let mut scope: Option<&str> = None;
        let mut applying = Vec::new();
        for &(prefix, term) in &items {
            match prefix {
                Some(agent) => {
                    scope = Some(agent);
                    value.push(format!("{agent}: {}", TERMS[term]));
                }
                None => value.push(TERMS[term].to_owned()),
            }
            if scope.is_none_or(|agent| agent.eq_ignore_ascii_case("testbot")) {
                applying.push((term, 0));
            }
        }
        let d = Directives::parse_header(&value.join(", "), "TestBot/2.0");
        prop_assert_eq!((d.noindex, d.nofollow), naive(&applying));
    }
}

// The header documentation's own examples, as one response.
#[test]
fn header_documented_examples() {
    let headers = [
        "noindex",
        "googlebot: nofollow",
        "otherbot: noindex, nofollow",
        "unavailable_after: 25 Jun 2010 15:00:00 PST",
        "max-snippet: 20, noarchive",
    ];
    let google = PageDirectives::from_headers(headers, "Googlebot/2.1");
    assert!(!google.index && !google.follow);
    assert_eq!(
        google.other,
        [
            "unavailable_after: 25 Jun 2010 15:00:00 PST",
            "max-snippet: 20",
            "noarchive"
        ]
    );
    let bing = PageDirectives::from_headers(headers, "bingbot/2.0");
    assert!(!bing.index && bing.follow);
}

#[cfg(feature = "html")]
#[path = "support/alloc.rs"]
mod alloc;

#[cfg(feature = "html")]
mod html {
    use std::time::Duration;

    use super::alloc::measure;

    use norobots::meta::{DocumentState, Link, PageDirectives};
    use proptest::prelude::*;
    use proptest::sample::select;

    use super::{config, naive, render_list, term_list, TERMS};

    fn page(html: &str) -> PageDirectives {
        PageDirectives::from_html(html.as_bytes(), "TestBot/1.0")
    }

    fn flags(html: &str) -> (bool, bool) {
        let p = page(html);
        (p.index, p.follow)
    }

    fn hrefs(p: &PageDirectives) -> Vec<(&str, bool)> {
        p.links
            .iter()
            .map(|l| (l.href.as_str(), l.nofollow))
            .collect()
    }

    // -----------------------------------------------------------------------
    // Attributes

    #[test]
    fn attributes_in_any_order_and_case() {
        for html in [
            r#"<meta name="robots" content="noindex">"#,
            r#"<meta content="noindex" name="robots">"#,
            r#"<META CONTENT="NOINDEX" NAME="ROBOTS">"#,
            r#"<Meta Name="Robots" Content="NoIndex" />"#,
            r#"<meta charset=utf-8 name=robots lang=en content=noindex>"#,
            "<meta\nname\n=\n\"robots\"\tcontent=noindex>",
        ] {
            assert_eq!(flags(html), (false, true), "{html}");
        }
    }

    #[test]
    fn double_single_and_no_quotes() {
        for html in [
            r#"<meta name="robots" content="noindex,nofollow">"#,
            r#"<meta name='robots' content='noindex,nofollow'>"#,
            r#"<meta name=robots content=noindex,nofollow>"#,
            r#"<meta name=robots content="noindex, nofollow"/>"#,
            r#"<meta name = " robots " content = ' noindex nofollow '>"#,
        ] {
            assert_eq!(flags(html), (false, false), "{html}");
        }
    }

    #[test]
    fn entities_are_decoded_in_attribute_values() {
        for html in [
            r#"<meta name="robots" content="no&#105;ndex">"#,
            r#"<meta name="robots" content="&#x6E;oindex">"#,
            r#"<meta name="rob&#111;ts" content="noindex">"#,
            r#"<meta name="robots" content="index&comma;noindex">"#,
        ] {
            assert_eq!(flags(html), (false, true), "{html}");
        }
        let p = page(
            r#"<a href="/?a=1&amp;b=2">x</a><a href="/?a=1&copy=2">y</a><a href="/?&lt;">z</a>"#,
        );
        // `&copy=` stays as written in an attribute: the standard's legacy
        // rule for a named reference without `;` followed by `=`.
        assert_eq!(
            hrefs(&p),
            [
                ("/?a=1&b=2", false),
                ("/?a=1&copy=2", false),
                ("/?<", false)
            ]
        );
    }

    #[test]
    fn first_of_duplicate_attributes_counts() {
        assert!(!page(r#"<meta name="robots" name="x" content="noindex">"#).index);
        assert!(page(r#"<meta name="x" name="robots" content="noindex">"#).index);
        assert!(page(r#"<meta name="robots" content="index" content="noindex">"#).index);
    }

    // -----------------------------------------------------------------------
    // Where a meta tag counts

    #[test]
    fn meta_counts_anywhere_in_document() {
        for html in [
            r#"<html><body><p>text<meta name="robots" content="noindex"></p></body></html>"#,
            r#"<html><body></body></html><meta name="robots" content="noindex">"#,
            r#"<meta name="robots" content="noindex">"#,
            r#"<table><tr><td><meta name="robots" content="noindex"></table>"#,
            r#"<noscript><meta name="robots" content="noindex"></noscript>"#,
        ] {
            assert!(!page(html).index, "{html}");
        }
    }

    #[test]
    fn meta_inside_comment_does_not_count() {
        for html in [
            r#"<!-- <meta name="robots" content="noindex"> -->"#,
            "<!--\n<meta name=\"robots\" content=\"noindex\">\n-- -->",
            r#"<!-- --!><meta name="robots" content="nofollow"><!-- <meta name="robots" content="noindex"> -->"#,
            r#"<![CDATA[<meta name="robots" content="noindex">]]>"#,
            r#"<!-- unterminated <meta name="robots" content="noindex">"#,
        ] {
            assert!(page(html).index, "{html}");
        }
        // `--!>` and `<!-->` end a comment, as in browsers.
        assert!(!page(r#"<!-- --!><meta name="robots" content="noindex">"#).index);
        assert!(!page(r#"<!--><meta name="robots" content="noindex">"#).index);
    }

    #[test]
    fn meta_inside_script_or_style_does_not_count() {
        for html in [
            r#"<script>document.write('<meta name="robots" content="noindex">');</script>"#,
            r#"<script type="text/template"><meta name="robots" content="noindex"></script>"#,
            r#"<script><!--<script></script><meta name="robots" content="noindex">--></script>"#,
            r#"<style>/* <meta name="robots" content="noindex"> */</style>"#,
            r#"<SCRIPT>if (a </SCRIPTX> b) { "<meta name=robots content=noindex>" }</SCRIPT >"#,
            r#"<iframe><meta name="robots" content="noindex"></iframe>"#,
            r#"<plaintext><meta name="robots" content="noindex">"#,
            r#"<svg><![CDATA[<meta name="robots" content="noindex">]]></svg>"#,
        ] {
            assert!(page(html).index, "{html}");
        }
        let after = r#"<script>var s = "<meta>";</script><meta name="robots" content="noindex">"#;
        assert!(!page(after).index);
    }

    #[test]
    fn broken_markup() {
        // A tag cut by the end of the document is no tag.
        assert!(page(r#"<meta name="robots" content="noindex""#).index);
        // `<` inside a tag starts an attribute name: this is a `<div>` whose
        // attributes are `<meta`, `name` and `content`, as in browsers.
        assert!(page(r#"<div <meta name="robots" content="noindex">"#).index);
        for html in [
            r#"<p><b>unclosed <i><meta name="robots" content="noindex"><a href=/x>"#,
            r#"</meta><meta name="robots" content="noindex"></p></p>"#,
            r#"<meta name="robots" content="noindex" <a href="/y">"#,
            "\u{feff}<meta name=robots content=noindex>",
            "<meta name=robots\0 content=noindex><meta name=robots content=noindex>",
            "<<<>>><meta name=robots content=noindex>&&&;",
        ] {
            assert!(!page(html).index, "{html}");
        }
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        let html = b"\xff\xfe<meta name=robots content=noindex>\xc3<meta name=description content=caf\xe9>\xe2\x82";
        let p = PageDirectives::from_html(html, "TestBot");
        assert!(!p.index);
        assert_eq!(p.description.as_deref(), Some("caf\u{FFFD}"));
    }

    // -----------------------------------------------------------------------
    // Agents, metadata, links

    #[test]
    fn agent_meta_combines_with_robots_meta() {
        let html = r#"<meta name="robots" content="nofollow"><meta name="TESTBOT" content="noindex, follow">
                      <meta name="otherbot" content="none">"#;
        assert_eq!(flags(html), (false, false));
        let other = PageDirectives::from_html(html.as_bytes(), "OtherBot/3.0");
        assert_eq!((other.index, other.follow), (false, false));
        let third = PageDirectives::from_html(html.as_bytes(), "ThirdBot");
        assert_eq!((third.index, third.follow), (true, false));
    }

    #[test]
    fn other_directives_and_metadata_are_kept() {
        let p = page(
            r#"<meta name=robots content="noarchive, max-snippet:20">
               <meta name="keywords" content="a, b"><meta name="description" content="D &amp; E">
               <meta name="DOCUMENT-STATE" content="dynamic"><meta name="URL" content="http://x/">"#,
        );
        assert!(p.index && p.follow);
        assert_eq!(p.other, ["noarchive", "max-snippet:20"]);
        assert_eq!(p.keywords.as_deref(), Some("a, b"));
        assert_eq!(p.description.as_deref(), Some("D & E"));
        assert_eq!(p.document_state, Some(DocumentState::Dynamic));
        assert_eq!(p.url.as_deref(), Some("http://x/"));
    }

    #[test]
    fn links_report_href_and_nofollow() {
        let p = page(
            r#"<a href="/plain">1</a>
               <A HREF='/upper' REL=NOFOLLOW>2</A>
               <a rel="noopener nofollow  ugc" href=" /spaced ">3</a>
               <a rel="nofollowed" href="/not">4</a>
               <a name="anchor-only">5</a>
               <link rel="nofollow" href="/link-element">
               <a href="">6</a>"#,
        );
        assert_eq!(
            hrefs(&p),
            [
                ("/plain", false),
                ("/upper", true),
                ("/spaced", true),
                ("/not", false),
                ("", false)
            ]
        );
        let followable: Vec<&Link> = p.links.iter().filter(|l| p.may_follow(l)).collect();
        assert_eq!(followable.len(), 3);
    }

    #[test]
    fn links_in_comments_and_scripts_are_not_links() {
        let p = page(r#"<!-- <a href="/c"> --><script>"<a href='/s'>"</script><a href="/real">"#);
        assert_eq!(hrefs(&p), [("/real", false)]);
    }

    #[test]
    fn headers_and_html_combine() {
        let headers = PageDirectives::from_headers(["testbot: nofollow"], "TestBot/1.0");
        let html = page(r#"<meta name=robots content=noarchive><a href=/a>a</a>"#);
        let both = headers.combine(html);
        assert!(both.index && !both.follow);
        assert_eq!(both.other, ["noarchive"]);
        assert_eq!(both.links.len(), 1);
        assert!(!both.may_follow(&both.links[0]));
    }

    // -----------------------------------------------------------------------
    // Size

    /// About 1 KB of ordinary page, with one link, a comment, a script and a
    /// style whose text holds meta tags that must not count.
    fn block(i: usize) -> String {
        format!(
            "<div class=\"post\"><h2>Title {i}</h2><p>Some text &amp; more text, \
             <b>bold</b> and <i>italic</i> words. {filler}</p>\n\
             <a href=\"/post/{i}?a=1&amp;b=2\" rel=\"nofollow\">read more</a>\n\
             <!-- <meta name=\"robots\" content=\"noindex\"> -->\n\
             <script>var t = '<meta name=\"robots\" content=\"noindex\">'; if (a < b) {{ x(); }}</script>\n\
             <style>p {{ color: red }} /* <meta name=robots content=noindex> */</style></div>\n",
            filler = "lorem ipsum dolor sit amet ".repeat(20),
        )
    }

    #[test]
    fn twenty_megabyte_page_is_bounded_in_time_and_memory() {
        const SIZE: usize = 20 << 20;
        let mut html = String::with_capacity(SIZE + 2048);
        html.push_str("<!doctype html><html><head><title>big</title></head><body>\n");
        let mut blocks = 0;
        while html.len() < SIZE {
            html.push_str(&block(blocks));
            blocks += 1;
        }
        // At the very end: the whole page is read.
        html.push_str("<meta name=robots content=nofollow></body></html>");

        let (p, elapsed, held) = measure(|| PageDirectives::from_html(html.as_bytes(), "TestBot"));
        let links_bytes: usize = p
            .links
            .iter()
            .map(|l| std::mem::size_of::<Link>() + l.href.len())
            .sum();
        eprintln!(
            "{} B, {blocks} links: {elapsed:?}, {held} B held ({links_bytes} B of links)",
            html.len()
        );
        assert!(p.index && !p.follow);
        assert_eq!(p.links.len(), blocks);
        assert!(p.links.iter().all(|l| l.nofollow));
        assert_eq!(
            p.links[blocks - 1].href,
            format!("/post/{}?a=1&b=2", blocks - 1)
        );
        // HTML is read by html5ever, whose work is not counted: a bound on
        // time, 60 s, that no load reaches (the idle figure is in
        // crates/norobots-bench/README.md); a pass over the page per octet
        // of it would be 2 * 10^14 octets, hours.
        assert!(elapsed < Duration::from_secs(60), "took {elapsed:?}");
        // Links (and a Vec that may have doubled) plus a fixed 2 MB for the
        // tokenizer's pieces; the 20 MB page is never copied.
        let bound = 2 * links_bytes + (2 << 20);
        assert!(held < bound, "held {held} B, bound {bound} B");
        assert!(
            held < html.len() / 4,
            "held {held} B for a {} B page",
            html.len()
        );
    }

    #[test]
    fn huge_attribute_and_comment_do_not_blow_up() {
        let long = "x".repeat(4 << 20);
        let html = format!(
            "<meta name=description content=\"{long}\"><!--{long}--><meta name=robots content=noindex>"
        );
        let (p, elapsed, _) = measure(|| page(&html));
        assert!(!p.index);
        assert_eq!(p.description.map(|d| d.len()), Some(long.len()));
        assert!(elapsed < Duration::from_secs(60), "took {elapsed:?}");
    }

    #[test]
    fn many_meta_tags_keep_bounded_other_directives() {
        let html: String = (0..10_000)
            .map(|i| format!("<meta name=robots content=\"x-{i}, noarchive\">"))
            .collect();
        let p = page(&html);
        assert_eq!(p.other.len(), 64);
        assert!(p.index);
    }

    // -----------------------------------------------------------------------
    // Properties

    /// Fragments of markup that trouble tokenizers.
    const PIECES: [&str; 24] = [
        "<meta",
        " name=robots",
        " name=\"testbot\"",
        " content=",
        "\"noindex\"",
        "'nofollow'",
        ">",
        "/>",
        "<!--",
        "-->",
        "--!>",
        "<script>",
        "</script>",
        "<style>",
        "</style>",
        "<a href=",
        "&#",
        "&amp",
        ";",
        "<![CDATA[",
        "]]>",
        "<svg>",
        "\u{0}",
        "\u{FFFD}",
    ];

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
            let p = PageDirectives::from_html(&bytes, "TestBot");
            prop_assert!(p.other.len() <= 64);
        }

        #[test]
        fn random_markup_never_panics(
            pieces in prop::collection::vec((select(PIECES.to_vec()), prop::collection::vec(any::<u8>(), 0..3)), 0..64),
        ) {
            let mut html = Vec::new();
            for (piece, noise) in pieces {
                html.extend_from_slice(piece.as_bytes());
                html.extend_from_slice(&noise);
            }
            let _ = PageDirectives::from_html(&html, "TestBot");
        }

        /// Meta tags rendered with random quoting and case, between harmless
        /// markup, give the naive rule over the tags that name the robot.
        #[test]
        fn meta_tags_follow_naive_rule(
            tags in prop::collection::vec(
                (select(vec!["robots", "ROBOTS", "testbot", "TestBot", "otherbot"]), term_list(), 0..3usize),
                0..8,
            ),
        ) {
            let mut html = String::from("<html><head><title>t</title>");
            let mut applying = Vec::new();
            for (name, terms, quote) in &tags {
                let content = render_list(terms, &[","]);
                let content = match quote {
                    0 if !content.is_empty() => content,
                    1 => format!("'{content}'"),
                    _ => format!("\"{content}\""),
                };
                html.push_str(&format!("<p>x</p><!-- c --><META content={content} Name=\"{name}\">"));
                if !name.eq_ignore_ascii_case("otherbot") {
                    applying.extend(terms.iter().copied());
                }
            }
            let p = PageDirectives::from_html(html.as_bytes(), "TestBot/1.0");
            prop_assert_eq!((!p.index, !p.follow), naive(&applying));
            let _ = TERMS;
        }
    }
}
