//! Reading the sitemaps that robots.txt names on `Sitemap:` lines, for
//! `--sitemaps`.
//!
//! [`parse`] reads one body as it comes off the wire and returns the URLs
//! in it. It takes what sitemaps.org allows:
//!
//! * an XML `<urlset>` (page URLs) or `<sitemapindex>` (child sitemaps),
//!   matched by local name so that any namespace prefix, or none, will do;
//! * the same gzip-compressed, told by the magic number `1f 8b` whatever the
//!   Content-Type or the extension say;
//! * a plain-text sitemap, one URL per line, UTF-8;
//! * an RSS 2.0 or RSS 1.0 feed (each `<item>`'s `<link>`) or an Atom feed
//!   (each `<entry>`'s `<link href>` whose `rel` is absent or `alternate`).
//!
//! # Limits
//!
//! A sitemap holds at most [`MAX_URLS`] URLs and [`MAX_BYTES`] octets once
//! uncompressed (sitemaps.org). Past either the reading stops and
//! [`Sitemap::truncated`] says which; what was read stays, so a crawl never
//! fails on a sitemap. The byte cap counts decompressed octets, so a gzip
//! bomb stops at 50 MB. Memory stays bounded as the body is streamed: one
//! location is at most [`MAX_URL_LEN`] octets (longer ones are skipped and
//! counted invalid), elements nest at most [`MAX_DEPTH`] deep, and an XML
//! body may not run [`MAX_RUN`] octets without a `<` or `>` (a giant text,
//! comment or tag), so no single XML event grows past that.
//!
//! # What counts
//!
//! * A location is trimmed of XML whitespace, its entities decoded
//!   (`&amp;`, `&#38;`), and its fragment dropped, as the crawler's URLs
//!   are.
//! * Only `http` and `https` URLs are kept; others are counted in
//!   [`Sitemap::invalid`].
//! * A relative location in XML or a feed (which the protocol forbids but
//!   some sites write) is resolved against the sitemap's own URL, since the
//!   element says plainly that it is a URL. A line of a text sitemap must be
//!   a whole URL: a relative one is invalid, as any line of prose would
//!   otherwise become a URL.
//! * Entities other than XML's five and character references are not
//!   expanded: a DTD cannot define new ones (no "billion laughs", no
//!   external entities); a location that uses one is invalid.
//! * Malformed XML ends the reading; the URLs before the error are kept and
//!   [`Sitemap::error`] says where it was.
//!
//! The URLs of a [`Kind::Index`] are sitemaps, for the crawler to fetch in
//! turn. The protocol does not let a sitemap index list other indexes, so a
//! crawler should follow an index's children one level down and not
//! further; that depth limit is the crawler's, not this module's. Nor does
//! this module apply scope: the crawler filters the URLs as it filters
//! links.

use std::borrow::Cow;
use std::cell::Cell;
use std::io::{self, BufRead, BufReader, Read};

use quick_xml::events::{BytesStart, Event};
use quick_xml::XmlVersion;
use url::Url;

/// The most URLs one sitemap may list (sitemaps.org).
///
/// ```
/// assert_eq!(norobots_crawl::sitemap::MAX_URLS, 50_000);
/// ```
pub const MAX_URLS: usize = 50_000;

/// The most octets one sitemap may have uncompressed: 50 MiB (sitemaps.org,
/// and crawler-commons' `MAX_BYTES_ALLOWED`).
///
/// ```
/// assert_eq!(norobots_crawl::sitemap::MAX_BYTES, 52_428_800);
/// ```
pub const MAX_BYTES: u64 = 52_428_800;

/// The longest location kept, in octets. The protocol asks for fewer than
/// 2,048 characters; this is more lenient, and only bounds memory.
///
/// ```
/// use norobots_crawl::sitemap::{parse, MAX_URL_LEN};
/// let base = url::Url::parse("https://example.com/sitemap.txt").unwrap();
/// let long = format!("https://example.com/{}\nhttps://example.com/ok\n", "a".repeat(MAX_URL_LEN));
/// let map = parse(long.as_bytes(), &base);
/// assert_eq!((map.urls.len(), map.invalid), (1, 1));
/// ```
pub const MAX_URL_LEN: usize = 65_536;

/// The deepest nesting of XML elements read; a sitemap needs three, a feed
/// four.
///
/// ```
/// use norobots_crawl::sitemap::{parse, SitemapError, MAX_DEPTH};
/// let base = url::Url::parse("https://example.com/sitemap.xml").unwrap();
/// let deep = format!("<urlset>{}", "<a>".repeat(MAX_DEPTH));
/// assert_eq!(parse(deep.as_bytes(), &base).error, Some(SitemapError::TooDeep));
/// ```
pub const MAX_DEPTH: usize = 64;

/// The longest stretch of an XML body without `<` or `>`: 1 MiB.
///
/// ```
/// use norobots_crawl::sitemap::{parse, SitemapError, MAX_RUN};
/// let base = url::Url::parse("https://example.com/sitemap.xml").unwrap();
/// let body = format!("<urlset><!--{}-->", "x".repeat(MAX_RUN + 1));
/// assert_eq!(parse(body.as_bytes(), &base).error, Some(SitemapError::RunTooLong));
/// ```
pub const MAX_RUN: usize = 1 << 20;

/// What a body turned out to be.
///
/// ```
/// use norobots_crawl::sitemap::{parse, Kind};
/// let base = url::Url::parse("https://example.com/sitemap.xml").unwrap();
/// assert_eq!(parse(&b"<!DOCTYPE html><html><body>Not found"[..], &base).kind, Kind::Html);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `<urlset>`: the URLs are pages.
    UrlSet,
    /// `<sitemapindex>`: the URLs are sitemaps.
    Index,
    /// A plain-text sitemap (also an empty body): the URLs are pages.
    Text,
    /// An RSS or Atom feed: the URLs are pages.
    Feed,
    /// An HTML page (an error page, a login wall): no URLs.
    Html,
    /// XML with another root element, or none before an error: no URLs.
    Unknown,
}

/// Which cap stopped the reading.
///
/// ```
/// use norobots_crawl::sitemap::{parse, Truncation, MAX_URLS};
/// let base = url::Url::parse("https://example.com/sitemap.txt").unwrap();
/// let body: String = (0..=MAX_URLS).map(|i| format!("https://example.com/{i}\n")).collect();
/// let map = parse(body.as_bytes(), &base);
/// assert_eq!((map.urls.len(), map.truncated), (MAX_URLS, Some(Truncation::Urls)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Truncation {
    /// There were more than [`MAX_URLS`] URLs.
    Urls,
    /// There were more than [`MAX_BYTES`] octets, uncompressed.
    Bytes,
}

/// Why the reading stopped before the end of the body.
///
/// ```
/// use norobots_crawl::sitemap::{parse, SitemapError};
/// let base = url::Url::parse("https://example.com/sitemap.xml").unwrap();
/// let map = parse(&b"<urlset><url><loc>https://example.com/a</loc></url><url></urlset>"[..], &base);
/// assert_eq!(map.urls.len(), 1);
/// assert!(matches!(map.error, Some(SitemapError::Xml { .. })));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum SitemapError {
    /// The XML is not well-formed (or not UTF-8) at this octet of the
    /// uncompressed body.
    #[error("malformed XML at octet {position}: {message}")]
    Xml {
        /// Where, in the uncompressed body.
        position: u64,
        /// What quick-xml said.
        message: String,
    },
    /// Elements nested deeper than [`MAX_DEPTH`].
    #[error("XML elements nested deeper than {MAX_DEPTH}")]
    TooDeep,
    /// More than [`MAX_RUN`] octets of XML without markup.
    #[error("more than {MAX_RUN} octets of XML without markup")]
    RunTooLong,
    /// The body could not be read (a broken connection, corrupt gzip).
    #[error("reading the sitemap: {0}")]
    Io(String),
}

/// The URLs of one sitemap, and how the reading went.
///
/// ```
/// use norobots_crawl::sitemap::{parse, Kind};
/// let base = url::Url::parse("https://example.com/sitemap.xml").unwrap();
/// let body = r#"<?xml version="1.0" encoding="UTF-8"?>
/// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
///   <url><loc> https://example.com/?a=1&amp;b=2 </loc><lastmod>2024-01-01</lastmod></url>
///   <url><loc>ftp://example.com/file</loc></url>
/// </urlset>"#;
/// let map = parse(body.as_bytes(), &base);
/// assert_eq!(map.kind, Kind::UrlSet);
/// assert_eq!(map.urls[0].as_str(), "https://example.com/?a=1&b=2");
/// assert_eq!((map.urls.len(), map.invalid, map.truncated, map.error), (1, 1, None, None));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sitemap {
    /// What the body was.
    pub kind: Kind,
    /// The URLs, in document order, at most [`MAX_URLS`]: pages, or for
    /// [`Kind::Index`] sitemaps.
    pub urls: Vec<Url>,
    /// Whether, and by which cap, the reading stopped early.
    pub truncated: Option<Truncation>,
    /// Locations that were not `http`/`https` URLs, too long, or used an
    /// unknown entity.
    pub invalid: usize,
    /// Why the reading stopped before the end, if it did for a reason other
    /// than a cap.
    pub error: Option<SitemapError>,
    /// Whether the body was gzip-compressed.
    pub gzip: bool,
}

/// Reads a sitemap body, compressed or not, and returns its URLs; `base` is
/// the sitemap's own URL, for relative locations. It never fails: what was
/// read before a problem is returned with the problem noted.
///
/// ```
/// use norobots_crawl::sitemap::{parse, Kind};
/// use std::io::Write;
///
/// let base = url::Url::parse("https://example.com/sitemap_index.xml.gz").unwrap();
/// let xml = b"<sm:sitemapindex xmlns:sm='http://www.sitemaps.org/schemas/sitemap/0.9'>\
///     <sm:sitemap><sm:loc>/sitemap1.xml</sm:loc></sm:sitemap></sm:sitemapindex>";
/// let mut gz = flate2::write::GzEncoder::new(Vec::new(), Default::default());
/// gz.write_all(xml).unwrap();
/// let map = parse(&gz.finish().unwrap()[..], &base);
/// assert_eq!((map.kind, map.gzip), (Kind::Index, true));
/// assert_eq!(map.urls[0].as_str(), "https://example.com/sitemap1.xml");
/// ```
pub fn parse(body: impl Read, base: &Url) -> Sitemap {
    let mut body = body;
    let mut magic = [0u8; 2];
    let mut map = Sitemap {
        kind: Kind::Text,
        urls: Vec::new(),
        truncated: None,
        invalid: 0,
        error: None,
        gzip: false,
    };
    // The first two octets decide; a short read must not hide the magic.
    let got = match read_up_to(&mut body, &mut magic) {
        Ok(n) => n,
        Err(e) => {
            map.error = Some(SitemapError::Io(e.to_string()));
            return map;
        }
    };
    let body = io::Cursor::new(magic[..got].to_vec()).chain(body);
    map.gzip = magic[..got] == [0x1f, 0x8b];
    let decoded: Box<dyn Read + '_> = if map.gzip {
        Box::new(flate2::read::MultiGzDecoder::new(body))
    } else {
        Box::new(body)
    };
    let capped_flag = Cell::new(false);
    let mut capped = Capped {
        inner: decoded,
        left: MAX_BYTES,
        hit: &capped_flag,
    };
    let mut head = [0u8; 3];
    let got = match read_up_to(&mut capped, &mut head) {
        Ok(n) => n,
        Err(e) => {
            map.error = Some(SitemapError::Io(e.to_string()));
            return map;
        }
    };
    let head = if head[..got] == *b"\xEF\xBB\xBF" {
        &[][..]
    } else {
        &head[..got]
    };
    let mut input = BufReader::new(head.chain(capped));
    match sniff(&mut input) {
        Ok(true) => read_xml(input, base, &mut map),
        Ok(false) => read_text(input, &capped_flag, &mut map),
        Err(e) => map.error = Some(SitemapError::Io(e.to_string())),
    }
    if capped_flag.get() && map.truncated.is_none() {
        map.truncated = Some(Truncation::Bytes);
    }
    map
}

fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Passes at most [`MAX_BYTES`] octets, and notes whether there were more.
struct Capped<'a, R> {
    inner: R,
    left: u64,
    hit: &'a Cell<bool>,
}

impl<R: Read> Read for Capped<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            if !self.hit.get() {
                let mut one = [0u8; 1];
                if read_up_to(&mut self.inner, &mut one)? > 0 {
                    self.hit.set(true);
                }
            }
            return Ok(0);
        }
        let room = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..room])?;
        self.left -= n as u64;
        Ok(n)
    }
}

/// Ends the stream once it runs [`MAX_RUN`] octets without `<` or `>`, so
/// that quick-xml never buffers one giant event.
struct Runs<'a, R> {
    inner: R,
    run: usize,
    hit: &'a Cell<bool>,
}

impl<R: Read> Read for Runs<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.hit.get() {
            return Ok(0);
        }
        let n = self.inner.read(buf)?;
        for (i, &b) in buf[..n].iter().enumerate() {
            if b == b'<' || b == b'>' {
                self.run = 0;
            } else {
                self.run += 1;
                if self.run > MAX_RUN {
                    self.hit.set(true);
                    return Ok(i);
                }
            }
        }
        Ok(n)
    }
}

/// Skips leading whitespace and tells whether the body is XML (it starts
/// with `<`).
fn sniff(input: &mut impl BufRead) -> io::Result<bool> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        match buf.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(i) => {
                let xml = buf[i] == b'<';
                input.consume(i);
                return Ok(xml);
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

/// Checks one location and adds it; false once the URL cap is passed.
fn add(map: &mut Sitemap, text: &str, base: Option<&Url>) -> bool {
    let text = text.trim_matches([' ', '\t', '\r', '\n']);
    let parsed = match Url::parse(text) {
        Err(url::ParseError::RelativeUrlWithoutBase) => base.and_then(|b| b.join(text).ok()),
        other => other.ok(),
    };
    match parsed {
        Some(mut url) if !text.is_empty() && matches!(url.scheme(), "http" | "https") => {
            if map.urls.len() == MAX_URLS {
                map.truncated = Some(Truncation::Urls);
                return false;
            }
            url.set_fragment(None);
            map.urls.push(url);
        }
        _ => map.invalid += 1,
    }
    true
}

/// `cut` tells whether the byte cap ended the body.
fn read_text(mut input: impl BufRead, cut: &Cell<bool>, map: &mut Sitemap) {
    map.kind = Kind::Text;
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                map.error = Some(SitemapError::Io(e.to_string()));
                return;
            }
        };
        if buf.is_empty() {
            // A last line without a newline is whole unless the cap cut
            // it; half a URL would send the crawler to a wrong page.
            if cut.get() {
                return;
            }
            if too_long {
                map.invalid += 1;
            } else {
                text_line(map, &line);
            }
            return;
        }
        let (chunk, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long {
            if line.len() + chunk.len() > MAX_URL_LEN + 2 {
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = end.unwrap_or(buf.len());
        input.consume(used);
        if end.is_some() {
            let go_on = if too_long {
                map.invalid += 1;
                true
            } else {
                text_line(map, &line)
            };
            line.clear();
            too_long = false;
            if !go_on {
                return;
            }
        }
    }
}

/// One line of a text sitemap; false once the URL cap is passed.
fn text_line(map: &mut Sitemap, line: &[u8]) -> bool {
    match std::str::from_utf8(line) {
        Ok(text) if text.trim().is_empty() => true,
        Ok(text) if text.trim().len() > MAX_URL_LEN => {
            map.invalid += 1;
            true
        }
        Ok(text) => add(map, text.trim(), None),
        Err(_) => {
            map.invalid += 1;
            true
        }
    }
}

/// The elements that matter, by local name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum El {
    UrlSet,
    Index,
    Url,
    Sitemap,
    Loc,
    Item,
    Entry,
    Link,
    Other,
}

fn classify(local: &str) -> El {
    match local {
        "urlset" => El::UrlSet,
        "sitemapindex" => El::Index,
        "url" => El::Url,
        "sitemap" => El::Sitemap,
        "loc" => El::Loc,
        "item" => El::Item,
        "entry" => El::Entry,
        "link" => El::Link,
        _ => El::Other,
    }
}

/// The text of the location being read.
#[derive(Default)]
struct Value {
    text: String,
    bad: bool,
}

impl Value {
    fn push(&mut self, s: &str) {
        if self.text.len() + s.len() > MAX_URL_LEN {
            self.bad = true;
        } else if !self.bad {
            self.text.push_str(s);
        }
    }
}

fn read_xml<R: BufRead>(input: R, base: &Url, map: &mut Sitemap) {
    let run_flag = Cell::new(false);
    let runs = BufReader::new(Runs {
        inner: input,
        run: 0,
        hit: &run_flag,
    });
    let mut reader = quick_xml::Reader::from_reader(runs);
    let mut buf = Vec::new();
    let mut stack: Vec<El> = Vec::new();
    // The location being read, and the depth of its element.
    let mut value: Option<(usize, Value)> = None;
    map.kind = Kind::Unknown;
    let mut rooted = false;
    loop {
        buf.clear();
        let event = match reader.read_event_into(&mut buf) {
            Ok(event) => event,
            Err(e) => {
                map.error = Some(SitemapError::Xml {
                    position: reader.error_position(),
                    message: e.to_string(),
                });
                break;
            }
        };
        let go_on = match event {
            Event::Start(e) | Event::Empty(e) if !rooted => {
                rooted = true;
                map.kind = root_kind(e.local_name().as_ref());
                if matches!(map.kind, Kind::Html | Kind::Unknown) {
                    return;
                }
                stack.push(classify(e.local_name().as_ref()));
                true
            }
            Event::Start(e) => {
                if stack.len() >= MAX_DEPTH {
                    map.error = Some(SitemapError::TooDeep);
                    break;
                }
                let el = classify(e.local_name().as_ref());
                let parent = stack.last().copied();
                stack.push(el);
                if value.is_none() && wants_text(map.kind, parent, el) {
                    value = Some((stack.len(), Value::default()));
                    true
                } else {
                    atom_link(map, parent, el, &e, base)
                }
            }
            Event::Empty(e) => {
                let el = classify(e.local_name().as_ref());
                let parent = stack.last().copied();
                atom_link(map, parent, el, &e, base)
            }
            Event::End(_) => {
                let depth = stack.len();
                stack.pop();
                match value.take() {
                    Some((at, v)) if at == depth => {
                        if v.bad {
                            map.invalid += 1;
                            true
                        } else {
                            add(map, &v.text, Some(base))
                        }
                    }
                    other => {
                        value = other;
                        true
                    }
                }
            }
            Event::Text(t) => {
                if let Some((_, v)) = value.as_mut() {
                    v.push(&t.xml10_content());
                }
                true
            }
            Event::CData(t) => {
                if let Some((_, v)) = value.as_mut() {
                    v.push(&t.xml10_content());
                }
                true
            }
            Event::GeneralRef(r) => {
                if let Some((_, v)) = value.as_mut() {
                    match entity(&r) {
                        Some(s) => v.push(&s),
                        None => v.bad = true,
                    }
                }
                true
            }
            Event::Eof => break,
            // Declarations, comments, processing instructions and the DTD
            // carry no URLs; the DTD's entities are never defined.
            _ => true,
        };
        if !go_on {
            break;
        }
    }
    if run_flag.get() {
        map.error = Some(SitemapError::RunTooLong);
    }
}

fn root_kind(local: &str) -> Kind {
    match local {
        "urlset" => Kind::UrlSet,
        "sitemapindex" => Kind::Index,
        "rss" | "RDF" | "feed" => Kind::Feed,
        _ if local.eq_ignore_ascii_case("html") => Kind::Html,
        _ => Kind::Unknown,
    }
}

/// Whether the text of `el` under `parent` is a location.
fn wants_text(kind: Kind, parent: Option<El>, el: El) -> bool {
    match (kind, parent, el) {
        (Kind::UrlSet, Some(El::Url), El::Loc) => true,
        (Kind::Index, Some(El::Sitemap), El::Loc) => true,
        // RSS: the item's link; an Atom link has no text worth reading.
        (Kind::Feed, Some(El::Item), El::Link) => true,
        _ => false,
    }
}

/// Adds `el`'s `href` if it is an Atom entry's link to the entry's page;
/// false once the URL cap is passed.
fn atom_link(
    map: &mut Sitemap,
    parent: Option<El>,
    el: El,
    e: &BytesStart<'_>,
    base: &Url,
) -> bool {
    if (map.kind, parent, el) != (Kind::Feed, Some(El::Entry), El::Link) {
        return true;
    }
    let rel = attribute(e, "rel");
    if rel.is_some() && rel.as_deref() != Some("alternate") {
        return true;
    }
    match attribute(e, "href") {
        Some(href) => add(map, &href, Some(base)),
        None => true,
    }
}

fn attribute(e: &BytesStart<'_>, name: &str) -> Option<String> {
    e.attributes().flatten().find_map(|a| {
        (a.key.local_name().as_ref() == name)
            .then(|| {
                a.normalized_value(XmlVersion::Implicit1_0)
                    .ok()
                    .map(Cow::into_owned)
            })
            .flatten()
    })
}

/// XML's five entities and character references; `None` for anything a DTD
/// would have to define.
fn entity(r: &str) -> Option<Cow<'static, str>> {
    if let Some(num) = r.strip_prefix('#') {
        let code = match num.strip_prefix('x') {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        return char::from_u32(code)
            .filter(|&c| c != '\0')
            .map(|c| Cow::Owned(c.to_string()));
    }
    quick_xml::escape::resolve_predefined_entity(r).map(Cow::Borrowed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn base() -> Url {
        Url::parse("https://example.com/sitemap.xml").unwrap()
    }

    fn read(body: &str) -> Sitemap {
        parse(body.as_bytes(), &base())
    }

    fn strs(map: &Sitemap) -> Vec<&str> {
        map.urls.iter().map(Url::as_str).collect()
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(data).unwrap();
        gz.finish().unwrap()
    }

    #[test]
    fn urlset_as_sitemaps_org_writes_it() {
        let map = read(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
   <url>
      <loc>http://www.example.com/</loc>
      <lastmod>2005-01-01</lastmod>
      <changefreq>monthly</changefreq>
      <priority>0.8</priority>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=12&amp;desc=vacation_hawaii</loc>
   </url>
</urlset>"#,
        );
        assert_eq!(map.kind, Kind::UrlSet);
        assert_eq!(
            strs(&map),
            [
                "http://www.example.com/",
                "http://www.example.com/catalog?item=12&desc=vacation_hawaii"
            ]
        );
        assert_eq!(
            (map.invalid, map.truncated, map.error, map.gzip),
            (0, None, None, false)
        );
    }

    #[test]
    fn sitemap_index_lists_child_sitemaps() {
        let map = read(
            "<sitemapindex xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>\
             <sitemap><loc>https://example.com/s1.xml.gz</loc><lastmod>2004-10-01</lastmod></sitemap>\
             <sitemap><loc>https://example.com/s2.xml</loc></sitemap></sitemapindex>",
        );
        assert_eq!(map.kind, Kind::Index);
        assert_eq!(
            strs(&map),
            [
                "https://example.com/s1.xml.gz",
                "https://example.com/s2.xml"
            ]
        );
    }

    #[test]
    fn namespaces_are_matched_by_local_name() {
        for body in [
            "<urlset><url><loc>https://example.com/a</loc></url></urlset>",
            "<s:urlset xmlns:s='http://www.sitemaps.org/schemas/sitemap/0.9'><s:url><s:loc>https://example.com/a</s:loc></s:url></s:urlset>",
            "<urlset xmlns='urn:other'><url><loc>https://example.com/a</loc></url></urlset>",
        ] {
            assert_eq!(strs(&read(body)), ["https://example.com/a"], "{body}");
        }
    }

    #[test]
    fn only_locations_in_the_right_place_count() {
        let map = read(
            "<urlset xmlns:image='http://www.google.com/schemas/sitemap-image/1.1'>\
             <url><loc>https://example.com/page</loc>\
               <image:image><image:loc>https://example.com/photo.jpg</image:loc></image:image></url>\
             <loc>https://example.com/stray</loc>\
             <sitemap><loc>https://example.com/wrong-kind</loc></sitemap></urlset>",
        );
        assert_eq!(strs(&map), ["https://example.com/page"]);
    }

    #[test]
    fn locations_are_trimmed_decoded_and_resolved() {
        let map = read(
            "<urlset>\
             <url><loc>\n\t https://example.com/a?x=1&amp;y=&#50;&#x33; \r\n</loc></url>\
             <url><loc><![CDATA[https://example.com/b?x=<1>&y]]></loc></url>\
             <url><loc>/relative/path</loc></url>\
             <url><loc>https://example.com/frag#part</loc></url>\
             <url><loc>https://EXAMPLE.com:443/c</loc></url>\
             </urlset>",
        );
        assert_eq!(
            strs(&map),
            [
                "https://example.com/a?x=1&y=23",
                "https://example.com/b?x=%3C1%3E&y",
                "https://example.com/relative/path",
                "https://example.com/frag",
                "https://example.com/c",
            ]
        );
    }

    #[test]
    fn bad_locations_are_counted_not_kept() {
        let map = read(&format!(
            "<urlset>\
             <url><loc>ftp://example.com/x</loc></url>\
             <url><loc>javascript:alert(1)</loc></url>\
             <url><loc>mailto:a@example.com</loc></url>\
             <url><loc></loc></url>\
             <url><loc>http://[bad</loc></url>\
             <url><loc>https://example.com/{}</loc></url>\
             <url><loc>https://example.com/ok</loc></url>\
             </urlset>",
            "x".repeat(MAX_URL_LEN)
        ));
        assert_eq!(strs(&map), ["https://example.com/ok"]);
        assert_eq!(map.invalid, 6);
    }

    // No entity a DTD defines is ever expanded: billion laughs and XXE.
    #[test]
    fn custom_entities_are_not_expanded() {
        let laughs = r#"<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY xxe SYSTEM "file:///etc/passwd">
]>
<urlset><url><loc>https://example.com/&lol9;</loc></url>
<url><loc>https://example.com/&xxe;</loc></url>
<url><loc>https://example.com/fine</loc></url></urlset>"#;
        let map = read(laughs);
        assert_eq!(strs(&map), ["https://example.com/fine"]);
        assert_eq!(map.invalid, 2);
        assert_eq!(entity("lol"), None);
        assert_eq!(entity("#0"), None);
        assert_eq!(entity("#x110000"), None);
        assert_eq!(entity("amp").as_deref(), Some("&"));
    }

    #[test]
    fn malformed_xml_keeps_what_came_before() {
        let map = read(
            "<urlset><url><loc>https://example.com/a</loc></url>\
             <url><loc>https://example.com/b</loc></url><url><loc>https://example.com/c</lo></url>",
        );
        assert_eq!(
            strs(&map),
            ["https://example.com/a", "https://example.com/b"]
        );
        match map.error {
            Some(SitemapError::Xml { position, .. }) => assert!(position > 90, "{position}"),
            other => panic!("{other:?}"),
        }
        // Truncated mid-document: no error from the end, the URLs kept.
        let map = read("<urlset><url><loc>https://example.com/a</loc></url><url><loc>https://exa");
        assert_eq!(strs(&map), ["https://example.com/a"]);
        // Not UTF-8.
        let map = parse(
            &b"<urlset><url><loc>https://example.com/\xff</loc></url></urlset>"[..],
            &base(),
        );
        assert!(map.urls.is_empty());
    }

    #[test]
    fn deep_nesting_stops_early() {
        let body = "<urlset>".to_string() + &"<x>".repeat(1_000_000);
        let map = read(&body);
        assert_eq!(map.error, Some(SitemapError::TooDeep));
        let ok = format!(
            "<urlset>{}<url><loc>https://example.com/</loc></url></urlset>",
            "<x></x>".repeat(10_000)
        );
        assert_eq!(read(&ok).urls.len(), 1);
    }

    #[test]
    fn html_and_other_xml_yield_nothing() {
        for body in [
            "<!DOCTYPE html><html><head><title>404</title></head><body><a href='https://example.com/'>x</a></body></html>",
            "<HTML><BODY>Error",
            "\u{FEFF}  <!-- a comment --><html lang=en>",
        ] {
            let map = read(body);
            assert_eq!((map.kind, map.urls.len()), (Kind::Html, 0), "{body}");
        }
        let map =
            read("<?xml version='1.0'?><foo><url><loc>https://example.com/</loc></url></foo>");
        assert_eq!((map.kind, map.urls.len()), (Kind::Unknown, 0));
        let map = read("<<<<");
        assert_eq!((map.kind, map.urls.len()), (Kind::Unknown, 0));
        assert!(map.error.is_some());
    }

    #[test]
    fn text_sitemaps_one_url_per_line() {
        let map = read(
            "\u{FEFF}https://example.com/a\r\n\n   https://example.com/b  \n\
             not a url\n/relative\nftp://example.com/f\nhttps://example.com/c",
        );
        assert_eq!(map.kind, Kind::Text);
        assert_eq!(
            strs(&map),
            [
                "https://example.com/a",
                "https://example.com/b",
                "https://example.com/c"
            ]
        );
        assert_eq!(map.invalid, 3);
        let map = parse(
            &b"https://example.com/\xff\nhttps://example.com/ok\n"[..],
            &base(),
        );
        assert_eq!(
            (strs(&map), map.invalid),
            (vec!["https://example.com/ok"], 1)
        );
        let empty = read("");
        assert_eq!(
            (empty.kind, empty.urls.len(), empty.error),
            (Kind::Text, 0, None)
        );
    }

    // A 50 MB single line: skipped, memory bounded by MAX_URL_LEN.
    #[test]
    fn a_giant_line_is_skipped() {
        struct Endless(u64);
        impl Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(self.0 as usize);
                buf[..n].fill(b'a');
                self.0 -= n as u64;
                Ok(n)
            }
        }
        let body = io::Cursor::new(b"https://example.com/first\nhttps://example.com/".to_vec())
            .chain(Endless(MAX_BYTES))
            .chain(&b"\nhttps://example.com/never\n"[..]);
        let map = parse(body, &base());
        assert_eq!(strs(&map), ["https://example.com/first"]);
        assert_eq!(map.truncated, Some(Truncation::Bytes));
        let body = io::Cursor::new(b"https://example.com/".to_vec())
            .chain(Endless(10 * MAX_URL_LEN as u64))
            .chain(&b"\nhttps://example.com/after\n"[..]);
        let map = parse(body, &base());
        assert_eq!(
            (strs(&map), map.invalid, map.truncated),
            (vec!["https://example.com/after"], 1, None)
        );
    }

    #[test]
    fn a_line_cut_by_the_byte_cap_is_dropped() {
        // Long lines, so that the byte cap comes before the URL cap.
        let line = format!("https://example.com/{}\n", "p".repeat(2000));
        let n = MAX_BYTES as usize / line.len();
        let mut body = line.repeat(n);
        body.push_str(&line);
        let map = parse(body.as_bytes(), &base());
        assert_eq!(map.truncated, Some(Truncation::Bytes));
        assert!(MAX_BYTES as usize > n * line.len());
        assert_eq!(map.urls.len(), n);
        assert_eq!(map.invalid, 0);
    }

    #[test]
    fn exactly_the_caps_is_not_truncated() {
        let body: String = (0..MAX_URLS)
            .map(|i| format!("https://example.com/{i}\n"))
            .collect();
        let map = read(&body);
        assert_eq!((map.urls.len(), map.truncated), (MAX_URLS, None));
        let xml = format!(
            "<urlset>{}</urlset>",
            (0..=MAX_URLS)
                .map(|i| format!("<url><loc>https://example.com/{i}</loc></url>"))
                .collect::<String>()
        );
        let map = read(&xml);
        assert_eq!(
            (map.urls.len(), map.truncated),
            (MAX_URLS, Some(Truncation::Urls))
        );
        assert_eq!(
            map.urls.last().unwrap().as_str(),
            format!("https://example.com/{}", MAX_URLS - 1)
        );
    }

    #[test]
    fn gzip_is_told_by_its_magic() {
        let xml = b"<urlset><url><loc>https://example.com/z</loc></url></urlset>";
        let map = parse(&gzip(xml)[..], &base());
        assert_eq!(
            (map.kind, map.gzip, strs(&map)),
            (Kind::UrlSet, true, vec!["https://example.com/z"])
        );
        let text = parse(&gzip(b"https://example.com/t\n")[..], &base());
        assert_eq!(
            (text.kind, text.gzip, text.urls.len()),
            (Kind::Text, true, 1)
        );
        // Two members, as `cat a.gz b.gz` makes.
        let mut two = gzip(b"https://example.com/1\n");
        two.extend(gzip(b"https://example.com/2\n"));
        assert_eq!(parse(&two[..], &base()).urls.len(), 2);
        // The magic split over two reads still counts.
        struct Dribble(Vec<u8>, usize);
        impl Read for Dribble {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.1 >= self.0.len() || buf.is_empty() {
                    return Ok(0);
                }
                buf[0] = self.0[self.1];
                self.1 += 1;
                Ok(1)
            }
        }
        let map = parse(Dribble(gzip(xml), 0), &base());
        assert_eq!((map.gzip, map.urls.len()), (true, 1));
    }

    #[test]
    fn corrupt_gzip_keeps_what_came_before() {
        let body: String = (0..2000)
            .map(|i| format!("https://example.com/{i}\n"))
            .collect();
        let mut gz = gzip(body.as_bytes());
        let len = gz.len();
        gz[len / 2..].fill(0x55);
        let map = parse(&gz[..], &base());
        assert!(
            matches!(map.error, Some(SitemapError::Io(_))),
            "{:?}",
            map.error
        );
        assert!(map.urls.len() < 2000);
    }

    // A gzip bomb stops at 50 MB of output, not at the end of the bomb.
    #[test]
    fn gzip_bombs_stop_at_the_byte_cap() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(b"<urlset><url><loc>https://example.com/</loc></url>")
            .unwrap();
        // Markup, so that it is the byte cap and not the run cap that acts.
        let filler = b"<a/>".repeat(1 << 18);
        for _ in 0..200 {
            gz.write_all(&filler).unwrap();
        }
        gz.write_all(b"<url><loc>https://example.com/never</loc></url></urlset>")
            .unwrap();
        let bomb = gz.finish().unwrap();
        assert!(bomb.len() < 1 << 20);
        let map = parse(&bomb[..], &base());
        assert_eq!(strs(&map), ["https://example.com/"]);
        assert_eq!(map.truncated, Some(Truncation::Bytes));
    }

    #[test]
    fn giant_xml_events_are_refused() {
        let text = format!(
            "<urlset><url><loc>https://example.com/{}</loc></url></urlset>",
            "a".repeat(MAX_RUN + 10)
        );
        let map = read(&text);
        assert_eq!(map.error, Some(SitemapError::RunTooLong));
        let tag = format!("<urlset><url {}>", "a".repeat(MAX_RUN + 10));
        assert_eq!(read(&tag).error, Some(SitemapError::RunTooLong));
        // Long but within the run: fine, and the location is merely too long.
        let text = format!(
            "<urlset><url><loc>https://example.com/{}</loc></url></urlset>",
            "a".repeat(MAX_URL_LEN)
        );
        let map = read(&text);
        assert_eq!((map.error, map.invalid), (None, 1));
    }

    #[test]
    fn rss_and_atom_feeds() {
        let rss = read(
            "<?xml version='1.0'?><rss version='2.0'><channel><title>t</title>\
             <link>https://example.com/</link>\
             <item><title>a</title><link>https://example.com/a</link></item>\
             <item><link> https://example.com/b?x=1&amp;y=2 </link></item></channel></rss>",
        );
        assert_eq!(rss.kind, Kind::Feed);
        assert_eq!(
            strs(&rss),
            ["https://example.com/a", "https://example.com/b?x=1&y=2"]
        );
        let atom = read(
            "<feed xmlns='http://www.w3.org/2005/Atom'><link href='https://example.com/'/>\
             <entry><link href='https://example.com/e1'/><link rel='edit' href='https://example.com/edit'/></entry>\
             <entry><link rel='alternate' href='/e2'></link></entry></feed>",
        );
        assert_eq!(atom.kind, Kind::Feed);
        assert_eq!(
            strs(&atom),
            ["https://example.com/e1", "https://example.com/e2"]
        );
        let rdf = read(
            "<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#' xmlns='http://purl.org/rss/1.0/'>\
             <channel><link>https://example.com/</link></channel>\
             <item><link>https://example.com/r</link></item></rdf:RDF>",
        );
        assert_eq!(strs(&rdf), ["https://example.com/r"]);
    }

    #[test]
    fn an_empty_root_or_a_failing_reader() {
        let map = read("<urlset/>");
        assert_eq!(
            (map.kind, map.urls.len(), map.error),
            (Kind::UrlSet, 0, None)
        );
        struct Fails;
        impl Read for Fails {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("reset"))
            }
        }
        assert!(matches!(
            parse(Fails, &base()).error,
            Some(SitemapError::Io(_))
        ));
        let body = io::Cursor::new(b"<urlset><url><loc>https://example.com/a</loc></url>".to_vec())
            .chain(Fails);
        let map = parse(body, &base());
        assert_eq!(strs(&map), ["https://example.com/a"]);
        assert!(map.error.is_some());
    }

    proptest::proptest! {
        // Hostile input never panics and never exceeds the caps.
        #[test]
        fn any_bytes_are_read_without_panic(body in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2000)) {
            let map = parse(&body[..], &base());
            proptest::prop_assert!(map.urls.len() <= MAX_URLS);
            proptest::prop_assert!(map.urls.iter().all(|u| matches!(u.scheme(), "http" | "https") && u.fragment().is_none()));
            let _ = parse(&gzip(&body)[..], &base());
        }

        #[test]
        fn xml_shaped_noise_never_panics(parts in proptest::collection::vec(proptest::sample::select(vec![
            "<urlset>", "</urlset>", "<url>", "</url>", "<loc>", "</loc>", "<sitemapindex>", "<sitemap>",
            "https://example.com/", "a", "&amp;", "&lol;", "&#x26;", "<![CDATA[x]]>", "<!--c-->", "<!DOCTYPE x [<!ENTITY a 'b'>]>",
            "<rss>", "<item>", "<link>", "</link>", "<entry>", "<link href='/x'/>", "<feed>", " ", "\n", "<", ">", "&",
        ]), 0..60)) {
            let body: String = parts.concat();
            let map = read(&body);
            proptest::prop_assert!(map.urls.len() <= MAX_URLS);
        }

        // Every well-formed location written comes back, in order.
        #[test]
        fn written_urls_come_back(paths in proptest::collection::vec("[a-zA-Z0-9/._~-]{0,20}", 0..40)) {
            let urls: Vec<String> = paths.iter().map(|p| format!("https://example.com/{p}")).collect();
            let xml = format!("<urlset>{}</urlset>", urls.iter().map(|u| format!("<url><loc>{u}</loc></url>")).collect::<String>());
            let expected: Vec<String> = urls.iter().map(|u| Url::parse(u).unwrap().to_string()).collect();
            let got: Vec<String> = read(&xml).urls.iter().map(Url::to_string).collect();
            proptest::prop_assert_eq!(&got, &expected);
            let text: String = urls.iter().map(|u| format!("{u}\n")).collect();
            let got: Vec<String> = read(&text).urls.iter().map(Url::to_string).collect();
            proptest::prop_assert_eq!(&got, &expected);
        }
    }
}
