//! `norobots meta`: what a page says to one robot, from its META tags and
//! its `X-Robots-Tag` headers.

use std::io::{self, BufWriter, Write};

use norobots::meta::{DocumentState, Link, PageDirectives};
use norobots_tools::Escaped;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::json;

use crate::error::CliError;
use crate::input::RobotsSource;
use crate::json::Each;

/// Everything `norobots meta` needs.
#[derive(Clone, Debug)]
pub struct MetaCommand {
    /// The HTML page (`-` for stdin).
    pub page: RobotsSource,
    /// The robot asking.
    pub agent: String,
    /// `X-Robots-Tag` header values that came with the page.
    pub headers: Vec<String>,
    /// One JSON object instead of text.
    pub json: bool,
}

/// Reads the page and prints the directives.
pub fn run(command: &MetaCommand) -> Result<(), CliError> {
    let html = match command.page.read() {
        Err(CliError::ReadRobotsFile { path, source }) => {
            return Err(CliError::Usage(format!(
                "cannot read page `{}`: {source}",
                path.display()
            )))
        }
        other => other?,
    };
    let page =
        PageDirectives::from_headers(command.headers.iter().map(String::as_str), &command.agent)
            .combine(PageDirectives::from_html(&html, &command.agent));
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = if command.json {
        write_json(&mut out, &page)
    } else {
        write_text(&mut Escaped(&mut out), &page)
    };
    match result.and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(CliError::Write(e)),
        _ => Ok(()),
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn state(s: Option<DocumentState>) -> Option<&'static str> {
    s.map(|s| match s {
        DocumentState::Static => "static",
        DocumentState::Dynamic => "dynamic",
    })
}

fn write_text(out: &mut impl Write, page: &PageDirectives) -> io::Result<()> {
    writeln!(out, "index        {}", yes_no(page.index))?;
    writeln!(out, "follow       {}", yes_no(page.follow))?;
    if !page.other.is_empty() {
        writeln!(out, "other        {}", page.other.join(", "))?;
    }
    if let Some(s) = state(page.document_state) {
        writeln!(out, "state        {s}")?;
    }
    if let Some(url) = &page.url {
        writeln!(out, "url          {url}")?;
    }
    let nofollow = page.links.iter().filter(|l| l.nofollow).count();
    let followable = page.links.iter().filter(|l| page.may_follow(l)).count();
    writeln!(
        out,
        "links        {} ({} rel=nofollow, {} may be followed)",
        page.links.len(),
        nofollow,
        followable
    )
}

/// One line of JSON, its links written one at a time: a page of millions of
/// links would take gigabytes as a tree of values.
fn write_json(out: &mut impl Write, page: &PageDirectives) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &PageJson(page))?;
    out.write_all(b"\n")
}

/// The page's document. Keys come in the order of a `json!` object's
/// (sorted), as they did when the document was one.
struct PageJson<'a>(&'a PageDirectives);

impl Serialize for PageJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let page = self.0;
        let mut map = serializer.serialize_map(Some(8))?;
        map.serialize_entry("description", &page.description)?;
        map.serialize_entry("document_state", &state(page.document_state))?;
        map.serialize_entry("follow", &page.follow)?;
        map.serialize_entry("index", &page.index)?;
        map.serialize_entry("keywords", &page.keywords)?;
        let link = |l: &Link| json!({"href": l.href, "nofollow": l.nofollow, "follow": page.may_follow(l)});
        map.serialize_entry("links", &Each(|| page.links.iter().map(link)))?;
        map.serialize_entry("other", &page.other)?;
        map.serialize_entry("url", &page.url)?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Written as it is walked, the line is still the one a tree of values
    // would print, keys in the same order.
    #[test]
    fn json_prints_as_the_tree_of_its_values() {
        let html = br#"<meta name=robots content="noindex, noarchive"><meta name=description content="A shop"><a href="/a" rel="nofollow">a</a><a href="/b">b</a>"#;
        let page = PageDirectives::from_html(html, "bot");
        let mut out = Vec::new();
        write_json(&mut out, &page).unwrap();
        let tree = json!({
            "index": false,
            "follow": true,
            "other": ["noarchive"],
            "document_state": null,
            "url": null,
            "keywords": null,
            "description": "A shop",
            "links": [
                {"href": "/a", "nofollow": true, "follow": false},
                {"href": "/b", "nofollow": false, "follow": true},
            ],
        });
        assert_eq!(String::from_utf8(out).unwrap(), format!("{tree}\n"));
    }

    #[test]
    fn text_shows_the_restrictive_result_and_the_links() {
        let html = br#"<meta name=robots content="noindex"><a href="/a" rel="nofollow">a</a><a href="/b">b</a>"#;
        let page = PageDirectives::from_html(html, "bot");
        let mut out = Vec::new();
        write_text(&mut out, &page).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "index        no\nfollow       yes\nlinks        2 (1 rel=nofollow, 1 may be followed)\n"
        );
    }
}
