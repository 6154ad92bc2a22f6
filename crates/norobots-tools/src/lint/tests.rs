//! One test (at least) per finding code, and the promises around them: no
//! finding on clean files, verified divergence examples.

use norobots::{Dialect, ParseOptions, Robots};

use super::{lint, Code, DivergenceKind, Finding, LintOptions, Severity, TextOptions};

const ALL: [Dialect; 4] = Dialect::ALL;

fn run(body: &[u8], dialect: Dialect) -> Vec<Finding> {
    lint(body, &LintOptions::new(dialect)).findings
}

fn of(body: &[u8], dialect: Dialect, code: Code) -> Vec<Finding> {
    run(body, dialect)
        .into_iter()
        .filter(|f| f.code == code)
        .collect()
}

fn one(body: &[u8], dialect: Dialect, code: Code) -> Finding {
    let found = of(body, dialect, code);
    assert_eq!(found.len(), 1, "{dialect}: {found:#?}");
    found.into_iter().next().unwrap()
}

fn place(f: &Finding) -> (usize, usize, Severity) {
    (f.line, f.column, f.severity)
}

#[test]
fn clean_files_have_no_findings() {
    let bodies: [&[u8]; 3] = [
        b"User-agent: *\nDisallow: /private/\n",
        b"# comment\nUser-agent: FooBot\nDisallow: /tmp/\n\nUser-agent: *\nDisallow:\n",
        b"",
    ];
    for body in bodies {
        for d in ALL {
            assert_eq!(run(body, d), [], "{d}: {}", String::from_utf8_lossy(body));
        }
    }
}

#[test]
fn every_code_has_a_unique_slug() {
    let mut slugs: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    slugs.sort_unstable();
    slugs.dedup();
    assert_eq!(slugs.len(), Code::ALL.len());
    // The module documentation's table lists every code.
    let doc = include_str!("../lint.rs");
    for code in Code::ALL {
        assert!(
            doc.contains(&format!("| `{code}` |")),
            "{code} missing from the table"
        );
    }
}

#[test]
fn not_robots_txt_html_json_gzip_binary() {
    let bodies: [&[u8]; 4] = [
        b"<!DOCTYPE html>\n<html><head><title>404</title></head>\n<body>Not found</body></html>\n",
        b"{\"error\": \"not found\", \"status\": 404}\n",
        b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03",
        b"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10User-agent",
    ];
    for body in bodies {
        let found = run(body, Dialect::Rfc9309);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].code, Code::NotRobotsTxt);
        assert_eq!(place(&found[0]), (1, 1, Severity::Error));
    }
    // Issue 47: UTF-16 was called binary; it is named as what it is, by
    // the rule `norobots parse` uses too.
    let utf16: Vec<u8> = "\u{FEFF}User-agent: *\r\nDisallow: /private/\r\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let found = run(&utf16, Dialect::Rfc9309);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        found[0].message,
        "file is UTF-16 (little-endian) text, not a robots.txt"
    );
    assert!(found[0]
        .help
        .as_deref()
        .unwrap()
        .starts_with("save the file as UTF-8"));
    // A `[` or `{` that is not JSON is left to the line checks.
    assert!(of(
        b"{oops\nUser-agent: *\nDisallow: /\n",
        Dialect::Rfc9309,
        Code::NotRobotsTxt
    )
    .is_empty());
}

#[test]
fn file_too_large_points_at_the_cut() {
    let mut body = b"User-agent: *\n".to_vec();
    while body.len() <= 600 * 1024 {
        body.extend_from_slice(b"Disallow: /some/long/path/to/keep/out/\n");
    }
    let opts = LintOptions {
        divergence: false,
        ..LintOptions::new(Dialect::Rfc9309)
    };
    let found: Vec<Finding> = lint(&body, &opts)
        .findings
        .into_iter()
        .filter(|f| f.code == Code::FileTooLarge)
        .collect();
    assert_eq!(found.len(), 1);
    // Line 1 is 14 octets, then 39 octets a line.
    let want_line = 2 + (500 * 1024 - 14) / 39;
    assert_eq!(found[0].line, want_line);
    assert_eq!(found[0].severity, Severity::Warning);
}

#[test]
fn byte_order_mark_is_a_warning() {
    let f = one(
        b"\xEF\xBB\xBFUser-agent: *\nDisallow: /\n",
        Dialect::Rfc9309,
        Code::ByteOrderMark,
    );
    assert_eq!(place(&f), (1, 1, Severity::Warning));
}

// The parser skips the mark, so line 1 holds what follows it: a field
// or a comment, not a misspelled name or a line without a colon.
#[test]
fn byte_order_mark_is_skipped_as_the_parser_skips_it() {
    let bodies: [&[u8]; 3] = [
        b"\xEF\xBB\xBFUser-agent: *\nDisallow: /private\n",
        b"\xEF\xBB\xBF# comment\nUser-agent: *\nDisallow: /private\n",
        b"\xEF\xBB\xBF\r\nUser-agent: *\nDisallow: /private\n",
    ];
    for body in bodies {
        for d in ALL {
            let found = run(body, d);
            assert_eq!(found.len(), 1, "{d}: {found:#?}");
            assert_eq!(found[0].code, Code::ByteOrderMark);
            assert_eq!(place(&found[0]), (1, 1, Severity::Warning));
        }
    }
    // Columns count from after the mark, as editors show the line.
    let f = one(
        b"\xEF\xBB\xBFUser-agent: *\nDisallow: tmp\n",
        Dialect::Rfc9309,
        Code::InvalidPath,
    );
    assert_eq!((f.line, f.column), (2, 11));
    let f = one(
        b"\xEF\xBB\xBFDisalow: /x\n",
        Dialect::Rfc9309,
        Code::RuleOutsideGroup,
    );
    assert_eq!((f.line, f.column), (1, 1));
}

// `google` skips a piece of a mark too, as the reference library does;
// the other dialects read it as part of the first field name, which the
// linter then names.
#[test]
fn a_piece_of_a_byte_order_mark_is_skipped_only_in_google() {
    let body = b"\xEF\xBBUser-agent: *\nDisallow: /private\n";
    let found = run(body, Dialect::Google);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].code, Code::ByteOrderMark);
    assert!(found[0].message.contains("part of"), "{found:#?}");
    let found = run(body, Dialect::Rfc9309);
    assert!(
        found
            .iter()
            .any(|f| f.code == Code::MisspelledField && f.severity == Severity::Error),
        "{found:#?}"
    );
    assert!(
        found.iter().all(|f| f.code != Code::ByteOrderMark),
        "{found:#?}"
    );
}

#[test]
fn invalid_utf8_points_at_the_octet() {
    let f = one(
        b"User-agent: *\nDisallow: /caf\xe9\n",
        Dialect::Rfc9309,
        Code::InvalidUtf8,
    );
    assert_eq!(place(&f), (2, 15, Severity::Warning));
}

#[test]
fn nul_byte_points_at_the_octet() {
    let f = one(
        b"User-agent: *\nDisallow: /a\0b\n",
        Dialect::Google,
        Code::NulByte,
    );
    assert_eq!(place(&f), (2, 13, Severity::Warning));
}

#[test]
fn line_too_long_points_where_google_cuts() {
    let mut body = b"User-agent: *\nDisallow: /".to_vec();
    body.extend(std::iter::repeat_n(b'a', 20_000));
    let f = one(&body, Dialect::Rfc9309, Code::LineTooLong);
    assert_eq!(place(&f), (2, 16_664, Severity::Warning));
}

#[test]
fn missing_colon_is_repaired_or_ignored_per_dialect() {
    let body = b"User-agent *\nDisallow /x\n";
    for d in [Dialect::Rfc9309, Dialect::Google] {
        let found = of(body, d, Code::MissingColon);
        assert_eq!(found.len(), 2);
        assert_eq!(place(&found[0]), (1, 1, Severity::Warning));
        assert_eq!(found[1].help.as_deref(), Some("write `Disallow: /x`"));
    }
    for d in [Dialect::Norobots1994, Dialect::Draft1996] {
        let found = of(body, d, Code::MissingColon);
        assert!(
            found.iter().all(|f| f.severity == Severity::Error),
            "{found:#?}"
        );
        assert_eq!(found[0].help.as_deref(), Some("write `User-agent: *`"));
    }
    // Three words are never repaired; prose has no fix.
    let f = one(
        b"User-agent: *\nDisallow /a /b\n",
        Dialect::Rfc9309,
        Code::MissingColon,
    );
    assert_eq!(f.severity, Severity::Error);
    let f = one(
        b"Welcome to our site\n",
        Dialect::Rfc9309,
        Code::MissingColon,
    );
    assert_eq!(
        f.help.as_deref(),
        Some("comment it out with `#` if it is a note")
    );
    // `User agent *`: the name itself has a space.
    let f = one(b"User agent *\n", Dialect::Rfc9309, Code::MissingColon);
    assert_eq!(f.help.as_deref(), Some("write `User-agent: *`"));
}

#[test]
fn misspelled_fields_get_the_right_spelling() {
    let cases: [(&str, &str); 9] = [
        ("Dissallow: /x", "Disallow"),
        ("Disalow: /x", "Disallow"),
        ("User agent: *", "User-agent"),
        ("Useragent: *", "User-agent"),
        ("User_agent: *", "User-agent"),
        ("Alow: /x", "Allow"),
        ("Crawl_delay: 5", "Crawl-delay"),
        ("Site-map: https://example.com/s.xml", "Sitemap"),
        ("Disallowed: /x", "Disallow"),
    ];
    for (line, fix) in cases {
        let body = format!("User-agent: *\n{line}\n");
        let f = one(body.as_bytes(), Dialect::Rfc9309, Code::MisspelledField);
        assert_eq!((f.line, f.column), (2, 1));
        assert_eq!(f.help, Some(format!("write `{fix}`")), "{line}");
    }
}

#[test]
fn misspelled_field_severity_follows_what_the_dialect_does() {
    let sev = |line: &str, d| {
        let body = format!("User-agent: *\n{line}\n");
        one(body.as_bytes(), d, Code::MisspelledField).severity
    };
    // rfc9309 accepts `disalow`, as the reference library does; the draft
    // drops the line, and with it the rule.
    assert_eq!(sev("Disalow: /x", Dialect::Rfc9309), Severity::Warning);
    assert_eq!(sev("Disalow: /x", Dialect::Draft1996), Severity::Error);
    assert_eq!(sev("Alow: /x", Dialect::Rfc9309), Severity::Error);
    assert_eq!(sev("Crawl_delay: 5", Dialect::Rfc9309), Severity::Warning);
}

#[test]
fn unknown_fields_are_info() {
    let f = one(
        b"User-agent: *\nNoindex: /x\nDisallow:\n",
        Dialect::Rfc9309,
        Code::UnknownField,
    );
    assert_eq!(place(&f), (2, 1, Severity::Info));
    assert!(f.help.unwrap().contains("X-Robots-Tag"));
    // Known extensions are not unknown.
    let body = b"User-agent: *\nCrawl-delay: 5\nClean-param: ref /\nHost: example.com\nDisallow:\n";
    assert!(of(body, Dialect::Rfc9309, Code::UnknownField).is_empty());
}

#[test]
fn allow_is_an_ignored_field_in_1994() {
    let body = b"User-agent: *\nAllow: /public\nDisallow: /\n";
    let f = one(body, Dialect::Norobots1994, Code::IgnoredField);
    assert_eq!(place(&f), (2, 1, Severity::Warning));
    assert!(of(body, Dialect::Draft1996, Code::IgnoredField).is_empty());
}

#[test]
fn rule_outside_group_with_the_reason() {
    let f = one(
        b"Disallow: /x\nUser-agent: *\nDisallow: /y\n",
        Dialect::Rfc9309,
        Code::RuleOutsideGroup,
    );
    assert_eq!(place(&f), (1, 1, Severity::Error));
    assert!(f.help.unwrap().contains("add a `User-agent:` line"));
    // Legacy: a blank line ends the record.
    let body = b"User-agent: a\nDisallow: /x\n\nDisallow: /y\n";
    let f = one(body, Dialect::Draft1996, Code::RuleOutsideGroup);
    assert_eq!(f.line, 4);
    assert!(f.help.unwrap().contains("blank line 3"));
    assert!(of(body, Dialect::Rfc9309, Code::RuleOutsideGroup).is_empty());
}

#[test]
fn field_outside_group() {
    let f = one(
        b"Crawl-delay: 5\nUser-agent: *\nDisallow:\n",
        Dialect::Rfc9309,
        Code::FieldOutsideGroup,
    );
    assert_eq!(place(&f), (1, 1, Severity::Warning));
}

#[test]
fn invalid_value_points_at_the_value() {
    let f = one(
        b"User-agent: *\nCrawl-delay: soon\nDisallow:\n",
        Dialect::Rfc9309,
        Code::InvalidValue,
    );
    assert_eq!(place(&f), (2, 14, Severity::Warning));
    assert_eq!(
        f.help.as_deref(),
        Some("write a number of seconds: `Crawl-delay: 10`")
    );
}

#[test]
fn invalid_path_with_a_fix() {
    for d in ALL {
        let f = one(b"User-agent: *\nDisallow: private/\n", d, Code::InvalidPath);
        assert_eq!(place(&f), (2, 11, Severity::Error));
        assert_eq!(f.help.as_deref(), Some("write `Disallow: /private/`"));
    }
    let f = one(
        b"User-agent: *\nDisallow: https://example.com/a/b\n",
        Dialect::Rfc9309,
        Code::InvalidPath,
    );
    assert_eq!(f.help.as_deref(), Some("write `Disallow: /a/b`"));
    // `*` starts a pattern; an empty value is fine.
    assert!(of(
        b"User-agent: *\nDisallow: *.pdf\nDisallow:\n",
        Dialect::Rfc9309,
        Code::InvalidPath
    )
    .is_empty());
}

#[test]
fn several_values_per_dialect() {
    let body = b"User-agent: *\nDisallow: /cgi-bin/ /tmp/\n";
    let f = one(body, Dialect::Rfc9309, Code::SeveralValues);
    assert_eq!(place(&f), (2, 21, Severity::Warning));
    assert_eq!(
        f.help.as_deref(),
        Some("put each path on its own line: `Disallow: /cgi-bin/`, `Disallow: /tmp/`")
    );
    let f = one(body, Dialect::Draft1996, Code::SeveralValues);
    assert_eq!(f.severity, Severity::Info);
    let f = one(
        b"User-agent: foo bar\nDisallow: /\n",
        Dialect::Rfc9309,
        Code::SeveralValues,
    );
    assert_eq!(place(&f), (1, 17, Severity::Warning));
    assert!(f.message.contains("`foo`"));
}

#[test]
fn literal_wildcards_in_legacy_dialects() {
    let body = b"User-agent: *\nDisallow: /*.pdf$\n";
    for d in [Dialect::Norobots1994, Dialect::Draft1996] {
        let f = one(body, d, Code::LiteralWildcard);
        assert_eq!(place(&f), (2, 12, Severity::Warning));
    }
    assert!(of(body, Dialect::Rfc9309, Code::LiteralWildcard).is_empty());
    let f = one(
        b"User-agent: *\nDisallow: /private*\n",
        Dialect::Draft1996,
        Code::LiteralWildcard,
    );
    assert!(f.help.unwrap().starts_with("drop the trailing `*`"));
    // A `$` that is not last is literal in RFC 9309 too.
    let f = one(
        b"User-agent: *\nDisallow: /a$b\n",
        Dialect::Rfc9309,
        Code::LiteralWildcard,
    );
    assert_eq!(place(&f), (2, 13, Severity::Info));
}

#[test]
fn records_without_disallow_in_legacy_dialects() {
    // The classic: a blank line between the agent and its rules.
    let body = b"User-agent: a\n\nUser-agent: b\nDisallow: /\n";
    for d in [Dialect::Norobots1994, Dialect::Draft1996] {
        let f = one(body, d, Code::RecordWithoutDisallow);
        assert_eq!(place(&f), (1, 1, Severity::Error));
    }
    assert!(of(body, Dialect::Rfc9309, Code::RecordWithoutDisallow).is_empty());
    // Allow alone is a rule line in 1996, not in 1994.
    let body = b"User-agent: a\nAllow: /\n";
    assert_eq!(
        of(body, Dialect::Norobots1994, Code::RecordWithoutDisallow).len(),
        1
    );
    assert!(of(body, Dialect::Draft1996, Code::RecordWithoutDisallow).is_empty());
}

#[test]
fn multiple_default_groups_per_dialect() {
    let body = b"User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n";
    let want = [
        (Dialect::Norobots1994, Severity::Error),
        (Dialect::Draft1996, Severity::Warning),
        (Dialect::Rfc9309, Severity::Info),
        (Dialect::Google, Severity::Info),
    ];
    for (d, severity) in want {
        let f = one(body, d, Code::MultipleDefaultGroups);
        assert_eq!(place(&f), (4, 13, severity), "{d}");
    }
}

#[test]
fn duplicate_agents_per_dialect() {
    let body = b"User-agent: Googlebot\nDisallow: /a\n\nUser-agent: googlebot\nDisallow: /b\n";
    let f = one(body, Dialect::Draft1996, Code::DuplicateAgent);
    assert_eq!(place(&f), (4, 13, Severity::Warning));
    let f = one(body, Dialect::Rfc9309, Code::DuplicateAgent);
    assert_eq!(f.severity, Severity::Info);
    // RFC 9309 compares product tokens: `Googlebot/2.1` is `Googlebot`.
    let body = b"User-agent: Googlebot\nDisallow: /a\n\nUser-agent: Googlebot/2.1\nDisallow: /b\n";
    assert_eq!(of(body, Dialect::Rfc9309, Code::DuplicateAgent).len(), 1);
    assert!(of(body, Dialect::Draft1996, Code::DuplicateAgent).is_empty());
}

#[test]
fn duplicate_rules_in_every_dialect() {
    let body = b"User-agent: *\nDisallow: /a\nDisallow: /b\nDisallow: /a\n";
    for d in ALL {
        let f = one(body, d, Code::DuplicateRule);
        assert_eq!(place(&f), (4, 11, Severity::Warning), "{d}");
        assert!(f.message.contains("line 2"));
    }
    // Wildcard patterns are compared as written in RFC 9309.
    let body = b"User-agent: *\nDisallow: /*.pdf$\nAllow: /x\nDisallow: /*.pdf$\n";
    assert_eq!(of(body, Dialect::Rfc9309, Code::DuplicateRule).len(), 1);
}

#[test]
fn shadowed_rules_by_first_match_in_the_draft() {
    let body = b"User-agent: *\nDisallow: /\nAllow: /public\n";
    let f = one(body, Dialect::Draft1996, Code::ShadowedRule);
    assert_eq!(place(&f), (3, 8, Severity::Warning));
    assert_eq!(f.help.as_deref(), Some("move this line above line 2"));
    // The longest match decides in RFC 9309: nothing is shadowed there.
    assert!(of(body, Dialect::Rfc9309, Code::ShadowedRule).is_empty());
    // Later and shorter does not shadow an earlier, longer rule.
    assert!(of(
        b"User-agent: *\nAllow: /public\nDisallow: /\n",
        Dialect::Draft1996,
        Code::ShadowedRule
    )
    .is_empty());
    // `%xx` is decoded in the draft: not compared as written.
    assert!(of(
        b"User-agent: *\nDisallow: /a\nAllow: /a%62\n",
        Dialect::Draft1996,
        Code::ShadowedRule
    )
    .is_empty());
}

#[test]
fn shadowed_rules_by_longest_match() {
    // Same pattern: the Allow wins the tie, wherever it is.
    let f = one(
        b"User-agent: *\nDisallow: /a\nAllow: /a\n",
        Dialect::Rfc9309,
        Code::ShadowedRule,
    );
    assert_eq!(place(&f), (2, 11, Severity::Warning));
    // One kind of rule, no wildcard: the longer rule adds nothing.
    let f = one(
        b"User-agent: *\nDisallow: /a/b\nDisallow: /a\n",
        Dialect::Rfc9309,
        Code::ShadowedRule,
    );
    assert_eq!(f.line, 2);
    // No false positives: an Allow may sit between the two, a wildcard may
    // match elsewhere, a merged group may bring an Allow.
    let quiet: [&[u8]; 3] = [
        b"User-agent: *\nDisallow: /a\nAllow: /ab/c\nDisallow: /ab\n",
        b"User-agent: *\nDisallow: /*a\nDisallow: /ab\n",
        b"User-agent: x\nDisallow: /a\nDisallow: /ab\n\nUser-agent: x\nAllow: /abc\n",
    ];
    for body in quiet {
        assert!(
            of(body, Dialect::Rfc9309, Code::ShadowedRule).is_empty(),
            "{}",
            String::from_utf8_lossy(body)
        );
    }
}

#[test]
fn shadowed_rules_are_redundant_in_1994() {
    let f = one(
        b"User-agent: *\nDisallow: /tmp/a\nDisallow: /tmp\n",
        Dialect::Norobots1994,
        Code::ShadowedRule,
    );
    assert_eq!(f.line, 2);
}

/// Runs the example through both dialects' matchers, as the linter did.
fn verify(body: &[u8], f: &Finding) {
    let e = f.example.as_ref().expect("a divergence has an example");
    let allowed = |d| {
        Robots::parse_with(body, &ParseOptions::new(d))
            .matcher(&e.agent)
            .is_allowed(&e.url)
    };
    assert!(allowed(e.allowed_in), "{f:#?}");
    assert!(!allowed(e.disallowed_in), "{f:#?}");
}

fn divergences(body: &[u8]) -> Vec<Finding> {
    let found = of(body, Dialect::Rfc9309, Code::DialectDivergence);
    for f in &found {
        verify(body, f);
    }
    found
}

#[test]
fn divergence_by_rule_order() {
    let body = b"User-agent: *\nDisallow: /\nAllow: /public\n";
    let found = divergences(body);
    assert_eq!(found.len(), 1, "{found:#?}");
    let f = &found[0];
    assert_eq!(place(f), (3, 8, Severity::Warning));
    let e = f.example.as_ref().unwrap();
    assert_eq!(e.url, "https://example.com/public");
    assert_eq!(
        (e.allowed_in, e.disallowed_in),
        (Dialect::Rfc9309, Dialect::Draft1996)
    );
    assert!(f.help.as_ref().unwrap().contains("first matching line"));
    // Most specific first: both dialects agree.
    assert!(divergences(b"User-agent: *\nAllow: /public\nDisallow: /\n").is_empty());
}

#[test]
fn divergence_by_wildcards() {
    let found = divergences(b"User-agent: *\nDisallow: /*.pdf$\n");
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].example.as_ref().unwrap().url,
        "https://example.com/x.pdf"
    );
    assert!(found[0].help.as_ref().unwrap().contains("wildcards"));
}

#[test]
fn divergence_by_agent_matching() {
    // The draft matches `Googlebot` inside `Googlebot-News`; RFC 9309
    // compares the whole product token.
    let found = divergences(b"User-agent: Googlebot-News\nDisallow: /\n");
    assert_eq!(found.len(), 1, "{found:#?}");
    let e = found[0].example.as_ref().unwrap();
    assert_eq!(e.agent, "Googlebot");
    assert_eq!(e.allowed_in, Dialect::Rfc9309);
    assert_eq!(found[0].line, 1);
    // `User-agent: foo bar` names `bar` only in the legacy dialects.
    let found = divergences(b"User-agent: foo bar\nDisallow: /\n");
    assert!(
        found
            .iter()
            .any(|f| f.example.as_ref().unwrap().agent == "bar"),
        "{found:#?}"
    );
}

#[test]
fn divergence_by_percent_decoding() {
    let found = divergences(b"User-agent: *\nDisallow: /a%3Cb\n");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].help.as_ref().unwrap().contains("%xx"));
    // Both decode `%7E` (`~`, unreserved): no divergence.
    assert!(divergences(b"User-agent: *\nDisallow: /%7Ejoe\n").is_empty());
}

#[test]
fn divergence_by_several_paths_and_record_boundaries() {
    let found = divergences(b"User-agent: *\nDisallow: /cgi-bin/ /tmp/\n");
    assert!(!found.is_empty());
    assert!(found[0].help.as_ref().unwrap().contains("own line"));
    let found = divergences(b"User-agent: *\nDisallow: /a\n\nDisallow: /b\n");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].line, 4);
    assert!(found[0].help.as_ref().unwrap().contains("blank line"));
}

// `User-agent: b` with only a `Crawl-delay`, then a blank line: rfc9309
// reads a group's `User-agent` lines up to its first rule, so `b` gets
// `c`'s rules; draft1996 ends `b`'s record at the blank line. Removing
// blank lines changes nothing in rfc9309: the help must name the real
// cause, and its fixes must make the dialects agree.
#[test]
fn divergence_by_agents_merged_across_a_blank_line() {
    let body = b"User-agent: a\nDisallow: /x\n\nUser-agent: b\nCrawl-delay: 5\n\nUser-agent: c\nDisallow: /y\n";
    let found = divergences(body);
    assert_eq!(found.len(), 1, "{found:#?}");
    let e = found[0].example.as_ref().unwrap();
    assert_eq!((e.kind, e.agent.as_str()), (DivergenceKind::Boundary, "b"));
    let help = found[0].help.as_deref().unwrap();
    assert!(!help.contains("remove blank lines"), "{help}");
    assert!(help.contains("up to its first rule"), "{help}");
    assert!(
        help.contains("`b` (line 4) shares the rules of line 7"),
        "{help}"
    );
    assert!(help.contains("empty `Disallow:`"), "{help}");
    // Either fix the help offers: `b` gets a rule of its own, or joins `c`.
    let own = b"User-agent: a\nDisallow: /x\n\nUser-agent: b\nCrawl-delay: 5\nDisallow:\n\nUser-agent: c\nDisallow: /y\n";
    let joined = b"User-agent: a\nDisallow: /x\n\nUser-agent: b\nUser-agent: c\nDisallow: /y\n";
    for fixed in [&own[..], &joined[..]] {
        assert_eq!(divergences(fixed), [], "{}", String::from_utf8_lossy(fixed));
    }
    // A rule after a blank line is another case: removing the line is the fix.
    let found = divergences(b"User-agent: *\nDisallow: /a\n\nCrawl-delay: 5\n\nDisallow: /b\n");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0]
        .help
        .as_deref()
        .unwrap()
        .contains("remove blank lines"));
    assert!(divergences(b"User-agent: *\nDisallow: /a\nCrawl-delay: 5\nDisallow: /b\n").is_empty());
}

#[test]
fn divergence_by_repaired_spelling() {
    let found = divergences(b"User-agent: *\nDisalow: /tmp\n");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].help.as_ref().unwrap().contains("misspelled"));
}

#[test]
fn each_divergence_names_its_kind() {
    let cases: [(&[u8], DivergenceKind); 7] = [
        (
            b"User-agent: Googlebot-News\nDisallow: /\n",
            DivergenceKind::Agent,
        ),
        (b"User-agent: *\nDisalow: /tmp\n", DivergenceKind::Spelling),
        (
            b"User-agent: *\nDisallow: /a /b\n",
            DivergenceKind::SeveralValues,
        ),
        (
            b"User-agent: *\nDisallow: /*.pdf$\n",
            DivergenceKind::Wildcard,
        ),
        (
            b"User-agent: *\nDisallow: /a%3Cb\n",
            DivergenceKind::Percent,
        ),
        (
            b"User-agent: *\nDisallow: /a\n\nDisallow: /b\n",
            DivergenceKind::Boundary,
        ),
        (
            b"User-agent: *\nDisallow: /\nAllow: /public\n",
            DivergenceKind::Order,
        ),
    ];
    for (body, kind) in cases {
        let found = divergences(body);
        assert!(!found.is_empty(), "{kind}");
        for f in &found {
            assert_eq!(f.example.as_ref().unwrap().kind, kind, "{f:#?}");
        }
        let json = lint(body, &LintOptions::default()).to_json("r.txt");
        let listed = json["findings"].as_array().unwrap();
        let kinds: Vec<&serde_json::Value> = listed
            .iter()
            .filter(|f| f["code"] == "dialect-divergence")
            .map(|f| &f["example"]["kind"])
            .collect();
        assert_eq!(kinds.len(), found.len());
        assert!(kinds.iter().all(|k| *k == kind.as_str()), "{kinds:?}");
    }
    let mut slugs: Vec<&str> = DivergenceKind::ALL.iter().map(|k| k.as_str()).collect();
    slugs.sort_unstable();
    slugs.dedup();
    assert_eq!(slugs.len(), DivergenceKind::ALL.len());
}

// A file written for RFC 9309 diverges on every rule with a `*`: one of
// them tells the author what the rest would.
#[test]
fn text_shows_each_kind_of_divergence_once_unless_asked() {
    let mut body = b"User-agent: *\n".to_vec();
    for i in 0..30 {
        body.extend_from_slice(format!("Disallow: /*.ext{i}$\n").as_bytes());
    }
    body.extend_from_slice(b"Disallow: /p\nAllow: /p/public\nAllow: /p/public/more\n");
    let report = lint(&body, &LintOptions::default());
    let kinds = |k| {
        report
            .findings
            .iter()
            .filter(|f| f.example.as_ref().is_some_and(|e| e.kind == k))
            .count()
    };
    assert_eq!(kinds(DivergenceKind::Wildcard), 30);
    assert_eq!(kinds(DivergenceKind::Order), 2);
    let text = report.render_text("r.txt", &body);
    assert_eq!(
        text.matches("warning[dialect-divergence]").count(),
        2,
        "{text}"
    );
    // The first of each kind in full, then what the others are and where.
    assert!(
        text.starts_with("r.txt:2:11: warning[dialect-divergence]"),
        "{text}"
    );
    assert!(
        text.contains("  = note: 29 more `wildcard` divergences, on lines 3-31\n"),
        "{text}"
    );
    assert!(
        text.contains("r.txt:33:8: warning[dialect-divergence]"),
        "{text}"
    );
    assert!(
        text.contains("  = note: 1 more `order` divergence, on line 34\n"),
        "{text}"
    );
    // The summary counts every finding, shown or not.
    assert!(
        text.ends_with("r.txt: 0 errors, 32 warnings, 0 infos\n"),
        "{text}"
    );
    let all = report.render_text_with(
        "r.txt",
        &body,
        &TextOptions {
            all_divergence: true,
        },
    );
    assert_eq!(all.matches("warning[dialect-divergence]").count(), 32);
    assert!(!all.contains("= note:"), "{all}");
    assert!(all.ends_with("r.txt: 0 errors, 32 warnings, 0 infos\n"));
}

#[test]
fn divergence_can_be_turned_off() {
    let opts = LintOptions {
        divergence: false,
        ..LintOptions::default()
    };
    assert!(lint(b"User-agent: *\nDisallow: /*.pdf$\n", &opts)
        .findings
        .is_empty());
}

#[test]
fn findings_per_code_are_capped() {
    let mut body = b"User-agent: *\n".to_vec();
    for _ in 0..10 {
        body.extend_from_slice(b"Noindex: /x\n");
    }
    let opts = LintOptions {
        max_findings_per_code: 3,
        ..LintOptions::default()
    };
    let report = lint(&body, &opts);
    assert_eq!(report.findings.len(), 3);
    assert_eq!(report.omitted, 7);
    assert!(report
        .render_text("r.txt", &body)
        .ends_with("(7 more not shown)\n"));
}

#[test]
fn the_seeds_examples_lint_clean_in_their_dialect() {
    // 1994 standard, "Examples".
    let body = b"# robots.txt for http://www.example.com/\n\nUser-agent: *\nDisallow: /cyberworld/map/ # This is an infinite virtual URL space\n\n# Cybermapper knows where to go.\nUser-agent: cybermapper\nDisallow:\n";
    assert_eq!(run(body, Dialect::Norobots1994), []);
    // 1996 draft, section 4 (fict.org), minus its robots.txt line.
    let body = b"User-agent: unhipbot\nDisallow: /\n\nUser-agent: webcrawler\nUser-agent: excite\nDisallow: \n\nUser-agent: *\nDisallow: /org/plans.html\nAllow: /org/\nAllow: /serv\nAllow: /~mak\nDisallow: /\n";
    let found = run(body, Dialect::Draft1996);
    assert!(
        found.iter().all(|f| f.code == Code::DialectDivergence),
        "{found:#?}"
    );
    for f in &found {
        verify(body, f);
    }
}
