//! Settings for fetching and caching, with the defaults each dialect asks
//! for.

use std::net::SocketAddr;
use std::time::Duration;

use norobots::Dialect;

const DAY: Duration = Duration::from_secs(24 * 3600);

/// How robots.txt files are fetched and kept.
///
/// [`Config::new`] gives the dialect's defaults: a 500 KiB body cap (RFC
/// 9309 2.5 asks crawlers to read at least that much), five redirects,
/// freshness of 7 days for the legacy dialects (draft 3.4) or 24 hours for
/// `rfc9309` and `google` (RFC 9309 2.4, which also caps any longer HTTP
/// lifetime at 24 hours), a stale copy kept for 30 days of outage, and
/// retries after 1 minute, doubling to at most a day.
///
/// ```
/// use std::time::Duration;
/// use norobots::Dialect;
/// use norobots_fetch::Config;
///
/// let config = Config::new(Dialect::Draft1996)
///     .user_agent("ExampleBot/1.0 (+https://example.com/bot)")
///     .timeout(Duration::from_secs(10))
///     .max_bytes(256 * 1024);
/// assert_eq!(config.default_ttl, Duration::from_secs(7 * 24 * 3600));
/// assert_eq!(config.max_ttl, None);
/// assert_eq!(Config::new(Dialect::Rfc9309).max_ttl, Some(Duration::from_secs(24 * 3600)));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// The dialect the files are read in; it also picks the status-code
    /// policy (see [`Policy::of`](crate::Policy::of)).
    pub dialect: Dialect,
    /// The `User-Agent` header sent with each request.
    pub user_agent: String,
    /// How long to wait for a connection.
    pub connect_timeout: Duration,
    /// How long a whole fetch may take, redirects and body included.
    pub timeout: Duration,
    /// How much of a body to read; the rest is not read and the file is
    /// parsed as cut.
    pub max_bytes: usize,
    /// How many redirects to follow.
    pub max_redirects: usize,
    /// How long a file stays fresh when its answer has no `Cache-Control`
    /// lifetime or `Expires`.
    pub default_ttl: Duration,
    /// The longest a file stays fresh whatever its headers say. With
    /// `None`, and for any longer setting, freshness and waits after
    /// failures still end after a century, so that no lifetime overflows
    /// the clocks it is added to.
    pub max_ttl: Option<Duration>,
    /// How long a good copy stands in while the server fails, counted from
    /// when it was last fetched or revalidated.
    pub stale_limit: Duration,
    /// The first wait after a failure; it doubles with each failure in a row.
    pub retry_initial: Duration,
    /// The longest wait after failures, `Retry-After` included.
    pub retry_max: Duration,
    /// How many origins the cache keeps; the least recently used go first.
    pub max_entries: usize,
    /// Host names to resolve to fixed addresses instead of DNS, as curl's
    /// `--resolve` does (tests, pinned crawls).
    pub resolve: Vec<(String, SocketAddr)>,
}

impl Config {
    /// The defaults for `dialect`.
    ///
    /// ```
    /// let config = norobots_fetch::Config::new(norobots::Dialect::Rfc9309);
    /// assert_eq!(config.max_bytes, 500 * 1024);
    /// assert_eq!(config.max_redirects, 5);
    /// ```
    pub fn new(dialect: Dialect) -> Config {
        let legacy = matches!(dialect, Dialect::Norobots1994 | Dialect::Draft1996);
        Config {
            dialect,
            user_agent: concat!("norobots/", env!("CARGO_PKG_VERSION")).to_string(),
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(30),
            max_bytes: norobots::RFC9309_MIN_BYTES,
            max_redirects: 5,
            default_ttl: if legacy { 7 * DAY } else { DAY },
            max_ttl: if legacy { None } else { Some(DAY) },
            stale_limit: 30 * DAY,
            retry_initial: Duration::from_secs(60),
            retry_max: DAY,
            max_entries: 100_000,
            resolve: Vec::new(),
        }
    }

    /// Sets the `User-Agent` header.
    ///
    /// ```
    /// let c = norobots_fetch::Config::default().user_agent("FooBot/2");
    /// assert_eq!(c.user_agent, "FooBot/2");
    /// ```
    pub fn user_agent(mut self, value: impl Into<String>) -> Config {
        self.user_agent = value.into();
        self
    }

    /// Sets the connect timeout.
    ///
    /// ```
    /// use std::time::Duration;
    /// let c = norobots_fetch::Config::default().connect_timeout(Duration::from_secs(2));
    /// assert_eq!(c.connect_timeout, Duration::from_secs(2));
    /// ```
    pub fn connect_timeout(mut self, value: Duration) -> Config {
        self.connect_timeout = value;
        self
    }

    /// Sets the timeout for a whole fetch.
    ///
    /// ```
    /// use std::time::Duration;
    /// let c = norobots_fetch::Config::default().timeout(Duration::from_secs(5));
    /// assert_eq!(c.timeout, Duration::from_secs(5));
    /// ```
    pub fn timeout(mut self, value: Duration) -> Config {
        self.timeout = value;
        self
    }

    /// Sets the body cap in bytes.
    ///
    /// ```
    /// let c = norobots_fetch::Config::default().max_bytes(1000);
    /// assert_eq!(c.max_bytes, 1000);
    /// ```
    pub fn max_bytes(mut self, value: usize) -> Config {
        self.max_bytes = value;
        self
    }

    /// Sets how many redirects are followed.
    ///
    /// ```
    /// let c = norobots_fetch::Config::default().max_redirects(10);
    /// assert_eq!(c.max_redirects, 10);
    /// ```
    pub fn max_redirects(mut self, value: usize) -> Config {
        self.max_redirects = value;
        self
    }

    /// Sets the freshness of files without HTTP caching headers.
    ///
    /// ```
    /// use std::time::Duration;
    /// let c = norobots_fetch::Config::default().default_ttl(Duration::from_secs(3600));
    /// assert_eq!(c.default_ttl, Duration::from_secs(3600));
    /// ```
    pub fn default_ttl(mut self, value: Duration) -> Config {
        self.default_ttl = value;
        self
    }

    /// Sets (or with `None` lifts) the cap on any file's freshness.
    ///
    /// ```
    /// let c = norobots_fetch::Config::default().max_ttl(None);
    /// assert_eq!(c.max_ttl, None);
    /// ```
    pub fn max_ttl(mut self, value: Option<Duration>) -> Config {
        self.max_ttl = value;
        self
    }

    /// Sets how long a good copy stands in during an outage.
    ///
    /// ```
    /// use std::time::Duration;
    /// let c = norobots_fetch::Config::default().stale_limit(Duration::ZERO);
    /// assert_eq!(c.stale_limit, Duration::ZERO);
    /// ```
    pub fn stale_limit(mut self, value: Duration) -> Config {
        self.stale_limit = value;
        self
    }

    /// Sets the first and the longest wait after failures.
    ///
    /// ```
    /// use std::time::Duration;
    /// let c = norobots_fetch::Config::default().retry(Duration::from_secs(1), Duration::from_secs(60));
    /// assert_eq!((c.retry_initial, c.retry_max), (Duration::from_secs(1), Duration::from_secs(60)));
    /// ```
    pub fn retry(mut self, initial: Duration, max: Duration) -> Config {
        self.retry_initial = initial;
        self.retry_max = max;
        self
    }

    /// Sets how many origins the cache keeps.
    ///
    /// ```
    /// let c = norobots_fetch::Config::default().max_entries(10);
    /// assert_eq!(c.max_entries, 10);
    /// ```
    pub fn max_entries(mut self, value: usize) -> Config {
        self.max_entries = value;
        self
    }

    /// Resolves `host` to `addr` instead of asking DNS.
    ///
    /// ```
    /// let c = norobots_fetch::Config::default().resolve("a.test", "127.0.0.1:8080".parse().unwrap());
    /// assert_eq!(c.resolve.len(), 1);
    /// ```
    pub fn resolve(mut self, host: impl Into<String>, addr: SocketAddr) -> Config {
        self.resolve.push((host.into(), addr));
        self
    }
}

impl Default for Config {
    /// The defaults for `rfc9309`.
    fn default() -> Config {
        Config::new(Dialect::Rfc9309)
    }
}
