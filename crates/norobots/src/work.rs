//! Steps of work, counted per thread when the `count-work` feature is on,
//! so that the tests of hostile input can bound what a parse, a build or a
//! check does in numbers that no load on the machine changes; a bound on
//! wall time fails whenever the machine is busy, or must be too loose to
//! tell linear from quadratic at the sizes a test can afford.
//!
//! A step is an octet of input looked at (scanned, compared, copied or
//! rewritten) or one turn of a loop over the rules, nodes, tails or lines
//! that input made. Every loop whose length the input decides adds its
//! turns where it runs, in the primitives where it can (a scan adds the
//! octets it passed over), so that work which grows faster than the input
//! shows up as steps that do. A new loop over input must count itself
//! the same way, or the tests cannot see it.
//!
//! Without the feature, [`add`] and [`add_with`] are empty and inlined
//! away, and what a count needs is worked out inside the closure that
//! `add_with` never calls: a release build without the feature compiles
//! every function of the crate to the instructions it had before the
//! counts were added (compared function by function in the disassembly),
//! so the check, measured at a few tens of nanoseconds, pays nothing. The
//! feature is for tests only (the crate's own dev-dependency on itself
//! turns it on for them).

#[cfg(feature = "count-work")]
use std::cell::Cell;

#[cfg(feature = "count-work")]
thread_local! {
    /// Steps this thread has made. Per thread, so that tests running side
    /// by side do not count each other's; a constant initialiser with no
    /// destructor, so that it can be counted into while the thread exits.
    static STEPS: Cell<u64> = const { Cell::new(0) };
}

/// Adds `n` steps to this thread's count; nothing without `count-work`.
#[inline(always)]
pub(crate) fn add(n: usize) {
    #[cfg(feature = "count-work")]
    let _ = STEPS.try_with(|steps| steps.set(steps.get().saturating_add(n as u64)));
    #[cfg(not(feature = "count-work"))]
    let _ = n;
}

/// Adds the steps `count` gives, which is called only with `count-work`.
/// Any count but a constant or a plain variable goes through here: even
/// dead arithmetic on lengths, or a closure that borrows a local, changed
/// how the code around it was compiled (`move` closures of copies do not).
#[inline(always)]
pub(crate) fn add_with(count: impl FnOnce() -> usize) {
    #[cfg(feature = "count-work")]
    add(count());
    #[cfg(not(feature = "count-work"))]
    let _ = count;
}

/// Adds the octets a search of `len` octets passed over: up to and with
/// the one it found, or all of them.
#[inline(always)]
pub(crate) fn scanned(found: Option<usize>, len: usize) {
    add_with(|| found.map_or(len, |at| at + 1));
}

/// The steps of sorting `n` items: `n log n` comparisons, for a sort whose
/// comparisons are not counted one by one.
pub(crate) fn sort_steps(n: usize) -> usize {
    n * (usize::BITS - n.leading_zeros()) as usize
}

/// Runs `f` and returns what it returned with the steps of work the
/// library made in it, on this thread (see the [module](self) for what a
/// step is). Only with the `count-work` feature, which slows every check:
/// it is for tests that bound the library's work on hostile input.
///
/// ```
/// use norobots::Robots;
///
/// let (robots, parse) = norobots::work::counted(|| Robots::parse(b"User-agent: *\nDisallow: /a\n"));
/// let long = format!("/{}", "a".repeat(1000));
/// let (_, short_check) = norobots::work::counted(|| robots.matcher("bot").is_allowed("/b"));
/// let (_, long_check) = norobots::work::counted(|| robots.matcher("bot").is_allowed(&long));
/// assert!(parse > 0 && short_check > 0);
/// // The path's octets are scanned for `#` and `%`: a longer one costs more.
/// assert!(long_check > short_check + 900);
/// ```
#[cfg(feature = "count-work")]
pub fn counted<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let start = STEPS.with(Cell::get);
    let out = f();
    (out, STEPS.with(Cell::get) - start)
}
