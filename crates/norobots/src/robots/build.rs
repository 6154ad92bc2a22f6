//! The parse's [`Sink`]: what the reader finds, kept as a [`Robots`].

use std::sync::Arc;

use super::{FieldData, GroupData, RuleData, Span};
use crate::diagnostic::{Diagnostic, DiagnosticKind};
use crate::group::{parse_crawl_delay, RequestRate, VisitTime};
use crate::key::Key;
use crate::parse::ParseOptions;
use crate::parse::{limit, read, Sink};
use crate::robots::Robots;
use crate::rule_kind::RuleKind;
use crate::work;

/// Reads `input` as `options` say, keeping everything.
pub(crate) fn parse(input: &[u8], options: &ParseOptions) -> Robots {
    // Spans are u32: a body is cut at 4 GiB whatever the caller asked.
    let (body, truncated) = limit(input, options);
    let mut builder = Builder {
        robots: Robots {
            dialect: options.dialect,
            body: Arc::default(),
            utf8: true,
            groups: Vec::new(),
            agents: Vec::new(),
            rules: Vec::new(),
            sitemaps: Vec::new(),
            hosts: Vec::new(),
            others: Vec::new(),
            diagnostics: Vec::new(),
            truncated,
        },
        body,
    };
    // Real files hold a rule per 20-odd octets; reserving for that (up to a
    // point) saves most of the vectors' regrowth without betting memory on
    // a body that may be HTML.
    let guess = (body.len() / 24).min(1 << 16);
    builder.robots.rules.reserve(guess);
    builder.robots.agents.reserve(guess / 8);
    // Most bodies are ASCII, which looking at the high bits settles in
    // about half the time UTF-8 validation takes.
    work::add_with(move || body.len());
    if !body.is_ascii() && std::str::from_utf8(body).is_err() {
        builder.robots.utf8 = false;
        // One diagnostic per line that holds such octets, so that a reader
        // who fixes the first finds the others too; lines are counted as
        // the search goes, so the whole body is walked once.
        work::add_with(move || 2 * body.len());
        let (mut at, mut line, mut last) = (0, 1, 0);
        for chunk in body.utf8_chunks() {
            let bad = at + chunk.valid().len();
            line += memchr::memchr_iter(b'\n', &body[at..bad]).count();
            at = bad + chunk.invalid().len();
            if !chunk.invalid().is_empty() && line != last {
                builder.diagnostic(line, DiagnosticKind::InvalidUtf8);
                last = line;
            }
            line += memchr::memchr_iter(b'\n', &body[bad..at]).count();
        }
    }
    read(body, options.dialect, &mut builder);
    if truncated {
        builder.diagnostic(0, DiagnosticKind::BodyTruncated);
    }
    let mut robots = builder.robots;
    robots.diagnostics.sort_by_key(|d| {
        work::add(1);
        d.line
    });
    // Copied.
    work::add_with(move || body.len());
    robots.body = Arc::from(body);
    robots
}

/// The [`Sink`] that keeps everything, as a [`Robots`].
struct Builder<'b> {
    robots: Robots,
    body: &'b [u8],
}

impl Sink for Builder<'_> {
    fn group(&mut self, line: u32) {
        let n = self.robots.agents.len() as u32;
        let r = self.robots.rules.len() as u32;
        self.robots.groups.push(GroupData {
            line,
            agents: (n, n),
            rules: (r, r),
            crawl_delay: None,
            request_rate: None,
            visit_time: None,
        });
    }

    fn agent(&mut self, (a, b): (usize, usize)) {
        self.robots.agents.push(span(a, b));
        let n = self.robots.agents.len() as u32;
        if let Some(g) = self.robots.groups.last_mut() {
            g.agents.1 = n;
        }
    }

    fn rule(&mut self, line: u32, kind: RuleKind, (a, b): (usize, usize)) {
        self.robots.rules.push(RuleData {
            kind,
            line,
            span: span(a, b),
        });
        let n = self.robots.rules.len() as u32;
        if let Some(g) = self.robots.groups.last_mut() {
            g.rules.1 = n;
        }
    }

    fn extension(&mut self, line: u32, key: Key, value: (usize, usize)) {
        // Copied if not UTF-8, then read as a number or two.
        work::add_with(move || 2 * (value.1 - value.0));
        let text = String::from_utf8_lossy(&self.body[value.0..value.1]);
        let Some(group) = self.robots.groups.last_mut() else {
            return;
        };
        let ok = match key {
            Key::CrawlDelay => parse_crawl_delay(&text).map(|v| {
                group.crawl_delay.get_or_insert(v);
            }),
            Key::RequestRate => RequestRate::parse(&text).map(|v| {
                group.request_rate.get_or_insert(v);
            }),
            _ => VisitTime::parse(&text).map(|v| {
                group.visit_time.get_or_insert(v);
            }),
        };
        if ok.is_none() {
            self.diagnostic(line as usize, DiagnosticKind::InvalidValue);
        }
    }

    fn field(&mut self, line: u32, key: Option<Key>, name: (usize, usize), value: (usize, usize)) {
        let field = FieldData {
            line,
            name: span(name.0, name.1),
            value: span(value.0, value.1),
        };
        match key {
            Some(Key::Sitemap) => self.robots.sitemaps.push(field),
            Some(Key::Host) => self.robots.hosts.push(field),
            _ => self.robots.others.push(field),
        }
    }

    fn diagnostic(&mut self, line: usize, kind: DiagnosticKind) {
        self.robots.diagnostics.push(Diagnostic { line, kind });
    }

    fn cut(&mut self, start: usize, end: usize) {
        // The cut may fall inside a character.
        work::add_with(move || end - start);
        self.robots.utf8 &= std::str::from_utf8(&self.body[start..end]).is_ok();
    }
}

fn span(start: usize, end: usize) -> Span {
    Span {
        start: start as u32,
        end: end as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::parse;
    use crate::diagnostic::{Diagnostic, DiagnosticKind};
    use crate::dialect::Dialect;
    use crate::parse::ParseOptions;
    use crate::parse::GOOGLE_MAX_LINE;
    use crate::robots::Robots;

    fn parse_in(dialect: Dialect, body: &[u8]) -> Robots {
        parse(body, &ParseOptions::new(dialect))
    }

    fn rules(r: &Robots) -> Vec<(usize, String)> {
        r.groups()
            .flat_map(|g| {
                g.rules()
                    .map(|r| (r.line(), r.to_string()))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    // 1994 standard, "The format": CR, CR/NL or NL end a line.
    #[test]
    fn line_endings_cr_lf_crlf_count_lines_alike() {
        for body in [
            &b"User-agent: *\nDisallow: /a\n"[..],
            b"User-agent: *\r\nDisallow: /a\r\n",
            b"User-agent: *\rDisallow: /a\r",
        ] {
            for d in Dialect::ALL {
                assert_eq!(rules(&parse_in(d, body)), [(2, "Disallow: /a".into())]);
            }
        }
    }

    // 1994 standard: "the record ... separated by one or more blank lines".
    #[test]
    fn legacy_blank_line_ends_record_but_comment_line_does_not() {
        let body = b"User-agent: a\n# note\nDisallow: /x\n\nDisallow: /y\n";
        let r = parse_in(Dialect::Norobots1994, body);
        assert_eq!(rules(&r), [(3, "Disallow: /x".into())]);
        assert_eq!(r.diagnostics()[0].kind, DiagnosticKind::RuleOutsideGroup);
        // RFC 9309 2.1: blank lines mean nothing.
        let r = parse_in(Dialect::Rfc9309, body);
        assert_eq!(rules(&r).len(), 2);
    }

    // RFC 9309 2.1: a user-agent line after rules starts a new group.
    #[test]
    fn user_agent_after_rule_starts_new_group() {
        for d in Dialect::ALL {
            let r = parse_in(
                d,
                b"User-agent: a\nDisallow: /\nUser-agent: b\nDisallow: /b\n",
            );
            assert_eq!(r.groups().count(), 2, "{d}");
        }
    }

    // Robots FAQ (seed 003), the Lycos variant.
    #[test]
    fn lycos_several_values_per_line_only_in_legacy() {
        let body = b"User-Agent: Copernicus Fred\nDisallow: /cgi-bin/ /tmp/\n";
        let r = parse_in(Dialect::Draft1996, body);
        assert_eq!(r.groups().next().unwrap().agents().count(), 2);
        assert_eq!(rules(&r).len(), 2);
        let r = parse_in(Dialect::Rfc9309, body);
        assert_eq!(r.groups().next().unwrap().agents().count(), 1);
        assert_eq!(rules(&r), [(2, "Disallow: /cgi-bin/ /tmp/".into())]);
    }

    // dialects.md, google: keys match by prefix, with the reference's typos.
    #[test]
    fn google_keys_match_by_prefix_and_typos() {
        let r = parse_in(
            Dialect::Google,
            b"user-agentx: *\nallowance: /a\ndisalloweded: /b\ndiasllow: /c\n",
        );
        assert_eq!(
            rules(&r),
            [
                (2, "Allow: /a".into()),
                (3, "Disallow: /b".into()),
                (4, "Disallow: /c".into())
            ]
        );
        let r = parse_in(
            Dialect::Rfc9309,
            b"user-agent: *\nallowance: /a\ndisalow: /c\n",
        );
        assert_eq!(rules(&r), [(3, "Disallow: /c".into())]);
    }

    // Reference library: a missing colon is accepted for exactly two words.
    #[test]
    fn missing_colon_accepted_only_for_two_words() {
        let r = parse_in(
            Dialect::Google,
            b"User-agent *\nDisallow /a\nDisallow /b /c\n",
        );
        assert_eq!(rules(&r), [(2, "Disallow: /a".into())]);
        let r = parse_in(Dialect::Draft1996, b"User-agent *\nDisallow /a\n");
        assert!(rules(&r).is_empty());
    }

    // Reference library: 16,663 octets of a line are kept.
    #[test]
    fn google_truncates_long_lines() {
        let mut body = b"User-agent: *\nDisallow: /".to_vec();
        body.extend(std::iter::repeat_n(b'a', 20_000));
        let r = parse_in(Dialect::Google, &body);
        let rule = r.groups().next().unwrap().rules().next().unwrap();
        assert_eq!(
            rule.pattern_bytes().len(),
            GOOGLE_MAX_LINE - "Disallow: ".len()
        );
        let r = parse_in(Dialect::Rfc9309, &body);
        assert_eq!(
            r.groups()
                .next()
                .unwrap()
                .rules()
                .next()
                .unwrap()
                .pattern_bytes()
                .len(),
            20_001
        );
    }

    #[test]
    fn nul_ends_the_line() {
        let r = parse_in(Dialect::Google, b"User-agent: *\nDisallow: /a\0bc\n");
        assert_eq!(rules(&r), [(2, "Disallow: /a".into())]);
        assert!(r
            .diagnostics()
            .iter()
            .any(|d| d.kind == DiagnosticKind::NulByte));
    }

    #[test]
    fn bom_pieces_are_skipped_only_in_google() {
        let r = parse_in(Dialect::Google, b"\xEF\xBBUser-agent: *\nDisallow: /\n");
        assert_eq!(r.groups().count(), 1);
        let r = parse_in(Dialect::Rfc9309, b"\xEF\xBBUser-agent: *\nDisallow: /\n");
        assert_eq!(r.groups().count(), 0);
        let r = parse_in(
            Dialect::Rfc9309,
            b"\xEF\xBB\xBFUser-agent: *\nDisallow: /\n",
        );
        assert_eq!(r.groups().count(), 1);
    }

    #[test]
    fn allow_is_ignored_in_1994() {
        let r = parse_in(
            Dialect::Norobots1994,
            b"User-agent: *\nAllow: /a\nDisallow: /\n",
        );
        assert_eq!(rules(&r), [(3, "Disallow: /".into())]);
        assert_eq!(r.diagnostics()[0].kind, DiagnosticKind::IgnoredField);
    }

    #[test]
    fn max_bytes_cuts_the_body() {
        let r = parse(
            b"User-agent: *\nDisallow: /abc\n",
            &ParseOptions::default().max_bytes(27),
        );
        assert!(r.truncated());
        assert_eq!(rules(&r), [(2, "Disallow: /ab".into())]);
    }

    #[test]
    fn extensions_are_recorded_per_group() {
        let r = parse_in(
            Dialect::Rfc9309,
            b"Crawl-delay: 3\nUser-agent: *\nCrawl-delay: x\nCrawl-delay: 4\nRequest-rate: 1/5\n",
        );
        let g = r.groups().next().unwrap();
        assert_eq!(g.crawl_delay(), Some(std::time::Duration::from_secs(4)));
        assert!(g.request_rate().is_some());
        let kinds: Vec<_> = r.diagnostics().iter().map(|d| d.kind).collect();
        assert_eq!(
            kinds,
            [
                DiagnosticKind::ExtensionOutsideGroup,
                DiagnosticKind::InvalidValue
            ]
        );
    }

    #[test]
    fn invalid_utf8_is_reported_with_its_line() {
        let r = parse_in(Dialect::Rfc9309, b"User-agent: *\nDisallow: /\xff\n");
        assert_eq!(
            r.diagnostics(),
            [Diagnostic {
                line: 2,
                kind: DiagnosticKind::InvalidUtf8
            }]
        );
    }

    // Issue 47: only the first such line was reported.
    #[test]
    fn invalid_utf8_is_reported_on_each_line_that_holds_it() {
        let body = b"User-agent: \xe9\nDisallow: /ok\n\nDisallow: /\xff\xfe/\xc3\nAllow: /\xc3\xa9\nAllow: /\x80";
        let r = parse_in(Dialect::Rfc9309, body);
        let lines: Vec<usize> = r
            .diagnostics()
            .iter()
            .filter(|d| d.kind == DiagnosticKind::InvalidUtf8)
            .map(|d| d.line)
            .collect();
        assert_eq!(lines, [1, 4, 6]);
    }

    #[test]
    fn non_ascii_utf8_is_not_reported() {
        // Not ASCII, so the body is validated as UTF-8, and it is valid.
        let r = parse_in(
            Dialect::Rfc9309,
            "User-agent: *\nDisallow: /café\n".as_bytes(),
        );
        assert_eq!(r.diagnostics(), []);
        assert!(r.utf8);
    }
}
