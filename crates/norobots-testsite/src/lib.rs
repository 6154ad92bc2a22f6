//! A web site on loopback ports for testing a robot: `norobots crawl`'s
//! integration tests run the real binary against it and read the log.
//!
//! A [`Site`] is a set of named origins ([`OriginSpec`]), each on its own
//! port of 127.0.0.1, that answer exact paths with a [`Response`]: a status,
//! headers and a body, sent at once, late, never, or cut off; or a sequence
//! of them (fail first, then recover); or answers made on the fly. Bodies
//! link across origins with `{origin:NAME}`, which becomes
//! `http://127.0.0.1:PORT` once the ports are known. Every request is
//! logged when it arrives ([`Request`]), so the log is complete as soon as
//! the robot has exited.
//!
//! [`scenario`] has the sites the tests use, each with what a correct robot
//! fetches and never fetches there.
//!
//! ```
//! use norobots_testsite::{OriginSpec, Response, Site};
//!
//! let site = Site::new()
//!     .origin(
//!         OriginSpec::new("a")
//!             .route("/robots.txt", Response::text("User-agent: *\nDisallow: /private/\n"))
//!             .route("/", Response::html("<a href=\"{origin:b}/\">to b</a>")),
//!     )
//!     .origin(OriginSpec::new("b").route("/", Response::html("b")))
//!     .start()
//!     .unwrap();
//!
//! // A robot (here: a plain socket) asks for a page...
//! use std::io::{Read, Write};
//! let mut tcp = std::net::TcpStream::connect(site.addr("a")).unwrap();
//! tcp.write_all(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").unwrap();
//! let mut answer = String::new();
//! tcp.read_to_string(&mut answer).unwrap();
//!
//! // ...gets the link with b's real port, and the log has the request.
//! assert!(answer.ends_with(&format!("<a href=\"{}/\">to b</a>", site.origin("b"))));
//! assert_eq!(site.count("a", "/"), 1);
//! assert!(!site.requested("a", "/robots.txt"));
//! ```

#![deny(missing_docs)]

mod error;
mod log;
mod origin;
mod placeholder;
mod response;
pub mod scenario;
mod serve;
mod site;

pub use error::Error;
pub use log::Request;
pub use origin::OriginSpec;
pub use response::Response;
pub use site::{RunningSite, Site};
