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

use std::io::{self, Read};

use super::{Directives, DocumentState, Link, LinkKind, Links, PageDirectives};
use crate::agent::robot_token;

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
        let collector = Collector::new(robot_token(agent), Links::Anchors);
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

    /// [`from_html`](PageDirectives::from_html) for a page read from
    /// `reader` (a file a crawler streamed the body into, say), piece by
    /// piece, collecting the `links` asked for; the page is never held
    /// whole. An octet sequence cut by the end of a read is joined with
    /// the next read before it is decoded, so the answer is the one
    /// `from_html` gives for the same octets.
    ///
    /// ```
    /// use norobots::meta::{LinkKind, Links, PageDirectives};
    ///
    /// let html = br#"<base href="/docs/"><meta name=robots content=noindex>
    ///   <link rel=stylesheet href=s.css><img src="a.png" srcset="b.png 2x, c.png 3x">
    ///   <a href="x.html" rel=nofollow>x</a>"#;
    /// let page = PageDirectives::read_html(&html[..], "ExampleBot", Links::All).unwrap();
    /// assert!(!page.index);
    /// assert_eq!(page.base.as_deref(), Some("/docs/"));
    /// let found: Vec<(&str, LinkKind)> = page.links.iter().map(|l| (l.href.as_str(), l.kind)).collect();
    /// assert_eq!(found, [
    ///     ("s.css", LinkKind::Link),
    ///     ("a.png", LinkKind::Image),
    ///     ("b.png", LinkKind::Image),
    ///     ("c.png", LinkKind::Image),
    ///     ("x.html", LinkKind::Anchor),
    /// ]);
    /// assert!(page.links[4].nofollow);
    /// ```
    pub fn read_html(
        mut reader: impl Read,
        agent: &str,
        links: Links,
    ) -> io::Result<PageDirectives> {
        let collector = Collector::new(robot_token(agent), links);
        let tokenizer = Tokenizer::new(collector, TokenizerOpts::default());
        let mut feeder = Feeder::new(&tokenizer);
        let mut buf = vec![0u8; PIECE];
        // Octets of a sequence that the last read cut short.
        let mut carry = 0;
        loop {
            let n = match reader.read(&mut buf[carry..]) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let end = carry + n;
            let mut rest = &buf[..end];
            carry = 0;
            while !rest.is_empty() {
                match std::str::from_utf8(rest) {
                    Ok(text) => {
                        feeder.push(text);
                        rest = &[];
                    }
                    Err(e) => {
                        let (good, bad) = rest.split_at(e.valid_up_to());
                        // Checked by from_utf8 just now.
                        feeder.push(std::str::from_utf8(good).unwrap_or_default());
                        match e.error_len() {
                            Some(len) => {
                                feeder.push("\u{FFFD}");
                                rest = &bad[len..];
                            }
                            // Cut by the end of this read: decoded with
                            // the next one, unless there is none.
                            None if n > 0 => {
                                carry = bad.len();
                                rest = &[];
                            }
                            None => {
                                feeder.push("\u{FFFD}");
                                rest = &[];
                            }
                        }
                    }
                }
            }
            if carry > 0 {
                buf.copy_within(end - carry..end, 0);
            }
            if n == 0 {
                break;
            }
        }
        feeder.flush();
        tokenizer.end();
        Ok(tokenizer.sink.finish())
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
    /// Which links to keep.
    links: Links,
    directives: RefCell<Directives>,
    page: RefCell<PageDirectives>,
    /// How many `<svg>` and `<math>` elements are open. Inside them
    /// `<style>` and `<script>` hold markup, and `<![CDATA[` opens CDATA.
    foreign_depth: Cell<usize>,
}

impl<'a> Collector<'a> {
    fn new(token: &'a str, links: Links) -> Self {
        Collector {
            token,
            links,
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
            "a" => self.anchor(tag, LinkKind::Anchor),
            "area" => self.anchor(tag, LinkKind::Area),
            "base" => self.base(tag),
            _ if self.links == Links::All => self.resource(tag),
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

    fn anchor(&self, tag: &Tag, kind: LinkKind) {
        let Some(href) = attribute(tag, "href") else {
            return;
        };
        self.push(href, is_nofollow(tag), kind);
    }

    fn base(&self, tag: &Tag) {
        if let Some(href) = attribute(tag, "href") {
            keep_first(&mut self.page.borrow_mut().base, href.trim_ascii());
        }
    }

    /// What a page pulls in or frames, for [`Links::All`].
    fn resource(&self, tag: &Tag) {
        let (attr, kind, srcset) = match &*tag.name {
            "link" => ("href", LinkKind::Link, false),
            "img" => ("src", LinkKind::Image, true),
            "script" => ("src", LinkKind::Script, false),
            "iframe" | "frame" => ("src", LinkKind::Frame, false),
            "source" => ("src", LinkKind::Media, true),
            "embed" | "video" | "audio" | "track" => ("src", LinkKind::Media, false),
            _ => return,
        };
        if let Some(url) = attribute(tag, attr) {
            let nofollow = kind == LinkKind::Link && is_nofollow(tag);
            self.push(url, nofollow, kind);
        }
        if srcset {
            if let Some(set) = attribute(tag, "srcset") {
                for url in srcset_urls(set) {
                    self.push(url, false, kind);
                }
            }
        }
    }

    fn push(&self, href: &str, nofollow: bool, kind: LinkKind) {
        // An empty `href` is a link to the page itself: kept, as a
        // browser follows it.
        let href = href.trim_ascii();
        self.page.borrow_mut().links.push(Link {
            href: href.to_owned(),
            nofollow,
            kind,
        });
    }
}

fn is_nofollow(tag: &Tag) -> bool {
    attribute(tag, "rel").is_some_and(|rel| {
        rel.split_ascii_whitespace()
            .any(|token| token.eq_ignore_ascii_case("nofollow"))
    })
}

/// The URLs of a `srcset`: candidates are separated by commas, each a URL
/// and optional descriptors (`2x`, `640w`) after white space (HTML
/// standard, "parse a srcset attribute"). A URL may itself hold commas,
/// so only commas at its end separate.
fn srcset_urls(set: &str) -> impl Iterator<Item = &str> {
    let mut rest = set;
    std::iter::from_fn(move || loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == ',');
        if rest.is_empty() {
            return None;
        }
        let end = rest
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let (candidate, after) = rest.split_at(end);
        let url = candidate.trim_end_matches(',');
        rest = if candidate.ends_with(',') {
            after
        } else {
            // Descriptors, up to the next comma.
            after.find(',').map_or("", |i| &after[i..])
        };
        if !url.is_empty() {
            return Some(url);
        }
    })
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
    fn srcset_candidates_are_split_at_commas_after_urls() {
        let urls: Vec<&str> = srcset_urls(" a.png 1x, b,c.png 2x ,d.png,  ,e.png 640w").collect();
        assert_eq!(urls, ["a.png", "b,c.png", "d.png", "e.png"]);
        assert_eq!(srcset_urls("").count(), 0);
        assert_eq!(srcset_urls(" , ,").count(), 0);
    }

    #[test]
    fn every_resource_kind_is_read_with_all_links_and_none_without() {
        let html = r#"<a href="/a">a</a><area href="/area"><link rel="stylesheet nofollow" href="/s.css">
            <script src="/s.js"></script><iframe src="/if.html"></iframe><frame src="/f.html">
            <video src="/v.mp4"><source src="/v.webm" srcset="/v2.webm"><track src="/t.vtt"></video>
            <embed src="/e.swf"><audio src="/a.ogg"></audio><img src="/i.png">"#;
        let all = PageDirectives::read_html(html.as_bytes(), "bot", Links::All).unwrap();
        let found: Vec<(&str, LinkKind, bool)> = all
            .links
            .iter()
            .map(|l| (l.href.as_str(), l.kind, l.nofollow))
            .collect();
        assert_eq!(
            found,
            [
                ("/a", LinkKind::Anchor, false),
                ("/area", LinkKind::Area, false),
                ("/s.css", LinkKind::Link, true),
                ("/s.js", LinkKind::Script, false),
                ("/if.html", LinkKind::Frame, false),
                ("/f.html", LinkKind::Frame, false),
                ("/v.mp4", LinkKind::Media, false),
                ("/v.webm", LinkKind::Media, false),
                ("/v2.webm", LinkKind::Media, false),
                ("/t.vtt", LinkKind::Media, false),
                ("/e.swf", LinkKind::Media, false),
                ("/a.ogg", LinkKind::Media, false),
                ("/i.png", LinkKind::Image, false),
            ]
        );
        let anchors = page(html);
        let hrefs: Vec<&str> = anchors.links.iter().map(|l| l.href.as_str()).collect();
        assert_eq!(hrefs, ["/a", "/area"]);
    }

    #[test]
    fn the_first_base_is_kept() {
        let p = page(r#"<base target=_top><base href=" /one/ "><base href="/two/">"#);
        assert_eq!(p.base.as_deref(), Some("/one/"));
    }

    /// A reader that hands out one octet at a time, so that every UTF-8
    /// sequence is cut by a read.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.0.split_first() {
                Some((&b, rest)) if !buf.is_empty() => {
                    buf[0] = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn reading_in_pieces_answers_as_the_whole_page_does() {
        let mut html = String::from(r#"<meta name="robots" content="nofollow">"#);
        for i in 0..200 {
            html.push_str(&format!(r#"<a href="/caf\u{{e9}}/{i}/\u{{1F916}}">é</a>"#));
        }
        let mut bytes = html.into_bytes();
        bytes.extend_from_slice(b"<a href=\"/bad\xff\xc3\">x</a><a href=\"/end\xe2\x82");
        let whole = PageDirectives::from_html(&bytes, "bot");
        let trickled = PageDirectives::read_html(Trickle(&bytes), "bot", Links::Anchors).unwrap();
        assert_eq!(trickled, whole);
        let big = bytes.repeat(100);
        assert_eq!(
            PageDirectives::read_html(&big[..], "bot", Links::Anchors).unwrap(),
            PageDirectives::from_html(&big, "bot")
        );
        assert!(whole.links.last().unwrap().href.ends_with('\u{FFFD}'));
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
