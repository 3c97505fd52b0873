//! Counting without listing: the number of tilings, searched with a memo of how many
//! completions each state has, so that a state met again costs one lookup.
//!
//! A node's completions depend only on its *state*: the lowest free cell, the cells
//! filled from there on (every cell before it is filled: that is what "lowest" means),
//! the pieces unused and their copies left. [`Counting`] keeps, for each state whose
//! subtree it has searched, the number of solutions below it, in a [`Memo`] shared by
//! every thread. Identical copies make states meet very often: the domino tilings of
//! the 10 x 10 square (258,584,046,368 of them) come from a few hundred thousand
//! states.
//!
//! # Where it is exact, and where it is not used
//! The count of a state is exact for [`crate::Mode::All`] with every piece free to go
//! anywhere: the tables searched are the unrestricted ones. Distinct classes cannot be
//! counted this way: whether a solution is the least of its class, and how large the
//! class is, depends on the whole solution (its images under the board's symmetries),
//! not on one state's completions. The memo also needs the whole tree: no `--limit`.
//!
//! # Memory
//! The memo holds at most the bytes its [`MemoOptions`] allow. When it is full it
//! stores nothing more; states it holds are still looked up, and the others are
//! searched again each time they are met, so the count stays exact and the run only
//! grows slower. [`MemoReport`] says how much was used and whether the bound was met.
//!
//! # Nodes
//! A node is counted when entered, a state found in the memo included; its subtree is
//! not entered. Two threads that meet an unstored state at once both search it, so
//! with more than one thread the node count can vary slightly from run to run; the
//! count of solutions never does.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use rustc_hash::FxBuildHasher;

use crate::driver::{Search, Sink, Split};
use crate::search::{Lane, Node, Path, Window, TASK_SPLIT};

/// Memo shards, each with a lock of its own: enough that threads rarely meet.
const SHARDS: usize = 64;

/// Bytes a stored state costs in a hash table: its key and count, and a control byte.
const ENTRY_BYTES: usize = std::mem::size_of::<(Key, u64)>() + 1;

/// How the memo may grow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoOptions {
    /// The most bytes the memo's tables may take.
    pub max_bytes: usize,
}

impl MemoOptions {
    /// A bound of `mib` MiB (`--memo-mib`), the most addressable past that.
    pub fn from_mib(mib: u64) -> MemoOptions {
        MemoOptions {
            max_bytes: usize::try_from(mib.saturating_mul(1 << 20)).unwrap_or(usize::MAX),
        }
    }
}

impl Default for MemoOptions {
    /// A quarter of the machine's memory, and at least one GiB (one GiB where the
    /// memory cannot be read). The split search plans within it, and on the largest
    /// shipped boards the split that pays needs a few GiB (the one-sided pentominoes
    /// 9 x 10: about 3 GiB, README.md "Splitting the search"), while only the pages a
    /// memo touches are ever taken.
    fn default() -> MemoOptions {
        MemoOptions {
            max_bytes: physical_memory().map_or(MIN_DEFAULT_BYTES, |bytes| {
                (bytes / 4).max(MIN_DEFAULT_BYTES)
            }),
        }
    }
}

/// The least default bound: one GiB.
const MIN_DEFAULT_BYTES: usize = 1 << 30;

/// The machine's physical memory in bytes, if the system says.
fn physical_memory() -> Option<usize> {
    #[cfg(unix)]
    {
        // SAFETY: `sysconf` reads system configuration and has no preconditions.
        let (pages, page) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        let (pages, page) = (usize::try_from(pages).ok()?, usize::try_from(page).ok()?);
        pages.checked_mul(page)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// What the memo held at the end of a count (the `memo` object of a JSON summary).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MemoReport {
    /// States stored.
    pub states: u64,
    /// Bytes its tables took.
    pub bytes: u64,
    /// Nodes answered from the memo.
    pub hits: u64,
    /// Whether the bound was met: some states were not stored.
    pub full: bool,
}

/// A search state: everything a node's completions depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    /// The filled cells from the lowest free cell on (bit 0 is that cell, free).
    profile: u64,
    /// The copies left ([`crate::search::Copies`]).
    copies: u64,
    /// The lowest free cell.
    cell: u32,
    /// The pieces unused.
    unused: u32,
}

/// Completions per state, shared by every thread of a count.
pub(crate) struct Memo {
    shards: Box<[Mutex<HashMap<Key, u64, FxBuildHasher>>]>,
    /// Bytes each shard may take.
    shard_bytes: usize,
    hits: AtomicU64,
    full: AtomicBool,
}

impl Memo {
    pub fn new(options: &MemoOptions) -> Memo {
        Memo {
            shards: (0..SHARDS)
                .map(|_| Mutex::new(HashMap::with_hasher(FxBuildHasher)))
                .collect(),
            shard_bytes: options.max_bytes / SHARDS,
            hits: AtomicU64::new(0),
            full: AtomicBool::new(false),
        }
    }

    fn shard(&self, key: &Key) -> &Mutex<HashMap<Key, u64, FxBuildHasher>> {
        // The high bits: the table inside the shard uses the low ones.
        &self.shards[(FxBuildHasher.hash_one(key) >> 58) as usize % SHARDS]
    }

    fn get(&self, key: &Key) -> Option<u64> {
        let found = lock(self.shard(key)).get(key).copied();
        if found.is_some() {
            self.hits.fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    /// Stores `count` for `key` unless that would take the shard past its bytes.
    fn put(&self, key: Key, count: u64) {
        let mut map = lock(self.shard(&key));
        if map.len() == map.capacity() {
            let grown = (map.capacity() * 2).max(16) * ENTRY_BYTES;
            if grown > self.shard_bytes {
                self.full.store(true, Ordering::Relaxed);
                return;
            }
        }
        map.insert(key, count);
    }

    pub fn report(&self) -> MemoReport {
        let (mut states, mut bytes) = (0, 0);
        for shard in &*self.shards {
            let map = lock(shard);
            states += map.len() as u64;
            bytes += (map.capacity() * ENTRY_BYTES) as u64;
        }
        MemoReport {
            states,
            bytes,
            hits: self.hits.load(Ordering::Relaxed),
            full: self.full.load(Ordering::Relaxed),
        }
    }
}

/// A shard's table; a thread that panicked holding it left it whole (every write is
/// one insert), so a poisoned lock is taken as it is.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The count of a window's tree with a memo, as the driver runs it: each task reports
/// its subtree's solutions as one number.
pub(crate) struct Counting<'a, L, const K: usize> {
    pub window: &'a Window<'a, L, K>,
    pub memo: &'a Memo,
}

impl<L: Lane, const K: usize> Counting<'_, L, K> {
    /// The solutions below `node`, adding the nodes entered to `nodes`.
    fn count(&self, node: Node, nodes: &mut u64) -> u64 {
        *nodes += 1;
        let w = self.window;
        if w.is_leaf(node) {
            return 1;
        }
        let Some(key) = self.key(node) else {
            return 0;
        };
        if let Some(count) = self.memo.get(&key) {
            return count;
        }
        let mut total = 0u64;
        let _ = w.for_each_child(node, |_, child| {
            // Saturating: past 64 bits a count stays at `u64::MAX`, as the driver's
            // sums do, and the solver reports an overflow.
            total = total.saturating_add(self.count(child, nodes));
            ControlFlow::Continue(())
        });
        self.memo.put(key, total);
        total
    }

    /// The state of `node`; `None` for a full board (with pieces left: no completion).
    fn key(&self, node: Node) -> Option<Key> {
        let (board, offset) = self.window.settle(node);
        if board == u64::MAX {
            return None;
        }
        let anchor = (!board).trailing_zeros();
        Some(Key {
            profile: board >> anchor,
            copies: node.copies,
            cell: offset as u32 * self.window.shift + anchor,
            unused: node.unused,
        })
    }
}

impl<L: Lane + Sync, const K: usize> Search for Counting<'_, L, K> {
    type Task = (Node, Path);
    type Worker = ();
    type Item = ();

    fn split_for(&self, _threads: usize) -> Split {
        TASK_SPLIT
    }

    fn split(&self, split: Split) -> (Vec<(Node, Path)>, u64) {
        self.window.levels(split)
    }

    fn worker(&self) {}

    fn children(
        &self,
        _: &mut (),
        (node, path): &(Node, Path),
        out: &mut Vec<(Node, Path)>,
    ) -> u64 {
        self.window.children(*node, path, out) as u64
    }

    fn run(&self, _: &mut (), (node, _): &(Node, Path), sink: &mut Sink<'_, ()>) {
        let mut nodes = 0;
        let count = self.count(*node, &mut nodes);
        if sink.stats() {
            sink.nodes += nodes;
        }
        if count > 0 {
            let _ = sink.found(count, |_| {});
        }
    }

    fn depth(&self) -> usize {
        self.window.most_steps() + 1
    }
}
