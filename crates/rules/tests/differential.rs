//! Differential test: the fast forbidden-point path against a plain checker written
//! straight from the RIF definitions, on thousands of random positions of realistic density.
//!
//! The plain checker shares no code with the fast one: it reads whole lines of the board,
//! finds fours by enumerating five-cell windows and straight fours by six-cell windows,
//! and recurses with no prefilter.

mod common;

use common::{clustered_position, show_forbidden};
use wuzi_rules::board::DIRECTIONS;
use wuzi_rules::{Board, Cell, ForbiddenKind, Pos, Size, forbidden};

/// The whole line through `p` in direction `d`, and the index of `p` in it.
fn line(b: &Board, p: Pos, d: (i32, i32)) -> (Vec<Cell>, usize) {
    let (mut x, mut y) = (i32::from(p.x), i32::from(p.y));
    while b.get_xy(x - d.0, y - d.1).is_some() {
        x -= d.0;
        y -= d.1;
    }
    let mut cells = Vec::new();
    let mut at = 0;
    while let Some(c) = b.get_xy(x, y) {
        if (x, y) == (i32::from(p.x), i32::from(p.y)) {
            at = cells.len();
        }
        cells.push(c);
        x += d.0;
        y += d.1;
    }
    (cells, at)
}

fn black(l: &[Cell], i: isize) -> bool {
    i >= 0 && (i as usize) < l.len() && l[i as usize] == Cell::Black
}

/// Exactly five black stones in a row containing `at`.
fn has_five(l: &[Cell], at: usize) -> bool {
    (at.saturating_sub(4)..=at).any(|s| {
        s + 5 <= l.len()
            && (s..s + 5).all(|i| l[i] == Cell::Black)
            && !black(l, s as isize - 1)
            && !black(l, s as isize + 5)
    })
}

/// Six or more black stones in a row containing `at`.
fn has_overline(l: &[Cell], at: usize) -> bool {
    (at.saturating_sub(5)..=at).any(|s| s + 6 <= l.len() && (s..s + 6).all(|i| l[i] == Cell::Black))
}

/// The fours through `at`: five-cell windows with four black stones (one of them `at`)
/// and one empty cell whose filling makes an exact five; a four is its set of stones.
fn fours(l: &[Cell], at: usize) -> usize {
    let mut sets: Vec<Vec<usize>> = Vec::new();
    for s in at.saturating_sub(4)..=at {
        if s + 5 > l.len() {
            continue;
        }
        let stones: Vec<usize> = (s..s + 5).filter(|&i| l[i] == Cell::Black).collect();
        let empty: Vec<usize> = (s..s + 5).filter(|&i| l[i] == Cell::Empty).collect();
        if stones.len() == 4
            && empty.len() == 1
            && !black(l, s as isize - 1)
            && !black(l, s as isize + 5)
            && !sets.contains(&stones)
        {
            sets.push(stones);
        }
    }
    sets.len()
}

/// Whether `l` has a straight four through `at`: `_XXXX_` whose two completions are fives.
fn has_straight_four(l: &[Cell], at: usize) -> bool {
    (at.saturating_sub(4)..=at).any(|s| {
        s + 6 <= l.len()
            && l[s] == Cell::Empty
            && l[s + 5] == Cell::Empty
            && (s + 1..s + 5).all(|i| l[i] == Cell::Black)
            && (s + 1..s + 5).contains(&at)
            && !black(l, s as isize - 1)
            && !black(l, s as isize + 6)
    })
}

fn lines(b: &Board, p: Pos) -> Vec<(Vec<Cell>, usize, (i32, i32))> {
    DIRECTIONS
        .iter()
        .map(|&d| {
            let (l, at) = line(b, p, d);
            (l, at, d)
        })
        .collect()
}

/// The plain definition, Black's stone not yet on `b`.
fn plain_kind(b: &mut Board, p: Pos) -> Option<ForbiddenKind> {
    b.set(p, Cell::Black);
    let result = plain_placed(b, p);
    b.set(p, Cell::Empty);
    result
}

fn plain_placed(b: &mut Board, p: Pos) -> Option<ForbiddenKind> {
    let ls = lines(b, p);
    if ls.iter().any(|(l, at, _)| has_five(l, *at)) {
        return None;
    }
    if ls.iter().map(|(l, at, _)| fours(l, *at)).sum::<usize>() >= 2 {
        return Some(ForbiddenKind::DoubleFour);
    }
    if ls.iter().any(|(l, at, _)| has_overline(l, *at)) {
        return Some(ForbiddenKind::Overline);
    }
    let mut threes = 0;
    for (l, at, d) in ls {
        // A three: some empty square of this line makes a straight four through p, makes no
        // five anywhere, and is not forbidden itself.
        let real = (0..l.len()).any(|q| {
            if l[q] != Cell::Empty || q.abs_diff(at) > 4 {
                return false;
            }
            let mut l2 = l.clone();
            l2[q] = Cell::Black;
            if !has_straight_four(&l2, at) || !has_straight_four(&l2, q) {
                return false;
            }
            let offset = q as i32 - at as i32;
            let qp = Pos::new_unchecked(
                (i32::from(p.x) + d.0 * offset) as u8,
                (i32::from(p.y) + d.1 * offset) as u8,
            );
            b.set(qp, Cell::Black);
            let five = lines(b, qp).iter().any(|(l, at, _)| has_five(l, *at));
            b.set(qp, Cell::Empty);
            !five && plain_kind(b, qp).is_none()
        });
        if real {
            threes += 1;
        }
    }
    (threes >= 2).then_some(ForbiddenKind::DoubleThree)
}

fn plain_points(board: &Board) -> Vec<(Pos, ForbiddenKind)> {
    let mut b = board.clone();
    board
        .empty_points()
        .filter_map(|p| plain_kind(&mut b, p).map(|k| (p, k)))
        .collect::<Vec<_>>()
}

#[test]
fn fast_path_agrees_with_the_definitions() {
    const POSITIONS: u64 = 3000;
    let (mut compared_points, mut forbidden_seen) = (0usize, 0usize);
    let mut kinds = [0usize; 3];
    for seed in 0..POSITIONS {
        let size = Size::square(if seed % 5 == 0 { 13 } else { 15 }).unwrap();
        let stones = 10 + (seed as usize * 7) % 71; // 10..=80 stones
        let board = clustered_position(size, stones, seed);
        let fast = forbidden::forbidden_points(&board);
        let plain = plain_points(&board);
        assert!(
            fast == plain,
            "seed {seed}: fast and plain differ\nfast:\n{}\nplain:\n{}",
            show_forbidden(&board, &fast),
            show_forbidden(&board, &plain)
        );
        compared_points += board.empty_points().count();
        forbidden_seen += fast.len();
        for (_, k) in &fast {
            kinds[*k as usize] += 1;
        }
    }
    println!(
        "compared {POSITIONS} positions, {compared_points} empty points, {forbidden_seen} forbidden \
         (33: {}, 44: {}, 6: {})",
        kinds[0], kinds[1], kinds[2]
    );
    // The positions must exercise every kind, or the comparison proves little.
    assert!(
        kinds.iter().all(|&n| n > 20),
        "too few forbidden points of some kind: {kinds:?}"
    );
}
