//! Gives the C allocator's free memory back to the system after the bursts of work a server does
//! now and then: start-up, a publish (the link preview's pixels, the pages' compression) and an
//! upload (the image's decoding and encoding). glibc keeps what those threads freed in their
//! arenas; measured on the release binary, an idle server held 4.8 MB less once it was returned.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Whether a request has begun since the idle trim last looked. Each request reads it and writes
/// it only when it is not yet set, so that the connection threads do not take a cache line from
/// each other at every request, as a shared counter's increments did.
static BUSY: AtomicBool = AtomicBool::new(false);

/// How long no request must begin before the allocator's free memory is handed back.
const QUIET: Duration = Duration::from_secs(10);

/// How long the hand-back waits for the threads that `release` ended to be gone.
const THREADS_END: Duration = Duration::from_secs(1);

/// Notes that a request has begun (called by the request log for each).
pub fn note_request() {
    if !BUSY.load(Ordering::Relaxed) {
        BUSY.store(true, Ordering::Relaxed);
    }
}

/// Hands the allocator's free memory back once the server has been quiet for [`QUIET`], once per
/// quiet spell: what a burst of traffic left in the worker threads' arenas (a few MB after the
/// soak of `make bench`) is not kept while nobody asks for anything, and a busy server never
/// pays for a trim. `release` runs first: it drops what is kept only to be fast under load (the
/// User-Agent classifier's caches, the store's idle reading connections).
pub fn start_idle_trim<F, R>(release: F)
where
    F: Fn() -> R + Send + 'static,
    R: std::future::Future<Output = ()> + Send,
{
    tokio::spawn(async move {
        BUSY.store(false, Ordering::Relaxed);
        let mut trimmed = true;
        loop {
            tokio::time::sleep(QUIET).await;
            if BUSY.swap(false, Ordering::Relaxed) {
                trimmed = false;
            } else if !trimmed {
                trimmed = true;
                release().await;
                // The threads of the connections just closed free what they held as they end,
                // after the close is answered: the hand-back waits for them.
                tokio::time::sleep(THREADS_END).await;
                tokio::task::spawn_blocking(release_free_memory);
            }
        }
    });
}

/// The size from which the C allocator serves a block by `mmap`, handing it back to the system as
/// soon as it is freed.
const MMAP_THRESHOLD: i32 = 4 << 20;

/// Fixes glibc's `mmap` threshold at [`MMAP_THRESHOLD`] (call it once, first thing in `main`).
/// By default glibc raises the threshold to the size of the largest mmapped block freed so far:
/// after the first password check, each later Argon2 block (19 MiB) came from a thread's arena,
/// whose top `malloc_trim` never trims, so an idle server stayed 20 MB larger for good (the soak
/// in `make bench` measured 26 MB idle before any sign-in, 46 MB after one). A fixed threshold
/// keeps the rare large blocks (Argon2's, an image being processed) out of the arenas.
pub fn hand_large_blocks_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` takes two integers; glibc allows it at any time, and it is called before
    // any thread starts.
    #[allow(unsafe_code)]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}

/// Returns the allocator's free memory to the system (glibc's `malloc_trim`); elsewhere, nothing.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` takes no pointer and only hands free pages back to the kernel; glibc
    // makes it safe to call from any thread at any time.
    #[allow(unsafe_code)]
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn releasing_free_memory_leaves_what_is_in_use() {
        let kept = vec![7u8; 1 << 20];
        drop(vec![1u8; 8 << 20]);
        super::release_free_memory();
        assert!(kept.iter().all(|&b| b == 7));
    }
}
