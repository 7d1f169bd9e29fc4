//! Opening files: one opening a line, Gomocup offsets `dx,dy, dx,dy, …` from the centre
//! (`size/2`), Black first, y down; or a move list in renju notation (`f7,f6,h6` or
//! `h8 i9 j10`). Blank lines and lines starting with `#` are skipped.

use wuzi_rules::{Game, GameConfig, Pos, Size, notation};

/// The built-in set: Piskvork's automatic openings (22 of three stones, 19 of five).
pub const BUILT_IN: &str = include_str!("../../../../../testdata/openings/piskvork_openings.txt");

/// Openings read from a file.
#[derive(Debug)]
pub struct Openings {
    /// The playable openings, in file order.
    pub list: Vec<Vec<Pos>>,
    /// Lines skipped because the opening does not fit this board (e.g. corner openings
    /// for 20×20 on 15×15), with the reason.
    pub skipped: Vec<String>,
}

/// Reads openings for a board. Lines that cannot be read are errors naming the line;
/// openings that do not fit the board or the rule are skipped and listed.
pub fn parse(text: &str, config: &GameConfig) -> Result<Openings, String> {
    let size = config.size;
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let moves = if line.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
            match offsets(line, size).map_err(|e| format!("opening line {}: {e}", i + 1))? {
                Ok(m) => m,
                Err(why) => {
                    skipped.push(format!("line {}: {why}", i + 1));
                    continue;
                }
            }
        } else {
            notation::parse_moves(line, size).map_err(|e| format!("opening line {}: {e}", i + 1))?
        };
        // Every opening must be playable and leave the game open.
        match Game::from_moves(config.clone(), &moves) {
            Ok(game) if !game.is_over() => out.push(moves),
            Ok(_) => skipped.push(format!("line {}: the game is already over", i + 1)),
            Err(e) => skipped.push(format!("line {}: {e}", i + 1)),
        }
    }
    if out.is_empty() {
        return Err(format!("no playable openings ({} skipped)", skipped.len()));
    }
    Ok(Openings { list: out, skipped })
}

/// Offsets to points: `Err` if the line cannot be read, `Ok(Err)` if it does not fit.
fn offsets(line: &str, size: Size) -> Result<Result<Vec<Pos>, String>, String> {
    let nums: Result<Vec<i32>, _> = line
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::parse::<i32>)
        .collect();
    let nums = nums.map_err(|_| format!("cannot read offsets {line:?}"))?;
    if nums.len() % 2 != 0 {
        return Err(format!("odd number of offsets in {line:?}"));
    }
    let c = size.center();
    Ok(nums
        .chunks(2)
        .map(|d| {
            c.offset(d[0], d[1], size)
                .ok_or_else(|| format!("offset {},{} is off the {size} board", d[0], d[1]))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_rules::Rule;

    #[test]
    fn built_in_openings_are_playable_on_15_and_20() {
        for size in [15, 20] {
            for rule in [Rule::Freestyle, Rule::Renju] {
                let config = GameConfig::new(rule, Size::square(size).unwrap());
                let o = parse(BUILT_IN, &config).unwrap();
                assert_eq!(o.list.len() + o.skipped.len(), 41);
                // A corner opening is made for 20x20.
                assert_eq!(
                    o.skipped.len(),
                    if size == 15 { 1 } else { 0 },
                    "{:?}",
                    o.skipped
                );
                assert_eq!(o.list[0][0], config.size.center());
            }
        }
    }

    #[test]
    fn offsets_and_notation() {
        let config = GameConfig::new(Rule::Freestyle, Size::STANDARD);
        let o = parse("0,0, 1,0, 1,3\n\n# c\nh8 i9 j10\n", &config)
            .unwrap()
            .list;
        assert_eq!(
            o[0],
            vec![
                Pos::new_unchecked(7, 7),
                Pos::new_unchecked(8, 7),
                Pos::new_unchecked(8, 10)
            ]
        );
        assert_eq!(o[1].len(), 3);
        assert!(parse("0,0, 1", &config).unwrap_err().contains("line 1"));
        let o = parse("0,0, 9,9\n0,0, 0,0\n0,0", &config).unwrap();
        assert_eq!(o.list.len(), 1);
        assert!(o.skipped[0].contains("off the"), "{:?}", o.skipped);
        assert!(o.skipped[1].contains("occupied"), "{:?}", o.skipped);
        assert!(parse("h8 zz", &config).unwrap_err().contains("line 1"));
        assert!(parse("", &config).is_err());
    }
}
