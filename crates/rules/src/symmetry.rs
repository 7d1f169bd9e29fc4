//! The eight symmetries of a board (rotations and reflections).

use crate::{Board, Pos, Size};

/// One of the eight transforms of the dihedral group. Those that swap the axes turn a
/// `w×h` board into an `h×w` one; on square boards all eight keep the size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No change.
    Identity,
    /// A quarter turn clockwise.
    Rotate90,
    /// A half turn.
    Rotate180,
    /// A quarter turn anticlockwise.
    Rotate270,
    /// Mirror left–right.
    FlipHorizontal,
    /// Mirror top–bottom.
    FlipVertical,
    /// Mirror in the main diagonal (`x ↔ y`).
    Transpose,
    /// Mirror in the other diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Whether the transform swaps width and height.
    #[must_use]
    pub const fn swaps_axes(self) -> bool {
        matches!(
            self,
            Symmetry::Rotate90
                | Symmetry::Rotate270
                | Symmetry::Transpose
                | Symmetry::AntiTranspose
        )
    }

    /// The board size after the transform.
    #[must_use]
    pub fn size(self, size: Size) -> Size {
        if self.swaps_axes() {
            Size::new(size.height(), size.width()).expect("a valid size transposed is valid")
        } else {
            size
        }
    }

    /// Where `pos` of a `size` board goes.
    #[must_use]
    pub fn apply(self, pos: Pos, size: Size) -> Pos {
        let (w, h) = (size.width() - 1, size.height() - 1);
        let (x, y) = (pos.x, pos.y);
        let (nx, ny) = match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotate90 => (h - y, x),
            Symmetry::Rotate180 => (w - x, h - y),
            Symmetry::Rotate270 => (y, w - x),
            Symmetry::FlipHorizontal => (w - x, y),
            Symmetry::FlipVertical => (x, h - y),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (h - y, w - x),
        };
        Pos::new_unchecked(nx, ny)
    }

    /// The transform that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            s => s,
        }
    }

    /// The transformed board.
    #[must_use]
    pub fn board(self, board: &Board) -> Board {
        let size = board.size();
        let mut out = Board::new(self.size(size));
        for p in size.points() {
            out.set(self.apply(p, size), board.get(p));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_undoes_on_rectangles() {
        let size = Size::new(7, 5).unwrap();
        for s in Symmetry::ALL {
            for p in size.points() {
                let q = s.apply(p, size);
                assert!(s.size(size).contains(q));
                assert_eq!(s.inverse().apply(q, s.size(size)), p, "{s:?}");
            }
        }
    }
}
