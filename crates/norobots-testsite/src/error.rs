//! Why a site did not start.

use std::io;

/// A site that cannot start: its scenario has a slip, or a port is taken.
///
/// ```
/// use norobots_testsite::{Error, OriginSpec, Response, Site};
///
/// let site = Site::new().origin(OriginSpec::new("a").route("/", Response::html("{origin:zz}")));
/// match site.start() {
///     Err(Error::UnknownOrigin { name, .. }) => assert_eq!(name, "zz"),
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Two origins share a name, so placeholders and the log would be
    /// ambiguous.
    #[error("two origins are named {0:?}")]
    DuplicateOrigin(String),
    /// A route names an origin the site does not have.
    #[error("origin {origin:?}, {path}: {{origin:{name}}} names no origin of the site")]
    UnknownOrigin {
        /// The origin whose route has the placeholder.
        origin: String,
        /// The route's path.
        path: String,
        /// The name in the placeholder.
        name: String,
    },
    /// A route's status or header cannot go on the wire.
    #[error("origin {origin:?}, {path}: {what}")]
    BadResponse {
        /// The origin of the route.
        origin: String,
        /// The route's path.
        path: String,
        /// What is wrong (the status, or the header's name and value).
        what: String,
    },
    /// A port could not be bound.
    #[error("origin {origin:?}: cannot listen on 127.0.0.1:{port}: {source}")]
    Bind {
        /// The origin that wanted the port.
        origin: String,
        /// The port asked for (0: any).
        port: u16,
        /// What the OS said.
        source: io::Error,
    },
    /// The background runtime or its thread could not start.
    #[error("cannot start the server thread: {0}")]
    Runtime(io::Error),
}
