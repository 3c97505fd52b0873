//! Running independent search tasks on several threads with results that do not depend
//! on the number of threads.
//!
//! Tasks are numbered in search order. Workers claim them in increasing order and each
//! result is stored under its task number, so concatenating results in task order gives
//! exactly what one thread would have produced. With a `limit`, a task is skipped once
//! finished tasks before it already hold `limit` items: tasks before it that are still
//! running can only add items ahead of it, so it could not contribute to the first
//! `limit` items anyway.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The number of threads to use when the user did not say: one per available core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// One worker's results, with their task numbers.
type Finished<R> = Vec<(usize, Option<R>)>;

/// Items held by finished tasks, by task number.
struct Progress {
    counts: Vec<usize>,
}

impl Progress {
    /// Whether finished tasks before `task` hold at least `limit` items.
    fn enough_before(&self, task: usize, limit: usize) -> bool {
        let mut held = 0usize;
        for &n in &self.counts[..task] {
            held += n;
            if held >= limit {
                return true;
            }
        }
        false
    }
}

/// Runs `run(task)` for `task in 0..tasks` on `threads` threads and returns the results
/// in task order; `None` for tasks skipped because of `limit` (see the module docs).
/// `items` says how many items a result holds.
pub fn run_tasks<R: Send>(
    tasks: usize,
    threads: usize,
    limit: usize,
    run: impl Fn(usize) -> R + Sync,
    items: impl Fn(&R) -> usize + Sync,
) -> Vec<Option<R>> {
    run_tasks_with(tasks, threads, limit, || (), |_, task| run(task), items).0
}

/// [`run_tasks`] with a state per worker: `init` makes one for each worker, `run` gets
/// it with every task the worker runs (a cache, for example). The workers' states come
/// back too, in no particular order.
pub fn run_tasks_with<S: Send, R: Send>(
    tasks: usize,
    threads: usize,
    limit: usize,
    init: impl Fn() -> S + Sync,
    run: impl Fn(&mut S, usize) -> R + Sync,
    items: impl Fn(&R) -> usize + Sync,
) -> (Vec<Option<R>>, Vec<S>) {
    let next = AtomicUsize::new(0);
    let progress = Mutex::new(Progress {
        counts: vec![0; tasks],
    });
    let worker = || {
        let mut state = init();
        let mut done = Vec::new();
        loop {
            let task = next.fetch_add(1, Ordering::Relaxed);
            if task >= tasks {
                break;
            }
            let skip = limit != usize::MAX && progress.lock().unwrap().enough_before(task, limit);
            let result = (!skip).then(|| run(&mut state, task));
            let n = result.as_ref().map_or(0, &items);
            progress.lock().unwrap().counts[task] = n;
            done.push((task, result));
        }
        (done, state)
    };
    let threads = threads.clamp(1, tasks.max(1));
    let mut results: Vec<Option<R>> = (0..tasks).map(|_| None).collect();
    let finished: Vec<(Finished<R>, S)> = if threads == 1 {
        vec![worker()]
    } else {
        let cpus = affinity::allowed_cpus();
        let pin = cpus.len() >= threads;
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|k| {
                    let cpu = cpus.get(k).copied().filter(|_| pin);
                    s.spawn(move || {
                        if let Some(cpu) = cpu {
                            affinity::pin_current_thread(cpu);
                        }
                        worker()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    };
    let mut states = Vec::with_capacity(finished.len());
    for (done, state) in finished {
        for (task, r) in done {
            results[task] = r;
        }
        states.push(state);
    }
    (results, states)
}

/// Worker threads get a core each. Left to itself, the scheduler may start a new thread
/// on the core of the thread that spawned it and move it only milliseconds later: two
/// workers spawned in a row then share one core for most of a short run. Measured on
/// the project's 2-core machine, two threads spinning 3 ms each took 5.4 to 6.3 ms in 6
/// runs of 8 unpinned, and 3.1 ms pinned.
mod affinity {
    /// The cores this process may run on, in increasing order; empty where unknown.
    #[cfg(target_os = "linux")]
    pub fn allowed_cpus() -> Vec<usize> {
        // SAFETY: `cpu_set_t` is plain data, valid when zeroed; `sched_getaffinity` writes
        // at most `size_of::<cpu_set_t>()` bytes into it, and `CPU_ISSET` reads it.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                return Vec::new();
            }
            (0..libc::CPU_SETSIZE as usize)
                .filter(|&cpu| libc::CPU_ISSET(cpu, &set))
                .collect()
        }
    }

    /// Keeps the calling thread on `cpu`; a failure only loses the placement.
    #[cfg(target_os = "linux")]
    pub fn pin_current_thread(cpu: usize) {
        // SAFETY: as above; `CPU_SET` writes one bit of the zeroed set, whose size is passed.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub fn allowed_cpus() -> Vec<usize> {
        Vec::new()
    }

    #[cfg(not(target_os = "linux"))]
    pub fn pin_current_thread(_cpu: usize) {}
}
