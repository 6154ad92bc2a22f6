//! WARC/1.1 output, as `wget --warc-file` writes it: one `NAME.warc.gz`
//! with a `warcinfo` record, then a `request` and a `response` record per
//! fetch.
//!
//! The choices, and why:
//!
//! * **One gzip member per record.** A reader can seek to any record from
//!   an index, and a file that ends in whole members can be appended to.
//!   The members carry no `sl` skip-length field (wget writes one); no
//!   reader needs it.
//! * **Bodies are streamed, never held.** A body comes as a [`Read`] with
//!   [`Digests`] made while it was downloaded ([`BlockHasher`]), or as a
//!   file the writer reads twice (once to hash, once to copy). The writer
//!   hashes what it copies again and rolls the record back if it does not
//!   match, so a record's digests never lie.
//! * **Digests** are `sha1:` and the RFC 4648 base32 of the 20-byte SHA-1,
//!   as wget and Heritrix write them: the block digest covers the HTTP head
//!   and body, the payload digest the body alone.
//! * **Heads are rebuilt.** The HTTP client hands over parsed headers, not
//!   wire bytes, so [`request_head`] and [`response_head`] write them back
//!   in HTTP/1.1 syntax (lower-case names, as `http` keeps them), and drop
//!   `Transfer-Encoding` because the body stored is already de-chunked.
//! * **Dates** are RFC 3339 UTC with microseconds (WARC 1.1 allows
//!   sub-second precision), so two fetches of one URL in the same second
//!   stay apart. A request and its response share the capture's date, as
//!   WARC 1.1 section 5.4 asks.
//! * **The file name** is `NAME.warc.gz` for any `NAME`, as wget does: it
//!   appends the extension even when `NAME` already ends in `.warc.gz` or
//!   `.warc` (`--warc-file=a.warc.gz` writes `a.warc.gz.warc.gz`). See
//!   [`warc_path`].
//!
//! Durability: each record is handed to the operating system before its
//! `write_*` call returns, and the writer keeps nothing buffered between
//! calls, so a SIGKILL loses at most the record being written. That torn
//! record is what [`WarcWriter::append`] cuts when the crawl resumes. Only
//! a power cut can lose more; [`WarcWriter::sync`] guards against that. A
//! kill between a request record and its response leaves the request
//! alone, which is valid WARC (a request that got no answer); the resumed
//! crawl fetches the URL again and writes a new pair.
//!
//! ```
//! use norobots_crawl::warc::{self, Body, Capture, RobotsMode, WarcInfo, WarcWriter};
//! use time::macros::datetime;
//!
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join(warc::warc_path("crawl"));
//! let info = WarcInfo::new(RobotsMode::Obey, ["norobots", "crawl", "--warc-file=crawl"]);
//! let mut writer = WarcWriter::create(&path, &info)?;
//!
//! let url = url::Url::parse("https://example.com/robots.txt")?;
//! let capture = Capture::new(&url, datetime!(2024-05-01 12:00:00.25 UTC));
//! let request = warc::request_head(&http::Method::GET, &url, http::Version::HTTP_11, &Default::default());
//! let response = warc::response_head(http::Version::HTTP_11, http::StatusCode::OK, &Default::default());
//! writer.write_exchange(&capture, &request, &response, Body::Bytes(b"User-agent: *\n"))?;
//!
//! let mut seen = Vec::new();
//! let scan = warc::scan(&path, |record| {
//!     seen.push((record.field("WARC-Type").unwrap().to_string(), record.field("WARC-Date").map(str::to_string)));
//! })?;
//! assert_eq!(scan.records, 3);
//! assert_eq!(scan.tail, warc::Tail::Clean);
//! assert_eq!(seen[0].0, "warcinfo");
//! assert_eq!(seen[2], ("response".to_string(), Some("2024-05-01T12:00:00.250000Z".to_string())));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::cmp;
use std::ffi::{OsStr, OsString};
use std::fmt::{self, Write as _};
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use flate2::bufread::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use http::header::{HOST, TRANSFER_ENCODING};
use http::{HeaderMap, Method, StatusCode, Version};
use sha1::{Digest as _, Sha1};
use time::format_description::BorrowedFormatItem;
use time::macros::format_description;
use time::{OffsetDateTime, UtcOffset};
use url::{Position, Url};
use uuid::Uuid;

/// The WARC 1.1 specification, for the warcinfo `conformsTo` field.
const CONFORMS_TO: &str =
    "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/";

/// Large enough that a 10 MiB body is a few hundred system calls; small
/// enough to sit in every writer without thought.
const CHUNK: usize = 64 * 1024;

/// The longest WARC header the reader accepts; ours are under 1 KiB, and
/// a hostile file must not make the scan buffer without end.
const MAX_HEADER: u64 = 64 * 1024;

/// A file gzipped whole (not one member per record) would make the reader
/// hold every record of the member until its checksum is seen; past this
/// many, the member is refused.
const MAX_RECORDS_PER_MEMBER: usize = 64;

/// Every gzip member ends in its length, whose high bytes are NULs, so a
/// short run of them is no sign of a power cut; a file system zero-fills
/// whole blocks, far longer than this.
const MIN_NUL_RUN: u64 = 64;

const WARC_DATE: &[BorrowedFormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]Z");

/// What can go wrong writing or reading a WARC file.
///
/// ```
/// use norobots_crawl::warc::Error;
/// let err = Error::BodyLength { expected: 10, actual: 4 };
/// assert_eq!(err.to_string(), "the body gave 4 bytes where 10 were announced");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading or writing a file failed.
    #[error("WARC I/O: {0}")]
    Io(#[from] io::Error),
    /// The file holds something other than whole WARC records followed by
    /// at most one torn record, so appending to it could destroy data.
    #[error("not a WARC file this writer can append to: {reason} (at byte {offset})")]
    Corrupt {
        /// Where the first member that is not a whole record starts.
        offset: u64,
        /// What is wrong there.
        reason: String,
    },
    /// A body reader ended before the length its [`Digests`] announced.
    #[error("the body gave {actual} bytes where {expected} were announced")]
    BodyLength {
        /// The length in the digests.
        expected: u64,
        /// What the reader gave.
        actual: u64,
    },
    /// A body's bytes do not hash to the [`Digests`] given with it.
    #[error("the body does not match the digests given with it")]
    DigestMismatch,
    /// An earlier write failed and could not be undone, so the file may end
    /// in a torn record; reopen it with [`WarcWriter::append`].
    #[error("an earlier WARC write failed and could not be undone; reopen the file to repair it")]
    Poisoned,
}

/// The file a `--warc-file NAME` option writes: `NAME.warc.gz`.
///
/// The extension is always appended, as wget does (its `--warc-file`
/// option takes a base name), so a name that already ends in `.warc.gz`
/// or `.warc` gets it twice rather than being second-guessed.
///
/// ```
/// use std::path::Path;
/// use norobots_crawl::warc::warc_path;
/// assert_eq!(warc_path("out/crawl"), Path::new("out/crawl.warc.gz"));
/// assert_eq!(warc_path("a.warc.gz"), Path::new("a.warc.gz.warc.gz"));
/// assert_eq!(warc_path("a.warc"), Path::new("a.warc.warc.gz"));
/// ```
pub fn warc_path(name: impl AsRef<OsStr>) -> PathBuf {
    let mut file = name.as_ref().to_os_string();
    file.push(".warc.gz");
    PathBuf::from(file)
}

/// A SHA-1 digest, written `sha1:` and base32 as in WARC headers.
///
/// ```
/// use norobots_crawl::warc::Sha1Digest;
/// assert_eq!(Sha1Digest::of(b"").to_string(), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sha1Digest(pub [u8; 20]);

impl Sha1Digest {
    /// The digest of `bytes`.
    ///
    /// ```
    /// use norobots_crawl::warc::Sha1Digest;
    /// assert_eq!(Sha1Digest::of(b"abc").0[..4], [0xa9, 0x99, 0x3e, 0x36]);
    /// ```
    pub fn of(bytes: &[u8]) -> Sha1Digest {
        Sha1Digest(Sha1::digest(bytes).into())
    }
}

impl fmt::Display for Sha1Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sha1:{}", data_encoding::BASE32.encode(&self.0))
    }
}

impl fmt::Debug for Sha1Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sha1Digest({self})")
    }
}

/// The digests of one HTTP message: block (head and body), payload (body)
/// and the body's length, as a [`BlockHasher`] saw them.
///
/// ```
/// use norobots_crawl::warc::{BlockHasher, Digests, Sha1Digest};
/// let d = Digests::of(b"HTTP/1.1 204 No Content\r\n\r\n", b"");
/// assert_eq!(d.payload, Sha1Digest::of(b""));
/// assert_eq!(d.body_len, 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Digests {
    /// SHA-1 of the head and the body.
    pub block: Sha1Digest,
    /// SHA-1 of the body.
    pub payload: Sha1Digest,
    /// How many body bytes were hashed.
    pub body_len: u64,
}

impl Digests {
    /// The digests of a message held in memory.
    ///
    /// ```
    /// use norobots_crawl::warc::{Digests, Sha1Digest};
    /// let d = Digests::of(b"head\r\n\r\n", b"body");
    /// assert_eq!(d.block, Sha1Digest::of(b"head\r\n\r\nbody"));
    /// ```
    pub fn of(head: &[u8], body: &[u8]) -> Digests {
        let mut hasher = BlockHasher::new(head);
        hasher.update(body);
        hasher.finish()
    }
}

/// Hashes a message while it is downloaded: the head first, then each body
/// chunk as it arrives, so the writer needs no second pass over the body.
///
/// It is also a [`Write`], to sit in an `io::copy` or a tee beside the
/// spool file.
///
/// ```
/// use std::io::Write;
/// use norobots_crawl::warc::{BlockHasher, Digests};
///
/// let head = b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\n";
/// let mut hasher = BlockHasher::new(head);
/// hasher.update(b"hello, ");
/// hasher.write_all(b"world")?;
/// assert_eq!(hasher.finish(), Digests::of(head, b"hello, world"));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct BlockHasher {
    block: Sha1,
    payload: Sha1,
    body_len: u64,
}

impl BlockHasher {
    /// A hasher that has seen `head`.
    ///
    /// ```
    /// let d = norobots_crawl::warc::BlockHasher::new(b"GET / HTTP/1.1\r\n\r\n").finish();
    /// assert_eq!(d.body_len, 0);
    /// ```
    pub fn new(head: &[u8]) -> BlockHasher {
        let mut block = Sha1::new();
        block.update(head);
        BlockHasher {
            block,
            payload: Sha1::new(),
            body_len: 0,
        }
    }

    /// Adds the next body bytes.
    ///
    /// ```
    /// let mut h = norobots_crawl::warc::BlockHasher::new(b"");
    /// h.update(b"abc");
    /// assert_eq!(h.finish().body_len, 3);
    /// ```
    pub fn update(&mut self, body: &[u8]) {
        self.block.update(body);
        self.payload.update(body);
        self.body_len += body.len() as u64;
    }

    /// The digests of everything seen.
    ///
    /// ```
    /// use norobots_crawl::warc::{BlockHasher, Sha1Digest};
    /// assert_eq!(BlockHasher::new(b"x").finish().block, Sha1Digest::of(b"x"));
    /// ```
    pub fn finish(self) -> Digests {
        Digests {
            block: Sha1Digest(self.block.finalize().into()),
            payload: Sha1Digest(self.payload.finalize().into()),
            body_len: self.body_len,
        }
    }
}

impl Write for BlockHasher {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A `WARC-Record-ID`: a random UUID, written `<urn:uuid:…>`.
///
/// ```
/// let id = norobots_crawl::warc::RecordId::new();
/// let text = id.to_string();
/// assert!(text.starts_with("<urn:uuid:") && text.ends_with('>'));
/// assert_eq!(text.len(), 47);
/// assert_ne!(id, norobots_crawl::warc::RecordId::new());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecordId(pub Uuid);

impl RecordId {
    /// A fresh random id.
    ///
    /// ```
    /// assert_eq!(norobots_crawl::warc::RecordId::new().0.get_version_num(), 4);
    /// ```
    #[allow(clippy::new_without_default)] // a default that is random each time would surprise
    pub fn new() -> RecordId {
        RecordId(Uuid::new_v4())
    }
}

impl fmt::Display for RecordId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<urn:uuid:{}>", self.0.hyphenated())
    }
}

/// What the crawl did about robots.txt, for the warcinfo `robots` field.
///
/// ```
/// use norobots_crawl::warc::RobotsMode;
/// assert_eq!(RobotsMode::Obey.to_string(), "obey");
/// assert_eq!(RobotsMode::Off.to_string(), "off");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RobotsMode {
    /// robots.txt and META robots were obeyed.
    Obey,
    /// They were not (`-e robots=off`).
    Off,
}

impl fmt::Display for RobotsMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RobotsMode::Obey => "obey",
            RobotsMode::Off => "off",
        })
    }
}

/// The `warcinfo` record that opens each run's part of the file.
///
/// Its block is `application/warc-fields`: `software`, `format`,
/// `conformsTo`, `robots`, `norobots-arguments` (the command line, each
/// argument quoted as wget's `wget-arguments` are), then any extra fields.
///
/// ```
/// use norobots_crawl::warc::{RobotsMode, WarcInfo};
/// let info = WarcInfo::new(RobotsMode::Off, ["norobots", "crawl", "a b"])
///     .field("operator", "ops@example.com");
/// let text = String::from_utf8(info.block()).unwrap();
/// assert!(text.starts_with("software: norobots/"));
/// assert!(text.contains("\r\nrobots: off\r\n"));
/// assert!(text.contains("\r\nnorobots-arguments: \"norobots\" \"crawl\" \"a b\"\r\n"));
/// assert!(text.ends_with("operator: ops@example.com\r\n"));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct WarcInfo {
    /// The `software` field; `norobots/<version>` by default.
    pub software: String,
    /// The `robots` field.
    pub robots: RobotsMode,
    /// The command line, program name first.
    pub arguments: Vec<OsString>,
    /// Further fields, in order.
    pub fields: Vec<(String, String)>,
    /// The record's `WARC-Date`; the time of [`WarcInfo::new`] by default.
    pub date: OffsetDateTime,
}

impl WarcInfo {
    /// The record for a run with `robots` and this command line.
    ///
    /// ```
    /// let info = norobots_crawl::warc::WarcInfo::new(norobots_crawl::warc::RobotsMode::Obey, std::env::args_os());
    /// assert!(info.software.starts_with("norobots/"));
    /// ```
    pub fn new<I>(robots: RobotsMode, arguments: I) -> WarcInfo
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        WarcInfo {
            software: concat!("norobots/", env!("CARGO_PKG_VERSION")).to_string(),
            robots,
            arguments: arguments.into_iter().map(Into::into).collect(),
            fields: Vec::new(),
            date: OffsetDateTime::now_utc(),
        }
    }

    /// Adds a field, such as `operator` or `http-header-user-agent`.
    /// Characters a field name cannot hold become `-`; control characters
    /// in the value are written `\xHH`.
    ///
    /// ```
    /// let info = norobots_crawl::warc::WarcInfo::new(norobots_crawl::warc::RobotsMode::Obey, ["x"])
    ///     .field("bad name:", "two\r\nlines");
    /// assert!(String::from_utf8(info.block()).unwrap().ends_with("bad-name-: two\\x0d\\x0alines\r\n"));
    /// ```
    pub fn field(mut self, name: impl Into<String>, value: impl Into<String>) -> WarcInfo {
        self.fields.push((name.into(), value.into()));
        self
    }

    /// The record's block, as written.
    ///
    /// ```
    /// let info = norobots_crawl::warc::WarcInfo::new(norobots_crawl::warc::RobotsMode::Obey, ["x"]);
    /// assert!(String::from_utf8(info.block()).unwrap().contains("format: WARC File Format 1.1\r\n"));
    /// ```
    pub fn block(&self) -> Vec<u8> {
        let mut text = String::new();
        put_field(&mut text, "software", self.software.as_bytes());
        put_field(&mut text, "format", b"WARC File Format 1.1");
        put_field(&mut text, "conformsTo", CONFORMS_TO.as_bytes());
        put_field(&mut text, "robots", self.robots.to_string().as_bytes());
        text.push_str("norobots-arguments: ");
        for (i, argument) in self.arguments.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push('"');
            escape_into(&mut text, argument.as_encoded_bytes(), true);
            text.push('"');
        }
        text.push_str("\r\n");
        for (name, value) in &self.fields {
            put_field(&mut text, name, value.as_bytes());
        }
        text.into_bytes()
    }
}

/// Why a record holds less than the whole message (`WARC-Truncated`).
///
/// ```
/// assert_eq!(norobots_crawl::warc::Truncated::Length.to_string(), "length");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Truncated {
    /// The body was longer than the crawl keeps.
    Length,
    /// The fetch took longer than allowed.
    Time,
    /// The connection dropped.
    Disconnect,
    /// Some other reason.
    Unspecified,
}

impl fmt::Display for Truncated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Truncated::Length => "length",
            Truncated::Time => "time",
            Truncated::Disconnect => "disconnect",
            Truncated::Unspecified => "unspecified",
        })
    }
}

/// What the records of one fetch share: the URL, when, from where.
///
/// ```
/// use norobots_crawl::warc::Capture;
/// let url = url::Url::parse("http://example.com/a#frag").unwrap();
/// let capture = Capture::new(&url, time::OffsetDateTime::UNIX_EPOCH)
///     .ip("192.0.2.1".parse().unwrap());
/// assert_eq!(capture.target_uri(), "http://example.com/a");
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Capture<'a> {
    /// The URL fetched, as bytes; [`Capture::target_uri`] makes it valid.
    pub target: &'a [u8],
    /// When the request was sent: the `WARC-Date` of both records.
    pub date: OffsetDateTime,
    /// The server's address (`WARC-IP-Address`), when known.
    pub ip: Option<IpAddr>,
    /// Why the response's body is not whole (`WARC-Truncated`).
    pub truncated: Option<Truncated>,
}

impl<'a> Capture<'a> {
    /// A capture of `url` at `date` (the time the request was sent).
    ///
    /// ```
    /// let url = url::Url::parse("https://example.com/").unwrap();
    /// let c = norobots_crawl::warc::Capture::new(&url, time::OffsetDateTime::UNIX_EPOCH);
    /// assert_eq!(c.target_uri(), "https://example.com/");
    /// ```
    pub fn new(url: &'a Url, date: OffsetDateTime) -> Capture<'a> {
        // The fragment is never sent, so it is no part of what was fetched.
        Capture::from_bytes(url[..Position::AfterQuery].as_bytes(), date)
    }

    /// A capture of a URL given as raw bytes, which need not be UTF-8 or
    /// valid: what a URI cannot hold is percent-encoded.
    ///
    /// ```
    /// let c = norobots_crawl::warc::Capture::from_bytes(b"http://a.example/x y\xff%zz", time::OffsetDateTime::UNIX_EPOCH);
    /// assert_eq!(c.target_uri(), "http://a.example/x%20y%FF%25zz");
    /// ```
    pub fn from_bytes(target: &'a [u8], date: OffsetDateTime) -> Capture<'a> {
        Capture {
            target,
            date,
            ip: None,
            truncated: None,
        }
    }

    /// Sets `WARC-IP-Address`, the server's address.
    ///
    /// ```
    /// let c = norobots_crawl::warc::Capture::from_bytes(b"http://a/", time::OffsetDateTime::UNIX_EPOCH).ip("::1".parse().unwrap());
    /// assert_eq!(c.ip, Some(std::net::Ipv6Addr::LOCALHOST.into()));
    /// ```
    pub fn ip(mut self, ip: IpAddr) -> Capture<'a> {
        self.ip = Some(ip);
        self
    }

    /// Sets `WARC-Truncated` on the response: its body is not whole.
    ///
    /// ```
    /// use norobots_crawl::warc::{Capture, Truncated};
    /// let c = Capture::from_bytes(b"http://a/", time::OffsetDateTime::UNIX_EPOCH).truncated(Truncated::Length);
    /// assert_eq!(c.truncated, Some(Truncated::Length));
    /// ```
    pub fn truncated(mut self, why: Truncated) -> Capture<'a> {
        self.truncated = Some(why);
        self
    }

    /// The `WARC-Target-URI` this capture gets.
    ///
    /// ```
    /// let c = norobots_crawl::warc::Capture::from_bytes(b"http://a/\"{x}\"\r\n", time::OffsetDateTime::UNIX_EPOCH);
    /// assert_eq!(c.target_uri(), "http://a/%22%7Bx%7D%22%0D%0A");
    /// ```
    pub fn target_uri(&self) -> String {
        target_uri(self.target)
    }
}

/// A message body to store.
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// use norobots_crawl::warc::*;
/// let mut w = WarcWriter::create(&dir.path().join("a.warc.gz"), &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
/// let url = url::Url::parse("http://a.example/big").unwrap();
/// let head = b"HTTP/1.1 200 OK\r\n\r\n";
/// // The crawler hashes while it spools the download...
/// let mut hasher = BlockHasher::new(head);
/// hasher.update(b"downloaded");
/// // ...then streams the spool into the record.
/// let mut spool: &[u8] = b"downloaded";
/// let body = Body::Reader { reader: &mut spool, digests: hasher.finish() };
/// w.write_response(&Capture::new(&url, time::OffsetDateTime::now_utc()), head, body, None).unwrap();
/// assert!(spool.is_empty());
/// ```
pub enum Body<'a> {
    /// Bytes in memory: request bodies, small answers.
    Bytes(&'a [u8]),
    /// A body streamed once, with the digests hashed while it was
    /// downloaded over the same head as the one written with it.
    Reader {
        /// Where the body's `digests.body_len` bytes are read from.
        reader: &'a mut dyn Read,
        /// What [`BlockHasher`] made of the head and this body.
        digests: Digests,
    },
    /// A body in a file, read twice: once to hash it, once to copy it.
    File(&'a Path),
}

/// Where a record went: its id, and the gzip member holding it (for an
/// index such as CDX).
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// use norobots_crawl::warc::*;
/// let path = dir.path().join("a.warc.gz");
/// let mut w = WarcWriter::create(&path, &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
/// let after_warcinfo = w.len();
/// let url = url::Url::parse("http://a.example/").unwrap();
/// let written = w.write_request(&Capture::new(&url, time::OffsetDateTime::now_utc()), b"GET / HTTP/1.1\r\n\r\n", Body::Bytes(b"")).unwrap();
/// assert_eq!(written.offset, after_warcinfo);
/// // The member alone decodes to the record.
/// let bytes = std::fs::read(&path).unwrap();
/// let member = &bytes[written.offset as usize..][..written.len as usize];
/// let mut text = String::new();
/// std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(member), &mut text).unwrap();
/// assert!(text.starts_with("WARC/1.1\r\nWARC-Type: request\r\n"));
/// assert!(text.contains(&format!("WARC-Record-ID: {}\r\n", written.id)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// The record's `WARC-Record-ID`.
    pub id: RecordId,
    /// Where its gzip member starts in the file.
    pub offset: u64,
    /// How long the member is.
    pub len: u64,
}

/// The two records of one fetch.
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// use norobots_crawl::warc::*;
/// let mut w = WarcWriter::create(&dir.path().join("a.warc.gz"), &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
/// let url = url::Url::parse("http://a.example/").unwrap();
/// let pair = w.write_exchange(&Capture::new(&url, time::OffsetDateTime::now_utc()), b"GET / HTTP/1.1\r\n\r\n", b"HTTP/1.1 204 No Content\r\n\r\n", Body::Bytes(b"")).unwrap();
/// assert_eq!(pair.request.offset + pair.request.len, pair.response.offset);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// The `request` record.
    pub request: Written,
    /// The `response` record, whose `WARC-Concurrent-To` is the request.
    pub response: Written,
}

/// Writes records to one `.warc.gz` file.
///
/// It is synchronous and `Send`: the crawler's fetch tasks hand finished
/// exchanges to the one task or thread that owns it. Two writers must not
/// share a file.
///
/// A failed write (a short body, digests that do not match, a full disk)
/// is cut back out of the file before the error is returned, so the file
/// always ends in whole records; if even that fails, every later write
/// returns [`Error::Poisoned`].
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// use norobots_crawl::warc::*;
/// let path = dir.path().join("a.warc.gz");
/// let mut w = WarcWriter::create(&path, &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
/// let url = url::Url::parse("http://a.example/").unwrap();
/// let capture = Capture::new(&url, time::OffsetDateTime::now_utc());
/// let before = w.len();
/// let mut short: &[u8] = b"abc";
/// let lie = Digests::of(b"HTTP/1.1 200 OK\r\n\r\n", b"abcdef");
/// let err = w.write_response(&capture, b"HTTP/1.1 200 OK\r\n\r\n", Body::Reader { reader: &mut short, digests: lie }, None).unwrap_err();
/// assert!(matches!(err, Error::BodyLength { expected: 6, actual: 3 }));
/// assert_eq!(w.len(), before);
/// assert_eq!(std::fs::metadata(&path).unwrap().len(), before);
/// ```
#[derive(Debug)]
pub struct WarcWriter {
    file: File,
    path: PathBuf,
    end: u64,
    warcinfo: RecordId,
    level: Compression,
    poisoned: bool,
    buf: Vec<u8>,
}

impl WarcWriter {
    /// Creates `path` (emptying it if it exists, as wget does) and writes
    /// the warcinfo record.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// use norobots_crawl::warc::*;
    /// let w = WarcWriter::create(&dir.path().join("a.warc.gz"), &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
    /// assert_eq!(w.path().file_name().unwrap(), "a.warc.gz");
    /// ```
    pub fn create(path: &Path, info: &WarcInfo) -> Result<WarcWriter, Error> {
        let file = File::create(path)?;
        let mut writer = WarcWriter::on(file, path, 0);
        writer.write_warcinfo(info)?;
        Ok(writer)
    }

    /// Opens `path` to go on with a crawl (`--continue`), creating it if
    /// missing: keeps its whole records, cuts a torn last record (what a
    /// SIGKILL mid-write leaves) and a run of NUL bytes (what a power cut
    /// can leave), and writes a new warcinfo record, as wget writes one
    /// per run. The [`Scan`] tells what was found.
    ///
    /// It refuses with [`Error::Corrupt`], changing nothing, when the
    /// file holds anything else after its whole records: a damaged
    /// record in the middle, or a file that is no WARC. Cutting there
    /// could destroy records this writer did not write.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// use norobots_crawl::warc::*;
    /// let path = dir.path().join("a.warc.gz");
    /// let info = WarcInfo::new(RobotsMode::Obey, ["x"]);
    /// let whole = WarcWriter::create(&path, &info).unwrap().len();
    /// // A record torn by a kill: a gzip member cut short.
    /// let mut bytes = std::fs::read(&path).unwrap();
    /// bytes.extend_from_within(..20);
    /// std::fs::write(&path, &bytes).unwrap();
    ///
    /// let (w, found) = WarcWriter::append(&path, &info).unwrap();
    /// assert_eq!((found.records, found.whole_len, found.tail), (1, whole, Tail::Torn));
    /// assert_eq!(scan(&path, |_| {}).unwrap().records, 2);
    /// assert_eq!(w.len(), std::fs::metadata(&path).unwrap().len());
    /// ```
    pub fn append(path: &Path, info: &WarcInfo) -> Result<(WarcWriter, Scan), Error> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        let scan = scan_file(&file, &mut |_| {})?;
        if let Tail::Corrupt { reason } = &scan.tail {
            return Err(Error::Corrupt {
                offset: scan.whole_len,
                reason: reason.clone(),
            });
        }
        if scan.whole_len < scan.file_len {
            file.set_len(scan.whole_len)?;
        }
        (&file).seek(SeekFrom::Start(scan.whole_len))?;
        let mut writer = WarcWriter::on(file, path, scan.whole_len);
        writer.write_warcinfo(info)?;
        Ok((writer, scan))
    }

    fn on(file: File, path: &Path, end: u64) -> WarcWriter {
        WarcWriter {
            file,
            path: path.to_path_buf(),
            end,
            warcinfo: RecordId::new(),
            level: Compression::default(),
            poisoned: false,
            buf: vec![0; CHUNK],
        }
    }

    /// The file written.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// # use norobots_crawl::warc::*;
    /// let path = dir.path().join("a.warc.gz");
    /// let w = WarcWriter::create(&path, &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
    /// assert_eq!(w.path(), path);
    /// ```
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The length of the file: where its last whole record ends.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// # use norobots_crawl::warc::*;
    /// let path = dir.path().join("a.warc.gz");
    /// let w = WarcWriter::create(&path, &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
    /// assert_eq!(w.len(), std::fs::metadata(&path).unwrap().len());
    /// ```
    #[allow(clippy::len_without_is_empty)] // never empty: the warcinfo record comes first
    pub fn len(&self) -> u64 {
        self.end
    }

    /// The id of this run's warcinfo record, which every later record
    /// names in `WARC-Warcinfo-ID`.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// # use norobots_crawl::warc::*;
    /// let w = WarcWriter::create(&dir.path().join("a.warc.gz"), &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
    /// assert!(w.warcinfo_id().to_string().starts_with("<urn:uuid:"));
    /// ```
    pub fn warcinfo_id(&self) -> RecordId {
        self.warcinfo
    }

    /// Forces what was written to the disk, for a crash of the machine
    /// rather than of the process (which loses nothing written).
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// # use norobots_crawl::warc::*;
    /// let mut w = WarcWriter::create(&dir.path().join("a.warc.gz"), &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
    /// w.sync().unwrap();
    /// ```
    pub fn sync(&mut self) -> Result<(), Error> {
        Ok(self.file.sync_data()?)
    }

    /// Writes the `request` and `response` records of one fetch, the
    /// request first; the response names it in `WARC-Concurrent-To`. If
    /// the response cannot be written, the request is cut back out too.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// # use norobots_crawl::warc::*;
    /// let mut w = WarcWriter::create(&dir.path().join("a.warc.gz"), &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
    /// let url = url::Url::parse("http://a.example/").unwrap();
    /// let pair = w.write_exchange(&Capture::new(&url, time::OffsetDateTime::now_utc()), b"GET / HTTP/1.1\r\n\r\n", b"HTTP/1.1 200 OK\r\n\r\n", Body::Bytes(b"hi")).unwrap();
    /// assert_ne!(pair.request.id, pair.response.id);
    /// ```
    pub fn write_exchange(
        &mut self,
        capture: &Capture<'_>,
        request_head: &[u8],
        response_head: &[u8],
        response_body: Body<'_>,
    ) -> Result<Exchange, Error> {
        let start = self.end;
        let request = self.write_request(capture, request_head, Body::Bytes(b""))?;
        match self.write_response(capture, response_head, response_body, Some(request.id)) {
            Ok(response) => Ok(Exchange { request, response }),
            Err(err) => {
                self.rollback(start);
                Err(err)
            }
        }
    }

    /// Writes a `request` record: `head` is the request line and headers
    /// (see [`request_head`]), `body` what followed them.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// # use norobots_crawl::warc::*;
    /// let mut w = WarcWriter::create(&dir.path().join("a.warc.gz"), &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
    /// let url = url::Url::parse("http://a.example/").unwrap();
    /// let head = request_head(&http::Method::GET, &url, http::Version::HTTP_11, &http::HeaderMap::new());
    /// let written = w.write_request(&Capture::new(&url, time::OffsetDateTime::now_utc()), &head, Body::Bytes(b"")).unwrap();
    /// assert_eq!(written.offset + written.len, w.len());
    /// ```
    pub fn write_request(
        &mut self,
        capture: &Capture<'_>,
        head: &[u8],
        body: Body<'_>,
    ) -> Result<Written, Error> {
        self.write_http(Kind::Request, capture, head, body, None)
    }

    /// Writes a `response` record: `head` is the status line and headers
    /// (see [`response_head`]), `body` the payload as the records should
    /// keep it, and `concurrent_to` the request's id.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// # use norobots_crawl::warc::*;
    /// let mut w = WarcWriter::create(&dir.path().join("a.warc.gz"), &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
    /// let url = url::Url::parse("http://a.example/").unwrap();
    /// let head = response_head(http::Version::HTTP_11, http::StatusCode::NOT_FOUND, &http::HeaderMap::new());
    /// w.write_response(&Capture::new(&url, time::OffsetDateTime::now_utc()), &head, Body::Bytes(b"gone"), None).unwrap();
    /// ```
    pub fn write_response(
        &mut self,
        capture: &Capture<'_>,
        head: &[u8],
        body: Body<'_>,
        concurrent_to: Option<RecordId>,
    ) -> Result<Written, Error> {
        self.write_http(Kind::Response, capture, head, body, concurrent_to)
    }

    fn write_warcinfo(&mut self, info: &WarcInfo) -> Result<Written, Error> {
        let block = info.block();
        let name = self
            .path
            .file_name()
            .map(|n| n.as_encoded_bytes().to_vec())
            .unwrap_or_default();
        let mut header = String::new();
        start_header(&mut header, "warcinfo", &self.warcinfo, info.date);
        header.push_str("WARC-Filename: ");
        escape_into(&mut header, &name, false);
        header.push_str("\r\n");
        let digests = Digests::of(&block, b"");
        let _ = write!(header, "WARC-Block-Digest: {}\r\n", digests.block);
        let _ = write!(
            header,
            "Content-Type: application/warc-fields\r\nContent-Length: {}\r\n\r\n",
            block.len()
        );
        let mut empty: &[u8] = b"";
        let id = self.warcinfo;
        self.write_record(id, &header, &block, &mut empty, &digests)
    }

    fn write_http(
        &mut self,
        kind: Kind,
        capture: &Capture<'_>,
        head: &[u8],
        body: Body<'_>,
        concurrent_to: Option<RecordId>,
    ) -> Result<Written, Error> {
        if self.poisoned {
            return Err(Error::Poisoned);
        }
        let mut bytes: &[u8];
        let mut opened: File;
        let (reader, digests): (&mut dyn Read, Digests) = match body {
            Body::Bytes(b) => {
                bytes = b;
                (&mut bytes, Digests::of(head, b))
            }
            Body::Reader { reader, digests } => (reader, digests),
            Body::File(path) => {
                opened = File::open(path)?;
                let mut hasher = BlockHasher::new(head);
                io::copy(&mut opened, &mut hasher)?;
                opened.rewind()?;
                (&mut opened, hasher.finish())
            }
        };
        let id = RecordId::new();
        let (kind_name, msgtype) = match kind {
            Kind::Request => ("request", "request"),
            Kind::Response => ("response", "response"),
        };
        let mut header = String::new();
        start_header(&mut header, kind_name, &id, capture.date);
        let _ = write!(
            header,
            "WARC-Target-URI: {}\r\nWARC-Warcinfo-ID: {}\r\n",
            capture.target_uri(),
            self.warcinfo
        );
        if let Some(other) = concurrent_to {
            let _ = write!(header, "WARC-Concurrent-To: {other}\r\n");
        }
        if let Some(ip) = capture.ip {
            let _ = write!(header, "WARC-IP-Address: {ip}\r\n");
        }
        if let (Kind::Response, Some(why)) = (kind, capture.truncated) {
            let _ = write!(header, "WARC-Truncated: {why}\r\n");
        }
        let _ = write!(header, "WARC-Block-Digest: {}\r\n", digests.block);
        // A request's empty body has no payload to name; a response's
        // always does, even empty, so that revisits can be matched.
        if kind == Kind::Response || digests.body_len > 0 {
            let _ = write!(header, "WARC-Payload-Digest: {}\r\n", digests.payload);
        }
        let _ = write!(
            header,
            "Content-Type: application/http;msgtype={msgtype}\r\nContent-Length: {}\r\n\r\n",
            head.len() as u64 + digests.body_len
        );
        self.write_record(id, &header, head, reader, &digests)
    }

    /// Streams one record into its own gzip member, checking the body
    /// against `expect` on the way, and cuts the member back out on any
    /// failure.
    fn write_record(
        &mut self,
        id: RecordId,
        header: &str,
        head: &[u8],
        body: &mut dyn Read,
        expect: &Digests,
    ) -> Result<Written, Error> {
        if self.poisoned {
            return Err(Error::Poisoned);
        }
        let start = self.end;
        match self.stream_member(header, head, body, expect) {
            Ok(end) => {
                self.end = end;
                Ok(Written {
                    id,
                    offset: start,
                    len: end - start,
                })
            }
            Err(err) => {
                self.rollback(start);
                Err(err)
            }
        }
    }

    fn stream_member(
        &mut self,
        header: &str,
        head: &[u8],
        body: &mut dyn Read,
        expect: &Digests,
    ) -> Result<u64, Error> {
        let mut gz = GzEncoder::new(BufWriter::with_capacity(CHUNK, &self.file), self.level);
        gz.write_all(header.as_bytes())?;
        gz.write_all(head)?;
        let mut check = BlockHasher::new(head);
        let mut left = expect.body_len;
        while left > 0 {
            let want = cmp::min(left, self.buf.len() as u64) as usize;
            let n = match body.read(&mut self.buf[..want]) {
                Ok(0) => {
                    return Err(Error::BodyLength {
                        expected: expect.body_len,
                        actual: expect.body_len - left,
                    })
                }
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            };
            check.update(&self.buf[..n]);
            gz.write_all(&self.buf[..n])?;
            left -= n as u64;
        }
        if check.finish() != *expect {
            return Err(Error::DigestMismatch);
        }
        gz.write_all(b"\r\n\r\n")?;
        gz.finish()?.into_inner().map_err(|e| e.into_error())?;
        Ok((&self.file).stream_position()?)
    }

    /// Cuts the file back to `start`, where the last whole record ends.
    fn rollback(&mut self, start: u64) {
        let undone = self
            .file
            .set_len(start)
            .and_then(|()| (&self.file).seek(SeekFrom::Start(start)));
        match undone {
            Ok(_) => self.end = start,
            Err(_) => self.poisoned = true,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Request,
    Response,
}

fn start_header(header: &mut String, kind: &str, id: &RecordId, date: OffsetDateTime) {
    let _ = write!(
        header,
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: {id}\r\nWARC-Date: {}\r\n",
        warc_date(date)
    );
}

/// `date` in UTC with microseconds, as `WARC-Date` takes it.
///
/// ```
/// use time::macros::datetime;
/// let date = datetime!(2024-05-01 14:00:00.123456789 +02:00);
/// assert_eq!(norobots_crawl::warc::warc_date(date), "2024-05-01T12:00:00.123456Z");
/// ```
pub fn warc_date(date: OffsetDateTime) -> String {
    // Only a date at the very edge of the four-digit years has no UTC form
    // a WARC-Date can write; it keeps its own clock rather than panic. (With
    // `time`'s `large-dates`, which any crate of a build may turn on, the
    // UTC form exists but is a five-digit year.)
    let utc = date
        .checked_to_offset(UtcOffset::UTC)
        .filter(|utc| (0..=9999).contains(&utc.year()))
        .unwrap_or(date);
    utc.format(WARC_DATE)
        .unwrap_or_else(|_| "1970-01-01T00:00:00.000000Z".to_string())
}

/// `raw` as a valid `WARC-Target-URI`: the fragment dropped, and every
/// byte RFC 3986 does not allow in a URI (spaces, controls, non-ASCII,
/// `"<>\^`{|}`, a `%` not starting an escape) percent-encoded.
///
/// ```
/// use norobots_crawl::warc::target_uri;
/// assert_eq!(target_uri(b"http://a.example/p?q=1&r=[2]"), "http://a.example/p?q=1&r=[2]");
/// assert_eq!(target_uri(b"http://a.example/\xc3\xa9 |^#frag"), "http://a.example/%C3%A9%20%7C%5E");
/// assert_eq!(target_uri(b"http://a.example/100%"), "http://a.example/100%25");
/// ```
pub fn target_uri(raw: &[u8]) -> String {
    let raw = match raw.iter().position(|&b| b == b'#') {
        Some(end) => &raw[..end],
        None => raw,
    };
    let mut out = String::with_capacity(raw.len());
    for (i, &b) in raw.iter().enumerate() {
        let escape_start = b == b'%'
            && raw.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && raw.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
        if escape_start || uri_char(b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// RFC 3986 unreserved and reserved characters; `%` is handled apart.
fn uri_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&b)
}

fn put_field(text: &mut String, name: &str, value: &[u8]) {
    text.push_str(&field_name(name));
    text.push_str(": ");
    escape_into(text, value, false);
    text.push_str("\r\n");
}

/// A warc-fields name: a token, whatever the caller gave.
fn field_name(name: &str) -> String {
    let token: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && !"()<>@,;:\\\"/[]?={}".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    if token.is_empty() {
        "-".to_string()
    } else {
        token
    }
}

/// Appends `bytes` as text that cannot break a header line: control
/// characters and bytes that are not UTF-8 become `\xHH`, and when
/// `quoted`, `\` and `"` are escaped for the quotes around it.
fn escape_into(out: &mut String, bytes: &[u8], quoted: bool) {
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' | '"' if quoted => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_control() => {
                    let mut utf8 = [0; 4];
                    for b in c.encode_utf8(&mut utf8).bytes() {
                        let _ = write!(out, "\\x{b:02x}");
                    }
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
}

/// The request line and headers of a request, rebuilt as HTTP/1.1 wire
/// bytes for a `request` record: `Host` first when `headers` lacks it, as
/// the client sends it, then `headers` in order.
///
/// HTTP/2 and HTTP/3 are written as HTTP/1.1, the only syntax
/// `application/http` has.
///
/// ```
/// use http::{HeaderMap, HeaderValue, Method, Version};
/// let url = url::Url::parse("http://[::1]:8080/a b?q#f").unwrap();
/// let mut headers = HeaderMap::new();
/// headers.insert("user-agent", HeaderValue::from_static("norobots/0.1"));
/// let head = norobots_crawl::warc::request_head(&Method::GET, &url, Version::HTTP_11, &headers);
/// assert_eq!(head, b"GET /a%20b?q HTTP/1.1\r\nhost: [::1]:8080\r\nuser-agent: norobots/0.1\r\n\r\n");
/// ```
pub fn request_head(method: &Method, url: &Url, version: Version, headers: &HeaderMap) -> Vec<u8> {
    let mut head = Vec::with_capacity(256);
    head.extend_from_slice(method.as_str().as_bytes());
    head.push(b' ');
    let target = &url[Position::BeforePath..Position::AfterQuery];
    head.extend_from_slice(if target.is_empty() { "/" } else { target }.as_bytes());
    head.push(b' ');
    head.extend_from_slice(version_text(version));
    head.extend_from_slice(b"\r\n");
    if !headers.contains_key(HOST) {
        if let Some(host) = url.host_str() {
            head.extend_from_slice(b"host: ");
            head.extend_from_slice(host.as_bytes());
            if let Some(port) = url.port() {
                head.extend_from_slice(format!(":{port}").as_bytes());
            }
            head.extend_from_slice(b"\r\n");
        }
    }
    put_headers(&mut head, headers, false);
    head
}

/// The status line and headers of a response, rebuilt as HTTP/1.1 wire
/// bytes for a `response` record. `Transfer-Encoding` is left out: the
/// body stored beside it is de-chunked. Pass the headers that describe
/// the body as stored (the client drops `Content-Encoding` when it
/// decodes).
///
/// ```
/// use http::{HeaderMap, HeaderValue, StatusCode, Version};
/// let mut headers = HeaderMap::new();
/// headers.insert("content-type", HeaderValue::from_static("text/html"));
/// headers.insert("transfer-encoding", HeaderValue::from_static("chunked"));
/// let head = norobots_crawl::warc::response_head(Version::HTTP_2, StatusCode::OK, &headers);
/// assert_eq!(head, b"HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n\r\n");
/// let odd = norobots_crawl::warc::response_head(Version::HTTP_10, StatusCode::from_u16(599).unwrap(), &HeaderMap::new());
/// assert_eq!(odd, b"HTTP/1.0 599 \r\n\r\n");
/// ```
pub fn response_head(version: Version, status: StatusCode, headers: &HeaderMap) -> Vec<u8> {
    let mut head = Vec::with_capacity(256);
    head.extend_from_slice(version_text(version));
    head.push(b' ');
    head.extend_from_slice(status.as_str().as_bytes());
    head.push(b' ');
    head.extend_from_slice(status.canonical_reason().unwrap_or("").as_bytes());
    head.extend_from_slice(b"\r\n");
    put_headers(&mut head, headers, true);
    head
}

fn version_text(version: Version) -> &'static [u8] {
    if version == Version::HTTP_09 || version == Version::HTTP_10 {
        b"HTTP/1.0"
    } else {
        b"HTTP/1.1"
    }
}

fn put_headers(head: &mut Vec<u8>, headers: &HeaderMap, response: bool) {
    for (name, value) in headers {
        if response && name == TRANSFER_ENCODING {
            continue;
        }
        head.extend_from_slice(name.as_str().as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(value.as_bytes());
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(b"\r\n");
}

/// One record as read back, its block hashed but not kept.
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// use norobots_crawl::warc::*;
/// let path = dir.path().join("a.warc.gz");
/// WarcWriter::create(&path, &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
/// let mut records = Vec::new();
/// scan(&path, |r| records.push(r.clone())).unwrap();
/// let info = &records[0];
/// assert_eq!(info.field("content-type"), Some("application/warc-fields"));
/// assert_eq!(info.field("WARC-Block-Digest"), Some(info.block_digest.to_string().as_str()));
/// assert_eq!(info.payload_digest, None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Record {
    /// Where the gzip member holding the record starts.
    pub offset: u64,
    /// The version line, such as `WARC/1.1`.
    pub version: String,
    /// The header fields in order, names as written.
    pub fields: Vec<(String, String)>,
    /// The block's length (its `Content-Length`).
    pub block_len: u64,
    /// SHA-1 of the block, computed while reading.
    pub block_digest: Sha1Digest,
    /// For `application/http` records, SHA-1 of what follows the HTTP
    /// head, computed while reading; `None` for other records and for a
    /// block with no end of head.
    pub payload_digest: Option<Sha1Digest>,
}

impl Record {
    /// The first field named `name`, in any case.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// # use norobots_crawl::warc::*;
    /// # let path = dir.path().join("a.warc.gz");
    /// # WarcWriter::create(&path, &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
    /// # let mut records = Vec::new();
    /// # scan(&path, |r| records.push(r.clone())).unwrap();
    /// assert_eq!(records[0].field("warc-type"), Some("warcinfo"));
    /// assert_eq!(records[0].field("WARC-Target-URI"), None);
    /// ```
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What a [`scan`] found after the whole records.
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// use norobots_crawl::warc::*;
/// let path = dir.path().join("a.warc.gz");
/// WarcWriter::create(&path, &WarcInfo::new(RobotsMode::Obey, ["x"])).unwrap();
/// assert_eq!(scan(&path, |_| {}).unwrap().tail, Tail::Clean);
/// let bytes = std::fs::read(&path).unwrap();
/// std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
/// assert_eq!(scan(&path, |_| {}).unwrap().tail, Tail::Torn);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tail {
    /// Nothing: the file ends with its last whole record.
    Clean,
    /// The start of a gzip member cut short, of a record, or NUL bytes: what
    /// a crash mid-write leaves, and what [`WarcWriter::append`] cuts.
    Torn,
    /// Anything else: a damaged member, or bytes that are no WARC.
    Corrupt {
        /// What is wrong.
        reason: String,
    },
}

/// What a [`scan`] found.
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// # use norobots_crawl::warc::*;
/// let path = dir.path().join("empty.warc.gz");
/// std::fs::write(&path, b"").unwrap();
/// let found = scan(&path, |_| {}).unwrap();
/// assert_eq!((found.records, found.members, found.whole_len, found.tail), (0, 0, 0, Tail::Clean));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Scan {
    /// Whole records read.
    pub records: u64,
    /// Whole gzip members read.
    pub members: u64,
    /// Where the last whole member ends.
    pub whole_len: u64,
    /// The file's length.
    pub file_len: u64,
    /// What follows `whole_len`.
    pub tail: Tail,
}

/// Reads a `.warc.gz` file member by member and calls `each` with every
/// record of every whole member, in order, stopping at the first member
/// that is not whole.
///
/// A member is whole when it decodes completely, its gzip checksum and
/// length match, and it holds one or more complete WARC records (version
/// line, header, `Content-Length` bytes of block, CRLF CRLF) and nothing
/// else. Memory stays bounded whatever the file holds: blocks are hashed
/// as they stream by.
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// # use norobots_crawl::warc::*;
/// let path = dir.path().join("not.warc.gz");
/// std::fs::write(&path, b"<html>not a WARC</html>").unwrap();
/// let found = scan(&path, |_| unreachable!()).unwrap();
/// assert!(matches!(found.tail, Tail::Corrupt { .. }));
/// ```
pub fn scan(path: &Path, mut each: impl FnMut(&Record)) -> Result<Scan, Error> {
    let file = File::open(path)?;
    scan_file(&file, &mut each)
}

fn scan_file(file: &File, each: &mut dyn FnMut(&Record)) -> Result<Scan, Error> {
    let file_len = file.metadata()?.len();
    let mut input = BufReader::with_capacity(CHUNK, file);
    input.seek(SeekFrom::Start(0))?;
    let (mut records, mut members, mut whole_len) = (0, 0, 0);
    let tail = loop {
        if whole_len >= file_len {
            break Tail::Clean;
        }
        match read_member(&mut input, whole_len)? {
            Member::Whole(found) => {
                members += 1;
                records += found.len() as u64;
                found.iter().for_each(&mut *each);
                whole_len = input.stream_position()?;
            }
            Member::Torn => break Tail::Torn,
            Member::Corrupt(reason) => break Tail::Corrupt { reason },
        }
    };
    let tail = match tail {
        Tail::Corrupt { reason } => {
            // Trailing NULs (a power cut) hide a torn member from the
            // decoder; judge the bytes before them.
            let content_end = end_before_nuls(file, whole_len, file_len)?;
            if content_end == whole_len {
                Tail::Torn
            } else if file_len - content_end >= MIN_NUL_RUN {
                (&*file).seek(SeekFrom::Start(whole_len))?;
                let mut before = BufReader::new(file.take(content_end - whole_len));
                match read_member(&mut before, whole_len)? {
                    Member::Torn => Tail::Torn,
                    _ => Tail::Corrupt { reason },
                }
            } else {
                Tail::Corrupt { reason }
            }
        }
        other => other,
    };
    Ok(Scan {
        records,
        members,
        whole_len,
        file_len,
        tail,
    })
}

/// Where the bytes in `from..to` end once a run of trailing NULs is
/// left out.
fn end_before_nuls(file: &File, from: u64, to: u64) -> io::Result<u64> {
    let mut end = to;
    let mut buf = vec![0; CHUNK];
    while end > from {
        let start = end.saturating_sub(CHUNK as u64).max(from);
        let chunk = &mut buf[..(end - start) as usize];
        (&*file).seek(SeekFrom::Start(start))?;
        (&*file).read_exact(chunk)?;
        if let Some(last) = chunk.iter().rposition(|&b| b != 0) {
            return Ok(start + last as u64 + 1);
        }
        end = start;
    }
    Ok(from)
}

enum Member {
    Whole(Vec<Record>),
    Torn,
    Corrupt(String),
}

/// Notes how the gzip decoder failed, since only it knows whether the
/// input ran out (a torn member) or was wrong (a damaged one).
struct Watch<R> {
    inner: R,
    failure: Option<io::ErrorKind>,
}

impl<R: Read> Read for Watch<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let result = self.inner.read(buf);
        if let Err(e) = &result {
            if e.kind() != io::ErrorKind::Interrupted {
                self.failure = Some(e.kind());
            }
        }
        result
    }
}

enum Bad {
    /// The decoded stream ended inside a record.
    Short,
    /// The decoded bytes are not a WARC record.
    Wrong(String),
    Io(io::Error),
}

impl From<io::Error> for Bad {
    fn from(e: io::Error) -> Bad {
        Bad::Io(e)
    }
}

/// Reads one gzip member at the start of `input`, leaving `input` just
/// after it when it is whole.
fn read_member<R: BufRead>(input: &mut R, offset: u64) -> Result<Member, Error> {
    let decoder = Watch {
        inner: GzDecoder::new(input),
        failure: None,
    };
    let mut text = BufReader::with_capacity(CHUNK, decoder);
    let mut found = Vec::new();
    loop {
        let problem = match read_record(&mut text, offset) {
            Ok(Some(record)) if found.len() < MAX_RECORDS_PER_MEMBER => {
                found.push(record);
                continue;
            }
            Ok(Some(_)) => Bad::Wrong("too many records in one gzip member".to_string()),
            Ok(None) if found.is_empty() => Bad::Wrong("a gzip member with no record".to_string()),
            Ok(None) => return Ok(Member::Whole(found)),
            Err(problem) => problem,
        };
        return Ok(match (problem, text.get_ref().failure) {
            (Bad::Io(_), Some(io::ErrorKind::UnexpectedEof)) => Member::Torn,
            (Bad::Io(e), Some(io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData)) => {
                Member::Corrupt(e.to_string())
            }
            (Bad::Io(e), _) => return Err(e.into()),
            (Bad::Short, _) => Member::Corrupt("a record cut short in a whole gzip member".into()),
            (Bad::Wrong(reason), _) => Member::Corrupt(reason),
        });
    }
}

/// Reads one record, or `None` at the clean end of the decoded stream.
fn read_record<R: BufRead>(text: &mut R, offset: u64) -> Result<Option<Record>, Bad> {
    if text.fill_buf()?.is_empty() {
        return Ok(None);
    }
    // Checked before anything else is read, so that a gzip file that is
    // no WARC is told from a torn record after a few bytes.
    expect(text, b"WARC/1.", "not a WARC record")?;
    let mut limited = text.by_ref().take(MAX_HEADER);
    let mut line = Vec::new();
    read_line(&mut limited, &mut line)?;
    let version = format!("WARC/1.{}", String::from_utf8_lossy(&line).trim_end());
    let mut fields: Vec<(String, String)> = Vec::new();
    loop {
        line.clear();
        read_line(&mut limited, &mut line)?;
        let text_line = String::from_utf8_lossy(&line);
        let text_line = text_line.trim_end_matches(['\r', '\n']);
        if text_line.is_empty() {
            break;
        }
        if text_line.starts_with([' ', '\t']) {
            match fields.last_mut() {
                Some((_, value)) => {
                    value.push(' ');
                    value.push_str(text_line.trim());
                }
                None => return Err(Bad::Wrong("a continuation line before any field".into())),
            }
            continue;
        }
        let Some((name, value)) = text_line.split_once(':') else {
            return Err(Bad::Wrong(format!(
                "a header line with no colon: {text_line:.60}"
            )));
        };
        fields.push((name.trim().to_string(), value.trim().to_string()));
    }
    let field = |name: &str| {
        fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let block_len: u64 = field("Content-Length")
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| Bad::Wrong("no valid Content-Length".into()))?;
    let http = field("Content-Type").is_some_and(|t| {
        t.get(..16)
            .is_some_and(|p| p.eq_ignore_ascii_case("application/http"))
    });
    let mut block = Sha1::new();
    let mut payload = http.then(Sha1::new);
    let mut head_end = HeadEnd::default();
    let mut left = block_len;
    while left > 0 {
        let buf = text.fill_buf()?;
        if buf.is_empty() {
            return Err(Bad::Short);
        }
        let n = cmp::min(buf.len() as u64, left) as usize;
        let chunk = &buf[..n];
        block.update(chunk);
        if let Some(payload) = payload.as_mut() {
            match head_end.find(chunk) {
                Some(at) => payload.update(&chunk[at..]),
                None if head_end.found => payload.update(chunk),
                None => {}
            }
        }
        text.consume(n);
        left -= n as u64;
    }
    expect(text, b"\r\n\r\n", "a record that does not end in CRLF CRLF")?;
    Ok(Some(Record {
        offset,
        version,
        block_len,
        block_digest: Sha1Digest(block.finalize().into()),
        payload_digest: payload
            .filter(|_| head_end.found)
            .map(|p| Sha1Digest(p.finalize().into())),
        fields,
    }))
}

/// Reads the bytes `want`, byte by byte as they arrive, so that a wrong
/// byte is seen even when the stream then fails.
fn expect<R: BufRead>(text: &mut R, want: &[u8], what: &str) -> Result<(), Bad> {
    let mut at = 0;
    while at < want.len() {
        let buf = text.fill_buf()?;
        if buf.is_empty() {
            return Err(Bad::Short);
        }
        let n = cmp::min(buf.len(), want.len() - at);
        if buf[..n] != want[at..at + n] {
            return Err(Bad::Wrong(what.to_string()));
        }
        text.consume(n);
        at += n;
    }
    Ok(())
}

fn read_line<R: BufRead>(limited: &mut io::Take<R>, line: &mut Vec<u8>) -> Result<(), Bad> {
    limited.read_until(b'\n', line)?;
    if line.last() == Some(&b'\n') {
        Ok(())
    } else if limited.limit() == 0 {
        Err(Bad::Wrong("a WARC header longer than 64 KiB".into()))
    } else {
        Err(Bad::Short)
    }
}

/// Finds the CRLF CRLF that ends an HTTP head across chunks.
#[derive(Default)]
struct HeadEnd {
    matched: usize,
    found: bool,
}

impl HeadEnd {
    /// Where in `chunk` the payload starts, if the head ends in it.
    fn find(&mut self, chunk: &[u8]) -> Option<usize> {
        if self.found {
            return None;
        }
        const END: &[u8; 4] = b"\r\n\r\n";
        for (i, &b) in chunk.iter().enumerate() {
            self.matched = if b == END[self.matched] {
                self.matched + 1
            } else if b == b'\r' {
                1
            } else {
                0
            };
            if self.matched == END.len() {
                self.found = true;
                return Some(i + 1);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn info() -> WarcInfo {
        let mut info = WarcInfo::new(RobotsMode::Obey, ["norobots", "crawl"]);
        info.date = datetime!(2024-01-02 03:04:05 UTC);
        info
    }

    fn url() -> Url {
        Url::parse("http://a.example/p").unwrap()
    }

    fn records(path: &Path) -> (Scan, Vec<Record>) {
        let mut found = Vec::new();
        let scan = scan(path, |r| found.push(r.clone())).unwrap();
        (scan, found)
    }

    fn assert_digests_hold(record: &Record) {
        assert_eq!(
            record.field("WARC-Block-Digest"),
            Some(record.block_digest.to_string().as_str())
        );
        if let Some(payload) = record.field("WARC-Payload-Digest") {
            assert_eq!(
                Some(payload.to_string()),
                record.payload_digest.map(|d| d.to_string())
            );
        }
    }

    /// A file with a warcinfo and `n` exchanges; returns where each
    /// record's member ends.
    fn sample(path: &Path, n: usize) -> Vec<u64> {
        let mut w = WarcWriter::create(path, &info()).unwrap();
        let mut ends = vec![w.len()];
        let url = url();
        for i in 0..n {
            let body = format!("body {i} {}", "x".repeat(i * 300));
            let capture = Capture::new(&url, datetime!(2024-01-02 03:04:05 UTC));
            let pair = w
                .write_exchange(
                    &capture,
                    b"GET /p HTTP/1.1\r\n\r\n",
                    b"HTTP/1.1 200 OK\r\n\r\n",
                    Body::Bytes(body.as_bytes()),
                )
                .unwrap();
            ends.push(pair.request.offset + pair.request.len);
            ends.push(pair.response.offset + pair.response.len);
        }
        assert_eq!(*ends.last().unwrap(), w.len());
        ends
    }

    #[test]
    fn base32_digest_matches_known_values() {
        // The empty payload digest every WARC tool writes.
        assert_eq!(
            Sha1Digest::of(b"").to_string(),
            "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"
        );
        // sha1("abc") = a9993e36..., base32 of those 20 bytes.
        assert_eq!(
            Sha1Digest::of(b"abc").to_string(),
            "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5"
        );
    }

    #[test]
    fn hasher_in_chunks_equals_hasher_at_once() {
        let head = b"HTTP/1.1 200 OK\r\n\r\n";
        let body: Vec<u8> = (0..10_000u32).map(|i| (i * 7) as u8).collect();
        let mut h = BlockHasher::new(head);
        for chunk in body.chunks(333) {
            h.update(chunk);
        }
        let d = h.finish();
        assert_eq!(d, Digests::of(head, &body));
        assert_eq!(d.payload, Sha1Digest::of(&body));
        assert_eq!(d.block, Sha1Digest::of(&[&head[..], &body].concat()));
        assert_eq!(d.body_len, 10_000);
    }

    #[test]
    fn records_carry_the_fields_the_issue_asks_for() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.warc.gz");
        let mut w = WarcWriter::create(&path, &info()).unwrap();
        let url = url();
        let capture = Capture::new(&url, datetime!(2024-01-02 03:04:05.000001 UTC))
            .ip("2001:db8::1".parse().unwrap())
            .truncated(Truncated::Length);
        let pair = w
            .write_exchange(
                &capture,
                b"GET /p HTTP/1.1\r\n\r\n",
                b"HTTP/1.1 200 OK\r\n\r\n",
                Body::Bytes(b"abc"),
            )
            .unwrap();
        let (scan, found) = records(&path);
        assert_eq!((scan.records, scan.members, scan.tail), (3, 3, Tail::Clean));
        let [warcinfo, request, response] = &found[..] else {
            panic!("{found:?}")
        };
        let info_id = w.warcinfo_id().to_string();
        assert_eq!(warcinfo.version, "WARC/1.1");
        assert_eq!(warcinfo.field("WARC-Record-ID"), Some(info_id.as_str()));
        assert_eq!(warcinfo.field("WARC-Filename"), Some("a.warc.gz"));
        assert_eq!(
            warcinfo.field("WARC-Date"),
            Some("2024-01-02T03:04:05.000000Z")
        );
        assert_eq!(request.field("WARC-Type"), Some("request"));
        assert_eq!(
            request.field("WARC-Record-ID"),
            Some(pair.request.id.to_string().as_str())
        );
        assert_eq!(
            request.field("Content-Type"),
            Some("application/http;msgtype=request")
        );
        assert_eq!(request.field("WARC-Payload-Digest"), None);
        assert_eq!(request.field("WARC-Truncated"), None);
        assert_eq!(
            response.field("WARC-Concurrent-To"),
            Some(pair.request.id.to_string().as_str())
        );
        for record in [request, response] {
            assert_eq!(record.field("WARC-Warcinfo-ID"), Some(info_id.as_str()));
            assert_eq!(record.field("WARC-Target-URI"), Some("http://a.example/p"));
            assert_eq!(
                record.field("WARC-Date"),
                Some("2024-01-02T03:04:05.000001Z")
            );
            assert_eq!(record.field("WARC-IP-Address"), Some("2001:db8::1"));
        }
        assert_eq!(response.field("WARC-Truncated"), Some("length"));
        assert_eq!(response.field("Content-Length"), Some("22"));
        assert_eq!(response.payload_digest, Some(Sha1Digest::of(b"abc")));
        for record in &found {
            assert_digests_hold(record);
        }
        assert_eq!(pair.response.offset + pair.response.len, w.len());
    }

    #[test]
    fn body_from_a_reader_a_file_and_bytes_give_the_same_block() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.warc.gz");
        let spool = dir.path().join("spool");
        let body: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&spool, &body).unwrap();
        let head = b"HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\n\r\n";
        let mut w = WarcWriter::create(&path, &info()).unwrap();
        let url = url();
        let capture = Capture::new(&url, OffsetDateTime::UNIX_EPOCH);
        let mut hasher = BlockHasher::new(head);
        hasher.update(&body);
        let mut reader = &body[..];
        w.write_response(
            &capture,
            head,
            Body::Reader {
                reader: &mut reader,
                digests: hasher.finish(),
            },
            None,
        )
        .unwrap();
        w.write_response(&capture, head, Body::File(&spool), None)
            .unwrap();
        w.write_response(&capture, head, Body::Bytes(&body), None)
            .unwrap();
        let (_, found) = records(&path);
        assert_eq!(found.len(), 4);
        for record in &found[1..] {
            assert_digests_hold(record);
            assert_eq!(record.block_digest, found[1].block_digest);
            assert_eq!(record.payload_digest, Some(Sha1Digest::of(&body)));
            assert_eq!(record.block_len, (head.len() + body.len()) as u64);
        }
    }

    #[test]
    fn a_body_that_does_not_match_its_digests_leaves_no_trace() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.warc.gz");
        let mut w = WarcWriter::create(&path, &info()).unwrap();
        let before = w.len();
        let url = url();
        let capture = Capture::new(&url, OffsetDateTime::UNIX_EPOCH);
        let head = b"HTTP/1.1 200 OK\r\n\r\n";
        let mut other = &b"abd"[..];
        let err = w
            .write_exchange(
                &capture,
                b"GET / HTTP/1.1\r\n\r\n",
                head,
                Body::Reader {
                    reader: &mut other,
                    digests: Digests::of(head, b"abc"),
                },
            )
            .unwrap_err();
        assert!(matches!(err, Error::DigestMismatch), "{err}");
        // The request went too: no request without its response.
        assert_eq!(w.len(), before);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), before);
        // A head other than the one hashed is caught the same way.
        let mut right = &b"abc"[..];
        let err = w
            .write_response(
                &capture,
                b"HTTP/1.1 404 Not Found\r\n\r\n",
                Body::Reader {
                    reader: &mut right,
                    digests: Digests::of(head, b"abc"),
                },
                None,
            )
            .unwrap_err();
        assert!(matches!(err, Error::DigestMismatch), "{err}");
        // The writer goes on.
        w.write_response(&capture, head, Body::Bytes(b"fine"), None)
            .unwrap();
        let (scan, found) = records(&path);
        assert_eq!((scan.records, scan.tail), (2, Tail::Clean));
        assert_digests_hold(&found[1]);
    }

    #[test]
    fn a_missing_body_file_is_an_error_not_a_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.warc.gz");
        let mut w = WarcWriter::create(&path, &info()).unwrap();
        let before = w.len();
        let url = url();
        let err = w
            .write_response(
                &Capture::new(&url, OffsetDateTime::UNIX_EPOCH),
                b"HTTP/1.1 200 OK\r\n\r\n",
                Body::File(&dir.path().join("nope")),
                None,
            )
            .unwrap_err();
        assert!(matches!(err, Error::Io(_)), "{err}");
        assert_eq!(w.len(), before);
    }

    #[test]
    fn the_writer_can_move_to_its_own_thread() {
        fn send<T: Send>() {}
        send::<WarcWriter>();
    }

    #[test]
    fn append_keeps_whole_records_and_cuts_any_torn_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.warc.gz");
        let ends = sample(&path, 3);
        let full = std::fs::read(&path).unwrap();
        assert_eq!(*ends.last().unwrap(), full.len() as u64);
        let cut_path = dir.path().join("cut.warc.gz");
        // Every byte offset: a kill can land anywhere.
        for cut in 0..=full.len() {
            std::fs::write(&cut_path, &full[..cut]).unwrap();
            let whole = *ends.iter().rev().find(|&&e| e <= cut as u64).unwrap_or(&0);
            let kept_records = ends.iter().filter(|&&e| e <= whole).count() as u64;
            let (mut w, scan) = WarcWriter::append(&cut_path, &info()).unwrap();
            assert_eq!(scan.whole_len, whole, "cut at {cut}");
            assert_eq!(scan.records, kept_records, "cut at {cut}");
            let expected_tail = if whole == cut as u64 {
                Tail::Clean
            } else {
                Tail::Torn
            };
            assert_eq!(scan.tail, expected_tail, "cut at {cut}");
            let url = url();
            w.write_exchange(
                &Capture::new(&url, OffsetDateTime::UNIX_EPOCH),
                b"GET /p HTTP/1.1\r\n\r\n",
                b"HTTP/1.1 200 OK\r\n\r\n",
                Body::Bytes(b"after"),
            )
            .unwrap();
            let (after, found) = records(&cut_path);
            assert_eq!(after.tail, Tail::Clean, "cut at {cut}");
            assert_eq!(after.records, kept_records + 3, "cut at {cut}");
            assert_eq!(after.whole_len, after.file_len);
            for record in &found {
                assert_digests_hold(record);
            }
            // The new run's records name the new warcinfo.
            let new_info = w.warcinfo_id().to_string();
            assert_eq!(
                found[found.len() - 1].field("WARC-Warcinfo-ID"),
                Some(new_info.as_str())
            );
        }
    }

    #[test]
    fn append_cuts_nuls_a_power_cut_leaves() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.warc.gz");
        let ends = sample(&path, 2);
        let mut bytes = std::fs::read(&path).unwrap();
        let whole = bytes.len() as u64;
        let full = bytes.clone();
        bytes.extend(std::iter::repeat_n(0, 5000));
        std::fs::write(&path, &bytes).unwrap();
        let (_, scan) = WarcWriter::append(&path, &info()).unwrap();
        assert_eq!((scan.whole_len, scan.tail), (whole, Tail::Torn));
        // A torn member followed by NULs.
        let mut bytes = full[..ends[2] as usize + 30].to_vec();
        bytes.extend(std::iter::repeat_n(0, 4096));
        std::fs::write(&path, &bytes).unwrap();
        let (_, scan) = WarcWriter::append(&path, &info()).unwrap();
        assert_eq!((scan.whole_len, scan.tail), (ends[2], Tail::Torn));
        // A few NULs are no power cut: a damaged last member is refused.
        let mut bytes = full.clone();
        let crc = bytes.len() - 8;
        bytes[crc] ^= 1;
        bytes.extend([0; 8]);
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            WarcWriter::append(&path, &info()),
            Err(Error::Corrupt { .. })
        ));
    }

    #[test]
    fn append_refuses_damage_before_the_end_and_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.warc.gz");
        let ends = sample(&path, 3);
        let mut bytes = std::fs::read(&path).unwrap();
        // One flipped byte inside the first response, four records from the end.
        let at = (ends[1] + (ends[2] - ends[1]) * 3 / 4) as usize;
        bytes[at] ^= 0x55;
        std::fs::write(&path, &bytes).unwrap();
        let err = WarcWriter::append(&path, &info()).unwrap_err();
        let Error::Corrupt { offset, .. } = err else {
            panic!("{err}")
        };
        assert_eq!(offset, ends[1], "{ends:?}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
    }

    #[test]
    fn append_refuses_a_file_that_is_no_warc() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.warc.gz");
        let other = gzip("<html>hello</html>".repeat(500).as_bytes());
        for bytes in [
            &b"plain text, not gzip"[..],
            // A whole gzip member of something else.
            &other[..],
            // A cut one: still no WARC, though the cut looks like a kill's.
            &other[..other.len() / 2],
        ] {
            std::fs::write(&path, bytes).unwrap();
            assert!(matches!(
                WarcWriter::append(&path, &info()),
                Err(Error::Corrupt { offset: 0, .. })
            ));
            assert_eq!(std::fs::read(&path).unwrap(), bytes);
        }
    }

    #[test]
    fn append_creates_a_missing_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.warc.gz");
        let (w, scan) = WarcWriter::append(&path, &info()).unwrap();
        assert_eq!((scan.records, scan.tail), (0, Tail::Clean));
        assert_eq!(records(&path).0.records, 1);
        assert_eq!(w.len(), std::fs::metadata(&path).unwrap().len());
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(bytes).unwrap();
        gz.finish().unwrap()
    }

    #[test]
    fn reader_takes_foreign_members_and_rejects_broken_records() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.warc.gz");
        let record = |body: &str, len: usize| {
            format!(
                "WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: {len}\r\n\r\n{body}\r\n\r\n"
            )
        };
        // Two records in one member, folded header lines, WARC/1.0.
        let two = format!(
            "{}{}",
            record("ab", 2),
            "WARC/1.0\r\nWARC-Type: metadata\r\nX: a\r\n  b\r\nContent-Length: 0\r\n\r\n\r\n\r\n"
        );
        std::fs::write(&path, gzip(two.as_bytes())).unwrap();
        let (scan, found) = records(&path);
        assert_eq!((scan.records, scan.members, scan.tail), (2, 1, Tail::Clean));
        assert_eq!(found[1].field("X"), Some("a b"));
        assert_eq!(found[0].block_digest, Sha1Digest::of(b"ab"));
        let broken = [
            record("ab", 3),                                     // block runs into the end
            record("abc", 2),                                    // no CRLF CRLF after the block
            "WARC/1.1\r\nContent-Length: x\r\n\r\n".to_string(), // bad length
            "WARC/1.1\r\nno colon\r\n\r\n".to_string(),
            format!("WARC/1.1\r\nX: {}\r\n", "y".repeat(70_000)), // header too long
            "HTTP/1.1 200 OK\r\n\r\n".to_string(),
        ];
        for text in broken {
            std::fs::write(&path, gzip(text.as_bytes())).unwrap();
            let (scan, found) = records(&path);
            assert!(
                matches!(scan.tail, Tail::Corrupt { .. }),
                "{text:.40}: {scan:?}"
            );
            assert!(found.is_empty());
        }
    }

    #[test]
    fn a_bad_checksum_hides_the_record_it_covers() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.warc.gz");
        let mut bytes = gzip(b"WARC/1.1\r\nContent-Length: 0\r\n\r\n\r\n\r\n");
        let crc = bytes.len() - 8;
        bytes[crc] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let (scan, found) = records(&path);
        assert!(matches!(scan.tail, Tail::Corrupt { .. }), "{scan:?}");
        assert!(found.is_empty());
    }

    #[test]
    fn payload_digest_is_found_across_chunk_boundaries() {
        for split in 0..8 {
            let block = b"HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody\r\n\r\nmore";
            let mut end = HeadEnd::default();
            let (first, second) = block.split_at(split + 20);
            let start = match end.find(first) {
                Some(at) => at,
                None => first.len() + end.find(second).unwrap(),
            };
            assert_eq!(&block[start..], b"body\r\n\r\nmore", "split {split}");
        }
        let mut end = HeadEnd::default();
        assert_eq!(end.find(b"\r\n\r\r\n\r\n"), Some(7));
        assert_eq!(end.find(b"\r\n\r\n"), None);
    }

    #[test]
    fn heads_are_rebuilt_as_wire_bytes() {
        let mut headers = HeaderMap::new();
        headers.insert("host", "b.example".parse().unwrap());
        headers.append("accept", "*/*".parse().unwrap());
        let url = Url::parse("https://a.example/").unwrap();
        assert_eq!(
            request_head(&Method::HEAD, &url, Version::HTTP_2, &headers),
            b"HEAD / HTTP/1.1\r\nhost: b.example\r\naccept: */*\r\n\r\n"
        );
        let mut headers = HeaderMap::new();
        headers.append("set-cookie", "a=1".parse().unwrap());
        headers.append("set-cookie", "b=2".parse().unwrap());
        headers.insert(
            "x-bytes",
            http::HeaderValue::from_bytes(b"caf\xe9").unwrap(),
        );
        assert_eq!(
            response_head(Version::HTTP_11, StatusCode::MOVED_PERMANENTLY, &headers),
            b"HTTP/1.1 301 Moved Permanently\r\nset-cookie: a=1\r\nset-cookie: b=2\r\nx-bytes: caf\xe9\r\n\r\n"
        );
    }

    #[test]
    fn arguments_are_quoted_and_escaped_like_wget() {
        let info = WarcInfo::new(
            RobotsMode::Obey,
            [
                OsString::from("a\"b\\c"),
                OsString::from("line\nbreak"),
                OsString::from("é"),
            ],
        );
        let block = String::from_utf8(info.block()).unwrap();
        assert!(
            block.contains("\r\nnorobots-arguments: \"a\\\"b\\\\c\" \"line\\x0abreak\" \"é\"\r\n"),
            "{block}"
        );
        assert_eq!(block.matches("\r\n").count(), 5, "one line per field");
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_arguments_and_names_stay_on_one_line() {
        use std::os::unix::ffi::OsStrExt;
        let info = WarcInfo::new(RobotsMode::Off, [OsStr::from_bytes(b"\xff\r\n")]);
        let block = String::from_utf8(info.block()).unwrap();
        assert!(
            block.contains("norobots-arguments: \"\\xff\\x0d\\x0a\"\r\n"),
            "{block}"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(OsStr::from_bytes(b"odd\xff\n.warc.gz"));
        WarcWriter::create(&path, &info).unwrap();
        let (_, found) = records(&path);
        assert_eq!(
            found[0].field("WARC-Filename"),
            Some("odd\\xff\\x0a.warc.gz")
        );
    }

    #[test]
    fn target_uris_are_always_valid() {
        assert_eq!(target_uri(b""), "");
        assert_eq!(target_uri(b"%4g%41%"), "%254g%41%25");
        assert_eq!(
            target_uri(b"http://a/\x00\x7f<>\\`"),
            "http://a/%00%7F%3C%3E%5C%60"
        );
        let url = Url::parse("http://a.example/ü?q=a b#x").unwrap();
        assert_eq!(
            Capture::new(&url, OffsetDateTime::UNIX_EPOCH).target_uri(),
            "http://a.example/%C3%BC?q=a%20b"
        );
        for b in 0..=255u8 {
            let uri = target_uri(&[b'/', b]);
            assert!(uri.bytes().all(|c| c.is_ascii_graphic()), "{b}: {uri}");
        }
    }

    #[test]
    fn dates_are_utc_with_microseconds() {
        assert_eq!(
            warc_date(OffsetDateTime::UNIX_EPOCH),
            "1970-01-01T00:00:00.000000Z"
        );
        assert_eq!(
            warc_date(datetime!(2024-12-31 23:59:59.9999999 -01:00)),
            "2025-01-01T00:59:59.999999Z"
        );
        // The edge of the range keeps its clock rather than panic.
        let edge = datetime!(9999-12-31 23:59:59 -23:00);
        assert!(warc_date(edge).starts_with("9999-12-31T23:59:59"));
    }

    #[test]
    fn field_names_are_tokens() {
        assert_eq!(field_name("ok-name"), "ok-name");
        assert_eq!(field_name(""), "-");
        assert_eq!(field_name("a b:c\u{e9}"), "a-b-c-");
    }
}
