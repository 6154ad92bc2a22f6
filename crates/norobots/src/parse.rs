//! The line reader: from octets to lines, comments, `name: value` pairs
//! and where groups start, each the way its dialect's text (or the
//! reference library) says, told to a [`Sink`] as they are found.

use crate::diagnostic::DiagnosticKind;
use crate::dialect::Dialect;
use crate::key::{classify, Key};
use crate::rule_kind::RuleKind;
use crate::scan::{find_line_end, find_line_parts, LineStarts};
use crate::work;

/// How to read a body: the dialect and a byte limit.
///
/// ```
/// use norobots::{Dialect, ParseOptions, Robots};
///
/// let opts = ParseOptions::new(Dialect::Google).max_bytes(500 * 1024);
/// let robots = Robots::parse_with(b"User-agent: *\nDisallow: /\n", &opts);
/// assert_eq!(robots.dialect(), Dialect::Google);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// The dialect to read the file in.
    pub dialect: Dialect,
    /// Read at most this many octets and ignore the rest (RFC 9309 2.5 asks
    /// crawlers to parse at least 500 KiB). `None` reads everything.
    pub max_bytes: Option<usize>,
}

impl ParseOptions {
    /// Options for `dialect`, without a byte limit.
    ///
    /// ```
    /// let opts = norobots::ParseOptions::new(norobots::Dialect::Draft1996);
    /// assert_eq!(opts.max_bytes, None);
    /// ```
    pub fn new(dialect: Dialect) -> ParseOptions {
        ParseOptions {
            dialect,
            max_bytes: None,
        }
    }

    /// The same options with a byte limit.
    ///
    /// ```
    /// let opts = norobots::ParseOptions::default().max_bytes(1024);
    /// assert_eq!(opts.max_bytes, Some(1024));
    /// ```
    pub fn max_bytes(mut self, limit: usize) -> ParseOptions {
        self.max_bytes = Some(limit);
        self
    }
}

/// How many octets of a line `google` reads, as the reference library
/// does (2083 * 8 - 1): the rest of a longer line is dropped, with a
/// [`DiagnosticKind::LineTruncated`]. The other dialects read lines whole.
///
/// ```
/// use norobots::{Dialect, ParseOptions, Robots, GOOGLE_MAX_LINE};
///
/// let long = format!("User-agent: *\nDisallow: /{}x\n", "a".repeat(GOOGLE_MAX_LINE));
/// let google = Robots::parse_with(long.as_bytes(), &ParseOptions::new(Dialect::Google));
/// let rule = google.groups().next().unwrap().rules().next().unwrap();
/// assert_eq!(rule.pattern().len(), GOOGLE_MAX_LINE - "Disallow: ".len());
/// ```
pub const GOOGLE_MAX_LINE: usize = 16_663;

/// How many octets of a robots.txt RFC 9309 (2.5) asks every crawler to
/// read at the least: 500 KiB. A crawler that reads no more gives it as
/// its [`ParseOptions::max_bytes`] (`norobots-fetch` does, by default), and
/// a file longer than this may not be read whole.
///
/// ```
/// use norobots::{ParseOptions, Robots, RFC9309_MIN_BYTES};
///
/// let mut body = b"User-agent: *\n".to_vec();
/// body.resize(RFC9309_MIN_BYTES, b'\n');
/// body.extend_from_slice(b"Disallow: /\n");
/// let opts = ParseOptions::default().max_bytes(RFC9309_MIN_BYTES);
/// let robots = Robots::parse_with(&body, &opts);
/// assert!(robots.truncated());
/// assert!(robots.matcher("ExampleBot").is_allowed("/"));
/// ```
pub const RFC9309_MIN_BYTES: usize = 500 * 1024;

/// How many octets of a value [`Sink::pass_rule`] and [`Sink::pass_agent`]
/// are shown: a rule's value that goes on as the path does past that, or an
/// agent's that goes on as the name does, has the line read whole. Far
/// below [`GOOGLE_MAX_LINE`], so that the window never needs cutting.
const PASS_WINDOW: usize = 128;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How many octets at the start of `body` the parser of `dialect` skips as
/// a UTF-8 byte order mark: the whole mark (`EF BB BF`) in every dialect,
/// and in `google` also a leading piece of it (`EF` or `EF BB`), as the
/// reference library does. Line 1 starts after them; tools that point into
/// a file call this rather than deciding again what its first line is.
///
/// ```
/// use norobots::{bom_len, Dialect};
///
/// assert_eq!(bom_len(b"\xEF\xBB\xBFUser-agent: *", Dialect::Rfc9309), 3);
/// assert_eq!(bom_len(b"\xEF\xBBUser-agent: *", Dialect::Google), 2);
/// // Elsewhere a piece of a mark is part of the first field name.
/// assert_eq!(bom_len(b"\xEF\xBBUser-agent: *", Dialect::Rfc9309), 0);
/// assert_eq!(bom_len(b"User-agent: *", Dialect::Google), 0);
/// ```
pub fn bom_len(body: &[u8], dialect: Dialect) -> usize {
    if dialect == Dialect::Google {
        body.iter().zip(BOM).take_while(|(a, b)| a == b).count()
    } else if body.starts_with(BOM) {
        BOM.len()
    } else {
        0
    }
}

/// What the line reader finds, in file order.
///
/// The reader settles lines, comments, field names and where groups start,
/// the same way whoever listens; a sink keeps what it needs. The parse
/// (`robots::build`) keeps everything, as a `Robots`; `oneshot` keeps only what
/// decides one URL. Values are ranges of the body.
pub(crate) trait Sink {
    /// A group starts on `line`.
    fn group(&mut self, line: u32);
    /// A `User-agent` of the open group (in the legacy dialects, one word
    /// of the value: the robots FAQ's Lycos variant).
    fn agent(&mut self, value: (usize, usize));
    /// A rule of the open group (one path of the value, in the legacy
    /// dialects).
    fn rule(&mut self, line: u32, kind: RuleKind, value: (usize, usize));
    /// `Crawl-delay`, `Request-rate` or `Visit-time` in the open group.
    fn extension(&mut self, _line: u32, _key: Key, _value: (usize, usize)) {}
    /// Any other field: `Sitemap`, `Host`, an unknown one (`None`), or an
    /// extension outside any group.
    fn field(
        &mut self,
        _line: u32,
        _key: Option<Key>,
        _name: (usize, usize),
        _value: (usize, usize),
    ) {
    }
    /// Something the reader noticed.
    fn diagnostic(&mut self, _line: usize, _kind: DiagnosticKind) {}
    /// A line was cut after `end` (the reference library's line limit);
    /// `start` is where it began.
    fn cut(&mut self, _start: usize, _end: usize) {}
    /// Whether the sink has use for the rest of the open group, asked once
    /// the group has had a rule. A sink that says no is told nothing more
    /// until the next line that may be a `User-agent`: the reader passes
    /// over the group's other lines looking only at where they start.
    fn wants_group(&self) -> bool {
        true
    }
    /// Whether the sink looks at rule and `User-agent` lines before they
    /// are read whole ([`Sink::pass_rule`], [`Sink::pass_agent`]); the
    /// reader offers them only then, so that other sinks pay nothing for
    /// it.
    const PASSES_RULES: bool = false;
    /// Whether the sink takes only groups, agents and rules: no fields,
    /// extensions, diagnostics or cuts. The reader then passes over every
    /// line that cannot be a `User-agent` or a rule in any dialect (one
    /// that starts with anything but `u`, `a`, `d` or white space) looking
    /// only at its first octet.
    const ONLY_RULES: bool = false;
    /// A rule line of the open group, offered before it is read whole: a
    /// line that starts with `Allow:` or `Disallow:` (any case) in a dialect
    /// that reads one path per value. `value` is the [`PASS_WINDOW`] octets
    /// (fewer at the body's end) from past the colon and one blank, if one
    /// follows it; where the line ends is not known, and the value may
    /// still start with white space. (The reference library's line limit
    /// lies far past the window.)
    ///
    /// A sink that can tell from the value's first octets that the rule
    /// decides nothing for it takes the rule as read and returns true; the
    /// octets it looked at may not end the line's content or be white
    /// space (see [`plain`]), so that the value goes on past them as the
    /// sink saw it. False has the line read as usual.
    fn pass_rule(&mut self, _kind: RuleKind, _value: &[u8]) -> bool {
        false
    }
    /// A `User-agent` line, offered before it is read whole, as a rule line
    /// is to [`Sink::pass_rule`] (and only when that is): a line that starts
    /// with `User-agent:` (any case), after [`Sink::group`] if it starts a
    /// group. `value` is the [`PASS_WINDOW`] octets (fewer at the body's
    /// end) from past the colon and one blank, if one follows it.
    ///
    /// A sink that can tell from the value's first octets what the line
    /// means to it (another robot's name, or `*`) does what
    /// [`Sink::agent`] would and returns true; false has the line read as
    /// usual.
    fn pass_agent(&mut self, _value: &[u8]) -> bool {
        false
    }
}

/// Whether `b`, in a value, is part of the pattern as written whatever
/// follows: not white space (which may be trailing), not what ends a line's
/// content, and not an octet that some dialect rewrites or reads as a
/// wildcard (`%`, non-ASCII, `*`, `$`).
pub(crate) const fn plain(b: u8) -> bool {
    b < 0x80 && !is_space(b) && !matches!(b, b'#' | 0 | b'%' | b'*' | b'$')
}

/// The part of `input` that is read, and whether that is not all of it.
pub(crate) fn limit<'b>(input: &'b [u8], options: &ParseOptions) -> (&'b [u8], bool) {
    let limit = options
        .max_bytes
        .unwrap_or(usize::MAX)
        .min(u32::MAX as usize - 1);
    (&input[..input.len().min(limit)], input.len() > limit)
}

/// Reads `body` line by line and tells `sink` what it finds.
pub(crate) fn read<S: Sink>(body: &[u8], dialect: Dialect, sink: &mut S) {
    let mut reader = Reader {
        dialect,
        body,
        sink,
        open: false,
        seen_rule: false,
    };
    reader.run();
}

struct Reader<'b, 's, S> {
    dialect: Dialect,
    body: &'b [u8],
    sink: &'s mut S,
    /// Whether a group is open, so that rules have somewhere to go.
    open: bool,
    /// Whether the open group has had a rule, so that the next `User-agent`
    /// starts a new group instead of joining this one.
    seen_rule: bool,
}

impl<S: Sink> Reader<'_, '_, S> {
    fn run(&mut self) {
        let body = self.body;
        let mut pos = self.skip_bom();
        let mut line_no = 0usize;
        if S::ONLY_RULES {
            // Most lines are passed over after a look at a few octets:
            // where they start is found for many lines at once.
            let mut starts = LineStarts::new(body);
            loop {
                work::add(1);
                line_no += 1;
                self.visit(line_no, pos);
                match starts.next() {
                    Some(next) => pos = next,
                    None => break,
                }
            }
        } else {
            // Most lines are read whole, which finds where they end.
            while pos <= body.len() {
                work::add(1);
                line_no += 1;
                pos = match self.visit(line_no, pos) {
                    Some(next) => next,
                    None => next_line(body, pos),
                };
            }
        }
    }

    /// Reads the line that starts at `pos`, or passes over it; where the
    /// next line starts if that was found.
    #[inline]
    fn visit(&mut self, line_no: usize, pos: usize) -> Option<usize> {
        let body = self.body;
        // Most lines are rules: tried first.
        if S::PASSES_RULES && self.open && !self.dialect.is_legacy() && self.pass_rule(pos) {
            return None;
        }
        if self.seen_rule && !self.sink.wants_group() && !may_be_user_agent(body, pos) {
            // Nothing on this line can matter to the sink: after a rule,
            // only a `User-agent` line starts another group, whether or
            // not a blank line (in the legacy dialects) closed this one.
            return None;
        }
        if self.passes_over(body.get(pos).copied()) {
            return None;
        }
        if S::PASSES_RULES && !self.dialect.is_legacy() && self.pass_agent(line_no, pos) {
            return None;
        }
        // The blockwise reader knows where the next line starts.
        let line = if S::ONLY_RULES {
            scan_line::<false>(body, pos)
        } else {
            scan_line::<true>(body, pos)
        };
        self.line(line_no, pos, &line);
        line.next
    }

    /// Whether the line that starts with `first` can be passed over
    /// whole, having done what reading it would. A line that starts with
    /// `#` is a comment and means nothing in any dialect; an empty one
    /// ends a record in the legacy dialects and means nothing in the
    /// others. Most files have a few of each, and reading them as other
    /// lines are read (their parts found, then trimmed) costs several times
    /// more than finding where they end.
    #[inline]
    fn passes_over(&mut self, first: Option<u8>) -> bool {
        match first {
            Some(b'#') => true,
            Some(b'\n' | b'\r') => {
                if self.dialect.is_legacy() {
                    self.open = false;
                }
                true
            }
            // Every spelling of `User-agent`, `Allow` and `Disallow` that
            // some dialect accepts starts with one of these, and only white
            // space may come before it.
            Some(b) if S::ONLY_RULES => {
                !matches!(b | 0x20, b'u' | b'a' | b'd') && !matches!(b, b' ' | b'\t' | 0x0B | 0x0C)
            }
            _ => false,
        }
    }

    /// Offers the rule on the line at `start` to the sink if the line is
    /// spelled plainly (`Disallow:` or `Allow:`, any case, at the line's
    /// start); whether the sink took it as read.
    fn pass_rule(&mut self, start: usize) -> bool {
        const DISALLOW: u64 = u64::from_le_bytes(*b"disallow");
        const ALLOW: u64 = u64::from_le_bytes(*b"allow:\0\0");
        let body = self.body;
        // Ten octets hold either key, its colon and a blank. (A rule line
        // shorter than that at the body's end is read whole.)
        let Some(line) = body.get(start..).and_then(<[u8]>::first_chunk::<10>) else {
            return false;
        };
        let word = u64::from_le_bytes(line[..8].try_into().expect("8"));
        // Or-ing 0x20 folds the case of letters and makes no other octet a
        // letter; the colon is compared as it is.
        let (kind, colon) = if word | 0x2020_2020_2020_2020 == DISALLOW && line[8] == b':' {
            (RuleKind::Disallow, 8)
        } else if (word & 0xFFFF_FFFF_FFFF) | 0x20_2020_2020 == ALLOW {
            (RuleKind::Allow, 5)
        } else {
            return false;
        };
        let taken = self
            .sink
            .pass_rule(kind, value_window(body, start + colon + 1));
        self.seen_rule |= taken;
        taken
    }

    /// Offers the `User-agent` line at `start` to the sink if it is spelled
    /// plainly (`User-agent:`, any case, at the line's start), having
    /// started a group if the line starts one; whether the sink took it as
    /// read.
    fn pass_agent(&mut self, line_no: usize, start: usize) -> bool {
        // Or-ing 0x20 folds the case of the letters; the `-` (to which a CR,
        // 0x0D, would fold) and the colon are compared as they are.
        const USER_AGE: u64 = u64::from_le_bytes(*b"user-age");
        const LETTERS: u64 = u64::from_le_bytes([0x20, 0x20, 0x20, 0x20, 0, 0x20, 0x20, 0x20]);
        let body = self.body;
        let Some(line) = body.get(start..).and_then(<[u8]>::first_chunk::<12>) else {
            return false;
        };
        let word = u64::from_le_bytes(line[..8].try_into().expect("8"));
        if word | LETTERS != USER_AGE
            || line[8] | 0x20 != b'n'
            || line[9] | 0x20 != b't'
            || line[10] != b':'
        {
            return false;
        }
        // Before the sink hears of the agent; the line, if read whole after
        // all, then joins this group.
        self.agent_line(line_no as u32);
        self.sink.pass_agent(value_window(body, start + 11))
    }

    fn skip_bom(&mut self) -> usize {
        let skip = bom_len(self.body, self.dialect);
        if skip > 0 {
            self.sink.diagnostic(1, DiagnosticKind::ByteOrderMark);
        }
        skip
    }

    fn line(&mut self, line_no: usize, start: usize, line: &Line) {
        let mut end = line.content_end;
        if line.nul {
            self.sink.diagnostic(line_no, DiagnosticKind::NulByte);
        }
        if self.dialect == Dialect::Google && end - start > GOOGLE_MAX_LINE {
            end = start + GOOGLE_MAX_LINE;
            self.sink.diagnostic(line_no, DiagnosticKind::LineTruncated);
            self.sink.cut(start, end);
        }
        let colon = line.colon.filter(|&c| c < end);
        let (start, end) = trim(self.body, start, end);
        if start == end {
            // The legacy texts end a record at a blank line; a line that
            // held only a comment is "discarded completely" (1994 standard).
            if self.dialect.is_legacy() && !line.comment && !line.nul {
                self.open = false;
            }
            return;
        }
        let Some((key, value)) = self.split(line_no, start, end, colon) else {
            return;
        };
        // Compared with the keys and their misspellings.
        work::add_with(move || key.1 - key.0);
        let (kind, misspelled) = classify(self.dialect, &self.body[key.0..key.1]);
        if misspelled {
            self.sink
                .diagnostic(line_no, DiagnosticKind::MisspelledField);
        }
        let line = line_no as u32;
        let Some(kind) = kind else {
            let kind = if self.dialect == Dialect::Norobots1994
                && self.body[key.0..key.1].eq_ignore_ascii_case(b"allow")
            {
                DiagnosticKind::IgnoredField
            } else {
                DiagnosticKind::UnknownField
            };
            self.sink.diagnostic(line_no, kind);
            self.sink.field(line, None, key, value);
            return;
        };
        match kind {
            Key::UserAgent => self.user_agent(line, value),
            Key::Allow | Key::Disallow => {
                let kind = if kind == Key::Allow {
                    RuleKind::Allow
                } else {
                    RuleKind::Disallow
                };
                self.rule(line, kind, value);
            }
            Key::Sitemap | Key::Host => self.sink.field(line, Some(kind), key, value),
            Key::CrawlDelay | Key::RequestRate | Key::VisitTime => {
                if self.open {
                    self.sink.extension(line, kind, value);
                } else {
                    self.sink
                        .diagnostic(line_no, DiagnosticKind::ExtensionOutsideGroup);
                    self.sink.field(line, Some(kind), key, value);
                }
            }
        }
    }

    /// Splits a trimmed, comment-free line into name and value.
    fn split(
        &mut self,
        line_no: usize,
        start: usize,
        end: usize,
        colon: Option<usize>,
    ) -> Option<((usize, usize), (usize, usize))> {
        let body = self.body;
        let (key_end, value_start) = match colon {
            Some(c) => (c, c + 1),
            None => {
                // The three searches below go through the line once.
                work::add_with(move || end - start);
                self.sink
                    .diagnostic(line_no, DiagnosticKind::MissingSeparator);
                if self.dialect.is_legacy() {
                    return None;
                }
                // The reference library accepts `Disallow /x` for a missing
                // colon, but only when the line is exactly two words.
                let sep = start
                    + body[start..end]
                        .iter()
                        .position(|&b| b == b' ' || b == b'\t')?;
                let value = sep
                    + body[sep..end]
                        .iter()
                        .position(|&b| b != b' ' && b != b'\t')?;
                if body[value..end].iter().any(|&b| b == b' ' || b == b'\t') {
                    return None;
                }
                (sep, value)
            }
        };
        let key = trim(body, start, key_end);
        if key.0 == key.1 {
            return None;
        }
        Some((key, trim(body, value_start, end)))
    }

    /// A `User-agent` line starts a group unless it follows another with
    /// no rule between them.
    fn agent_line(&mut self, line: u32) {
        if !self.open || self.seen_rule {
            self.sink.group(line);
            self.open = true;
            self.seen_rule = false;
        }
    }

    fn user_agent(&mut self, line: u32, value: (usize, usize)) {
        self.agent_line(line);
        if self.dialect.is_legacy() {
            // The Lycos variant (robots FAQ): `User-Agent: Copernicus Fred`
            // names two robots.
            for word in words(self.body, value) {
                self.sink.agent(word);
            }
        } else {
            self.sink.agent(value);
        }
    }

    fn rule(&mut self, line: u32, kind: RuleKind, value: (usize, usize)) {
        if !self.open {
            self.sink
                .diagnostic(line as usize, DiagnosticKind::RuleOutsideGroup);
            return;
        }
        self.seen_rule = true;
        if self.dialect.is_legacy() && value.0 != value.1 {
            // The Lycos variant: `Disallow: /cgi-bin/ /tmp/` is two rules.
            for word in words(self.body, value) {
                self.sink.rule(line, kind, word);
            }
        } else {
            self.sink.rule(line, kind, value);
        }
    }
}

/// The [`PASS_WINDOW`] octets of `body` (fewer at its end) from
/// `after_colon`, or from one past it if a blank is there.
///
/// Most values follow one space. One blank is passed over, no more, so that
/// no loop runs (its exit would be one more branch to predict on every
/// line): a sink cannot pass a value that still starts with one, so the
/// line is read whole, which trims it.
#[inline]
fn value_window(body: &[u8], after_colon: usize) -> &[u8] {
    let value = after_colon + usize::from(matches!(body.get(after_colon), Some(b' ' | b'\t')));
    &body[value..body.len().min(value + PASS_WINDOW)]
}

/// Where a line's parts are, found in one pass over its octets.
struct Line {
    /// End of the content: the first NUL or `#`, or the end of the line.
    content_end: usize,
    /// The first `:` before `content_end`.
    colon: Option<usize>,
    /// Whether a `#` ended the content.
    comment: bool,
    /// Whether a NUL ended the content.
    nul: bool,
    /// Where the next line starts (past CR, LF or CRLF; past the body's end
    /// for the last line), when asked for.
    next: Option<usize>,
}

/// The parts of the line at `start`, and when `NEXT`, where the next line
/// starts.
fn scan_line<const NEXT: bool>(body: &[u8], start: usize) -> Line {
    let (stop, colon) = find_line_parts(&body[start..]);
    let stop = stop.map(|k| start + k);
    let at = |b: u8| stop.is_some_and(|k| body[k] == b);
    let (comment, nul) = (at(b'#'), at(0));
    Line {
        content_end: stop.unwrap_or(body.len()),
        colon: colon.map(|k| start + k),
        comment,
        nul,
        next: NEXT.then(|| match stop {
            // Past a comment or NUL, only the end of the line matters.
            Some(k) if comment || nul => next_line(body, k),
            Some(k) if body[k] == b'\r' && body.get(k + 1) == Some(&b'\n') => k + 2,
            Some(k) => k + 1,
            None => body.len() + 1,
        }),
    }
}

/// Whether the line at `start` may be a `User-agent` line: every spelling
/// of that key that any dialect accepts (typos and the reference library's
/// longer words included) starts with `u`, after white space.
fn may_be_user_agent(body: &[u8], start: usize) -> bool {
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | 0x0B | 0x0C);
    let first = body[start.min(body.len())..].iter().find(|b| !blank(b));
    work::add_with(move || {
        1 + body[start.min(body.len())..]
            .iter()
            .take_while(|b| blank(b))
            .count()
    });
    matches!(first, Some(b'u' | b'U'))
}

/// Where the line after the one at `start` starts (past CR, LF or CRLF, as
/// [`LineStarts`] says); past the body's end when this line is the last.
fn next_line(body: &[u8], start: usize) -> usize {
    match find_line_end(&body[start..]) {
        None => body.len() + 1,
        Some(k) if body[start + k] == b'\r' && body.get(start + k + 1) == Some(&b'\n') => {
            start + k + 2
        }
        Some(k) => start + k + 1,
    }
}

/// White space as the parser trims it around names and values: C's
/// `isspace`, as the reference library sees it (Rust's
/// `is_ascii_whitespace` leaves out the vertical tab).
///
/// ```
/// assert!(norobots::is_space(b'\x0B'));
/// assert!(!b'\x0B'.is_ascii_whitespace());
/// assert!(!norobots::is_space(0xA0));
/// ```
pub const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

fn trim(body: &[u8], from: usize, to: usize) -> (usize, usize) {
    let (mut start, mut end) = (from, to);
    while start < end && is_space(body[start]) {
        start += 1;
    }
    while end > start && is_space(body[end - 1]) {
        end -= 1;
    }
    work::add_with(move || 1 + (start - from) + (to - end));
    (start, end)
}

/// The white-space-separated words of `body[range]`, as ranges.
fn words(body: &[u8], (start, end): (usize, usize)) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut pos = start;
    std::iter::from_fn(move || {
        let from = pos;
        while pos < end && is_space(body[pos]) {
            pos += 1;
        }
        if pos == end {
            work::add_with(move || 1 + pos - from);
            return None;
        }
        let a = pos;
        while pos < end && !is_space(body[pos]) {
            pos += 1;
        }
        work::add_with(move || 1 + pos - from);
        Some((a, pos))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_may_start_a_group_is_told_by_its_first_octet() {
        for line in [&b"User-agent: x"[..], b"useragent", b" \t\x0b\x0cu", b"U"] {
            assert!(may_be_user_agent(line, 0), "{line:?}");
        }
        for line in [
            &b""[..],
            b"Disallow: /u",
            b"#User-agent",
            b"\0User-agent",
            b"\nu",
        ] {
            assert!(!may_be_user_agent(line, 0), "{line:?}");
        }
        assert!(!may_be_user_agent(b"u", 1));
    }

    // A line's content ends where its line does, at a comment or at a NUL,
    // never past the next line's start.
    #[test]
    fn a_line_content_ends_before_the_next_line_starts() {
        let body = b"a\nb\rc\r\nd#e\rf\0g\nh\r\r\n\ni";
        let ends = [
            (0, 1),
            (2, 3),
            (4, 5),
            (7, 8),
            (11, 12),
            (15, 16),
            (17, 17),
            (19, 19),
            (20, 21),
        ];
        let starts: Vec<usize> = std::iter::once(0).chain(LineStarts::new(body)).collect();
        assert_eq!(starts, ends.map(|(s, _)| s));
        for (i, (start, end)) in ends.into_iter().enumerate() {
            let line = scan_line::<true>(body, start);
            assert_eq!(line.content_end, end, "line at {start}");
            let next = starts.get(i + 1).copied().unwrap_or(body.len() + 1);
            assert_eq!(line.next, Some(next), "line at {start}");
            assert_eq!(next_line(body, start), next, "line at {start}");
        }
    }

    #[test]
    fn white_space_is_what_isspace_says() {
        for b in 0..=255u8 {
            // C's isspace in the "C" locale.
            let want = b == b' ' || (0x09..=0x0D).contains(&b);
            assert_eq!(is_space(b), want, "{b:#x}");
        }
    }
}
