//! Text output for people, with what strangers wrote escaped on its way to
//! the terminal (see [`norobots_tools::printable`]).

use std::io::{self, Write};

use norobots_tools::printable;

/// A writer that passes everything through [`printable`]: for the text
/// reports of `parse`, `fetch` and `meta`, which quote robots.txt files and
/// pages that are often someone else's. Not for JSON (its own escapes
/// suffice, and `\u{..}` is not JSON) nor for `check`'s verdict lines,
/// which echo the caller's URLs exactly.
///
/// Each write must hold whole characters, as `write!` and `writeln!` give
/// it; an octet that is not UTF-8 is shown as U+FFFD.
pub struct Escaped<W>(pub W);

impl<W: Write> Write for Escaped<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        self.0.write_all(printable(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_a_terminal_would_act_on_and_keeps_line_feeds() {
        let mut out = Vec::new();
        let sitemap = "http://x/\x1b]0;t\x07";
        writeln!(Escaped(&mut out), "sitemap (line 3): {sitemap}").unwrap();
        assert_eq!(out, b"sitemap (line 3): http://x/\\x1b]0;t\\x07\n");
    }
}
