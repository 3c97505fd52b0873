//! The fit test of each lane type against its definition: bit `i` set exactly when
//! mask `i` and the board share no cell, for every slot count the tables use, on
//! sparse and dense random masks and boards (so that both fits and clashes occur, in
//! every lane position). The one the search uses, and each of `search::fit` this
//! build has: a build for an AVX-512 CPU still checks the SSE tests other CPUs use.

use super::tiling::Rng;
use crate::search::Lane;

fn random_word(rng: &mut Rng) -> u64 {
    let mut x = 0u64;
    // Few bits set, often: most placements miss most of a sparse board.
    for _ in 0..1 + rng.below(6) {
        x |= 1 << rng.below(64);
    }
    if rng.below(3) == 0 {
        x |= (rng.below(1 << 30) as u64) << rng.below(34);
    }
    x
}

/// A fit test of `K` lanes of `L`.
type FitTest<L, const K: usize> = fn(&[L; K], L) -> u32;

fn check<L: Lane, const K: usize>(
    rng: &mut Rng,
    narrow: impl Fn(u64) -> L,
    fit: FitTest<L, K>,
) -> [usize; 2] {
    let mut seen = [0; 2];
    for _ in 0..2_000 {
        let masks: [L; K] = std::array::from_fn(|_| narrow(random_word(rng)));
        let board = random_word(rng);
        let bits = fit(&masks, L::from_board(board));
        for (i, &m) in masks.iter().enumerate() {
            let fits = m.widen() & L::from_board(board).widen() == 0;
            assert_eq!(
                bits >> i & 1 == 1,
                fits,
                "lane {i} of {K}: {masks:?} {board:#x}"
            );
            seen[usize::from(fits)] += 1;
        }
        assert_eq!(
            u64::from(bits) >> K,
            0,
            "bits past the {K} lanes: {bits:#x}"
        );
    }
    seen
}

/// Each slot count the tables use, the fit test of each from `fit`.
macro_rules! every_slot_count {
    ($rng:expr, $lane:ty, $narrow:expr, $fit:expr) => {{
        let counts = [
            check::<$lane, 4>($rng, $narrow, $fit),
            check::<$lane, 8>($rng, $narrow, $fit),
            check::<$lane, 12>($rng, $narrow, $fit),
            check::<$lane, 16>($rng, $narrow, $fit),
            check::<$lane, 20>($rng, $narrow, $fit),
            check::<$lane, 24>($rng, $narrow, $fit),
            check::<$lane, 28>($rng, $narrow, $fit),
            check::<$lane, 32>($rng, $narrow, $fit),
        ];
        for [clash, fit] in counts {
            assert!(clash > 1_000 && fit > 1_000, "{clash} clashes, {fit} fits");
        }
    }};
}

#[test]
fn lanes_fit_exactly_the_masks_clear_of_the_board() {
    let mut rng = Rng(0x5eed_1a7e);
    every_slot_count!(&mut rng, u32, |x| x as u32, <u32 as Lane>::fit_bits);
    every_slot_count!(&mut rng, u64, |x| x, <u64 as Lane>::fit_bits);
}

#[cfg(target_arch = "x86_64")]
#[test]
fn every_fit_test_this_build_has_fits_exactly_the_masks_clear_of_the_board() {
    use crate::search::fit;
    let mut rng = Rng(0xf17_7e57);
    every_slot_count!(&mut rng, u32, |x| x as u32, fit::u32_sse2);
    #[cfg(target_feature = "avx512f")]
    every_slot_count!(&mut rng, u32, |x| x as u32, fit::u32_avx512);
    #[cfg(target_feature = "sse4.1")]
    every_slot_count!(&mut rng, u64, |x| x, fit::u64_sse41);
    #[cfg(target_feature = "avx512f")]
    every_slot_count!(&mut rng, u64, |x| x, fit::u64_avx512);
}
