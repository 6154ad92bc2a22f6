//! The request log: one entry per request, written when the request
//! arrives and before it is answered, so the log is complete as soon as the
//! client is done, whatever the answer's delay.

use std::collections::BTreeSet;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// One request the site received.
///
/// ```
/// use std::time::{Instant, SystemTime};
/// use norobots_testsite::Request;
///
/// let r = Request {
///     origin: "a".into(),
///     method: "GET".into(),
///     path_and_query: "/q?x=1&y=2".into(),
///     user_agent: Some("norobots/0.1".into()),
///     connection: 1,
///     at: Instant::now(),
///     time: SystemTime::UNIX_EPOCH,
///     status: 200,
/// };
/// assert_eq!(
///     r.to_json(),
///     r#"{"connection":1,"method":"GET","origin":"a","path":"/q?x=1&y=2","status":200,"time":0.0,"user_agent":"norobots/0.1"}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The origin's name (`"a"`), not its URL.
    pub origin: String,
    /// `GET`, `HEAD`, …
    pub method: String,
    /// The path and query exactly as on the request line, never decoded.
    pub path_and_query: String,
    /// The `User-Agent` header, if any (lossily decoded).
    pub user_agent: Option<String>,
    /// Which TCP connection carried it: numbered from 1 per site in accept
    /// order, so requests sharing a number reused a kept-alive connection.
    pub connection: u64,
    /// When it arrived, for intervals.
    pub at: Instant,
    /// When it arrived, for people.
    pub time: SystemTime,
    /// The status the site answers with; 0 for an answer that never comes.
    pub status: u16,
}

impl Request {
    /// The request as one line of JSON (keys sorted; `time` in seconds
    /// since the Unix epoch), as the binary writes its log.
    ///
    /// ```
    /// # use std::time::{Instant, SystemTime, Duration};
    /// # let r = norobots_testsite::Request {
    /// #     origin: "g".into(), method: "GET".into(), path_and_query: "/robots.txt".into(),
    /// #     user_agent: None, connection: 3, at: Instant::now(),
    /// #     time: SystemTime::UNIX_EPOCH + Duration::from_millis(1500), status: 0 };
    /// let line: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    /// assert_eq!(line["time"], 1.5);
    /// assert_eq!(line["user_agent"], serde_json::Value::Null);
    /// ```
    pub fn to_json(&self) -> String {
        let time = self
            .time
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs_f64();
        serde_json::json!({
            "origin": self.origin,
            "method": self.method,
            "path": self.path_and_query,
            "user_agent": self.user_agent,
            "connection": self.connection,
            "time": time,
            "status": self.status,
        })
        .to_string()
    }
}

pub(crate) fn count(log: &[Request], origin: &str, path: &str) -> usize {
    log.iter()
        .filter(|r| r.origin == origin && r.path_and_query == path)
        .count()
}

pub(crate) fn paths(log: &[Request], origin: &str) -> BTreeSet<String> {
    log.iter()
        .filter(|r| r.origin == origin)
        .map(|r| r.path_and_query.clone())
        .collect()
}

/// The smallest gap between two consecutive arrivals at `origin`.
pub(crate) fn min_interval(log: &[Request], origin: &str) -> Option<Duration> {
    let mut times: Vec<Instant> = log
        .iter()
        .filter(|r| r.origin == origin)
        .map(|r| r.at)
        .collect();
    // Entries are pushed in arrival order, but sorting costs little and
    // keeps the answer right if two connections race to the lock.
    times.sort_unstable();
    times.windows(2).map(|w| w[1] - w[0]).min()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(base: Instant, origin: &str, path: &str, ms: u64) -> Request {
        Request {
            origin: origin.into(),
            method: "GET".into(),
            path_and_query: path.into(),
            user_agent: None,
            connection: 1,
            at: base + Duration::from_millis(ms),
            time: SystemTime::now(),
            status: 200,
        }
    }

    #[test]
    fn min_interval_is_per_origin_and_order_free() {
        let t = Instant::now();
        let log = [
            at(t, "a", "/1", 0),
            at(t, "b", "/1", 10),
            at(t, "a", "/3", 700),
            at(t, "a", "/2", 250),
        ];
        assert_eq!(min_interval(&log, "a"), Some(Duration::from_millis(250)));
        assert_eq!(min_interval(&log, "b"), None);
        assert_eq!(min_interval(&log, "c"), None);
    }

    #[test]
    fn counts_and_paths() {
        let t = Instant::now();
        let log = [
            at(t, "a", "/robots.txt", 0),
            at(t, "a", "/x", 1),
            at(t, "a", "/x", 2),
            at(t, "b", "/y", 3),
        ];
        assert_eq!(count(&log, "a", "/x"), 2);
        assert_eq!(count(&log, "b", "/x"), 0);
        assert_eq!(
            paths(&log, "a").into_iter().collect::<Vec<_>>(),
            ["/robots.txt", "/x"]
        );
    }
}
