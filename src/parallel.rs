//! Running independent search tasks on several threads with results that do not depend
//! on the number of threads.
//!
//! Tasks are numbered in search order. Workers claim them in increasing order and each
//! result is stored under its task number, so concatenating results in task order gives
//! exactly what one thread would have produced. With a `limit`, once finished tasks
//! before a task hold `limit` items, that task is *abandoned*: tasks before it that are
//! still running can only add items ahead of it, so it cannot contribute to the first
//! `limit` items. An abandoned task is skipped if it has not started, and a running one
//! can see it ([`Task::abandoned`]) and stop.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The number of threads to use when the user did not say: one per available core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// One worker's results, with their task numbers.
type Finished<R> = Vec<(usize, Option<R>)>;

/// A task as its search sees it: its number, and whether it still counts.
#[derive(Clone, Copy, Debug)]
pub struct Task<'a> {
    pub index: usize,
    abandoned_from: &'a AtomicUsize,
}

impl Task<'_> {
    /// Whether finished tasks before this one already hold `limit` items, so that
    /// nothing this task finds can count: its search may stop. Cheap enough to ask at
    /// every solution.
    #[inline]
    pub fn abandoned(&self) -> bool {
        self.index >= self.abandoned_from.load(Ordering::Relaxed)
    }
}

/// Items held by finished tasks, by task number.
struct Progress {
    counts: Vec<usize>,
}

impl Progress {
    /// The first task that finished tasks before it hold `limit` items for (every later
    /// one too, since they have more before them), or `usize::MAX`.
    fn abandoned_from(&self, limit: usize) -> usize {
        let mut held = 0usize;
        for (task, &n) in self.counts.iter().enumerate() {
            held += n;
            if held >= limit {
                return task + 1;
            }
        }
        usize::MAX
    }
}

/// Runs `run(task)` for every task `0..tasks` on `threads` threads and returns the
/// results in task order; `None` for tasks skipped because of `limit` (see the module
/// docs). `items` says how many items a result holds.
pub fn run_tasks<R: Send>(
    tasks: usize,
    threads: usize,
    limit: usize,
    run: impl Fn(Task) -> R + Sync,
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
    run: impl Fn(&mut S, Task) -> R + Sync,
    items: impl Fn(&R) -> usize + Sync,
) -> (Vec<Option<R>>, Vec<S>) {
    let next = AtomicUsize::new(0);
    let abandoned_from = AtomicUsize::new(usize::MAX);
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
            let task = Task {
                index: task,
                abandoned_from: &abandoned_from,
            };
            let result = (!task.abandoned()).then(|| run(&mut state, task));
            let n = result.as_ref().map_or(0, &items);
            if limit != usize::MAX {
                let mut progress = progress.lock().unwrap();
                progress.counts[task.index] = n;
                abandoned_from.fetch_min(progress.abandoned_from(limit), Ordering::Relaxed);
            }
            done.push((task.index, result));
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

#[cfg(test)]
mod tests {
    use super::{run_tasks, Task};
    use std::time::{Duration, Instant};

    #[test]
    fn a_running_task_sees_it_is_abandoned() {
        // Task 0 fills the limit at once; every later task waits until it is told it no
        // longer counts (or gives up after ten seconds, which fails the test).
        let results = run_tasks(
            4,
            2,
            5,
            |task: Task| {
                if task.index == 0 {
                    return (5, true);
                }
                let start = Instant::now();
                while !task.abandoned() {
                    if start.elapsed() > Duration::from_secs(10) {
                        return (0, false);
                    }
                    std::thread::yield_now();
                }
                (0, true)
            },
            |r| r.0,
        );
        assert_eq!(results[0], Some((5, true)));
        for r in results.iter().skip(1).flatten() {
            assert!(r.1, "a task was never told it was abandoned");
        }
    }

    #[test]
    fn without_a_limit_no_task_is_abandoned() {
        let results = run_tasks(50, 2, usize::MAX, |task: Task| !task.abandoned(), |_| 1);
        assert!(results.iter().all(|r| *r == Some(true)));
    }

    #[test]
    fn results_come_back_in_task_order_whatever_the_threads() {
        for threads in [1, 2, 3, 8] {
            let results = run_tasks(100, threads, 30, |task: Task| task.index, |_| 1);
            let taken: Vec<usize> = results.iter().flatten().copied().take(30).collect();
            assert_eq!(taken, (0..30).collect::<Vec<_>>(), "{threads} threads");
        }
    }
}
