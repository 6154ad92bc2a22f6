//! The errors of this crate: only what the caller asked for can be wrong.
//! A server that misbehaves is never an error; it is an
//! [`Outcome`](crate::Outcome) with a policy.

/// Why a request could not be served at all.
///
/// Each variant keeps what went wrong underneath as its
/// [`source`](std::error::Error::source), and its message says it too, so
/// that one line (a CLI's `error: …`) is whole.
///
/// ```
/// use std::error::Error as _;
///
/// let err = norobots_fetch::Origin::of("ftp://example.com/").unwrap_err();
/// assert_eq!(err.to_string(), "not an http or https URL: ftp://example.com/");
///
/// let err = norobots_fetch::Origin::of("http://a b/").unwrap_err();
/// assert_eq!(err.to_string(), "bad URL `http://a b/`: invalid international domain name");
/// assert!(err.source().unwrap().is::<url::ParseError>());
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The URL does not parse, or has no host.
    #[error("bad URL `{url}`: {source}")]
    BadUrl {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        source: url::ParseError,
    },
    /// The URL's scheme is not `http` or `https`.
    #[error("not an http or https URL: {url}")]
    UnsupportedScheme {
        /// The URL as given.
        url: String,
    },
    /// The HTTP client could not be set up (for example, no TLS roots).
    #[error("cannot set up the HTTP client: {0}")]
    Client(#[source] reqwest::Error),
}
