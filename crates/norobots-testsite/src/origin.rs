//! What one origin (one loopback port) serves: fixed routes, answer
//! sequences, and an optional generator for everything else.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::Response;

/// Makes the answer for a path and query that no fixed route has; `None`
/// means 404.
pub(crate) type Generator = Arc<dyn Fn(&str) -> Option<Response> + Send + Sync>;

/// One origin of a [`Site`](crate::Site): a name, a port (the OS picks one
/// unless given) and what it answers, keyed by the exact path and query of
/// the request line (`/q?x=1&y=2`, `/nul%00byte.html`: no decoding, so a
/// robot's normalisation shows in the log).
///
/// ```
/// use norobots_testsite::{OriginSpec, Response};
///
/// let b = OriginSpec::new("b")
///     .route("/robots.txt", Response::not_found())
///     .route("/landing.html", Response::html("<a href=\"{origin:a}/index.html\">back</a>"));
/// assert_eq!(b.name(), "b");
/// assert_eq!(b.lookup("/landing.html").unwrap().status(), 200);
/// assert!(b.lookup("/other.html").is_none());
/// ```
#[derive(Clone)]
pub struct OriginSpec {
    pub(crate) name: String,
    pub(crate) port: u16,
    pub(crate) routes: HashMap<String, Vec<Response>>,
    pub(crate) generator: Option<Generator>,
}

impl OriginSpec {
    /// An origin that serves nothing yet (every path is a 404).
    ///
    /// ```
    /// let a = norobots_testsite::OriginSpec::new("a");
    /// assert!(a.lookup("/").is_none());
    /// ```
    pub fn new(name: &str) -> OriginSpec {
        OriginSpec {
            name: name.to_owned(),
            port: 0,
            routes: HashMap::new(),
            generator: None,
        }
    }

    /// The origin's name, as used in placeholders and in the request log.
    ///
    /// ```
    /// assert_eq!(norobots_testsite::OriginSpec::new("gen").name(), "gen");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Listen on this port of 127.0.0.1 instead of one the OS picks; 0
    /// means "any".
    ///
    /// ```
    /// use norobots_testsite::{OriginSpec, Site};
    ///
    /// let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    /// let site = Site::new().origin(OriginSpec::new("a").port(free)).start().unwrap();
    /// assert_eq!(site.addr("a").port(), free);
    /// ```
    pub fn port(mut self, port: u16) -> OriginSpec {
        self.port = port;
        self
    }

    /// Answer `path` (path and query, as on the request line) with
    /// `response`, every time.
    ///
    /// # Panics
    ///
    /// If the path already has a route: two routes for one path are a slip
    /// in the scenario, never intended.
    ///
    /// ```
    /// use norobots_testsite::{OriginSpec, Response};
    ///
    /// let a = OriginSpec::new("a").route("/q?x=1&y=2", Response::html("q"));
    /// assert!(a.lookup("/q?x=1&y=2").is_some());
    /// assert!(a.lookup("/q").is_none());
    /// ```
    pub fn route(self, path: &str, response: Response) -> OriginSpec {
        self.sequence(path, [response])
    }

    /// Answer the n-th request for `path` with the n-th response, and every
    /// later one with the last: a server that fails first and then
    /// recovers (`503` with `Retry-After`, then `200`).
    ///
    /// # Panics
    ///
    /// If `responses` is empty, or the path already has a route.
    ///
    /// ```
    /// use norobots_testsite::{OriginSpec, Response};
    ///
    /// let a = OriginSpec::new("a").sequence(
    ///     "/retry.html",
    ///     [Response::new(503).with_header("Retry-After", "1"), Response::html("ok")],
    /// );
    /// assert_eq!(a.lookup("/retry.html").unwrap().status(), 503);
    /// ```
    pub fn sequence(
        mut self,
        path: &str,
        responses: impl IntoIterator<Item = Response>,
    ) -> OriginSpec {
        let responses: Vec<Response> = responses.into_iter().collect();
        assert!(
            !responses.is_empty(),
            "{}: no response for {path}",
            self.name
        );
        let old = self.routes.insert(path.to_owned(), responses);
        assert!(old.is_none(), "{}: two routes for {path}", self.name);
        self
    }

    /// Make answers on the fly for paths without a fixed route, so large
    /// sites need no memory per page. The function gets the path and query
    /// and returns `None` for a 404. It runs on every request, so it should
    /// be quick.
    ///
    /// ```
    /// use norobots_testsite::{OriginSpec, Response};
    ///
    /// let gen = OriginSpec::new("gen").generate(|path| {
    ///     let n: u32 = path.strip_prefix("/p/")?.strip_suffix(".html")?.parse().ok()?;
    ///     Some(Response::html(format!("<a href=\"/p/{}.html\">next</a>", n + 1)))
    /// });
    /// assert_eq!(gen.lookup("/p/7.html").unwrap().body(), b"<a href=\"/p/8.html\">next</a>");
    /// assert!(gen.lookup("/p/x.html").is_none());
    /// ```
    pub fn generate(
        mut self,
        generator: impl Fn(&str) -> Option<Response> + Send + Sync + 'static,
    ) -> OriginSpec {
        self.generator = Some(Arc::new(generator));
        self
    }

    /// The first answer `path` gets (fixed route, else the generator), or
    /// `None` for a 404; nothing is counted, so sequences do not advance.
    ///
    /// ```
    /// use norobots_testsite::{OriginSpec, Response};
    ///
    /// let a = OriginSpec::new("a").route("/", Response::html("home"));
    /// assert_eq!(a.lookup("/").unwrap().body(), b"home");
    /// ```
    pub fn lookup(&self, path: &str) -> Option<Response> {
        match self.routes.get(path) {
            Some(answers) => answers.first().cloned(),
            None => self.generator.as_ref().and_then(|g| g(path)),
        }
    }

    /// The paths with a fixed route, sorted.
    ///
    /// ```
    /// use norobots_testsite::{OriginSpec, Response};
    ///
    /// let a = OriginSpec::new("a").route("/b", Response::html("")).route("/a", Response::html(""));
    /// assert_eq!(a.paths(), ["/a", "/b"]);
    /// ```
    pub fn paths(&self) -> Vec<&str> {
        let mut paths: Vec<&str> = self.routes.keys().map(String::as_str).collect();
        paths.sort_unstable();
        paths
    }
}

impl fmt::Debug for OriginSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OriginSpec")
            .field("name", &self.name)
            .field("port", &self.port)
            .field("routes", &self.routes.len())
            .field("generator", &self.generator.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "a: two routes for /x")]
    fn a_path_has_one_route() {
        let _ = OriginSpec::new("a")
            .route("/x", Response::html("1"))
            .route("/x", Response::html("2"));
    }

    #[test]
    #[should_panic(expected = "no response for /x")]
    fn a_sequence_is_not_empty() {
        let _ = OriginSpec::new("a").sequence("/x", []);
    }

    #[test]
    fn fixed_routes_come_before_the_generator() {
        let a = OriginSpec::new("a")
            .route("/fixed", Response::html("fixed"))
            .generate(|p| Some(Response::html(format!("made {p}"))));
        assert_eq!(a.lookup("/fixed").unwrap().body(), b"fixed");
        assert_eq!(a.lookup("/other").unwrap().body(), b"made /other");
    }
}
