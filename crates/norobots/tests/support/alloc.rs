//! Measuring memory in tests: a global allocator that keeps, per thread,
//! the bytes allocated and not yet freed, and their peak, so that tests
//! running beside the measured one do not count.

#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};

struct CountingAlloc;

thread_local! {
    /// Bytes this thread has allocated and not freed, and the peak of that.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    /// Calls to `alloc` and `realloc` this thread has made.
    static CALLS: Cell<usize> = const { Cell::new(0) };
}

fn count_call() {
    let _ = CALLS.try_with(|calls| calls.set(calls.get() + 1));
}

fn count(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters are plain thread-local cells that never allocate.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_call();
        count(layout.size() as isize);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        // SAFETY: the caller upholds `GlobalAlloc::dealloc`'s contract.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_call();
        count(new_size as isize - layout.size() as isize);
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Runs `f`, returning its time and the most memory it held at once.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Duration, usize) {
    let start_live = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(start_live));
    let start = Instant::now();
    let out = f();
    let elapsed = start.elapsed();
    let peak = PEAK.with(Cell::get) - start_live;
    (out, elapsed, peak.max(0) as usize)
}

/// Runs `f`, returning how many times it called the allocator (to allocate
/// or grow; frees are not counted).
pub fn allocations<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = CALLS.with(Cell::get);
    let out = f();
    (out, CALLS.with(Cell::get) - start)
}
