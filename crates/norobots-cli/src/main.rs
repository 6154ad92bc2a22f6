//! `norobots`: check URLs against a robots.txt file from the command line.
//!
//! This file only parses arguments, reports errors and picks exit codes;
//! the work is in [`check`], [`remote`], [`fetch`] and [`parse`].

mod audit;
mod check;
mod crawl;
mod error;
mod fetch;
mod input;
mod json;
mod lint;
mod meta;
mod parse;
mod remote;
mod value;

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::builder::PossibleValue;
use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand, ValueEnum};
use norobots::Dialect;

use crate::check::{CheckOptions, Format, Outcome};
use crate::error::CliError;
use crate::input::RobotsSource;

/// Exit status for success: every URL is allowed, or `parse` read the file.
const EXIT_OK: u8 = 0;
/// Exit status when at least one URL is disallowed.
const EXIT_DISALLOWED: u8 = 1;
/// Exit status for usage and input errors, clap's included.
const EXIT_ERROR: u8 = 2;
/// Exit status when nothing was disallowed but something was deferred (a
/// fetched robots.txt could not be had and the dialect says to wait).
const EXIT_DEFERRED: u8 = 3;

/// The dialect table, shared by the help of every subcommand that takes
/// `--dialect`; a macro because `concat!` accepts only literals.
macro_rules! dialects_help {
    () => {
        "\
Dialects:
  norobots1994  A Standard for Robot Exclusion (1994): User-agent and Disallow
                only; any matching Disallow excludes
  draft1996     the 1996 Internet-Draft: adds Allow; the first matching rule
                decides
  rfc9309       RFC 9309 (2022), the default: * and $ wildcards; the longest
                matching rule decides, Allow wins ties
  google        RFC 9309 as Google's reference parser reads it, quirks included"
    };
}

const CHECK_AFTER_HELP: &str = concat!(
    dialects_help!(),
    "

Output, one line per URL, in input order:
  allowed<TAB>URL  or  disallowed<TAB>URL
  --explain appends  <TAB>line N: Allow|Disallow: PATTERN  or  <TAB>no rule
  --json prints instead (and wins over --explain)
    {\"url\":URL,\"allowed\":BOOL,\"rule\":{\"line\":N,\"kind\":KIND,\"pattern\":P}|null}

Without --robots, each URL's robots.txt is fetched (once per origin) and:
  defer<TAB>URL  is printed when the dialect says to come back later
  --explain may append  <TAB>robots.txt: HTTP 404  (the whole site's answer)
    or  <TAB>until DATE: robots.txt: REASON  (for defer)
  --json adds  \"decision\":\"allow|disallow|defer\",\"reason\":TEXT|null
    and, for defer,  \"until\":DATE

Exit status:
  0  every URL is allowed (or there were none)
  1  at least one URL is disallowed
  2  usage or input error; a one-line message is printed on stderr (an
     input that is neither a URL nor a path is named by its argument or
     stdin line, and the other URLs are still answered)
  3  none is disallowed, but some are deferred (fetched robots.txt only)"
);

const TOP_AFTER_HELP: &str = concat!(
    dialects_help!(),
    "

Exit status:
  0  success; for check, every URL is allowed
  1  check: at least one URL is disallowed
  2  usage or input error; a one-line message is printed on stderr
  3  check, fetch: the robots.txt fetch said to come back later (deferred)

Run `norobots check --help` for the output formats."
);

const PARSE_AFTER_HELP: &str = concat!(
    dialects_help!(),
    "

Exit status:
  0  the file was read (diagnostics do not change the status)
  2  usage or input error; a one-line message is printed on stderr"
);

/// Check URLs against robots.txt files, in four dialects of the Robots
/// Exclusion Protocol.
#[derive(Debug, Parser)]
#[command(
    name = "norobots",
    version,
    after_help = TOP_AFTER_HELP,
    // A bare `norobots` is a usage error like any other: one line, exit 2.
    arg_required_else_help = false
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Say whether a robot may fetch each URL.
    ///
    /// URLs come from the arguments or, when there are none, from stdin, one
    /// per line (LF or CRLF); stdin is streamed, so lists of any length work.
    #[command(after_help = CHECK_AFTER_HELP)]
    Check(CheckArgs),
    /// Show how a robots.txt file is read: groups, rules, sitemaps, diagnostics.
    #[command(after_help = PARSE_AFTER_HELP)]
    Parse(ParseArgs),
    /// Fetch the robots.txt of a URL's origin and show the HTTP outcome, the
    /// policy it gives, its freshness, the agent's groups and the sitemaps.
    #[command(after_help = FETCH_AFTER_HELP)]
    Fetch(FetchArgs),
    /// Check a robots.txt for mistakes, rules that never decide anything and
    /// rules whose meaning differs between dialects. Exits 1 on errors.
    Lint(LintArgs),
    /// Find the robots in an access log (Common or Combined Log Format, plain
    /// or gzip) and the requests the robots.txt forbade them, worst first.
    /// Exits 1 when some robot made a forbidden request.
    Audit(AuditArgs),
    /// Show what an HTML page tells a robot: META robots, X-Robots-Tag,
    /// rel="nofollow" links (the restrictive term wins).
    Meta(MetaArgs),
    /// Crawl recursively from URLs, as `wget -r` does, obeying robots.txt,
    /// META robots and a pace per host; saves a mirror, a crawl log, WARC.
    #[command(after_help = crawl::CRAWL_AFTER_HELP)]
    Crawl(Box<crawl::CrawlArgs>),
}

#[derive(Debug, Args)]
struct LintArgs {
    /// Dialect the file is written for: norobots1994, draft1996, rfc9309 or google.
    #[arg(long, value_name = "DIALECT", default_value = Dialect::default().name(), ignore_case = true)]
    dialect: DialectArg,

    /// Print one JSON document instead of text (every finding, see the
    /// README of crates/norobots-cli for the shape).
    #[arg(long)]
    json: bool,

    /// The old spelling of `--json` (`--format json`).
    #[arg(long, value_name = "FORMAT", value_parser = ["text", "json"], hide = true)]
    format: Option<String>,

    /// Do not report rules whose meaning differs between draft1996 and rfc9309.
    #[arg(long)]
    no_divergence: bool,

    /// Print every dialect-divergence finding. By default text output shows
    /// each kind of divergence once, with how many more there are and on
    /// which lines; JSON always lists them all.
    #[arg(long)]
    all_divergence: bool,

    /// The robots.txt file, or `-` for stdin.
    #[arg(value_name = "FILE")]
    robots: PathBuf,
}

#[derive(Debug, Args)]
struct AuditArgs {
    /// Dialect to read the robots.txt by: norobots1994, draft1996, rfc9309 or google.
    #[arg(long, value_name = "DIALECT", default_value = Dialect::default().name(), ignore_case = true)]
    dialect: DialectArg,

    /// The robots.txt in force while the log was written.
    #[arg(long, value_name = "FILE")]
    robots: PathBuf,

    /// Print one JSON document instead of the table.
    #[arg(long)]
    json: bool,

    /// The old spelling of `--json` (`--format json`).
    #[arg(long, value_name = "FORMAT", value_parser = ["text", "json"], hide = true)]
    format: Option<String>,

    /// The access log, or `-` for stdin.
    #[arg(value_name = "LOGFILE")]
    log: PathBuf,
}

#[derive(Debug, Args)]
struct MetaArgs {
    /// The robot asking: its product token picks `<meta name="...">` tags
    /// and `X-Robots-Tag: name: ...` parts meant for it.
    #[arg(long, value_name = "AGENT", default_value = "*")]
    agent: String,

    /// An `X-Robots-Tag` header value that came with the page (repeatable).
    #[arg(long = "header", value_name = "VALUE")]
    headers: Vec<String>,

    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,

    /// The HTML page, or `-` for stdin.
    #[arg(value_name = "FILE")]
    page: PathBuf,
}

const FETCH_AFTER_HELP: &str = concat!(
    dialects_help!(),
    "

Exit status:
  0  an answer came (rules, or a whole-site allow or disallow)
  2  usage or input error; a one-line message is printed on stderr
  3  the dialect says to come back later (deferred)"
);

/// Options of the commands that fetch robots.txt over HTTP.
#[derive(Debug, Args)]
struct HttpArgs {
    /// The User-Agent header to send when fetching robots.txt.
    #[arg(long, value_name = "UA", default_value = concat!("norobots/", env!("CARGO_PKG_VERSION")))]
    user_agent: String,

    /// How many seconds one robots.txt fetch may take, redirects included.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = value::seconds)]
    timeout: Duration,
}

impl HttpArgs {
    fn timeout(&self) -> Result<Duration, CliError> {
        if self.timeout.is_zero() {
            return Err(CliError::Usage(
                "--timeout must be a positive number of seconds, not 0".into(),
            ));
        }
        Ok(self.timeout)
    }
}

#[derive(Debug, Args)]
struct FetchArgs {
    /// Dialect to read the file by: norobots1994, draft1996, rfc9309 or google.
    #[arg(long, value_name = "DIALECT", default_value = Dialect::default().name(), ignore_case = true)]
    dialect: DialectArg,

    /// The robot whose groups to show.
    #[arg(long, value_name = "AGENT", default_value = "*")]
    agent: String,

    #[command(flatten)]
    http: HttpArgs,

    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,

    /// Any http or https URL on the origin.
    #[arg(value_name = "URL")]
    url: String,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// Dialect to read the file by: norobots1994, draft1996, rfc9309 or google.
    #[arg(long, value_name = "DIALECT", default_value = Dialect::default().name(), ignore_case = true)]
    dialect: DialectArg,

    /// The robots.txt file, or `-` to read it from stdin (URLs must then be
    /// given as arguments). Without it, each URL's robots.txt is fetched.
    #[arg(long, value_name = "FILE")]
    robots: Option<PathBuf>,

    #[command(flatten)]
    http: HttpArgs,

    /// The robot to check for: a product token such as `Googlebot` or a full
    /// User-Agent header value.
    #[arg(long, value_name = "AGENT")]
    agent: String,

    /// Also print the rule that decided each URL, with its line number.
    #[arg(long)]
    explain: bool,

    /// Print one JSON object per URL instead of text (always includes the rule).
    #[arg(long)]
    json: bool,

    /// URLs or paths to check (`https://host/a?b` or `/a?b`); read from stdin
    /// when none are given.
    #[arg(value_name = "URL")]
    urls: Vec<OsString>,
}

impl CheckArgs {
    fn run(self) -> Result<Outcome, CliError> {
        let format = if self.json {
            Format::Json
        } else if self.explain {
            Format::Explain
        } else {
            Format::Plain
        };
        let dialect = self.dialect.0;
        // Decided on their octets, as URLs read from stdin are: a URL need
        // not be UTF-8 to be checked.
        let urls = self
            .urls
            .into_iter()
            .map(OsString::into_encoded_bytes)
            .collect();
        match self.robots {
            Some(robots) => check::run(&CheckOptions {
                dialect,
                robots: RobotsSource::from_arg(robots),
                agent: self.agent,
                urls,
                format,
            }),
            None => remote::run(&remote::RemoteOptions {
                dialect,
                agent: self.agent,
                user_agent: self.http.user_agent.clone(),
                timeout: self.http.timeout()?,
                urls,
                format,
            }),
        }
    }
}

#[derive(Debug, Args)]
struct ParseArgs {
    /// Dialect to read the file by: norobots1994, draft1996, rfc9309 or google.
    #[arg(long, value_name = "DIALECT", default_value = Dialect::default().name(), ignore_case = true)]
    dialect: DialectArg,

    /// The robots.txt file, or `-` to read it from stdin.
    #[arg(value_name = "FILE", required_unless_present = "robots")]
    file: Option<PathBuf>,

    /// The old spelling of FILE (`parse --robots FILE`).
    #[arg(long, value_name = "FILE", hide = true, conflicts_with = "file")]
    robots: Option<PathBuf>,

    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

impl ParseArgs {
    fn into_options(self) -> Result<parse::ParseCommand, CliError> {
        let file = self.file.or(self.robots).expect("clap requires one");
        Ok(parse::ParseCommand {
            dialect: self.dialect.0,
            robots: RobotsSource::from_arg(file),
            json: self.json,
        })
    }
}

/// `--dialect`: the core's [`Dialect`]s under their own names, listed and
/// read by clap (a newtype, as neither the trait nor the type is ours).
#[derive(Clone, Copy, Debug)]
pub(crate) struct DialectArg(pub(crate) Dialect);

impl ValueEnum for DialectArg {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [DialectArg; 4] = {
            let [a, b, c, d] = Dialect::ALL;
            [DialectArg(a), DialectArg(b), DialectArg(c), DialectArg(d)]
        };
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()))
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(crawl::wget_spellings(std::env::args_os())) {
        Ok(cli) => cli,
        Err(err)
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) =>
        {
            err.exit()
        }
        Err(err) => return fail(&clap_message(&err)),
    };
    let result = match cli.command {
        Command::Check(args) => args.run().map(|outcome| match outcome {
            Outcome::AllAllowed => EXIT_OK,
            Outcome::SomeDisallowed => EXIT_DISALLOWED,
            Outcome::SomeDeferred => EXIT_DEFERRED,
            Outcome::SomeInvalid => EXIT_ERROR,
        }),
        Command::Fetch(args) => (|| {
            fetch::run(&fetch::FetchCommand {
                dialect: args.dialect.0,
                url: args.url.clone(),
                agent: args.agent.clone(),
                user_agent: args.http.user_agent.clone(),
                timeout: args.http.timeout()?,
                json: args.json,
            })
        })()
        .map(|deferred| if deferred { EXIT_DEFERRED } else { EXIT_OK }),
        Command::Lint(args) => lint::run(&lint::LintCommand {
            dialect: args.dialect.0,
            robots: RobotsSource::from_arg(args.robots.clone()),
            divergence: !args.no_divergence,
            all_divergence: args.all_divergence,
            json: args.json || args.format.as_deref() == Some("json"),
        })
        .map(|errors| if errors { EXIT_DISALLOWED } else { EXIT_OK }),
        Command::Audit(args) => audit::run(&audit::AuditCommand {
            dialect: args.dialect.0,
            robots: RobotsSource::from_arg(args.robots.clone()),
            log: args.log.clone(),
            json: args.json || args.format.as_deref() == Some("json"),
        })
        .map(|violated| if violated { EXIT_DISALLOWED } else { EXIT_OK }),
        Command::Meta(args) => meta::run(&meta::MetaCommand {
            page: RobotsSource::from_arg(args.page),
            agent: args.agent,
            headers: args.headers,
            json: args.json,
        })
        .map(|()| EXIT_OK),
        Command::Crawl(args) => args.run(),
        Command::Parse(args) => args
            .into_options()
            .and_then(|command| parse::run(&command))
            .map(|()| EXIT_OK),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) => fail(&err),
    }
}

/// Prints `norobots: error: <what>` and returns the error exit status.
fn fail(what: &dyn std::fmt::Display) -> ExitCode {
    // Not eprintln!: it panics if stderr is gone, and there is nobody left to
    // tell anyway.
    let _ = writeln!(io::stderr().lock(), "norobots: error: {what}");
    ExitCode::from(EXIT_ERROR)
}

/// Prints `norobots: <what>` on stderr, for a `warning: …` or `note: …`
/// that does not end the run.
pub(crate) fn warn(what: &str) {
    let _ = writeln!(io::stderr().lock(), "norobots: {what}");
}

/// Squeezes clap's multi-line error into one line so that every error the
/// tool prints has the same shape, while keeping clap's wording and tips.
/// The usage block and the "try --help" footer are dropped.
fn clap_message(err: &clap::Error) -> String {
    let rendered = err.render().to_string();
    let rendered = rendered.strip_prefix("error: ").unwrap_or(&rendered);
    let message = rendered
        .split("\n\n")
        .map(|paragraph| paragraph.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|paragraph| {
            !paragraph.is_empty()
                && !paragraph.starts_with("Usage:")
                && !paragraph.starts_with("For more information")
        })
        .collect::<Vec<_>>()
        .join("; ");
    if message.is_empty() {
        err.kind().to_string()
    } else {
        message
    }
}
