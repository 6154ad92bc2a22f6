//! Python bindings of norobots: the extension module `norobots._norobots`,
//! which the `norobots` package (`python/norobots/`) re-exports.
//!
//! A thin layer over the core's public API, called as the CLI calls it:
//! `Robots::parse_with` and `Robots::matcher` for `check`,
//! `Matcher::check_bytes` for `--explain`, `norobots::is_allowed_with` for
//! the one-shot check, `PageDirectives::from_headers(..).combine(from_html)`
//! for `meta`, and `norobots::agent_note` (the words the CLI prints) for
//! what it says about an agent. Nothing here decides a URL.
//!
//! The doc comments of the items exported to Python are their docstrings:
//! their examples are Python, run by the pytest suite (`tests/test_docs.py`).
//!
//! Every call into the core that reads what the caller gave (a body, a
//! URL, an agent, a page) goes through `guard`, so that a panic, were
//! there one, reaches Python as `norobots.InternalError` (a `RuntimeError`)
//! rather than PyO3's `PanicException`, which derives from `BaseException`
//! and slips past a crawler's `except Exception`.

use std::borrow::Cow;
use std::ops::Deref;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use norobots::meta::{DocumentState, PageDirectives as CorePage};
use norobots::{Dialect, Matcher, ParseOptions, Robots as CoreRobots};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

// `guard` turns panics into exceptions by unwinding; a build that aborts
// on panic would take the interpreter down with it instead.
#[cfg(panic = "abort")]
compile_error!("norobots-py needs panic = \"unwind\": see `guard`");

create_exception!(
    norobots,
    InternalError,
    PyRuntimeError,
    "A bug in norobots (a Rust panic), raised instead of crashing the interpreter.\n\n\
     Please report it with the input that caused it."
);

/// Input longer than this many octets is read with the GIL released, so
/// that other Python threads run meanwhile; shorter input costs less than
/// releasing and taking back the lock.
const DETACH_ABOVE: usize = 64 * 1024;

/// How many agents' matchers one `Robots` keeps (a crawler asks for one or
/// two; the oldest is dropped past this).
const MATCHERS_KEPT: usize = 8;

/// Runs `f`, turning a panic into `InternalError` naming `what`.
fn guard<T>(what: &str, f: impl FnOnce() -> T) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| panic_error(what, payload.as_ref()))
}

fn panic_error(what: &str, payload: &(dyn std::any::Any + Send)) -> PyErr {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned());
    InternalError::new_err(format!(
        "internal error in {what}: {message} (a bug in norobots: please report it)"
    ))
}

/// Runs `f` with the GIL released when `len` octets make it worth it,
/// catching a panic on the way.
fn detached<T: Send>(
    py: Python<'_>,
    len: usize,
    what: &str,
    f: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    if len > DETACH_ABOVE {
        py.detach(|| catch_unwind(AssertUnwindSafe(f)))
            .map_err(|payload| panic_error(what, payload.as_ref()))
    } else {
        guard(what, f)
    }
}

/// Octets from Python: `bytes` or `bytearray` as they are, `str` as UTF-8.
enum Octets {
    Bytes(PyBackedBytes),
    Str(PyBackedStr),
    /// A `str`'s own UTF-8 (see [`utf8_of`]), kept alive by its owner.
    Utf8 {
        _owner: Py<PyString>,
        ptr: *const u8,
        len: usize,
    },
}

// SAFETY: `Utf8` points into the UTF-8 that CPython keeps inside the `str`
// object `_owner` holds a reference to: it lives as long as the object,
// and a `str` never changes, so reading it from any thread, with or
// without the GIL, is reading immutable memory. The other variants are
// PyO3's own `Send + Sync` types.
unsafe impl Send for Octets {}
// SAFETY: as for `Send`: nothing in an `Octets` is ever written.
unsafe impl Sync for Octets {}

impl Deref for Octets {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Octets::Bytes(b) => b,
            Octets::Str(s) => s.as_bytes(),
            // SAFETY: see `unsafe impl Send for Octets`; `ptr` and `len`
            // came from `PyUnicode_AsUTF8AndSize` on the owned object.
            Octets::Utf8 { ptr, len, .. } => unsafe { std::slice::from_raw_parts(*ptr, *len) },
        }
    }
}

/// Whether the interpreter has `PyUnicode_AsUTF8AndSize` in its stable ABI
/// (3.10 and later): set when the module loads.
static UTF8_IN_STABLE_ABI: AtomicBool = AtomicBool::new(false);

extern "C" {
    // Part of the stable ABI since Python 3.10, and so left out of PyO3's
    // declarations in a build for 3.9; called only where the running
    // interpreter is 3.10 or later.
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut pyo3::ffi::PyObject,
        size: *mut pyo3::ffi::Py_ssize_t,
    ) -> *const std::os::raw::c_char;
}

/// A `str`'s UTF-8 without copying it, where the interpreter allows (3.10
/// and later, a string UTF-8 can encode): CPython keeps a compact ASCII
/// string's octets as its UTF-8, and caches any other's in the object, so a
/// URL asked about twice is encoded once. `None` elsewhere, and for lone
/// surrogates, with no exception left set.
fn utf8_of(text: &Bound<'_, PyString>) -> Option<Octets> {
    if !UTF8_IN_STABLE_ABI.load(Ordering::Relaxed) {
        return None;
    }
    let mut len: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `text` is a live `str` and we hold the GIL (the `Bound`).
    let ptr = unsafe { PyUnicode_AsUTF8AndSize(text.as_ptr(), &mut len) };
    if ptr.is_null() {
        // Surrogates: UTF-8 cannot encode them. Clear the error; the
        // caller encodes them its own way.
        drop(PyErr::take(text.py()));
        return None;
    }
    Some(Octets::Utf8 {
        _owner: text.clone().unbind(),
        ptr: ptr.cast(),
        len: usize::try_from(len).ok()?,
    })
}

/// Reads `obj` as octets; `what` names the argument in the `TypeError`.
///
/// A `str` that UTF-8 cannot encode (lone surrogates, as `os.fsdecode` and
/// `errors="surrogateescape"` make for undecodable octets) gives back the
/// octets it was decoded from, and any other surrogate U+FFFD: a URL or a
/// body from a stranger is answered, never refused.
fn octets(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Octets> {
    if let Ok(text) = obj.cast::<PyString>() {
        if let Some(octets) = utf8_of(text) {
            return Ok(octets);
        }
        return match PyBackedStr::try_from(text.clone()) {
            Ok(text) => Ok(Octets::Str(text)),
            Err(_) => {
                let encoded = obj
                    .call_method1("encode", ("utf-8", "surrogateescape"))
                    .or_else(|_| obj.call_method1("encode", ("utf-8", "replace")))?;
                Ok(Octets::Bytes(encoded.extract()?))
            }
        };
    }
    match obj.extract::<PyBackedBytes>() {
        Ok(bytes) => Ok(Octets::Bytes(bytes)),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{what} must be str or bytes, not {}",
            obj.get_type().name()?
        ))),
    }
}

/// Python's `repr()` of a value.
fn repr<'py, T: IntoPyObject<'py>>(py: Python<'py>, value: T) -> PyResult<String> {
    Ok(value.into_bound_py_any(py)?.repr()?.to_string())
}

/// A dialect named as the CLI's `--dialect` names it (any case), or the
/// CLI's default when none is given.
fn dialect_or_default(name: Option<PyBackedStr>) -> PyResult<Dialect> {
    match name {
        None => Ok(Dialect::default()),
        Some(name) => name
            .parse::<Dialect>()
            .map_err(|e| PyValueError::new_err(e.to_string())),
    }
}

/// `None` for an agent that can name groups in `dialect`; otherwise what
/// `norobots check` warns about it, without its `warning: ` prefix. `*`
/// asks for the `*` groups on purpose, and passes.
fn agent_problem(dialect: Dialect, agent: &str) -> PyResult<Option<String>> {
    if agent == "*" {
        return Ok(None);
    }
    guard("reading the agent", || {
        norobots::agent_note(dialect, agent)
            .and_then(|note| note.strip_prefix("warning: ").map(str::to_owned))
    })
}

fn check_agent(dialect: Dialect, agent: &str) -> PyResult<()> {
    match agent_problem(dialect, agent)? {
        Some(problem) => Err(PyValueError::new_err(problem)),
        None => Ok(()),
    }
}

/// One agent's compiled rules, kept by a `Robots`.
struct Kept {
    /// The `str` the caller passed: the same object next time is found
    /// without reading it.
    object: Py<PyString>,
    text: String,
    matcher: Arc<Matcher>,
}

/// A parsed robots.txt file: ask it whether a robot may fetch a URL.
///
/// ``Robots(body, dialect="rfc9309")`` reads ``body`` (``bytes`` as
/// served, or ``str``) in one of the dialects of the ``norobots`` command
/// line: ``norobots1994``, ``draft1996``, ``rfc9309`` (the default) or
/// ``google``. Reading never fails: what a dialect cannot understand, it
/// ignores. An unknown dialect raises ``ValueError``.
///
/// Each method takes the robot's ``agent``: its product token (``"MyBot"``)
/// or its whole User-Agent header, read as the dialect says. An agent that
/// can match only the ``*`` groups (empty, no product token, or in
/// ``google`` anything but a bare token) raises ``ValueError`` with the
/// warning the CLI prints for it; pass ``"*"`` to ask for the ``*`` groups.
/// The rules for an agent are compiled on first use and kept.
///
/// URLs are full URLs or paths, ``str`` or ``bytes`` (decided on their
/// octets, as ``norobots check`` does).
///
/// >>> import norobots
/// >>> robots = norobots.Robots(b"User-agent: *\nDisallow: /private/\nAllow: /private/help\n")
/// >>> robots.is_allowed("MyBot", "https://example.com/private/data")
/// False
/// >>> robots.is_allowed("MyBot/2.0", "https://example.com/private/help")
/// True
/// >>> norobots.Robots(b"", dialect="rfc")
/// Traceback (most recent call last):
///     ...
/// ValueError: unknown dialect `rfc` (expected norobots1994, draft1996, rfc9309 or google)
#[pyclass(module = "norobots", frozen)]
struct Robots {
    robots: CoreRobots,
    kept: Mutex<Vec<Kept>>,
}

impl Robots {
    fn kept(&self) -> MutexGuard<'_, Vec<Kept>> {
        // A panic while it was held left nothing half-written (a push or
        // a remove): the list is still good.
        self.kept
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// `f` of the matcher for `agent`, compiled on first use; a panic in
    /// `f` is an `InternalError` naming `what`. On the common path (the
    /// agent asked before) `f` runs under the lock, with nothing cloned;
    /// `f` never calls into Python, and a thread holding the lock holds the
    /// GIL, so no thread waits for the lock while another waits for it.
    fn with_matcher<R>(
        &self,
        py: Python<'_>,
        agent: &Bound<'_, PyString>,
        what: &str,
        f: impl FnOnce(&Matcher) -> R,
    ) -> PyResult<R> {
        {
            let kept = self.kept();
            if let Some(k) = kept.iter().find(|k| k.object.as_ptr() == agent.as_ptr()) {
                return guard(what, || f(&k.matcher));
            }
        }
        let matcher = self.matcher(py, agent)?;
        guard(what, || f(&matcher))
    }

    /// The matcher for `agent`, compiled on first use.
    fn matcher(&self, py: Python<'_>, agent: &Bound<'_, PyString>) -> PyResult<Arc<Matcher>> {
        {
            let kept = self.kept();
            if let Some(k) = kept.iter().find(|k| k.object.as_ptr() == agent.as_ptr()) {
                return Ok(Arc::clone(&k.matcher));
            }
        }
        let text = agent.to_cow()?;
        {
            let mut kept = self.kept();
            if let Some(k) = kept.iter_mut().find(|k| k.text == text) {
                k.object = agent.clone().unbind();
                return Ok(Arc::clone(&k.matcher));
            }
        }
        let dialect = self.robots.dialect();
        check_agent(dialect, &text)?;
        let robots = &self.robots;
        let matcher = detached(py, robots.body().len(), "Robots.matcher", || {
            Arc::new(robots.matcher(&text))
        })?;
        let mut kept = self.kept();
        if kept.len() >= MATCHERS_KEPT {
            kept.remove(0);
        }
        kept.push(Kept {
            object: agent.clone().unbind(),
            text: text.into_owned(),
            matcher: Arc::clone(&matcher),
        });
        Ok(matcher)
    }
}

#[pymethods]
impl Robots {
    #[new]
    #[pyo3(signature = (body, dialect = None))]
    fn new(
        py: Python<'_>,
        body: &Bound<'_, PyAny>,
        dialect: Option<PyBackedStr>,
    ) -> PyResult<Robots> {
        let dialect = dialect_or_default(dialect)?;
        let body = octets(body, "body")?;
        let robots = detached(py, body.len(), "Robots", || {
            CoreRobots::parse_with(&body, &ParseOptions::new(dialect))
        })?;
        Ok(Robots {
            robots,
            kept: Mutex::new(Vec::new()),
        })
    }

    /// Whether ``agent`` may fetch ``url``.
    ///
    /// >>> robots = Robots(b"User-agent: *\nDisallow: /*.pdf$\n")
    /// >>> robots.is_allowed("MyBot", "https://example.com/a.pdf")
    /// False
    /// >>> robots.is_allowed("MyBot", b"/a.pdf?page=2")
    /// True
    fn is_allowed(
        &self,
        py: Python<'_>,
        agent: &Bound<'_, PyString>,
        url: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let url = octets(url, "url")?;
        self.with_matcher(py, agent, "Robots.is_allowed", |matcher| {
            matcher.is_allowed_bytes(&url)
        })
    }

    /// Whether ``agent`` may fetch each of ``urls`` (any iterable of
    /// ``str`` or ``bytes``), in order: ``is_allowed`` for many URLs in one
    /// call, matched with the GIL released so that other threads run.
    ///
    /// >>> robots = Robots(b"User-agent: *\nDisallow: /tmp/\n")
    /// >>> robots.allowed_many("MyBot", ["/", "/tmp/a", b"/tmp"])
    /// [True, False, True]
    fn allowed_many<'py>(
        &self,
        py: Python<'py>,
        agent: &Bound<'py, PyString>,
        urls: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let matcher = self.matcher(py, agent)?;
        let urls = urls
            .try_iter()?
            .map(|url| octets(&url?, "each url"))
            .collect::<PyResult<Vec<Octets>>>()?;
        let answers = py
            .detach(|| {
                catch_unwind(AssertUnwindSafe(|| {
                    urls.iter()
                        .map(|url| matcher.is_allowed_bytes(url))
                        .collect::<Vec<bool>>()
                }))
            })
            .map_err(|payload| panic_error("Robots.allowed_many", payload.as_ref()))?;
        PyList::new(py, answers)
    }

    /// Whether ``agent`` may fetch ``url``, and why: an ``Explanation``
    /// with the deciding rule's text, its line, and its group (the line of
    /// the group's first ``User-agent`` and the agents it names); the rule
    /// is ``None`` when none matched, which allows.
    ///
    /// >>> robots = Robots(b"User-agent: *\nDisallow: /\n\nUser-agent: MyBot\nDisallow: /tmp/\n")
    /// >>> why = robots.explain("MyBot", "/tmp/a")
    /// >>> why.allowed, why.rule, why.line, why.group, why.agents
    /// (False, 'Disallow: /tmp/', 5, 4, ['MyBot'])
    /// >>> str(why)
    /// 'line 5: Disallow: /tmp/'
    /// >>> robots.explain("MyBot", "/index.html")
    /// Explanation(allowed=True, rule=None, line=None, group=None, agents=[])
    fn explain(
        &self,
        py: Python<'_>,
        agent: &Bound<'_, PyString>,
        url: &Bound<'_, PyAny>,
    ) -> PyResult<Explanation> {
        let url = octets(url, "url")?;
        self.with_matcher(py, agent, "Robots.explain", |matcher| {
            let verdict = matcher.check_bytes(&url);
            match verdict.rule {
                None => Explanation {
                    allowed: verdict.allowed,
                    rule: None,
                    kind: None,
                    pattern: None,
                    line: None,
                    group: None,
                    agents: Vec::new(),
                },
                Some(rule) => Explanation {
                    allowed: verdict.allowed,
                    rule: Some(format!("{}: {}", rule.kind.as_str(), rule.pattern)),
                    kind: Some(rule.kind.as_str()),
                    pattern: Some(rule.pattern.to_owned()),
                    line: Some(rule.line),
                    group: Some(rule.group_line),
                    agents: self
                        .robots
                        .groups()
                        .find(|group| group.line() == rule.group_line)
                        .map(|group| group.agents().map(Cow::into_owned).collect())
                        .unwrap_or_default(),
                },
            }
        })
    }

    /// The ``Crawl-delay`` for ``agent`` in seconds, or ``None``: from
    /// the first group that applies and gives a valid one.
    ///
    /// >>> Robots(b"User-agent: *\nCrawl-delay: 2.5\n").crawl_delay("MyBot")
    /// 2.5
    /// >>> Robots(b"User-agent: *\n").crawl_delay("MyBot") is None
    /// True
    fn crawl_delay(&self, py: Python<'_>, agent: &Bound<'_, PyString>) -> PyResult<Option<f64>> {
        self.with_matcher(py, agent, "Robots.crawl_delay", |matcher| {
            matcher.crawl_delay().map(|d| d.as_secs_f64())
        })
    }

    /// The ``Request-rate`` for ``agent`` as ``(requests, seconds)``, or
    /// ``None``: at most so many documents per so many seconds.
    ///
    /// >>> Robots(b"User-agent: *\nRequest-rate: 1/10m\n").request_rate("MyBot")
    /// (1, 600)
    fn request_rate(
        &self,
        py: Python<'_>,
        agent: &Bound<'_, PyString>,
    ) -> PyResult<Option<(u32, u32)>> {
        self.with_matcher(py, agent, "Robots.request_rate", |matcher| {
            matcher.request_rate().map(|r| (r.requests, r.seconds))
        })
    }

    /// The ``Sitemap`` URLs, in file order, wherever they are in the file.
    ///
    /// >>> Robots(b"Sitemap: https://example.com/a.xml\nUser-agent: *\nSitemap: /b.xml\n").sitemaps
    /// ['https://example.com/a.xml', '/b.xml']
    #[getter]
    fn sitemaps(&self) -> PyResult<Vec<String>> {
        guard("Robots.sitemaps", || {
            self.robots
                .sitemaps()
                .map(|field| field.value().into_owned())
                .collect()
        })
    }

    /// The dialect the file was read in.
    ///
    /// >>> Robots(b"", dialect="GOOGLE").dialect
    /// 'google'
    #[getter]
    fn dialect(&self) -> &'static str {
        self.robots.dialect().name()
    }

    /// The octets that were read.
    ///
    /// >>> Robots("User-agent: *\n").body
    /// b'User-agent: *\n'
    #[getter]
    fn body<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.robots.body())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.get();
        (slf.get_type(), (this.body(py), this.dialect())).into_pyobject(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "<norobots.Robots dialect={} groups={} bytes={}>",
            self.robots.dialect(),
            self.robots.groups().len(),
            self.robots.body().len()
        )
    }
}

/// Why a URL is allowed or not: what ``Robots.explain`` answers.
///
/// ``allowed``: the answer. ``rule``: the deciding rule as written
/// (``"Disallow: /tmp/"``), ``None`` when no rule matched (allowed).
/// ``kind`` (``"Allow"`` or ``"Disallow"``) and ``pattern``: its two parts.
/// ``line``: its line in the file. ``group``: the line of its group's first
/// ``User-agent``, and ``agents``: the agents that group names. ``str()``
/// gives what ``norobots check --explain`` appends to its line.
#[pyclass(module = "norobots", frozen, get_all)]
struct Explanation {
    /// Whether the robot may fetch the URL.
    allowed: bool,
    /// The deciding rule as written (``"Disallow: /tmp/"``), or ``None``
    /// when no rule matched.
    rule: Option<String>,
    /// ``"Allow"`` or ``"Disallow"``, or ``None``.
    kind: Option<&'static str>,
    /// The rule's path pattern as written, or ``None``.
    pattern: Option<String>,
    /// The rule's line in the file (from 1), or ``None``.
    line: Option<usize>,
    /// The line of the first ``User-agent`` of the rule's group, or ``None``.
    group: Option<usize>,
    /// The agents the rule's group names (empty when no rule matched).
    agents: Vec<String>,
}

#[pymethods]
impl Explanation {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Explanation(allowed={}, rule={}, line={}, group={}, agents={})",
            repr(py, self.allowed)?,
            repr(py, &self.rule)?,
            repr(py, self.line)?,
            repr(py, self.group)?,
            repr(py, &self.agents)?
        ))
    }

    fn __str__(&self) -> String {
        match (&self.rule, self.line) {
            (Some(rule), Some(line)) => format!("line {line}: {rule}"),
            _ => "no rule".to_owned(),
        }
    }
}

/// Whether ``agent`` may fetch ``url`` under the robots.txt ``body``: one
/// question, nothing kept. For more than one URL per file, make a
/// ``Robots`` once and ask it.
///
/// Same arguments and errors as ``Robots``.
///
/// >>> import norobots
/// >>> norobots.is_allowed(b"User-agent: *\nDisallow: /\nAllow: /public\n", "MyBot", "/public/a")
/// True
/// >>> norobots.is_allowed(b"User-agent: *\nDisallow: /\nAllow: /public\n", "MyBot", "/public/a",
/// ...                     dialect="draft1996")
/// False
#[pyfunction]
#[pyo3(signature = (body, agent, url, dialect = None))]
#[pyo3(text_signature = "(body, agent, url, dialect='rfc9309')")]
fn is_allowed(
    py: Python<'_>,
    body: &Bound<'_, PyAny>,
    agent: PyBackedStr,
    url: &Bound<'_, PyAny>,
    dialect: Option<PyBackedStr>,
) -> PyResult<bool> {
    let dialect = dialect_or_default(dialect)?;
    check_agent(dialect, &agent)?;
    let agent: &str = &agent;
    let body = octets(body, "body")?;
    let url = octets(url, "url")?;
    let options = ParseOptions::new(dialect);
    detached(py, body.len() + url.len(), "is_allowed", || {
        match std::str::from_utf8(&url) {
            Ok(url) => norobots::is_allowed_with(&body, &options, agent, url),
            // The one-shot check takes text; its answer is, by its
            // contract, that of a matcher, which takes octets too.
            Err(_) => CoreRobots::parse_with(&body, &options)
                .matcher(agent)
                .is_allowed_bytes(&url),
        }
    })
}

/// What a page tells a robot: ``norobots meta`` as a function.
///
/// ``html`` is the page (``str`` or ``bytes``), ``agent`` the robot
/// (``<meta name="robots">`` and a tag named after its product token apply
/// to it), ``x_robots_tag`` the ``X-Robots-Tag`` header values that came
/// with the page (a list, or one ``str``). The restrictive term wins.
///
/// >>> import norobots
/// >>> page = norobots.meta('<meta name="robots" content="noindex">'
/// ...                      '<a href="/a" rel="nofollow">a</a><a href="/b">b</a>', "MyBot",
/// ...                      x_robots_tag=["mybot: noarchive"])
/// >>> page.index, page.follow, page.other
/// (False, True, ['noarchive'])
/// >>> [(link.href, link.follow) for link in page.links]
/// [('/a', False), ('/b', True)]
#[pyfunction]
#[pyo3(signature = (html, agent, x_robots_tag = None))]
#[pyo3(text_signature = "(html, agent, x_robots_tag=[])")]
fn meta(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    agent: PyBackedStr,
    x_robots_tag: Option<&Bound<'_, PyAny>>,
) -> PyResult<PageDirectives> {
    let headers: Vec<String> = match x_robots_tag {
        None => Vec::new(),
        Some(one) if one.is_instance_of::<PyString>() => vec![one.extract()?],
        Some(many) => many.extract().map_err(|_| {
            PyTypeError::new_err("x_robots_tag must be a list of str (the header's values)")
        })?,
    };
    let html = octets(html, "html")?;
    let agent: &str = &agent;
    let page = detached(py, html.len(), "meta", || {
        CorePage::from_headers(headers.iter().map(String::as_str), agent)
            .combine(CorePage::from_html(&html, agent))
    })?;
    PageDirectives::new(py, page)
}

/// What a page allows a robot: what ``norobots.meta`` answers.
///
/// ``index`` and ``follow`` (and their opposites ``noindex``, ``nofollow``)
/// say whether the page may be indexed and its links followed; ``links``
/// are the page's ``<a href>`` and ``<area href>`` links, each with its own
/// ``rel="nofollow"`` and whether it may be ``follow``-ed. ``other`` holds
/// the other directives (``noarchive``, ``max-snippet:20``…).
/// ``to_dict()`` gives ``norobots meta --json``'s object.
#[pyclass(module = "norobots", frozen, get_all)]
struct PageDirectives {
    /// The page may be indexed: no ``noindex`` or ``none`` applies.
    index: bool,
    /// The page's links may be followed: no ``nofollow`` or ``none`` applies.
    follow: bool,
    /// The other directives that apply (``noarchive``, ``max-snippet:20``…).
    other: Vec<String>,
    /// ``<meta name="document-state">``: ``"static"``, ``"dynamic"`` or ``None``.
    document_state: Option<&'static str>,
    /// ``<meta name="url">``: where the page says it lives, or ``None``.
    url: Option<String>,
    /// ``<meta name="keywords">`` as written, or ``None``.
    keywords: Option<String>,
    /// ``<meta name="description">`` as written, or ``None``.
    description: Option<String>,
    /// ``<base href>`` as written, or ``None``.
    base: Option<String>,
    /// The page's ``<a href>`` and ``<area href>`` links, in document order.
    links: Vec<Py<Link>>,
}

/// A link of a page: its ``href`` as written, whether its ``rel`` says
/// ``nofollow``, whether the robot may ``follow`` it (the page allows and
/// the link does not refuse), and the ``kind`` of element it is in.
#[pyclass(module = "norobots", frozen, get_all)]
struct Link {
    /// The URL as written, entities decoded; not resolved against the page.
    href: String,
    /// The link's ``rel`` has ``nofollow``.
    nofollow: bool,
    /// The robot may follow it: the page allows, and the link does not refuse.
    follow: bool,
    /// The element it was found in: ``"a"`` or ``"area"``.
    kind: &'static str,
}

impl PageDirectives {
    fn new(py: Python<'_>, page: CorePage) -> PyResult<PageDirectives> {
        let links = page
            .links
            .iter()
            .map(|link| {
                Py::new(
                    py,
                    Link {
                        follow: page.may_follow(link),
                        href: link.href.clone(),
                        nofollow: link.nofollow,
                        kind: link.kind.element(),
                    },
                )
            })
            .collect::<PyResult<_>>()?;
        Ok(PageDirectives {
            index: page.index,
            follow: page.follow,
            document_state: page.document_state.map(|s| match s {
                DocumentState::Static => "static",
                DocumentState::Dynamic => "dynamic",
            }),
            links,
            other: page.other,
            url: page.url,
            keywords: page.keywords,
            description: page.description,
            base: page.base,
        })
    }
}

#[pymethods]
impl PageDirectives {
    /// ``not index``: the page asks not to be indexed.
    #[getter]
    fn noindex(&self) -> bool {
        !self.index
    }

    /// ``not follow``: the page asks that its links not be followed.
    #[getter]
    fn nofollow(&self) -> bool {
        !self.follow
    }

    /// The object ``norobots meta --json`` prints, as a ``dict``.
    ///
    /// >>> import norobots
    /// >>> norobots.meta('<meta name="robots" content="none">', "MyBot").to_dict()["follow"]
    /// False
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("description", &self.description)?;
        dict.set_item("document_state", self.document_state)?;
        dict.set_item("follow", self.follow)?;
        dict.set_item("index", self.index)?;
        dict.set_item("keywords", &self.keywords)?;
        let links = PyList::empty(py);
        for link in &self.links {
            let link = link.get();
            let item = PyDict::new(py);
            item.set_item("href", &link.href)?;
            item.set_item("nofollow", link.nofollow)?;
            item.set_item("follow", link.follow)?;
            links.append(item)?;
        }
        dict.set_item("links", links)?;
        dict.set_item("other", &self.other)?;
        dict.set_item("url", &self.url)?;
        Ok(dict)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "PageDirectives(index={}, follow={}, other={}, links={})",
            repr(py, self.index)?,
            repr(py, self.follow)?,
            repr(py, &self.other)?,
            self.links.len()
        ))
    }
}

#[pymethods]
impl Link {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Link(href={}, nofollow={}, follow={}, kind={})",
            repr(py, &self.href)?,
            repr(py, self.nofollow)?,
            repr(py, self.follow)?,
            repr(py, self.kind)?
        ))
    }
}

/// The robot's product token in a User-Agent header: the name RFC 9309
/// matches against ``User-agent`` lines, and the one to pass to the
/// ``google`` dialect.
///
/// >>> import norobots
/// >>> norobots.robot_token("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
/// 'Googlebot'
/// >>> norobots.robot_token("Scrapy/2.11 (+https://scrapy.org)")
/// 'Scrapy'
#[pyfunction]
fn robot_token(user_agent: PyBackedStr) -> PyResult<String> {
    guard("robot_token", || {
        norobots::robot_token(&user_agent).to_owned()
    })
}

/// What ``norobots check`` warns about ``agent`` in ``dialect``, when the
/// agent can match only the ``*`` groups there; ``None`` when it can name a
/// group. The ``ValueError`` that ``Robots`` raises for such an agent
/// carries this text.
///
/// >>> import norobots
/// >>> norobots.agent_warning("Googlebot/2.1", "google")[:55]
/// '`Googlebot/2.1` is not a product token the google diale'
/// >>> norobots.agent_warning("Googlebot/2.1") is None
/// True
#[pyfunction]
#[pyo3(signature = (agent, dialect = None))]
#[pyo3(text_signature = "(agent, dialect='rfc9309')")]
fn agent_warning(agent: PyBackedStr, dialect: Option<PyBackedStr>) -> PyResult<Option<String>> {
    agent_problem(dialect_or_default(dialect)?, &agent)
}

/// For the tests: panics inside the guard every call goes through, to show
/// that a panic becomes ``InternalError``.
#[pyfunction]
fn _panic_for_tests() -> PyResult<()> {
    guard("_panic_for_tests", || panic!("a panic on purpose"))
}

/// robots.txt in four dialects, from Rust: the extension module that the
/// ``norobots`` package re-exports.
#[pymodule(name = "_norobots")]
mod module {
    use super::*;

    #[pymodule_export]
    use super::{
        _panic_for_tests, agent_warning, is_allowed, meta, robot_token, Explanation, Link,
        PageDirectives, Robots,
    };

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        let py = m.py();
        UTF8_IN_STABLE_ABI.store(py.version_info() >= (3, 10), Ordering::Relaxed);
        m.add("InternalError", py.get_type::<InternalError>())?;
        m.add("DEFAULT_DIALECT", Dialect::default().name())?;
        m.add(
            "DIALECTS",
            PyTuple::new(py, Dialect::ALL.iter().map(|d| d.name()))?,
        )?;
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // `*` asks for the `*` groups on purpose; the CLI's warnings are kept
    // whole but for their `warning: ` prefix, and its notes are no error.
    #[test]
    fn an_agent_is_refused_only_where_the_cli_warns() {
        for dialect in Dialect::ALL {
            assert_eq!(agent_problem(dialect, "*").unwrap(), None, "{dialect}");
            assert_eq!(
                agent_problem(dialect, "ExampleBot").unwrap(),
                None,
                "{dialect}"
            );
            let empty = agent_problem(dialect, "").unwrap().unwrap();
            assert_eq!(
                empty,
                "the agent is empty: it matches no named group, only `*` groups"
            );
        }
        let header = "Mozilla/5.0 (compatible; ExampleBot/2.1)";
        assert!(norobots::agent_note(Dialect::Rfc9309, header)
            .unwrap()
            .starts_with("note: "));
        assert_eq!(agent_problem(Dialect::Rfc9309, header).unwrap(), None);
        let google = agent_problem(Dialect::Google, "ExampleBot/2.1")
            .unwrap()
            .unwrap();
        assert!(
            google.starts_with("`ExampleBot/2.1` is not a product token"),
            "{google}"
        );
    }

    #[test]
    fn a_panic_becomes_an_internal_error_naming_the_call() {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let err = guard("the test", || -> u8 { panic!("boom {}", 1) }).unwrap_err();
        let err2 = guard("the test", || -> u8 { std::panic::panic_any(7_u32) }).unwrap_err();
        std::panic::set_hook(hook);
        Python::initialize();
        Python::attach(|py| {
            assert!(err.is_instance_of::<InternalError>(py));
            assert_eq!(
                err.value(py).to_string(),
                "internal error in the test: boom 1 (a bug in norobots: please report it)"
            );
            assert!(err2.value(py).to_string().contains("unknown panic"));
        });
        assert_eq!(guard("the test", || 3).unwrap(), 3);
    }
}
