//! A real HTTP/1.1 server on 127.0.0.1 for the integration tests: it reads
//! each request with `httparse`, records what it saw, and answers as the
//! test's handler says, faults included (a trickled body, a reset
//! connection, a body far over the cap). Each connection serves one request
//! and closes, so every request the client makes is seen here.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use norobots::Dialect;
use norobots_fetch::{Config, RobotsCache};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request as the server read it.
#[derive(Clone, Debug)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub host: String,
    pub headers: Vec<(String, String)>,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// How to answer one request.
pub enum Reply {
    /// A whole response.
    Full {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// Headers at once, then the body one byte per `every`.
    Trickle { body: Vec<u8>, every: Duration },
    /// Declares `declared` bytes, sends `sent`, then resets the connection.
    Reset { declared: usize, sent: Vec<u8> },
    /// `size` bytes of robots.txt lines, written as fast as the client
    /// reads; the server counts what it managed to write.
    Huge { size: usize },
    /// A status line, then header lines of `line` octets without end (or
    /// until the client hangs up); the server counts what it wrote.
    EndlessHeaders { line: usize },
    /// robots.txt lines without end, compressed with `coding` (`gzip`,
    /// `deflate` or `br`) as they are written, with no length: a client
    /// that does not stop reading at its cap never gets to the end. The
    /// server counts the plain octets it sent.
    EndlessBomb { coding: String },
    /// Waits, then answers.
    Delayed(Duration, Box<Reply>),
}

impl Reply {
    pub fn status(status: u16) -> Reply {
        Reply::Full {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    pub fn ok(body: &str) -> Reply {
        Reply::Full {
            status: 200,
            headers: vec![("Content-Type".into(), "text/plain".into())],
            body: body.as_bytes().to_vec(),
        }
    }

    pub fn with(mut self, name: &str, value: &str) -> Reply {
        if let Reply::Full { headers, .. } = &mut self {
            headers.push((name.into(), value.into()));
        }
        self
    }

    pub fn redirect(status: u16, location: &str) -> Reply {
        Reply::status(status).with("Location", location)
    }
}

type Handler = dyn Fn(usize, &Seen) -> Reply + Send + Sync;

pub struct Server {
    pub addr: SocketAddr,
    seen: Arc<Mutex<Vec<Seen>>>,
    written: Arc<AtomicU64>,
}

impl Server {
    /// Starts a server; `handler` gets the request's index (0-based) and
    /// the request.
    pub async fn start(handler: impl Fn(usize, &Seen) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let written = Arc::new(AtomicU64::new(0));
        let handler: Arc<Handler> = Arc::new(handler);
        let count = Arc::new(AtomicUsize::new(0));
        {
            let seen = Arc::clone(&seen);
            let written = Arc::clone(&written);
            tokio::spawn(async move {
                loop {
                    let Ok((stream, _)) = listener.accept().await else {
                        return;
                    };
                    let seen = Arc::clone(&seen);
                    let written = Arc::clone(&written);
                    let handler = Arc::clone(&handler);
                    let count = Arc::clone(&count);
                    tokio::spawn(async move {
                        let _ = serve(stream, &seen, &written, &*handler, &count).await;
                    });
                }
            });
        }
        Server {
            addr,
            seen,
            written,
        }
    }

    /// Every request so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    pub fn requests(&self) -> usize {
        self.seen.lock().unwrap().len()
    }

    /// Body bytes the server managed to write.
    pub fn written(&self) -> u64 {
        self.written.load(Ordering::SeqCst)
    }

    /// `http://host:port` for a test host name that the cache resolves here.
    pub fn url(&self, host: &str, path: &str) -> String {
        format!("http://{host}:{}{path}", self.addr.port())
    }
}

/// A cache whose resolver sends each of `hosts` to `server`, with retries
/// that start at a second so the tests run quickly, and timeouts that no
/// load on the machine reaches: a test whose answer ends in time by design
/// (a cap, a limit) must not see a timeout because the machine is busy.
/// Tests of the timeout set a short one of their own.
pub fn cache_for(dialect: Dialect, server: &Server, hosts: &[&str]) -> RobotsCache {
    RobotsCache::new(config_for(dialect, server, hosts)).unwrap()
}

pub fn config_for(dialect: Dialect, server: &Server, hosts: &[&str]) -> Config {
    let mut config = Config::new(dialect)
        .user_agent("TestBot/1.0 (+http://127.0.0.1/bot)")
        .timeout(Duration::from_secs(30))
        .connect_timeout(Duration::from_secs(30))
        .retry(Duration::from_secs(1), Duration::from_secs(3600));
    for host in hosts {
        config = config.resolve(*host, server.addr);
    }
    config
}

async fn serve(
    mut stream: TcpStream,
    seen: &Mutex<Vec<Seen>>,
    written: &AtomicU64,
    handler: &Handler,
    count: &AtomicUsize,
) -> std::io::Result<()> {
    let mut buf = Vec::new();
    let request = loop {
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut req = httparse::Request::new(&mut headers);
        if let httparse::Status::Complete(_) = req.parse(&buf).unwrap() {
            let headers: Vec<(String, String)> = req
                .headers
                .iter()
                .map(|h| {
                    (
                        h.name.to_string(),
                        String::from_utf8_lossy(h.value).into_owned(),
                    )
                })
                .collect();
            let host = headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case("host"))
                .map(|(_, v)| v.split(':').next().unwrap_or("").to_string())
                .unwrap_or_default();
            break Seen {
                method: req.method.unwrap_or("").to_string(),
                path: req.path.unwrap_or("").to_string(),
                host,
                headers,
            };
        }
    };
    let index = count.fetch_add(1, Ordering::SeqCst);
    seen.lock().unwrap().push(request.clone());
    let mut reply = handler(index, &request);
    while let Reply::Delayed(wait, inner) = reply {
        tokio::time::sleep(wait).await;
        reply = *inner;
    }
    match reply {
        Reply::Full {
            status,
            headers,
            body,
        } => {
            let mut head = format!(
                "HTTP/1.1 {status} X\r\nConnection: close\r\nContent-Length: {}\r\n",
                body.len()
            );
            for (k, v) in headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(&body).await?;
            written.fetch_add(body.len() as u64, Ordering::SeqCst);
        }
        Reply::Trickle { body, every } => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
                body.len()
            );
            stream.write_all(head.as_bytes()).await?;
            for b in body {
                stream.write_all(&[b]).await?;
                stream.flush().await?;
                written.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(every).await;
            }
        }
        Reply::Reset { declared, sent } => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: {declared}\r\n\r\n"
            );
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(&sent).await?;
            stream.flush().await?;
            written.fetch_add(sent.len() as u64, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(50)).await;
            // SO_LINGER 0: close with RST instead of FIN.
            #[allow(deprecated)]
            stream.set_linger(Some(Duration::ZERO))?;
            drop(stream);
            return Ok(());
        }
        Reply::EndlessHeaders { line } => {
            stream.write_all(b"HTTP/1.1 200 OK\r\n").await?;
            let header = format!("X-Pad: {}\r\n", "a".repeat(line.saturating_sub(9)));
            let block = whole_copies(header.as_bytes(), 64 * 1024);
            loop {
                stream.write_all(&block).await?;
                written.fetch_add(block.len() as u64, Ordering::SeqCst);
            }
        }
        Reply::Huge { size } => {
            let head =
                format!("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: {size}\r\n\r\n");
            stream.write_all(head.as_bytes()).await?;
            let block = whole_copies(b"User-agent: *\nDisallow: /private\n", 64 * 1024);
            let mut left = size;
            while left > 0 {
                let n = left.min(block.len());
                stream.write_all(&block[..n]).await?;
                written.fetch_add(n as u64, Ordering::SeqCst);
                left -= n;
            }
        }
        Reply::EndlessBomb { coding } => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Encoding: {coding}\r\n\r\n"
            );
            stream.write_all(head.as_bytes()).await?;
            let block = whole_copies(b"User-agent: *\nDisallow: /private\n", 1 << 20);
            let mut encoder = Encoder::new(&coding);
            loop {
                let out = encoder.feed(&block);
                stream.write_all(&out).await?;
                written.fetch_add(block.len() as u64, Ordering::SeqCst);
            }
        }
        Reply::Delayed(..) => unreachable!(),
    }
    stream.shutdown().await
}

/// Whole copies of `line`, as many as fit in `size` octets, and at least
/// one: a block to write again and again.
fn whole_copies(line: &[u8], size: usize) -> Vec<u8> {
    line.repeat((size / line.len()).max(1))
}

/// gzip-compresses `body`.
pub fn gzip(body: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(body).unwrap();
    e.finish().unwrap()
}

/// `line` repeated to `size` octets, compressed with `coding` (`gzip`,
/// `deflate` or `br`) as it is written, so the plain text is never held.
pub fn bomb(coding: &str, line: &[u8], size: usize) -> Vec<u8> {
    use std::io::Write;
    fn feed<W: Write>(mut out: W, line: &[u8], size: usize) -> W {
        let block = whole_copies(line, 1 << 20);
        let mut left = size;
        while left > 0 {
            let n = left.min(block.len());
            out.write_all(&block[..n]).unwrap();
            left -= n;
        }
        out
    }
    let fast = flate2::Compression::fast();
    match coding {
        "gzip" => feed(flate2::write::GzEncoder::new(Vec::new(), fast), line, size)
            .finish()
            .unwrap(),
        "deflate" => feed(
            flate2::write::ZlibEncoder::new(Vec::new(), fast),
            line,
            size,
        )
        .finish()
        .unwrap(),
        "br" => {
            let out = brotli::CompressorWriter::new(Vec::new(), 1 << 16, 1, 22);
            feed(out, line, size).into_inner()
        }
        _ => panic!("no coding {coding}"),
    }
}

/// A compressed stream that is written a block at a time and never ended.
enum Encoder {
    Gzip(flate2::write::GzEncoder<Vec<u8>>),
    Deflate(flate2::write::ZlibEncoder<Vec<u8>>),
    Brotli(Box<brotli::CompressorWriter<Vec<u8>>>),
}

impl Encoder {
    fn new(coding: &str) -> Encoder {
        let fast = flate2::Compression::fast();
        match coding {
            "gzip" => Encoder::Gzip(flate2::write::GzEncoder::new(Vec::new(), fast)),
            "deflate" => Encoder::Deflate(flate2::write::ZlibEncoder::new(Vec::new(), fast)),
            "br" => Encoder::Brotli(Box::new(brotli::CompressorWriter::new(
                Vec::new(),
                1 << 16,
                1,
                22,
            ))),
            _ => panic!("no coding {coding}"),
        }
    }

    /// Compresses `block` and returns what the stream has to send so far.
    fn feed(&mut self, block: &[u8]) -> Vec<u8> {
        use std::io::Write;
        fn push<W: Write>(w: &mut W, block: &[u8]) {
            w.write_all(block).unwrap();
            w.flush().unwrap();
        }
        match self {
            Encoder::Gzip(e) => {
                push(e, block);
                std::mem::take(e.get_mut())
            }
            Encoder::Deflate(e) => {
                push(e, block);
                std::mem::take(e.get_mut())
            }
            Encoder::Brotli(e) => {
                push(e.as_mut(), block);
                std::mem::take(e.get_mut())
            }
        }
    }
}

/// brotli-compresses `body`.
pub fn brotli(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut input = body;
    brotli::BrotliCompress(&mut input, &mut out, &Default::default()).unwrap();
    out
}
