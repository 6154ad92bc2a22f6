//! The crawl log: one JSON object per URL the crawl decided about, in the
//! order the decisions were recorded, each URL exactly once.
//!
//! The lines are written from the store's final decisions, never from
//! memory: after each batch the writer records in the store how far it got
//! (the last `seq` and the file's length then). A run killed at any moment
//! is resumed by cutting the file back to the recorded length and writing
//! again from the recorded `seq`, so no line is lost and none is written
//! twice.
//!
//! ```json
//! {"url":"http://a.test/private/x","decision":"disallowed","reason":{"kind":"robots","robots_url":"http://a.test/robots.txt","line":2,"rule":"Disallow: /private/"},"status":null,"bytes":null,"depth":1,"parent":"http://a.test/","via":"link","time":"2026-12-03T10:00:00.123Z"}
//! ```

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

use serde::Serialize;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use crate::decision::{Decision, Reason};
use crate::store::{Decided, Store, StoreError};

/// One line of the log.
#[derive(Serialize)]
struct Line<'a> {
    url: &'a str,
    decision: Decision,
    reason: Option<&'a Reason>,
    status: Option<u16>,
    bytes: Option<u64>,
    depth: u32,
    parent: Option<&'a str>,
    via: &'static str,
    time: String,
}

/// A time in milliseconds since the epoch, as RFC 3339 in UTC.
///
/// ```
/// assert_eq!(norobots_crawl::log::rfc3339_ms(784_111_777_250), "1994-11-06T08:49:37.25Z");
/// ```
pub fn rfc3339_ms(ms: i64) -> String {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default()
}

/// The JSON line of a decision, without its line break.
///
/// ```
/// use norobots_crawl::store::{Decided, Final, Via};
/// use norobots_crawl::{log::line, Decision};
///
/// let d = Decided { seq: 1, url: "http://a.test/".into(), depth: 0, parent: None, via: Via::Start,
///                   outcome: Final { decision: Decision::Fetched, reason: None, status: Some(200), bytes: Some(5), time: 0 } };
/// assert_eq!(line(&d), r#"{"url":"http://a.test/","decision":"fetched","reason":null,"status":200,"bytes":5,"depth":0,"parent":null,"via":"start","time":"1970-01-01T00:00:00Z"}"#);
/// ```
pub fn line(d: &Decided) -> String {
    let line = Line {
        url: &d.url,
        decision: d.outcome.decision,
        reason: d.outcome.reason.as_ref(),
        status: d.outcome.status,
        bytes: d.outcome.bytes,
        depth: d.depth,
        parent: d.parent.as_deref(),
        via: d.via.as_str(),
        time: rfc3339_ms(d.outcome.time),
    };
    serde_json::to_string(&line).unwrap_or_default()
}

/// Writes the log file from the store.
pub struct LogWriter {
    out: BufWriter<File>,
    /// The last `seq` written.
    seq: i64,
    len: u64,
}

impl LogWriter {
    /// Opens the log at `path` for the crawl in `store`: cut back to where
    /// the store says the last run got (a new crawl starts it empty).
    pub async fn open(path: &Path, store: &impl Store) -> Result<LogWriter, LogError> {
        let (seq, len) = store.log_mark().await?;
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(|e| LogError::Io(path.display().to_string(), e))?;
        file.set_len(len)
            .and_then(|()| file.seek(SeekFrom::Start(len)).map(drop))
            .map_err(|e| LogError::Io(path.display().to_string(), e))?;
        Ok(LogWriter {
            out: BufWriter::with_capacity(1 << 16, file),
            seq,
            len,
        })
    }

    /// Writes every decision recorded since the last call, then records
    /// how far the file got. Returns how many lines were written.
    pub async fn catch_up(&mut self, store: &impl Store) -> Result<u64, LogError> {
        let mut written = 0;
        store.flush().await?;
        loop {
            let rows = store.decided_after(self.seq, 4096).await?;
            if rows.is_empty() {
                break;
            }
            for row in &rows {
                let mut text = line(row);
                text.push('\n');
                self.out
                    .write_all(text.as_bytes())
                    .map_err(LogError::write)?;
                self.len += text.len() as u64;
                self.seq = row.seq;
                written += 1;
            }
        }
        if written > 0 {
            self.out.flush().map_err(LogError::write)?;
            store.set_log_mark(self.seq, self.len).await?;
        }
        Ok(written)
    }
}

/// The log could not be written.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The file failed.
    #[error("crawl log `{0}`: {1}")]
    Io(String, io::Error),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl LogError {
    fn write(e: io::Error) -> LogError {
        LogError::Io("(log)".into(), e)
    }
}
