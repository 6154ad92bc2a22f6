//! The map from origin to entry: sharded so that hits on different origins
//! do not contend, each shard bounded and trimmed of its least recently
//! used origins.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, RwLock};
use std::time::Instant;

use crate::entry::Entry;

pub(crate) const SHARDS: usize = 16;

/// A fast hasher, seeded at random per cache: origins come from URLs that
/// strangers write, so bucket collisions must not be predictable.
type Hasher = foldhash::fast::RandomState;
type Map = HashMap<Box<str>, Slot, Hasher>;

/// The shards, their bound, and the clock that ages their slots.
pub(crate) struct Shards {
    shards: Box<[Shard]>,
    cap: usize,
    hasher: Hasher,
    epoch: Instant,
}

/// A shard of the map, padded so that two shards' locks never share a
/// cache line: hits on different origins then do not contend.
#[repr(align(128))]
struct Shard {
    map: RwLock<Map>,
    hits: AtomicU64,
}

/// Kept inline in the map, so a hit reads the entry pointer from the bucket
/// it found rather than from one more allocation. The entry is replaced
/// under the shard's write lock, which only a finished fetch takes.
struct Slot {
    entry: Option<Arc<Entry>>,
    /// Held while the origin is fetched: the checks that miss meanwhile
    /// wait here and then find the new entry, so one fetch serves them all.
    loading: Arc<tokio::sync::Mutex<()>>,
    last_used: AtomicU32,
}

/// The fetch lock of an origin's slot.
pub(crate) type Loading = Arc<tokio::sync::Mutex<()>>;

impl Shards {
    /// Room for about `max_entries` origins.
    pub(crate) fn new(max_entries: usize) -> Shards {
        let hasher = Hasher::default();
        Shards {
            shards: (0..SHARDS)
                .map(|_| Shard {
                    map: RwLock::new(Map::with_hasher(hasher.clone())),
                    hits: AtomicU64::new(0),
                })
                .collect(),
            cap: max_entries.div_ceil(SHARDS).max(1),
            hasher,
            epoch: Instant::now(),
        }
    }

    #[inline]
    fn shard(&self, key: &str) -> &Shard {
        use std::hash::BuildHasher;
        // The high bits: the shard's map picks buckets with the low ones.
        &self.shards[(self.hasher.hash_one(key) >> 60) as usize % SHARDS]
    }

    #[inline]
    fn tick(&self, now: Instant) -> u32 {
        now.duration_since(self.epoch).as_secs() as u32
    }

    /// Runs `f` on the entry for `key` if it is fresh, under the shard's
    /// read lock, and counts a hit: no reference count is touched.
    #[inline]
    pub(crate) fn with_fresh<R>(&self, key: &str, f: impl FnOnce(&Entry) -> R) -> Option<R> {
        let shard = self.shard(key);
        let map = shard.map.read().unwrap_or_else(|e| e.into_inner());
        let slot = map.get(key)?;
        let entry = slot.entry.as_deref()?;
        let now = Instant::now();
        if !entry.is_fresh_at(now) {
            return None;
        }
        let tick = self.tick(now);
        if slot.last_used.load(Relaxed) != tick {
            slot.last_used.store(tick, Relaxed);
        }
        shard.hits.fetch_add(1, Relaxed);
        Some(f(entry))
    }

    /// Whether `key` has a fresh entry; counts no hit.
    pub(crate) fn is_fresh(&self, key: &str) -> bool {
        let shard = self.shard(key);
        let map = shard.map.read().unwrap_or_else(|e| e.into_inner());
        map.get(key)
            .and_then(|slot| slot.entry.as_deref())
            .is_some_and(Entry::is_fresh)
    }

    /// The entry of `key`, fresh or not.
    pub(crate) fn current(&self, key: &str) -> Option<Arc<Entry>> {
        let shard = self.shard(key);
        let map = shard.map.read().unwrap_or_else(|e| e.into_inner());
        map.get(key).and_then(|slot| slot.entry.clone())
    }

    /// The fetch lock and the current entry of `key`'s slot, made if
    /// missing; `evicted` counts the origins dropped to make room.
    pub(crate) fn slot(&self, key: &str, evicted: &AtomicU64) -> (Loading, Option<Arc<Entry>>) {
        let shard = self.shard(key);
        if let Some(slot) = shard.map.read().unwrap_or_else(|e| e.into_inner()).get(key) {
            return (Arc::clone(&slot.loading), slot.entry.clone());
        }
        let mut map = shard.map.write().unwrap_or_else(|e| e.into_inner());
        let slot = self.make_slot(&mut map, key, evicted);
        (Arc::clone(&slot.loading), slot.entry.clone())
    }

    /// Makes `entry` the entry of `key` (again, if the slot was evicted
    /// while its fetch ran).
    pub(crate) fn store(&self, key: &str, entry: Arc<Entry>, evicted: &AtomicU64) {
        let shard = self.shard(key);
        let mut map = shard.map.write().unwrap_or_else(|e| e.into_inner());
        let slot = self.make_slot(&mut map, key, evicted);
        // Dropped after the lock: freeing an entry can take a while.
        let old = slot.entry.replace(entry);
        drop(map);
        drop(old);
    }

    /// Drops every entry.
    pub(crate) fn clear(&self) {
        for shard in self.shards.iter() {
            shard.map.write().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }

    /// The hits so far and the origins held now.
    pub(crate) fn hits_and_entries(&self) -> (u64, u64) {
        let mut hits = 0;
        let mut entries = 0;
        for shard in self.shards.iter() {
            hits += shard.hits.load(Relaxed);
            entries += shard.map.read().unwrap_or_else(|e| e.into_inner()).len() as u64;
        }
        (hits, entries)
    }

    /// The slot of `key` in a write-locked shard, made if missing; makes
    /// room first when the shard is full.
    fn make_slot<'m>(&self, map: &'m mut Map, key: &str, evicted: &AtomicU64) -> &'m mut Slot {
        if !map.contains_key(key) {
            if map.len() >= self.cap {
                evicted.fetch_add(evict(map) as u64, Relaxed);
            }
            let slot = Slot {
                entry: None,
                loading: Arc::new(tokio::sync::Mutex::new(())),
                last_used: AtomicU32::new(self.tick(Instant::now())),
            };
            map.insert(key.into(), slot);
        }
        map.get_mut(key).expect("the slot was just made")
    }
}

/// Drops the least recently used eighth of a full shard, so eviction costs
/// O(log n) per insert, amortized; returns how many went.
fn evict(map: &mut Map) -> usize {
    let mut ages: Vec<(u32, Box<str>)> = map
        .iter()
        .map(|(k, s)| (s.last_used.load(Relaxed), k.clone()))
        .collect();
    let n = (ages.len() / 8).max(1);
    ages.select_nth_unstable_by_key(n - 1, |(t, _)| *t);
    for (_, key) in &ages[..n] {
        map.remove(key);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Origin, RobotsCache};
    use http::HeaderMap;

    #[test]
    fn a_full_shard_drops_its_least_recently_used() {
        let c = RobotsCache::new(Config::default().max_entries(SHARDS * 8)).unwrap();
        for i in 0..2000 {
            let o = Origin::of(&format!("http://h{i}.example")).unwrap();
            c.insert(&o, 404, HeaderMap::new(), b"");
        }
        let m = c.metrics();
        assert!(m.entries <= (SHARDS * 8) as u64, "{m:?}");
        assert!(m.evictions >= 2000 - (SHARDS * 8) as u64, "{m:?}");
    }

    #[test]
    fn shards_spread_keys() {
        let shards = Shards::new(1000);
        let mut seen = [0usize; SHARDS];
        for i in 0..1600 {
            let shard = shards.shard(&format!("https://host{i}.example"));
            seen[shards
                .shards
                .iter()
                .position(|s| std::ptr::eq(s, shard))
                .unwrap()] += 1;
        }
        assert!(seen.iter().all(|&n| n > 50), "{seen:?}");
    }
}
