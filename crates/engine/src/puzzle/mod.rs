//! Puzzles: positions where the side to move has a forced win, or a single saving
//! defence, proven by the threat solver ([`crate::threat`]), with the whole solution
//! tree for the defender's best replies.
//!
//! What "proven" and "unique" mean here, theme by theme:
//!
//! - **VCF** (and **forbidden**, a renju VCF of White's that ends on a four whose only
//!   block is forbidden to Black): the solver finds a win by continuous fours, and at
//!   every step of the solution every *other* four of the attacker was searched
//!   exhaustively and does not win by continuous fours (no search was cut short by its
//!   budget). At the last step every five point is accepted.
//! - **VCT**: no VCF exists; the solver finds a win by fours and open threes within
//!   [`MineLimits::vct_depth`] attacker moves, and every other four or three at the
//!   first step has a defence after which the attacker has no such win (proven, not cut
//!   short). Later steps are unique among the moves that win within the depth the
//!   proof needed.
//! - **Defence**: the side to move has no VCF or VCT, the opponent would win by VCF if
//!   it passed, exactly one move stops every VCF (all the others lose to one the solver
//!   finds; a four of the defender only postpones it unless a saving move follows), and
//!   after that move the opponent has no VCT within [`MineLimits::vct_depth`] either.
//!
//! Wins by quiet moves (neither four nor three) are outside what the solver proves:
//! a VCF puzzle asks for a win by fours, a VCT puzzle for a win by threats.

pub mod record;

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use wuzi_rules::{Pos, Variant};

use crate::Position;
use crate::board::{Board, Idx, pos_of};
use crate::eval::pattern::Pattern;
use crate::movegen;
use crate::threat::{Solver, VCF_DEFAULT_DEPTH};

/// What a puzzle asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// Win by continuous fours.
    Vcf,
    /// Win by continuous threats (fours and open threes).
    Vct,
    /// Renju: White wins by fours, the last one's block being forbidden to Black.
    Forbidden,
    /// Find the only move that stops the opponent's VCF.
    Defence,
}

impl Theme {
    /// Every theme.
    pub const ALL: [Theme; 4] = [Theme::Vcf, Theme::Vct, Theme::Forbidden, Theme::Defence];

    /// The theme's name in records and the API (`vcf`, `vct`, `forbidden`, `defence`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Theme::Vcf => "vcf",
            Theme::Vct => "vct",
            Theme::Forbidden => "forbidden",
            Theme::Defence => "defence",
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Theme {
    type Err = String;
    fn from_str(s: &str) -> Result<Theme, String> {
        Theme::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| format!("unknown puzzle theme {s:?} (vcf, vct, forbidden, defence)"))
    }
}

/// One turn of the side solving the puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The moves accepted here: the one move that wins (or saves), or at the last step
    /// every point that makes five. The first is the solver's.
    pub moves: Vec<Pos>,
    /// The defender's best replies to the first move (those the win takes longest to
    /// beat), each with the solver's next step. Empty when the move wins at once, when
    /// it leaves a four whose block is forbidden, or in a defence puzzle.
    pub replies: Vec<Reply>,
    /// Renju: the point where Black would have to block, forbidden to Black.
    pub forbidden_block: Option<Pos>,
}

/// A reply of the defender and the solver's step after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The defender's move.
    pub mv: Pos,
    /// The solver's next step.
    pub next: Step,
}

impl Step {
    /// The number of the solver's turns on the longest line.
    #[must_use]
    pub fn length(&self) -> u32 {
        1 + self
            .replies
            .iter()
            .map(|r| r.next.length())
            .max()
            .unwrap_or(0)
    }

    /// The number of steps in the tree.
    #[must_use]
    pub fn size(&self) -> usize {
        1 + self.replies.iter().map(|r| r.next.size()).sum::<usize>()
    }

    /// The main line: the first move of each step and the first reply to it.
    #[must_use]
    pub fn main_line(&self) -> Vec<Pos> {
        let mut line = vec![self.moves[0]];
        if let Some(r) = self.replies.first() {
            line.push(r.mv);
            line.extend(r.next.main_line());
        } else if let Some(b) = self.forbidden_block {
            line.push(b);
        }
        line
    }

    /// Whether the tree ends anywhere on a block forbidden to Black.
    fn ends_on_forbidden(&self) -> bool {
        self.forbidden_block.is_some() || self.replies.iter().any(|r| r.next.ends_on_forbidden())
    }

    /// The same tree with moves and replies in a canonical order (for comparing trees).
    #[must_use]
    pub fn canonical(&self) -> Step {
        let mut moves = self.moves.clone();
        moves[1..].sort_unstable();
        let mut replies: Vec<Reply> = self
            .replies
            .iter()
            .map(|r| Reply {
                mv: r.mv,
                next: r.next.canonical(),
            })
            .collect();
        replies.sort_by_key(|r| r.mv);
        Step {
            moves,
            replies,
            forbidden_block: self.forbidden_block,
        }
    }
}

/// A puzzle found in a position, with its proof's cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// What it asks for.
    pub theme: Theme,
    /// The solution tree.
    pub solution: Step,
    /// Solver nodes spent finding and proving it.
    pub nodes: u64,
    /// Alternative moves proven not to win (or not to save), over the whole tree.
    pub refuted: u64,
}

/// Why a position holds no puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejected {
    /// No forced win (nor a single saving defence) was found.
    NoWin,
    /// The win or the defence is there at once (a five, a forced block).
    Trivial,
    /// Shorter than [`MineLimits::min_length`].
    TooShort,
    /// More than one move wins (or saves) at some step.
    NotUnique,
    /// A search was cut short by the budget: nothing is proven.
    Unproven,
    /// The solution tree has more steps than [`MineLimits::max_steps`].
    TooBig,
    /// Only the plain game with five in a row is mined (no walls, bubbles or other k).
    Unsupported,
}

impl fmt::Display for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rejected::NoWin => "no forced win",
            Rejected::Trivial => "trivial",
            Rejected::TooShort => "too short",
            Rejected::NotUnique => "not unique",
            Rejected::Unproven => "not proven within the budget",
            Rejected::TooBig => "solution tree too big",
            Rejected::Unsupported => "variant not supported",
        })
    }
}

/// Bounds of the search for a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MineLimits {
    /// Solver nodes for one position, over every proof.
    pub nodes: u64,
    /// Deepest VCT sought (attacker moves); 0 = VCF only.
    pub vct_depth: u32,
    /// Fewest solver turns on the main line (the five included).
    pub min_length: u32,
    /// Most steps in the solution tree.
    pub max_steps: usize,
    /// Whether to look for defence puzzles as well.
    pub defence: bool,
}

impl Default for MineLimits {
    fn default() -> Self {
        MineLimits {
            nodes: 3_000_000,
            vct_depth: 4,
            min_length: 3,
            max_steps: 40,
            defence: true,
        }
    }
}

/// Fours only, or fours and threes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Fours,
    Threats,
}

/// The attacker's choices in a position.
enum Choices {
    /// These points make five now.
    Five(Vec<Idx>),
    /// The opponent wins whatever the attacker does (two five points, or its one five
    /// point forbidden to the attacker).
    Lost,
    /// The moves to examine (the one block when the opponent threatens five).
    Moves(Vec<Idx>),
}

/// The defender's situation after an attacker move.
enum Defence {
    /// The defender makes five, or has nothing to answer: the move does not win.
    Escapes,
    /// Two five points: one is blocked, the other wins.
    OpenFour(Vec<Idx>),
    /// The only block is forbidden to Black.
    ForbiddenBlock(Idx),
    /// These defences (each must be beaten).
    Answers(Vec<Idx>),
}

struct Miner<'a> {
    solver: Solver<'a>,
    class: Class,
    limits: MineLimits,
    steps: usize,
    refuted: u64,
}

impl Miner<'_> {
    fn check(&self) -> Result<(), Rejected> {
        if self.solver.aborted() {
            Err(Rejected::Unproven)
        } else {
            Ok(())
        }
    }

    /// Whether the side to move wins within `depth` attacker moves (of its class).
    fn wins(&mut self, b: &mut Board, class: Class, depth: u32) -> Result<bool, Rejected> {
        let mut line = Vec::new();
        let won = match class {
            Class::Fours => self.solver.vcf(b, depth, &mut line),
            Class::Threats => self.solver.vct(b, depth, &mut line),
        };
        self.check()?;
        Ok(won)
    }

    fn choices(&self, b: &mut Board) -> Choices {
        let me = b.to_move();
        let opp = me.opponent();
        let mut fives = Vec::new();
        b.win_points(me, &mut fives);
        fives.retain(|&w| b.wins_at(w, me) && b.is_legal(w));
        if !fives.is_empty() {
            return Choices::Five(fives);
        }
        let mut theirs = Vec::new();
        b.win_points(opp, &mut theirs);
        match theirs.len() {
            0 => {}
            1 if b.is_legal(theirs[0]) => return Choices::Moves(theirs),
            _ => return Choices::Lost,
        }
        let mut moves = Vec::new();
        for k in 0..b.points().len() {
            let i = b.points()[k];
            if !b.is_empty(i) {
                continue;
            }
            let makes = (0..4).any(|d| {
                let p = b.pattern(i, me, d);
                match self.class {
                    Class::Fours => p.is_four_or_better(),
                    Class::Threats => p >= Pattern::Flex3,
                }
            });
            if makes && b.is_legal(i) {
                moves.push(i);
            }
        }
        Choices::Moves(moves)
    }

    /// The defender (to move) against the attacker's last move.
    fn defence(b: &mut Board, class: Class) -> Defence {
        let me = b.to_move();
        let att = me.opponent();
        let mut own = Vec::new();
        b.win_points(me, &mut own);
        if own.iter().any(|&w| b.is_legal(w)) {
            return Defence::Escapes;
        }
        let mut fives = Vec::new();
        b.win_points(att, &mut fives);
        match fives.len() {
            0 => {}
            1 if !b.is_legal(fives[0]) => return Defence::ForbiddenBlock(fives[0]),
            1 => return Defence::Answers(fives),
            _ => return Defence::OpenFour(fives),
        }
        if class == Class::Fours {
            return Defence::Escapes;
        }
        let mut threats = Vec::new();
        movegen::threat_points(b, att, &mut threats);
        if threats.is_empty() {
            return Defence::Escapes;
        }
        let mut answers = Vec::new();
        movegen::defence_points(b, att, &threats, &mut answers);
        movegen::four_points(b, me, &mut answers);
        answers.retain(|&d| b.is_empty(d));
        let mut legal = Vec::with_capacity(answers.len());
        for d in answers {
            if b.is_legal(d) {
                legal.push(d);
            }
        }
        legal.sort_unstable();
        Defence::Answers(legal)
    }

    /// Whether the attacker's move `m` wins within `depth` attacker moves (itself
    /// included).
    fn move_wins(&mut self, b: &mut Board, m: Idx, depth: u32) -> Result<bool, Rejected> {
        b.play(m);
        let result = self.after_move_wins(b, depth);
        b.undo();
        result
    }

    fn after_move_wins(&mut self, b: &mut Board, depth: u32) -> Result<bool, Rejected> {
        match Self::defence(b, self.class) {
            Defence::Escapes => Ok(false),
            Defence::OpenFour(_) | Defence::ForbiddenBlock(_) => Ok(true),
            Defence::Answers(ds) => {
                if depth <= 1 {
                    return Ok(false);
                }
                for d in ds {
                    b.play(d);
                    let won = self.wins(b, self.class, depth - 1);
                    b.undo();
                    if !won? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    /// The least depth within which the attacker (to move) wins, at most `max`.
    fn need(&mut self, b: &mut Board, max: u32) -> Result<Option<u32>, Rejected> {
        if self.class == Class::Fours {
            return Ok(self.wins(b, Class::Fours, max)?.then_some(max));
        }
        for d in 1..=max {
            if self.wins(b, Class::Threats, d)? {
                return Ok(Some(d));
            }
        }
        Ok(None)
    }

    /// The solution tree from this position (attacker to move, winning within
    /// `depth`): every step's winning move must be unique.
    fn build(&mut self, b: &mut Board, depth: u32) -> Result<Step, Rejected> {
        self.steps += 1;
        if self.steps > self.limits.max_steps {
            return Err(Rejected::TooBig);
        }
        let moves = match self.choices(b) {
            Choices::Five(fives) => {
                return Ok(Step {
                    moves: fives.into_iter().map(pos_of).collect(),
                    replies: Vec::new(),
                    forbidden_block: None,
                });
            }
            Choices::Lost => return Err(Rejected::NoWin),
            Choices::Moves(moves) => moves,
        };
        let mut winners = Vec::new();
        for m in moves {
            if self.move_wins(b, m, depth)? {
                winners.push(m);
                if winners.len() > 1 {
                    return Err(Rejected::NotUnique);
                }
            } else {
                self.refuted += 1;
            }
        }
        let Some(&m) = winners.first() else {
            return Err(Rejected::NoWin);
        };
        b.play(m);
        let step = self.after(b, m, depth);
        b.undo();
        step
    }

    /// The step whose move `m` was just played.
    fn after(&mut self, b: &mut Board, m: Idx, depth: u32) -> Result<Step, Rejected> {
        let mut step = Step {
            moves: vec![pos_of(m)],
            replies: Vec::new(),
            forbidden_block: None,
        };
        let answers = match Self::defence(b, self.class) {
            Defence::Escapes => return Err(Rejected::Unproven),
            Defence::ForbiddenBlock(x) => {
                step.forbidden_block = Some(pos_of(x));
                return Ok(step);
            }
            Defence::OpenFour(fives) => vec![fives[0]],
            Defence::Answers(ds) => ds,
        };
        let mut needs = Vec::with_capacity(answers.len());
        for &d in &answers {
            b.play(d);
            let need = self.need(b, depth.saturating_sub(1).max(1));
            b.undo();
            needs.push(need?.ok_or(Rejected::Unproven)?);
        }
        let longest = needs.iter().copied().max().unwrap_or(1);
        for (&d, &need) in answers.iter().zip(&needs) {
            if need == longest {
                b.play(d);
                let next = self.build(b, need);
                b.undo();
                step.replies.push(Reply {
                    mv: pos_of(d),
                    next: next?,
                });
            }
        }
        Ok(step)
    }

    /// The defence puzzle of this position (side to move defending), if any.
    fn defence_puzzle(&mut self, b: &mut Board) -> Result<Step, Rejected> {
        let mut theirs = Vec::new();
        b.win_points(b.to_move().opponent(), &mut theirs);
        if !theirs.is_empty() {
            return Err(Rejected::Trivial);
        }
        b.pass();
        let threatened = self.wins(b, Class::Fours, VCF_DEFAULT_DEPTH);
        b.pass();
        if !threatened? {
            return Err(Rejected::NoWin);
        }
        let saving = self.saving_moves(b, 2)?;
        let [h] = saving[..] else {
            return Err(if saving.is_empty() {
                Rejected::NoWin
            } else {
                Rejected::NotUnique
            });
        };
        // The defence must hold against threes as well, not only postpone the loss.
        b.play(h);
        let lost = self.wins(b, Class::Threats, self.limits.vct_depth.max(1));
        b.undo();
        if lost? {
            return Err(Rejected::NoWin);
        }
        Ok(Step {
            moves: vec![pos_of(h)],
            replies: Vec::new(),
            forbidden_block: None,
        })
    }

    /// The defender's (side to move's) moves after which the opponent has no VCF; a
    /// four of the defender counts when a saving move follows the forced block
    /// (looked at `fours` fours deep).
    fn saving_moves(&mut self, b: &mut Board, fours: u32) -> Result<Vec<Idx>, Rejected> {
        let me = b.to_move();
        let mut saving = Vec::new();
        for k in 0..b.points().len() {
            let i = b.points()[k];
            if !b.is_empty(i) || !b.is_legal(i) {
                continue;
            }
            let four = (0..4).any(|d| b.pattern(i, me, d).is_four_or_better());
            b.play(i);
            let saves = if four {
                let mut blocks = Vec::new();
                b.win_points(me, &mut blocks);
                match blocks[..] {
                    [x] if fours > 0 && b.is_legal(x) => {
                        b.play(x);
                        let later = self.saving_moves(b, fours - 1);
                        b.undo();
                        later.map(|s| !s.is_empty())
                    }
                    _ => Ok(false),
                }
            } else {
                self.wins(b, Class::Fours, VCF_DEFAULT_DEPTH).map(|w| !w)
            };
            b.undo();
            if saves? {
                saving.push(i);
                if saving.len() > 1 {
                    break;
                }
            } else {
                self.refuted += 1;
            }
        }
        Ok(saving)
    }
}

/// The puzzle in `pos` for the side to move, if there is one within `limits`.
///
/// # Errors
/// Why there is none ([`Rejected`]).
pub fn find(pos: &Position, limits: &MineLimits) -> Result<Puzzle, Rejected> {
    if pos.k() != 5 || *pos.variant() != Variant::Wood {
        return Err(Rejected::Unsupported);
    }
    let stop = AtomicBool::new(false);
    let mut b = Board::new(pos);
    let mut miner = Miner {
        solver: Solver::with_nodes(limits.nodes, &stop),
        class: Class::Fours,
        limits: *limits,
        steps: 0,
        refuted: 0,
    };
    // A five to make or a five to block: the move is forced, no puzzle yet.
    let mut theirs = Vec::new();
    b.win_points(b.to_move().opponent(), &mut theirs);
    match miner.choices(&mut b) {
        Choices::Five(_) | Choices::Lost => return Err(Rejected::Trivial),
        Choices::Moves(_) if !theirs.is_empty() => return Err(Rejected::Trivial),
        Choices::Moves(_) => {}
    }
    let found = if miner.wins(&mut b, Class::Fours, VCF_DEFAULT_DEPTH)? {
        let step = miner.build(&mut b, VCF_DEFAULT_DEPTH)?;
        let theme = if step.ends_on_forbidden() {
            Theme::Forbidden
        } else {
            Theme::Vcf
        };
        (theme, step)
    } else if limits.vct_depth > 0 && miner.wins(&mut b, Class::Threats, limits.vct_depth)? {
        miner.class = Class::Threats;
        (Theme::Vct, miner.build(&mut b, limits.vct_depth)?)
    } else if limits.defence {
        (Theme::Defence, miner.defence_puzzle(&mut b)?)
    } else {
        return Err(Rejected::NoWin);
    };
    let (theme, solution) = found;
    if theme != Theme::Defence && solution.length() < limits.min_length {
        return Err(Rejected::TooShort);
    }
    Ok(Puzzle {
        theme,
        solution,
        nodes: miner.solver.nodes,
        refuted: miner.refuted,
    })
}

/// Checks a stored puzzle: the solver proves the same theme and the same solution tree
/// again (moves and replies compared as sets), with the same uniqueness.
///
/// # Errors
/// What differs, or why the position holds no puzzle now.
pub fn verify(
    pos: &Position,
    theme: Theme,
    solution: &Step,
    limits: &MineLimits,
) -> Result<(), String> {
    let found = find(pos, limits).map_err(|e| format!("no puzzle: {e}"))?;
    if found.theme != theme {
        return Err(format!("theme {} now, stored {theme}", found.theme));
    }
    if found.solution.canonical() != solution.canonical() {
        return Err(format!(
            "solution differs: now {:?}, stored {:?}",
            found.solution.main_line(),
            solution.main_line()
        ));
    }
    Ok(())
}
