//! `norobots meta`: what a page says to one robot, from its META tags and
//! its `X-Robots-Tag` headers.

use std::io::{self, BufWriter, Write};

use norobots::meta::{DocumentState, PageDirectives};

use crate::error::CliError;
use crate::input::RobotsSource;
use crate::terminal::Escaped;

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

fn write_json(out: &mut impl Write, page: &PageDirectives) -> io::Result<()> {
    let links: Vec<_> = page
        .links
        .iter()
        .map(|l| serde_json::json!({"href": l.href, "nofollow": l.nofollow, "follow": page.may_follow(l)}))
        .collect();
    let value = serde_json::json!({
        "index": page.index,
        "follow": page.follow,
        "other": page.other,
        "document_state": state(page.document_state),
        "url": page.url,
        "keywords": page.keywords,
        "description": page.description,
        "links": links,
    });
    serde_json::to_writer(&mut *out, &value)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

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
