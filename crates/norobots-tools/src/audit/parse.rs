//! One access-log line, read by hand: Common Log Format
//! (`host ident authuser [date] "request" status bytes`) and Combined Log
//! Format (the same, then `"referer" "user-agent"`).
//!
//! Real logs are not always what the format says: Apache before 2.0.46 did
//! not escape quotes in the request, nginx writes `-` or an empty request for
//! garbage, some servers append fields of their own, and a log cut off by a
//! full disk ends mid-field. The parser accepts all of these and rejects only
//! lines without the three fields the audit cannot do without: the client
//! address, a valid date and a quoted request.

use std::fmt;

use memchr::{memchr, memchr2};

/// A moment, in seconds since the Unix epoch (UTC).
///
/// It prints in RFC 3339 form, in UTC, so that times from logs written in
/// different time zones compare and sort as text.
///
/// ```
/// use norobots_tools::audit::Timestamp;
///
/// let t = Timestamp::parse_clf(b"10/Oct/2000:13:55:36 -0700").unwrap();
/// assert_eq!(t.to_string(), "2000-10-10T20:55:36Z");
/// assert_eq!(t.0, 971_211_336);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub i64);

impl Timestamp {
    /// Reads a log date, `dd/Mon/yyyy:HH:MM:SS ±hhmm`, as Apache's `%t` and
    /// nginx's `$time_local` write it (without the brackets). A missing
    /// offset is read as UTC. `None` when the text is not such a date.
    ///
    /// ```
    /// use norobots_tools::audit::Timestamp;
    ///
    /// assert_eq!(Timestamp::parse_clf(b"01/Jan/1970:00:01:00 +0000"), Some(Timestamp(60)));
    /// assert_eq!(Timestamp::parse_clf(b"01/Jan/1970:00:01:00"), Some(Timestamp(60)));
    /// assert_eq!(Timestamp::parse_clf(b"31/Foo/2000:00:00:00 +0000"), None);
    /// ```
    pub fn parse_clf(text: &[u8]) -> Option<Timestamp> {
        // The calendar is the `time` crate's; what is read here is only
        // where the date ends and its zone begins.
        const DATE: &[time::format_description::BorrowedFormatItem<'static>] = time::macros::format_description!(
            "[day]/[month repr:short case_sensitive:false]/[year]:[hour]:[minute]:[second]"
        );
        const ZONE: &[time::format_description::BorrowedFormatItem<'static>] =
            time::macros::format_description!("[offset_hour sign:mandatory][offset_minute]");
        let (date, zone) = match text.len() {
            20 => (text, None),
            26 if text[20] == b' ' => (&text[..20], Some(&text[21..])),
            _ => return None,
        };
        let date = time::PrimitiveDateTime::parse(std::str::from_utf8(date).ok()?, DATE).ok()?;
        let offset = match zone {
            None => time::UtcOffset::UTC,
            Some(z) => time::UtcOffset::parse(std::str::from_utf8(z).ok()?, ZONE).ok()?,
        };
        Some(Timestamp(date.assume_offset(offset).unix_timestamp()))
    }

    /// The start of the calendar minute this moment falls in, in minutes
    /// since the epoch.
    ///
    /// ```
    /// assert_eq!(norobots_tools::audit::Timestamp(119).minute(), 1);
    /// assert_eq!(norobots_tools::audit::Timestamp(-1).minute(), -1);
    /// ```
    pub fn minute(self) -> i64 {
        self.0.div_euclid(60)
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The `time` crate's calendar (years 0 to 9999 here, ±9999 in all); a count of
        // seconds beyond it is no date and shows as such.
        let Ok(t) = time::OffsetDateTime::from_unix_timestamp(self.0) else {
            return write!(f, "{}s", self.0);
        };
        let (y, m, d) = (t.year(), u8::from(t.month()), t.day());
        let (hh, mm, ss) = (t.hour(), t.minute(), t.second());
        if !(0..=9999).contains(&y) {
            return write!(f, "{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z");
        }
        // Digits into a buffer and one write, not six padded integers
        // through the formatter: a report of a million robots writes four
        // million of these.
        let mut text = *b"0000-00-00T00:00:00Z";
        for (at, width, value) in [
            (0, 4, y as u32),
            (5, 2, u32::from(m)),
            (8, 2, u32::from(d)),
            (11, 2, u32::from(hh)),
            (14, 2, u32::from(mm)),
            (17, 2, u32::from(ss)),
        ] {
            let mut value = value;
            for digit in text[at..at + width].iter_mut().rev() {
                *digit = b'0' + (value % 10) as u8;
                value /= 10;
            }
        }
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

fn digits(b: &[u8]) -> Option<i64> {
    b.iter().try_fold(0i64, |acc, &c| {
        c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0'))
    })
}

/// One parsed access-log line. The fields borrow the line; quoted fields
/// keep the server's escapes (`\"`, `\\`, `\xhh`) as written.
///
/// ```
/// use norobots_tools::audit::parse_line;
///
/// let line = br#"192.0.2.7 - - [10/Oct/2000:13:55:36 -0700] "GET /a?b=1 HTTP/1.0" 200 2326 "-" "FooBot/1.0""#;
/// let l = parse_line(line).unwrap();
/// assert_eq!((l.host, l.method, l.target), (&b"192.0.2.7"[..], &b"GET"[..], &b"/a?b=1"[..]));
/// assert_eq!((l.status, l.bytes), (Some(200), Some(2326)));
/// assert_eq!(l.user_agent, Some(&b"FooBot/1.0"[..]));
/// assert_eq!(l.referer, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogLine<'a> {
    /// The client address (`%h`): IPv4, IPv6 or a host name.
    pub host: &'a [u8],
    /// The request time.
    pub time: Timestamp,
    /// The request line as logged, e.g. `GET /a HTTP/1.1`; may be `-` or
    /// empty for requests the server could not read.
    pub request: &'a [u8],
    /// The request method (`GET`); empty when the request line is empty
    /// or `-`.
    pub method: &'a [u8],
    /// The request target (path and query, or an absolute URL); empty when
    /// the request line has none.
    pub target: &'a [u8],
    /// The protocol (`HTTP/1.1`); empty for HTTP/0.9 requests.
    pub protocol: &'a [u8],
    /// The status code; `None` when logged as `-` or missing.
    pub status: Option<u16>,
    /// The response size; `None` when logged as `-` or missing.
    pub bytes: Option<u64>,
    /// The `Referer` header (Combined format); `None` when absent or `-`.
    pub referer: Option<&'a [u8]>,
    /// The `User-Agent` header (Combined format); `None` when absent, `-`
    /// or empty.
    pub user_agent: Option<&'a [u8]>,
}

/// Why a line is not an access-log line.
///
/// ```
/// use norobots_tools::audit::{parse_line, LineError};
///
/// assert_eq!(parse_line(b"").unwrap_err(), LineError::Empty);
/// assert_eq!(parse_line(b"1.2.3.4 - - [yesterday] \"GET / HTTP/1.0\" 200 1").unwrap_err(), LineError::BadDate);
/// assert_eq!(LineError::BadDate.to_string(), "bad date");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineError {
    /// The line is empty or white space.
    Empty,
    /// No `[date]` field after the address.
    NoDate,
    /// The `[date]` field is not a CLF date.
    BadDate,
    /// No quoted request after the date.
    NoRequest,
    /// The status is neither three digits nor `-`.
    BadStatus,
    /// The size is neither digits nor `-`.
    BadBytes,
    /// The line is longer than [`AuditOptions::max_line_len`](crate::audit::AuditOptions::max_line_len).
    TooLong,
}

impl LineError {
    /// A short description, as the reports print it.
    ///
    /// ```
    /// assert_eq!(norobots_tools::audit::LineError::NoRequest.as_str(), "no quoted request");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            LineError::Empty => "empty line",
            LineError::NoDate => "no [date]",
            LineError::BadDate => "bad date",
            LineError::NoRequest => "no quoted request",
            LineError::BadStatus => "bad status",
            LineError::BadBytes => "bad size",
            LineError::TooLong => "line too long",
        }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Parses one CLF or Combined line (without its line break; a trailing CR
/// is ignored).
///
/// Tolerated: `-` for any field after the request, IPv6 and bracketed
/// addresses, escaped or (Apache before 2.0.46) bare quotes inside the
/// request and the User-Agent, missing trailing fields (a cut-off line),
/// and extra fields after the User-Agent.
///
/// ```
/// use norobots_tools::audit::parse_line;
///
/// // Common Log Format, IPv6 client, no referer or User-Agent.
/// let l = parse_line(b"2001:db8::1 - frank [10/Oct/2000:13:55:36 -0700] \"HEAD / HTTP/1.1\" 304 -").unwrap();
/// assert_eq!((l.host, l.bytes, l.user_agent), (&b"2001:db8::1"[..], None, None));
///
/// // An unescaped quote inside the request.
/// let l = parse_line(br#"h - - [10/Oct/2000:13:55:36 +0000] "GET /a"b HTTP/1.0" 404 0"#).unwrap();
/// assert_eq!(l.target, b"/a\"b");
/// ```
pub fn parse_line(line: &[u8]) -> Result<LogLine<'_>, LineError> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = trim_start(line);
    if trim_end(line).is_empty() {
        return Err(LineError::Empty);
    }
    let host_end = memchr2(b' ', b'\t', line).ok_or(LineError::NoDate)?;
    let host = &line[..host_end];
    // ident and authuser are not needed; skipping to the bracket also
    // survives an authuser with spaces in it.
    let open = memchr(b'[', &line[host_end..]).ok_or(LineError::NoDate)? + host_end;
    let close = memchr(b']', &line[open..]).ok_or(LineError::NoDate)? + open;
    let time = Timestamp::parse_clf(&line[open + 1..close]).ok_or(LineError::BadDate)?;
    let rest = trim_start(&line[close + 1..]);
    let rest = rest.strip_prefix(b"\"").ok_or(LineError::NoRequest)?;
    let (request, rest) = quoted(rest, ends_request);
    let (method, target, protocol) = split_request(request);
    let (status, rest) = next_token(rest);
    let status = match status {
        b"" | b"-" => None,
        s if s.len() == 3 => Some(digits(s).ok_or(LineError::BadStatus)? as u16),
        _ => return Err(LineError::BadStatus),
    };
    let (bytes, rest) = next_token(rest);
    let bytes = match bytes {
        b"" | b"-" => None,
        b => Some(parse_u64(b).ok_or(LineError::BadBytes)?),
    };
    let (referer, rest) = optional_quoted(rest, ends_referer);
    let (user_agent, _) = optional_quoted(rest, ends_user_agent);
    Ok(LogLine {
        host,
        time,
        request,
        method,
        target,
        protocol,
        status,
        bytes,
        referer: referer.filter(|r| !matches!(*r, b"-" | b"")),
        user_agent: user_agent.filter(|u| !matches!(*u, b"-" | b"")),
    })
}

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    &b[n..]
}

fn trim_end(b: &[u8]) -> &[u8] {
    let n = b
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_whitespace())
        .count();
    &b[..b.len() - n]
}

fn parse_u64(b: &[u8]) -> Option<u64> {
    if b.is_empty() || b.len() > 19 {
        return None;
    }
    b.iter().try_fold(0u64, |acc, &c| {
        c.is_ascii_digit().then(|| acc * 10 + u64::from(c - b'0'))
    })
}

/// The next space-separated token and what follows it.
fn next_token(b: &[u8]) -> (&[u8], &[u8]) {
    let b = trim_start(b);
    let end = memchr2(b' ', b'\t', b).unwrap_or(b.len());
    (&b[..end], &b[end..])
}

/// A quoted field if one starts here (after optional blanks), else `None`
/// and the input unchanged.
fn optional_quoted(b: &[u8], ends: fn(&[u8]) -> bool) -> (Option<&[u8]>, &[u8]) {
    match trim_start(b).strip_prefix(b"\"") {
        Some(inner) => {
            let (field, rest) = quoted(inner, ends);
            (Some(field), rest)
        }
        None => (None, b),
    }
}

/// The content of a quoted field whose opening quote is already consumed,
/// and what follows the closing quote.
///
/// A quote closes the field only if `ends` accepts what follows it, so a
/// bare quote inside the field (old Apache) is kept as content; escaped
/// quotes (`\"`) never close it. When no quote qualifies, the first
/// unescaped one does; when there is none, the field runs to the end of the
/// line (a cut-off line).
fn quoted(b: &[u8], ends: fn(&[u8]) -> bool) -> (&[u8], &[u8]) {
    let mut first = None;
    let mut i = 0;
    while let Some(off) = memchr2(b'"', b'\\', &b[i..]) {
        let at = i + off;
        if b[at] == b'\\' {
            i = at + 2;
            if i >= b.len() {
                break;
            }
            continue;
        }
        if ends(&b[at + 1..]) {
            return (&b[..at], &b[at + 1..]);
        }
        first.get_or_insert(at);
        i = at + 1;
    }
    match first {
        Some(at) => (&b[..at], &b[at + 1..]),
        None => (b, &[]),
    }
}

/// After the request: the status (a digit or `-`), or the end of a cut-off
/// line.
fn ends_request(after: &[u8]) -> bool {
    match after {
        [] => true,
        [b' ', c, ..] => c.is_ascii_digit() || *c == b'-',
        _ => false,
    }
}

/// After the referer: the User-Agent's quote, or the end of the line.
fn ends_referer(after: &[u8]) -> bool {
    matches!(trim_end(after), [] | [b' ', b'"', ..])
}

/// After the User-Agent: the end of the line, or a field some servers add
/// (a quoted header, a number such as the request time).
fn ends_user_agent(after: &[u8]) -> bool {
    match trim_end(after) {
        [] => true,
        [b' ', c, ..] => *c == b'"' || *c == b'-' || c.is_ascii_digit(),
        _ => false,
    }
}

/// `METHOD target PROTOCOL`. The target is everything between the first
/// and the last space, so a target with unencoded spaces stays whole; a
/// request without `HTTP/` at its end is HTTP/0.9 (`GET /path`).
fn split_request(request: &[u8]) -> (&[u8], &[u8], &[u8]) {
    let request = trim_end(trim_start(request));
    if request == b"-" {
        return (b"", b"", b"");
    }
    let Some(sp) = memchr(b' ', request) else {
        return (request, b"", b"");
    };
    let method = &request[..sp];
    let rest = trim_start(&request[sp..]);
    match memchr::memrchr(b' ', rest) {
        Some(last) if rest[last + 1..].starts_with(b"HTTP/") => {
            (method, trim_end(&rest[..last]), &rest[last + 1..])
        }
        _ => (method, rest, b""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATE: &str = "[10/Oct/2000:13:55:36 -0700]";

    // Leaks the text: a test's lines are few and tiny, and a 'static
    // borrow lets each assertion parse a `format!` in place.
    fn line(s: impl Into<String>) -> LogLine<'static> {
        let s: &'static str = Box::leak(s.into().into_boxed_str());
        parse_line(s.as_bytes()).unwrap()
    }

    #[test]
    fn common_log_format_has_no_referer_or_user_agent() {
        let l = line("127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] \"GET /apache_pb.gif HTTP/1.0\" 200 2326");
        assert_eq!(l.host, b"127.0.0.1");
        assert_eq!(l.method, b"GET");
        assert_eq!(l.target, b"/apache_pb.gif");
        assert_eq!(l.protocol, b"HTTP/1.0");
        assert_eq!((l.status, l.bytes), (Some(200), Some(2326)));
        assert_eq!((l.referer, l.user_agent), (None, None));
    }

    #[test]
    fn combined_log_format_has_referer_and_user_agent() {
        let l = line(format!(
            "127.0.0.1 - - {DATE} \"GET / HTTP/1.1\" 200 5 \"http://r.example/\" \"Mozilla/4.08 [en] (Win98)\""
        ));
        assert_eq!(l.referer, Some(&b"http://r.example/"[..]));
        assert_eq!(l.user_agent, Some(&b"Mozilla/4.08 [en] (Win98)"[..]));
    }

    #[test]
    fn dash_fields_are_none() {
        let l = line(format!("h - - {DATE} \"GET / HTTP/1.1\" - - \"-\" \"-\""));
        assert_eq!(
            (l.status, l.bytes, l.referer, l.user_agent),
            (None, None, None, None)
        );
        let l = line(format!("h - - {DATE} \"GET / HTTP/1.1\" 200 1 \"\" \"\""));
        assert_eq!(l.user_agent, None);
    }

    #[test]
    fn escaped_quotes_stay_inside_request_and_user_agent() {
        let l = line(format!(
            r#"h - - {DATE} "GET /a\"b HTTP/1.1" 200 1 "-" "Bot \"quoted\" 1.0""#
        ));
        assert_eq!(l.target, br#"/a\"b"#);
        assert_eq!(l.user_agent, Some(&br#"Bot \"quoted\" 1.0"#[..]));
    }

    #[test]
    fn bare_quotes_inside_user_agent_are_kept() {
        let l = line(format!(
            r#"h - - {DATE} "GET / HTTP/1.1" 200 1 "-" "Bot "x"y 1.0""#
        ));
        assert_eq!(l.user_agent, Some(&br#"Bot "x"y 1.0"#[..]));
    }

    #[test]
    fn ipv6_and_host_names_are_addresses() {
        assert_eq!(
            line(format!("::1 - - {DATE} \"GET / HTTP/1.1\" 200 1")).host,
            b"::1"
        );
        let l = line(format!("[2001:db8::2] - - {DATE} \"GET / HTTP/1.1\" 200 1"));
        assert_eq!(l.host, b"[2001:db8::2]");
        assert_eq!(l.time, Timestamp(971_211_336));
    }

    #[test]
    fn missing_trailing_fields_are_tolerated() {
        let l = line(format!("h - - {DATE} \"GET /x HTTP/1.1\""));
        assert_eq!((l.target, l.status, l.bytes), (&b"/x"[..], None, None));
        let l = line(format!(
            "h - - {DATE} \"GET /x HTTP/1.1\" 200 1 \"http://cut"
        ));
        assert_eq!((l.referer, l.user_agent), (Some(&b"http://cut"[..]), None));
        let l = line(format!("h - - {DATE} \"GET /x HT"));
        assert_eq!(l.target, b"/x HT");
    }

    #[test]
    fn extra_fields_after_user_agent_are_ignored() {
        let l = line(format!(
            "h - - {DATE} \"GET / HTTP/1.1\" 200 1 \"-\" \"FooBot/1\" \"10.0.0.1\" 0.003"
        ));
        assert_eq!(l.user_agent, Some(&b"FooBot/1"[..]));
    }

    #[test]
    fn request_forms() {
        assert_eq!(split_request(b"-"), (&b""[..], &b""[..], &b""[..]));
        assert_eq!(split_request(b""), (&b""[..], &b""[..], &b""[..]));
        assert_eq!(
            split_request(b"GET /old"),
            (&b"GET"[..], &b"/old"[..], &b""[..])
        );
        assert_eq!(
            split_request(b"GET /a b HTTP/1.1"),
            (&b"GET"[..], &b"/a b"[..], &b"HTTP/1.1"[..])
        );
        assert_eq!(
            split_request(b"\\x16\\x03\\x01"),
            (&b"\\x16\\x03\\x01"[..], &b""[..], &b""[..])
        );
    }

    #[test]
    fn crlf_and_blank_lines() {
        assert_eq!(
            line(format!("h - - {DATE} \"GET / HTTP/1.1\" 200 1\r")).bytes,
            Some(1)
        );
        assert_eq!(parse_line(b"  \r").unwrap_err(), LineError::Empty);
    }

    #[test]
    fn malformed_lines_say_why() {
        assert_eq!(parse_line(b"garbage").unwrap_err(), LineError::NoDate);
        assert_eq!(
            parse_line(b"h - - [10/Oct/2000:13:55:36 -0700 \"GET").unwrap_err(),
            LineError::NoDate
        );
        assert_eq!(
            parse_line(format!("h - - {DATE} GET / 200").as_bytes()).unwrap_err(),
            LineError::NoRequest
        );
        assert_eq!(
            parse_line(format!("h - - {DATE} \"GET /\" 2000 1").as_bytes()).unwrap_err(),
            LineError::BadStatus
        );
        assert_eq!(
            parse_line(format!("h - - {DATE} \"GET /\" 200 x1").as_bytes()).unwrap_err(),
            LineError::BadBytes
        );
        assert_eq!(
            parse_line(b"h - - [32/Oct/2000:13:55:36 -0700] \"GET /\" 200 1").unwrap_err(),
            LineError::BadDate
        );
    }

    #[test]
    fn timestamps_are_written_as_the_formatter_would_write_them() {
        let formatted = |t: i64| match time::OffsetDateTime::from_unix_timestamp(t) {
            Ok(t) => format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
                t.year(),
                u8::from(t.month()),
                t.day(),
                t.hour(),
                t.minute(),
                t.second()
            ),
            Err(_) => format!("{t}s"),
        };
        // Year 0 to 9999 take the digits; the rest, the formatter.
        let year_0 = -62_167_219_200;
        let year_10000 = 253_402_300_800;
        let mut seconds = vec![0, 59, 86_399, 951_782_399, year_0, year_0 - 1];
        seconds.extend([year_10000, year_10000 - 1, i64::MIN / 2, i64::MAX / 2]);
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            seconds.push((x % 400_000_000_000) as i64 - 100_000_000_000);
        }
        for t in seconds {
            assert_eq!(Timestamp(t).to_string(), formatted(t), "{t}");
        }
        assert_eq!(Timestamp(year_0).to_string(), "0000-01-01T00:00:00Z");
        assert_eq!(Timestamp(year_0 - 1).to_string(), "-001-12-31T23:59:59Z");
        // Past `time`'s calendar (without its `large-dates`), a count of
        // seconds: only a log line of 31/Dec/9999 west of UTC gets there.
        assert_eq!(Timestamp(year_10000).to_string(), "253402300800s");
    }

    #[test]
    fn timestamps_round_trip_through_the_calendar() {
        for (text, want) in [
            ("01/Jan/1970:00:00:00 +0000", "1970-01-01T00:00:00Z"),
            ("29/Feb/2024:23:59:59 +0000", "2024-02-29T23:59:59Z"),
            ("01/Mar/2024:00:30:00 +0100", "2024-02-29T23:30:00Z"),
            ("31/Dec/1969:23:59:59 +0000", "1969-12-31T23:59:59Z"),
            ("01/jan/2100:00:00:00 -0530", "2100-01-01T05:30:00Z"),
        ] {
            let t = Timestamp::parse_clf(text.as_bytes()).unwrap();
            assert_eq!(t.to_string(), want, "{text}");
        }
        assert_eq!(Timestamp::parse_clf(b"10/Oct/2000:24:00:00 +0000"), None);
        assert_eq!(Timestamp::parse_clf(b"10/Oct/2000:13:55:36 +07x0"), None);
        assert_eq!(Timestamp::parse_clf(b"10/Oct/2000 13:55:36 +0000"), None);
    }
}
