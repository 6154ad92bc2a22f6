//! The errors of this crate: only what the caller asked for can be wrong.
//! A server that misbehaves is never an error; it is an
//! [`Outcome`](crate::Outcome) with a policy.

use std::fmt;

/// Why a request could not be served at all.
///
/// ```
/// let err = norobots_fetch::Origin::of("ftp://example.com/").unwrap_err();
/// assert_eq!(err.to_string(), "not an http or https URL: ftp://example.com/");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The URL does not parse, or has no host.
    BadUrl {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The URL's scheme is not `http` or `https`.
    UnsupportedScheme {
        /// The URL as given.
        url: String,
    },
    /// The HTTP client could not be set up (for example, no TLS roots).
    Client(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadUrl { url, reason } => write!(f, "bad URL `{url}`: {reason}"),
            Error::UnsupportedScheme { url } => write!(f, "not an http or https URL: {url}"),
            Error::Client(e) => write!(f, "cannot set up the HTTP client: {e}"),
        }
    }
}

impl std::error::Error for Error {}
