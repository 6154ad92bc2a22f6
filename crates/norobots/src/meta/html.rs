//! Reading robots meta tags, the FAQ's other meta tags and `<a>` links out
//! of an HTML page.
//!
//! Why html5ever's tokenizer, without its tree builder: it is the WHATWG
//! tokenizer of Servo, so attributes, quoting, character references (`no&#105;ndex`,
//! `&amp;`, the legacy ones without `;`), comments, bogus comments and
//! broken markup come out as a browser sees them; it takes its input in
//! pieces, so a large page is never copied whole; and with no tree nothing
//! grows with the page but the links we keep. `lol_html` also streams, but
//! it is built for rewriting, pulls in a CSS selector engine we would not
//! use, and hands attribute values over undecoded.
//!
//! What the tokenizer alone lacks is the tree builder's switch into raw text
//! after `<script>`, `<style>`, `<title>`, … (so that a `<meta` in a script
//! string is text); [`Collector`] makes that switch itself. Scripts are not
//! run, so `<noscript>` content is read as markup, as a robot sees it.

use std::cell::{Cell, RefCell};

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::TokenizerResult;

use super::{Directives, DocumentState, Link, PageDirectives};
use crate::robot_token;

/// The tokenizer gets the page in pieces of about this many octets, so the
/// decoded copy it works on stays small whatever the page's size.
const PIECE: usize = 64 * 1024;

impl PageDirectives {
    /// The directives of an HTML page for `agent`, with its metadata and
    /// links (feature `html`).
    ///
    /// A `<meta name="robots">` applies to every robot; a `<meta>` whose name
    /// equals `agent`'s [`robot_token`], ignoring
    /// case, applies to it too; all of them combine, the restrictive term
    /// winning. Meta tags count anywhere in the document, not only in
    /// `<head>`; not inside comments, scripts, styles or other raw text.
    /// Invalid UTF-8 is read as U+FFFD. Time is linear in the page; memory
    /// is that of the links kept plus the longest tag or comment.
    ///
    /// ```
    /// use norobots::meta::PageDirectives;
    ///
    /// let html = br#"<html><head>
    ///   <meta name="robots" content="index, follow">
    ///   <META NAME=ExampleBot CONTENT='no&#105;ndex'>
    ///   <!-- <meta name="robots" content="nofollow"> -->
    /// </head><body>
    ///   <a href="/a?x=1&amp;y=2">a</a> <a rel="NoFollow sponsored" href=/b>b</a>
    /// </body></html>"#;
    /// let page = PageDirectives::from_html(html, "ExampleBot/1.0");
    /// assert!(!page.index);
    /// assert!(page.follow);
    /// assert_eq!(page.links[0].href, "/a?x=1&y=2");
    /// assert!(page.links[1].nofollow);
    /// assert!(PageDirectives::from_html(html, "OtherBot").index);
    /// ```
    pub fn from_html(html: &[u8], agent: &str) -> PageDirectives {
        let collector = Collector::new(robot_token(agent));
        let tokenizer = Tokenizer::new(collector, TokenizerOpts::default());
        let mut feeder = Feeder::new(&tokenizer);
        for chunk in html.utf8_chunks() {
            feeder.push(chunk.valid());
            if !chunk.invalid().is_empty() {
                feeder.push("\u{FFFD}");
            }
        }
        feeder.flush();
        tokenizer.end();
        tokenizer.sink.finish()
    }
}

/// Hands decoded text to the tokenizer in pieces of at most [`PIECE`].
struct Feeder<'t> {
    tokenizer: &'t Tokenizer<Collector<'t>>,
    queue: BufferQueue,
    piece: String,
}

impl<'t> Feeder<'t> {
    fn new(tokenizer: &'t Tokenizer<Collector<'t>>) -> Self {
        Feeder {
            tokenizer,
            queue: BufferQueue::default(),
            piece: String::with_capacity(PIECE),
        }
    }

    fn push(&mut self, mut text: &str) {
        while !text.is_empty() {
            let cut = floor_char_boundary(text, PIECE - self.piece.len());
            if cut == 0 {
                self.flush();
                continue;
            }
            self.piece.push_str(&text[..cut]);
            text = &text[cut..];
            if self.piece.len() >= PIECE {
                self.flush();
            }
        }
    }

    fn flush(&mut self) {
        if self.piece.is_empty() {
            return;
        }
        self.queue.push_back(StrTendril::from_slice(&self.piece));
        self.piece.clear();
        // `Done` means the queue is used up or the tokenizer waits for more
        // input; the other results only come from sinks that ask for them.
        while !matches!(self.tokenizer.feed(&self.queue), TokenizerResult::Done) {}
    }
}

/// The largest char boundary of `text` at or below `max`.
fn floor_char_boundary(text: &str, max: usize) -> usize {
    if max >= text.len() {
        return text.len();
    }
    (0..=max)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

/// The token sink: keeps what the page says and switches the tokenizer to
/// raw text where the tree builder would.
struct Collector<'a> {
    /// The caller's product token; empty when it has none.
    token: &'a str,
    directives: RefCell<Directives>,
    page: RefCell<PageDirectives>,
    /// How many `<svg>` and `<math>` elements are open. Inside them
    /// `<style>` and `<script>` hold markup, and `<![CDATA[` opens CDATA.
    foreign_depth: Cell<usize>,
}

impl<'a> Collector<'a> {
    fn new(token: &'a str) -> Self {
        Collector {
            token,
            directives: RefCell::new(Directives::default()),
            page: RefCell::new(PageDirectives::default()),
            foreign_depth: Cell::new(0),
        }
    }

    fn finish(&self) -> PageDirectives {
        let directives = self.directives.take();
        let page = self.page.take();
        PageDirectives {
            index: !directives.noindex,
            follow: !directives.nofollow,
            other: directives.other,
            ..page
        }
    }

    fn start_tag(&self, tag: &Tag) -> TokenSinkResult<()> {
        match &*tag.name {
            "meta" => self.meta(tag),
            "a" => self.anchor(tag),
            _ => {}
        }
        self.track_foreign(tag);
        if self.foreign_depth.get() > 0 {
            return TokenSinkResult::Continue;
        }
        raw_text_switch(&tag.name)
    }

    /// Follows `<svg>` and `<math>`, and the HTML start tags that close
    /// them (HTML standard, "parsing main in foreign content"), so that an
    /// unclosed `<svg>` does not hide the page's later scripts.
    fn track_foreign(&self, tag: &Tag) {
        let name = &*tag.name;
        if self.foreign_depth.get() > 0 && breaks_out_of_foreign_content(name) {
            self.foreign_depth.set(0);
        }
        if matches!(name, "svg" | "math") && !tag.self_closing {
            self.foreign_depth.set(self.foreign_depth.get() + 1);
        }
    }

    fn end_tag(&self, tag: &Tag) {
        if matches!(&*tag.name, "svg" | "math") {
            self.foreign_depth
                .set(self.foreign_depth.get().saturating_sub(1));
        }
    }

    fn meta(&self, tag: &Tag) {
        let Some(name) = attribute(tag, "name") else {
            return;
        };
        let name = name.trim_ascii();
        let content = attribute(tag, "content");
        if name.eq_ignore_ascii_case("robots") || self.is_own_name(name) {
            // Seed 003: a missing CONTENT is ALL, which restricts nothing.
            let directives = Directives::parse_content(content.unwrap_or(""));
            self.directives.borrow_mut().merge(directives);
            return;
        }
        let Some(content) = content else {
            return;
        };
        let mut page = self.page.borrow_mut();
        if name.eq_ignore_ascii_case("document-state") {
            page.document_state = page.document_state.or(DocumentState::parse(content));
        } else if name.eq_ignore_ascii_case("url") {
            keep_first(&mut page.url, content.trim_ascii());
        } else if name.eq_ignore_ascii_case("keywords") {
            keep_first(&mut page.keywords, content);
        } else if name.eq_ignore_ascii_case("description") {
            keep_first(&mut page.description, content);
        }
    }

    fn is_own_name(&self, name: &str) -> bool {
        !self.token.is_empty() && name.eq_ignore_ascii_case(self.token)
    }

    fn anchor(&self, tag: &Tag) {
        let Some(href) = attribute(tag, "href") else {
            return;
        };
        let nofollow = attribute(tag, "rel").is_some_and(|rel| {
            rel.split_ascii_whitespace()
                .any(|token| token.eq_ignore_ascii_case("nofollow"))
        });
        self.page.borrow_mut().links.push(Link {
            href: href.trim_ascii().to_owned(),
            nofollow,
        });
    }
}

impl TokenSink for Collector<'_> {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        match token {
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => self.start_tag(&tag),
            Token::TagToken(tag) => {
                self.end_tag(&tag);
                TokenSinkResult::Continue
            }
            _ => TokenSinkResult::Continue,
        }
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.foreign_depth.get() > 0
    }
}

/// The tokenizer state the tree builder would set after this start tag
/// (HTML standard, "parsing main in body", scripting disabled).
fn raw_text_switch(name: &str) -> TokenSinkResult<()> {
    match name {
        "script" => TokenSinkResult::RawData(RawKind::ScriptData),
        "style" | "xmp" | "iframe" | "noembed" | "noframes" => {
            TokenSinkResult::RawData(RawKind::Rawtext)
        }
        "title" | "textarea" => TokenSinkResult::RawData(RawKind::Rcdata),
        "plaintext" => TokenSinkResult::Plaintext,
        _ => TokenSinkResult::Continue,
    }
}

fn breaks_out_of_foreign_content(name: &str) -> bool {
    const NAMES: [&str; 44] = [
        "b",
        "big",
        "blockquote",
        "body",
        "br",
        "center",
        "code",
        "dd",
        "div",
        "dl",
        "dt",
        "em",
        "embed",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "hr",
        "i",
        "img",
        "li",
        "listing",
        "menu",
        "meta",
        "nobr",
        "ol",
        "p",
        "pre",
        "ruby",
        "s",
        "small",
        "span",
        "strong",
        "strike",
        "sub",
        "sup",
        "table",
        "tt",
        "u",
        "ul",
        "var",
    ];
    NAMES.contains(&name)
}

/// The value of attribute `name`; the tokenizer has lower-cased names and
/// kept the first of duplicates, as browsers do.
fn attribute<'t>(tag: &'t Tag, name: &str) -> Option<&'t str> {
    tag.attrs
        .iter()
        .find(|attr| &*attr.name.local == name)
        .map(|attr| &*attr.value)
}

fn keep_first(slot: &mut Option<String>, value: &str) {
    if slot.is_none() {
        *slot = Some(value.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str) -> PageDirectives {
        PageDirectives::from_html(html.as_bytes(), "TestBot/1.0")
    }

    // Seed 003: <META NAME="ROBOTS" CONTENT="NOINDEX"> keeps the document
    // out of the index.
    #[test]
    fn faq_meta_robots_noindex() {
        let p = page(r#"<META NAME="ROBOTS" CONTENT="NOINDEX">"#);
        assert!(!p.index && p.follow);
    }

    // Seed 003: <META NAME="ROBOTS" CONTENT="NOFOLLOW">: links not parsed.
    #[test]
    fn faq_meta_robots_nofollow() {
        let p = page(r#"<META NAME="ROBOTS" CONTENT="NOFOLLOW">"#);
        assert!(p.index && !p.follow);
    }

    // Seed 003: a missing CONTENT means ALL.
    #[test]
    fn faq_missing_content_is_all() {
        assert_eq!(page(r#"<meta name="robots">"#), PageDirectives::default());
    }

    // Seed 003: KEYWORDS, DESCRIPTION, DOCUMENT-STATE and URL meta tags.
    #[test]
    fn faq_metadata_tags_are_recorded() {
        let p = page(
            r#"<META NAME="KEYWORDS" CONTENT="robots, exclusion">
               <META NAME="DESCRIPTION" CONTENT="A page">
               <META NAME="DOCUMENT-STATE" CONTENT="STATIC">
               <META NAME="URL" CONTENT=" http://example.com/page ">"#,
        );
        assert_eq!(p.keywords.as_deref(), Some("robots, exclusion"));
        assert_eq!(p.description.as_deref(), Some("A page"));
        assert_eq!(p.document_state, Some(DocumentState::Static));
        assert_eq!(p.url.as_deref(), Some("http://example.com/page"));
    }

    #[test]
    fn first_metadata_tag_wins() {
        let p = page(
            r#"<meta name=document-state content=bogus><meta name=document-state content=dynamic>
               <meta name=document-state content=static><meta name=url content=/1><meta name=url content=/2>"#,
        );
        assert_eq!(p.document_state, Some(DocumentState::Dynamic));
        assert_eq!(p.url.as_deref(), Some("/1"));
    }

    #[test]
    fn agent_named_meta_applies_to_that_agent() {
        let html =
            r#"<meta name="testbot" content="nofollow"><meta name="otherbot" content="noindex">"#;
        let p = page(html);
        assert!(p.index && !p.follow);
    }

    // Issue 47: a whole User-Agent header, as a crawler sends it, must pick
    // its robot's own meta tag, not read as `Mozilla`.
    #[test]
    fn a_browser_shaped_user_agent_reads_its_robots_meta() {
        let html = br#"<meta name="googlebot" content="noindex">"#;
        let ua = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
        assert!(!PageDirectives::from_html(html, ua).index);
        assert!(PageDirectives::from_html(html, "Mozilla/5.0 (X11; Linux x86_64)").index);
    }

    #[test]
    fn agent_without_product_token_reads_only_robots() {
        let html = br#"<meta name="" content="noindex"><meta name="robots" content="nofollow">"#;
        let p = PageDirectives::from_html(html, "42bot");
        assert!(p.index && !p.follow);
    }

    #[test]
    fn raw_text_elements_hide_markup() {
        for html in [
            r#"<script>var s = '<meta name="robots" content="noindex">';</script>"#,
            r#"<style><meta name="robots" content="noindex"></style>"#,
            r#"<title><meta name="robots" content="noindex"></title>"#,
            r#"<textarea><meta name="robots" content="noindex"></textarea>"#,
            r#"<!-- <meta name="robots" content="noindex"> -->"#,
        ] {
            assert!(page(html).index, "{html}");
        }
    }

    #[test]
    fn markup_after_raw_text_counts_again() {
        let p = page(r#"<script>x = "</scrip>";</script><meta name="robots" content="noindex">"#);
        assert!(!p.index);
    }

    #[test]
    fn svg_style_is_markup_not_raw_text() {
        let p = page(r#"<svg><style/></svg><meta name="robots" content="noindex">"#);
        assert!(!p.index);
    }

    #[test]
    fn html_tag_ends_unclosed_svg() {
        let html = r#"<svg><path d=""><div><script>"<meta name=robots content=noindex>"</script>"#;
        assert!(page(html).index);
        let nested = r#"<svg><svg></svg><style>a{}</style></svg><script>"<meta name=robots content=noindex>"</script>"#;
        assert!(page(nested).index);
    }

    #[test]
    fn pieces_split_on_char_boundaries() {
        let text = "é".repeat(PIECE);
        assert_eq!(floor_char_boundary(&text, PIECE - 1), PIECE - 2);
        assert_eq!(floor_char_boundary(&text, 3 * PIECE), text.len());
        let html = format!("{text}<meta name=robots content=noindex>{text}");
        assert!(!page(&html).index);
    }
}
