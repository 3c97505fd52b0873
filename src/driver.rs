//! The driver: every search in polytile runs through it.
//!
//! A search is a tree that can do two things ([`Search`]): cut itself into numbered
//! tasks in search order, and run one task into a [`Sink`]. The driver owns everything
//! around that, once for every solver (the tiling window, the split search, both
//! number searches, the meteor): the worker threads, the limit, the stop signal,
//! abandoning tasks that can no longer count, merging task results in task order,
//! handing the solutions to the caller as they are merged, and the statistics.
//!
//! # Nodes
//! A *node* is a state the search enters: the root, and each child it descends into.
//! The checks a search makes before it descends decide which children exist (a
//! placement that fits the board and leaves fillable islands and bands; a value that
//! passes a static step's checks); work done after it descends belongs to the node
//! even if the node then proves dead (propagation that empties a domain). The split
//! search counts each memoised search once, whichever task or thread ran it. Nodes are
//! counted only when [`Options::stats`] asks.
//!
//! # Stopping
//! Every callback that may stop a search returns [`ControlFlow`]: `Break` stops it.
//!
//! # Order and limits
//! Tasks are numbered in search order. Workers claim them in increasing order, and
//! results are merged in task order, so the solutions and their order do not depend on
//! the number of threads. With a limit, once finished tasks before a task hold `limit`
//! solutions, that task is *abandoned*: tasks before it that are still running can only
//! add solutions ahead of it, so it cannot contribute to the first `limit`. An
//! abandoned task is skipped if it has not started, and a running one stops at its next
//! solution ([`Sink::found`] breaks). Only the tasks merged count towards the nodes, so
//! for a given split the nodes do not depend on the threads either.
//!
//! # Shards and resumed runs
//! A run may search only part of the tree ([`Options::shard`]): shard `K` of `N`. The
//! tree is then cut the same way whatever the threads ([`shard_split`]: at least
//! [`TASKS_PER_SHARD`] tasks per shard, and never fewer than [`MIN_SHARD_TASKS`]),
//! and shard `K` (counted from 1) takes tasks `K - 1, K - 1 + N, K - 1 + 2N, ...`:
//! dealt in turn, so neighbouring subtrees, which tend to be alike in size, go to
//! different shards. The nodes above the tasks' roots are counted by shard 1 alone, so
//! the shards' figures add up to one run's over the same cut. A run may also skip the
//! first tasks of its list ([`Options::skip`]), which a checkpoint says are done; the
//! observer of [`run_observed`] hears of each task merged, in order, to write such a
//! checkpoint.

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// How a search runs: how much it finds and on how many threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Stop once this many solutions are found, in search order (`None`: find all).
    pub limit: Option<u64>,
    /// Worker threads, at least 1 (see [`default_threads`]).
    pub threads: usize,
    /// Count search nodes ([`Summary::nodes`]); off, the searches skip the counting.
    pub stats: bool,
    /// Keep each worker thread on a core of its own (Linux). Left to itself, the
    /// scheduler may start a new thread on the core of the thread that spawned it and
    /// move it only milliseconds later, which matters for searches of a few
    /// milliseconds. Off by default: two searches running at once in one process would
    /// be pinned to the same cores.
    pub pin_threads: bool,
    /// Search only this shard of the tree (see the module docs); `None`: all of it.
    pub shard: Option<Shard>,
    /// Tasks of this run's list (the shard's, or the whole tree's) to leave out from
    /// the start: a checkpoint holds their results. Their solutions are not reported
    /// and their nodes are not counted.
    pub skip: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            limit: None,
            threads: 1,
            stats: false,
            pin_threads: false,
            shard: None,
            skip: 0,
        }
    }
}

/// Shard `index + 1` of `count`: a deterministic part of a search, the same on every
/// machine and for every thread count. Written `K/N` with `K` counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: usize,
    /// How many shards the tree is dealt into, at least 1.
    pub count: usize,
}

/// Why a `K/N` shard could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a shard K/N with 1 <= K <= N (for example 3/8), not '{0}'")]
pub struct ShardError(String);

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let digits = |s: &str| {
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<usize>().ok())
                .flatten()
        };
        match (digits(k), digits(n)) {
            (Some(k), Some(n)) if 1 <= k && k <= n => Ok(Shard {
                index: k - 1,
                count: n,
            }),
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// Tasks per shard the tree is cut into, at least: enough that the shards' shares are
/// alike even though subtrees are not.
pub const TASKS_PER_SHARD: usize = 16;

/// Tasks a sharded tree is cut into, at least, however few the shards: the cut does
/// not depend on the threads, so it must feed every core of a machine on its own.
pub const MIN_SHARD_TASKS: usize = 256;

/// How a tree is cut for `shards` shards: whole levels until there are enough tasks.
pub(crate) fn shard_split(shards: usize) -> Split {
    Split {
        depth: usize::MAX,
        tasks: shards.saturating_mul(TASKS_PER_SHARD).max(MIN_SHARD_TASKS),
    }
}

/// Where a run stands, as the observer of [`run_observed`] hears it after each task
/// merged (on the calling thread, in task order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Tasks of this run's list done: those skipped and those merged.
    pub done: usize,
    /// Tasks in this run's list (the shard's, or the whole tree's).
    pub tasks: usize,
    /// Solutions and the total they stand for, and nodes (with [`Options::stats`]) in
    /// the tasks merged by this run, the nodes above the tasks included.
    pub solutions: u64,
    /// See `solutions`.
    pub total: u64,
    /// See `solutions`.
    pub nodes: u64,
}

impl Options {
    /// The limit as a number: `u64::MAX` when there is none.
    pub(crate) fn max_solutions(&self) -> u64 {
        self.limit.unwrap_or(u64::MAX)
    }
}

/// The number of threads to use when the user did not say: one per available core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Which solutions a solver reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Every solution: images of one another under the puzzle's symmetries count as
    /// different.
    #[default]
    All,
    /// One solution per class of the puzzle's symmetries; [`Summary::total`] gives
    /// the solutions they stand for.
    Distinct,
}

/// What a search found, whatever the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Solutions found, up to the limit; in [`Mode::Distinct`], classes.
    pub solutions: u64,
    /// The solutions they stand for: in [`Mode::Distinct`], the sum of the classes'
    /// sizes; otherwise equal to `solutions`.
    pub total: u64,
    /// Nodes visited (see the module docs), when [`Options::stats`] was set.
    pub nodes: Option<u64>,
    /// The tasks the search tree was cut into.
    pub tasks: usize,
    /// The tasks this run searched: with a shard or skipped tasks, fewer than `tasks`.
    pub searched: usize,
    /// Whether the whole tree was searched: no limit was reached and the caller did
    /// not stop the search.
    pub complete: bool,
}

impl Summary {
    /// Whether a count passed 64 bits: counts saturate at `u64::MAX` rather than wrap,
    /// so `solutions` or `total` at `u64::MAX` means "at least that many", and no
    /// figure to report.
    pub fn overflowed(&self) -> bool {
        self.solutions == u64::MAX || self.total == u64::MAX
    }
}

/// How a search tree is cut into tasks: whole levels are expanded until there are at
/// least `tasks` tasks or `depth` levels are expanded, whichever comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    pub depth: usize,
    pub tasks: usize,
}

/// A search tree as the driver sees it.
pub(crate) trait Search: Sync {
    /// A subtree, as the search describes it.
    type Task: Send + Sync + Clone;
    /// One worker thread's working space, made once per thread.
    type Worker: Send;
    /// What a solution becomes for the caller.
    type Item: Send;

    /// How the tree is cut for `threads` threads. The cut changes only how the work is
    /// shared, never the solutions or their order.
    fn split_for(&self, threads: usize) -> Split;

    /// The tree cut into tasks, in search order (searching them in turn finds the
    /// solutions in the order one search from the root would), and the nodes entered
    /// above the tasks' roots, the root included unless it is a task. Each task's run
    /// counts its own root.
    fn split(&self, split: Split) -> (Vec<Self::Task>, u64);

    /// A fresh working space for a worker thread.
    fn worker(&self) -> Self::Worker;

    /// Searches one task, reporting to `sink` (and adding its nodes to `sink.nodes`
    /// when [`Sink::stats`]).
    fn run(&self, worker: &mut Self::Worker, task: &Self::Task, sink: &mut Sink<'_, Self::Item>);

    /// The children of a task's root that the search descends into, appended to `out`
    /// in search order, and the nodes that entering all its children makes: at least
    /// `out`'s growth, more when a child is entered and found dead there (propagation
    /// that empties a domain). Nothing for a solution or a dead end. Walking the tree
    /// through this visits exactly the nodes a run counts, which is what
    /// [`crate::estimate`] samples.
    fn children(
        &self,
        worker: &mut Self::Worker,
        task: &Self::Task,
        out: &mut Vec<Self::Task>,
    ) -> u64;

    /// Nodes a worker visited outside its tasks (searches shared by all tasks), added
    /// once the search is over.
    fn worker_nodes(&self, _worker: &Self::Worker) -> u64 {
        0
    }

    /// How deep a task's search may recurse, in levels (the number searches recurse
    /// once per cell). Past [`SHALLOW`], tasks run on threads of their own with a stack
    /// to match, whatever the caller's thread has.
    fn depth(&self) -> usize {
        0
    }
}

/// Recursion this deep runs on any thread's stack.
const SHALLOW: usize = 2048;

/// Stack per level of recursion for deeper searches: more than any search's frame.
const FRAME_BYTES: usize = 1024;

/// A task as its search sees it: its number, and whether it still counts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Task<'a> {
    index: usize,
    abandoned_from: &'a AtomicUsize,
}

impl Task<'_> {
    /// Whether nothing this task finds can count any more (see the module docs).
    #[inline]
    fn abandoned(&self) -> bool {
        self.index >= self.abandoned_from.load(Ordering::Relaxed)
    }
}

/// Where one task's search reports its solutions.
pub(crate) struct Sink<'a, T> {
    keep: bool,
    stats: bool,
    limit: u64,
    task: Task<'a>,
    count: u64,
    total: u64,
    items: Vec<T>,
    /// With a limit, the size of each class found by [`Sink::found_class`], so that the
    /// merge can total exactly the first ones.
    sizes: Vec<u64>,
    /// Nodes the task visited; the search adds them when [`Sink::stats`].
    pub nodes: u64,
}

/// What a task found.
struct Found<T> {
    count: u64,
    total: u64,
    items: Vec<T>,
    sizes: Vec<u64>,
    nodes: u64,
}

impl<'a, T> Sink<'a, T> {
    fn new(keep: bool, stats: bool, limit: u64, task: Task<'a>) -> Sink<'a, T> {
        Sink {
            keep,
            stats,
            limit,
            task,
            count: 0,
            total: 0,
            items: Vec::new(),
            sizes: Vec::new(),
            nodes: 0,
        }
    }

    /// Whether nodes are counted.
    #[inline(always)]
    pub fn stats(&self) -> bool {
        self.stats
    }

    /// Records `count` solutions, each standing for itself; when they are kept,
    /// `items` writes exactly `count` items. `Break` once the task holds the limit or
    /// is abandoned. A task reports through this or [`Sink::found_class`], not both.
    #[inline]
    pub fn found(&mut self, count: u64, items: impl FnOnce(&mut Vec<T>)) -> ControlFlow<()> {
        // Saturating: a count past 64 bits stays at `u64::MAX`, which callers report as
        // an overflow, rather than wrapping to a wrong figure.
        self.count = self.count.saturating_add(count);
        self.total = self.total.saturating_add(count);
        if self.keep {
            items(&mut self.items);
        }
        self.go_on()
    }

    /// Records one class of solutions standing for `size` solutions; when it is kept,
    /// `item` makes its representative. `Break` as for [`Sink::found`].
    #[inline]
    pub fn found_class(&mut self, size: u64, item: impl FnOnce() -> T) -> ControlFlow<()> {
        self.count += 1;
        self.total = self.total.saturating_add(size);
        if self.limit != u64::MAX {
            self.sizes.push(size);
        }
        if self.keep {
            self.items.push(item());
        }
        self.go_on()
    }

    /// Whether the solutions' items are kept: when they are not, a search that knows
    /// how many classes it found without making them may use [`Sink::found_classes`].
    #[inline(always)]
    pub fn keeps(&self) -> bool {
        self.keep
    }

    /// Records `classes` classes of `size` solutions each, none kept (only when
    /// [`Sink::keeps`] is false). Past a limit the merge takes the first ones, as
    /// their sizes are recorded. `Break` as for [`Sink::found`].
    #[inline]
    pub fn found_classes(&mut self, classes: u64, size: u64) -> ControlFlow<()> {
        debug_assert!(!self.keep, "classes counted only, with items kept");
        self.count = self.count.saturating_add(classes);
        self.total = self.total.saturating_add(classes.saturating_mul(size));
        if self.limit != u64::MAX {
            self.sizes
                .extend(std::iter::repeat_n(size, classes as usize));
        }
        self.go_on()
    }

    #[inline]
    fn go_on(&self) -> ControlFlow<()> {
        if self.count >= self.limit || self.task.abandoned() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn finish(self) -> Found<T> {
        Found {
            count: self.count,
            total: self.total,
            items: self.items,
            sizes: self.sizes,
            nodes: self.nodes,
        }
    }
}

/// Runs `search` with `options`, handing each solution's item to `deliver` in search
/// order as the tasks are merged (only when `keep`; otherwise solutions are only
/// counted). `deliver` runs on the calling thread; `Break` from it stops the search.
pub(crate) fn run<S: Search>(
    search: &S,
    options: &Options,
    keep: bool,
    deliver: impl FnMut(S::Item) -> ControlFlow<()>,
) -> Summary {
    run_observed(search, options, keep, deliver, &mut |_| {})
}

/// [`run`], telling `observe` where the run stands after each task merged.
pub(crate) fn run_observed<S: Search>(
    search: &S,
    options: &Options,
    keep: bool,
    mut deliver: impl FnMut(S::Item) -> ControlFlow<()>,
    observe: &mut dyn FnMut(&Progress),
) -> Summary {
    let limit = options.max_solutions();
    let mut summary = Summary {
        solutions: 0,
        total: 0,
        nodes: options.stats.then_some(0),
        tasks: 0,
        searched: 0,
        complete: limit > 0,
    };
    if limit == 0 {
        return summary;
    }
    let threads = options.threads.max(1);
    let split = match options.shard {
        Some(shard) => shard_split(shard.count),
        None => search.split_for(threads),
    };
    let (tasks, above) = search.split(split);
    summary.tasks = tasks.len();
    // This run's tasks, in order: the shard's share, less those a checkpoint holds.
    let (first, step) = options.shard.map_or((0, 1), |s| (s.index, s.count.max(1)));
    let mine: Vec<usize> = (first..tasks.len()).step_by(step).collect();
    let listed = mine.len();
    let skip = options.skip.min(listed);
    let mine = &mine[skip..];
    // The nodes above the tasks belong to the first task's run: shard 1, not resumed.
    let mut nodes = if first == 0 && skip == 0 { above } else { 0 };
    let mut stopped = false;
    let mut merged = 0;
    let run_task = |worker: &mut S::Worker, task: Task| {
        let mut sink = Sink::new(keep, options.stats, limit, task);
        search.run(worker, &tasks[mine[task.index]], &mut sink);
        sink.finish()
    };
    let merge = |found: Option<Found<S::Item>>| {
        if summary.solutions >= limit {
            // Tasks past the limit may have run on other threads; leaving their nodes
            // out keeps the figure independent of the thread count.
            return ControlFlow::Break(());
        }
        let Some(found) = found else {
            return ControlFlow::Continue(());
        };
        merged += 1;
        nodes += found.nodes;
        // A task stops at the limit on its own, so only the last task taken can hold
        // more than is needed.
        let take = found.count.min(limit - summary.solutions);
        summary.solutions = summary.solutions.saturating_add(take);
        summary.total = summary.total.saturating_add(if take == found.count {
            found.total
        } else if found.sizes.len() as u64 == found.count {
            found.sizes[..take as usize].iter().sum()
        } else {
            take
        });
        for item in found.items.into_iter().take(take as usize) {
            if deliver(item).is_break() {
                stopped = true;
                return ControlFlow::Break(());
            }
        }
        observe(&Progress {
            done: skip + merged,
            tasks: listed,
            solutions: summary.solutions,
            total: summary.total,
            nodes,
        });
        ControlFlow::Continue(())
    };
    // A deep search gets stacks of its own.
    let depth = search.depth();
    let stack = (depth > SHALLOW).then(|| (depth + SHALLOW) * FRAME_BYTES);
    let workers = pool(
        mine.len(),
        threads,
        Placement {
            pin: options.pin_threads,
            stack,
        },
        limit,
        || search.worker(),
        run_task,
        merge,
    );
    nodes += workers.iter().map(|w| search.worker_nodes(w)).sum::<u64>();
    if options.stats {
        summary.nodes = Some(nodes);
    }
    summary.searched = merged;
    summary.complete = summary.solutions < limit && !stopped;
    summary
}

/// Runs one task alone, counting (nothing is kept, no limit): the solutions it finds,
/// the total they stand for, and its nodes.
pub(crate) fn run_one<S: Search>(
    search: &S,
    worker: &mut S::Worker,
    task: &S::Task,
) -> (u64, u64, u64) {
    let never = AtomicUsize::new(usize::MAX);
    let index = Task {
        index: 0,
        abandoned_from: &never,
    };
    let mut sink = Sink::new(false, true, u64::MAX, index);
    search.run(worker, task, &mut sink);
    (sink.count, sink.total, sink.nodes)
}

/// Task results not yet merged, and what finished tasks hold (for abandoning).
struct Results<R> {
    /// Per task from `merged` on, as far as the last finished: `None` until it
    /// finishes; then `Some(None)` if it was skipped. Tasks are claimed in order, so
    /// this holds about as many as there are threads, not a slot for every task, each
    /// page of which a fresh process pays a fault for.
    pending: VecDeque<Option<Option<R>>>,
    /// Solutions each finished task holds.
    counts: Vec<u64>,
    /// Their sum.
    held: u64,
    /// Tasks merged so far: every task before it.
    merged: usize,
}

impl<R> Results<R> {
    /// The first task that finished tasks before it hold `limit` solutions for (every
    /// later one too, since they have more before them), or `usize::MAX`.
    fn abandoned_from(&self, limit: u64) -> usize {
        let mut held = 0u64;
        for (task, &n) in self.counts.iter().enumerate() {
            held = held.saturating_add(n);
            if held >= limit {
                return task + 1;
            }
        }
        usize::MAX
    }
}

/// Where the workers run.
struct Placement {
    /// Keep each worker on a core of its own.
    pin: bool,
    /// Run every worker on a thread of its own with a stack of this many bytes
    /// (the calling thread then only merges).
    stack: Option<usize>,
}

/// Runs `run` for tasks `0..tasks` on `threads` threads, the calling thread being one of
/// them unless `placement` asks for stacks, and hands the results to `merge` on the
/// calling thread in task order (`None` for a task skipped because it was abandoned)
/// until `merge` breaks. Returns the workers' states.
fn pool<W: Send, R: Send>(
    tasks: usize,
    threads: usize,
    placement: Placement,
    limit: u64,
    init: impl Fn() -> W + Sync,
    run: impl Fn(&mut W, Task) -> Found<R> + Sync,
    mut merge: impl FnMut(Option<Found<R>>) -> ControlFlow<()>,
) -> Vec<W>
where
    Found<R>: Send,
{
    let next = AtomicUsize::new(0);
    let abandoned_from = AtomicUsize::new(usize::MAX);
    let board = Mutex::new(Results {
        pending: VecDeque::new(),
        counts: vec![0; tasks],
        held: 0,
        merged: 0,
    });
    // Claims and runs tasks until none is left; `after` runs after each.
    let work = |state: &mut W, after: &mut dyn FnMut()| loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= tasks {
            break;
        }
        let task = Task {
            index,
            abandoned_from: &abandoned_from,
        };
        let result = (!task.abandoned()).then(|| run(state, task));
        {
            let mut b = board.lock().unwrap_or_else(|e| e.into_inner());
            if limit != u64::MAX {
                let count = result.as_ref().map_or(0, |r| r.count);
                b.counts[index] = count;
                b.held += count;
                // Scanned only when it can move: no prefix of the finished tasks holds
                // `limit` before all of them do, and a task from `abandoned_from` on
                // changes no prefix before it. (Scanned after every task, the work
                // grew with the square of the tasks.)
                if b.held >= limit && index < abandoned_from.load(Ordering::Relaxed) {
                    abandoned_from.fetch_min(b.abandoned_from(limit), Ordering::Relaxed);
                }
            }
            let at = index - b.merged;
            if b.pending.len() <= at {
                b.pending.resize_with(at + 1, || None);
            }
            b.pending[at] = Some(result);
        }
        after();
    };
    // Merges the results ready in task order; false once `merge` broke.
    let mut merging = true;
    let mut merge_ready = || {
        while merging {
            let ready = {
                let mut b = board.lock().unwrap_or_else(|e| e.into_inner());
                match b.pending.front_mut().and_then(Option::take) {
                    Some(r) => {
                        b.pending.pop_front();
                        b.merged += 1;
                        r
                    }
                    None => return,
                }
            };
            if merge(ready).is_break() {
                merging = false;
                // Nothing later can count: every task still to run is abandoned.
                abandoned_from.store(0, Ordering::Relaxed);
            }
        }
    };
    let threads = threads.clamp(1, tasks.max(1));
    let cpus = if placement.pin && threads > 1 {
        affinity::allowed_cpus()
    } else {
        Vec::new()
    };
    let pin = cpus.len() >= threads;
    // The calling thread is worker 0, unless the workers need stacks of their own.
    let caller_works = placement.stack.is_none();
    let mut states = Vec::with_capacity(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = (usize::from(caller_works)..threads)
            .map(|k| {
                let cpu = cpus.get(k).copied().filter(|_| pin);
                let (init, work) = (&init, &work);
                let mut builder = std::thread::Builder::new();
                if let Some(bytes) = placement.stack {
                    builder = builder.stack_size(bytes);
                }
                builder
                    .spawn_scoped(s, move || {
                        if let Some(cpu) = cpu {
                            affinity::pin_current_thread(cpu);
                        }
                        let mut state = init();
                        work(&mut state, &mut || {});
                        state
                    })
                    .expect("the system starts a worker thread")
            })
            .collect();
        if caller_works {
            // The calling thread works too, merging as it goes; it is kept on a core
            // only while it works.
            let restore = pin.then(|| affinity::pin_current_thread(cpus[0]));
            let mut state = init();
            work(&mut state, &mut merge_ready);
            if let Some(Some(mask)) = restore {
                affinity::restore(&mask);
            }
            states.push(state);
        }
        for h in handles {
            match h.join() {
                Ok(state) => states.push(state),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    merge_ready();
    states
}

/// Keeping threads on cores (Linux; elsewhere nothing happens).
mod affinity {
    /// A thread's set of allowed cores.
    #[cfg(target_os = "linux")]
    pub type Mask = libc::cpu_set_t;
    #[cfg(not(target_os = "linux"))]
    pub type Mask = ();

    /// The cores this process may run on, in increasing order; empty where unknown.
    #[cfg(target_os = "linux")]
    pub fn allowed_cpus() -> Vec<usize> {
        match current() {
            Some(set) => (0..libc::CPU_SETSIZE as usize)
                // SAFETY: `CPU_ISSET` reads one bit of a valid set.
                .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
                .collect(),
            None => Vec::new(),
        }
    }

    #[cfg(target_os = "linux")]
    fn current() -> Option<Mask> {
        // SAFETY: `cpu_set_t` is plain data, valid when zeroed; `sched_getaffinity`
        // writes at most `size_of::<cpu_set_t>()` bytes into it.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            (libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0)
                .then_some(set)
        }
    }

    /// Keeps the calling thread on `cpu`; returns the cores it was allowed before, to
    /// [`restore`]. A failure only loses the placement.
    #[cfg(target_os = "linux")]
    pub fn pin_current_thread(cpu: usize) -> Option<Mask> {
        let before = current();
        // SAFETY: as above; `CPU_SET` writes one bit of the zeroed set, whose size is
        // passed.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
        }
        before
    }

    /// Lets the calling thread run on the cores of `mask` again.
    #[cfg(target_os = "linux")]
    pub fn restore(mask: &Mask) {
        // SAFETY: `mask` is a valid set of the size passed.
        unsafe {
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), mask);
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub fn allowed_cpus() -> Vec<usize> {
        Vec::new()
    }

    #[cfg(not(target_os = "linux"))]
    pub fn pin_current_thread(_cpu: usize) -> Option<Mask> {
        None
    }

    #[cfg(not(target_os = "linux"))]
    pub fn restore(_mask: &Mask) {}
}

#[cfg(test)]
mod tests {
    use super::{run, Options, Search, Sink, Split};
    use std::ops::ControlFlow;
    use std::time::{Duration, Instant};

    /// A tree of `tasks` tasks; task `i` finds `per_task[i]` solutions numbered
    /// `1000 * i + j`. With `wait`, every task but the first waits until it is told it
    /// no longer counts.
    struct Counting {
        per_task: Vec<u64>,
        wait: bool,
    }

    impl Search for Counting {
        type Task = usize;
        type Worker = u64;
        type Item = u64;

        fn split_for(&self, _threads: usize) -> Split {
            Split {
                depth: 1,
                tasks: usize::MAX,
            }
        }

        fn split(&self, _split: Split) -> (Vec<usize>, u64) {
            ((0..self.per_task.len()).collect(), 1)
        }

        fn worker(&self) -> u64 {
            0
        }

        fn children(&self, _: &mut u64, _: &usize, _: &mut Vec<usize>) -> u64 {
            0
        }

        fn run(&self, worker: &mut u64, &task: &usize, sink: &mut Sink<'_, u64>) {
            *worker += 1;
            sink.nodes += 1;
            if self.wait && task > 0 {
                let start = Instant::now();
                while !sink.task.abandoned() {
                    assert!(start.elapsed() < Duration::from_secs(10), "never abandoned");
                    std::thread::yield_now();
                }
                return;
            }
            for j in 0..self.per_task[task] {
                let id = 1000 * task as u64 + j;
                if sink.found(1, |items| items.push(id)).is_break() {
                    return;
                }
            }
        }
    }

    fn options(limit: Option<u64>, threads: usize) -> Options {
        Options {
            limit,
            threads,
            stats: true,
            ..Options::default()
        }
    }

    fn collect(search: &Counting, options: Options) -> (Vec<u64>, super::Summary) {
        let mut items = Vec::new();
        let summary = run(search, &options, true, |i| {
            items.push(i);
            ControlFlow::Continue(())
        });
        (items, summary)
    }

    #[test]
    fn results_come_in_task_order_whatever_the_threads() {
        let search = Counting {
            per_task: (0..100).map(|i| i % 4).collect(),
            wait: false,
        };
        let (all, summary) = collect(&search, options(None, 1));
        assert_eq!(all.len() as u64, summary.solutions);
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(summary.nodes, Some(101));
        assert!(summary.complete);
        for threads in [1, 2, 3, 8] {
            for limit in [1, 2, 30, 149, 150, 151] {
                let (items, s) = collect(&search, options(Some(limit), threads));
                let want = all.len().min(limit as usize);
                assert_eq!(items, all[..want], "{threads} threads, limit {limit}");
                assert_eq!(s.solutions, want as u64);
                assert_eq!(s.complete, (want as u64) < limit);
                let (_, one) = collect(&search, options(Some(limit), 1));
                assert_eq!(s.nodes, one.nodes, "{threads} threads, limit {limit}");
            }
        }
    }

    #[test]
    fn a_running_task_sees_it_is_abandoned() {
        let search = Counting {
            per_task: vec![5, 0, 0, 0],
            wait: true,
        };
        let (items, s) = collect(&search, options(Some(5), 2));
        assert_eq!(items, [0, 1, 2, 3, 4]);
        assert!(!s.complete);
    }

    #[test]
    fn the_caller_can_stop_the_search() {
        let search = Counting {
            per_task: vec![3; 50],
            wait: false,
        };
        for threads in [1, 2] {
            let mut items = Vec::new();
            let s = run(&search, &options(None, threads), true, |i| {
                items.push(i);
                if items.len() == 7 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert_eq!(items, [0, 1, 2, 1000, 1001, 1002, 2000]);
            assert!(!s.complete);
        }
    }

    #[test]
    fn shards_deal_out_the_tasks_and_skipping_leaves_out_a_prefix() {
        let search = Counting {
            per_task: (0..300).map(|i| i % 5).collect(),
            wait: false,
        };
        let (all, whole) = collect(&search, options(None, 2));
        for n in [1, 2, 7, 64, 400] {
            let mut got = Vec::new();
            let mut nodes = 0;
            for index in 0..n {
                for threads in [1, 3] {
                    let shard = super::Shard { index, count: n };
                    let (items, s) = collect(
                        &search,
                        Options {
                            shard: Some(shard),
                            ..options(None, threads)
                        },
                    );
                    // Shard k takes tasks k, k + n, ... in order.
                    let tasks: Vec<u64> = (index..300).step_by(n).map(|t| t as u64).collect();
                    assert!(items.iter().all(|i| tasks.contains(&(i / 1000))), "{shard}");
                    assert_eq!(s.searched, tasks.len(), "{shard}");
                    if threads == 1 {
                        got.extend(items);
                        nodes += s.nodes.unwrap();
                    }
                }
            }
            got.sort_unstable();
            assert_eq!(got, all, "{n} shards");
            assert_eq!(
                Some(nodes),
                whole.nodes,
                "{n} shards: the root counted once"
            );
        }
        // Skipping: the tasks after the first `skip` of the list, and their progress.
        let shard = super::Shard { index: 1, count: 3 };
        let mine: Vec<usize> = (1..300).step_by(3).collect();
        for skip in [0, 1, 50, 99, 100, 500] {
            let mut seen = Vec::new();
            let (items, s) = {
                let mut items = Vec::new();
                let s = super::run_observed(
                    &search,
                    &Options {
                        shard: Some(shard),
                        skip,
                        ..options(None, 2)
                    },
                    true,
                    |i| {
                        items.push(i);
                        ControlFlow::Continue(())
                    },
                    &mut |p| seen.push(*p),
                );
                (items, s)
            };
            let left = &mine[skip.min(mine.len())..];
            let want: Vec<u64> = all
                .iter()
                .copied()
                .filter(|i| left.contains(&((i / 1000) as usize)))
                .collect();
            assert_eq!(items, want, "skip {skip}");
            assert_eq!(s.searched, left.len(), "skip {skip}");
            assert_eq!(seen.len(), left.len(), "skip {skip}");
            for (k, p) in seen.iter().enumerate() {
                assert_eq!((p.done, p.tasks), (skip + k + 1, mine.len()), "skip {skip}");
            }
            if let Some(last) = seen.last() {
                assert_eq!(last.solutions, items.len() as u64);
            }
        }
    }

    #[test]
    fn shards_are_read_and_written_as_k_of_n() {
        use super::Shard;
        assert_eq!("3/8".parse(), Ok(Shard { index: 2, count: 8 }));
        assert_eq!(Shard { index: 2, count: 8 }.to_string(), "3/8");
        for bad in [
            "0/8", "9/8", "8", "/8", "3/", "a/8", "+3/8", "3/8/1", " 3/8", "1/0",
        ] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn limit_zero_searches_nothing() {
        let search = Counting {
            per_task: vec![3; 5],
            wait: false,
        };
        let (items, s) = collect(&search, options(Some(0), 2));
        assert!(items.is_empty());
        assert_eq!((s.solutions, s.nodes, s.complete), (0, Some(0), false));
    }
}
