//! Independent parts of one step run side by side, each on a scoped thread of its own.

/// `f` of each part, each on a thread of its own with `stack` bytes of stack, the results in the
/// parts' order. A part no thread could be had for runs on the calling thread; a panic on a
/// part's thread is resumed on the caller's.
pub(crate) fn each<T, R>(parts: impl IntoIterator<Item = T>, stack: usize, f: impl Fn(T) -> R + Sync) -> Vec<R>
where
    T: Copy + Send,
    R: Send,
{
    let f = &f;
    std::thread::scope(|s| {
        let spawned: Vec<_> = parts
            .into_iter()
            .map(|part| {
                std::thread::Builder::new().stack_size(stack).spawn_scoped(s, move || f(part)).map_err(|_| part)
            })
            .collect();
        spawned
            .into_iter()
            .map(|h| match h {
                Ok(h) => h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(part) => f(part),
            })
            .collect()
    })
}

/// The stack of a main thread, for parts that recurse as deep as the pipeline's own thread may
/// (a spawned thread gets 2 MiB).
pub(crate) const MAIN_STACK: usize = 8 << 20;

#[cfg(test)]
mod tests {
    #[test]
    fn results_come_in_the_parts_order() {
        let parts = [3_u64, 1, 2];
        assert_eq!(super::each(parts, 1 << 16, |n| n * 10), [30, 10, 20]);
    }

    #[test]
    fn parts_no_thread_could_be_had_for_run_on_the_caller() {
        // A stack the size of half the address space: no thread is spawned with it, and each
        // part runs here instead.
        let caller = std::thread::current().id();
        let ran = super::each([1_u64, 2], usize::MAX / 2, |n| (n * 10, std::thread::current().id() == caller));
        assert_eq!(ran, [(10, true), (20, true)]);
    }
}
