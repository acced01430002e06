//! Running out of memory: exit 2 with one line on stderr, as every other error, never an abort.
//!
//! Rust's default on an allocation that fails is to print "memory allocation
//! of N bytes failed" and abort (SIGABRT, exit 134, a core dump where they are
//! on). Stable Rust has no hook for it (`std::alloc::set_alloc_error_hook` and
//! `#[alloc_error_handler]` are unstable), so the binary's global allocator is
//! [`ExitOnOom`]: the system allocator, which, when an allocation fails,
//! writes one line to stderr and ends the process with exit code 2
//! ([`crate::error::exit::ERROR`]). Memory asked for fallibly ([`fallibly`]:
//! the input reserved with `try_reserve`) gets null as usual, and its caller
//! reports its own error ("is too big to read into memory").
//!
//! One of the two modules with `unsafe` code (the other, `utf8.rs`, makes
//! text of bytes it validated; `GlobalAlloc` is an unsafe
//! trait, `libc::write` and `libc::_exit` are foreign functions). Invariants:
//! - every allocation is the system allocator's, passed through unchanged
//!   (same layout, same pointer), so `dealloc` and `realloc` get back what
//!   `System` gave;
//! - the failure path allocates nothing (the line is formatted into a stack
//!   buffer), takes no lock (a raw `write(2)`, not `std::io::stderr()`), and
//!   runs no destructor, `atexit` handler or stdout flush (`_exit`, not
//!   `std::process::exit`, whose flush of stdout may need the stdout lock the
//!   failing thread holds): it cannot fail again or deadlock;
//! - [`fallibly`] is only put around `try_reserve` calls, whose caller handles
//!   null; its flag is a `const`-initialised thread-local without a destructor,
//!   so reading it from the allocator never allocates.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The exit code a run out of memory ends with: [`crate::error::exit::ERROR`]
/// (written here, not imported, so that this module is a leaf every layer may
/// use: `par` starts threads through it; a test in `error` holds them equal).
pub(crate) const EXIT: i32 = 2;

/// The system allocator; an infallible allocation that fails ends the process
/// with exit code 2 and one line on stderr (see the module's invariants).
pub struct ExitOnOom;

thread_local! {
    /// Set while this thread asks for memory it can do without.
    static FALLIBLE: Cell<bool> = const { Cell::new(false) };
}

/// Run `f`, whose allocations may fail (it calls `try_reserve` and handles
/// the error): they return null to it instead of ending the process.
pub fn fallibly<T>(f: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            FALLIBLE.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(FALLIBLE.with(|c| c.replace(true)));
    f()
}

/// `p`, unless it is null for an allocation of `size` bytes that may not fail.
fn checked(p: *mut u8, size: usize) -> *mut u8 {
    if p.is_null() && !FALLIBLE.try_with(Cell::get).unwrap_or(false) {
        out_of_memory(size);
    }
    p
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged (the caller's obligations are `System`'s), and returns what
// `System` returned; the only addition, on null, never returns.
unsafe impl GlobalAlloc for ExitOnOom {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as given (see the impl).
        checked(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as given (see the impl).
        checked(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` with `layout` (see the impl).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `System` with `layout` (see the impl).
        checked(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
    }
}

/// One malloc arena for every thread (glibc; elsewhere nothing to do), called
/// first thing in `main`. glibc gives each new thread an arena of its own,
/// reserving 64 MB of address space per heap: under an address-space limit
/// (`ulimit -v`, the limit this module's line tells users to raise) an arena
/// that cannot reserve its next heap serves every allocation, however small,
/// with an `mmap` of its own (a page for 6 bytes), so a run that needs 35 MB
/// could die at 100 MB, depending on which thread allocated first. planview
/// runs two or three threads that allocate little at once: one arena costs
/// them nothing measurable, and its address space grows only as its memory
/// does (a summary of 240,000 changes: 50 MB of address space, not 228).
pub fn one_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets a malloc parameter; called before any other
    // thread starts, it races with no allocation.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// The line written when memory runs out, before the size and after it.
const HEAD: &[u8] = b"planview: error: out of memory: an allocation of ";
const TAIL: &[u8] = b" bytes failed (raise the memory limit: `ulimit -v`, the container's; `summary`, `gate` and `show` stream any plan in bounded memory)\n";

/// The line for an allocation of `size` bytes, in `buf`; its length.
fn message(size: usize, buf: &mut [u8; 256]) -> usize {
    let mut digits = [0u8; 20];
    let mut n = size;
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let mut len = 0;
    for part in [HEAD, &digits[k..], TAIL] {
        buf[len..len + part.len()].copy_from_slice(part);
        len += part.len();
    }
    len
}

/// Write the line and end the process with exit code 2, allocating nothing.
fn out_of_memory(size: usize) -> ! {
    let mut buf = [0u8; 256];
    let len = message(size, &mut buf);
    exit_with(&buf[..len])
}

/// A thread the system could not start (its stack is memory too): one line
/// and exit code 2, as [`out_of_memory`]. Not on the allocator's path, so
/// the line may be formatted (an allocation that fails there exits as above).
pub(crate) fn no_thread(e: &std::io::Error) -> ! {
    let line = format!(
        "planview: error: out of memory: a thread could not be started ({e}; raise the memory limit: `ulimit -v`, the container's)\n"
    );
    exit_with(line.as_bytes())
}

#[cfg(unix)]
fn exit_with(line: &[u8]) -> ! {
    let mut rest = line;
    while !rest.is_empty() {
        // SAFETY: `rest` is a live buffer of `rest.len()` bytes; fd 2 may be
        // closed or anything: `write` then fails, and the exit code still says it.
        let n = unsafe { libc::write(2, rest.as_ptr().cast(), rest.len()) };
        if n <= 0 {
            break;
        }
        rest = &rest[n as usize..];
    }
    // SAFETY: `_exit` ends the process at once; nothing is used after it.
    unsafe { libc::_exit(EXIT) }
}

#[cfg(not(unix))]
fn exit_with(line: &[u8]) -> ! {
    use std::io::Write;
    let _ = std::io::stderr().write_all(line);
    std::process::exit(EXIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_is_one_line_with_the_size() {
        let mut buf = [0u8; 256];
        for (size, digits) in [(0usize, "0"), (7, "7"), (1 << 30, "1073741824"), (usize::MAX, &usize::MAX.to_string()[..])] {
            let len = message(size, &mut buf);
            let line = std::str::from_utf8(&buf[..len]).unwrap();
            assert_eq!(line, format!("planview: error: out of memory: an allocation of {digits} bytes failed (raise the memory limit: `ulimit -v`, the container's; `summary`, `gate` and `show` stream any plan in bounded memory)\n"));
            assert_eq!(line.lines().count(), 1);
        }
    }

    #[test]
    fn fallibly_sets_the_flag_for_its_closure_only_even_when_it_panics() {
        assert!(!FALLIBLE.with(Cell::get));
        assert!(fallibly(|| FALLIBLE.with(Cell::get)));
        assert!(fallibly(|| fallibly(|| true) && FALLIBLE.with(Cell::get)), "nested: still set after the inner one");
        assert!(std::panic::catch_unwind(|| fallibly(|| panic!("x"))).is_err());
        assert!(!FALLIBLE.with(Cell::get));
    }
}
