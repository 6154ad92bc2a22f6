//! A set of origins, started on loopback ports in a background thread so
//! that synchronous tests (which run a crawler as a child process) can
//! use it.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::net::{SocketAddr, TcpListener as StdListener};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

use crate::log;
use crate::serve::{self, handle, render, RenderError, Route, Served, Shared, Urls};
use crate::{Error, OriginSpec, Request, Response};

/// A web site of named origins, each on its own port of 127.0.0.1.
///
/// ```
/// use norobots_testsite::{OriginSpec, Response, Site};
///
/// let site = Site::new()
///     .origin(OriginSpec::new("a").route("/", Response::html("<a href=\"{origin:b}/\">b</a>")))
///     .origin(OriginSpec::new("b").route("/", Response::html("b")));
/// let running = site.start().unwrap();
/// assert!(running.origin("b").starts_with("http://127.0.0.1:"));
/// assert!(running.requests().is_empty());
/// ```
#[derive(Clone, Default)]
pub struct Site {
    origins: Vec<OriginSpec>,
    hook: Option<serve::Hook>,
}

impl Site {
    /// A site without origins.
    ///
    /// ```
    /// assert_eq!(norobots_testsite::Site::new().origins().count(), 0);
    /// ```
    pub fn new() -> Site {
        Site::default()
    }

    /// Add an origin.
    ///
    /// ```
    /// use norobots_testsite::{OriginSpec, Site};
    ///
    /// let site = Site::new().origin(OriginSpec::new("a")).origin(OriginSpec::new("b"));
    /// assert_eq!(site.origins().map(|o| o.name()).collect::<Vec<_>>(), ["a", "b"]);
    /// ```
    pub fn origin(mut self, origin: OriginSpec) -> Site {
        self.origins.push(origin);
        self
    }

    /// Call `hook` for every request as it arrives (before it is answered),
    /// from the server's thread: the binary writes its JSON log this way.
    ///
    /// ```
    /// use std::sync::{atomic::{AtomicUsize, Ordering}, Arc};
    /// use norobots_testsite::{OriginSpec, Site};
    ///
    /// let seen = Arc::new(AtomicUsize::new(0));
    /// let counter = seen.clone();
    /// let site = Site::new()
    ///     .origin(OriginSpec::new("a"))
    ///     .on_request(move |r| { assert_eq!(r.status, 404); counter.fetch_add(1, Ordering::Relaxed); })
    ///     .start()
    ///     .unwrap();
    ///
    /// use std::io::{Read, Write};
    /// let mut tcp = std::net::TcpStream::connect(site.addr("a")).unwrap();
    /// tcp.write_all(b"GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").unwrap();
    /// tcp.read_to_end(&mut Vec::new()).unwrap();
    /// assert_eq!(seen.load(Ordering::Relaxed), 1);
    /// ```
    pub fn on_request(mut self, hook: impl Fn(&Request) + Send + Sync + 'static) -> Site {
        self.hook = Some(Arc::new(hook));
        self
    }

    /// Give the origins fixed ports, `first`, `first + 1`, … in the order
    /// added, for scripts that want stable URLs.
    ///
    /// # Panics
    ///
    /// If the ports would run past 65535.
    ///
    /// ```
    /// use norobots_testsite::{OriginSpec, Site};
    ///
    /// // A port the OS says is free, and the one after it (free too, or
    /// // the start fails and says so).
    /// let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    /// let site = Site::new().origin(OriginSpec::new("a")).origin(OriginSpec::new("b"));
    /// match site.ports_from(free).start() {
    ///     Ok(running) => assert_eq!(running.addr("b").port(), free + 1),
    ///     Err(e) => assert!(matches!(e, norobots_testsite::Error::Bind { .. })),
    /// }
    /// ```
    pub fn ports_from(mut self, first: u16) -> Site {
        for (k, origin) in self.origins.iter_mut().enumerate() {
            let port = u16::try_from(k)
                .ok()
                .and_then(|k| first.checked_add(k))
                .expect("ports past 65535");
            origin.port = port;
        }
        self
    }

    /// The origins, in the order added.
    ///
    /// ```
    /// let site = norobots_testsite::scenario::standard();
    /// assert_eq!(site.origins().next().unwrap().name(), "a");
    /// ```
    pub fn origins(&self) -> impl Iterator<Item = &OriginSpec> + '_ {
        self.origins.iter()
    }

    /// The first answer that `path` on `origin` gets, without serving it:
    /// what a test checks a scenario's routes with.
    ///
    /// ```
    /// let site = norobots_testsite::scenario::standard();
    /// assert_eq!(site.lookup("a", "/index.html").unwrap().status(), 200);
    /// assert!(site.lookup("a", "/no-such-page.html").is_none());
    /// assert!(site.lookup("zz", "/").is_none());
    /// ```
    pub fn lookup(&self, origin: &str, path: &str) -> Option<Response> {
        self.origins
            .iter()
            .find(|o| o.name == origin)
            .and_then(|o| o.lookup(path))
    }

    /// Bind every origin's port, then serve them all from a background
    /// thread until the [`RunningSite`] is dropped.
    ///
    /// Every placeholder of every fixed route is checked here, so a slip in
    /// a scenario fails at start rather than as a puzzling 404 later.
    ///
    /// ```
    /// use norobots_testsite::{Error, OriginSpec, Site};
    ///
    /// let twice = Site::new().origin(OriginSpec::new("a")).origin(OriginSpec::new("a"));
    /// assert!(matches!(twice.start(), Err(Error::DuplicateOrigin(name)) if name == "a"));
    /// ```
    pub fn start(self) -> Result<RunningSite, Error> {
        let mut names = HashSet::new();
        if let Some(twice) = self.origins.iter().find(|o| !names.insert(&o.name)) {
            return Err(Error::DuplicateOrigin(twice.name.clone()));
        }
        let mut listeners = Vec::with_capacity(self.origins.len());
        for origin in &self.origins {
            let bind = |source| Error::Bind {
                origin: origin.name.clone(),
                port: origin.port,
                source,
            };
            let listener = StdListener::bind(("127.0.0.1", origin.port)).map_err(bind)?;
            listener.set_nonblocking(true).map_err(bind)?;
            let addr = listener.local_addr().map_err(bind)?;
            listeners.push((listener, addr));
        }
        let addrs: Vec<(String, SocketAddr)> = self
            .origins
            .iter()
            .zip(&listeners)
            .map(|(o, (_, addr))| (o.name.clone(), *addr))
            .collect();
        let urls: Arc<Urls> = Arc::new(
            addrs
                .iter()
                .map(|(name, addr)| (name.clone(), format!("http://{addr}")))
                .collect(),
        );
        let not_found = Arc::new(render(&Response::not_found(), &urls).expect("a plain 404"));
        let mut served = Vec::with_capacity(self.origins.len());
        for origin in self.origins {
            let mut routes = HashMap::with_capacity(origin.routes.len());
            for (path, answers) in origin.routes {
                let rendered = answers
                    .iter()
                    .map(|a| render(a, &urls))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| match e {
                        RenderError::Unknown(name) => Error::UnknownOrigin {
                            origin: origin.name.clone(),
                            path: path.clone(),
                            name,
                        },
                        RenderError::Bad(what) => Error::BadResponse {
                            origin: origin.name.clone(),
                            path: path.clone(),
                            what,
                        },
                    })?;
                routes.insert(path, Route::new(rendered));
            }
            served.push(Arc::new(Served {
                name: origin.name,
                routes,
                generator: origin.generator,
                urls: urls.clone(),
                not_found: not_found.clone(),
            }));
        }
        let shared = Arc::new(Shared {
            hook: self.hook,
            ..Shared::default()
        });
        // One thread is plenty: every answer is cheap or a timer, and tests
        // run many sites side by side on two cores.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(Error::Runtime)?;
        let (stop, stopped) = oneshot::channel::<()>();
        let state = shared.clone();
        let thread = thread::Builder::new()
            .name("norobots-testsite".into())
            .spawn(move || {
                runtime.block_on(async move {
                    for ((listener, _), origin) in listeners.into_iter().zip(served) {
                        let listener = TcpListener::from_std(listener)
                            .expect("a bound listener joins the runtime");
                        tokio::spawn(accept(listener, origin, state.clone()));
                    }
                    // Either a stop or a dropped sender ends the site.
                    let _ = stopped.await;
                });
                // Dropping the runtime here cancels every connection,
                // hanging ones too.
            })
            .map_err(Error::Runtime)?;
        Ok(RunningSite {
            addrs,
            shared,
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

async fn accept(listener: TcpListener, origin: Arc<Served>, shared: Arc<Shared>) {
    let mut http = http1::Builder::new();
    // Idle keep-alive connections stay open until the client closes them,
    // so connection reuse in a test never depends on a server timer.
    http.keep_alive(true).header_read_timeout(None);
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file descriptors, most likely: wait for some to
                // close instead of spinning.
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let id = shared.connections.fetch_add(1, Relaxed) + 1;
        let (origin, shared) = (origin.clone(), shared.clone());
        let connection = http.serve_connection(
            TokioIo::new(stream),
            service_fn(move |req| handle(origin.clone(), shared.clone(), id, req)),
        );
        tokio::spawn(async move {
            // A client that goes away mid-answer is normal here.
            let _ = connection.await;
        });
    }
}

/// A started [`Site`]: where its origins listen and what they were asked.
/// Dropping it stops the server and closes every connection.
///
/// ```
/// use norobots_testsite::{OriginSpec, Response, Site};
///
/// let site = Site::new().origin(OriginSpec::new("a")).start().unwrap();
/// let url = site.url("a", "/x");
/// assert_eq!(url, format!("{}/x", site.origin("a")));
/// assert_eq!(site.count("a", "/x"), 0);
/// assert!(!site.requested("a", "/x"));
/// ```
pub struct RunningSite {
    addrs: Vec<(String, SocketAddr)>,
    shared: Arc<Shared>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl RunningSite {
    /// `http://127.0.0.1:PORT` of the named origin.
    ///
    /// # Panics
    ///
    /// If the site has no such origin.
    ///
    /// ```
    /// # use norobots_testsite::{OriginSpec, Site};
    /// let site = Site::new().origin(OriginSpec::new("a")).start().unwrap();
    /// assert_eq!(site.origin("a"), format!("http://{}", site.addr("a")));
    /// ```
    pub fn origin(&self, name: &str) -> String {
        format!("http://{}", self.addr(name))
    }

    /// The full URL of `path` on the named origin.
    ///
    /// ```
    /// # use norobots_testsite::{OriginSpec, Site};
    /// let site = Site::new().origin(OriginSpec::new("a")).start().unwrap();
    /// assert!(site.url("a", "/index.html").ends_with("/index.html"));
    /// ```
    pub fn url(&self, name: &str, path: &str) -> String {
        format!("http://{}{path}", self.addr(name))
    }

    /// The socket address the named origin listens on.
    ///
    /// # Panics
    ///
    /// If the site has no such origin.
    ///
    /// ```
    /// # use norobots_testsite::{OriginSpec, Site};
    /// let site = Site::new().origin(OriginSpec::new("a")).start().unwrap();
    /// assert!(site.addr("a").ip().is_loopback());
    /// ```
    pub fn addr(&self, name: &str) -> SocketAddr {
        match self.addrs.iter().find(|(n, _)| n == name) {
            Some((_, addr)) => *addr,
            None => panic!("the site has no origin named {name:?}"),
        }
    }

    /// Every origin's name and URL, in the order they were added.
    ///
    /// ```
    /// # use norobots_testsite::{OriginSpec, Site};
    /// let site = Site::new().origin(OriginSpec::new("a")).origin(OriginSpec::new("b")).start().unwrap();
    /// let names: Vec<String> = site.origins().into_iter().map(|(name, _)| name).collect();
    /// assert_eq!(names, ["a", "b"]);
    /// ```
    pub fn origins(&self) -> Vec<(String, String)> {
        self.addrs
            .iter()
            .map(|(name, addr)| (name.clone(), format!("http://{addr}")))
            .collect()
    }

    /// A copy of the log, in arrival order.
    ///
    /// ```
    /// # use norobots_testsite::{OriginSpec, Site};
    /// let site = Site::new().origin(OriginSpec::new("a")).start().unwrap();
    /// assert!(site.requests().is_empty());
    /// ```
    pub fn requests(&self) -> Vec<Request> {
        self.with_log(|log| log.to_vec())
    }

    /// How many requests for exactly `path` (path and query, as sent)
    /// reached `origin`.
    ///
    /// ```
    /// # use norobots_testsite::{OriginSpec, Site};
    /// let site = Site::new().origin(OriginSpec::new("a")).start().unwrap();
    /// assert_eq!(site.count("a", "/robots.txt"), 0);
    /// ```
    pub fn count(&self, origin: &str, path: &str) -> usize {
        self.with_log(|log| log::count(log, origin, path))
    }

    /// Whether `path` on `origin` was requested at all.
    ///
    /// ```
    /// # use norobots_testsite::{OriginSpec, Site};
    /// let site = Site::new().origin(OriginSpec::new("h")).start().unwrap();
    /// assert!(!site.requested("h", "/robots.txt"));
    /// ```
    pub fn requested(&self, origin: &str, path: &str) -> bool {
        self.count(origin, path) > 0
    }

    /// Every distinct path and query requested on `origin`.
    ///
    /// ```
    /// # use norobots_testsite::{OriginSpec, Site};
    /// let site = Site::new().origin(OriginSpec::new("a")).start().unwrap();
    /// assert!(site.paths_requested("a").is_empty());
    /// ```
    pub fn paths_requested(&self, origin: &str) -> BTreeSet<String> {
        self.with_log(|log| log::paths(log, origin))
    }

    /// The smallest gap between the arrivals of two consecutive requests to
    /// `origin` (robots.txt included: its fetch is a request to the host
    /// like any other), or `None` with fewer than two.
    ///
    /// ```
    /// # use norobots_testsite::{OriginSpec, Site};
    /// let site = Site::new().origin(OriginSpec::new("a")).start().unwrap();
    /// assert_eq!(site.min_interval("a"), None);
    /// ```
    pub fn min_interval(&self, origin: &str) -> Option<Duration> {
        self.with_log(|log| log::min_interval(log, origin))
    }

    fn with_log<T>(&self, f: impl FnOnce(&[Request]) -> T) -> T {
        f(&self.shared.log.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Drop for RunningSite {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl std::fmt::Debug for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Site")
            .field("origins", &self.origins)
            .field("hook", &self.hook.is_some())
            .finish()
    }
}

impl std::fmt::Debug for RunningSite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunningSite")
            .field("addrs", &self.addrs)
            .finish_non_exhaustive()
    }
}
