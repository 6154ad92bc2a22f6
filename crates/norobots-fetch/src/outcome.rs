//! How a fetch of `/robots.txt` ended: an answer, redirects that led
//! nowhere, or a failure to get any answer, with the transport error kept
//! as the failure's source.

use std::error::Error as StdError;
use std::fmt;
use std::sync::Arc;

/// How a fetch of `/robots.txt` ended, after redirects were followed.
///
/// ```
/// use norobots_fetch::{Failure, Outcome};
///
/// let ok = Outcome::Status(200);
/// let down = Outcome::Failure(Failure::Timeout);
/// assert_ne!(ok, down);
/// assert_eq!(down.to_string(), "timed out");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Outcome {
    /// The server answered with this status (the last hop's, for a chain).
    Status(u16),
    /// Redirects did not lead to a file.
    Redirect(RedirectProblem),
    /// No complete answer came.
    Failure(Failure),
}

impl Outcome {
    /// Whether the fetch failed to reach the file (a 5xx, 429 or transport
    /// error) rather than got an answer about it.
    ///
    /// ```
    /// use norobots_fetch::{Failure, Outcome};
    ///
    /// assert!(Outcome::Failure(Failure::Timeout).is_failure());
    /// assert!(Outcome::Status(503).is_failure());
    /// assert!(!Outcome::Status(404).is_failure());
    /// ```
    pub fn is_failure(&self) -> bool {
        match self {
            Outcome::Status(s) => *s == 429 || !(200..500).contains(s),
            Outcome::Redirect(_) => false,
            Outcome::Failure(_) => true,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Status(s) => write!(f, "HTTP {s}"),
            Outcome::Redirect(r) => r.fmt(f),
            Outcome::Failure(e) => e.fmt(f),
        }
    }
}

/// Why following redirects stopped without reaching a file.
///
/// ```
/// use norobots_fetch::RedirectProblem;
///
/// assert_eq!(RedirectProblem::TooMany(6).to_string(), "more than 5 redirects (6)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum RedirectProblem {
    /// More hops than allowed (the count reached).
    TooMany(usize),
    /// A hop led back to a URL already visited.
    Loop(String),
    /// A hop led to a scheme other than `http`/`https`, or to an URL that
    /// does not parse (a `Location` that is not UTF-8 among them).
    BadTarget(String),
    /// A 3xx answer without a usable `Location`.
    NoLocation(u16),
}

impl fmt::Display for RedirectProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RedirectProblem::TooMany(n) => {
                write!(f, "more than {} redirects ({n})", n.saturating_sub(1))
            }
            RedirectProblem::Loop(url) => write!(f, "redirect loop back to {url}"),
            RedirectProblem::BadTarget(url) => write!(f, "redirect to {url}, not an HTTP URL"),
            RedirectProblem::NoLocation(status) => write!(f, "{status} without a Location"),
        }
    }
}

/// A fetch that got no complete answer: the server or the network failed.
///
/// A transport failure keeps the client's error as its
/// [`source`](std::error::Error::source); its message says the cause once
/// (see [`cause`]). Two failures are equal when they are of one kind and
/// say the same.
///
/// ```
/// use norobots_fetch::Failure;
///
/// assert_eq!(Failure::Timeout.kind(), "timeout");
/// assert_eq!(Failure::Status(503).kind(), "5xx");
/// assert_eq!(Failure::Status(503).to_string(), "HTTP 503");
/// ```
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Failure {
    /// A 5xx answer, or 429 Too Many Requests.
    Status(u16),
    /// The connect or total timeout fired.
    Timeout,
    /// No connection (refused, unreachable, DNS).
    Connect(
        #[cfg_attr(feature = "serde", serde(serialize_with = "serialize_cause"))]
        Arc<reqwest::Error>,
    ),
    /// The connection broke while the body was read, or the body did not
    /// decode.
    Body(
        #[cfg_attr(feature = "serde", serde(serialize_with = "serialize_cause"))]
        Arc<reqwest::Error>,
    ),
    /// Any other transport error.
    Network(
        #[cfg_attr(feature = "serde", serde(serialize_with = "serialize_cause"))]
        Arc<reqwest::Error>,
    ),
}

impl Failure {
    /// A short stable name for metrics and logs: `5xx`, `429`, `timeout`,
    /// `connect`, `body` or `network`.
    ///
    /// ```
    /// assert_eq!(norobots_fetch::Failure::Status(429).kind(), "429");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Status(429) => "429",
            Failure::Status(_) => "5xx",
            Failure::Timeout => "timeout",
            Failure::Connect(_) => "connect",
            Failure::Body(_) => "body",
            Failure::Network(_) => "network",
        }
    }

    /// Sorts an error of the HTTP client: a timeout (a connect timeout
    /// among them), no connection, a body that broke off or did not decode
    /// (any error, when `in_body` says the headers had come), or another
    /// network error. The crawler's page fetches sort their errors with it
    /// too, so that a timeout is told from a refusal one way everywhere.
    ///
    /// ```
    /// use norobots_fetch::Failure;
    ///
    /// let offline = || reqwest::Client::new().get("no url").build().unwrap_err();
    /// assert_eq!(Failure::of_transport(offline(), false).kind(), "network");
    /// assert_eq!(Failure::of_transport(offline(), true).kind(), "body");
    /// ```
    pub fn of_transport(error: reqwest::Error, in_body: bool) -> Failure {
        if error.is_timeout() {
            Failure::Timeout
        } else if error.is_connect() {
            Failure::Connect(Arc::new(error))
        } else if in_body || error.is_body() || error.is_decode() {
            Failure::Body(Arc::new(error))
        } else {
            Failure::Network(Arc::new(error))
        }
    }
}

// The client's errors are neither comparable nor cloneable; what a failure
// says is what a caller can tell apart.
impl PartialEq for Failure {
    fn eq(&self, other: &Failure) -> bool {
        match (self, other) {
            (Failure::Status(a), Failure::Status(b)) => a == b,
            (Failure::Timeout, Failure::Timeout) => true,
            (Failure::Connect(a), Failure::Connect(b))
            | (Failure::Body(a), Failure::Body(b))
            | (Failure::Network(a), Failure::Network(b)) => {
                Arc::ptr_eq(a, b) || cause(&**a) == cause(&**b)
            }
            _ => false,
        }
    }
}

impl Eq for Failure {}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Status(s) => write!(f, "HTTP {s}"),
            Failure::Timeout => f.write_str("timed out"),
            Failure::Connect(e) => write!(f, "cannot connect: {}", cause(&**e)),
            Failure::Body(e) => write!(f, "connection broke in the body: {}", cause(&**e)),
            Failure::Network(e) => write!(f, "network error: {}", cause(&**e)),
        }
    }
}

// The source is the client's own error, so that callers can downcast to
// `reqwest::Error` and ask it (`is_connect`, the `io::Error` under it).
impl StdError for Failure {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            Failure::Status(_) | Failure::Timeout => None,
            Failure::Connect(e) | Failure::Body(e) | Failure::Network(e) => Some(&**e),
        }
    }
}

#[cfg(feature = "serde")]
fn serialize_cause<S: serde::Serializer>(
    error: &Arc<reqwest::Error>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&cause(&**error))
}

/// What went wrong, said once: the last two links of `error`'s chain of
/// sources (`tcp connect error: Connection refused (os error 111)`, `dns
/// error: failed to lookup address information: …`), or the error itself
/// when it has no source.
///
/// The links above them repeat the URL, which the caller knows, and name
/// the layers the error passed through (`error sending request for url
/// (…): client error (Connect)`), which a reader does not need.
///
/// ```
/// #[derive(Debug, thiserror::Error)]
/// #[error("{0}")]
/// struct Link(&'static str, #[source] Option<Box<Link>>);
///
/// let io = Link("Connection refused (os error 111)", None);
/// let tcp = Link("tcp connect error", Some(Box::new(io)));
/// let client = Link("client error (Connect)", Some(Box::new(tcp)));
/// let top = Link("error sending request for url (http://a.test/)", Some(Box::new(client)));
/// assert_eq!(norobots_fetch::cause(&top), "tcp connect error: Connection refused (os error 111)");
/// assert_eq!(norobots_fetch::cause(&Link("builder error", None)), "builder error");
/// ```
pub fn cause(error: &(dyn StdError + 'static)) -> String {
    let mut chain = Vec::new();
    let mut source = error.source();
    while let Some(s) = source {
        chain.push(s.to_string());
        source = s.source();
    }
    if chain.is_empty() {
        error.to_string()
    } else {
        chain[chain.len().saturating_sub(2)..].join(": ")
    }
}

/// A client error made offline: a request for a URL that does not parse.
#[cfg(test)]
pub(crate) fn client_error() -> Arc<reqwest::Error> {
    Arc::new(reqwest::Client::new().get("no url").build().unwrap_err())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_told_from_answers() {
        assert!(Outcome::Status(500).is_failure());
        assert!(Outcome::Status(429).is_failure());
        assert!(Outcome::Status(199).is_failure());
        assert!(!Outcome::Status(403).is_failure());
        assert!(!Outcome::Status(200).is_failure());
        assert!(!Outcome::Redirect(RedirectProblem::TooMany(6)).is_failure());
    }

    #[test]
    fn a_transport_failure_says_its_cause_and_keeps_its_source() {
        let e = client_error();
        let text = cause(&*e);
        let f = Failure::Network(Arc::clone(&e));
        assert_eq!(f.to_string(), format!("network error: {text}"));
        let source = f
            .source()
            .unwrap()
            .downcast_ref::<reqwest::Error>()
            .unwrap();
        assert_eq!(source.to_string(), e.to_string());
        assert!(Failure::Timeout.source().is_none());
        assert_eq!(
            Failure::Connect(client_error()),
            Failure::Connect(client_error())
        );
        assert_ne!(Failure::Connect(Arc::clone(&e)), Failure::Network(e));
    }
}
