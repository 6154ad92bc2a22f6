//! `norobots check`: one verdict per URL against one robots file.

use std::io::{self, BufRead, BufWriter, Read, Write};

use std::borrow::Cow;

use norobots::{Dialect, Matcher, ParseOptions, RuleRef, Verdict};
use norobots_tools::printable;
use serde::Serialize;

use crate::error::CliError;
use crate::input::{url_problem, RobotsSource, MAX_INPUT};

/// How each verdict is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `allowed<TAB>URL` or `disallowed<TAB>URL`.
    Plain,
    /// Plain, then `<TAB>line N: Kind: pattern` or `<TAB>no rule`.
    Explain,
    /// One JSON object per line: `url`, `allowed` and `rule` (or `null`).
    Json,
}

/// Everything `norobots check` needs, already validated as far as the
/// command line alone allows.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// The dialect to parse and match with.
    pub dialect: Dialect,
    /// Where the robots file comes from.
    pub robots: RobotsSource,
    /// The robot whose rules apply (a product token or full User-Agent).
    pub agent: String,
    /// URLs given as arguments, as octets (they need not be UTF-8); when
    /// empty, URLs are streamed from stdin.
    pub urls: Vec<Vec<u8>>,
    /// How to print the verdicts.
    pub format: Format,
}

/// What the run found; `main` turns it into the exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every URL checked was allowed (also when there were none).
    AllAllowed,
    /// At least one URL was disallowed.
    SomeDisallowed,
    /// None was disallowed, but some were deferred (fetched robots.txt only).
    SomeDeferred,
    /// Some input was not a URL or a path: each was named on stderr and the
    /// others were answered.
    SomeInvalid,
}

/// Runs `norobots check` against the real stdin and stdout.
pub fn run(options: &CheckOptions) -> Result<Outcome, CliError> {
    if options.robots == RobotsSource::Stdin && options.urls.is_empty() {
        // Both would need the same stream, and there is no way to tell where
        // the robots file ends and the URL list begins.
        return Err(CliError::Usage(
            "`--robots -` reads the robots file from stdin, so the URLs must be given as arguments"
                .to_string(),
        ));
    }
    let robots = options.robots.load(&ParseOptions::new(options.dialect))?;
    if let Some(note) = norobots::agent_note(options.dialect, &options.agent) {
        crate::warn(&note);
    }
    // Compiled once: per-URL work is then just matching.
    let matcher = robots.matcher(&options.agent);

    let stdout = io::stdout();
    let mut report = Report::new(BufWriter::new(stdout.lock()), io::stderr(), options.format);
    let result = if options.urls.is_empty() {
        report.stream(&matcher, io::stdin().lock())
    } else {
        report.all(&matcher, options.urls.iter().map(Vec::as_slice))
    };
    report.finish(result)
}

/// Prints verdicts to a writer and remembers whether any URL was
/// disallowed, and whether any input was not a URL at all.
///
/// Generic over the writers so the formatting, the messages and the
/// broken-pipe handling can be tested without a process.
pub struct Report<W: Write, E: Write> {
    out: W,
    err: E,
    format: Format,
    any_disallowed: bool,
    any_invalid: bool,
}

impl<W: Write, E: Write> Report<W, E> {
    /// A report that writes verdicts to `out` in `format`, and the inputs
    /// it cannot answer to `err`.
    pub fn new(out: W, err: E, format: Format) -> Self {
        Report {
            out,
            err,
            format,
            any_disallowed: false,
            any_invalid: false,
        }
    }

    /// Checks one URL and prints its verdict; `place` names the input
    /// (`URL argument 2`, `stdin line 7`) for the message when it is not a
    /// URL or a path, in which case nothing is printed to `out` and the run
    /// goes on.
    ///
    /// The URL is decided on its octets and echoed as given, UTF-8 or not
    /// (a Latin-1 log line, say), so that each output line names exactly the
    /// input it answers.
    pub fn url(
        &mut self,
        matcher: &Matcher,
        url: &[u8],
        place: &dyn Fn() -> String,
    ) -> Result<(), CliError> {
        if let Some(problem) = url_problem(url) {
            self.invalid(&place(), &problem)?;
            return Ok(());
        }
        let verdict = matcher.check_bytes(url);
        self.any_disallowed |= !verdict.allowed;
        write_verdict(&mut self.out, self.format, url, &verdict).map_err(CliError::Write)
    }

    /// Names an input that has no answer, after the verdicts printed so
    /// far, so that a terminal shows the message where the input was.
    pub fn invalid(&mut self, place: &str, problem: &str) -> Result<(), CliError> {
        self.any_invalid = true;
        self.out.flush().map_err(CliError::Write)?;
        // Like `fail`: a stderr that is gone has nobody left to tell.
        let _ = writeln!(self.err, "norobots: error: {place}: {problem}");
        Ok(())
    }

    /// Checks each URL of an iterator, in order; they are the command's
    /// arguments, named by their place among the URLs.
    pub fn all<'u>(
        &mut self,
        matcher: &Matcher,
        urls: impl IntoIterator<Item = &'u [u8]>,
    ) -> Result<(), CliError> {
        urls.into_iter()
            .enumerate()
            .try_for_each(|(i, url)| self.url(matcher, url, &|| format!("URL argument {}", i + 1)))
    }

    /// Checks one URL per line of `input`.
    ///
    /// Reuses one line buffer so memory stays flat however long the list
    /// is, and emits one output line per answerable input line, in order.
    pub fn stream(&mut self, matcher: &Matcher, mut input: impl BufRead) -> Result<(), CliError> {
        let mut line = Vec::new();
        for number in 1.. {
            let read = read_url_line(&mut input, &mut line, number).map_err(CliError::ReadUrls)?;
            if read == 0 {
                break;
            }
            self.url(matcher, strip_line_ending(&line), &|| {
                format!("stdin line {number}")
            })?;
        }
        Ok(())
    }

    /// Flushes the output and settles the outcome of the run.
    ///
    /// A broken pipe means whoever reads the output (`head`, say) has seen
    /// enough; that ends the run quietly, with the status of the URLs
    /// checked so far, instead of being reported as an error.
    pub fn finish(mut self, result: Result<(), CliError>) -> Result<Outcome, CliError> {
        let result = result.and_then(|()| self.out.flush().map_err(CliError::Write));
        match result {
            Ok(()) => Ok(self.outcome()),
            Err(CliError::Write(err)) if err.kind() == io::ErrorKind::BrokenPipe => {
                Ok(self.outcome())
            }
            Err(err) => Err(err),
        }
    }

    fn outcome(&self) -> Outcome {
        if self.any_invalid {
            Outcome::SomeInvalid
        } else if self.any_disallowed {
            Outcome::SomeDisallowed
        } else {
            Outcome::AllAllowed
        }
    }
}

/// Reads URL line `number` (from 1) into `line`, line break included;
/// 0 at the end of the input. A line past [`MAX_INPUT`] octets is an error
/// naming it, so that a line without end cannot take all memory.
pub(crate) fn read_url_line(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    number: usize,
) -> io::Result<usize> {
    line.clear();
    let read = input.take(MAX_INPUT + 1).read_until(b'\n', line)?;
    if read as u64 > MAX_INPUT && line.last() != Some(&b'\n') {
        return Err(io::Error::other(format!(
            "line {number}: longer than {} MiB, the most norobots reads",
            MAX_INPUT >> 20
        )));
    }
    Ok(read)
}

/// Removes one `\n` and then one `\r`, so LF and CRLF lists both work but a
/// URL is otherwise kept byte for byte.
pub(crate) fn strip_line_ending(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

fn write_verdict(
    out: &mut impl Write,
    format: Format,
    url: &[u8],
    verdict: &Verdict<'_>,
) -> io::Result<()> {
    match format {
        Format::Plain => write_plain(out, url, verdict)?,
        Format::Explain => {
            write_plain(out, url, verdict)?;
            match verdict.rule {
                // The pattern is the robots file's (often a stranger's):
                // escaped, unlike the caller's URL.
                Some(rule) => write!(
                    out,
                    "\tline {}: {}: {}",
                    rule.line,
                    rule.kind.as_str(),
                    printable(rule.pattern)
                )?,
                None => out.write_all(b"\tno rule")?,
            }
        }
        Format::Json => write_json(out, url, verdict)?,
    }
    out.write_all(b"\n")
}

fn write_plain(out: &mut impl Write, url: &[u8], verdict: &Verdict<'_>) -> io::Result<()> {
    out.write_all(if verdict.allowed {
        b"allowed\t"
    } else {
        b"disallowed\t"
    })?;
    out.write_all(url)
}

/// One URL's answer as a JSON line: `url`, `allowed`, `rule`, in that order
/// (the order of the fields), borrowed from the verdict, so a million URLs
/// cost no allocation each.
///
/// A JSON string holds text, not octets: a URL that is not UTF-8 is written
/// with U+FFFD for what is not (its verdict is still that of its octets).
#[derive(Serialize)]
pub(crate) struct AnswerJson<'a> {
    url: Cow<'a, str>,
    allowed: bool,
    rule: Option<RuleJson<'a>>,
}

impl<'a> AnswerJson<'a> {
    pub(crate) fn new(url: &'a [u8], allowed: bool, rule: Option<RuleRef<'a>>) -> AnswerJson<'a> {
        AnswerJson {
            url: String::from_utf8_lossy(url),
            allowed,
            rule: rule.map(RuleJson::from),
        }
    }
}

/// A rule as every JSON document of the CLI shows one.
#[derive(Serialize)]
pub(crate) struct RuleJson<'a> {
    line: usize,
    kind: &'static str,
    pattern: &'a str,
}

impl<'a> From<RuleRef<'a>> for RuleJson<'a> {
    fn from(rule: RuleRef<'a>) -> RuleJson<'a> {
        RuleJson {
            line: rule.line,
            kind: rule.kind.as_str(),
            pattern: rule.pattern,
        }
    }
}

fn write_json(out: &mut impl Write, url: &[u8], verdict: &Verdict<'_>) -> io::Result<()> {
    let answer = AnswerJson::new(url, verdict.allowed, verdict.rule);
    serde_json::to_writer(&mut *out, &answer)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use norobots::Robots;

    fn matcher(body: &str, dialect: Dialect) -> Matcher {
        Robots::parse_with(body.as_bytes(), &ParseOptions::new(dialect)).matcher("bot")
    }

    fn render(format: Format, body: &str, input: &[u8]) -> (String, Outcome) {
        let (out, outcome) = render_bytes(format, body, input);
        (String::from_utf8(out).unwrap(), outcome)
    }

    fn render_bytes(format: Format, body: &str, input: &[u8]) -> (Vec<u8>, Outcome) {
        let matcher = matcher(body, Dialect::Rfc9309);
        let mut out = Vec::new();
        let mut err = Vec::new();
        let mut report = Report::new(&mut out, &mut err, format);
        let result = report.stream(&matcher, input);
        let outcome = report.finish(result).unwrap();
        assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));
        (out, outcome)
    }

    #[test]
    fn strip_line_ending_removes_one_lf_then_one_cr() {
        assert_eq!(strip_line_ending(b"/a\n"), b"/a");
        assert_eq!(strip_line_ending(b"/a\r\n"), b"/a");
        assert_eq!(strip_line_ending(b"/a"), b"/a");
        assert_eq!(strip_line_ending(b"/a\r"), b"/a");
        assert_eq!(strip_line_ending(b"/a\r\r\n"), b"/a\r");
        assert_eq!(strip_line_ending(b"/a\n\n"), b"/a\n");
    }

    #[test]
    fn a_url_line_may_be_64_mib_and_no_longer() {
        let max = MAX_INPUT as usize;
        let mut input = vec![b'x'; max];
        input.extend_from_slice(b"\n/b\n");
        input.resize(2 * max + 5, b'y');
        let mut reader = &input[..];
        let mut line = Vec::new();
        assert_eq!(read_url_line(&mut reader, &mut line, 1).unwrap(), max + 1);
        assert_eq!(read_url_line(&mut reader, &mut line, 2).unwrap(), 3);
        assert_eq!(line, b"/b\n");
        let err = read_url_line(&mut reader, &mut line, 3).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 3: longer than 64 MiB, the most norobots reads"
        );
        // The same length at the end of the input, without a line break.
        let mut reader = &input[..max];
        assert_eq!(read_url_line(&mut reader, &mut line, 1).unwrap(), max);
    }

    #[test]
    fn stream_prints_one_line_per_input_line_including_unterminated() {
        let (out, outcome) = render(
            Format::Plain,
            "User-agent: *\nDisallow: /private\n",
            b"/ok\r\n/private/x",
        );
        assert_eq!(out, "allowed\t/ok\ndisallowed\t/private/x\n");
        assert_eq!(outcome, Outcome::SomeDisallowed);
    }

    // Issue 47: a blank line printed `allowed<TAB><TAB>no rule`.
    #[test]
    fn a_line_that_is_not_a_url_is_named_on_stderr_and_the_rest_answered() {
        let matcher = matcher("User-agent: *\nDisallow: /private\n", Dialect::Rfc9309);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut report = Report::new(&mut out, &mut err, Format::Explain);
        let result = report.stream(&matcher, &b"/ok\n\nadmin/\n/private/x\n"[..]);
        assert_eq!(report.finish(result).unwrap(), Outcome::SomeInvalid);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "allowed\t/ok\tno rule\ndisallowed\t/private/x\tline 2: Disallow: /private\n"
        );
        let err = String::from_utf8(err).unwrap();
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{err}");
        assert!(
            lines[0].starts_with("norobots: error: stdin line 2: empty"),
            "{err}"
        );
        assert!(
            lines[1].starts_with("norobots: error: stdin line 3: `admin/`"),
            "{err}"
        );
    }

    // A Latin-1 URL list: `\xE9` is `%E9` to rfc9309 (2.2.2: octets
    // outside US-ASCII are compared percent-encoded), not U+FFFD's
    // `%EF%BF%BD`.
    #[test]
    fn stream_decides_invalid_utf8_on_its_octets_and_echoes_them() {
        let body = "User-agent: *\nDisallow: /caf%E9\n";
        let (out, outcome) = render_bytes(Format::Plain, body, b"/caf\xe9\n/caf\xc3\xa9\n");
        assert_eq!(out, b"disallowed\t/caf\xe9\nallowed\t/caf\xc3\xa9\n");
        assert_eq!(outcome, Outcome::SomeDisallowed);
    }

    #[test]
    fn json_writes_invalid_utf8_with_replacement_and_its_octets_verdict() {
        let body = "User-agent: *\nDisallow: /caf%E9\n";
        let (out, _) = render(Format::Json, body, b"/caf\xe9\n");
        assert_eq!(
            out,
            "{\"url\":\"/caf\u{fffd}\",\"allowed\":false,\
             \"rule\":{\"line\":2,\"kind\":\"Disallow\",\"pattern\":\"/caf%E9\"}}\n"
        );
    }

    #[test]
    fn json_escapes_url_and_keeps_key_order() {
        let (out, _) = render(
            Format::Json,
            "User-agent: *\nDisallow: /a\"b\n",
            b"/a\"b\n/c\n",
        );
        let mut lines = out.lines();
        assert_eq!(
            lines.next().unwrap(),
            r#"{"url":"/a\"b","allowed":false,"rule":{"line":2,"kind":"Disallow","pattern":"/a\"b"}}"#
        );
        assert_eq!(
            lines.next().unwrap(),
            r#"{"url":"/c","allowed":true,"rule":null}"#
        );
        assert_eq!(lines.next(), None);
    }

    /// A writer whose reader has gone away, as stdout is under `| head`
    /// once `head` exits.
    struct ClosedPipe;

    impl Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }

    #[test]
    fn broken_pipe_ends_the_run_quietly_with_status_so_far() {
        let matcher = matcher("User-agent: *\nDisallow: /\n", Dialect::Rfc9309);
        let mut report = Report::new(ClosedPipe, io::sink(), Format::Plain);
        let result = report.stream(&matcher, &b"/a\n/b\n"[..]);
        assert!(matches!(result, Err(CliError::Write(_))));
        assert_eq!(report.finish(result).unwrap(), Outcome::SomeDisallowed);
    }

    #[test]
    fn other_write_errors_are_reported() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let matcher = matcher("", Dialect::Rfc9309);
        let mut report = Report::new(Full, io::sink(), Format::Plain);
        let result = report.all(&matcher, [&b"/a"[..]]);
        assert!(matches!(report.finish(result), Err(CliError::Write(_))));
    }
}
