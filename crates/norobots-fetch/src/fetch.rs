//! One fetch of `/robots.txt`: redirects followed by our own code, a body
//! cap, timeouts, and every way it can fail sorted into an [`Outcome`].

use std::collections::HashSet;
use std::time::{Duration, Instant, SystemTime};

use http::header::{HeaderMap, CONTENT_TYPE, LOCATION, RETRY_AFTER};
use tracing::debug;
use url::Url;

use crate::{parse_retry_after, Failure, Outcome, RedirectProblem};
use crate::{Config, Error};

/// What one fetch of a robots.txt URL saw.
///
/// ```no_run
/// # async fn run() -> Result<(), norobots_fetch::Error> {
/// use norobots_fetch::{Config, Fetcher};
///
/// let fetcher = Fetcher::new(&Config::default())?;
/// let url = norobots_fetch::robots_url("https://example.com/a")?;
/// let fetch = fetcher.fetch(&url, &Default::default()).await;
/// println!("{} after {} redirects: {}", fetch.outcome, fetch.redirects.len(), fetch.body.len());
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Fetch {
    /// The robots.txt URL asked for.
    pub url: Url,
    /// The URL of the last answer (after redirects).
    pub final_url: Url,
    /// Each redirect target followed, in order.
    pub redirects: Vec<Url>,
    /// How it ended.
    pub outcome: Outcome,
    /// The last HTTP status seen, if any answer came.
    pub status: Option<u16>,
    /// The last answer's headers.
    pub headers: HeaderMap,
    /// The headers sent (for cache validation).
    pub request_headers: HeaderMap,
    /// The body (decoded), cut at the cap; empty unless the status was 2xx.
    pub body: Vec<u8>,
    /// How many body bytes were kept (at most the cap); stays when the
    /// cache moves the body into the parsed file.
    pub bytes: usize,
    /// Whether the body was longer than the cap.
    pub truncated: bool,
    /// When the answer came.
    pub fetched_at: SystemTime,
    /// How long the fetch took.
    pub elapsed: Duration,
    /// The server's `Retry-After`, read relative to `fetched_at`.
    pub retry_after: Option<Duration>,
}

impl Fetch {
    /// Whether the body looks like an HTML page rather than a robots.txt: a
    /// `text/html` content type, or a body that opens with an HTML tag.
    /// Such a body is still parsed (it usually yields no rules).
    ///
    /// ```
    /// let mut headers = http::HeaderMap::new();
    /// headers.insert("content-type", "text/html; charset=utf-8".parse().unwrap());
    /// assert!(norobots_fetch::looks_like_html(&headers, b"User-agent: *"));
    /// assert!(norobots_fetch::looks_like_html(&Default::default(), b"\n <!DOCTYPE html><p>"));
    /// assert!(!norobots_fetch::looks_like_html(&Default::default(), b"User-agent: *"));
    /// ```
    pub fn looks_like_html(&self) -> bool {
        looks_like_html(&self.headers, &self.body)
    }
}

/// Whether a response with these headers and body is an HTML page (see
/// [`Fetch::looks_like_html`]).
///
/// ```
/// assert!(norobots_fetch::looks_like_html(&Default::default(), b"<html><body>Not found"));
/// ```
pub fn looks_like_html(headers: &HeaderMap, body: &[u8]) -> bool {
    let typed = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            let v = v.trim_start();
            v.len() >= 9 && v[..9].eq_ignore_ascii_case("text/html")
        });
    if typed {
        return true;
    }
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(body.len());
    let head = &body[start..body.len().min(start + 16)];
    [
        &b"<!doctype html"[..],
        b"<html",
        b"<head",
        b"<body",
        b"<!--",
    ]
    .iter()
    .any(|tag| head.len() >= tag.len() && head[..tag.len()].eq_ignore_ascii_case(tag))
}

/// An HTTP client set up for robots.txt: our own redirect handling, the
/// body cap, timeouts, compressed bodies.
///
/// ```
/// let fetcher = norobots_fetch::Fetcher::new(&norobots_fetch::Config::default()).unwrap();
/// # let _ = fetcher;
/// ```
#[derive(Clone, Debug)]
pub struct Fetcher {
    client: reqwest::Client,
    timeout: Duration,
    max_bytes: usize,
    max_redirects: usize,
}

impl Fetcher {
    /// A fetcher with `config`'s user agent, timeouts, cap and resolver
    /// overrides.
    ///
    /// ```
    /// use norobots_fetch::{Config, Fetcher};
    /// assert!(Fetcher::new(&Config::default().user_agent("FooBot/1")).is_ok());
    /// ```
    pub fn new(config: &Config) -> Result<Fetcher, Error> {
        let mut builder = reqwest::Client::builder()
            .user_agent(config.user_agent.as_str())
            // Redirects are ours: RFC 9309 2.3.1.2 counts them and the rules
            // found apply to the origin asked about.
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(config.connect_timeout)
            .timeout(config.timeout)
            .gzip(true)
            .brotli(true)
            .deflate(true);
        for (host, addr) in &config.resolve {
            builder = builder.resolve(host, *addr);
        }
        let client = builder.build().map_err(Error::Client)?;
        Ok(Fetcher {
            client,
            timeout: config.timeout,
            max_bytes: config.max_bytes,
            max_redirects: config.max_redirects,
        })
    }

    /// Fetches `url`, sending `headers` (conditional headers for a
    /// revalidation) with each request. Never fails: every failure is an
    /// [`Outcome`].
    ///
    /// ```no_run
    /// # async fn run() {
    /// let fetcher = norobots_fetch::Fetcher::new(&Default::default()).unwrap();
    /// let url = url::Url::parse("https://example.com/robots.txt").unwrap();
    /// let fetch = fetcher.fetch(&url, &Default::default()).await;
    /// assert!(fetch.body.len() <= 500 * 1024);
    /// # }
    /// ```
    pub async fn fetch(&self, url: &Url, headers: &HeaderMap) -> Fetch {
        let start = Instant::now();
        let mut fetch = Fetch {
            url: url.clone(),
            final_url: url.clone(),
            redirects: Vec::new(),
            outcome: Outcome::Failure(Failure::Timeout),
            status: None,
            headers: HeaderMap::new(),
            request_headers: headers.clone(),
            body: Vec::new(),
            bytes: 0,
            truncated: false,
            fetched_at: SystemTime::now(),
            elapsed: Duration::ZERO,
            retry_after: None,
        };
        // The client's timeout bounds each request; this bounds the chain.
        if tokio::time::timeout(self.timeout, self.chain(&mut fetch))
            .await
            .is_err()
        {
            fetch.outcome = Outcome::Failure(Failure::Timeout);
            fetch.body = Vec::new();
            fetch.truncated = false;
        }
        fetch.bytes = fetch.body.len();
        fetch.fetched_at = SystemTime::now();
        fetch.elapsed = start.elapsed();
        debug!(url = %url, outcome = %fetch.outcome, bytes = fetch.body.len(), ms = fetch.elapsed.as_millis() as u64, "fetched robots.txt");
        fetch
    }

    async fn chain(&self, fetch: &mut Fetch) {
        let mut current = fetch.url.clone();
        let mut seen = HashSet::from([current.to_string()]);
        loop {
            let request = self
                .client
                .get(current.clone())
                .headers(fetch.request_headers.clone());
            let mut response = match request.send().await {
                Ok(r) => r,
                Err(e) => {
                    fetch.outcome = Outcome::Failure(Failure::of_transport(e, false));
                    return;
                }
            };
            let status = response.status().as_u16();
            fetch.status = Some(status);
            fetch.headers = response.headers().clone();
            fetch.final_url = current.clone();
            if (300..400).contains(&status) && status != 304 {
                let next = match next_hop(&current, &fetch.headers, status) {
                    Ok(next) => next,
                    Err(problem) => {
                        fetch.outcome = Outcome::Redirect(problem);
                        return;
                    }
                };
                if fetch.redirects.len() == self.max_redirects {
                    fetch.outcome =
                        Outcome::Redirect(RedirectProblem::TooMany(fetch.redirects.len() + 1));
                    return;
                }
                if !seen.insert(next.to_string()) {
                    fetch.outcome = Outcome::Redirect(RedirectProblem::Loop(next.to_string()));
                    return;
                }
                fetch.redirects.push(next.clone());
                current = next;
                continue;
            }
            if status >= 500 || status == 429 || status < 200 {
                fetch.retry_after = fetch
                    .headers
                    .get(RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| parse_retry_after(v, SystemTime::now()));
                fetch.outcome = Outcome::Failure(Failure::Status(status));
                return;
            }
            if (200..300).contains(&status) {
                if let Err(e) = self.read_body(&mut response, fetch).await {
                    fetch.outcome = Outcome::Failure(Failure::of_transport(e, true));
                    fetch.body = Vec::new();
                    fetch.truncated = false;
                    return;
                }
            }
            fetch.outcome = Outcome::Status(status);
            return;
        }
    }

    /// Reads at most `max_bytes` of the (decoded) body, then stops: the rest
    /// is never read, so a huge or endless body costs no more than the cap.
    async fn read_body(
        &self,
        response: &mut reqwest::Response,
        fetch: &mut Fetch,
    ) -> Result<(), reqwest::Error> {
        while let Some(chunk) = response.chunk().await? {
            let room = self.max_bytes - fetch.body.len();
            if chunk.len() > room {
                fetch.body.extend_from_slice(&chunk[..room]);
                fetch.truncated = true;
                break;
            }
            fetch.body.extend_from_slice(&chunk);
        }
        Ok(())
    }
}

fn next_hop(current: &Url, headers: &HeaderMap, status: u16) -> Result<Url, RedirectProblem> {
    let location = headers
        .get(LOCATION)
        .filter(|v| !v.as_bytes().trim_ascii().is_empty())
        .ok_or(RedirectProblem::NoLocation(status))?;
    // Servers send octets past ASCII as UTF-8, and browsers read them so
    // (`to_str` would refuse them); the join below percent-encodes them.
    let location = std::str::from_utf8(location.as_bytes()).map_err(|_| {
        RedirectProblem::BadTarget(String::from_utf8_lossy(location.as_bytes()).into())
    })?;
    let mut next = current
        .join(location.trim())
        .map_err(|_| RedirectProblem::BadTarget(location.to_string()))?;
    if next.scheme() != "http" && next.scheme() != "https" || next.host().is_none() {
        return Err(RedirectProblem::BadTarget(next.to_string()));
    }
    next.set_fragment(None);
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hop(location: &str) -> Result<Url, RedirectProblem> {
        let mut h = HeaderMap::new();
        h.insert(LOCATION, location.parse().unwrap());
        next_hop(&Url::parse("http://a.example/robots.txt").unwrap(), &h, 301)
    }

    // RFC 9110 10.2.2: Location is a URI reference, relative to the request.
    #[test]
    fn redirect_targets_resolve_against_the_current_url() {
        assert_eq!(hop("/r.txt").unwrap().as_str(), "http://a.example/r.txt");
        assert_eq!(hop("//b.example/x").unwrap().as_str(), "http://b.example/x");
        assert_eq!(
            hop("https://b.example/robots.txt#f").unwrap().as_str(),
            "https://b.example/robots.txt"
        );
    }

    #[test]
    fn a_location_in_utf8_is_followed_percent_encoded() {
        let mut h = HeaderMap::new();
        let here = Url::parse("http://a.example/robots.txt").unwrap();
        let utf8 = http::HeaderValue::from_bytes("/r\u{f6}bots.txt".as_bytes()).unwrap();
        h.insert(LOCATION, utf8);
        assert_eq!(
            next_hop(&here, &h, 301).unwrap().as_str(),
            "http://a.example/r%C3%B6bots.txt"
        );
        h.insert(
            LOCATION,
            http::HeaderValue::from_bytes(b"/r\xF6.txt").unwrap(),
        );
        assert_eq!(
            next_hop(&here, &h, 301),
            Err(RedirectProblem::BadTarget("/r\u{FFFD}.txt".into()))
        );
        h.insert(LOCATION, http::HeaderValue::from_static(" "));
        assert_eq!(
            next_hop(&here, &h, 302),
            Err(RedirectProblem::NoLocation(302))
        );
    }

    #[test]
    fn redirects_leave_http_only_as_a_problem() {
        assert!(matches!(
            hop("ftp://b.example/robots.txt"),
            Err(RedirectProblem::BadTarget(_))
        ));
        assert!(matches!(
            hop("mailto:x@y"),
            Err(RedirectProblem::BadTarget(_))
        ));
        let empty = HeaderMap::new();
        let here = Url::parse("http://a.example/").unwrap();
        assert_eq!(
            next_hop(&here, &empty, 302),
            Err(RedirectProblem::NoLocation(302))
        );
    }

    #[test]
    fn html_is_recognised_by_type_or_by_its_first_tag() {
        let none = HeaderMap::new();
        assert!(looks_like_html(&none, b"<HTML>"));
        assert!(looks_like_html(&none, b"\xEF\xBB\xBF<!-- x -->"));
        assert!(!looks_like_html(&none, b""));
        assert!(!looks_like_html(&none, b"# <html>\nUser-agent: *"));
        let mut typed = HeaderMap::new();
        typed.insert(CONTENT_TYPE, "Text/HTML".parse().unwrap());
        assert!(looks_like_html(&typed, b""));
        typed.insert(CONTENT_TYPE, "text/plain".parse().unwrap());
        assert!(!looks_like_html(&typed, b"User-agent: *"));
    }
}
