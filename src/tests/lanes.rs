//! The fit test of each lane type against its definition: bit `i` set exactly when
//! mask `i` and the board share no cell, for every slot count the tables use, on
//! sparse and dense random masks and boards (so that both fits and clashes occur, in
//! every lane position).

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

fn check<L: Lane, const K: usize>(rng: &mut Rng, narrow: impl Fn(u64) -> L) -> [usize; 2] {
    let mut seen = [0; 2];
    for _ in 0..2_000 {
        let masks: [L; K] = std::array::from_fn(|_| narrow(random_word(rng)));
        let board = random_word(rng);
        let bits = L::fit_bits(&masks, L::from_board(board));
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

fn every_slot_count<L: Lane>(rng: &mut Rng, narrow: impl Fn(u64) -> L + Copy) {
    let counts = [
        check::<L, 4>(rng, narrow),
        check::<L, 8>(rng, narrow),
        check::<L, 12>(rng, narrow),
        check::<L, 16>(rng, narrow),
        check::<L, 20>(rng, narrow),
        check::<L, 24>(rng, narrow),
        check::<L, 28>(rng, narrow),
        check::<L, 32>(rng, narrow),
    ];
    for [clash, fit] in counts {
        assert!(clash > 1_000 && fit > 1_000, "{clash} clashes, {fit} fits");
    }
}

#[test]
fn lanes_fit_exactly_the_masks_clear_of_the_board() {
    let mut rng = Rng(0x5eed_1a7e);
    every_slot_count::<u32>(&mut rng, |x| x as u32);
    every_slot_count::<u64>(&mut rng, |x| x);
}
