//! One request for a page: no redirect followed (the engine decides about
//! the target), the body streamed and kept in memory only while it is
//! small, spilled to a spool file beyond, and cut at `--max-page-bytes`.

use std::fs::File;
use std::io::{self, Read, Write};
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use http::{HeaderMap, StatusCode};
use url::Url;

/// Bodies up to this size stay in memory; longer ones go to a spool file.
pub const IN_MEMORY: usize = 64 * 1024;

/// What a page fetch is set up with.
#[derive(Clone, Debug)]
pub struct FetchOptions {
    /// The `User-Agent` header.
    pub user_agent: String,
    /// `-T`: connect and read timeouts; a body that stalls this long ends.
    pub timeout: Duration,
    /// `--max-page-bytes`: the rest of a longer body is not read.
    pub max_bytes: u64,
    /// Where bodies too large for memory are spooled.
    pub spool_dir: PathBuf,
    /// At most this many idle connections kept per host.
    pub per_host: usize,
}

/// A body as it came: in memory, or in a spool file that is removed when
/// the body is dropped.
#[derive(Debug)]
pub enum Body {
    /// A small body.
    Memory(Vec<u8>),
    /// A large one, `len` octets at `path`.
    Spooled {
        /// The spool file.
        path: PathBuf,
        /// Its length.
        len: u64,
    },
}

impl Body {
    /// Its length in octets.
    pub fn len(&self) -> u64 {
        match self {
            Body::Memory(b) => b.len() as u64,
            Body::Spooled { len, .. } => *len,
        }
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A reader over it from the start.
    pub fn reader(&self) -> io::Result<Box<dyn Read + '_>> {
        Ok(match self {
            Body::Memory(b) => Box::new(&b[..]),
            Body::Spooled { path, .. } => Box::new(io::BufReader::new(File::open(path)?)),
        })
    }

    /// The first octets, at most `n`, for sniffing.
    pub fn head(&self, n: usize) -> Vec<u8> {
        match self {
            Body::Memory(b) => b[..b.len().min(n)].to_vec(),
            Body::Spooled { path, .. } => {
                let mut buf = Vec::new();
                if let Ok(f) = File::open(path) {
                    let _ = f.take(n as u64).read_to_end(&mut buf);
                }
                buf
            }
        }
    }
}

impl Drop for Body {
    fn drop(&mut self) {
        if let Body::Spooled { path, .. } = self {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A page's answer.
#[derive(Debug)]
pub struct Page {
    /// The status.
    pub status: StatusCode,
    /// The HTTP version.
    pub version: http::Version,
    /// The response headers.
    pub headers: HeaderMap,
    /// The request headers sent, for the archive.
    pub request_headers: HeaderMap,
    /// The body, at most `max_bytes` of it.
    pub body: Body,
    /// The body was longer than `max_bytes`.
    pub truncated: bool,
    /// The server's address.
    pub ip: Option<IpAddr>,
    /// How long the request took.
    pub elapsed: Duration,
}

/// Why a request got no answer.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// No connection: refused, unreachable, no such host. wget does not
    /// retry these.
    #[error("cannot connect: {0}")]
    Connect(String),
    /// The timeout fired.
    #[error("timed out")]
    Timeout,
    /// The connection broke, or the answer was not HTTP.
    #[error("network error: {0}")]
    Network(String),
    /// The spool could not be written.
    #[error("cannot spool the body: {0}")]
    Spool(#[from] io::Error),
}

impl FetchError {
    /// Whether another try may do better (wget retries timeouts and broken
    /// connections, not refused ones).
    pub fn is_transient(&self) -> bool {
        matches!(self, FetchError::Timeout | FetchError::Network(_))
    }
}

/// The page client.
pub struct PageFetcher {
    client: reqwest::Client,
    options: FetchOptions,
    spool_seq: AtomicU64,
}

impl PageFetcher {
    /// A client with `options`. Compression is not asked for, so that what
    /// is saved and archived is what the server sent.
    pub fn new(options: FetchOptions) -> Result<PageFetcher, reqwest::Error> {
        let client = reqwest::Client::builder()
            .user_agent(options.user_agent.clone())
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(options.timeout)
            .read_timeout(options.timeout)
            .pool_max_idle_per_host(options.per_host.max(1))
            .no_gzip()
            .no_brotli()
            .no_deflate()
            .http1_only()
            .build()?;
        Ok(PageFetcher {
            client,
            options,
            spool_seq: AtomicU64::new(0),
        })
    }

    /// GETs `url`.
    pub async fn get(&self, url: &Url) -> Result<Page, FetchError> {
        let started = Instant::now();
        let request = self.client.get(url.clone()).build().map_err(classify)?;
        let mut request_headers = request.headers().clone();
        request_headers.insert(
            http::header::USER_AGENT,
            http::HeaderValue::from_str(&self.options.user_agent)
                .unwrap_or_else(|_| http::HeaderValue::from_static("norobots")),
        );
        let mut response = self.client.execute(request).await.map_err(classify)?;
        let status = response.status();
        let version = response.version();
        let headers = response.headers().clone();
        let ip = response.remote_addr().map(|a| a.ip());
        let max = self.options.max_bytes;
        let mut memory = Vec::new();
        let mut spool: Option<(PathBuf, File)> = None;
        let mut len = 0u64;
        let mut truncated = false;
        loop {
            let chunk = match response.chunk().await {
                Ok(Some(c)) => c,
                Ok(None) => break,
                Err(e) => {
                    if let Some((path, _)) = spool {
                        let _ = std::fs::remove_file(path);
                    }
                    return Err(classify(e));
                }
            };
            let room = max.saturating_sub(len);
            let take = chunk.len().min(room as usize);
            let piece = &chunk[..take];
            if spool.is_none() && memory.len() + piece.len() > IN_MEMORY {
                let path = self.spool_path();
                let mut file = File::create(&path)?;
                file.write_all(&memory)?;
                memory = Vec::new();
                spool = Some((path, file));
            }
            match &mut spool {
                Some((_, file)) => file.write_all(piece)?,
                None => memory.extend_from_slice(piece),
            }
            len += take as u64;
            if take < chunk.len() {
                truncated = true;
                break;
            }
        }
        let body = match spool {
            Some((path, file)) => {
                drop(file);
                Body::Spooled { path, len }
            }
            None => Body::Memory(memory),
        };
        Ok(Page {
            status,
            version,
            headers,
            request_headers,
            body,
            truncated,
            ip,
            elapsed: started.elapsed(),
        })
    }

    fn spool_path(&self) -> PathBuf {
        let n = self.spool_seq.fetch_add(1, Ordering::Relaxed);
        self.options
            .spool_dir
            .join(format!("spool-{}-{n}", std::process::id()))
    }

    /// Removes what dead runs left in the spool directory, and only
    /// theirs: workers of one crawl may share a prefix, and a live one's
    /// spool files are its bodies in flight.
    pub fn clean_spool(dir: &Path) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let proc = Path::new("/proc");
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(rest) = name.to_str().and_then(|n| n.strip_prefix("spool-")) else {
                continue;
            };
            let pid = rest.split('-').next().unwrap_or("");
            let alive =
                pid != std::process::id().to_string() && proc.is_dir() && proc.join(pid).exists();
            if !alive {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

// Sorted as robots.txt fetches sort theirs, so that the crawl and its
// robots.txt cache tell a timeout from a refusal alike; a body that broke
// off is, for a page, a broken connection, retried as one.
fn classify(e: reqwest::Error) -> FetchError {
    let failure = norobots_fetch::Failure::of_transport(e, false);
    let cause = std::error::Error::source(&failure)
        .map(norobots_fetch::cause)
        .unwrap_or_default();
    match failure {
        norobots_fetch::Failure::Timeout => FetchError::Timeout,
        norobots_fetch::Failure::Connect(_) => FetchError::Connect(cause),
        _ => FetchError::Network(cause),
    }
}
