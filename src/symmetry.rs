//! Permutation groups acting on cells: the one symmetry engine that tilings and number
//! puzzles share.
//!
//! A symmetry of a puzzle moves its cells: a rotation or reflection of a board
//! ([`crate::grid`] finds those), or an automorphism of a number model (`sums` finds
//! those from the constraints). Either way it is a [`Perm`] of cell indices, and what
//! the solvers do with a group is the same: move a labelling of the cells (a tiling,
//! a solution's values) to its images, pick one representative per orbit of a set of
//! cells (one placement per orbit for the piece that breaks a board's symmetry), and
//! state order constraints that keep one solution per class (Puget's, for models whose
//! solutions take distinct values).
//!
//! This module knows nothing of boards, pieces or models, and uses `std` only:
//! `build.rs` includes it with the geometry.

/// A permutation of cells: `perm[c]` is the image of cell `c`, or [`NONE`] for an index
/// that is not a cell (a hole in a board's rectangle).
pub type Perm = Vec<u32>;

/// The image of an index that is not a cell.
pub const NONE: u32 = u32::MAX;

/// A group of cell permutations, the identity first. Its elements are given, not
/// generated: whoever builds it has found every element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    perms: Vec<Perm>,
}

impl Group {
    /// The group of `perms`, whose first element must be the identity.
    pub fn new(perms: Vec<Perm>) -> Group {
        debug_assert!(perms.first().is_none_or(|p| p
            .iter()
            .enumerate()
            .all(|(c, &i)| i == NONE || i as usize == c)));
        Group { perms }
    }

    /// The number of elements.
    pub fn order(&self) -> usize {
        self.perms.len()
    }

    /// Element `g`.
    pub fn perm(&self, g: usize) -> &Perm {
        &self.perms[g]
    }

    /// The image of a set of cells under element `g`, sorted.
    pub fn image_of_set(&self, g: usize, set: &[usize]) -> Vec<usize> {
        let perm = &self.perms[g];
        let mut image: Vec<usize> = set.iter().map(|&c| perm[c] as usize).collect();
        image.sort_unstable();
        image
    }

    /// The labelling `labels` (one per index) moved by element `g`: the label of cell
    /// `c` goes to its image; indices that are no cell's image get `fill`.
    pub fn move_labels<T: Copy>(&self, g: usize, labels: &[T], fill: T) -> Vec<T> {
        let mut moved = vec![fill; labels.len()];
        for (&to, &label) in self.perms[g].iter().zip(labels) {
            if to != NONE {
                moved[to as usize] = label;
            }
        }
        moved
    }

    /// One representative of each orbit met among `sets` (each sorted): the first of
    /// its orbit in the order given.
    pub fn orbit_representatives(&self, sets: &[Vec<usize>]) -> Vec<Vec<usize>> {
        let mut seen = std::collections::BTreeSet::new();
        let mut reps = Vec::new();
        for set in sets {
            if seen.contains(set) {
                continue;
            }
            reps.push(set.clone());
            for g in 0..self.order() {
                seen.insert(self.image_of_set(g, set));
            }
        }
        reps
    }

    /// Whether some element other than the identity maps a set of `sets` onto itself.
    pub fn fixes_a_set(&self, sets: &[Vec<usize>]) -> bool {
        sets.iter()
            .any(|s| (1..self.order()).any(|g| self.image_of_set(g, s) == *s))
    }

    /// Puget's order constraints ("Breaking symmetries in all different problems",
    /// IJCAI 2005) along the cells of `sequence`: each cell is less than the other
    /// cells of its orbit under the elements that fix the cells before it. When every
    /// solution takes pairwise distinct values, they keep exactly one solution of each
    /// orbit.
    pub fn breaking_constraints(&self, sequence: &[usize]) -> Vec<(usize, usize)> {
        let mut stabiliser: Vec<&Perm> = self.perms.iter().collect();
        let mut less = Vec::new();
        for &c in sequence {
            if stabiliser.len() <= 1 {
                break;
            }
            let mut orbit: Vec<usize> = stabiliser.iter().map(|g| g[c] as usize).collect();
            orbit.sort_unstable();
            orbit.dedup();
            less.extend(orbit.into_iter().filter(|&d| d != c).map(|d| (c, d)));
            stabiliser.retain(|g| g[c] as usize == c);
        }
        less
    }
}

#[cfg(test)]
mod tests {
    use super::{Group, NONE};

    /// The rotations of a 2 x 2 square, cells row-major.
    fn square_turns() -> Group {
        Group::new(vec![
            vec![0, 1, 2, 3],
            vec![1, 3, 0, 2],
            vec![3, 2, 1, 0],
            vec![2, 0, 3, 1],
        ])
    }

    #[test]
    fn labels_move_to_the_images_of_their_cells() {
        let g = square_turns();
        assert_eq!(
            g.move_labels(1, &['a', 'b', 'c', 'd'], '.'),
            ['c', 'a', 'd', 'b']
        );
        let with_hole = Group::new(vec![vec![0, NONE, 2], vec![2, NONE, 0]]);
        assert_eq!(with_hole.move_labels(1, &[1, 9, 3], 0), [3, 0, 1]);
    }

    #[test]
    fn one_representative_per_orbit() {
        let g = square_turns();
        let dominoes = vec![vec![0, 1], vec![0, 2], vec![1, 3], vec![2, 3]];
        assert_eq!(g.orbit_representatives(&dominoes), vec![vec![0, 1]]);
        let cells: Vec<Vec<usize>> = (0..4).map(|c| vec![c]).collect();
        assert_eq!(g.orbit_representatives(&cells).len(), 1);
        assert!(!g.fixes_a_set(&dominoes));
        assert!(g.fixes_a_set(&[vec![0, 1, 2, 3]]));
    }

    #[test]
    fn puget_constraints_follow_the_stabiliser_chain() {
        // Cell 0's orbit is every cell; its stabiliser is the identity alone.
        assert_eq!(
            square_turns().breaking_constraints(&[0, 1, 2, 3]),
            vec![(0, 1), (0, 2), (0, 3)]
        );
    }
}
