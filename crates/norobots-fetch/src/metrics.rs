//! What the cache counts for its operator: the public snapshot and the
//! counters behind it.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::Failure;

/// Counters a crawler operator watches, since the cache was made.
///
/// ```
/// let cache = norobots_fetch::RobotsCache::new(Default::default()).unwrap();
/// let m = cache.metrics();
/// assert_eq!((m.hits, m.misses, m.fetches), (0, 0, 0));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Metrics {
    /// Checks answered from a fresh entry.
    pub hits: u64,
    /// Checks that found no fresh entry and waited for a fetch.
    pub misses: u64,
    /// Of the misses, those that found the fetch already done by another
    /// check while they waited (a shared fetch).
    pub coalesced: u64,
    /// HTTP fetches started (a redirect chain counts once).
    pub fetches: u64,
    /// Fetches answered 304 Not Modified, renewing the copy.
    pub revalidated: u64,
    /// Failed fetches where a good copy stood in.
    pub stale_served: u64,
    /// Entries dropped to keep the cache within its size.
    pub evictions: u64,
    /// Failed fetches by kind ([`Failure::kind`]): `5xx`, `429`, `timeout`,
    /// `connect`, `body`, `network`.
    pub failures: Vec<(&'static str, u64)>,
    /// Origins in the cache now.
    pub entries: u64,
}

const FAILURE_KINDS: [&str; 6] = ["5xx", "429", "timeout", "connect", "body", "network"];

/// The counters the cache bumps as it works; hits and entries are counted
/// per shard, where they happen.
#[derive(Default)]
pub(crate) struct Counters {
    pub(crate) misses: AtomicU64,
    pub(crate) coalesced: AtomicU64,
    pub(crate) fetches: AtomicU64,
    pub(crate) revalidated: AtomicU64,
    pub(crate) stale_served: AtomicU64,
    pub(crate) evictions: AtomicU64,
    failures: [AtomicU64; 6],
}

impl Counters {
    /// Counts a failed fetch under its kind.
    pub(crate) fn failed(&self, failure: &Failure) {
        let i = FAILURE_KINDS
            .iter()
            .position(|k| *k == failure.kind())
            .unwrap_or(FAILURE_KINDS.len() - 1);
        self.failures[i].fetch_add(1, Relaxed);
    }

    /// The snapshot, with the shards' `hits` and `entries`.
    pub(crate) fn metrics(&self, hits: u64, entries: u64) -> Metrics {
        Metrics {
            hits,
            misses: self.misses.load(Relaxed),
            coalesced: self.coalesced.load(Relaxed),
            fetches: self.fetches.load(Relaxed),
            revalidated: self.revalidated.load(Relaxed),
            stale_served: self.stale_served.load(Relaxed),
            evictions: self.evictions.load(Relaxed),
            failures: FAILURE_KINDS
                .iter()
                .zip(&self.failures)
                .map(|(k, n)| (*k, n.load(Relaxed)))
                .collect(),
            entries,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_failure_has_its_counter() {
        let c = Counters::default();
        for f in [
            Failure::Status(503),
            Failure::Status(429),
            Failure::Timeout,
            Failure::Connect(crate::outcome::client_error()),
            Failure::Body(crate::outcome::client_error()),
            Failure::Network(crate::outcome::client_error()),
        ] {
            c.failed(&f);
        }
        let m = c.metrics(0, 0);
        assert_eq!(m.failures.len(), 6);
        assert!(m.failures.iter().all(|(_, n)| *n == 1), "{m:?}");
    }
}
