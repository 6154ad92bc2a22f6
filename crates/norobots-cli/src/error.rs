//! The one error type of the CLI: anything that ends a run with exit status 2.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// A reason the CLI cannot give a verdict.
///
/// Every variant renders as a single line so that scripts can show it as-is;
/// `main` prefixes it with `norobots: error: `.
#[derive(Debug)]
pub enum CliError {
    /// The command line is well-formed for clap but still unusable, for
    /// example an unknown dialect or stdin asked to supply two things.
    Usage(String),
    /// The robots file could not be read from disk.
    ReadRobotsFile {
        /// The path as given on the command line.
        path: PathBuf,
        /// Why the read failed.
        source: io::Error,
    },
    /// The robots file could not be read from stdin (`--robots -`).
    ReadRobotsStdin(io::Error),
    /// Reading URLs from stdin failed part way through.
    ReadUrls(io::Error),
    /// Writing results to stdout failed. A broken pipe never gets here: the
    /// reader going away is a normal end of the run, not an error.
    Write(io::Error),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(message) => f.write_str(message),
            CliError::ReadRobotsFile { path, source } => {
                write!(f, "cannot read robots file `{}`: {source}", path.display())
            }
            CliError::ReadRobotsStdin(source) => {
                write!(f, "cannot read robots file from stdin: {source}")
            }
            CliError::ReadUrls(source) => write!(f, "cannot read URLs from stdin: {source}"),
            CliError::Write(source) => write!(f, "cannot write output: {source}"),
        }
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CliError::Usage(_) => None,
            CliError::ReadRobotsFile { source, .. }
            | CliError::ReadRobotsStdin(source)
            | CliError::ReadUrls(source)
            | CliError::Write(source) => Some(source),
        }
    }
}

/// An output error of a command that writes as it goes (`crawl
/// --export-log`, `--status`).
impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Write(e)
    }
}
