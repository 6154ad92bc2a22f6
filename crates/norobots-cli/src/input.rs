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
