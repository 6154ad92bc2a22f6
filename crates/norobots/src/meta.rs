//! What a page says about itself: META robots, the `X-Robots-Tag` header
//! and `rel="nofollow"` links.
//!
//! robots.txt speaks for a site; the robots FAQ (seed 003) adds a tag for
//! one page, `<META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW">`, with the
//! terms `ALL`, `NONE`, `INDEX`, `NOINDEX`, `FOLLOW` and `NOFOLLOW`. Today's
//! robots also read a tag named after themselves (`<meta name="googlebot">`),
//! the same list in the `X-Robots-Tag` HTTP header, and `rel="nofollow"` on
//! single links. Whatever the source, the restrictive term wins.
//!
//! [`Directives`] parses one list; [`PageDirectives`] is the answer for one
//! robot, built from headers ([`PageDirectives::from_headers`]) and, with the
//! `html` feature, from the page (`PageDirectives::from_html`), and
//! combined with [`PageDirectives::combine`].
//!
//! ```
//! use norobots::meta::PageDirectives;
//!
//! let page = PageDirectives::from_headers(["noarchive", "examplebot: nofollow"], "ExampleBot/1.0");
//! assert!(page.index);
//! assert!(!page.follow);
//! assert_eq!(page.other, ["noarchive"]);
//! ```

mod directives;
#[cfg(feature = "html")]
mod html;

pub use directives::Directives;

/// What a page allows one robot, from its headers, its meta tags or both.
///
/// The default allows everything, as a page without directives does (robots
/// FAQ, seed 003: no terms means `ALL`).
///
/// ```
/// use norobots::meta::{Directives, PageDirectives};
///
/// let page = PageDirectives::default();
/// assert!(page.index && page.follow);
///
/// let page = PageDirectives::from(Directives::parse_content("NONE"));
/// assert!(!page.index && !page.follow);
/// # #[cfg(feature = "serde")]
/// assert_eq!(
///     serde_json::to_string(&page).unwrap(),
///     r#"{"index":false,"follow":false,"other":[],"document_state":null,"url":null,"keywords":null,"description":null,"base":null,"links":[]}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PageDirectives {
    /// The page may be indexed: no `NOINDEX` or `NONE` applies.
    pub index: bool,
    /// The page's links may be followed: no `NOFOLLOW` or `NONE` applies.
    /// A single link can still carry `rel="nofollow"`; see
    /// [`may_follow`](PageDirectives::may_follow).
    pub follow: bool,
    /// The other directives that apply (`noarchive`, `max-snippet:20`, …),
    /// as written, each once, at most 64.
    pub other: Vec<String>,
    /// `<META NAME="DOCUMENT-STATE">`, the first one with a known value.
    pub document_state: Option<DocumentState>,
    /// `<META NAME="URL">`: where the page says it lives, the first one.
    pub url: Option<String>,
    /// `<META NAME="KEYWORDS">`, the first one, as written.
    pub keywords: Option<String>,
    /// `<META NAME="DESCRIPTION">`, the first one, as written.
    pub description: Option<String>,
    /// `<BASE HREF>`, the first one, as written: the URL the page's
    /// relative links are resolved against, when it has one.
    pub base: Option<String>,
    /// The page's links in document order: `<a href>` and `<area href>`,
    /// and with [`Links::All`] every URL a robot may fetch from the page.
    pub links: Vec<Link>,
}

/// Which links a reading of a page collects.
///
/// ```
/// # #[cfg(feature = "html")] {
/// use norobots::meta::{Links, PageDirectives};
///
/// let html = br#"<a href="/a">a</a> <img src="/i.png" srcset="/i2.png 2x">"#;
/// assert_eq!(PageDirectives::from_html(html, "bot").links.len(), 1);
/// let all = PageDirectives::read_html(&html[..], "bot", Links::All).unwrap();
/// assert_eq!(all.links.len(), 3);
/// # }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Links {
    /// `<a href>` and `<area href>`: where the page sends a reader.
    #[default]
    Anchors,
    /// Also what the page pulls in or frames: `<link href>`, `<img src>`
    /// and `srcset`, `<script src>`, `<iframe src>`, `<frame src>`,
    /// `<source src>` and `srcset`, `<embed src>`, `<video src>`,
    /// `<audio src>`, `<track src>`: what a mirroring robot fetches.
    All,
}

/// Where a link was found.
///
/// ```
/// use norobots::meta::LinkKind;
///
/// assert_eq!(LinkKind::Anchor.element(), "a");
/// # #[cfg(feature = "serde")]
/// assert_eq!(serde_json::to_string(&LinkKind::Image).unwrap(), r#""Image""#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum LinkKind {
    /// `<a href>`.
    Anchor,
    /// `<area href>`, in an image map.
    Area,
    /// `<link href>` (style sheets, icons, alternates).
    Link,
    /// `<img src>` or one candidate of `<img srcset>`.
    Image,
    /// `<script src>`.
    Script,
    /// `<iframe src>` or `<frame src>`.
    Frame,
    /// `<source>`, `<embed>`, `<video>`, `<audio>` or `<track>`: media.
    Media,
}

impl LinkKind {
    /// The element the kind is named after, for messages.
    ///
    /// ```
    /// assert_eq!(norobots::meta::LinkKind::Frame.element(), "iframe/frame");
    /// ```
    pub fn element(self) -> &'static str {
        match self {
            LinkKind::Anchor => "a",
            LinkKind::Area => "area",
            LinkKind::Link => "link",
            LinkKind::Image => "img",
            LinkKind::Script => "script",
            LinkKind::Frame => "iframe/frame",
            LinkKind::Media => "media",
        }
    }
}

/// A link of a page.
///
/// ```
/// use norobots::meta::{Link, LinkKind};
///
/// let link = Link::anchor("/ads", true);
/// assert!(link.nofollow);
/// assert_eq!(link.kind, LinkKind::Anchor);
/// # #[cfg(feature = "serde")]
/// assert_eq!(
///     serde_json::to_string(&link).unwrap(),
///     r#"{"href":"/ads","nofollow":true,"kind":"Anchor"}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Link {
    /// The URL as written (`href`, `src` or a `srcset` candidate), entities
    /// decoded and surrounding white space removed; not resolved against
    /// the page's URL.
    pub href: String,
    /// The link's `rel` has the token `nofollow` (any case); only `<a>`,
    /// `<area>` and `<link>` have a `rel`.
    pub nofollow: bool,
    /// Where it was found.
    pub kind: LinkKind,
}

impl Link {
    /// An `<a href>` link.
    ///
    /// ```
    /// assert!(!norobots::meta::Link::anchor("/a", false).nofollow);
    /// ```
    pub fn anchor(href: &str, nofollow: bool) -> Link {
        Link {
            href: href.to_owned(),
            nofollow,
            kind: LinkKind::Anchor,
        }
    }
}

/// The FAQ's `<META NAME="DOCUMENT-STATE">`: whether a robot needs to visit
/// the page again (seed 003).
///
/// ```
/// use norobots::meta::DocumentState;
///
/// assert_eq!(DocumentState::parse(" static "), Some(DocumentState::Static));
/// assert_eq!(DocumentState::parse("DYNAMIC"), Some(DocumentState::Dynamic));
/// assert_eq!(DocumentState::parse("sometimes"), None);
/// # #[cfg(feature = "serde")]
/// assert_eq!(serde_json::to_string(&DocumentState::Static).unwrap(), r#""Static""#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum DocumentState {
    /// `STATIC`: the page does not change; one visit is enough.
    Static,
    /// `DYNAMIC`: the page changes (a CGI script, say); index the page but
    /// expect it to change.
    Dynamic,
}

impl DocumentState {
    /// Reads a `CONTENT` value, ignoring case and surrounding white space.
    ///
    /// ```
    /// use norobots::meta::DocumentState;
    ///
    /// assert_eq!(DocumentState::parse("Dynamic"), Some(DocumentState::Dynamic));
    /// ```
    pub fn parse(content: &str) -> Option<DocumentState> {
        let content = content.trim_ascii();
        if content.eq_ignore_ascii_case("static") {
            Some(DocumentState::Static)
        } else if content.eq_ignore_ascii_case("dynamic") {
            Some(DocumentState::Dynamic)
        } else {
            None
        }
    }
}

impl Default for PageDirectives {
    fn default() -> Self {
        PageDirectives::from(Directives::default())
    }
}

impl From<Directives> for PageDirectives {
    fn from(directives: Directives) -> Self {
        PageDirectives {
            index: !directives.noindex,
            follow: !directives.nofollow,
            other: directives.other,
            document_state: None,
            url: None,
            keywords: None,
            description: None,
            base: None,
            links: Vec::new(),
        }
    }
}

impl PageDirectives {
    /// The directives of a response's `X-Robots-Tag` header values (one per
    /// header line) that apply to `agent` (see [`Directives::parse_header`]).
    ///
    /// ```
    /// use norobots::meta::PageDirectives;
    ///
    /// let headers = ["googlebot: noindex", "unavailable_after: 25 Jun 2010 15:00:00 PST"];
    /// let page = PageDirectives::from_headers(headers, "Googlebot/2.1");
    /// assert!(!page.index);
    /// assert_eq!(page.other, ["unavailable_after: 25 Jun 2010 15:00:00 PST"]);
    /// assert!(PageDirectives::from_headers(headers, "bingbot").index);
    /// ```
    pub fn from_headers<'a>(
        values: impl IntoIterator<Item = &'a str>,
        agent: &str,
    ) -> PageDirectives {
        let mut directives = Directives::default();
        for value in values {
            directives.merge(Directives::parse_header(value, agent));
        }
        PageDirectives::from(directives)
    }

    /// Both sets of directives, as one: the restrictive term wins, other
    /// directives are merged, each metadata field is `self`'s if it has one
    /// and `other`'s otherwise, and the links are `self`'s then `other`'s.
    ///
    /// ```
    /// use norobots::meta::{Directives, PageDirectives};
    ///
    /// let headers = PageDirectives::from_headers(["nofollow"], "ExampleBot");
    /// let html = PageDirectives::from(Directives::parse_content("noindex, follow"));
    /// let page = headers.combine(html);
    /// assert!(!page.index && !page.follow);
    /// ```
    pub fn combine(self, other: PageDirectives) -> PageDirectives {
        let mut directives = self.directives();
        directives.merge(other.directives());
        let mut links = self.links;
        links.extend(other.links);
        PageDirectives {
            document_state: self.document_state.or(other.document_state),
            url: self.url.or(other.url),
            keywords: self.keywords.or(other.keywords),
            description: self.description.or(other.description),
            base: self.base.or(other.base),
            links,
            ..PageDirectives::from(directives)
        }
    }

    /// Whether the robot may follow `link` of this page: the page allows
    /// following and the link is not `rel="nofollow"`.
    ///
    /// ```
    /// use norobots::meta::{Link, PageDirectives};
    ///
    /// let page = PageDirectives::default();
    /// let plain = Link::anchor("/a", false);
    /// let marked = Link::anchor("/b", true);
    /// assert!(page.may_follow(&plain));
    /// assert!(!page.may_follow(&marked));
    /// ```
    pub fn may_follow(&self, link: &Link) -> bool {
        self.follow && !link.nofollow
    }

    /// The flags and other directives, without metadata, for merging.
    fn directives(&self) -> Directives {
        Directives {
            noindex: !self.index,
            nofollow: !self.follow,
            other: self.other.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Seed 003: a page without terms is ALL = INDEX, FOLLOW.
    #[test]
    fn faq_default_page_allows_index_and_follow() {
        let page = PageDirectives::default();
        assert!(page.index && page.follow);
        assert!(page.other.is_empty() && page.links.is_empty());
    }

    // Header documentation: several X-Robots-Tag headers combine, and
    // directives for other agents are ignored.
    #[test]
    fn header_several_values_combine() {
        let page = PageDirectives::from_headers(
            ["noarchive", "mybot: noindex", "otherbot: nofollow"],
            "MyBot/3",
        );
        assert!(!page.index);
        assert!(page.follow);
        assert_eq!(page.other, ["noarchive"]);
    }

    #[test]
    fn header_none_value_list_is_all() {
        assert_eq!(
            PageDirectives::from_headers([], "bot"),
            PageDirectives::default()
        );
        assert_eq!(
            PageDirectives::from_headers(["", " "], "bot"),
            PageDirectives::default()
        );
    }

    // Seed 003 and the header documentation: whatever the source, the
    // restrictive term wins.
    #[test]
    fn combine_restrictive_wins_either_way() {
        let noindex = PageDirectives::from(Directives::parse_content("noindex"));
        let nofollow = PageDirectives::from(Directives::parse_content("nofollow"));
        for page in [
            noindex.clone().combine(nofollow.clone()),
            nofollow.combine(noindex),
        ] {
            assert!(!page.index && !page.follow);
        }
    }

    #[test]
    fn combine_keeps_first_metadata_and_all_links() {
        let link = |href: &str| Link::anchor(href, false);
        let first = PageDirectives {
            url: Some("http://a/".to_owned()),
            links: vec![link("/1")],
            ..PageDirectives::default()
        };
        let second = PageDirectives {
            url: Some("http://b/".to_owned()),
            keywords: Some("k".to_owned()),
            document_state: Some(DocumentState::Static),
            links: vec![link("/2")],
            ..PageDirectives::default()
        };
        let page = first.combine(second);
        assert_eq!(page.url.as_deref(), Some("http://a/"));
        assert_eq!(page.keywords.as_deref(), Some("k"));
        assert_eq!(page.document_state, Some(DocumentState::Static));
        assert_eq!(page.links, [link("/1"), link("/2")]);
    }

    #[test]
    fn page_nofollow_overrides_followable_link() {
        let page = PageDirectives::from(Directives::parse_content("nofollow"));
        let link = Link::anchor("/x", false);
        assert!(!page.may_follow(&link));
    }

    // Seed 003: DOCUMENT-STATE is STATIC or DYNAMIC.
    #[test]
    fn faq_document_state_values() {
        assert_eq!(DocumentState::parse("STATIC"), Some(DocumentState::Static));
        assert_eq!(
            DocumentState::parse("dynamic"),
            Some(DocumentState::Dynamic)
        );
        assert_eq!(DocumentState::parse(""), None);
    }
}
