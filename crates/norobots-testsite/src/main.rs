//! `norobots-testsite`: serve a scenario for dev scripts (running wget or
//! `norobots crawl` by hand against the same site the tests use).

use std::fs::File;
use std::io::{LineWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use norobots_testsite::scenario;
use tokio::signal::unix::{signal, Signal, SignalKind};

/// Serve a test site on 127.0.0.1 and log every request.
///
/// Prints one line per origin, `NAME http://127.0.0.1:PORT`, once all are
/// listening, then serves until the time is up or a signal comes.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Which site to serve.
    #[arg(long, value_enum, default_value_t = Scenario::Standard)]
    scenario: Scenario,
    /// How many pages the generated site has (on each origin).
    #[arg(long, default_value_t = 100_000)]
    pages: usize,
    /// How many origins the generated site has: one is `gen`, more are
    /// `g0`, `g1`, … (ports in that order).
    #[arg(long, default_value_t = 1)]
    origins: usize,
    /// Append each request to this file as a line of JSON.
    #[arg(long, value_name = "FILE.jsonl")]
    log: Option<PathBuf>,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECS", default_value_t = 3600.0)]
    exit_after: f64,
    /// Listen on PORT, PORT+1, … in origin order instead of ports the OS
    /// picks.
    #[arg(long, value_name = "PORT")]
    base_port: Option<u16>,
    /// Instead of serving until stopped: run COMMAND once the site is up,
    /// with `{a}`, `{b}`, … in its arguments replaced by the origins'
    /// URLs, then stop and exit with its status.
    #[arg(long, value_name = "COMMAND", num_args = 1.., allow_hyphen_values = true, trailing_var_arg = true)]
    then: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Scenario {
    /// Ten origins with every robots.txt policy, META robots, redirects and traps.
    Standard,
    /// --origins origins of --pages generated pages each.
    Generated,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("norobots-testsite: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<ExitCode, Box<dyn std::error::Error>> {
    let exit_after = Duration::try_from_secs_f64(args.exit_after)
        .map_err(|_| format!("--exit-after {}: not a number of seconds", args.exit_after))?;
    let mut site = match args.scenario {
        Scenario::Standard => scenario::standard(),
        Scenario::Generated if args.origins > 1 => {
            scenario::generated_origins(args.origins, args.pages)
        }
        Scenario::Generated => scenario::generated(args.pages),
    };
    if let Some(port) = args.base_port {
        site = site.ports_from(port);
    }
    if let Some(path) = &args.log {
        let file = File::options()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        // A line at a time, so a reader (or a kill) never sees half a line.
        let log = Mutex::new(LineWriter::new(file));
        site = site.on_request(move |request| {
            let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = writeln!(log, "{}", request.to_json()) {
                eprintln!("norobots-testsite: writing the log: {e}");
            }
        });
    }
    // The handlers are in place before the origin lines go out, so a
    // script that reads them and signals at once is always heard.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let signals = runtime.block_on(async { Signals::new() })?;
    let running = site.start()?;
    if let Some((program, rest)) = args.then.split_first() {
        let origins = running.origins();
        let fill = |arg: &str| {
            origins.iter().fold(arg.to_owned(), |a, (name, url)| {
                a.replace(&format!("{{{name}}}"), url)
            })
        };
        let status = std::process::Command::new(fill(program))
            .args(rest.iter().map(|a| fill(a)))
            .status()
            .map_err(|e| format!("{program}: {e}"))?;
        drop(running);
        return Ok(ExitCode::from(
            status.code().unwrap_or(1).clamp(0, 255) as u8
        ));
    }
    let mut out = std::io::stdout().lock();
    for (name, url) in running.origins() {
        writeln!(out, "{name} {url}")?;
    }
    out.flush()?;
    drop(out);
    runtime.block_on(signals.wait(exit_after));
    drop(running);
    Ok(ExitCode::SUCCESS)
}

struct Signals {
    interrupt: Signal,
    terminate: Signal,
}

impl Signals {
    fn new() -> std::io::Result<Signals> {
        Ok(Signals {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
        })
    }

    /// Until the time is up, or SIGINT or SIGTERM.
    async fn wait(mut self, limit: Duration) {
        tokio::select! {
            _ = tokio::time::sleep(limit) => {}
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
    }
}
