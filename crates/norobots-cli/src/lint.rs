//! `norobots lint FILE`: findings for robots.txt authors, rustc style.

use std::io::{self, Write};

use norobots::Dialect;
use norobots_tools::lint::{lint, LintOptions, TextOptions};

use crate::error::CliError;
use crate::input::RobotsSource;

/// Everything `norobots lint` needs.
#[derive(Clone, Debug)]
pub struct LintCommand {
    /// The dialect the file is meant for.
    pub dialect: Dialect,
    /// The file.
    pub robots: RobotsSource,
    /// Whether to report rules whose meaning differs between draft1996 and
    /// rfc9309.
    pub divergence: bool,
    /// Whether text output prints every divergence, not each kind once.
    pub all_divergence: bool,
    /// One JSON document instead of text.
    pub json: bool,
}

/// Lints and prints; `Ok(true)` when there are errors.
pub fn run(command: &LintCommand) -> Result<bool, CliError> {
    let body = command.robots.read()?;
    let mut options = LintOptions::new(command.dialect);
    options.divergence = command.divergence;
    let report = lint(&body, &options);
    let name = match &command.robots {
        RobotsSource::Stdin => "<stdin>".to_string(),
        RobotsSource::File(path) => path.display().to_string(),
    };
    let text = if command.json {
        let mut s = serde_json::to_string_pretty(&report.to_json(&name))
            .map_err(io::Error::from)
            .map_err(CliError::Write)?;
        s.push('\n');
        s
    } else {
        let options = TextOptions {
            all_divergence: command.all_divergence,
        };
        report.render_text_with(&name, &body, &options)
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(CliError::Write(e)),
        _ => Ok(report.has_errors()),
    }
}
