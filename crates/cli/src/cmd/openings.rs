//! `wuzi openings`: draws balanced five-stone openings for `wuzi match --openings` (or any
//! referee that reads Gomocup offset files), reproducibly from a seed.

use std::collections::HashSet;

use wuzi_rules::random::SplitMix64;

use super::{CliError, positive};

const EXAMPLES: &str = "\
Examples:
  wuzi openings --count 200 --seed 55 > open55.txt
  wuzi match full ./pbrain-rapfi --openings open55.txt --games 400 --nodes-a 120000 --nodes-b 80000 --time-per-move 5000 --out base
  WUZI_TUNE=rfp_depth=8 wuzi match full ./pbrain-rapfi --openings open55.txt --games 400 --nodes-a 120000 --nodes-b 80000 --time-per-move 5000 --paired-with base

Each opening is one of the 26 canonical three-stone openings (13 direct, 13 indirect) turned
by one of the board's 8 symmetries, then a White and a Black stone on random points within
three of the centre, kept only when neither colour has three stones within five points of
one line (no ready-made three), and only once. One opening a line, Gomocup offsets
`dx,dy, dx,dy, …` from the centre, Black first, y down; White is to move. The same seed and
count print the same openings on every machine.";

/// Print balanced five-stone openings (offsets from the centre), reproducibly from a seed.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// How many openings, 1 to 10000.
    #[arg(long, short, default_value_t = 100, value_parser = count)]
    count: usize,
    /// The seed: any whole number from 0 to 2^64 - 1.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The most openings one call draws (far fewer than there are).
pub const MAX_COUNT: usize = 10_000;

/// Points of the two added stones lie within this many points of the centre, on each axis.
pub const RADIUS: i32 = 3;

/// The 26 canonical three-stone openings, centre offsets, Black first, y down.
const CANONICAL: &str = include_str!("../../../../testdata/openings/canonical3_15_offset.txt");

/// A point as an offset from the centre (y down).
type Offset = (i32, i32);

fn count(s: &str) -> Result<usize, String> {
    let n: usize = positive(s)?;
    if n > MAX_COUNT {
        return Err(format!("at most {MAX_COUNT}"));
    }
    Ok(n)
}

/// Prints the openings.
pub fn run(args: Args) -> Result<(), CliError> {
    for opening in five_stone(args.seed, args.count) {
        say!("{}", line(&opening));
    }
    Ok(())
}

/// An opening as a line of the offsets file: `dx,dy, dx,dy, …`.
fn line(stones: &[Offset]) -> String {
    let text: Vec<String> = stones.iter().map(|(x, y)| format!("{x},{y}")).collect();
    text.join(", ")
}

/// The canonical openings' three stones each.
fn canonical() -> Vec<[Offset; 3]> {
    CANONICAL
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<i32> = l
                .split(',')
                .map(|t| t.trim().parse().expect("the canonical openings file reads"))
                .collect();
            [(v[0], v[1]), (v[2], v[3]), (v[4], v[5])]
        })
        .collect()
}

/// `p` under symmetry `t` (0..8) of the square around the centre.
fn turn((x, y): Offset, t: usize) -> Offset {
    let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
    let x = if t & 1 != 0 { -x } else { x };
    let y = if t & 2 != 0 { -y } else { y };
    (x, y)
}

/// Whether three of `stones` lie within five points of one line.
fn ready_three(stones: &[Offset]) -> bool {
    const DIRS: [Offset; 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    stones.iter().any(|&(x, y)| {
        DIRS.iter().any(|&(dx, dy)| {
            // The windows of five that start at this stone (each window is seen from its
            // first stone, so starting here is enough).
            (0..5)
                .filter(|i| stones.contains(&(x + i * dx, y + i * dy)))
                .count()
                >= 3
        })
    })
}

/// `count` distinct balanced five-stone openings from `seed` (see the command's help).
///
/// # Panics
/// If `count` is above [`MAX_COUNT`].
#[must_use]
pub fn five_stone(seed: u64, count: usize) -> Vec<[Offset; 5]> {
    assert!(count <= MAX_COUNT, "at most {MAX_COUNT} openings");
    let base = canonical();
    let area: Vec<Offset> = (-RADIUS..=RADIUS)
        .flat_map(|x| (-RADIUS..=RADIUS).map(move |y| (x, y)))
        .collect();
    let mut rng = SplitMix64::new(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let t = rng.below(8);
        let three = base[rng.below(base.len())].map(|p| turn(p, t));
        let free: Vec<Offset> = area
            .iter()
            .copied()
            .filter(|p| !three.contains(p))
            .collect();
        let white = free[rng.below(free.len())];
        let black = free[rng.below(free.len())];
        if white == black {
            continue;
        }
        let stones = [three[0], three[1], three[2], white, black];
        // White's two stones cannot make a three; Black's three can.
        if ready_three(&[stones[0], stones[2], stones[4]]) {
            continue;
        }
        if seen.insert(stones) {
            out.push(stones);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use wuzi_rules::{GameConfig, Rule, Size};

    use super::super::match_::openings::parse;
    use super::*;

    #[test]
    fn the_canonical_set_is_26_distinct_openings_with_black_in_the_centre() {
        let base = canonical();
        assert_eq!(base.len(), 26);
        let mut classes = HashSet::new();
        for op in &base {
            assert_eq!(op[0], (0, 0));
            // Direct (White orthogonally next to Black) or indirect (diagonally).
            let (wx, wy) = op[1];
            assert_eq!(wx.abs().max(wy.abs()), 1);
            // No two of the 26 are the same opening under a symmetry.
            let class = (0..8)
                .map(|t| op.map(|p| turn(p, t)))
                .min()
                .expect("eight turns");
            assert!(classes.insert(class), "{op:?} repeats an opening");
        }
    }

    #[test]
    fn the_eight_turns_are_the_symmetries_of_the_square() {
        let p = (1, 2);
        let images: HashSet<Offset> = (0..8).map(|t| turn(p, t)).collect();
        assert_eq!(images.len(), 8);
        for t in 0..8 {
            let (x, y) = turn(p, t);
            assert_eq!(x * x + y * y, 5);
        }
    }

    #[test]
    fn a_ready_three_is_three_stones_within_five_points_of_a_line() {
        assert!(ready_three(&[(0, 0), (1, 0), (4, 0)]));
        assert!(ready_three(&[(0, 0), (2, 2), (-2, -2)]));
        assert!(ready_three(&[(0, 0), (1, -1), (3, -3)]));
        assert!(!ready_three(&[(0, 0), (1, 0), (5, 0)]));
        assert!(!ready_three(&[(0, 0), (1, 0), (2, 1)]));
        assert!(!ready_three(&[(0, 0), (0, 1)]));
    }

    #[test]
    fn openings_are_balanced_distinct_and_fixed_by_the_seed() {
        let base = canonical();
        let list = five_stone(55, 300);
        assert_eq!(list.len(), 300);
        assert_eq!(list.iter().collect::<HashSet<_>>().len(), 300);
        assert_eq!(list, five_stone(55, 300));
        assert_eq!(five_stone(55, 20)[..], list[..20]);
        assert_ne!(five_stone(56, 20)[..], list[..20]);
        for op in &list {
            let three = [op[0], op[1], op[2]];
            assert!(
                (0..8).any(|t| base.iter().any(|b| b.map(|p| turn(p, t)) == three)),
                "{op:?} does not start with a canonical opening"
            );
            assert!(
                op.iter()
                    .all(|&(x, y)| x.abs() <= RADIUS && y.abs() <= RADIUS)
            );
            assert_eq!(op.iter().collect::<HashSet<_>>().len(), 5, "{op:?}");
            assert!(!ready_three(&[op[0], op[2], op[4]]), "{op:?}");
        }
        // `wuzi match` plays every one of them, under every rule, on 15x15 and 20x20.
        let text: Vec<String> = list.iter().map(|op| line(op)).collect();
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for size in [Size::STANDARD, Size::square(20).expect("20 is a size")] {
                let config = GameConfig::new(rule, size);
                let parsed = parse(&text.join("\n"), &config).expect("the openings read");
                assert_eq!(
                    parsed.list.len(),
                    300,
                    "{rule:?} {size:?}: {:?}",
                    parsed.skipped
                );
                assert!(parsed.list.iter().all(|stones| stones.len() == 5));
            }
        }
        // The draw uses every opening and every turn, not a few of them.
        let firsts: HashSet<_> = list.iter().map(|op| [op[0], op[1], op[2]]).collect();
        assert!(firsts.len() > 100, "{} distinct starts", firsts.len());
    }
}
