//! The files served from the database (the resume, uploaded media) held once in memory, as
//! shared bytes: every answer sending a file shares one copy of it, and the most recently served
//! ones are kept, within a bound, once no answer holds them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use axum::body::Bytes;
use tokio::sync::OnceCell;

/// The cache of one server; keys name the content (a hash), so an entry never goes stale.
pub struct FileCache {
    capacity: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Every file an answer holds or a request is loading: requests for it share it.
    live: HashMap<String, Weak<Entry>>,
    /// Past this many live keys, the dead ones are swept out (then the bound doubles from what
    /// is left), so that sweeping costs little per request.
    sweep_at: usize,
    /// Files kept while no answer holds them, with the tick of their last use.
    kept: HashMap<String, (Arc<Entry>, u64)>,
    kept_bytes: usize,
    tick: u64,
}

struct Entry {
    /// Filled once, by the first request that misses; the others wait for it.
    data: OnceCell<Vec<u8>>,
}

/// A file's bytes as an answer's body holds them: the entry stays alive as long as they do.
struct Held(Arc<Entry>);

impl AsRef<[u8]> for Held {
    fn as_ref(&self) -> &[u8] {
        self.0.data.get().map_or(&[], Vec::as_slice)
    }
}

enum Miss {
    Absent,
    Failed(anyhow::Error),
}

const FIRST_SWEEP: usize = 64;

impl FileCache {
    /// A cache keeping at most `capacity` bytes of files nobody is being sent.
    pub fn new(capacity: u64) -> Self {
        Self {
            capacity: usize::try_from(capacity).unwrap_or(usize::MAX),
            state: Mutex::new(State {
                sweep_at: FIRST_SWEEP,
                ..State::default()
            }),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The file under `key`: shared when held or kept, else read by `load` (once, however many
    /// requests ask at the same time). `None` when `load` finds nothing.
    pub async fn get<F, Fut>(&self, key: &str, load: F) -> anyhow::Result<Option<Bytes>>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = anyhow::Result<Option<Vec<u8>>>>,
    {
        let entry = {
            let mut state = self.state();
            match state.live.get(key).and_then(Weak::upgrade) {
                Some(entry) => entry,
                None => {
                    if state.live.len() >= state.sweep_at {
                        state.live.retain(|_, entry| entry.strong_count() > 0);
                        state.sweep_at = (state.live.len() * 2).max(FIRST_SWEEP);
                    }
                    let entry = Arc::new(Entry {
                        data: OnceCell::new(),
                    });
                    state.live.insert(key.to_owned(), Arc::downgrade(&entry));
                    entry
                }
            }
        };
        let loaded = entry
            .data
            .get_or_try_init(|| async {
                match load().await {
                    Ok(Some(data)) => Ok(data),
                    Ok(None) => Err(Miss::Absent),
                    Err(error) => Err(Miss::Failed(error)),
                }
            })
            .await;
        match loaded {
            Ok(_) => {}
            Err(Miss::Absent) => return Ok(None),
            Err(Miss::Failed(error)) => return Err(error),
        }
        self.keep(key, &entry);
        Ok(Some(Bytes::from_owner(Held(entry))))
    }

    /// Marks `entry` as the most recently used, keeping it when it fits, and lets the least
    /// recently used go past the capacity.
    fn keep(&self, key: &str, entry: &Arc<Entry>) {
        let size = entry.data.get().map_or(0, Vec::len);
        if size > self.capacity {
            return;
        }
        let mut state = self.state();
        state.tick += 1;
        let tick = state.tick;
        if let Some(kept) = state.kept.get_mut(key) {
            kept.1 = tick;
            return;
        }
        state.kept.insert(key.to_owned(), (entry.clone(), tick));
        state.kept_bytes += size;
        while state.kept_bytes > self.capacity {
            let Some(oldest) = state
                .kept
                .iter()
                .min_by_key(|(_, (_, tick))| *tick)
                .map(|(key, _)| key.clone())
            else {
                break;
            };
            if let Some((gone, _)) = state.kept.remove(&oldest) {
                state.kept_bytes -= gone.data.get().map_or(0, Vec::len);
            }
        }
    }

    /// Bytes kept for later answers (not counting files only held by answers in progress).
    pub fn kept_bytes(&self) -> usize {
        self.state().kept_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    async fn get(cache: &FileCache, key: &str, size: usize, loads: &AtomicUsize) -> Bytes {
        cache
            .get(key, || async {
                loads.fetch_add(1, Ordering::SeqCst);
                // A real load waits on the database: let the other requests come meanwhile.
                tokio::task::yield_now().await;
                Ok(Some(vec![7; size]))
            })
            .await
            .unwrap()
            .unwrap()
    }

    #[tokio::test]
    async fn answers_share_one_copy_and_the_oldest_goes_past_the_capacity() {
        let cache = FileCache::new(100);
        let loads = AtomicUsize::new(0);
        let a = get(&cache, "a", 60, &loads).await;
        let again = get(&cache, "a", 60, &loads).await;
        assert_eq!(loads.load(Ordering::SeqCst), 1);
        assert_eq!(a.as_ptr(), again.as_ptr(), "one copy");
        get(&cache, "b", 30, &loads).await;
        // `a` used last: `b` is the one to go when `c` comes.
        get(&cache, "a", 60, &loads).await;
        drop((a, again));
        get(&cache, "c", 30, &loads).await;
        assert_eq!(cache.kept_bytes(), 90);
        assert_eq!(loads.load(Ordering::SeqCst), 3);
        get(&cache, "a", 60, &loads).await;
        assert_eq!(loads.load(Ordering::SeqCst), 3, "`a` was kept");
        get(&cache, "b", 30, &loads).await;
        assert_eq!(loads.load(Ordering::SeqCst), 4, "`b` had gone");
    }

    #[tokio::test]
    async fn a_file_past_the_capacity_is_still_shared_while_held() {
        let cache = FileCache::new(10);
        let loads = AtomicUsize::new(0);
        let first = get(&cache, "big", 1000, &loads).await;
        let second = get(&cache, "big", 1000, &loads).await;
        assert_eq!(loads.load(Ordering::SeqCst), 1);
        assert_eq!(first.as_ptr(), second.as_ptr());
        assert_eq!(cache.kept_bytes(), 0);
        drop((first, second));
        get(&cache, "big", 1000, &loads).await;
        assert_eq!(
            loads.load(Ordering::SeqCst),
            2,
            "not kept once nobody held it"
        );
    }

    #[tokio::test]
    async fn concurrent_misses_load_once_and_absence_is_not_kept() {
        let cache = FileCache::new(1000);
        let loads = AtomicUsize::new(0);
        let (a, b) = tokio::join!(get(&cache, "x", 10, &loads), get(&cache, "x", 10, &loads));
        assert_eq!(loads.load(Ordering::SeqCst), 1);
        assert_eq!(a.as_ptr(), b.as_ptr());
        let none = cache.get("gone", || async { Ok(None) }).await.unwrap();
        assert!(none.is_none());
        assert_eq!(cache.kept_bytes(), 10);
    }
}
