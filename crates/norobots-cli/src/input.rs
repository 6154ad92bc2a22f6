//! Where the robots file comes from, and reading it.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;

use norobots::{ParseOptions, Robots};

use crate::error::CliError;

/// The most the CLI reads of one input, a robots file, a page or a URL
/// line: 64 MiB. Nothing that large is a robots.txt (crawlers read the
/// first 500 KiB; the corpus's largest file is 3.7 MB), and `--robots
/// /dev/zero` or an endless pipe must end with an error, not take all
/// memory.
pub const MAX_INPUT: u64 = 64 << 20;

/// All of `reader`, or an error once it passes [`MAX_INPUT`].
fn read_at_most(reader: impl Read) -> io::Result<Vec<u8>> {
    let mut body = Vec::new();
    reader.take(MAX_INPUT + 1).read_to_end(&mut body)?;
    if body.len() as u64 > MAX_INPUT {
        return Err(io::Error::other(format!(
            "larger than {} MiB, the most norobots reads",
            MAX_INPUT >> 20
        )));
    }
    Ok(body)
}

/// The source of the robots file named by `--robots`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RobotsSource {
    /// `--robots -`: the whole of stdin is the robots file.
    Stdin,
    /// Any other value is a path on disk.
    File(PathBuf),
}

impl RobotsSource {
    /// Interprets the `--robots` argument; `-` means stdin, as in most Unix tools.
    pub fn from_arg(arg: PathBuf) -> Self {
        if arg.as_os_str() == OsStr::new("-") {
            RobotsSource::Stdin
        } else {
            RobotsSource::File(arg)
        }
    }

    /// Reads the whole file as bytes; robots.txt files in the wild are not
    /// always UTF-8, and the parser copes with that, so no decoding here.
    /// More than [`MAX_INPUT`] octets is an error, not a truncated file.
    pub fn read(&self) -> Result<Vec<u8>, CliError> {
        match self {
            RobotsSource::Stdin => {
                read_at_most(io::stdin().lock()).map_err(CliError::ReadRobotsStdin)
            }
            RobotsSource::File(path) => {
                File::open(path)
                    .and_then(read_at_most)
                    .map_err(|source| CliError::ReadRobotsFile {
                        path: path.clone(),
                        source,
                    })
            }
        }
    }

    /// Reads and parses the robots file.
    pub fn load(&self, options: &ParseOptions) -> Result<Robots, CliError> {
        let body = self.read()?;
        Ok(Robots::parse_with(&body, options))
    }
}

/// Why `url` is not something `check` can answer for, if it is not: a
/// path that starts with `/`, or an absolute URL `scheme://host…`. The one
/// rule for URLs given as arguments and read from stdin, with or without
/// `--robots`: a robots file speaks only of paths on a host, so `admin/`,
/// `not a url`, `http://` and an empty line have no answer, and saying
/// `allowed` for them would hide the typo.
///
/// Only the shape is checked, on octets: a URL need not be UTF-8 to be
/// decided on its octets.
pub fn url_problem(url: &[u8]) -> Option<String> {
    if url.is_empty() {
        return Some("empty, not a URL or a path".into());
    }
    if url[0] == b'/' {
        return None;
    }
    let scheme_len = url
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
        .unwrap_or(url.len());
    let shown = String::from_utf8_lossy(url);
    if scheme_len == 0 || !url[0].is_ascii_alphabetic() || !url[scheme_len..].starts_with(b"://") {
        let hint = if url.contains(&b'/') && !url.contains(&b':') && !url.contains(&b' ') {
            format!(" (a path starts with `/`: `/{shown}`?)")
        } else {
            String::new()
        };
        return Some(format!(
            "`{shown}` is neither a URL (`scheme://host/path`) nor a path (`/path`){hint}"
        ));
    }
    let authority = &url[scheme_len + 3..];
    let host_end = authority
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(authority.len());
    if host_end == 0 {
        return Some(format!("`{shown}` is a URL without a host"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_absolute_urls_are_answerable() {
        for ok in [
            &b"/"[..],
            b"/a?b",
            b"/caf\xe9",
            b"https://example.com",
            b"http://example.com:8080/x",
            b"HTTP://EXAMPLE.COM/",
            b"ftp://h/x",
            b"http://user@h",
        ] {
            assert_eq!(url_problem(ok), None, "{}", String::from_utf8_lossy(ok));
        }
    }

    // Issue 47: each of these was answered `allowed`.
    #[test]
    fn what_is_not_a_url_or_a_path_says_why() {
        assert_eq!(url_problem(b"").unwrap(), "empty, not a URL or a path");
        assert_eq!(
            url_problem(b"http://").unwrap(),
            "`http://` is a URL without a host"
        );
        assert_eq!(
            url_problem(b"http:///x").unwrap(),
            "`http:///x` is a URL without a host"
        );
        assert!(url_problem(b"not a url")
            .unwrap()
            .starts_with("`not a url` is neither a URL"));
        assert!(url_problem(b"admin/")
            .unwrap()
            .ends_with("(a path starts with `/`: `/admin/`?)"));
        for bad in [
            &b"example.com"[..],
            b"mailto:x@y",
            b"1http://x",
            b"*",
            b" /x",
        ] {
            assert!(
                url_problem(bad).is_some(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
