//! One answer of the test site: a status, headers and a body, and how they
//! are sent (at once, late, never, or cut off).
//!
//! A `Response` is plain data: the server turns it into bytes on the wire.
//! Bodies and header values may hold `{origin:NAME}` placeholders, which
//! become `http://127.0.0.1:PORT` of that origin when the site starts,
//! because ports are only known then.

use std::time::Duration;

use bytes::Bytes;

/// How the body goes out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Delivery {
    Whole,
    /// Never answer: the request waits until the client gives up or the
    /// site stops.
    Hang,
    /// Announce the whole length, send this many bytes, then drop the
    /// connection.
    BreakAfter(usize),
}

/// An answer to one request.
///
/// ```
/// use std::time::Duration;
/// use norobots_testsite::Response;
///
/// let slow = Response::html("<p>late</p>").with_delay(Duration::from_millis(1500));
/// assert_eq!(slow.status(), 200);
/// assert_eq!(slow.header("content-type"), Some("text/html; charset=utf-8"));
/// assert_eq!(slow.delay(), Duration::from_millis(1500));
/// ```
#[derive(Clone, Debug)]
pub struct Response {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Bytes,
    pub(crate) delay: Duration,
    pub(crate) delivery: Delivery,
    pub(crate) gzip: bool,
}

impl Response {
    /// An empty answer with this status and no headers, not even a
    /// `Content-Type` (a page without one tests a robot's sniffing).
    ///
    /// ```
    /// let r = norobots_testsite::Response::new(503).with_header("Retry-After", "1");
    /// assert_eq!((r.status(), r.header("retry-after")), (503, Some("1")));
    /// assert!(r.body().is_empty());
    /// ```
    pub fn new(status: u16) -> Response {
        Response {
            status,
            headers: Vec::new(),
            body: Bytes::new(),
            delay: Duration::ZERO,
            delivery: Delivery::Whole,
            gzip: false,
        }
    }

    /// A 200 HTML page.
    ///
    /// ```
    /// let r = norobots_testsite::Response::html("<a href=\"/x\">x</a>");
    /// assert_eq!(r.body(), b"<a href=\"/x\">x</a>");
    /// ```
    pub fn html(body: impl Into<String>) -> Response {
        Response::bytes("text/html; charset=utf-8", body.into())
    }

    /// A 200 plain-text file, as robots.txt is served.
    ///
    /// ```
    /// let r = norobots_testsite::Response::text("User-agent: *\n");
    /// assert_eq!(r.header("Content-Type"), Some("text/plain; charset=utf-8"));
    /// ```
    pub fn text(body: impl Into<String>) -> Response {
        Response::bytes("text/plain; charset=utf-8", body.into())
    }

    /// A 200 file of any type.
    ///
    /// ```
    /// let r = norobots_testsite::Response::bytes("image/png", &b"\x89PNG"[..]);
    /// assert_eq!(r.header("content-type"), Some("image/png"));
    /// ```
    pub fn bytes(content_type: &str, body: impl Into<Bytes>) -> Response {
        Response::new(200)
            .with_header("Content-Type", content_type)
            .with_body(body)
    }

    /// A redirect to `location`, which may be relative or hold an
    /// `{origin:NAME}` placeholder.
    ///
    /// ```
    /// let r = norobots_testsite::Response::redirect(302, "{origin:b}/landing.html");
    /// assert_eq!(r.header("location"), Some("{origin:b}/landing.html"));
    /// ```
    pub fn redirect(status: u16, location: &str) -> Response {
        Response::new(status).with_header("Location", location)
    }

    /// The answer for a path the site does not serve: 404 with a short
    /// HTML body, as real servers send.
    ///
    /// ```
    /// assert_eq!(norobots_testsite::Response::not_found().status(), 404);
    /// ```
    pub fn not_found() -> Response {
        Response::html("<!doctype html><title>Not found</title><p>Not found.</p>\n")
            .with_status(404)
    }

    /// The same answer with another status.
    ///
    /// ```
    /// let r = norobots_testsite::Response::text("gone").with_status(410);
    /// assert_eq!(r.status(), 410);
    /// ```
    pub fn with_status(mut self, status: u16) -> Response {
        self.status = status;
        self
    }

    /// One more header; a name given twice is sent twice.
    ///
    /// ```
    /// let r = norobots_testsite::Response::html("")
    ///     .with_header("X-Robots-Tag", "noindex")
    ///     .with_header("X-Robots-Tag", "otherbot: nofollow");
    /// assert_eq!(r.headers().filter(|(n, _)| *n == "X-Robots-Tag").count(), 2);
    /// ```
    pub fn with_header(mut self, name: &str, value: &str) -> Response {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// The same headers with another body.
    ///
    /// ```
    /// let r = norobots_testsite::Response::new(200).with_body("<p>no type</p>");
    /// assert_eq!(r.header("content-type"), None);
    /// ```
    pub fn with_body(mut self, body: impl Into<Bytes>) -> Response {
        self.body = body.into();
        self
    }

    /// Wait this long after the request arrives before sending the headers.
    ///
    /// ```
    /// use std::time::Duration;
    /// let r = norobots_testsite::Response::html("").with_delay(Duration::from_secs(1));
    /// assert_eq!(r.delay(), Duration::from_secs(1));
    /// ```
    pub fn with_delay(mut self, delay: Duration) -> Response {
        self.delay = delay;
        self
    }

    /// Never answer: the client waits until its own timeout fires (or the
    /// site stops). The request is still logged, with status 0.
    ///
    /// ```
    /// let r = norobots_testsite::Response::text("never sent").hanging();
    /// assert!(r.hangs());
    /// ```
    pub fn hanging(mut self) -> Response {
        self.delivery = Delivery::Hang;
        self
    }

    /// Announce the whole body in `Content-Length`, send only its first
    /// `sent` bytes (fewer than the body has), then close the connection,
    /// as a server that crashes mid-answer does.
    ///
    /// ```
    /// let r = norobots_testsite::Response::html("x".repeat(1000)).breaking_after(100);
    /// assert_eq!(r.breaks_after(), Some(100));
    /// ```
    pub fn breaking_after(mut self, sent: usize) -> Response {
        self.delivery = Delivery::BreakAfter(sent);
        self
    }

    /// Send the body gzip-compressed, compressed when the site starts
    /// (after placeholders are replaced, which is why a `.gz` file with
    /// links cannot simply be given compressed). No header is added: with
    /// `Content-Type: application/gzip` it is a `.gz` file, with
    /// `Content-Encoding: gzip` a compressed transfer.
    ///
    /// ```
    /// let r = norobots_testsite::Response::bytes("application/gzip", "<urlset/>").gzipped();
    /// assert!(r.is_gzipped());
    /// assert_eq!(r.body(), b"<urlset/>");
    /// ```
    pub fn gzipped(mut self) -> Response {
        self.gzip = true;
        self
    }

    /// Whether the body goes out gzip-compressed.
    ///
    /// ```
    /// assert!(!norobots_testsite::Response::text("").is_gzipped());
    /// ```
    pub fn is_gzipped(&self) -> bool {
        self.gzip
    }

    /// The status code.
    ///
    /// ```
    /// assert_eq!(norobots_testsite::Response::new(429).status(), 429);
    /// ```
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The first value of a header, by case-insensitive name.
    ///
    /// ```
    /// let r = norobots_testsite::Response::redirect(301, "/b");
    /// assert_eq!(r.header("LOCATION"), Some("/b"));
    /// assert_eq!(r.header("content-type"), None);
    /// ```
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }

    /// Every header in the order given.
    ///
    /// ```
    /// let r = norobots_testsite::Response::text("");
    /// assert_eq!(r.headers().collect::<Vec<_>>(), [("Content-Type", "text/plain; charset=utf-8")]);
    /// ```
    pub fn headers(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.headers.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The body as given (placeholders not yet replaced).
    ///
    /// ```
    /// assert_eq!(norobots_testsite::Response::text("ab").body(), b"ab");
    /// ```
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// How long the answer waits before its headers.
    ///
    /// ```
    /// assert!(norobots_testsite::Response::text("").delay().is_zero());
    /// ```
    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// Whether the answer never comes.
    ///
    /// ```
    /// assert!(!norobots_testsite::Response::text("").hangs());
    /// ```
    pub fn hangs(&self) -> bool {
        self.delivery == Delivery::Hang
    }

    /// How many body bytes go out before the connection is dropped, for
    /// an answer made with [`breaking_after`](Response::breaking_after).
    ///
    /// ```
    /// assert_eq!(norobots_testsite::Response::text("").breaks_after(), None);
    /// ```
    pub fn breaks_after(&self) -> Option<usize> {
        match self.delivery {
            Delivery::BreakAfter(n) => Some(n),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders_keep_earlier_settings() {
        let r = Response::redirect(301, "/x")
            .with_delay(Duration::from_millis(5))
            .with_status(308)
            .with_body("moved");
        assert_eq!(r.status(), 308);
        assert_eq!(r.header("location"), Some("/x"));
        assert_eq!(r.delay(), Duration::from_millis(5));
        assert_eq!(r.body(), b"moved");
        assert!(!r.hangs());
    }

    #[test]
    fn the_last_delivery_wins() {
        assert_eq!(
            Response::text("ab")
                .hanging()
                .breaking_after(1)
                .breaks_after(),
            Some(1)
        );
        assert!(Response::text("ab").breaking_after(1).hanging().hangs());
    }

    #[test]
    fn not_found_is_html() {
        let r = Response::not_found();
        assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
        assert!(std::str::from_utf8(r.body()).unwrap().contains("Not found"));
    }
}
