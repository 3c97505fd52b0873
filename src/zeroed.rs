//! Large zeroed tables of atomic words, taken straight from the operating system so that
//! only the pages touched cost anything.
//!
//! `calloc` gives that for large blocks only while the allocator maps them afresh; once
//! a process has freed such a block, glibc raises its threshold and serves the next ones
//! from the heap, clearing every byte: a second meteor search in one process spent
//! longer clearing memo tables it barely touches than searching (see the commit that
//! made this module).

use std::ops::Deref;
use std::sync::atomic::{AtomicU32, AtomicU64};

/// A word of these tables: an atomic integer (`bytemuck` says zero bytes are its zero;
/// `Send` and `Sync` are what the `Zeroed` impls below rely on).
pub trait ZeroWord: bytemuck::Zeroable + Send + Sync {}
impl ZeroWord for AtomicU32 {}
impl ZeroWord for AtomicU64 {}

/// Tables under this many bytes come from the heap: clearing them costs less than the
/// two system calls of a mapping of their own, and a split search makes dozens of them
/// (a memo's index per split, for each row its measurement tries).
const SMALL_BYTES: usize = 64 << 10;

/// `len` zeroed 32-bit words, freed on drop.
pub type ZeroedWords = Zeroed<AtomicU32>;

/// `len` zeroed atomic words of type `W`, freed on drop.
pub struct Zeroed<W: ZeroWord> {
    /// The words: a mapping of our own (`mapped`), or `boxed`'s.
    ptr: std::ptr::NonNull<W>,
    len: usize,
    /// The length of our own mapping (at least `len` words), or 0 for none.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    mapped: usize,
    /// The fallback allocation, kept alive for `ptr`.
    _boxed: Box<[W]>,
}

// SAFETY: the words are owned by this value alone and are atomics, which are `Sync`;
// nothing else refers to them, so they may move to and be shared between threads.
unsafe impl<W: ZeroWord> Send for Zeroed<W> {}
unsafe impl<W: ZeroWord> Sync for Zeroed<W> {}

impl<W: ZeroWord> Zeroed<W> {
    /// `len` words, all zero.
    pub fn new(len: usize) -> Zeroed<W> {
        Zeroed::with_pages(len, Pages::Small)
    }

    /// [`Zeroed::new`] for a table written from its start on, in order (an append-only
    /// arena): where the system offers them, its first [`HUGE_BYTES`] are one huge
    /// page, so that a small table costs one page fault rather than one per 4 KiB, and
    /// that page is faulted here, before the caller writes. Not for a table written
    /// here and there, where a huge page touched is cleared whole.
    pub fn in_order(len: usize) -> Zeroed<W> {
        Zeroed::with_pages(len, Pages::Huge)
    }

    fn with_pages(len: usize, pages: Pages) -> Zeroed<W> {
        let small = len.saturating_mul(std::mem::size_of::<W>()) < SMALL_BYTES;
        // Only a large table is mapped: a mapping made and not kept would never be
        // unmapped.
        if let Some((ptr, mapped)) = (!small).then(|| map::<W>(len, pages)).flatten() {
            return Zeroed {
                ptr,
                len,
                mapped,
                _boxed: Box::new([]),
            };
        }
        let boxed: Box<[W]> = bytemuck::allocation::zeroed_slice_box(len);
        Zeroed {
            // A box's pointer is never null (dangling but aligned when empty).
            ptr: std::ptr::NonNull::new(boxed.as_ptr().cast_mut()).expect("a box pointer"),
            len,
            mapped: 0,
            _boxed: boxed,
        }
    }
}

/// Bytes of an in-order table advised to take huge pages: one huge page on x86-64.
const HUGE_BYTES: usize = 2 << 20;

/// The pages a mapping asks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pages {
    Small,
    /// Transparent huge pages (`MADV_HUGEPAGE`), where the system has them.
    Huge,
}

/// A private anonymous mapping of `len` words: zero pages, each backed by memory only
/// once touched. Returns it and its length in bytes; `None` if the system refuses it or
/// has no such thing.
#[cfg(target_os = "linux")]
fn map<W>(len: usize, pages: Pages) -> Option<(std::ptr::NonNull<W>, usize)> {
    let bytes = len.checked_mul(std::mem::size_of::<W>())?;
    if bytes == 0 {
        return None;
    }
    // Linux starts a mapping on a huge-page boundary when its length is a whole number
    // of huge pages, and only then can its first huge page be one.
    let bytes = match pages {
        Pages::Small => bytes,
        Pages::Huge => bytes.checked_next_multiple_of(HUGE_BYTES)?,
    };
    #[cfg(test)]
    tests::MAPS.with(|m| m.set(m.get() + 1));
    // SAFETY: a fresh anonymous mapping, placed by the kernel; no existing memory is
    // affected. The result is checked before use.
    let ptr = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if ptr == libc::MAP_FAILED {
        return None;
    }
    if pages == Pages::Huge {
        #[cfg(test)]
        tests::HUGE.with(|m| m.set(m.get() + 1));
        // Advice only: a system without huge pages, or with them turned off, refuses
        // it or ignores it, and the mapping serves as it is. The first huge page only:
        // past it, each huge page cost more system time to fault than its small pages
        // did.
        // SAFETY: the mapping just made, and no more than its length; advice changes
        // no contents.
        unsafe { libc::madvise(ptr, bytes.min(HUGE_BYTES), libc::MADV_HUGEPAGE) };
        // The table is written from its start: its first page is faulted now rather
        // than at the first write, in the middle of the caller's work (a split
        // search's first block). Both clear the same 2 MiB, yet the meteor search
        // measured faster this way (the figures are in the commit that made it).
        // SAFETY: the first byte of the mapping just made, readable and writable;
        // nothing else refers to it yet, and zero is what it holds.
        unsafe { ptr.cast::<u8>().write_volatile(0) };
    }
    Some((std::ptr::NonNull::new(ptr.cast())?, bytes))
}

#[cfg(not(target_os = "linux"))]
fn map<W>(_len: usize, _pages: Pages) -> Option<(std::ptr::NonNull<W>, usize)> {
    None
}

impl<W: ZeroWord> Deref for Zeroed<W> {
    type Target = [W];
    #[inline(always)]
    fn deref(&self) -> &[W] {
        // SAFETY: `ptr` points to `len` words that live as long as `self`: a mapping
        // made by `map` (readable, writable, page-aligned, zero-filled by the kernel,
        // and zero is a valid `W`, see `ZeroWord`) or the kept box. They are only ever accessed
        // through atomics.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<W: ZeroWord> Drop for Zeroed<W> {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if self.mapped > 0 {
            // SAFETY: the mapping made in `map`, with its length; no reference to it
            // outlives `self`.
            unsafe {
                libc::munmap(self.ptr.as_ptr().cast(), self.mapped);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ZeroedWords, SMALL_BYTES};
    use std::cell::Cell;
    use std::sync::atomic::Ordering;

    thread_local! {
        /// Mappings this thread asked the system for.
        pub(super) static MAPS: Cell<usize> = const { Cell::new(0) };
        /// Of them, those advised to take huge pages.
        pub(super) static HUGE: Cell<usize> = const { Cell::new(0) };
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn only_tables_written_in_order_ask_for_huge_pages() {
        let before = (MAPS.with(Cell::get), HUGE.with(Cell::get));
        let scattered = ZeroedWords::new(1 << 22);
        assert_eq!(HUGE.with(Cell::get), before.1, "a table written anywhere");
        let arena = ZeroedWords::in_order(1 << 22);
        assert_eq!(
            (MAPS.with(Cell::get), HUGE.with(Cell::get)),
            (before.0 + 2, before.1 + 1)
        );
        // A small one comes from the heap, huge pages or not.
        let small = ZeroedWords::in_order(16);
        assert_eq!(MAPS.with(Cell::get), before.0 + 2);
        // Written in order, read back.
        for (i, w) in arena.iter().enumerate().step_by(1021) {
            assert_eq!(w.load(Ordering::Relaxed), 0);
            w.store(i as u32 + 1, Ordering::Relaxed);
        }
        assert!(arena
            .iter()
            .enumerate()
            .step_by(1021)
            .all(|(i, w)| w.load(Ordering::Relaxed) == i as u32 + 1));
        drop((scattered, arena, small));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn only_large_tables_are_mapped() {
        let before = MAPS.with(Cell::get);
        let small: Vec<ZeroedWords> = (0..10).map(|_| ZeroedWords::new(SMALL_BYTES / 8)).collect();
        assert_eq!(MAPS.with(Cell::get), before, "a small table made a mapping");
        let large = ZeroedWords::new(SMALL_BYTES);
        assert_eq!(MAPS.with(Cell::get), before + 1);
        drop((small, large));
    }

    #[test]
    fn words_start_zero_and_keep_what_is_written() {
        for len in [0, 1, 1000, 1 << 20] {
            let words = ZeroedWords::new(len);
            assert_eq!(words.len(), len);
            for i in (0..len).step_by(4093) {
                assert_eq!(words[i].load(Ordering::Relaxed), 0);
                words[i].store(i as u32 + 1, Ordering::Relaxed);
            }
            for i in (0..len).step_by(4093) {
                assert_eq!(words[i].load(Ordering::Relaxed), i as u32 + 1);
            }
        }
    }

    #[test]
    fn words_are_shared_between_threads() {
        let words = ZeroedWords::new(1 << 16);
        std::thread::scope(|s| {
            for t in 0..2u32 {
                let words = &words;
                s.spawn(move || {
                    for i in (t as usize..words.len()).step_by(2) {
                        words[i].fetch_add(t + 1, Ordering::Relaxed);
                    }
                });
            }
        });
        assert!(words
            .iter()
            .enumerate()
            .all(|(i, w)| w.load(Ordering::Relaxed) == (i % 2) as u32 + 1));
    }
}
