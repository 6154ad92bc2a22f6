//! The site owner's side of the Robots Exclusion Protocol: [`lint`] checks a
//! robots.txt the way its authors need, and [`audit`] reads access logs to
//! find the robots visiting a site and the ones that ignore its robots.txt.
//! Their text reports pass what strangers wrote through [`printable`], so
//! that it cannot drive the terminal they are read on.
//!
//! ```
//! use norobots::{Dialect, Robots};
//! use norobots_tools::audit::{AuditOptions, Auditor};
//! use norobots_tools::lint::{lint, Code, LintOptions};
//!
//! // One site's file: the linter and the auditor read the same body.
//! let body = b"User-agent: *\nDisalow: /private/\n";
//! // The linter names the misspelled line, which RFC 9309 robots still obey ...
//! let report = lint(body, &LintOptions::new(Dialect::Rfc9309));
//! assert_eq!(report.findings[0].code, Code::MisspelledField);
//! assert_eq!(report.findings[0].line, 2);
//!
//! // ... and the auditor finds the robot that went where the file says not to.
//! let robots = Robots::parse(body);
//! let log = "192.0.2.1 - - [10/Oct/2000:13:55:37 -0700] \"GET /private/a HTTP/1.0\" 200 99 \"-\" \"FooBot/1.0\"\n";
//! let audit = Auditor::new(&robots, AuditOptions::default()).audit_reader(log.as_bytes()).unwrap();
//! assert_eq!(audit.robots[0].violations, 1);
//!
//! // What strangers wrote is shown with its escape sequences made visible.
//! assert_eq!(norobots_tools::printable("Evil\x1bBot"), "Evil\\x1bBot");
//! ```

#![deny(missing_docs)]

// The README's example runs as a doctest, so it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod audit;
pub mod lint;
mod printable;

pub use printable::{printable, Escaped};
