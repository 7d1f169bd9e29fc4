//! The puzzle file: one puzzle a line, as JSON (what `wuzi puzzles mine` writes and the
//! server loads).
//!
//! ```text
//! {"id":"5f0c…","rule":"renju","size":15,"to_move":"white",
//!  "black":["h8","h9",…],"white":["i9",…],"theme":"vcf","length":4,"rating":1370,
//!  "solution":{"moves":["j10"],"replies":[{"move":"k11","next":{"moves":["g6"]}}]},
//!  "source":"selfplay r2.txt game 12 ply 31","nodes":18204,"refuted":23}
//! ```
//!
//! - `id`: 16 hex digits, the same for the position in any of the 8 symmetries (the
//!   least Zobrist hash of the eight boards, mixed with the rule and the side to move).
//! - `black`, `white`: the stones, in renju notation; `to_move`: the solving side.
//! - `solution`: the tree of [`Step`]s: `moves` accepted at the step (the first is the
//!   solver's), `replies` the defender's best replies each with the `next` step,
//!   `forbidden` the block forbidden to Black that ends a renju trap.
//! - `length`: solver turns on the longest line; `rating`: the starting difficulty
//!   (Glicko scale, see [`initial_rating`]); `nodes`, `refuted`: the proof's cost.

use serde_json::{Value, json};
use wuzi_rules::symmetry::Symmetry;
use wuzi_rules::{Board, Cell, Color, GameConfig, Pos, Rule, Size, zobrist};

use super::{Puzzle, Reply, Step, Theme};
use crate::Position;

/// One puzzle as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleRecord {
    /// Symmetry-independent id (16 hex digits).
    pub id: String,
    /// The rule.
    pub rule: Rule,
    /// The board size (square).
    pub size: Size,
    /// The side that solves it.
    pub to_move: Color,
    /// Black's stones.
    pub black: Vec<Pos>,
    /// White's stones.
    pub white: Vec<Pos>,
    /// What it asks for.
    pub theme: Theme,
    /// The solution tree.
    pub solution: Step,
    /// Starting difficulty.
    pub rating: i32,
    /// Where the position comes from.
    pub source: String,
    /// Solver nodes of the proof.
    pub nodes: u64,
    /// Alternatives proven wrong.
    pub refuted: u64,
}

/// The starting difficulty of a puzzle, on the rating scale players have (1500 is an
/// average player's): by theme, longer solutions and costlier proofs are harder.
#[must_use]
pub fn initial_rating(theme: Theme, solution: &Step, nodes: u64) -> i32 {
    let base = match theme {
        Theme::Vcf => 1100,
        Theme::Forbidden => 1300,
        Theme::Defence => 1300,
        Theme::Vct => 1400,
    };
    let length = i32::try_from(solution.length()).unwrap_or(50);
    let branches = i32::try_from(solution.size()).unwrap_or(50) - length;
    #[allow(clippy::cast_possible_truncation)]
    let effort = ((nodes as f64 / 1000.0) + 1.0).log2().round() as i32;
    (base + 80 * (length - 2).max(0) + 30 * branches + 25 * effort).clamp(800, 2600)
}

/// The id of a position (see the module's documentation).
#[must_use]
pub fn puzzle_id(rule: Rule, board: &Board, to_move: Color) -> String {
    let least = Symmetry::ALL
        .iter()
        .map(|s| zobrist::hash_board(&s.board(board)))
        .min()
        .unwrap_or(0);
    let salt = (rule as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ if to_move == Color::White {
            0x5bd1_e995
        } else {
            0
        };
    format!("{:016x}", least ^ salt)
}

impl PuzzleRecord {
    /// The record of `puzzle`, found in `pos`, from `source`.
    #[must_use]
    pub fn new(pos: &Position, puzzle: &Puzzle, source: String) -> PuzzleRecord {
        let board = pos.board();
        let mut black = Vec::new();
        let mut white = Vec::new();
        for p in pos.size().points() {
            match board.get(p) {
                Cell::Black => black.push(p),
                Cell::White => white.push(p),
                _ => {}
            }
        }
        PuzzleRecord {
            id: puzzle_id(pos.rule(), board, pos.to_move()),
            rule: pos.rule(),
            size: pos.size(),
            to_move: pos.to_move(),
            black,
            white,
            theme: puzzle.theme,
            rating: initial_rating(puzzle.theme, &puzzle.solution, puzzle.nodes),
            solution: puzzle.solution.clone(),
            source,
            nodes: puzzle.nodes,
            refuted: puzzle.refuted,
        }
    }

    /// The puzzle's position.
    #[must_use]
    pub fn position(&self) -> Position {
        let mut board = Board::new(self.size);
        for &p in &self.black {
            board.set(p, Cell::Black);
        }
        for &p in &self.white {
            board.set(p, Cell::White);
        }
        Position::from_board(&GameConfig::new(self.rule, self.size), &board, self.to_move)
    }

    /// The record as JSON.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let names = |v: &[Pos]| -> Vec<String> { v.iter().map(|&p| self.name(p)).collect() };
        json!({
            "id": self.id,
            "rule": self.rule.to_string(),
            "size": self.size.width(),
            "to_move": self.to_move.to_string(),
            "black": names(&self.black),
            "white": names(&self.white),
            "theme": self.theme.name(),
            "length": self.solution.length(),
            "rating": self.rating,
            "solution": self.step_json(&self.solution),
            "source": self.source,
            "nodes": self.nodes,
            "refuted": self.refuted,
        })
    }

    /// The solution tree as JSON (also what the page gets).
    #[must_use]
    pub fn step_json(&self, step: &Step) -> Value {
        let mut v = json!({
            "moves": step.moves.iter().map(|&p| self.name(p)).collect::<Vec<_>>(),
        });
        if !step.replies.is_empty() {
            v["replies"] = step
                .replies
                .iter()
                .map(|r| json!({"move": self.name(r.mv), "next": self.step_json(&r.next)}))
                .collect();
        }
        if let Some(b) = step.forbidden_block {
            v["forbidden"] = json!(self.name(b));
        }
        v
    }

    fn name(&self, p: Pos) -> String {
        self.size.notation(p).to_string()
    }

    /// Reads one line of a puzzle file.
    ///
    /// # Errors
    /// What is wrong with it (bad JSON, a missing or bad field, a point off the board,
    /// two stones on a point, an id that does not match the position).
    pub fn parse(line: &str) -> Result<PuzzleRecord, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        let text = |k: &str| -> Result<&str, String> {
            v[k].as_str()
                .ok_or_else(|| format!("`{k}` missing or not text"))
        };
        let int = |k: &str| -> Result<u64, String> {
            v[k].as_u64()
                .ok_or_else(|| format!("`{k}` missing or not a whole number"))
        };
        let rule: Rule = text("rule")?.parse().map_err(|e| format!("rule: {e}"))?;
        let side = u8::try_from(int("size")?).map_err(|_| "size too big".to_string())?;
        let size = Size::square(side).map_err(|e| format!("size: {e}"))?;
        let to_move: Color = text("to_move")?
            .parse()
            .map_err(|e| format!("to_move: {e}"))?;
        let points = |k: &str| -> Result<Vec<Pos>, String> {
            v[k].as_array()
                .ok_or_else(|| format!("`{k}` missing or not a list"))?
                .iter()
                .map(|p| {
                    let s = p.as_str().ok_or_else(|| format!("`{k}`: not text"))?;
                    size.parse_pos(s).map_err(|e| format!("`{k}`: {s}: {e}"))
                })
                .collect()
        };
        let black = points("black")?;
        let white = points("white")?;
        let mut seen = std::collections::HashSet::new();
        for p in black.iter().chain(&white) {
            if !seen.insert(*p) {
                return Err(format!("two stones on {}", size.notation(*p)));
            }
        }
        let theme: Theme = text("theme")?.parse()?;
        let solution = parse_step(&v["solution"], size, 0)?;
        let rating = i32::try_from(v["rating"].as_i64().ok_or("`rating` missing")?)
            .map_err(|_| "rating out of range".to_string())?;
        let record = PuzzleRecord {
            id: text("id")?.to_string(),
            rule,
            size,
            to_move,
            black,
            white,
            theme,
            solution,
            rating,
            source: v["source"].as_str().unwrap_or("").to_string(),
            nodes: v["nodes"].as_u64().unwrap_or(0),
            refuted: v["refuted"].as_u64().unwrap_or(0),
        };
        let pos = record.position();
        let id = puzzle_id(rule, pos.board(), to_move);
        if id != record.id {
            return Err(format!(
                "id {} does not match the position ({id})",
                record.id
            ));
        }
        Ok(record)
    }
}

fn parse_step(v: &Value, size: Size, depth: usize) -> Result<Step, String> {
    if depth > 200 {
        return Err("solution tree too deep".into());
    }
    let point = |v: &Value| -> Result<Pos, String> {
        let s = v.as_str().ok_or("a move that is not text")?;
        size.parse_pos(s).map_err(|e| format!("{s}: {e}"))
    };
    let moves = v["moves"]
        .as_array()
        .ok_or("a step without `moves`")?
        .iter()
        .map(point)
        .collect::<Result<Vec<_>, _>>()?;
    if moves.is_empty() {
        return Err("a step with no move".into());
    }
    let replies = match v.get("replies") {
        None => Vec::new(),
        Some(r) => r
            .as_array()
            .ok_or("`replies` not a list")?
            .iter()
            .map(|r| {
                Ok(Reply {
                    mv: point(&r["move"])?,
                    next: parse_step(&r["next"], size, depth + 1)?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?,
    };
    let forbidden_block = v.get("forbidden").map(point).transpose()?;
    Ok(Step {
        moves,
        replies,
        forbidden_block,
    })
}
