//! Where the split search splits, chosen by measurement before the search
//! (`Splitting::Auto`, the default).
//!
//! Splitting before row `r` replaces the plain subtree of every node that crosses `r`
//! by one look-up, and adds one search above `r`, with every piece, per distinct
//! overhang met there. It pays when many crossings share few overhangs and the
//! searches above are not much dearer than the subtrees they replace: a row too low
//! searches nearly the whole board once per overhang, a row too high saves little.
//! Measured on the shipped boards, the cost against the first split row is U-shaped,
//! and the later rows matter little (splitting before every row from the first to the
//! last changes the meteor's instructions by under 0.1%), so the plan is one choice:
//! the first row, or none.
//!
//! # The measurement
//! 1. **How large the tree is.** [`PROBE_PATHS`] random paths (Knuth's estimate,
//!    stratified by the root's children: [`stratified_size`]) tell a small tree,
//!    searched plainly, from a large one; a large one is sized again by a sparse sample
//!    of [`COARSE_SAMPLED`] subtrees, as random paths run short on heavy-tailed trees.
//!    Unstratified, the paths rated the meteor's tree with piece 8 placed first at
//!    104,000 nodes (it has 218,000; stratified: 157,000), under [`SMALL_TREE`], and
//!    it was searched plainly, three times slower than split.
//! 2. **A sample of the plain tree.** The tree is cut at the first level with at least
//!    [`MIN_TASKS`] nodes (more for larger trees, at most [`MAX_DEPTH`] levels down),
//!    and every `stride`-th subtree there is walked whole, with `stride` at least
//!    [`MIN_STRIDE`] and large enough that the walk takes about [`WALK_NODES`] on large
//!    trees (never more than [`WALK_MOST`]); trees under [`MODEST_TREE`] sample half
//!    as many subtrees, as there the walk weighs most. The levels above are walked
//!    whole. Each node counts with the weight of its sample (`tasks / sampled` below
//!    the cut, 1 above), so sums estimate the whole tree without bias: its nodes, and
//!    per candidate row the nodes crossing it and the nodes of their subtrees.
//! 3. **Distinct overhangs.** They do not add up like nodes: overhangs recur, so a
//!    sample sees more distinct ones than its share. They are estimated as species are
//!    from samples of sites, by Chao's incidence estimator (Chao2, bias-corrected; A.
//!    Chao, "Estimating the population size for capture-recapture data with unequal
//!    catchability", Biometrics 43, 1987): the sampled subtrees are the sites, and the
//!    overhangs seen in exactly one and exactly two of them tell how many were missed
//!    (never more than the crossings). On the meteor's rows 3..7 it gives 0.58 to 1.0
//!    times the distinct overhangs a split run meets; the power law through the sample
//!    and its half, used before, gave 0.54 to 4.9 times.
//! 4. **The searches above**, from the highest row down: [`MEASURED`] overhangs met
//!    there (spread over the sample) are searched above with every piece, with the
//!    same later splits a run would use, and their work is counted per split
//!    ([`LevelWork::units`]: nodes, and the later blocks' entries combined, in nodes of
//!    the plain search). The first split's work per overhang counts once per distinct
//!    overhang estimated there; each later split's work per block counts once per
//!    distinct overhang the sample met at that row. The rows measured share a budget
//!    ([`MEASURE_BUDGET`] of the tree), and each row's searches are memoised within
//!    the run's memo bound (`--memo-mib`); past either no lower row is considered.
//!    The run's memo is estimated alike, from the words the measured blocks took per
//!    split (on the shipped boards and the 6 x 15 within 0.6 to 1.3 times what runs
//!    took); a row whose memo would outgrow the bound is passed over, as a run that
//!    fills it searches on without it, and a lower row may need less.
//! 5. **The choice.** A row's cost is the nodes south of it, its crossings (each a
//!    look-up, [`CROSSING`]) and the work above; the cheapest row, with every row after
//!    it, is taken if it is below [`MARGIN`] of the plain tree.
//!
//! The measurement counts nodes, not time, so the plan is the same on every machine,
//! thread count and shard given the same memo bound: a sharded run's shards agree on
//! it without talking.

use std::ops::ControlFlow;

use rustc_hash::FxHashMap;

use super::{any_pieces, qualifies, Above, Cross, Edge, LevelWork, Reach, Workspace};
use crate::search::{Lane, Node, Window};

/// Nodes at the level the sample is cut at: enough that every `stride`-th of them is
/// a fair sample of the tree.
const MIN_TASKS: usize = 1024;
/// The deepest level the sample is cut at.
const MAX_DEPTH: usize = 10;
/// The most nodes of the level the sample is cut at that are asked for.
const MAX_LEVEL: usize = 1 << 18;
/// Nodes the walk of the sample takes, about, on trees larger than 16 times as many.
const WALK_NODES: f64 = 2_000_000.0;
/// The most nodes one walk of a sample may visit (8 times what it aims at): a tree whose
/// sampled subtrees are larger still is searched plainly.
const WALK_MOST: u64 = 16_000_000;
/// Random paths of the first, rough estimate of the tree's size (at least one below
/// each of the root's children).
const PROBE_PATHS: usize = 256;
/// Subtrees of the sparse sample that sizes a large tree again.
const COARSE_SAMPLED: usize = 32;
/// Subtrees sampled, about.
const SAMPLED: usize = 64;
/// Trees estimated under this many nodes (by the random paths) sample half as many
/// subtrees: there the walk costs most against the search it plans, and coarser
/// samples chose rows that ran faster whole (README.md, "Splitting the search").
const MODEST_TREE: f64 = 2_000_000.0;
/// At most one subtree in this many is walked.
const MIN_STRIDE: usize = 16;
/// Overhangs searched above per candidate row.
const MEASURED: usize = 6;
/// The widest overhang of a row the plan considers. The split search serves wider ones
/// (hashed, `Slots`), but there the estimate measured far off (README.md, "Splitting
/// the search": it underrates the searches above when later splits meet many more
/// overhangs than the sample saw, and the memo's size), so such rows are taken only
/// when asked for (`--split ROWS`).
const MAX_PLANNED_BITS: usize = 24;
/// Wide rows (overhangs over [`MAX_PLANNED_BITS`] cells) are planned for when their
/// distinct overhangs can be counted exactly: by walking the whole tree south of the
/// highest such row, if the sample estimates that at most this share of the plain
/// tree (the walk stops at twice that).
const EXACT_SHARE: f64 = 1.0 / 64.0;
/// The most distinct overhangs counted exactly at one row; past it the row's memo is
/// taken as over any bound.
const EXACT_MOST: usize = 1 << 24;
/// A first split row is considered only where the crossings are at least this many
/// times its distinct overhangs: each overhang's first crossing costs a search above
/// with every piece, so a split saves only on the overhangs met again. Where nearly
/// every crossing has an overhang of its own (the Bedlam cube's low rows) the searches
/// above are the plain tree again with more pieces, and their sampled work, measured
/// through later splits whose overhangs are estimated, was rated 40 times too low.
const MIN_RECURRENCE: f64 = 4.0;
/// A split is taken only when its estimate is below this share of the plain tree's:
/// the estimates are rough, and a split that saves little may lose.
const MARGIN: f64 = 0.8;
/// The searches above measured may take at most this share of the plain tree's
/// estimated nodes, or [`MIN_BUDGET`] if more (in [`LevelWork::units`]): rows lower
/// than those measured within it are not considered.
const MEASURE_BUDGET: f64 = 1.0 / 32.0;
const MIN_BUDGET: f64 = 2_000.0;
const MAX_BUDGET: f64 = 4_000_000.0;
/// A node crossing the first split, in nodes of the plain search: it looks up its
/// completions and combines them (as a node above, [`LevelWork::units`]).
const CROSSING: f64 = 1.6;
/// Trees of fewer nodes than this (estimated by the random paths) are searched
/// plainly: the measurement costs about a millisecond, as much as 15,000 to 20,000
/// nodes of search, and the split it could find saves little on a tree this small (no
/// shipped file under it gained from one; see the README's split table).
const SMALL_TREE: f64 = 120_000.0;

/// The split rows a measurement chose, and what it found (`polytile solve --stats`
/// prints it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SplitPlan {
    /// The rows split before (of the board as searched, counted from 0); empty: the
    /// plain search.
    pub rows: Vec<usize>,
    /// The plain tree's nodes, estimated (0 when nothing was measured).
    pub plain: f64,
    /// What was estimated per candidate first row, from the highest down.
    pub candidates: Vec<RowEstimate>,
    /// Nodes the measurement visited: the sample of the plain tree and the searches
    /// above. They are not among a run's nodes.
    pub pilot_nodes: u64,
    /// Why there is no split, when there is none and nothing was measured.
    pub skipped: Option<&'static str>,
    /// Rows the split search serves whose overhangs are too wide for Chao's estimate
    /// ([`MAX_PLANNED_BITS`]) and were not counted exactly: only `--split ROWS` takes
    /// them.
    pub wide_rows: Vec<usize>,
    /// Nodes of the walk that counted the wide rows' overhangs exactly (0: none).
    pub exact_nodes: u64,
}

/// Estimates for splitting before `row` and every qualifying row after it.
#[derive(Clone, Debug, PartialEq)]
pub struct RowEstimate {
    /// The first row split before.
    pub row: usize,
    /// Nodes crossing the row.
    pub crossings: f64,
    /// Distinct overhangs among them.
    pub overhangs: f64,
    /// The work of the search south of the row, crossings included, in nodes of the
    /// plain search.
    pub below: f64,
    /// The work of the searches above the row (with the later splits), in nodes of the
    /// plain search; `None` when its measurement outgrew its budget or the memo.
    pub above: Option<f64>,
    /// The bytes of the run's memo, estimated as its work is: the words of the blocks
    /// measured, per block at each split.
    pub memo: f64,
    /// Whether the memo estimated, or the measurement's own, outgrew the run's bound
    /// (`--memo-mib`).
    pub memo_full: bool,
    /// Whether the crossings are at least [`MIN_RECURRENCE`] times the overhangs (the
    /// row is not measured otherwise).
    pub recurs: bool,
}

impl RowEstimate {
    /// The row's estimated work in nodes of the plain search; `None` if not measured.
    pub fn cost(&self) -> Option<f64> {
        self.above.map(|above| self.below + above)
    }
}

impl SplitPlan {
    /// The estimate of the first row chosen, if a split was.
    pub fn chosen(&self) -> Option<&RowEstimate> {
        let first = *self.rows.first()?;
        self.candidates.iter().find(|c| c.row == first)
    }

    /// What was measured, for people (`polytile solve --stats`): a line, then one per
    /// candidate first row with its estimated crossings, distinct overhangs, and work
    /// south and north of it.
    pub fn text(&self) -> String {
        if let Some(why) = self.skipped {
            return format!("split auto: no split ({why})\n");
        }
        let mut out = format!(
            "split auto: plain tree about {:.0} nodes; measured with {} nodes; rows {:?}\n",
            self.plain, self.pilot_nodes, self.rows
        );
        for c in &self.candidates {
            let cost = match c.cost() {
                Some(x) => format!("{x:.0}"),
                None if !c.recurs => {
                    format!("not measured: overhangs met under {MIN_RECURRENCE} times each")
                }
                None if c.memo_full => "over the memo bound (--memo-mib)".to_string(),
                None => "over budget".to_string(),
            };
            out += &format!(
                "  from row {:>3}: crossings {:.0}, overhangs {:.0}, south {:.0}, north {}, memo {:.1} MiB, cost {cost}\n",
                c.row,
                c.crossings,
                c.overhangs,
                c.below,
                c.above.map_or("-".to_string(), |x| format!("{x:.0}")),
                c.memo / f64::from(1 << 20),
            );
        }
        if let Some((first, last)) = self.wide_rows.first().zip(self.wide_rows.last()) {
            let rows = if first == last {
                format!("row {first}")
            } else if last - first + 1 == self.wide_rows.len() {
                format!("rows {first}..{last}")
            } else {
                format!("rows {:?}", self.wide_rows)
            };
            out += &format!(
                "  {rows}: overhangs over {MAX_PLANNED_BITS} cells, not planned for (--split ROWS serves them)\n"
            );
        }
        out
    }

    /// What was measured, as one JSON object for programs (figures rounded).
    pub fn json(&self) -> serde_json::Value {
        use serde_json::json;
        let candidates: Vec<serde_json::Value> = self
            .candidates
            .iter()
            .map(|c| {
                json!({
                    "row": c.row,
                    "crossings": c.crossings.round(),
                    "overhangs": c.overhangs.round(),
                    "below": c.below.round(),
                    "above": c.above.map(f64::round),
                    "cost": c.cost().map(f64::round),
                    "memo": c.memo.round(),
                    "memo_full": c.memo_full,
                    "recurs": c.recurs,
                })
            })
            .collect();
        json!({
            "rows": self.rows,
            "plain": self.plain.round(),
            "pilot_nodes": self.pilot_nodes,
            "candidates": candidates,
            "skipped": self.skipped,
            "wide_rows": self.wide_rows,
            "exact_nodes": self.exact_nodes,
        })
    }
}

/// What the sample saw at one candidate row.
#[derive(Default)]
struct Tally {
    /// Weighted crossings, and the weighted nodes of their subtrees.
    crossings: f64,
    subtrees: f64,
    /// Each overhang seen: the last sampled subtree it was seen in and in how many
    /// ([`ABOVE`] when it was crossed above the cut, where the walk misses nothing).
    seen: FxHashMap<u64, (usize, u32)>,
    /// Overhangs in the order first seen.
    order: Vec<u64>,
}

/// The incidence of an overhang crossed above the cut: it is known, not sampled.
const ABOVE: u32 = u32::MAX;

impl Tally {
    /// A crossing with `overhang` in the sampled subtree `unit` (`None`: above the cut).
    fn add(&mut self, overhang: u64, weight: f64, subtree: f64, unit: Option<usize>) {
        self.crossings += weight;
        self.subtrees += subtree;
        let entry = self.seen.entry(overhang).or_insert_with(|| {
            self.order.push(overhang);
            (usize::MAX, 0)
        });
        match unit {
            None => entry.1 = ABOVE,
            Some(unit) if entry.0 != unit && entry.1 != ABOVE => *entry = (unit, entry.1 + 1),
            Some(_) => {}
        }
    }

    /// The distinct overhangs of the whole tree, estimated from a sample of `sampled`
    /// subtrees (see the module docs, step 3), at most the crossings.
    fn distinct(&self, sampled: usize) -> f64 {
        let seen = self.order.len() as f64;
        let with = |k: u32| self.seen.values().filter(|e| e.1 == k).count() as f64;
        let (once, twice) = (with(1), with(2));
        let m = sampled.max(1) as f64;
        let missed = (m - 1.0) / m * once * (once - 1.0).max(0.0) / (2.0 * (twice + 1.0));
        (seen + missed).min(self.crossings).max(seen)
    }
}

/// The walk of the sample (step 1 of the module docs).
struct Walk<'w, 'a, L, const K: usize> {
    window: &'w Window<'a, L, K>,
    edges: &'w [(usize, Edge)],
    tallies: Vec<Tally>,
    /// The level the sample is cut at, and the stride and phase of the sampled subtrees
    /// there; `weight` is their weight.
    depth: usize,
    stride: usize,
    phase: usize,
    /// Subtrees sampled at the cut.
    sampled: usize,
    weight: f64,
    /// The next subtree's index at the cut.
    task: usize,
    nodes: u64,
    /// The most nodes the walk may visit; past them it stops, and says so in `over`
    /// (a tree too large for its sample, as a domino tiling's).
    most: u64,
    over: bool,
}

impl<'w, 'a, L: Lane, const K: usize> Walk<'w, 'a, L, K> {
    /// A walk of about `sampled` of the `tasks` subtrees at level `depth`, every
    /// `stride`-th (at least [`MIN_STRIDE`]), tallying crossings of `edges`.
    fn new(
        window: &'w Window<'a, L, K>,
        edges: &'w [(usize, Edge)],
        depth: usize,
        tasks: usize,
        sampled: usize,
    ) -> Walk<'w, 'a, L, K> {
        let stride = (tasks / sampled).max(MIN_STRIDE);
        let phase = stride / 2;
        let sampled = tasks.saturating_sub(phase).div_ceil(stride);
        Walk {
            window,
            edges,
            tallies: edges.iter().map(|_| Tally::default()).collect(),
            depth,
            stride,
            phase,
            sampled,
            weight: tasks as f64 / sampled.max(1) as f64,
            task: 0,
            nodes: 0,
            most: WALK_MOST,
            over: false,
        }
    }

    /// The weighted nodes of `node`'s subtree as far as the sample walks it, and the
    /// node's own weight (0 when it is not walked).
    /// `unit` is the sampled subtree the node lies in (`None` above the cut); the
    /// third value returned is the node's.
    fn visit(
        &mut self,
        node: Node,
        level: usize,
        weight: f64,
        unit: Option<usize>,
    ) -> (f64, f64, Option<usize>) {
        let window = self.window;
        let leaf = window.is_leaf(node);
        let (mut weight, mut unit) = (weight, unit);
        // The subtrees at the cut, and solutions above it, are numbered in search order
        // as the driver numbers its tasks.
        if level == self.depth || (leaf && level < self.depth) {
            let task = self.task;
            self.task += 1;
            if task % self.stride != self.phase {
                return (0.0, 0.0, None);
            }
            weight *= self.weight;
            unit = Some(task);
        }
        self.nodes += 1;
        if self.nodes > self.most {
            self.over = true;
        }
        if leaf || self.over {
            return (weight, weight, unit);
        }
        let low = lowest(window, node);
        let mut total = weight;
        let _ = window.for_each_child(node, |_, child| {
            let (subtree, child_weight, child_unit) = self.visit(child, level + 1, weight, unit);
            if child_weight == 0.0 {
                return ControlFlow::Continue(());
            }
            total += subtree;
            let high = lowest(window, child);
            for (tally, (_, edge)) in self.tallies.iter_mut().zip(self.edges) {
                if edge.crossed(low, high) {
                    if let Cross::Overhang(overhang) = edge.cross_node(window, child) {
                        tally.add(overhang, child_weight, subtree, child_unit);
                    }
                }
            }
            ControlFlow::Continue(())
        });
        (total, weight, unit)
    }
}

/// The distinct overhangs at each split of a prefix of the plan's edges, counted
/// exactly: the whole tree is walked down to the last of them (a node crossing it is
/// not entered), and every overhang met at each is kept.
struct Exact<'w, 'a, L, const K: usize> {
    window: &'w Window<'a, L, K>,
    edges: &'w [(usize, Edge)],
    /// Per edge, the overhangs met, and whether there were more than [`EXACT_MOST`].
    seen: Vec<rustc_hash::FxHashSet<u64>>,
    over_most: Vec<bool>,
    /// The last split's cell: a node crossing it is not entered.
    last: usize,
    nodes: u64,
    /// The most nodes the walk may visit; past them it stops, and says so in `over`.
    most: u64,
    over: bool,
}

impl<'w, 'a, L: Lane, const K: usize> Exact<'w, 'a, L, K> {
    /// The distinct overhangs at each of `edges` (`None` where more than
    /// [`EXACT_MOST`]), and the nodes walked; `None` if the walk outgrew `most` nodes.
    fn count(
        window: &'w Window<'a, L, K>,
        edges: &'w [(usize, Edge)],
        most: u64,
    ) -> (Option<Vec<Option<usize>>>, u64) {
        let mut exact = Exact {
            window,
            edges,
            seen: edges.iter().map(|_| Default::default()).collect(),
            over_most: vec![false; edges.len()],
            last: edges.last().map_or(0, |(_, edge)| edge.cell()),
            nodes: 0,
            most,
            over: false,
        };
        exact.visit(window.root());
        let counts = (!exact.over).then(|| {
            exact
                .seen
                .iter()
                .zip(&exact.over_most)
                .map(|(seen, &over)| (!over).then_some(seen.len()))
                .collect()
        });
        (counts, exact.nodes)
    }

    fn visit(&mut self, node: Node) {
        self.nodes += 1;
        if self.nodes > self.most {
            self.over = true;
            return;
        }
        let window = self.window;
        if window.is_leaf(node) {
            return;
        }
        let low = lowest(window, node);
        let _ = window.for_each_child(node, |_, child| {
            let high = lowest(window, child);
            for (k, (_, edge)) in self.edges.iter().enumerate() {
                if edge.crossed(low, high) && !self.over_most[k] {
                    if let Cross::Overhang(overhang) = edge.cross_node(window, child) {
                        self.seen[k].insert(overhang);
                        if self.seen[k].len() > EXACT_MOST {
                            self.over_most[k] = true;
                            self.seen[k] = Default::default();
                        }
                    }
                }
            }
            if high < self.last {
                self.visit(child);
            }
            if self.over {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
    }
}

/// The lowest free cell of `node` (the board's cells when it is full).
fn lowest<L: Lane, const K: usize>(window: &Window<L, K>, node: Node) -> usize {
    let (board, offset) = window.settle(node);
    offset * window.shift as usize + board.trailing_ones() as usize
}

/// Knuth's estimate of the nodes of `window`'s tree, stratified by the root's children:
/// `paths` random paths in all, shared evenly among them, at least one below each. A
/// tree whose root places one piece first has a child per orbit of its placements, and
/// the subtrees below them differ the most. The nodes it expands are added to `nodes`.
pub(crate) fn stratified_size<L: Lane, const K: usize>(
    window: &Window<L, K>,
    paths: usize,
    nodes: &mut u64,
) -> f64 {
    let mut rng = fastrand::Rng::with_seed(1);
    let root = window.root();
    if window.is_leaf(root) {
        return 1.0;
    }
    let first = root_children(window);
    *nodes += 1;
    let mut children = Vec::new();
    let mut total = 1.0;
    let paths = paths.div_ceil(first.len().max(1));
    let mut below = Vec::new();
    for &child in &first {
        // Every path from `child` starts by expanding it: once, for all of them (the
        // same paths, drawn in the same order, as `walk_path` from `child` would draw).
        below.clear();
        if !window.is_leaf(child) {
            *nodes += 1;
            let _ = window.for_each_child(child, |_, grandchild| {
                below.push(grandchild);
                ControlFlow::Continue(())
            });
        }
        let mut sum = 0.0;
        for _ in 0..paths {
            let path = if below.is_empty() {
                0.0
            } else {
                let weight = below.len() as f64;
                let next = below[rng.usize(..below.len())];
                walk_path(window, next, weight, weight, &mut rng, &mut children, nodes)
            };
            sum += 1.0 + path;
        }
        total += sum / paths as f64;
    }
    total
}

/// The children of the root, in search order.
fn root_children<L: Lane, const K: usize>(window: &Window<L, K>) -> Vec<Node> {
    let mut first = Vec::new();
    let _ = window.for_each_child(window.root(), |_, child| {
        first.push(child);
        ControlFlow::Continue(())
    });
    first
}

/// One random path of Knuth's estimate down from `node`, which was reached with
/// `weight` (the product of the branching above it), with the sum of the weights so
/// far `sum`: that sum at the end, with the weights of the nodes it enters below
/// `node`. The nodes it expands, `node` included, are added to `nodes`.
fn walk_path<L: Lane, const K: usize>(
    window: &Window<L, K>,
    mut node: Node,
    mut weight: f64,
    mut sum: f64,
    rng: &mut fastrand::Rng,
    children: &mut Vec<Node>,
    nodes: &mut u64,
) -> f64 {
    while !window.is_leaf(node) {
        *nodes += 1;
        children.clear();
        let _ = window.for_each_child(node, |_, child| {
            children.push(child);
            ControlFlow::Continue(())
        });
        if children.is_empty() {
            break;
        }
        weight *= children.len() as f64;
        sum += weight;
        node = children[rng.usize(..children.len())];
    }
    sum
}

/// The first level of the tree with at least `min_tasks` nodes (and [`MIN_TASKS`]),
/// solutions above it carried down, at most [`MAX_DEPTH`] down and [`MAX_LEVEL`] wide:
/// its depth and its nodes.
fn cut<L: Lane, const K: usize>(window: &Window<L, K>, min_tasks: usize) -> (usize, usize) {
    let mut level = vec![window.root()];
    let mut depth = 0;
    let min_tasks = min_tasks.clamp(MIN_TASKS, MAX_LEVEL);
    while level.len() < min_tasks && depth < MAX_DEPTH {
        let mut next = Vec::new();
        for &node in &level {
            if window.is_leaf(node) {
                next.push(node);
                continue;
            }
            let _ = window.for_each_child(node, |_, child| {
                next.push(child);
                ControlFlow::Continue(())
            });
        }
        if next.len() == level.len() {
            break;
        }
        level = next;
        depth += 1;
    }
    (depth, level.len())
}

/// The split rows for `window`, by measurement (see the module docs).
///
/// The searches above are memoised within `memo_bytes`, the run's bound: a
/// measurement whose memo outgrew it would count as work above the searches that the
/// memo spares a run (on the 9 x 10 board a fixed 16 MiB filled and put 35,000 nodes
/// on an overhang of row 4 whose searches above take about 70), so such a row counts
/// as measured over budget.
pub(crate) fn plan<L: Lane, const K: usize>(window: &Window<L, K>, memo_bytes: usize) -> SplitPlan {
    let mut plan = SplitPlan::default();
    if !qualifies(window) {
        plan.skipped = Some("32 different pieces, more than the split search serves");
        return plan;
    }
    let width = window.width();
    let rows = window.cells().div_ceil(width);
    let reach = Reach::of(window);
    let edges: Vec<(usize, Edge)> = (1..rows)
        .filter_map(|row| Edge::of(window, &reach, row * width).map(|edge| (row, edge)))
        .collect();
    if edges.is_empty() {
        plan.skipped = Some("no row's overhang is served");
        return plan;
    }
    // Until their overhangs are counted exactly (below), if they are.
    plan.wide_rows = edges
        .iter()
        .filter(|(_, edge)| edge.bits() > MAX_PLANNED_BITS)
        .map(|&(row, _)| row)
        .collect();
    let mut size = stratified_size(window, PROBE_PATHS, &mut plan.pilot_nodes);
    if size < SMALL_TREE {
        plan.plain = size;
        plan.skipped = Some("a small tree");
        return plan;
    }
    if size > MIN_STRIDE as f64 * WALK_NODES {
        // Random paths run short on heavy-tailed trees (the one-sided pentominoes 6 x
        // 15: 30 times short), so a tree large enough for the walk to be sparser than
        // its least is sized again by a sparse sample of its subtrees first.
        let (depth, tasks) = cut(window, MAX_LEVEL);
        let mut coarse = Walk::new(window, &[], depth, tasks, COARSE_SAMPLED);
        size = size.max(coarse.visit(window.root(), 0, 1.0, None).0);
        plan.pilot_nodes += coarse.nodes;
        if coarse.over {
            plan.skipped = Some("a tree too large to sample");
            return plan;
        }
    }
    // Sparser samples of larger trees: the walk takes about `WALK_NODES` of them.
    let wanted = ((size / WALK_NODES).ceil() as usize).max(MIN_STRIDE);
    let sampled = if size < MODEST_TREE {
        SAMPLED / 2
    } else {
        SAMPLED
    };
    let (depth, tasks) = cut(window, wanted.saturating_mul(sampled));
    let mut walk = Walk::new(window, &edges, depth, tasks, sampled);
    if depth == 0 || walk.sampled == 0 {
        plan.skipped = Some("a small tree");
        return plan;
    }
    let (plain, _, _) = walk.visit(window.root(), 0, 1.0, None);
    plan.pilot_nodes += walk.nodes;
    plan.plain = plain;
    if walk.over {
        plan.skipped = Some("a tree too large to sample");
        return plan;
    }
    if plain < SMALL_TREE {
        plan.skipped = Some("a small tree");
        return plan;
    }
    // Chao's estimate where overhangs are at most `MAX_PLANNED_BITS` cells; the exact
    // count south of the highest wide row the walk can afford, and below it; none
    // (the row not planned for) on the wide rows above it.
    let mut overhangs: Vec<Option<f64>> = walk
        .tallies
        .iter()
        .zip(&edges)
        .map(|(t, (_, edge))| (edge.bits() <= MAX_PLANNED_BITS).then(|| t.distinct(walk.sampled)))
        .collect();
    let south = |i: usize| {
        let t = &walk.tallies[i];
        plain - t.subtrees + t.crossings
    };
    // Not on modest trees, where the walk weighs most against what a split could save
    // (the hexiamonds 6 x 6: 3% more time, no row chosen).
    let affordable = (0..edges.len())
        .filter(|&i| edges[i].1.bits() > MAX_PLANNED_BITS && south(i) <= EXACT_SHARE * plain)
        .max()
        .filter(|_| plain >= MODEST_TREE);
    if let Some(last) = affordable {
        let most = (2.0 * EXACT_SHARE * plain) as u64;
        let (counts, nodes) = Exact::count(window, &edges[..=last], most);
        plan.pilot_nodes += nodes;
        plan.exact_nodes = nodes;
        if let Some(counts) = counts {
            for (i, count) in counts.into_iter().enumerate() {
                overhangs[i] = Some(count.map_or(f64::INFINITY, |c| c as f64));
            }
        }
    }
    plan.wide_rows.retain(|row| {
        let i = edges
            .iter()
            .position(|(r, _)| r == row)
            .expect("an edge's row");
        overhangs[i].is_none()
    });
    let mut budget = (MEASURE_BUDGET * plain).clamp(MIN_BUDGET, MAX_BUDGET);
    let mut best: Option<(f64, usize)> = None;
    for (i, tally) in walk.tallies.iter().enumerate().rev() {
        let Some(distinct) = overhangs[i] else {
            // A wide row whose overhangs were not counted.
            continue;
        };
        if tally.order.is_empty() {
            // Not crossed in the sample: nothing to search above it.
            continue;
        }
        let below = plain - tally.subtrees + CROSSING * tally.crossings;
        if tally.crossings < MIN_RECURRENCE * distinct {
            plan.candidates.push(RowEstimate {
                row: edges[i].0,
                crossings: tally.crossings,
                overhangs: distinct,
                below,
                above: None,
                memo: 0.0,
                memo_full: false,
                recurs: false,
            });
            continue;
        }
        let cells: Vec<usize> = edges[i..].iter().map(|(_, edge)| edge.cell()).collect();
        let Some(above) = Above::for_measuring(window, &cells, memo_bytes) else {
            continue;
        };
        let (work, spent) = measure(window, &above, &tally.order, budget);
        budget -= spent;
        plan.pilot_nodes += work.iter().map(|w| w.nodes).sum::<u64>();
        // The first split's blocks, one per overhang met there; each later split's, as
        // many as overhangs the plain tree meets there, or as the sample searched if
        // more: their work and their words, at the measured rate per block.
        let blocks: Vec<f64> = std::iter::once(distinct)
            .chain(
                work[1..]
                    .iter()
                    .zip(&overhangs[i + 1..])
                    .zip(&walk.tallies[i + 1..])
                    .map(|((w, d), t)| {
                        // A later wide row not counted: Chao's estimate, rough there.
                        d.unwrap_or_else(|| t.distinct(walk.sampled))
                            .max(w.blocks as f64)
                    }),
            )
            .collect();
        let per_block = |of: fn(&LevelWork) -> f64| -> f64 {
            work.iter()
                .zip(&blocks)
                .filter(|(w, _)| w.blocks > 0)
                .map(|(w, &n)| n * of(w) / w.blocks as f64)
                .sum()
        };
        let memo = per_block(|w| (w.words as usize * std::mem::size_of::<u32>()) as f64);
        // A measurement past its budget or its memo ends the descent: a lower row
        // would search more. A row whose run would outgrow the memo is passed over,
        // but a lower one may need less (its first split meeting fewer overhangs).
        let pilot_full = above.memory().full;
        let stop = budget < 0.0 || pilot_full;
        let memo_full = pilot_full || memo > memo_bytes as f64;
        let above = (!stop && !memo_full).then(|| per_block(LevelWork::units));
        let estimate = RowEstimate {
            row: edges[i].0,
            crossings: tally.crossings,
            overhangs: distinct,
            below,
            above,
            memo,
            memo_full,
            recurs: true,
        };
        let cost = estimate.cost();
        plan.candidates.push(estimate);
        if stop {
            break;
        }
        let Some(cost) = cost else {
            continue;
        };
        if best.is_none_or(|(b, _)| cost < b) {
            best = Some((cost, i));
        }
    }
    if let Some((cost, i)) = best {
        if cost < MARGIN * plain {
            plan.rows = edges[i..].iter().map(|&(row, _)| row).collect();
        }
    }
    plan
}

/// The searches above [`MEASURED`] of the overhangs `seen` at the first split of
/// `above` (spread over them), with the later splits' searches they need: the work per
/// split, and the units spent (more than `budget` if it ran out).
fn measure<L: Lane, const K: usize>(
    window: &Window<L, K>,
    above: &Above,
    seen: &[u64],
    budget: f64,
) -> (Vec<LevelWork>, f64) {
    let m = seen.len().min(MEASURED);
    let mut scratch = Workspace {
        budget: Some(budget),
        ..Workspace::default()
    };
    let any = any_pieces(window);
    for j in 0..m {
        let _ = above.block(&any, 0, seen[j * seen.len() / m], &mut scratch);
        let spent: f64 = scratch.levels.iter().map(LevelWork::units).sum();
        if spent > budget {
            return (scratch.levels, spent);
        }
    }
    let spent = scratch.levels.iter().map(LevelWork::units).sum();
    (scratch.levels, spent)
}

#[cfg(test)]
mod tests {
    use super::{lowest, Exact, Tally};
    use crate::meet::{Cross, Edge, Reach};
    use crate::meteor::{CELLS, WINDOW};
    use rustc_hash::FxHashSet;
    use std::ops::ControlFlow;

    /// The exact count of distinct overhangs, which walks the tree only as far as the
    /// last split asked for, against every edge of the whole tree walked.
    #[test]
    fn exact_overhangs_are_those_the_whole_tree_meets() {
        let window = &WINDOW;
        let reach = Reach::of(window);
        let width = window.width();
        let edges: Vec<(usize, Edge)> = (1..CELLS / width)
            .filter_map(|row| Edge::of(window, &reach, row * width).map(|e| (row, e)))
            .collect();
        assert!(edges.len() > 3);
        // Every crossing of every edge, from every edge of the tree.
        let mut whole: Vec<FxHashSet<u64>> = vec![FxHashSet::default(); edges.len()];
        let mut stack = vec![window.root()];
        let mut nodes = 0u64;
        while let Some(node) = stack.pop() {
            nodes += 1;
            if window.is_leaf(node) {
                continue;
            }
            let low = lowest(window, node);
            let _ = window.for_each_child(node, |_, child| {
                let high = lowest(window, child);
                for (set, (_, edge)) in whole.iter_mut().zip(&edges) {
                    if edge.crossed(low, high) {
                        if let Cross::Overhang(o) = edge.cross_node(window, child) {
                            set.insert(o);
                        }
                    }
                }
                stack.push(child);
                ControlFlow::Continue(())
            });
        }
        for last in 0..edges.len() {
            let (counts, walked) = Exact::count(window, &edges[..=last], u64::MAX);
            let counts = counts.expect("within any number of nodes");
            let want: Vec<Option<usize>> = whole[..=last].iter().map(|s| Some(s.len())).collect();
            assert_eq!(counts, want, "up to row {}", edges[last].0);
            assert!(walked <= nodes);
            if last + 1 < edges.len() {
                // North of the last split nothing is walked.
                assert!(walked < nodes, "up to row {}", edges[last].0);
            }
        }
        // Past its nodes the walk stops and says so.
        assert_eq!(Exact::count(window, &edges, 100).0, None);
    }

    /// Chao2 on a hand-made sample: overhangs seen above the cut are known, each
    /// sampled subtree counts an overhang once however often it crosses there.
    #[test]
    fn distinct_overhangs_are_estimated_from_those_seen_once_and_twice() {
        let mut t = Tally::default();
        // Above the cut: known, even if sampled subtrees meet it again.
        t.add(1, 1.0, 1.0, None);
        t.add(1, 16.0, 16.0, Some(0));
        // Three overhangs in one subtree each (one of them twice there), one in two.
        t.add(2, 16.0, 16.0, Some(0));
        t.add(2, 16.0, 16.0, Some(0));
        t.add(3, 16.0, 16.0, Some(1));
        t.add(4, 16.0, 16.0, Some(2));
        t.add(5, 16.0, 16.0, Some(1));
        t.add(5, 16.0, 16.0, Some(3));
        // Seen 5; missed (m - 1) / m * Q1 (Q1 - 1) / (2 (Q2 + 1)) with m = 4, Q1 = 3,
        // Q2 = 1.
        let missed = 3.0 / 4.0 * 3.0 * 2.0 / 4.0;
        assert!((t.distinct(4) - (5.0 + missed)).abs() < 1e-9);
        // Never more than the crossings, never fewer than seen.
        let mut few = Tally::default();
        for (overhang, unit) in [(1, 0), (2, 1), (3, 2)] {
            few.add(overhang, 1.0, 1.0, Some(unit));
        }
        assert_eq!(few.distinct(3), 3.0);
    }
}
