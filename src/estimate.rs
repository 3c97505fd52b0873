//! How big a search is before it is run: Knuth's random-path estimate of its tree
//! (D. E. Knuth, "Estimating the efficiency of backtrack programs", Mathematics of
//! Computation 29, 1975), and a probe of the rate at which the real search visits
//! nodes, for any [`Search`] the driver runs.
//!
//! # The estimate
//! A *path* starts at the root and, at each node, notes how many children the search
//! would enter there (`d`), then steps to one of them chosen uniformly at random, until
//! it reaches a node with none. The product of the `d`s seen above a depth estimates
//! the number of nodes at that depth without bias; summed over the depths it
//! estimates the nodes, and at a solution it estimates the solutions. The mean over
//! many independent paths converges to the true figures; the spread reported is the
//! standard error of that mean, computed from the paths.
//!
//! The paths are *stratified*: the top of the tree is searched exactly, cut into
//! subtrees the way the driver cuts it into tasks (about one per
//! [`PATHS_PER_STRATUM`] paths), and each subtree gets an equal share of the paths.
//! The estimate is the exact count above the cut plus the subtrees' estimates, and its
//! variance the sum of theirs: how much the subtrees differ from each other no longer
//! adds to the error, which on the shipped puzzles narrows it several times for the
//! same work. Children found dead when
//! entered (propagation) count as nodes but are never stepped to: their subtrees are
//! themselves, so the walk picks among the live children only, with their number as
//! the weight.
//!
//! The paths see the tree through [`Search::children`], and a solution's worth (one
//! solution, a class standing for its orbit, a class dropped as not the least of its
//! orbit) through [`Search::run`] of that leaf, so the estimate is of the very
//! figures a run reports. Trees with rare, deep, heavy subtrees make the estimate
//! converge slowly, and a standard error computed from too few paths then understates
//! the error: the paths rarely meet the subtrees that dominate.
//!
//! # The rate
//! The probe runs the real search ([`Search::run`], with node counting) on whole
//! subtrees of about [`PROBE_SUBTREE`] nodes by the estimate, until the probe time is
//! spent: rooted at random nodes of the deepest level below the cut whose subtrees
//! hold that many on average, or, when the cut's own subtrees are smaller, the tasks
//! of a coarser cut.
//! Nodes over seconds is the rate of one thread.

use std::time::Instant;

use crate::driver::{run_one, Search, Split};

/// The average subtree size, by the estimate, of the nodes whose subtrees the rate
/// probe runs: large enough that timing one costs nothing, small enough that several
/// fit any probe.
pub const PROBE_SUBTREE: f64 = 10_000.0;

/// The default of [`EstimateOptions::tail_nodes`].
pub const TAIL_SUBTREE: f64 = 1_000.0;

/// Paths per stratum the cut aims at.
pub const PATHS_PER_STRATUM: u64 = 16;

/// How an estimate is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EstimateOptions {
    /// Random paths from the root.
    pub paths: u64,
    /// The seed of the paths' random choices: the same seed gives the same estimate.
    pub seed: u64,
    /// Seconds of real search to measure the node rate (0: no probe).
    pub probe_seconds: f64,
    /// Paths search exactly below the first depth whose subtrees hold at most this
    /// many nodes on average (by a pilot); 0: they never do.
    pub tail_nodes: f64,
}

impl Default for EstimateOptions {
    fn default() -> EstimateOptions {
        EstimateOptions {
            paths: 20_000,
            seed: 1,
            probe_seconds: 0.5,
            tail_nodes: TAIL_SUBTREE,
        }
    }
}

/// An estimated figure: the mean of the paths' estimates and its standard error.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    /// The estimate.
    pub mean: f64,
    /// The standard error of the mean (0 when every path gave the same figure).
    pub std_error: f64,
}

impl Spread {
    /// The standard error as a fraction of the mean (0 for a mean of 0).
    pub fn relative(&self) -> f64 {
        if self.mean == 0.0 {
            0.0
        } else {
            self.std_error / self.mean
        }
    }
}

/// The measured speed of the real search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Nodes the probe's searches visited.
    pub nodes: u64,
    /// Seconds they took, on one thread.
    pub seconds: f64,
    /// Subtrees searched.
    pub subtrees: u64,
}

impl Rate {
    /// Nodes a second on one thread.
    pub fn per_second(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }
}

/// What a search will cost and find, before it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The options it was made with.
    pub options: EstimateOptions,
    /// Paths walked: [`EstimateOptions::paths`], more when there are more strata than
    /// half as many (each gets two), fewer where a stratum has only one path or is
    /// searched whole (it counts one).
    pub paths: u64,
    /// Nodes above the strata, counted exactly.
    pub above: u64,
    /// The subtrees the tree was cut into, each sampled by its share of the paths.
    pub strata: usize,
    /// Nodes, as [`crate::Summary::nodes`] would count them.
    pub nodes: Spread,
    /// Solutions, as [`crate::Summary::solutions`] would count them (classes in
    /// distinct mode).
    pub solutions: Spread,
    /// The solutions they stand for, as [`crate::Summary::total`].
    pub total: Spread,
    /// Estimated nodes per level, from the strata's roots (level 0) down.
    pub levels: Vec<f64>,
    /// Whether the figures are exact: the cut reached every leaf, or no path had a
    /// choice to make below it.
    pub exact: bool,
    /// The node rate, unless no probe was asked for.
    pub rate: Option<Rate>,
    /// For a tiling that splits by default (`--split auto`): the rows it chose and its
    /// estimated work, in nodes of the plain search (the time at the plain rate).
    pub split: Option<SplitWork>,
}

/// What a split run is estimated to cost, beside the plain tree.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitWork {
    /// The rows split before (of the board as searched).
    pub rows: Vec<usize>,
    /// Its work in nodes of the plain search (`crate::SplitPlan`).
    pub work: f64,
}

impl Estimate {
    /// Expected seconds of a run on `threads` threads, if the work divides evenly
    /// among them; `None` without a rate.
    pub fn seconds(&self, threads: usize) -> Option<f64> {
        let rate = self.rate?;
        Some(self.nodes.mean / rate.per_second() / threads.max(1) as f64)
    }

    /// The estimate as text, for a person: what it is of (`source`, `distinct`), nodes
    /// and solutions with their standard errors, and with a rate, the time a run takes
    /// on one thread and on `threads`.
    pub fn text(&self, source: &str, distinct: bool, threads: usize) -> String {
        let what = if distinct {
            "distinct solutions"
        } else {
            "all solutions"
        };
        let mut out = format!(
            "{source}: {what}, estimated from {} random paths in {} subtrees (seed {})\n",
            self.paths, self.strata, self.options.seed
        );
        let row = |label: &str, s: &Spread| {
            let error = if self.exact {
                "exact (the whole tree was walked)".to_string()
            } else if s.mean == 0.0 {
                "no path met one".to_string()
            } else if s.std_error == 0.0 {
                "the same on every path".to_string()
            } else {
                format!("± {:.1}% (standard error)", 100.0 * s.relative())
            };
            format!("{label:<12}{}  {error}\n", approximately(s.mean))
        };
        out += &row("nodes", &self.nodes);
        out += &row("solutions", &self.solutions);
        if distinct {
            out += &row("in all", &self.total);
        }
        if let Some(rate) = self.rate {
            out += &format!(
                "{:<12}{} nodes a second on one thread ({} nodes in {:.2} s, {} subtrees)\n",
                "rate",
                approximately(rate.per_second()),
                rate.nodes,
                rate.seconds,
                rate.subtrees,
            );
            let one = self.seconds(1).unwrap_or(0.0);
            out += &format!("{:<12}{} on one thread", "time", duration(one));
            if threads > 1 {
                out += &format!(
                    ", {} on {threads} threads if the work divides evenly",
                    duration(one / threads as f64)
                );
            }
            out.push('\n');
        }
        if let Some(split) = &self.split {
            out += &format!(
                "{:<12}before rows {}..{} (as --split auto measures them; a run's default): about {} nodes' work",
                "split",
                split.rows[0],
                split.rows[split.rows.len() - 1],
                approximately(split.work),
            );
            if let Some(rate) = self.rate {
                out += &format!(
                    ", {} on one thread",
                    duration(split.work / rate.per_second())
                );
            }
            out += " (the figures above are --split off's)\n";
        }
        out
    }

    /// The estimate as one JSON object for programs: `puzzle` names what it is of; the
    /// per-level profile is included.
    pub fn json(
        &self,
        puzzle: serde_json::Value,
        distinct: bool,
        threads: usize,
    ) -> serde_json::Value {
        use serde_json::json;
        let spread = |s: &Spread| json!({"estimate": s.mean, "std_error": s.std_error});
        let mut line = json!({
            "puzzle": puzzle,
            "mode": if distinct { "distinct" } else { "all" },
            "paths": self.paths,
            "seed": self.options.seed,
            "above": self.above,
            "strata": self.strata,
            "exact": self.exact,
            "nodes": spread(&self.nodes),
            "solutions": spread(&self.solutions),
            "levels": self.levels,
        });
        if distinct {
            line["total"] = spread(&self.total);
        }
        if let Some(rate) = self.rate {
            line["rate"] = json!({
                "nodes_per_second": rate.per_second(),
                "probe_nodes": rate.nodes,
                "probe_seconds": rate.seconds,
                "subtrees": rate.subtrees,
            });
            line["seconds"] = json!({
                "one_thread": self.seconds(1),
                "threads": threads,
                "on_threads": self.seconds(threads),
            });
        }
        if let Some(split) = &self.split {
            line["split"] = json!({
                "rows": split.rows,
                "work": split.work,
                "seconds_one_thread": self.rate.map(|r| split.work / r.per_second()),
            });
        }
        line
    }
}

/// Running mean and variance (Welford).
#[derive(Default)]
struct Moments {
    n: f64,
    mean: f64,
    square: f64,
}

impl Moments {
    /// One observation.
    fn of(x: f64) -> Moments {
        let mut m = Moments::default();
        m.add(x);
        m
    }

    fn add(&mut self, x: f64) {
        self.n += 1.0;
        let delta = x - self.mean;
        self.mean += delta / self.n;
        self.square += delta * (x - self.mean);
    }

    fn spread(&self) -> Spread {
        let variance = if self.n > 1.0 {
            self.square / (self.n - 1.0)
        } else {
            0.0
        };
        Spread {
            mean: self.mean,
            std_error: (variance / self.n.max(1.0)).sqrt(),
        }
    }
}

/// One random path's findings.
struct Path<T> {
    nodes: f64,
    solutions: f64,
    total: f64,
    /// The node it stopped at, when it reached the depth it was to stop at, and the
    /// weight of that node (the product of the choices above it).
    stopped: Option<(T, f64)>,
    /// Whether it chose among several children anywhere: if not, every path from its
    /// root is this one.
    chose: bool,
}

/// Estimates `search`'s tree as `options` says.
pub(crate) fn estimate<S: Search>(search: &S, options: &EstimateOptions) -> Estimate {
    let target = (options.paths / PATHS_PER_STRATUM).max(1) as usize;
    let (strata, above) = search.split(Split {
        depth: usize::MAX,
        tasks: target,
    });
    let exact = |nodes: u64| Spread {
        mean: nodes as f64,
        std_error: 0.0,
    };
    let mut estimate = Estimate {
        options: *options,
        paths: 0,
        above,
        strata: strata.len(),
        nodes: exact(above),
        solutions: exact(0),
        total: exact(0),
        levels: vec![strata.len() as f64],
        exact: true,
        rate: None,
        split: None,
    };
    if strata.is_empty() {
        // Dead before any task: nothing to sample.
        return estimate;
    }
    let mut walker = Walker {
        search,
        worker: search.worker(),
        rng: fastrand::Rng::with_seed(options.seed),
        children: Vec::new(),
        levels: Vec::new(),
    };
    let sizes = walker.pilot(&strata, &mut estimate.levels);
    let tail = tail_depth(&estimate.levels, options.tail_nodes);
    // Paths are shared out evenly, at least two a stratum (for its variance).
    let each = (options.paths / strata.len() as u64).max(2);
    let extra = options.paths.saturating_sub(each * strata.len() as u64);
    // When the paths' exact searches would cost about as much as the whole tree, by
    // the pilot, the tree is searched instead. (Stratum by stratum, two paths are too
    // few to tell: on heavy-tailed trees they often miss a large subtree.)
    let whole = sizes.iter().sum::<f64>() <= options.paths as f64 * options.tail_nodes.max(1.0);
    let mut variance = [0.0; 3];
    for (i, stratum) in strata.iter().enumerate() {
        let paths = each + u64::from((i as u64) < extra);
        let moments = if whole {
            let (count, total, nodes) = run_one(search, &mut walker.worker, stratum);
            [nodes, count, total].map(|x| Moments::of(x as f64))
        } else {
            let (moments, chose) = walker.sample(stratum, paths, tail);
            estimate.exact &= !chose;
            moments
        };
        estimate.paths += moments[0].n as u64;
        let figures = [
            &mut estimate.nodes,
            &mut estimate.solutions,
            &mut estimate.total,
        ];
        for ((figure, moments), variance) in figures.into_iter().zip(&moments).zip(&mut variance) {
            let spread = moments.spread();
            figure.mean += spread.mean;
            *variance += spread.std_error * spread.std_error;
        }
    }
    estimate.nodes.std_error = variance[0].sqrt();
    estimate.solutions.std_error = variance[1].sqrt();
    estimate.total.std_error = variance[2].sqrt();
    if options.probe_seconds > 0.0 {
        let depth = probe_depth(&estimate.levels);
        estimate.rate = Some(walker.probe(&strata, depth, &estimate, options.probe_seconds));
    }
    estimate
}

/// What the random paths of one estimate share: the search, a worker, the random
/// numbers and scratch space.
struct Walker<'s, S: Search> {
    search: &'s S,
    worker: S::Worker,
    rng: fastrand::Rng,
    children: Vec<S::Task>,
    levels: Vec<f64>,
}

impl<S: Search> Walker<'_, S> {
    /// Walks one random path from `root` (which counts as a node), adding the nodes it
    /// estimates per level below `root` to `self.levels`; stops early at depth
    /// `stop_at` below `root`.
    fn walk(&mut self, root: &S::Task, stop_at: usize) -> Path<S::Task> {
        let mut path = Path {
            nodes: 1.0,
            solutions: 0.0,
            total: 0.0,
            stopped: None,
            chose: false,
        };
        let mut weight = 1.0;
        let mut node = root.clone();
        let mut depth = 0;
        loop {
            if depth == stop_at {
                path.stopped = Some((node, weight));
                return path;
            }
            self.children.clear();
            let entered = self
                .search
                .children(&mut self.worker, &node, &mut self.children);
            if entered == 0 {
                let (count, total, _) = run_one(self.search, &mut self.worker, &node);
                path.solutions = weight * count as f64;
                path.total = weight * total as f64;
                return path;
            }
            path.nodes += weight * entered as f64;
            if self.levels.len() <= depth + 1 {
                self.levels.resize(depth + 2, 0.0);
            }
            self.levels[depth + 1] += weight * entered as f64;
            if self.children.is_empty() {
                return path;
            }
            path.chose |= self.children.len() > 1;
            weight *= self.children.len() as f64;
            let pick = self.rng.usize(..self.children.len());
            node = self.children.swap_remove(pick);
            depth += 1;
        }
    }

    /// Two whole paths a stratum: each stratum's estimated size, and the tree's
    /// profile added to `profile` (for where the paths hand over to exact searches
    /// and where the rate is probed).
    fn pilot(&mut self, strata: &[S::Task], profile: &mut Vec<f64>) -> Vec<f64> {
        let mut sizes = Vec::with_capacity(strata.len());
        for stratum in strata {
            self.levels.clear();
            let (mut walked, mut size) = (0.0, 0.0);
            for _ in 0..2 {
                let path = self.walk(stratum, usize::MAX);
                walked += 1.0;
                size += path.nodes;
                if !path.chose {
                    break;
                }
            }
            sizes.push(size / walked);
            if profile.len() < self.levels.len() {
                profile.resize(self.levels.len(), 0.0);
            }
            for (sum, level) in profile.iter_mut().zip(&self.levels).skip(1) {
                *sum += level / walked;
            }
        }
        sizes
    }

    /// `paths` paths from `stratum`, each searching exactly below depth `tail`: the
    /// moments of their nodes, solutions and totals, and whether any made a choice
    /// (if none did, one path was enough: it is the stratum's exact figure).
    fn sample(&mut self, stratum: &S::Task, paths: u64, tail: usize) -> ([Moments; 3], bool) {
        let mut moments = [Moments::default(), Moments::default(), Moments::default()];
        let mut chose = false;
        for _ in 0..paths {
            let mut path = self.walk(stratum, tail);
            if let Some((node, weight)) = path.stopped.take() {
                let (count, total, nodes) = run_one(self.search, &mut self.worker, &node);
                // The walk counted the node itself.
                path.nodes += weight * (nodes - 1) as f64;
                path.solutions = weight * count as f64;
                path.total = weight * total as f64;
            }
            moments[0].add(path.nodes);
            moments[1].add(path.solutions);
            moments[2].add(path.total);
            chose |= path.chose;
            if !path.chose {
                break;
            }
        }
        (moments, chose)
    }

    /// Times the real search on random subtrees (see the module docs): rooted
    /// `depth` levels below random strata, or with `depth` 0, the tasks of a cut
    /// whose subtrees are about [`PROBE_SUBTREE`] nodes.
    fn probe(
        &mut self,
        strata: &[S::Task],
        depth: usize,
        estimate: &Estimate,
        seconds: f64,
    ) -> Rate {
        let mut rate = Rate {
            nodes: 0,
            seconds: 0.0,
            subtrees: 0,
        };
        let coarse = (depth == 0).then(|| {
            let tasks = (estimate.nodes.mean / PROBE_SUBTREE).ceil().max(1.0);
            self.search
                .split(Split {
                    depth: usize::MAX,
                    tasks: tasks.min(strata.len() as f64) as usize,
                })
                .0
        });
        let start = Instant::now();
        // The walks down cost time too; a tree whose paths mostly die above the depth
        // must still end the probe.
        while rate.seconds < seconds && start.elapsed().as_secs_f64() < 4.0 * seconds {
            let node = match &coarse {
                Some(tasks) if tasks.is_empty() => break,
                Some(tasks) => tasks[self.rng.usize(..tasks.len())].clone(),
                None => {
                    let stratum = &strata[self.rng.usize(..strata.len())];
                    match self.walk(stratum, depth).stopped {
                        Some((node, _)) => node,
                        None => continue,
                    }
                }
            };
            let started = Instant::now();
            let (_, _, nodes) = run_one(self.search, &mut self.worker, &node);
            rate.seconds += started.elapsed().as_secs_f64();
            rate.nodes += nodes;
            rate.subtrees += 1;
        }
        rate
    }
}

/// The shallowest depth whose nodes' subtrees hold at most `tail_nodes` nodes on
/// average, or none.
fn tail_depth(levels: &[f64], tail_nodes: f64) -> usize {
    let below: Vec<f64> = levels
        .iter()
        .rev()
        .scan(0.0, |sum, level| {
            *sum += level;
            Some(*sum)
        })
        .collect();
    (1..levels.len())
        .find(|&depth| {
            levels[depth] > 0.0 && below[levels.len() - 1 - depth] / levels[depth] <= tail_nodes
        })
        .unwrap_or(usize::MAX)
}

/// The depth whose nodes' subtrees hold [`PROBE_SUBTREE`] nodes on average: the
/// deepest where they hold at least that many, or the root.
fn probe_depth(levels: &[f64]) -> usize {
    let mut below = 0.0;
    for depth in (0..levels.len()).rev() {
        below += levels[depth];
        if levels[depth] > 0.0 && below / levels[depth] >= PROBE_SUBTREE {
            return depth;
        }
    }
    0
}

/// Every node of `search`'s tree walked through [`Search::children`], as the
/// estimate's paths see it: the nodes, solutions and total, which must be a run's.
#[cfg(test)]
pub(crate) fn exhaust<S: Search>(search: &S) -> (u64, u64, u64) {
    let (roots, above) = search.split(Split { depth: 0, tasks: 1 });
    let mut worker = search.worker();
    let mut figures = (above, 0, 0);
    let mut stack = roots;
    let mut children = Vec::new();
    while let Some(node) = stack.pop() {
        figures.0 += 1;
        children.clear();
        let entered = search.children(&mut worker, &node, &mut children);
        if entered == 0 {
            let (count, total, _) = run_one(search, &mut worker, &node);
            figures.1 += count;
            figures.2 += total;
        }
        // Children found dead are nodes too; the live ones count when popped.
        figures.0 += entered - children.len() as u64;
        stack.append(&mut children);
    }
    figures
}

/// `x` to three significant digits: an integer below a million, `1.23e9` above.
fn approximately(x: f64) -> String {
    if x < 1e6 {
        let digits = if x >= 100.0 || x == x.round() {
            0
        } else if x >= 10.0 {
            1
        } else {
            2
        };
        format!("{x:.digits$}")
    } else {
        format!("{x:.2e}")
    }
}

/// Seconds in the unit a person would use.
fn duration(seconds: f64) -> String {
    const UNITS: [(f64, &str); 5] = [
        (365.25 * 86400.0, "years"),
        (86400.0, "days"),
        (3600.0, "hours"),
        (60.0, "minutes"),
        (1.0, "s"),
    ];
    for (size, unit) in UNITS {
        if seconds >= 2.0 * size {
            return format!("{:.1} {unit}", seconds / size);
        }
    }
    if seconds >= 0.01 {
        format!("{seconds:.2} s")
    } else {
        format!("{:.2} ms", seconds * 1e3)
    }
}
