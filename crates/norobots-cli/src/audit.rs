//! `norobots audit LOGFILE --robots FILE`: the robots in an access log, and
//! the requests the robots.txt in force forbade them.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use norobots::{Dialect, ParseOptions};
use norobots_tools::audit::{AuditOptions, Auditor};

use crate::error::CliError;
use crate::input::RobotsSource;

/// Everything `norobots audit` needs.
#[derive(Clone, Debug)]
pub struct AuditCommand {
    /// The dialect the robots.txt is read in.
    pub dialect: Dialect,
    /// The robots.txt in force.
    pub robots: RobotsSource,
    /// The access log (plain or gzip), `-` for stdin.
    pub log: PathBuf,
    /// One JSON document instead of the table.
    pub json: bool,
}

/// Reads the log and prints the report; `Ok(true)` when some robot made a
/// request the robots.txt forbade it.
pub fn run(command: &AuditCommand) -> Result<bool, CliError> {
    let robots = command.robots.load(&ParseOptions::new(command.dialect))?;
    let auditor = Auditor::new(&robots, AuditOptions::default());
    let read_error =
        |e: io::Error| CliError::Usage(format!("cannot read log `{}`: {e}", command.log.display()));
    let report = if command.log.as_os_str() == "-" {
        auditor.audit_reader(io::stdin().lock())
    } else {
        let file = File::open(&command.log).map_err(read_error)?;
        auditor.audit_reader(file)
    }
    .map_err(read_error)?;
    let violated = report.robots.iter().any(|r| r.violations > 0);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = if command.json {
        // Robot by robot: a tree of JSON values for a million robots would
        // take gigabytes.
        report
            .write_json(&mut out)
            .and_then(|()| out.write_all(b"\n"))
    } else {
        report.write_text(&mut out)
    };
    match result.and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => return Err(CliError::Write(e)),
        _ => {}
    }
    // After the report, so that the warning is the last thing a terminal
    // shows; the report itself says so too, for whoever reads only stdout.
    if let Some(cut) = &report.cut_short {
        // Not eprintln!: it panics if stderr is gone.
        let _ = writeln!(
            io::stderr().lock(),
            "norobots: warning: log `{}` is cut short: {cut}",
            command.log.display()
        );
    }
    Ok(violated)
}
