//! `norobots fetch URL`: fetch the robots.txt of a URL's origin and show
//! what came back and what it means for one robot.

use std::io::{self, BufWriter, Write};
use std::time::Duration;

use norobots::Dialect;
use norobots_fetch::{Entry, Outcome, Policy};
use norobots_tools::Escaped;
use serde_json::json;

use crate::error::CliError;

/// Everything `norobots fetch` needs.
#[derive(Clone, Debug)]
pub struct FetchCommand {
    /// The dialect: it reads the file and picks the HTTP policy.
    pub dialect: Dialect,
    /// Any URL on the origin.
    pub url: String,
    /// The robot whose groups are shown.
    pub agent: String,
    /// The `User-Agent` header sent.
    pub user_agent: String,
    /// The timeout of the fetch.
    pub timeout: Duration,
    /// One JSON object instead of text.
    pub json: bool,
}

/// Fetches and prints; `Ok(true)` when the host is deferred.
pub fn run(command: &FetchCommand) -> Result<bool, CliError> {
    let (runtime, cache) =
        crate::remote::cache(command.dialect, &command.user_agent, command.timeout)?;
    let entry = runtime
        .block_on(cache.load(&command.url))
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = if command.json {
        write_json(&mut out, &entry, &command.agent)
    } else {
        report(&mut Escaped(&mut out), &entry, &command.agent)
    }
    .and_then(|()| out.flush());
    match result {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(CliError::Write(e)),
    }
    Ok(entry.policy() == Policy::Defer)
}

/// The report, one `label  value` line per fact.
pub fn report(out: &mut impl Write, entry: &Entry, agent: &str) -> io::Result<()> {
    let fetch = entry.fetch();
    writeln!(out, "robots.txt   {}", fetch.url)?;
    for (i, hop) in fetch.redirects.iter().enumerate() {
        writeln!(out, "redirect {}   {hop}", i + 1)?;
    }
    let bytes = fetch.bytes;
    let last = match (&fetch.outcome, fetch.status) {
        (Outcome::Redirect(_), Some(s)) => format!(" (last answer HTTP {s})"),
        _ => String::new(),
    };
    writeln!(
        out,
        "outcome      {}{last}, {} redirect{}, {bytes} bytes{}, {} ms",
        fetch.outcome,
        fetch.redirects.len(),
        if fetch.redirects.len() == 1 { "" } else { "s" },
        if fetch.truncated {
            " (cut at the size limit)"
        } else {
            ""
        },
        fetch.elapsed.as_millis()
    )?;
    if let Some(failure) = entry.stale() {
        writeln!(
            out,
            "stale        the last fetch failed ({failure}); using the copy from {}",
            httpdate::fmt_http_date(fetch.fetched_at)
        )?;
    }
    if entry.is_html() {
        writeln!(
            out,
            "note         the body is an HTML page, not a robots.txt; it was parsed all the same"
        )?;
    }
    // The outcome line above gave the cause; the policy says only what it
    // means, so that a failure is said once.
    writeln!(out, "policy       {}", entry.policy())?;
    // A failure is not fresh: its lifetime is the wait before the next try.
    let label = if fetch.outcome.is_failure() || entry.stale().is_some() {
        "retry after "
    } else {
        "fresh for   "
    };
    writeln!(
        out,
        "{label} {} (at {})",
        human(entry.ttl()),
        httpdate::fmt_http_date(entry.expires())
    )?;
    if entry.policy() != Policy::Rules {
        return Ok(());
    }
    let robots = entry.robots();
    let groups = robots.groups_for(agent);
    if groups.is_empty() {
        writeln!(
            out,
            "agent        {agent}: no group applies; everything is allowed"
        )?;
    }
    for group in &groups {
        let agents: Vec<_> = group.agents().collect();
        writeln!(
            out,
            "group        line {}: User-agent: {}",
            group.line(),
            agents.join(", ")
        )?;
        for rule in group.rules() {
            writeln!(
                out,
                "  rule       line {}: {}: {}",
                rule.line(),
                rule.kind(),
                rule.pattern()
            )?;
        }
        if let Some(delay) = group.crawl_delay() {
            writeln!(out, "  delay      {} s", delay.as_secs_f64())?;
        }
        if let Some(rate) = group.request_rate() {
            writeln!(out, "  rate       {} per {} s", rate.requests, rate.seconds)?;
        }
        if let Some(window) = group.visit_time() {
            let (start, end) = crate::parse::visit_window(window);
            writeln!(out, "  visit      {start}-{end} UTC")?;
        }
    }
    for sitemap in robots.sitemaps() {
        writeln!(out, "sitemap      {}", sitemap.value())?;
    }
    Ok(())
}

/// The report as one JSON object (its shape is in the crate's README).
pub fn write_json(out: &mut impl Write, entry: &Entry, agent: &str) -> io::Result<()> {
    let fetch = entry.fetch();
    let failed = fetch.outcome.is_failure() || entry.stale().is_some();
    let groups: Vec<serde_json::Value> = if entry.policy() == Policy::Rules {
        entry
            .robots()
            .groups_for(agent)
            .iter()
            .map(|group| {
                json!({
                    "line": group.line(),
                    "agents": group.agents().collect::<Vec<_>>(),
                    "rules": group.rules().map(|r| json!({
                        "line": r.line(), "kind": r.kind().as_str(), "pattern": r.pattern(),
                    })).collect::<Vec<_>>(),
                    "crawl_delay": group.crawl_delay().map(|d| d.as_secs_f64()),
                    "request_rate": group.request_rate().map(|r| json!({"requests": r.requests, "seconds": r.seconds})),
                    "visit_time": group.visit_time().map(|w| {
                        let (start, end) = crate::parse::visit_window(w);
                        json!({"start": start, "end": end})
                    }),
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    let doc = json!({
        "robots_url": fetch.url.as_str(),
        "redirects": fetch.redirects.iter().map(|u| u.as_str()).collect::<Vec<_>>(),
        "outcome": fetch.outcome.to_string(),
        "status": fetch.status,
        "bytes": fetch.bytes,
        "truncated": fetch.truncated,
        "elapsed_ms": fetch.elapsed.as_millis() as u64,
        "fetched_at": crate::json::rfc3339(fetch.fetched_at),
        "stale": entry.stale().map(|f| f.to_string()),
        "html": entry.is_html(),
        "policy": entry.policy().as_str(),
        "failed": failed,
        "expires": crate::json::rfc3339(entry.expires()),
        "ttl_s": entry.ttl().as_secs(),
        "agent": agent,
        "groups": groups,
        "sitemaps": entry.robots().sitemaps().map(|f| f.value().into_owned()).collect::<Vec<_>>(),
    });
    serde_json::to_writer(&mut *out, &doc)?;
    out.write_all(b"\n")
}

/// `1d 2h`, `5h 3m`, `42s`: the two largest units.
fn human(d: Duration) -> String {
    let s = d.as_secs();
    let (days, hours, minutes, seconds) = (s / 86_400, s / 3600 % 24, s / 60 % 60, s % 60);
    if days > 0 {
        format!("{days}d {hours}h")
    } else if hours > 0 {
        format!("{hours}h {minutes}m")
    } else if minutes > 0 {
        format!("{minutes}m {seconds}s")
    } else {
        format!("{seconds}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_two_units() {
        assert_eq!(human(Duration::from_secs(7 * 86_400)), "7d 0h");
        assert_eq!(human(Duration::from_secs(86_399)), "23h 59m");
        assert_eq!(human(Duration::from_secs(61)), "1m 1s");
        assert_eq!(human(Duration::ZERO), "0s");
    }

    #[test]
    fn the_report_lists_the_agents_groups_and_sitemaps() {
        let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
        let origin = norobots_fetch::Origin::of("http://a.test/").unwrap();
        cache.insert(
            &origin,
            200,
            Default::default(),
            b"User-agent: FooBot\nDisallow: /foo\nCrawl-delay: 2\nRequest-rate: 1/5s\nVisit-time: 0100-0330\n\nUser-agent: *\nDisallow: /\nSitemap: http://a.test/s.xml\n",
        );
        let entry = cache.entry("http://a.test/").unwrap().unwrap();
        let mut out = Vec::new();
        report(&mut out, &entry, "FooBot/1.0").unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("robots.txt   http://a.test/robots.txt\n"),
            "{text}"
        );
        assert!(
            text.contains("policy       obey the file's rules\n"),
            "{text}"
        );
        assert!(text.contains("fresh for    1d 0h (at "), "{text}");
        assert!(text.contains("group        line 1: User-agent: FooBot\n  rule       line 2: Disallow: /foo\n  delay      2 s\n  rate       1 per 5 s\n  visit      0100-0330 UTC\n"), "{text}");
        assert!(!text.contains("line 8"), "{text}");
        assert!(
            text.ends_with("sitemap      http://a.test/s.xml\n"),
            "{text}"
        );
    }
}
