//! Answering one request: pick the answer, log the request, then send
//! (late, never, or broken, as the answer says).

use std::collections::HashMap;
use std::convert::Infallible;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use bytes::Bytes;
use flate2::write::GzEncoder;
use flate2::Compression;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Channel, Full};
use hyper::body::{Frame, Incoming};
use hyper::header::{HeaderName, HeaderValue, CONTENT_LENGTH, USER_AGENT};
use hyper::{HeaderMap, StatusCode};

use crate::origin::Generator;
use crate::placeholder::expand;
use crate::response::Delivery;
use crate::{Request, Response};

pub(crate) type Body = BoxBody<Bytes, io::Error>;
pub(crate) type Hook = Arc<dyn Fn(&Request) + Send + Sync>;

/// A response with placeholders replaced and headers checked, ready to go
/// out as many times as asked.
#[derive(Debug)]
pub(crate) struct Rendered {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
    delay: Duration,
    delivery: Delivery,
}

/// Origin URLs by name.
pub(crate) type Urls = HashMap<String, String>;

/// Why a response cannot be rendered.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum RenderError {
    Unknown(String),
    Bad(String),
}

pub(crate) fn render(response: &Response, urls: &Urls) -> Result<Rendered, RenderError> {
    let lookup = |name: &str| urls.get(name).map(String::as_str);
    let status = StatusCode::from_u16(response.status)
        .map_err(|_| RenderError::Bad(format!("status {}", response.status)))?;
    let mut headers = HeaderMap::new();
    for (name, value) in &response.headers {
        let bad = || RenderError::Bad(format!("header {name:?}: {value:?}"));
        let value = expand(&Bytes::copy_from_slice(value.as_bytes()), lookup)
            .map_err(RenderError::Unknown)?;
        let name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| bad())?;
        let value = HeaderValue::from_maybe_shared(value).map_err(|_| bad())?;
        headers.append(name, value);
    }
    let mut body = expand(&response.body, lookup).map_err(RenderError::Unknown)?;
    if response.gzip {
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(&body).expect("writing to memory cannot fail");
        body = gz.finish().expect("writing to memory cannot fail").into();
    }
    Ok(Rendered {
        status,
        headers,
        body,
        delay: response.delay,
        delivery: response.delivery,
    })
}

/// A fixed route: its answers and how often it was asked.
pub(crate) struct Route {
    answers: Vec<Arc<Rendered>>,
    hits: AtomicUsize,
}

impl Route {
    pub(crate) fn new(answers: Vec<Rendered>) -> Route {
        Route {
            answers: answers.into_iter().map(Arc::new).collect(),
            hits: AtomicUsize::new(0),
        }
    }

    fn next(&self) -> Arc<Rendered> {
        let n = self.hits.fetch_add(1, Relaxed);
        self.answers[n.min(self.answers.len() - 1)].clone()
    }
}

/// One origin as it is served.
pub(crate) struct Served {
    pub(crate) name: String,
    pub(crate) routes: HashMap<String, Route>,
    pub(crate) generator: Option<Generator>,
    pub(crate) urls: Arc<Urls>,
    pub(crate) not_found: Arc<Rendered>,
}

impl Served {
    fn answer(&self, path: &str) -> Arc<Rendered> {
        if let Some(route) = self.routes.get(path) {
            return route.next();
        }
        let Some(made) = self.generator.as_ref().and_then(|g| g(path)) else {
            return self.not_found.clone();
        };
        match render(&made, &self.urls) {
            Ok(r) => Arc::new(r),
            // A generator's slip shows to the client rather than killing
            // the connection, so the test that hit it can say what it got.
            Err(e) => Arc::new(
                render(
                    &Response::text(format!("{path}: cannot render: {e:?}\n")).with_status(500),
                    &self.urls,
                )
                .expect("a plain 500 renders"),
            ),
        }
    }
}

/// What every connection of a site shares: the log and the connection
/// counter.
#[derive(Default)]
pub(crate) struct Shared {
    pub(crate) log: Mutex<Vec<Request>>,
    pub(crate) hook: Option<Hook>,
    pub(crate) connections: AtomicU64,
}

impl Shared {
    fn record(&self, request: Request) {
        if let Some(hook) = &self.hook {
            hook(&request);
        }
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(request);
    }
}

pub(crate) async fn handle(
    origin: Arc<Served>,
    shared: Arc<Shared>,
    connection: u64,
    request: hyper::Request<Incoming>,
) -> Result<hyper::Response<Body>, Infallible> {
    let at = Instant::now();
    let path = request.uri().path_and_query().map_or("/", |p| p.as_str());
    let answer = origin.answer(path);
    shared.record(Request {
        origin: origin.name.clone(),
        method: request.method().as_str().to_owned(),
        path_and_query: path.to_owned(),
        user_agent: request
            .headers()
            .get(USER_AGENT)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned()),
        connection,
        at,
        time: SystemTime::now(),
        status: match answer.delivery {
            Delivery::Hang => 0,
            _ => answer.status.as_u16(),
        },
    });
    if !answer.delay.is_zero() {
        tokio::time::sleep(answer.delay).await;
    }
    let body = match answer.delivery {
        Delivery::Whole => Full::new(answer.body.clone())
            .map_err(|never| match never {})
            .boxed(),
        Delivery::Hang => match std::future::pending::<Infallible>().await {},
        Delivery::BreakAfter(sent) => {
            let sent = sent.min(answer.body.len().saturating_sub(1));
            let (mut tx, body) = Channel::<Bytes, io::Error>::new(1);
            let head = answer.body.slice(..sent);
            tokio::spawn(async move {
                let _ = tx.send(Frame::data(head)).await;
                // hyper drops unflushed bytes when a body fails, so the
                // failure waits until the first part is on the wire.
                tokio::time::sleep(Duration::from_millis(50)).await;
                tx.abort(io::Error::other("connection broken on purpose"));
            });
            body.boxed()
        }
    };
    let mut response = hyper::Response::new(body);
    *response.status_mut() = answer.status;
    *response.headers_mut() = answer.headers.clone();
    if answer.delivery != Delivery::Whole && !answer.headers.contains_key(CONTENT_LENGTH) {
        // The full length, so the client sees a short body, not a
        // body ended by the close.
        response
            .headers_mut()
            .insert(CONTENT_LENGTH, answer.body.len().into());
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls() -> Urls {
        [("a".to_owned(), "http://127.0.0.1:1".to_owned())].into()
    }

    #[test]
    fn render_fills_headers_and_body() {
        let r = render(
            &Response::redirect(301, "{origin:a}/x").with_body("see {origin:a}/x"),
            &urls(),
        )
        .unwrap();
        assert_eq!(r.status, StatusCode::MOVED_PERMANENTLY);
        assert_eq!(r.headers["location"], "http://127.0.0.1:1/x");
        assert_eq!(&r.body[..], b"see http://127.0.0.1:1/x");
    }

    #[test]
    fn render_rejects_what_cannot_be_sent() {
        let bad = |r: Response| render(&r, &urls()).unwrap_err();
        assert_eq!(
            bad(Response::new(1000)),
            RenderError::Bad("status 1000".into())
        );
        assert!(matches!(
            bad(Response::new(200).with_header("a b", "c")),
            RenderError::Bad(_)
        ));
        assert!(matches!(
            bad(Response::new(200).with_header("x", "a\nb")),
            RenderError::Bad(_)
        ));
        assert_eq!(
            bad(Response::html("{origin:b}")),
            RenderError::Unknown("b".into())
        );
    }

    #[test]
    fn gzip_comes_after_the_placeholders() {
        let r = render(&Response::text("{origin:a}/x").gzipped(), &urls()).unwrap();
        let mut plain = String::new();
        io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&r.body[..]), &mut plain)
            .unwrap();
        assert_eq!(plain, "http://127.0.0.1:1/x");
    }

    #[test]
    fn a_route_repeats_its_last_answer() {
        let route = Route::new(vec![
            render(&Response::new(503), &urls()).unwrap(),
            render(&Response::new(200), &urls()).unwrap(),
        ]);
        let statuses: Vec<u16> = (0..4).map(|_| route.next().status.as_u16()).collect();
        assert_eq!(statuses, [503, 200, 200, 200]);
    }
}
