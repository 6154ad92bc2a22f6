//! `norobots check` without `--robots`: each URL is decided against the
//! robots.txt of its own origin, fetched once per origin through a
//! [`RobotsCache`].
//!
//! Checks run a few dozen at a time, so a list over many sites does not wait
//! for each site in turn; output stays in input order.

use std::collections::VecDeque;
use std::io::{self, BufWriter, Write};
use std::time::Duration;

use norobots::Dialect;
use norobots_fetch::{Config, Decision, Origin, RobotsCache};
use norobots_tools::printable;
use serde::Serialize;
use tokio::runtime::Runtime;
use tokio::task::JoinHandle;

use crate::check::{read_url_line, strip_line_ending, AnswerJson, Format, Outcome};
use crate::error::CliError;
use crate::input::url_problem;

/// How many checks may wait on fetches at once.
const WINDOW: usize = 32;

/// Everything the remote check needs.
#[derive(Clone, Debug)]
pub struct RemoteOptions {
    /// The dialect: it reads the files and picks the HTTP policy.
    pub dialect: Dialect,
    /// The robot whose rules apply.
    pub agent: String,
    /// The `User-Agent` header sent when fetching.
    pub user_agent: String,
    /// The timeout of one robots.txt fetch.
    pub timeout: Duration,
    /// URLs given as arguments, as octets (they need not be UTF-8); when
    /// empty, URLs are streamed from stdin.
    pub urls: Vec<Vec<u8>>,
    /// How to print each decision.
    pub format: Format,
}

/// Builds the runtime and the cache the fetching commands share.
pub fn cache(
    dialect: Dialect,
    user_agent: &str,
    timeout: Duration,
) -> Result<(Runtime, RobotsCache), CliError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start the async runtime: {e}")))?;
    let config = Config::new(dialect)
        .user_agent(user_agent)
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(10)));
    let cache = RobotsCache::new(config).map_err(|e| CliError::Usage(e.to_string()))?;
    Ok((runtime, cache))
}

/// Runs the remote check against the real stdin and stdout.
pub fn run(options: &RemoteOptions) -> Result<Outcome, CliError> {
    let (runtime, cache) = cache(options.dialect, &options.user_agent, options.timeout)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut state = State::default();
    let mut pending: VecDeque<(Vec<u8>, JoinHandle<Decision>)> = VecDeque::new();

    if let Some(note) = norobots::agent_note(options.dialect, &options.agent) {
        crate::warn(&note);
    }

    let mut submit = |url: Vec<u8>,
                      place: &dyn Fn() -> String,
                      state: &mut State,
                      out: &mut dyn Write|
     -> Result<(), CliError> {
        let problem = url_problem(&url).or_else(|| {
            Origin::of(&String::from_utf8_lossy(&url)).err().map(|err| {
                format!("{err} (without --robots, each URL's robots.txt is fetched, so URLs must be full http or https URLs)")
            })
        });
        if let Some(problem) = problem {
            // What is already decided is printed first, so that the
            // message comes where the input was.
            drain(&runtime, &mut pending, 0, options.format, state, out)?;
            out.flush().map_err(CliError::Write)?;
            state.invalid = true;
            crate::warn(&format!("error: {}: {problem}", place()));
            return Ok(());
        }
        let cache = cache.clone();
        let agent = options.agent.clone();
        let task_url = url.clone();
        let handle = runtime.spawn(async move {
            // The origin parsed above, so the check cannot fail.
            cache
                .check_bytes(&task_url, &agent)
                .await
                .expect("the URL's origin was checked")
        });
        pending.push_back((url, handle));
        drain(&runtime, &mut pending, WINDOW, options.format, state, out)
    };

    let result = if options.urls.is_empty() {
        let mut input = io::stdin().lock();
        let mut line = Vec::new();
        let mut number = 0usize;
        loop {
            number += 1;
            match read_url_line(&mut input, &mut line, number) {
                Err(e) => break Err(CliError::ReadUrls(e)),
                Ok(0) => break Ok(()),
                Ok(_) => {}
            }
            let url = strip_line_ending(&line).to_vec();
            let place = || format!("stdin line {number}");
            if let Err(e) = submit(url, &place, &mut state, &mut out) {
                break Err(e);
            }
        }
    } else {
        options.urls.iter().enumerate().try_for_each(|(i, url)| {
            let place = || format!("URL argument {}", i + 1);
            submit(url.clone(), &place, &mut state, &mut out)
        })
    };
    let result = result.and_then(|()| {
        drain(
            &runtime,
            &mut pending,
            0,
            options.format,
            &mut state,
            &mut out,
        )
    });
    let result = result.and_then(|()| out.flush().map_err(CliError::Write));
    match result {
        Ok(()) => Ok(state.outcome()),
        Err(CliError::Write(err)) if err.kind() == io::ErrorKind::BrokenPipe => Ok(state.outcome()),
        Err(err) => Err(err),
    }
}

#[derive(Default)]
struct State {
    disallowed: bool,
    deferred: bool,
    invalid: bool,
}

impl State {
    fn outcome(&self) -> Outcome {
        if self.invalid {
            Outcome::SomeInvalid
        } else if self.disallowed {
            Outcome::SomeDisallowed
        } else if self.deferred {
            Outcome::SomeDeferred
        } else {
            Outcome::AllAllowed
        }
    }
}

/// Prints finished checks from the front until at most `keep` are pending.
fn drain(
    runtime: &Runtime,
    pending: &mut VecDeque<(Vec<u8>, JoinHandle<Decision>)>,
    keep: usize,
    format: Format,
    state: &mut State,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    while pending.len() > keep {
        let (url, handle) = pending.pop_front().expect("pending is not empty");
        let decision = runtime
            .block_on(handle)
            .map_err(|e| CliError::Usage(format!("a check failed: {e}")))?;
        match decision {
            Decision::Allow(_) => {}
            Decision::Disallow(_) => state.disallowed = true,
            Decision::Defer { .. } => state.deferred = true,
        }
        write_decision(out, format, &url, &decision).map_err(CliError::Write)?;
    }
    Ok(())
}

/// One line per URL, as `check` prints with `--robots` (the URL echoed
/// octet for octet, and with U+FFFD for what is not UTF-8 in JSON), plus
/// `defer` lines and the whole-site reasons that only a fetch can give.
///
/// In JSON, check's fields, then what only a fetch tells: the decision, the
/// fetch's outcome when it decided for the whole origin, and for a
/// deferral when to come back.
pub fn write_decision(
    out: &mut dyn Write,
    format: Format,
    url: &[u8],
    decision: &Decision,
) -> io::Result<()> {
    let word = match decision {
        Decision::Allow(_) => "allowed",
        Decision::Disallow(_) => "disallowed",
        Decision::Defer { .. } => "defer",
    };
    match format {
        Format::Plain | Format::Explain => {
            write!(out, "{word}\t")?;
            out.write_all(url)?;
            if format == Format::Explain {
                // The reason quotes the server (a redirect's target) or its
                // robots.txt: escaped, unlike the caller's URL.
                match (decision, decision.reason()) {
                    (Decision::Defer { until, outcome }, _) => write!(
                        out,
                        "\tuntil {}: robots.txt: {}",
                        httpdate::fmt_http_date(*until),
                        printable(&outcome.to_string())
                    )?,
                    (_, Some(reason)) => write!(out, "\t{}", printable(&reason.to_string()))?,
                    (_, None) => unreachable!("allow and disallow have a reason"),
                }
            }
        }
        Format::Json => {
            let rule = decision.reason().and_then(|r| r.rule());
            let line = DecisionJson {
                answer: AnswerJson::new(url, decision.is_allowed(), rule),
                decision: match decision {
                    Decision::Allow(_) => "allow",
                    Decision::Disallow(_) => "disallow",
                    Decision::Defer { .. } => "defer",
                },
                reason: decision.outcome().map(|o| format!("robots.txt: {o}")),
                until: match decision {
                    Decision::Defer { until, .. } => Some(crate::json::rfc3339(*until)),
                    _ => None,
                },
            };
            serde_json::to_writer(&mut *out, &line)?;
        }
    }
    out.write_all(b"\n")
}

/// A fetching check's JSON line: check's fields, then its own.
#[derive(Serialize)]
struct DecisionJson<'a> {
    #[serde(flatten)]
    answer: AnswerJson<'a>,
    decision: &'static str,
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    until: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use norobots::RuleKind;
    use norobots_fetch::{Failure, Outcome as FetchOutcome, Reason};
    use std::time::SystemTime;

    fn render(format: Format, decision: &Decision) -> String {
        let mut out = Vec::new();
        write_decision(&mut out, format, b"http://a.test/x", decision).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rules_print_as_check_with_a_file_does() {
        let d = Decision::Disallow(Reason::Rule {
            line: 2,
            kind: RuleKind::Disallow,
            pattern: "/x".into(),
            group_line: 1,
        });
        assert_eq!(render(Format::Plain, &d), "disallowed\thttp://a.test/x\n");
        assert_eq!(
            render(Format::Explain, &d),
            "disallowed\thttp://a.test/x\tline 2: Disallow: /x\n"
        );
        assert_eq!(
            render(Format::Json, &d),
            "{\"url\":\"http://a.test/x\",\"allowed\":false,\"rule\":{\"line\":2,\"kind\":\"Disallow\",\"pattern\":\"/x\"},\"decision\":\"disallow\",\"reason\":null}\n"
        );
    }

    #[test]
    fn whole_site_answers_and_deferrals_say_why() {
        let d = Decision::Allow(Reason::Fetch(FetchOutcome::Status(404)));
        assert_eq!(
            render(Format::Explain, &d),
            "allowed\thttp://a.test/x\trobots.txt: HTTP 404\n"
        );
        let until = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777);
        let d = Decision::Defer {
            until,
            outcome: FetchOutcome::Failure(Failure::Status(503)),
        };
        assert_eq!(render(Format::Plain, &d), "defer\thttp://a.test/x\n");
        assert_eq!(
            render(Format::Explain, &d),
            "defer\thttp://a.test/x\tuntil Sun, 06 Nov 1994 08:49:37 GMT: robots.txt: HTTP 503\n"
        );
        assert_eq!(
            render(Format::Json, &d),
            "{\"url\":\"http://a.test/x\",\"allowed\":false,\"rule\":null,\"decision\":\"defer\",\"reason\":\"robots.txt: HTTP 503\",\"until\":\"1994-11-06T08:49:37Z\"}\n"
        );
    }

    #[test]
    fn the_outcome_puts_disallowed_before_deferred() {
        let mut s = State::default();
        assert_eq!(s.outcome(), Outcome::AllAllowed);
        s.deferred = true;
        assert_eq!(s.outcome(), Outcome::SomeDeferred);
        s.disallowed = true;
        assert_eq!(s.outcome(), Outcome::SomeDisallowed);
        s.invalid = true;
        assert_eq!(s.outcome(), Outcome::SomeInvalid);
    }
}
