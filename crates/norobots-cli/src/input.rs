//! Where the robots file comes from, and reading it.

use std::ffi::OsStr;
use std::fs;
use std::io::{self, Read};
use std::path::PathBuf;

use norobots::{ParseOptions, Robots};

use crate::error::CliError;

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
    pub fn read(&self) -> Result<Vec<u8>, CliError> {
        match self {
            RobotsSource::Stdin => {
                let mut body = Vec::new();
                io::stdin()
                    .lock()
                    .read_to_end(&mut body)
                    .map_err(CliError::ReadRobotsStdin)?;
                Ok(body)
            }
            RobotsSource::File(path) => fs::read(path).map_err(|source| CliError::ReadRobotsFile {
                path: path.clone(),
                source,
            }),
        }
    }

    /// Reads and parses the robots file.
    pub fn load(&self, options: &ParseOptions) -> Result<Robots, CliError> {
        let body = self.read()?;
        Ok(Robots::parse_with(&body, options))
    }
}
