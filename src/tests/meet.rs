//! The split search (`crate::meet`) against the plain search it replaces: the same
//! solutions in the same order, at every split cell and with chains of splits, with and
//! without room to keep the searches above, on one thread and on several.

use std::ops::ControlFlow;

use crate::driver::Split;
use crate::meet::{Above, Workspace};
use crate::meteor::{self, board_of, Solution, Window, CELLS, WINDOW};
use crate::search::{Copies, Lanes, Node, Path, Step, Visitor};
use crate::tables::generate::meteor_tables;

/// Every solution, as a board, in the order found; and the nodes visited.
#[derive(Default)]
struct Boards<'w> {
    window: Option<&'w Window<'w>>,
    boards: Vec<Solution>,
    nodes: u64,
}

impl Visitor for Boards<'_> {
    fn node(&mut self) {
        self.nodes += 1;
    }
    fn solution(&mut self, path: &[Step]) -> ControlFlow<()> {
        self.boards.push(board_of(self.window.unwrap(), path));
        ControlFlow::Continue(())
    }
}

fn plain(window: &Window) -> (Vec<Solution>, u64) {
    let mut v = Boards {
        window: Some(window),
        ..Boards::default()
    };
    let _ = window.search(window.root(), &mut Path::new(), &mut v);
    (v.boards, v.nodes)
}

/// The split search from the root on one thread: boards, nodes below the split, and
/// nodes above it.
fn split(window: &Window, above: &Above) -> (Vec<Solution>, u64, u64) {
    let mut v = Boards {
        window: Some(window),
        ..Boards::default()
    };
    let mut scratch = Workspace::default();
    let _ = window.search_split(window.root(), &mut Path::new(), &mut v, above, &mut scratch);
    (v.boards, v.nodes, scratch.nodes())
}

#[test]
fn every_split_cell_gives_the_plain_search_order() {
    let window = &WINDOW;
    let (expected, plain_nodes) = plain(window);
    assert_eq!(expected.len() as u64, meteor::ALL_SOLUTIONS / 2);
    for cell in 1..CELLS {
        let above = Above::new(window, &[cell]).unwrap();
        let (boards, below, above_nodes) = split(window, &above);
        assert!(
            boards == expected,
            "split at cell {cell}: different solutions or order"
        );
        assert!(below <= plain_nodes, "split at {cell}: {below} nodes below");
        assert!(above_nodes > 0, "split at {cell}");
    }
}

#[test]
fn chains_of_splits_give_the_plain_search_order() {
    let window = &WINDOW;
    let (expected, plain_nodes) = plain(window);
    let chains: [&[usize]; 6] = [
        &[15, 20, 25, 30],
        &[5, 10, 15, 20, 25, 30, 35, 40, 45],
        &[1, 2, 3],
        &[47, 48, 49],
        &[12, 31],
        &[20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
    ];
    for chain in chains {
        let above = Above::new(window, chain).unwrap();
        let (boards, below, above_nodes) = split(window, &above);
        assert!(
            boards == expected,
            "splits {chain:?}: different solutions or order"
        );
        if chain == [15, 20, 25, 30] {
            // The meteor's splits: a fifth of the plain search's nodes (README.md).
            assert!(
                4 * (below + above_nodes) < plain_nodes,
                "{below} + {above_nodes}"
            );
        }
    }
}

#[test]
fn unpruned_unrestricted_tables_give_the_plain_search_order() {
    // No island pruning and no half-turn restriction: many more dead ends above the
    // split, and all 2098 solutions.
    let tables = meteor_tables(false, false).0;
    let lanes = Lanes::new(&tables).unwrap();
    let window = Window::new(&tables, &lanes).unwrap();
    let (expected, _) = plain(&window);
    assert_eq!(expected.len() as u64, meteor::ALL_SOLUTIONS);
    let chains: [&[usize]; 4] = [&[5], &[25], &[37], &[15, 20, 25, 30]];
    for chain in chains {
        let above = Above::new(&window, chain).unwrap();
        assert!(split(&window, &above).0 == expected, "splits {chain:?}");
    }
}

#[test]
fn a_full_arena_only_costs_searches() {
    // With no room, nodes search on as if there were no split; with a little, the
    // first overhangs are kept and the rest are not.
    let window = &WINDOW;
    let (expected, plain_nodes) = plain(window);
    for chain in [&[25][..], &[15, 20, 25, 30]] {
        let kept = Above::new(window, chain).unwrap();
        let (_, below, above_nodes) = split(window, &kept);
        let all_kept = below + above_nodes;
        for words in [0, 1, 100, 5000, 50_000] {
            let above = Above::with_arena(window, chain, words).unwrap();
            let (boards, below, above_nodes) = split(window, &above);
            assert!(
                boards == expected,
                "splits {chain:?}, arena of {words} words"
            );
            let nodes = below + above_nodes;
            assert!(
                nodes >= all_kept,
                "splits {chain:?}, {words} words: {nodes} nodes"
            );
            if words <= 100 {
                assert!(
                    nodes > all_kept,
                    "splits {chain:?}, {words} words: {nodes} nodes"
                );
            }
            if words == 0 {
                // Nothing kept: the plain search, plus the one search that found no room.
                assert!(nodes > plain_nodes, "{chain:?}: {nodes} nodes");
            }
        }
    }
}

#[test]
fn threads_share_one_memo() {
    // Two threads search the two halves of the root's children against one memo: each
    // overhang is searched by one of them, so the nodes above add up to one thread's.
    let window = &WINDOW;
    let (expected, _) = plain(window);
    let splits = [15, 20, 25, 30];
    let above = Above::new(window, &splits).unwrap();
    let (_, one_below, one_above) = split(window, &above);
    let (tasks, _) = window.levels(Split {
        depth: 1,
        tasks: usize::MAX,
    });
    let halves = tasks.split_at(tasks.len() / 2);
    let fresh = Above::new(window, &splits).unwrap();
    let run = |part: &[(Node, Path)]| {
        let mut v = Boards {
            window: Some(window),
            ..Boards::default()
        };
        let mut scratch = Workspace::default();
        for (node, path) in part {
            let _ = window.search_split(*node, &mut path.clone(), &mut v, &fresh, &mut scratch);
        }
        (v.boards, v.nodes, scratch.nodes())
    };
    let (first, second) = std::thread::scope(|s| {
        let a = s.spawn(|| run(halves.0));
        let b = s.spawn(|| run(halves.1));
        (a.join().unwrap(), b.join().unwrap())
    });
    let mut boards = first.0;
    boards.extend(second.0);
    assert!(boards == expected);
    // The root is the one node the tasks do not visit.
    assert_eq!(first.1 + second.1 + 1, one_below);
    assert_eq!(first.2 + second.2, one_above);
}

#[test]
fn windows_the_split_cannot_serve_are_refused() {
    let window = &WINDOW;
    assert!(
        Above::new(window, &[0]).is_none(),
        "split at the first cell"
    );
    assert!(
        Above::new(window, &[CELLS]).is_none(),
        "split past the board"
    );
    assert!(Above::new(window, &[]).is_none(), "no split");
    assert!(
        Above::new(window, &[20, 15]).is_none(),
        "splits out of order"
    );
    assert!(
        Above::new(window, &[20, 20]).is_none(),
        "the same split twice"
    );
    // Pieces left over are served (tests/it/split.rs compares them with the plain search).
    let mut leftover = WINDOW;
    leftover.leftover = true;
    assert!(
        Above::new(&leftover, &[25]).is_some(),
        "pieces may be left over"
    );
    // Copies are served too (tests/it/split.rs compares them with the plain search).
    let two_of_piece_1 = Copies::new(&[1, 2, 1]).expect("two bits");
    let mut copies = WINDOW;
    copies.copies = &two_of_piece_1;
    assert!(
        Above::new(&copies, &[25]).is_some(),
        "interchangeable copies"
    );
}
