//! Work shared among a few threads: a slice cut into as many runs as there
//! are cores (at most [`MAX_PARALLEL`]), each run on a scoped thread.

/// How many threads share work at most (and how many inputs are read at once).
pub(crate) const MAX_PARALLEL: usize = 8;

/// How many threads to share work among: one per core, at most [`MAX_PARALLEL`].
pub(crate) fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, MAX_PARALLEL)
}

/// `f` on a new thread of the scope `s`. A thread the system cannot start
/// (its stack cannot be mapped under a memory limit, or the process limit is
/// reached) ends the run as running out of memory does ([`crate::oom`]): one
/// line on stderr and exit code 2, never a panic.
pub(crate) fn spawn<'scope, T: Send + 'scope>(
    s: &'scope std::thread::Scope<'scope, '_>,
    f: impl FnOnce() -> T + Send + 'scope,
) -> std::thread::ScopedJoinHandle<'scope, T> {
    std::thread::Builder::new().spawn_scoped(s, f).unwrap_or_else(|e| crate::oom::no_thread(&e))
}

/// `f` on a new thread of its own, which the system must be able to start (as [`spawn`]).
pub(crate) fn thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> std::thread::JoinHandle<T> {
    std::thread::Builder::new().spawn(f).unwrap_or_else(|e| crate::oom::no_thread(&e))
}

/// `f` over `items`, in order, the slice cut into [`threads`] runs of
/// consecutive items, each on a thread of its own (here when there are fewer
/// than `min` items, or one core). A panic in `f` goes on in the caller.
pub(crate) fn map<T: Sync, R: Send>(items: &[T], min: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = threads();
    if threads == 1 || items.len() < min.max(2) {
        return items.iter().map(f).collect();
    }
    let f = &f;
    std::thread::scope(|s| {
        let runs: Vec<_> =
            items.chunks(items.len().div_ceil(threads)).map(|run| spawn(s, move || run.iter().map(f).collect::<Vec<R>>())).collect();
        runs.into_iter().flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_keep_the_order_of_the_items() {
        for n in [0, 1, 2, 3, 15, 16, 17, 1000] {
            let items: Vec<usize> = (0..n).collect();
            assert_eq!(super::map(&items, 2, |i| i * 2), items.iter().map(|i| i * 2).collect::<Vec<_>>(), "{n} items");
        }
    }
}
