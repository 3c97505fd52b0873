//! Every puzzle file in `data/` against the known counts stated in its header comment.
//!
//! Each file's header says `Known counts: T = ... solutions, D = ... distinct` and names
//! its source; [`KNOWN`] repeats them (with the source, `docs/known-counts.md`) and
//! the test checks that the two agree. New files are picked up by listing `data/`: a file
//! without known counts in its header fails.
//!
//! For each file: `solve` finds T solutions and `solve_distinct` D classes standing for
//! T solutions; every solution of both modes passes the independent verifier
//! (`tests/common/tiling.rs`); the all-mode solutions are pairwise distinct; under the
//! symmetries of the board and piece set (computed here with the verifier's own
//! geometry, `tiling::symmetries`) the representatives are pairwise inequivalent and
//! their orbits are exactly the all-mode solutions.
//!
//! Files whose full count is too slow for a test ([`SAMPLED`]: the Bedlam cube, the solid
//! pentominoes) are checked on their first solutions in both modes instead: each
//! verified, all-mode solutions pairwise distinct, representatives pairwise
//! inequivalent, the group order as known. Their full counts are the benchmarks'
//! (`benches/compare.sh`, README.md).
//!
//! The orbit checks compare labelled tilings (`Tiling`: the piece index on each cell).
//! A tiling is one solution only when every piece has one copy (copies share an index,
//! so two placements of touching copies can draw alike); for a file with copies the
//! checks that need it (pairwise distinct, pairwise inequivalent) are skipped and the
//! others still hold as sets of tilings.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::common::tiling::{self, PieceSpec, Pt, Symmetry};
use crate::common::{solve, solve_distinct, verifier_box_specs, verifier_specs, Limits};
use polytile::{Grid, Motion, Puzzle, Tiling};

/// What a file's pieces are, checked with the verifier's own polyform enumeration.
#[derive(Clone, Copy, Debug)]
enum Set {
    /// Every free polyform of this many cells, once.
    Free(usize),
    /// Every one-sided polyform of this many cells, once.
    OneSided(usize),
    /// The meteor pieces: piece `i` is the shape of digit `i` in the smallest solution.
    Meteor,
    /// The Soma pieces: every free polycube of 3 or 4 cubes that is not a box.
    Soma,
    /// Every free polyomino of this many cells, as flat pieces on the cubic grid.
    Flat(usize),
    /// The Bedlam pieces: one tetracube and 12 pentacubes, none alike, 7 with 24
    /// orientations, 5 with 12 and one with 3 (Kurowski's counts).
    Bedlam,
}

/// Files whose full count is too slow for a test: only their first this many
/// solutions in each mode are searched and checked.
const SAMPLED: &[(&str, usize)] = &[
    ("bedlam-4x4x4.puz", 300),
    ("solid-pentominoes-3x4x5.puz", 300),
];

/// Known counts per file: (file, T, D, symmetries of board and pieces, piece set,
/// source as the header names it).
const KNOWN: &[(&str, usize, usize, usize, Set, &str)] = &[
    (
        "bedlam-4x4x4.puz",
        460_464,
        19_186,
        24,
        Set::Bedlam,
        "Scott Kurowski",
    ),
    (
        "soma-3x3x3.puz",
        11_520,
        240,
        48,
        Set::Soma,
        "Knuth, TAOCP 4B, 7.2.2.1",
    ),
    (
        "solid-pentominoes-2x5x6.puz",
        2_112,
        264,
        8,
        Set::Flat(5),
        "Wikipedia \"Pentomino\"",
    ),
    (
        "solid-pentominoes-3x4x5.puz",
        31_520,
        3_940,
        8,
        Set::Flat(5),
        "Wikipedia \"Pentomino\"",
    ),
    (
        "hexiamonds-4x9.puz",
        148,
        74,
        2,
        Set::Free(6),
        "Polyform Puzzler",
    ),
    (
        "hexiamonds-6x6.puz",
        624,
        156,
        4,
        Set::Free(6),
        "Polyform Puzzler",
    ),
    (
        "meteor.puz",
        2098,
        1049,
        2,
        Set::Meteor,
        "Benchmarks Game meteor-contest reference output 2098_out",
    ),
    (
        "one-sided-pentomino-3x30.puz",
        184,
        46,
        4,
        Set::OneSided(5),
        "Polyform Puzzler",
    ),
    (
        "pentomino-3x20.puz",
        8,
        2,
        4,
        Set::Free(5),
        "Wikipedia \"Pentomino\"; Polyform Puzzler",
    ),
    (
        "pentomino-4x15.puz",
        1472,
        368,
        4,
        Set::Free(5),
        "Wikipedia \"Pentomino\"; Polyform Puzzler",
    ),
    (
        "pentomino-5x12.puz",
        4040,
        1010,
        4,
        Set::Free(5),
        "Wikipedia \"Pentomino\"; Polyform Puzzler",
    ),
    (
        "pentomino-6x10.puz",
        9356,
        2339,
        4,
        Set::Free(5),
        "Wikipedia \"Pentomino\"; Polyform Puzzler",
    ),
    (
        "pentomino-8x8-hole.puz",
        520,
        65,
        8,
        Set::Free(5),
        "Dana Scott (1958); Wikipedia \"Pentomino\"",
    ),
    (
        "tetrahex-7x4.puz",
        18,
        9,
        2,
        Set::Free(4),
        "Polyform Puzzler",
    ),
];

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// Every `.puz` file in `data/`, sorted.
/// Files whose solutions are too many to list (and which have no distinct count, no
/// piece breaking the board's symmetry): counted with the memo, the first solutions
/// verified. Name, all solutions, the source the header names.
const COUNTED_ONLY: &[(&str, u64, &str)] =
    &[("dominoes-10x10.puz", 258_584_046_368, "OEIS A004003")];

/// The shipped files whose solutions are listed in full, in name order.
fn data_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("read data/")
        .map(|e| e.expect("read data/").path())
        .filter(|p| p.extension().is_some_and(|e| e == "puz"))
        .filter(|p| COUNTED_ONLY.iter().all(|c| file_name(p) != c.0))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no puzzle files in data/");
    files
}

/// The known counts a header comment states.
#[derive(Debug, PartialEq, Eq)]
struct Header {
    all: usize,
    distinct: usize,
    /// The text after `Source:` up to the end of the header.
    source: String,
}

/// The number after `key` (`T = 2,098`), commas allowed.
fn number_after(text: &str, key: &str) -> Option<usize> {
    let rest = &text[text.find(key)? + key.len()..];
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(|c| *c != ',')
        .collect();
    digits.parse().ok()
}

/// Parses the header comment: the `#` lines before the first other line, joined.
fn header(text: &str) -> Result<Header, String> {
    let joined = text
        .lines()
        .take_while(|l| l.trim_start().starts_with('#'))
        .map(|l| l.trim_start().trim_start_matches('#').trim())
        .collect::<Vec<_>>()
        .join(" ");
    let known = joined
        .find("Known counts:")
        .ok_or("no 'Known counts:' in the header comment")?;
    let counts = &joined[known..];
    let all = number_after(counts, "T = ").ok_or("no 'T = N' after 'Known counts:'")?;
    let distinct = number_after(counts, "D = ").ok_or("no 'D = N' after 'Known counts:'")?;
    let source = joined
        .find("Source:")
        .map(|i| joined[i + "Source:".len()..].trim().to_string())
        .ok_or("no 'Source:' in the header comment")?;
    Ok(Header {
        all,
        distinct,
        source,
    })
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

fn load(path: &Path) -> (Puzzle, Header) {
    let text = std::fs::read_to_string(path).expect("read puzzle file");
    let h = header(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let puzzle = Puzzle::load(path).unwrap_or_else(|e| panic!("{e}"));
    (puzzle, h)
}

/// A tiling drawn with the puzzle's labels, rows separated by `/`.
fn show(p: &Puzzle, t: &Tiling) -> String {
    let labels = p.labels();
    t.chunks(p.board.width)
        .map(|row| {
            row.iter()
                .map(|c| c.map_or('.', |i| labels[i as usize]))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The least image of `t` under the group: equal for two tilings exactly when one is
/// the image of the other.
fn canonical(group: &[Symmetry], t: &Tiling) -> Tiling {
    group.iter().map(|g| g.tiling(t)).min().expect("a group")
}

fn limits(keep: bool) -> Limits {
    Limits {
        keep,
        threads: 2,
        ..Limits::default()
    }
}

#[test]
fn headers_state_known_counts_matching_the_table() {
    let files = data_files();
    let names: BTreeSet<String> = files.iter().map(|p| file_name(p)).collect();
    for (name, ..) in KNOWN {
        assert!(names.contains(*name), "data/{name} is missing");
    }
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let h = header(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(h.distinct <= h.all, "{}: D > T", path.display());
        let name = file_name(path);
        if let Some(&(_, all, distinct, _, _, source)) = KNOWN.iter().find(|k| k.0 == name) {
            assert_eq!(
                (h.all, h.distinct),
                (all, distinct),
                "{name}: header vs table"
            );
            assert!(
                h.source.contains(source),
                "{name}: header source {:?} does not name {source:?}",
                h.source
            );
            assert!(
                h.source.contains("known-counts.md"),
                "{name}: {:?}",
                h.source
            );
        } else {
            eprintln!("{name}: not in KNOWN; checked against its header only");
        }
    }
}

#[test]
fn header_parser() {
    let h = header("# a\n# Known counts: T = 2,098 solutions,\n# D = 1,049 x.\n# Source: S (y).\n\nname: z\n# Source: no\n")
        .unwrap();
    assert_eq!(
        h,
        Header {
            all: 2098,
            distinct: 1049,
            source: "S (y).".into()
        }
    );
    assert!(header("# T = 1, D = 1\n# Source: s\n").is_err());
    assert!(header("\n# Known counts: T = 1, D = 1\n# Source: s\n").is_err());
    assert!(header("# Known counts: T = 1\n# Source: s\n").is_err());
    assert!(header("# Known counts: T = 1, D = 1\n").is_err());
}

#[test]
fn pieces_are_the_sets_the_files_describe() {
    for &(name, _, _, _, set, _) in KNOWN {
        let (p, _) = load(&data_dir().join(name));
        let g = p.board.grid;
        if g == Grid::Cubic {
            check_box_set(name, &verifier_box_specs(&p), set);
            continue;
        }
        let specs = verifier_specs(&p);
        let class = |s: &PieceSpec, m: Motion| tiling::canonical(g, &tiling::points(g, &s.0), m);
        match set {
            Set::Soma | Set::Flat(_) | Set::Bedlam => panic!("{name}: a cubic set on {g:?}"),
            Set::Free(n) | Set::OneSided(n) => {
                let motion = if matches!(set, Set::Free(_)) {
                    Motion::Free
                } else {
                    Motion::OneSided
                };
                let drawn: Vec<Vec<Pt>> = specs.iter().map(|s| class(s, motion)).collect();
                let unique: BTreeSet<&Vec<Pt>> = drawn.iter().collect();
                assert_eq!(unique.len(), drawn.len(), "{name}: a piece twice");
                let all: BTreeSet<Vec<Pt>> = tiling::polyforms(g, n, motion).into_iter().collect();
                assert_eq!(unique, all.iter().collect(), "{name}");
                for s in &specs {
                    assert_eq!((s.1, s.2), (motion, 1), "{name}");
                }
            }
            Set::Meteor => {
                assert_eq!(g, Grid::Hex);
                assert_eq!(specs.len(), 10);
                for (i, s) in specs.iter().enumerate() {
                    assert_eq!(p.pieces[i].name, i.to_string());
                    let cells: Vec<(usize, usize)> = crate::common::SMALLEST
                        .bytes()
                        .enumerate()
                        .filter(|&(_, d)| d == b'0' + i as u8)
                        .map(|(c, _)| (c / 5, c % 5))
                        .collect();
                    let want = tiling::canonical(g, &tiling::points(g, &cells), Motion::Free);
                    assert_eq!(class(s, Motion::Free), want, "meteor piece {i}");
                    assert_eq!((s.1, s.2), (Motion::Free, 1));
                }
            }
        }
    }
}

/// Panics unless `t` is a tiling of `p` by the independent verifier; `what` names it.
fn check_solution(p: &Puzzle, specs: &[PieceSpec], t: &Tiling, what: &str) {
    let b = &p.board;
    tiling::verify_tiling(
        b.grid,
        b.width,
        b.height,
        &b.cells,
        specs,
        t,
        p.allow_leftover,
    )
    .unwrap_or_else(|e| panic!("{what}: invalid solution {}: {e}", show(p, t)));
}

/// The pieces of a cubic file against what its [`Set`] says, with the verifier's
/// geometry.
fn check_box_set(name: &str, specs: &[tiling::BoxSpec], set: Set) {
    let g = Grid::Cubic;
    for s in specs {
        assert_eq!((s.1, s.2), (Motion::Free, 1), "{name}");
    }
    let drawn: BTreeSet<Vec<Pt>> = specs
        .iter()
        .map(|s| tiling::canonical(g, &s.0, Motion::Free))
        .collect();
    assert_eq!(drawn.len(), specs.len(), "{name}: a piece twice");
    let want: BTreeSet<Vec<Pt>> = match set {
        Set::Soma => [3, 4]
            .into_iter()
            .flat_map(|n| tiling::polyforms(g, n, Motion::Free))
            .filter(|shape| {
                // A box fills the box its extent spans.
                let extent = |i: usize| {
                    let v = shape.iter().map(|p| [p.0, p.1, p.2][i]);
                    v.clone().max().unwrap() - v.min().unwrap() + 1
                };
                (extent(0) * extent(1) * extent(2)) as usize != shape.len()
            })
            .collect(),
        Set::Flat(n) => tiling::polyforms(Grid::Square, n, Motion::Free)
            .into_iter()
            .map(|shape| tiling::canonical(g, &shape, Motion::Free))
            .collect(),
        Set::Bedlam => {
            let mut orientations: Vec<usize> = specs
                .iter()
                .map(|s| tiling::images(g, &s.0, Motion::Free).len())
                .collect();
            orientations.sort_unstable();
            assert_eq!(
                orientations,
                [3, 12, 12, 12, 12, 12, 24, 24, 24, 24, 24, 24, 24]
            );
            let sizes: Vec<usize> = specs.iter().map(|s| s.0.len()).collect();
            assert_eq!(sizes.iter().filter(|&&n| n == 5).count(), 12, "{name}");
            assert!(sizes.contains(&4), "{name}");
            drawn.clone()
        }
        Set::Free(_) | Set::OneSided(_) | Set::Meteor => panic!("{name}: a planar set"),
    };
    assert_eq!(drawn, want, "{name}");
}

/// Everything for one file.
fn check_file(path: &Path) {
    let name = file_name(path);
    let (p, h) = load(path);
    let b = &p.board;
    let cubic = b.grid == Grid::Cubic;
    let (specs, box_specs) = if cubic {
        (Vec::new(), verifier_box_specs(&p))
    } else {
        (verifier_specs(&p), Vec::new())
    };
    let dims = (b.width, b.height, b.depth);
    let exact = p.pieces.iter().all(|piece| piece.count == 1);
    let verify = |t: &Tiling, what: &str| {
        let checked = if cubic {
            tiling::verify_box(dims, &b.cells, &box_specs, t, p.allow_leftover)
        } else {
            tiling::verify_tiling(
                b.grid,
                b.width,
                b.height,
                &b.cells,
                &specs,
                t,
                p.allow_leftover,
            )
        };
        checked.unwrap_or_else(|e| panic!("{name}: invalid {what} solution {}: {e}", show(&p, t)));
    };
    // The symmetry group, with the verifier's geometry.
    let group = if cubic {
        tiling::symmetries_box(dims, &b.cells, &box_specs)
    } else {
        tiling::symmetries(b.grid, b.width, b.height, &b.cells, &specs)
    };
    let order = KNOWN.iter().find(|k| k.0 == name).map(|k| k.3);
    if let Some(order) = order {
        assert_eq!(group.len(), order, "{name}: symmetries of board and pieces");
    }
    if let Some(&(_, first)) = SAMPLED.iter().find(|s| s.0 == name) {
        check_first(&p, &group, first, verify);
        return;
    }

    // Counts, without keeping.
    let counted = solve(b, &p.pieces, p.allow_leftover, limits(false)).unwrap();
    assert_eq!(counted.count, h.all, "{name}: solve count");
    let dcounted = solve_distinct(b, &p.pieces, p.allow_leftover, limits(false)).unwrap();
    assert_eq!(
        (dcounted.classes, dcounted.total),
        (h.distinct, h.all),
        "{name}: solve_distinct classes and total"
    );

    // All solutions, kept and verified.
    let all = solve(b, &p.pieces, p.allow_leftover, limits(true)).unwrap();
    assert_eq!((all.count, all.solutions.len()), (h.all, h.all), "{name}");
    for t in &all.solutions {
        verify(t, "all-mode");
    }
    let all_set: BTreeSet<Tiling> = all.solutions.iter().cloned().collect();
    if exact {
        assert_eq!(
            all_set.len(),
            h.all,
            "{name}: an all-mode solution found twice"
        );
    }

    // Representatives, kept and verified.
    let d = solve_distinct(b, &p.pieces, p.allow_leftover, limits(true)).unwrap();
    assert_eq!(
        (d.classes, d.total, d.solutions.len()),
        (h.distinct, h.all, h.distinct),
        "{name}: distinct with keep"
    );
    for t in &d.solutions {
        verify(t, "distinct-mode");
        assert!(
            all_set.contains(t),
            "{name}: representative {} not among all",
            show(&p, t)
        );
    }

    assert_eq!(d.group_order, group.len(), "{name}: library's group order");
    // Orbits: the representatives' are disjoint and cover every solution.
    let mut orbits: BTreeMap<Tiling, BTreeSet<Tiling>> = BTreeMap::new();
    for t in &d.solutions {
        let orbit: BTreeSet<Tiling> = group.iter().map(|g| g.tiling(t)).collect();
        let key = canonical(&group, t);
        if exact {
            assert!(
                !orbits.contains_key(&key),
                "{name}: representative {} is equivalent to an earlier one",
                show(&p, t)
            );
        }
        orbits.entry(key).or_default().extend(orbit);
    }
    let union: BTreeSet<Tiling> = orbits.values().flatten().cloned().collect();
    assert_eq!(union, all_set, "{name}: orbits of the representatives");
    if exact {
        let classes: BTreeSet<Tiling> = all_set.iter().map(|t| canonical(&group, t)).collect();
        assert_eq!(
            classes.len(),
            h.distinct,
            "{name}: orbits among all solutions"
        );
    }
}

/// The checks of a [`SAMPLED`] file on its first `first` solutions in each mode: each
/// verified, the all-mode ones pairwise distinct, the representatives pairwise
/// inequivalent under `group`, and the library's group of the same order.
fn check_first(p: &Puzzle, group: &[Symmetry], first: usize, verify: impl Fn(&Tiling, &str)) {
    let b = &p.board;
    let limits = Limits {
        limit: first,
        ..limits(true)
    };
    let all = solve(b, &p.pieces, p.allow_leftover, limits).unwrap();
    assert_eq!(all.solutions.len(), first);
    for t in &all.solutions {
        verify(t, "all-mode");
    }
    let set: BTreeSet<&Tiling> = all.solutions.iter().collect();
    assert_eq!(set.len(), first, "{}: an all-mode solution twice", p.name);
    let d = solve_distinct(b, &p.pieces, p.allow_leftover, limits).unwrap();
    assert_eq!(d.solutions.len(), first);
    assert_eq!(
        d.group_order,
        group.len(),
        "{}: library's group order",
        p.name
    );
    let mut classes = BTreeSet::new();
    for t in &d.solutions {
        verify(t, "distinct-mode");
        assert!(
            classes.insert(canonical(group, t)),
            "{}: representative {} is equivalent to an earlier one",
            p.name,
            show(p, t)
        );
    }
}

#[test]
fn counted_only_files_have_their_known_counts() {
    for &(name, all, source) in COUNTED_ONLY {
        let path = data_dir().join(name);
        let text = std::fs::read_to_string(&path).expect("a shipped file");
        let header: String = text.lines().take_while(|l| l.starts_with('#')).collect();
        assert_eq!(
            number_after(&header, "T = "),
            Some(all as usize),
            "{name}: header"
        );
        assert!(
            header.contains(source) && header.contains("known-counts.md"),
            "{name}"
        );
        let p = Puzzle::load(&path).expect("parses");
        let solver = polytile::TilingSolver::new(&p, polytile::Mode::All).expect("solvable");
        assert!(solver.memo_pays(), "{name}");
        let (summary, _) = solver
            .count_memoised(&Default::default(), &Default::default(), &mut |_| {})
            .expect("a memo count");
        assert_eq!(summary.solutions, all, "{name}: memo count");
        let first = solve(
            &p.board,
            &p.pieces,
            p.allow_leftover,
            Limits {
                limit: 500,
                ..limits(true)
            },
        )
        .unwrap();
        assert_eq!(first.solutions.len(), 500);
        let specs = verifier_specs(&p);
        for t in &first.solutions {
            check_solution(&p, &specs, t, name);
        }
    }
}

#[test]
fn every_data_file_has_its_known_counts_and_valid_solutions() {
    for path in data_files() {
        check_file(&path);
    }
}

#[test]
fn meteor_through_the_generic_path() {
    let path = data_dir().join("meteor.puz");
    let (p, _) = load(&path);
    let out = solve(&p.board, &p.pieces, p.allow_leftover, limits(true)).unwrap();
    assert_eq!(out.count as u64, crate::common::ALL_SOLUTIONS);
    // Piece i is named i (checked in pieces_are_the_sets_the_files_describe).
    let digits: BTreeSet<String> = out
        .solutions
        .iter()
        .map(|t| {
            t.iter()
                .map(|c| char::from(b'0' + c.unwrap() as u8))
                .collect()
        })
        .collect();
    assert_eq!(digits.len() as u64, crate::common::ALL_SOLUTIONS);
    assert_eq!(digits.first().unwrap(), crate::common::SMALLEST);
    assert_eq!(digits.last().unwrap(), crate::common::LARGEST);
    let pieces = crate::common::tiling::meteor::pieces();
    for s in &digits {
        crate::common::tiling::meteor::verify_with(&crate::common::board(s), &pieces).unwrap();
    }
}
