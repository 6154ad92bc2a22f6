//! Checks of the body and of each line on its own: encoding, size, field
//! names, colons and the values of `Allow`, `Disallow` and `User-agent`.

use memchr::{memchr, memchr2};
use norobots::{is_space, DiagnosticKind, Dialect, Key, NotText, Robots};
use norobots::{GOOGLE_MAX_LINE, RFC9309_MIN_BYTES};

use super::fields::{classify, Class, Field};
use super::{finding, is_legacy, shown, Code, Severity, Sink};

/// JSON bodies are recognised by parsing them, up to this size.
const MAX_JSON_PROBE: usize = 1 << 20;

/// Where each line starts, so that findings can be placed and printed.
pub(crate) struct LineTable<'b> {
    pub(crate) body: &'b [u8],
    starts: Vec<u32>,
}

impl<'b> LineTable<'b> {
    /// Lines end at CR, LF or CRLF, as in every dialect. Line 1 starts
    /// after the octets the core parser of `dialect` skips as a byte order
    /// mark, so that the linter reads the line the robots read.
    pub(crate) fn new(body: &'b [u8], dialect: Dialect) -> LineTable<'b> {
        let bom = norobots::bom_len(body, dialect);
        let mut starts = vec![bom as u32];
        // A plain scan: lines are short, and a vectorised search pays its
        // set-up cost per line.
        for (at, &b) in body.iter().enumerate().skip(bom) {
            if b != b'\n' && b != b'\r' {
                continue;
            }
            if b == b'\n' && at > 0 && body[at - 1] == b'\r' {
                // The LF of a CRLF: the CR started this line already.
                if let Some(last) = starts.last_mut() {
                    *last = at as u32 + 1;
                }
                continue;
            }
            starts.push(at as u32 + 1);
        }
        LineTable { body, starts }
    }

    pub(crate) fn len(&self) -> usize {
        self.starts.len()
    }

    /// The octets before line 1: the byte order mark, or the piece of one,
    /// that the dialect skips.
    pub(crate) fn bom(&self) -> &'b [u8] {
        &self.body[..self.starts[0] as usize]
    }

    /// The octets of line `line` (from 1), without its line ending.
    pub(crate) fn range(&self, line: usize) -> (usize, usize) {
        let Some(&start) = self.starts.get(line.wrapping_sub(1)) else {
            return (self.body.len(), self.body.len());
        };
        let start = start as usize;
        let Some(&next) = self.starts.get(line) else {
            return (start, self.body.len());
        };
        let mut end = next as usize;
        if end > start && self.body[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && self.body[end - 1] == b'\r' {
            end -= 1;
        }
        (start, end)
    }

    /// The line holding the octet at `offset`.
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&s| s as usize <= offset)
            .max(1)
    }

    /// The column (from 1, in characters) of `offset` on `line`.
    pub(crate) fn column(&self, line: usize, offset: usize) -> usize {
        let (start, end) = self.range(line);
        let offset = offset.clamp(start, end.max(start));
        1 + self.body[start..offset]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count()
    }
}

/// A line that names a robot or holds a rule, for the checks that need
/// to point into it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FieldLine {
    pub line: usize,
    pub field: Field,
    /// The value's octets (trimmed, without comment).
    pub value: (usize, usize),
    /// Whether the field name is spelled right and followed by `:`.
    pub exact: bool,
}

/// What the line checks learnt for the later checks.
pub(crate) struct Scan<'b> {
    pub table: LineTable<'b>,
    /// `User-agent`, `Allow` and `Disallow` lines (as the author meant them,
    /// misspelled or not), in line order.
    pub fields: Vec<FieldLine>,
}

impl Scan<'_> {
    pub(crate) fn table_bytes(&self, a: usize, b: usize) -> &[u8] {
        &self.table.body[a..b]
    }

    pub(crate) fn field_line(&self, line: usize) -> Option<&FieldLine> {
        self.fields
            .binary_search_by_key(&line, |f| f.line)
            .ok()
            .map(|i| &self.fields[i])
    }

    /// The column of a rule's pattern on its line: the value, or, for a
    /// line split in several rules, the first place the pattern occurs.
    pub(crate) fn pattern_column(&self, line: usize, pattern: &[u8]) -> usize {
        let Some(f) = self.field_line(line) else {
            return self.table.column(line, self.table.range(line).0);
        };
        let value = &self.table.body[f.value.0..f.value.1];
        let at = if pattern.is_empty() || pattern.len() > value.len() {
            0
        } else {
            memchr::memmem::find(value, pattern).unwrap_or(0)
        };
        self.table.column(line, f.value.0 + at)
    }
}

/// File-wide checks. Returns whether the body is a robots.txt at all: the
/// line checks are skipped for HTML, JSON and binary bodies, whose every
/// line would be a finding.
pub(crate) fn check_file(body: &[u8], table: &LineTable, sink: &mut Sink) -> bool {
    match table.bom() {
        [] => {}
        b"\xEF\xBB\xBF" => sink.push(
            finding(
                1,
                1,
                Severity::Warning,
                Code::ByteOrderMark,
                "file starts with a UTF-8 byte order mark".into(),
            )
            .with_help(
                "save the file without it: robots that predate RFC 9309 read it as part of the first field name",
            ),
        ),
        piece => sink.push(
            finding(
                1,
                1,
                Severity::Warning,
                Code::ByteOrderMark,
                format!(
                    "file starts with part of a UTF-8 byte order mark ({} of its 3 octets)",
                    piece.len()
                ),
            )
            .with_help(
                "save the file without it: Google's parser skips it, other robots read it as part of the first field name",
            ),
        ),
    }
    if body.len() > RFC9309_MIN_BYTES {
        let line = table.line_of(RFC9309_MIN_BYTES);
        sink.push(
            finding(
                line,
                table.column(line, RFC9309_MIN_BYTES),
                Severity::Warning,
                Code::FileTooLarge,
                format!(
                    "file is {} octets; RFC 9309 crawlers may ignore what follows the first 500 KiB",
                    body.len()
                ),
            )
            .with_help("shorten the file: group rules by common prefixes or use wildcards"),
        );
    }
    match not_robots_txt(&body[table.bom().len()..]) {
        Some((what, help)) => {
            sink.push(
                finding(
                    1,
                    1,
                    Severity::Error,
                    Code::NotRobotsTxt,
                    format!("file is {what}, not a robots.txt"),
                )
                .with_help(help),
            );
            false
        }
        None => true,
    }
}

/// What the body (past its byte order mark) is when it is plainly not a
/// robots.txt.
fn not_robots_txt(body: &[u8]) -> Option<(&'static str, &'static str)> {
    // Compressed, UTF-16 and binary bodies: the core's one rule, which
    // `norobots parse` also uses.
    match norobots::not_text(body) {
        Some(NotText::Gzip) => {
            return Some((
                NotText::Gzip.describe(),
                "serve robots.txt uncompressed, or with `Content-Encoding: gzip`",
            ))
        }
        Some(utf16 @ NotText::Utf16 { .. }) => return Some((
            utf16.describe(),
            "save the file as UTF-8 (RFC 9309 2.2): robots read UTF-16 as octets and find no field",
        )),
        Some(NotText::Binary) => {
            return Some((
                NotText::Binary.describe(),
                "serve a plain-text robots.txt at /robots.txt",
            ))
        }
        None => {}
    }
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let text = match body.iter().position(|b| !b.is_ascii_whitespace()) {
        Some(i) => &body[i..],
        None => return None,
    };
    match text[0] {
        // No field name starts with `<`: an HTML or XML page (an error
        // page, or a site that answers every path with its home page).
        b'<' => Some((
            "HTML or XML",
            "serve a plain-text robots.txt at /robots.txt, or a 404 if there is none",
        )),
        b'{' | b'['
            if text.len() <= MAX_JSON_PROBE
                && serde_json::from_slice::<serde_json::Value>(text).is_ok() =>
        {
            Some((
                "JSON",
                "serve a plain-text robots.txt at /robots.txt, or a 404 if there is none",
            ))
        }
        _ => None,
    }
}

/// What the core parser said about one line, for this dialect.
#[derive(Default)]
struct CoreSays {
    misspelled: bool,
    rule_outside: bool,
    field_outside: bool,
    invalid_value: bool,
    ignored: bool,
}

/// The line-by-line checks.
pub(crate) fn check_lines<'b>(
    body: &'b [u8],
    table: LineTable<'b>,
    dialect: Dialect,
    robots: &Robots,
    sink: &mut Sink,
) -> Scan<'b> {
    let mut ctx = LineCtx {
        body,
        dialect,
        fields: Vec::new(),
        last_blank: 0,
        last_agent: 0,
    };
    let diags = robots.diagnostics();
    let mut d = 0;
    for line in 1..=table.len() {
        let mut says = CoreSays::default();
        while d < diags.len() && diags[d].line <= line {
            if diags[d].line == line {
                match diags[d].kind {
                    DiagnosticKind::MisspelledField => says.misspelled = true,
                    DiagnosticKind::RuleOutsideGroup => says.rule_outside = true,
                    DiagnosticKind::ExtensionOutsideGroup => says.field_outside = true,
                    DiagnosticKind::InvalidValue => says.invalid_value = true,
                    DiagnosticKind::IgnoredField => says.ignored = true,
                    _ => {}
                }
            }
            d += 1;
        }
        ctx.line(&table, line, &says, sink);
    }
    Scan {
        table,
        fields: ctx.fields,
    }
}

struct LineCtx<'b> {
    body: &'b [u8],
    dialect: Dialect,
    fields: Vec<FieldLine>,
    /// The last blank line, and the last `User-agent` line, for the help of
    /// a rule that a blank line left outside its record.
    last_blank: usize,
    last_agent: usize,
}

// White space is the parser's (`norobots::is_space`): within a line, where
// no CR or LF is left, lint trims and splits where the parser does.
fn trim(body: &[u8], mut a: usize, mut b: usize) -> (usize, usize) {
    while a < b && is_space(body[a]) {
        a += 1;
    }
    while b > a && is_space(body[b - 1]) {
        b -= 1;
    }
    (a, b)
}

impl LineCtx<'_> {
    fn line(&mut self, table: &LineTable, line: usize, says: &CoreSays, sink: &mut Sink) {
        let (start, end) = table.range(line);
        let bytes = &self.body[start..end];
        let at = |offset: usize| table.column(line, offset);
        // The whole line, comment and all, as the reference library's line
        // buffer holds it (the core cuts only what precedes a comment: the
        // same rules either way).
        if bytes.len() > GOOGLE_MAX_LINE {
            sink.push(
                finding(
                    line,
                    at(start + GOOGLE_MAX_LINE),
                    Severity::Warning,
                    Code::LineTooLong,
                    format!(
                        "line is {} octets; Google keeps the first {GOOGLE_MAX_LINE}",
                        bytes.len()
                    ),
                )
                .with_help("split the rule, or shorten it with a `*` wildcard"),
            );
        }
        if let Err(e) = std::str::from_utf8(bytes) {
            sink.push(
                finding(
                    line,
                    at(start + e.valid_up_to()),
                    Severity::Warning,
                    Code::InvalidUtf8,
                    "octets that are not UTF-8".into(),
                )
                .with_help("save the file as UTF-8 (RFC 9309 2.2: a robots.txt is UTF-8); percent-encode other octets in paths"),
            );
        }
        let content_end = match find2(b'#', 0, bytes) {
            Some(k) => {
                if bytes[k] == 0 {
                    sink.push(
                        finding(
                            line,
                            at(start + k),
                            Severity::Warning,
                            Code::NulByte,
                            "NUL octet; Google's parser drops the rest of the line".into(),
                        )
                        .with_help("remove the NUL octet"),
                    );
                }
                start + k
            }
            None => end,
        };
        let (a, b) = trim(self.body, start, content_end);
        if a == b {
            if content_end == end {
                self.last_blank = line;
            }
            return;
        }
        match find2(b':', b':', &self.body[a..b]) {
            None => self.missing_colon(table, line, (a, b), sink),
            Some(k) => {
                let key = trim(self.body, a, a + k);
                let value = trim(self.body, a + k + 1, b);
                self.field(table, line, key, value, says, sink);
            }
        }
    }

    fn field(
        &mut self,
        table: &LineTable,
        line: usize,
        key: (usize, usize),
        value: (usize, usize),
        says: &CoreSays,
        sink: &mut Sink,
    ) {
        let col = table.column(line, key.0);
        let name = &self.body[key.0..key.1];
        let exact = matches!(classify(name), Class::Exact(_));
        let field = match classify(name) {
            Class::Exact(f) => Some(f),
            Class::Near(f) => {
                self.misspelled(line, col, name, f, says.misspelled, sink);
                Some(f)
            }
            Class::Unknown => {
                let message = if name.is_empty() {
                    "line has no field name before `:`".to_string()
                } else {
                    format!("unknown field `{}`", shown(name))
                };
                let mut f = finding(line, col, Severity::Info, Code::UnknownField, message)
                    .with_help("robots ignore this line");
                if name.eq_ignore_ascii_case(b"noindex") {
                    f = f.with_help("no robots.txt standard has `Noindex`; use `<meta name=\"robots\" content=\"noindex\">` or an `X-Robots-Tag` header");
                }
                sink.push(f);
                None
            }
        };
        if says.ignored {
            sink.push(
                finding(
                    line,
                    col,
                    Severity::Warning,
                    Code::IgnoredField,
                    format!("`{}` is ignored in {}", shown(name), self.dialect),
                )
                .with_help("the 1994 standard has only `User-agent` and `Disallow`: express the exception with `Disallow` lines alone"),
            );
        }
        self.outside_group(line, col, says, sink);
        if says.invalid_value {
            sink.push(
                finding(
                    line,
                    table.column(line, value.0),
                    Severity::Warning,
                    Code::InvalidValue,
                    format!(
                        "`{}` value `{}` cannot be read; robots ignore it",
                        shown(name),
                        shown(&self.body[value.0..value.1])
                    ),
                )
                .with_help(value_help(field)),
            );
        }
        if let Some(f) = field.filter(|f| f.is_rule() || *f == Field::Key(Key::UserAgent)) {
            if f == Field::Key(Key::UserAgent) {
                self.last_agent = line;
            }
            self.fields.push(FieldLine {
                line,
                field: f,
                value,
                exact,
            });
            self.value(table, line, f, value, sink);
        }
    }

    fn misspelled(
        &self,
        line: usize,
        col: usize,
        name: &[u8],
        field: Field,
        accepted: bool,
        sink: &mut Sink,
    ) {
        // A dropped rule or agent line silently changes what robots may
        // fetch; a dropped `Sitemap` or `Crawl-delay` only loses a hint.
        let matters = field.is_rule() || field == Field::Key(Key::UserAgent);
        let ignored_anyway =
            self.dialect == Dialect::Norobots1994 && field == Field::Key(Key::Allow);
        let (severity, note) = if accepted {
            (
                Severity::Warning,
                format!(
                    "{} reads it as `{}`, other robots ignore the line",
                    self.dialect,
                    field.name()
                ),
            )
        } else {
            (
                if matters && !ignored_anyway {
                    Severity::Error
                } else {
                    Severity::Warning
                },
                format!("{} ignores the line", self.dialect),
            )
        };
        sink.push(
            finding(
                line,
                col,
                severity,
                Code::MisspelledField,
                format!("misspelled field name `{}` ({note})", shown(name)),
            )
            .with_help(format!("write `{}`", field.name())),
        );
    }

    fn outside_group(&self, line: usize, col: usize, says: &CoreSays, sink: &mut Sink) {
        if says.rule_outside {
            let help = if is_legacy(self.dialect)
                && self.last_agent > 0
                && self.last_blank > self.last_agent
            {
                format!(
                    "the blank line {} ends the record in {}: remove it, or start a new record with a `User-agent:` line",
                    self.last_blank, self.dialect
                )
            } else {
                "add a `User-agent:` line (e.g. `User-agent: *`) before it".to_string()
            };
            sink.push(
                finding(
                    line,
                    col,
                    Severity::Error,
                    Code::RuleOutsideGroup,
                    "rule outside any group (no `User-agent` line above it); robots ignore it"
                        .into(),
                )
                .with_help(help),
            );
        }
        if says.field_outside {
            sink.push(
                finding(
                    line,
                    col,
                    Severity::Warning,
                    Code::FieldOutsideGroup,
                    "group field before any `User-agent` line; robots ignore it".into(),
                )
                .with_help("move it into the group it is meant for, after its `User-agent` line"),
            );
        }
    }

    fn missing_colon(
        &mut self,
        table: &LineTable,
        line: usize,
        (a, b): (usize, usize),
        sink: &mut Sink,
    ) {
        let text = &self.body[a..b];
        let words: Vec<&[u8]> = text
            .split(|&c| is_space(c))
            .filter(|w| !w.is_empty())
            .take(3)
            .collect();
        let first = words.first().copied().unwrap_or_default();
        let mut guess = match classify(first) {
            Class::Exact(f) => Some((f, 1, true)),
            Class::Near(f) => Some((f, 1, false)),
            Class::Unknown => None,
        };
        if guess.is_none() && words.len() >= 2 {
            // `User agent *`: the name itself holds a space.
            let two = [words[0], words[1]].join(&b' ');
            if let Class::Exact(f) | Class::Near(f) = classify(&two) {
                guess = Some((f, 2, false));
            }
        }
        let col = table.column(line, a);
        let Some((field, n, exact)) = guess else {
            sink.push(
                finding(
                    line,
                    col,
                    Severity::Error,
                    Code::MissingColon,
                    "line is not a `field: value` pair (no `:`); robots ignore it".into(),
                )
                .with_help("comment it out with `#` if it is a note"),
            );
            return;
        };
        // The reference library (and so `rfc9309`, `google`) repairs
        // `Disallow /x`: exactly two words, the first a field name.
        let repaired = !is_legacy(self.dialect) && exact && words.len() == 2;
        let value_at = nth_word_start(self.body, a, b, n);
        let value = trim(self.body, value_at, b);
        let severity = if repaired {
            Severity::Warning
        } else {
            Severity::Error
        };
        let note = if repaired {
            format!("{} repairs it, older robots ignore the line", self.dialect)
        } else {
            format!("{} ignores the line", self.dialect)
        };
        sink.push(
            finding(
                line,
                col,
                severity,
                Code::MissingColon,
                format!("missing `:` after the field name ({note})"),
            )
            .with_help(format!(
                "write `{}: {}`",
                field.name(),
                shown(&self.body[value.0..value.1])
            )),
        );
        if field.is_rule() || field == Field::Key(Key::UserAgent) {
            self.fields.push(FieldLine {
                line,
                field,
                value,
                exact: false,
            });
        }
    }

    fn value(
        &self,
        table: &LineTable,
        line: usize,
        field: Field,
        value: (usize, usize),
        sink: &mut Sink,
    ) {
        let v = &self.body[value.0..value.1];
        if v.is_empty() {
            return;
        }
        let col = |offset: usize| table.column(line, value.0 + offset);
        let words: Vec<(usize, &[u8])> = words(v).take(2).collect();
        if words.len() > 1 {
            sink.push(self.several_values(line, field, &words, col(words[1].0)));
        }
        if !field.is_rule()
            || (self.dialect == Dialect::Norobots1994 && field == Field::Key(Key::Allow))
        {
            return;
        }
        if v[0] != b'/' && v[0] != b'*' {
            sink.push(
                finding(
                    line,
                    col(0),
                    Severity::Error,
                    Code::InvalidPath,
                    format!(
                        "path `{}` starts with neither `/` nor `*`: it never matches",
                        shown(words[0].1)
                    ),
                )
                .with_help(format!(
                    "write `{}: {}`",
                    field.name(),
                    shown(&path_fix(words[0].1))
                )),
            );
        }
        self.wildcards(line, field, v, col, sink);
    }

    fn several_values(
        &self,
        line: usize,
        field: Field,
        words: &[(usize, &[u8])],
        col: usize,
    ) -> super::Finding {
        let (first, second) = (shown(words[0].1), shown(words[1].1));
        let legacy = is_legacy(self.dialect);
        let severity = if legacy {
            Severity::Info
        } else {
            Severity::Warning
        };
        if field == Field::Key(Key::UserAgent) {
            let message = if legacy {
                format!("several robots on one line (the Lycos variant): `{first}`, `{second}`, …; RFC 9309 robots read only `{}`", norobots::product_token(&first))
            } else {
                format!(
                    "only the product token `{}` of this value is compared; the rest is ignored",
                    norobots::product_token(&first)
                )
            };
            return finding(line, col, severity, Code::SeveralValues, message)
                .with_help("name one robot per `User-agent` line, by its product token");
        }
        let message = if legacy {
            "several paths on one line (the Lycos variant); RFC 9309 robots read them as one pattern with a space".to_string()
        } else {
            format!(
                "several paths on one line: {} reads them as one pattern, space included",
                self.dialect
            )
        };
        finding(line, col, severity, Code::SeveralValues, message).with_help(format!(
            "put each path on its own line: `{0}: {first}`, `{0}: {second}`",
            field.name()
        ))
    }

    fn wildcards(
        &self,
        line: usize,
        field: Field,
        v: &[u8],
        col: impl Fn(usize) -> usize,
        sink: &mut Sink,
    ) {
        if is_legacy(self.dialect) {
            let Some(k) = v.iter().position(|&b| b == b'*' || b == b'$') else {
                return;
            };
            let help = if v.iter().filter(|&&b| b == b'*' || b == b'$').count() == 1
                && v.ends_with(b"*")
            {
                format!(
                    "drop the trailing `*`: `{}: {}` already matches every URL that starts with it",
                    field.name(),
                    shown(&v[..v.len() - 1])
                )
            } else {
                "write the literal paths the wildcard stands for; `*` and `$` are wildcards only since RFC 9309".to_string()
            };
            sink.push(
                finding(
                    line,
                    col(k),
                    Severity::Warning,
                    Code::LiteralWildcard,
                    format!(
                        "`{}` is a plain character in {}: this rule matches only URLs that contain it",
                        v[k] as char, self.dialect
                    ),
                )
                .with_help(help),
            );
        } else if let Some(k) = v[..v.len() - 1].iter().position(|&b| b == b'$') {
            sink.push(
                finding(
                    line,
                    col(k),
                    Severity::Info,
                    Code::LiteralWildcard,
                    "`$` anchors only at the end of a pattern; here it is a plain `$`".into(),
                )
                .with_help("write `%24` if a literal `$` is meant, or move the anchor to the end"),
            );
        }
    }
}

/// The first `x` or `y` in `bytes`: a plain scan for the short lines most
/// files are made of, `memchr` for long ones.
fn find2(x: u8, y: u8, bytes: &[u8]) -> Option<usize> {
    if bytes.len() < 64 {
        bytes.iter().position(|&b| b == x || b == y)
    } else {
        memchr2(x, y, bytes)
    }
}

/// The start of the `n`-th word (from 0) of `body[a..b]`, or `b`.
fn nth_word_start(body: &[u8], a: usize, b: usize, n: usize) -> usize {
    words(&body[a..b]).nth(n).map_or(b, |(i, _)| a + i)
}

/// The white-space-separated words of `v`, with their offsets.
fn words(v: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut pos = 0;
    std::iter::from_fn(move || {
        while pos < v.len() && is_space(v[pos]) {
            pos += 1;
        }
        if pos == v.len() {
            return None;
        }
        let a = pos;
        while pos < v.len() && !is_space(v[pos]) {
            pos += 1;
        }
        Some((a, &v[a..pos]))
    })
}

/// The path a value that does not start with `/` was most likely meant to
/// be: the path of a full URL, or the value with a `/` in front.
fn path_fix(v: &[u8]) -> Vec<u8> {
    let lower = v.to_ascii_lowercase();
    for scheme in [&b"http://"[..], b"https://"] {
        if lower.starts_with(scheme) {
            let rest = &v[scheme.len()..];
            return match memchr(b'/', rest) {
                Some(k) => rest[k..].to_vec(),
                None => b"/".to_vec(),
            };
        }
    }
    let mut fixed = b"/".to_vec();
    fixed.extend_from_slice(v);
    fixed
}

fn value_help(field: Option<Field>) -> &'static str {
    match field {
        Some(Field::Key(Key::CrawlDelay)) => "write a number of seconds: `Crawl-delay: 10`",
        Some(Field::Key(Key::RequestRate)) => "write documents per seconds: `Request-rate: 1/5`",
        Some(Field::Key(Key::VisitTime)) => "write a UTC time range: `Visit-time: 0100-0445`",
        _ => "see the field's documentation for its syntax",
    }
}
