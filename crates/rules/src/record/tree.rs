//! A tree of variations: the analysis board's record, SGF with variations, RenLib libraries.
//!
//! A [`GameTree`] has a root (the position before the first move: an empty board, or a
//! set-up position with stones of either colour, as SGF `AB`/`AW`/`PL` give it) and nodes
//! that each hold one move. A node's children are in order; the first is the main line,
//! the others are variations. Nodes are named by [`NodeId`]s, which stay valid until the
//! node is deleted, and can be reached by a path of child indices from the root
//! ([`GameTree::node_at`], [`GameTree::path`]).
//!
//! As with [`Record`], a tree read from a file is not validated: [`GameTree::position`]
//! replays the line to a node under the rules and names the first move that does not fit,
//! and [`GameTree::validate`] does that for every line. [`GameTree::play`] adds only legal
//! moves.
//!
//! ```
//! use wuzi_rules::record::tree::GameTree;
//! use wuzi_rules::{GameConfig, Rule, Size};
//!
//! let size = Size::STANDARD;
//! let mut tree = GameTree::new(GameConfig::new(Rule::Renju, size));
//! let p = |s: &str| size.parse_pos(s).unwrap();
//! let h8 = tree.play(tree.root(), p("h8")).unwrap();
//! let h9 = tree.play(h8, p("h9")).unwrap();
//! let i9 = tree.play(h8, p("i9")).unwrap(); // a variation beside h9
//! assert_eq!(tree.children(h8), &[h9, i9]);
//! tree.make_main_line(i9).unwrap();
//! assert_eq!(tree.children(h8), &[i9, h9]);
//! assert_eq!(tree.path(h9), Some(vec![0, 1]));
//! assert_eq!(tree.position(h9).unwrap().moves().len(), 2);
//! ```

use std::collections::BTreeMap;
use std::fmt;

use super::{Clocks, Dates, Opening, Players, Record, RecordError, illegal_reason, move_name};
use crate::game::SetupError;
use crate::{Board, Cell, Color, Game, GameConfig, GameResult, Move, Pos};

/// A node of a [`GameTree`]. Ids are never reused: one that named a deleted node names
/// nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(u32);

impl NodeId {
    /// The id's number (the root is 0), for a UI that keys nodes by number.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "node {}", self.0)
    }
}

/// Stones on the board before the first move (SGF `AB`/`AW`). Who moves first from there
/// is the configuration's [`GameConfig::first`] (SGF `PL`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Black's stones.
    pub black: Vec<Pos>,
    /// White's stones.
    pub white: Vec<Pos>,
}

impl Setup {
    /// Whether there are no setup stones.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.black.is_empty() && self.white.is_empty()
    }

    /// The stones with their colours, Black's first.
    pub fn stones(&self) -> impl Iterator<Item = (Pos, Color)> + '_ {
        let black = self.black.iter().map(|&p| (p, Color::Black));
        black.chain(self.white.iter().map(|&p| (p, Color::White)))
    }
}

/// What cannot be done to a tree.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    /// The id names no node (it was deleted, or belongs to another tree).
    #[error("there is no {0} in the tree")]
    NoNode(NodeId),
    /// The root holds no move: it cannot be deleted or promoted.
    #[error("the root cannot be deleted or promoted")]
    Root,
    /// The set-up position does not fit the configuration.
    #[error("setup: {0}")]
    Setup(String),
    /// A line does not replay (a bad configuration, an illegal move), or a record cannot
    /// be made.
    #[error(transparent)]
    Record(#[from] RecordError),
}

#[derive(Clone, Debug)]
struct Slot {
    mv: Option<Move>,
    parent: Option<NodeId>,
    children: Vec<NodeId>,
    comment: Option<String>,
    live: bool,
}

/// A tree of variations from a start position, with the record's header (players, result
/// and so on, which belong to the main line).
#[derive(Clone, Debug)]
pub struct GameTree {
    config: GameConfig,
    setup: Setup,
    slots: Vec<Slot>,
    live: usize,
    /// Who played (the main line).
    pub players: Players,
    /// The opening rule.
    pub opening: Option<Opening>,
    /// The clocks.
    pub clock: Option<Clocks>,
    /// How the main line ended, if it did.
    pub result: Option<GameResult>,
    /// When the game was played.
    pub dates: Dates,
    /// Anything else the file carried (see [`Record::tags`]).
    pub tags: BTreeMap<String, String>,
}

const ROOT: NodeId = NodeId(0);

impl GameTree {
    /// An empty tree from the empty board of `config`.
    #[must_use]
    pub fn new(config: GameConfig) -> GameTree {
        GameTree::with_setup(config, Setup::default())
    }

    /// An empty tree from a set-up position; [`GameConfig::first`] moves first. The
    /// position is checked when a line is replayed ([`GameTree::position`]).
    #[must_use]
    pub fn with_setup(config: GameConfig, setup: Setup) -> GameTree {
        GameTree {
            config,
            setup,
            slots: vec![Slot {
                mv: None,
                parent: None,
                children: Vec::new(),
                comment: None,
                live: true,
            }],
            live: 1,
            players: Players::default(),
            opening: None,
            clock: None,
            result: None,
            dates: Dates::default(),
            tags: BTreeMap::new(),
        }
    }

    /// A tree whose main line is the record's moves, with its header. Not validated.
    #[must_use]
    pub fn from_record(record: &Record) -> GameTree {
        let mut tree = GameTree::new(record.config.clone());
        tree.players = record.players.clone();
        tree.opening = record.opening.clone();
        tree.clock = record.clock.clone();
        tree.result = record.result.clone();
        tree.dates = record.dates.clone();
        tree.tags = record.tags.clone();
        let mut at = ROOT;
        for &mv in &record.moves {
            at = tree.add_unchecked(at, mv).unwrap_or(at);
        }
        tree
    }

    /// The line to `node` as a record with the tree's header (its result only when `node`
    /// ends the main line). Setup stones become alternating moves, Black first, as SGF
    /// readers of game records do; a setup that cannot (more White stones than Black, or
    /// two more Black) is an error.
    pub fn to_record(&self, node: NodeId) -> Result<Record, TreeError> {
        self.check(node)?;
        let mut record = Record::new(self.config.clone());
        record.players = self.players.clone();
        record.opening = self.opening.clone();
        record.clock = self.clock.clone();
        record.dates = self.dates.clone();
        record.tags = self.tags.clone();
        if node == self.main_line_end() {
            record.result = self.result.clone();
        }
        let (black, white) = (&self.setup.black, &self.setup.white);
        if !self.setup.is_empty() {
            if !(black.len() == white.len() || black.len() == white.len() + 1) {
                return Err(TreeError::Setup(format!(
                    "{} black and {} white setup stones cannot be written as alternating moves",
                    black.len(),
                    white.len()
                )));
            }
            for (i, &pos) in black.iter().enumerate() {
                record.moves.push(Move {
                    pos,
                    color: Color::Black,
                    time_ms: None,
                });
                if let Some(&pos) = white.get(i) {
                    record.moves.push(Move {
                        pos,
                        color: Color::White,
                        time_ms: None,
                    });
                }
            }
            record.config.first = Color::Black;
        }
        record.moves.extend(self.line(node));
        Ok(record)
    }

    /// Rule, size, k, variant, and who moves first from the root.
    #[must_use]
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The setup stones at the root.
    #[must_use]
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The root: the position before the first move.
    #[must_use]
    pub const fn root(&self) -> NodeId {
        ROOT
    }

    /// How many moves the tree holds (its nodes but the root).
    #[must_use]
    pub fn len(&self) -> usize {
        self.live - 1
    }

    /// Whether the tree holds no move.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.live == 1
    }

    /// Whether `node` names a node of this tree.
    #[must_use]
    pub fn contains(&self, node: NodeId) -> bool {
        self.slots.get(node.index()).is_some_and(|s| s.live)
    }

    fn check(&self, node: NodeId) -> Result<&Slot, TreeError> {
        match self.slots.get(node.index()) {
            Some(s) if s.live => Ok(s),
            _ => Err(TreeError::NoNode(node)),
        }
    }

    fn slot(&self, node: NodeId) -> Option<&Slot> {
        self.check(node).ok()
    }

    /// The move of `node` (`None` for the root or an unknown id).
    #[must_use]
    pub fn mv(&self, node: NodeId) -> Option<Move> {
        self.slot(node).and_then(|s| s.mv)
    }

    /// The parent of `node` (`None` for the root or an unknown id).
    #[must_use]
    pub fn parent(&self, node: NodeId) -> Option<NodeId> {
        self.slot(node).and_then(|s| s.parent)
    }

    /// The children of `node`, main line first (empty for an unknown id).
    #[must_use]
    pub fn children(&self, node: NodeId) -> &[NodeId] {
        self.slot(node).map_or(&[], |s| &s.children)
    }

    /// The child of `node` that plays `pos`, if there is one.
    #[must_use]
    pub fn child_at(&self, node: NodeId, pos: Pos) -> Option<NodeId> {
        self.children(node)
            .iter()
            .copied()
            .find(|&c| self.mv(c).is_some_and(|m| m.pos == pos))
    }

    /// The comment on `node`.
    #[must_use]
    pub fn comment(&self, node: NodeId) -> Option<&str> {
        self.slot(node).and_then(|s| s.comment.as_deref())
    }

    /// Sets or clears the comment on `node` (an empty comment clears it).
    pub fn set_comment(&mut self, node: NodeId, comment: Option<String>) -> Result<(), TreeError> {
        self.check(node)?;
        self.slots[node.index()].comment = comment.filter(|c| !c.is_empty());
        Ok(())
    }

    /// How many moves lead to `node` (0 at the root).
    #[must_use]
    pub fn depth(&self, node: NodeId) -> usize {
        self.ancestors(node).count().saturating_sub(1)
    }

    /// `node`, its parent, and so on up to the root (nothing for an unknown id).
    fn ancestors(&self, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let first = self.contains(node).then_some(node);
        std::iter::successors(first, |&n| self.slots[n.index()].parent)
    }

    /// The moves from the root to `node`.
    #[must_use]
    pub fn line(&self, node: NodeId) -> Vec<Move> {
        let mut moves: Vec<Move> = self.ancestors(node).filter_map(|n| self.mv(n)).collect();
        moves.reverse();
        moves
    }

    /// The last node of the main line (the root's first child, its first child, ...).
    #[must_use]
    pub fn main_line_end(&self) -> NodeId {
        let mut at = ROOT;
        while let Some(&first) = self.slots[at.index()].children.first() {
            at = first;
        }
        at
    }

    /// The main line's moves.
    #[must_use]
    pub fn main_line(&self) -> Vec<Move> {
        self.line(self.main_line_end())
    }

    /// The node reached from the root by taking child `path[0]`, then `path[1]` ...
    #[must_use]
    pub fn node_at(&self, path: &[usize]) -> Option<NodeId> {
        let mut at = ROOT;
        for &i in path {
            at = *self.slots[at.index()].children.get(i)?;
        }
        Some(at)
    }

    /// The child indices that lead from the root to `node` (empty for the root).
    #[must_use]
    pub fn path(&self, node: NodeId) -> Option<Vec<usize>> {
        self.check(node).ok()?;
        let mut path: Vec<usize> = self
            .ancestors(node)
            .filter_map(|n| {
                let parent = self.slots[n.index()].parent?;
                self.slots[parent.index()]
                    .children
                    .iter()
                    .position(|&c| c == n)
            })
            .collect();
        path.reverse();
        Some(path)
    }

    /// Every node, in pre-order (a node, then its main line child's subtree, then the
    /// variations').
    pub fn nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        let mut stack = vec![ROOT];
        std::iter::from_fn(move || {
            let n = stack.pop()?;
            stack.extend(self.slots[n.index()].children.iter().rev());
            Some(n)
        })
    }

    /// The position at `node`: the setup, then the line to `node` replayed under the rules.
    /// The error names the first move that does not fit (its number counts from the root).
    pub fn position(&self, node: NodeId) -> Result<Game, TreeError> {
        self.check(node)?;
        let mut game = self.start()?;
        for (i, mv) in self.line(node).iter().enumerate() {
            play_checked(&mut game, mv, i + 1)?;
        }
        Ok(game)
    }

    /// The position at the root.
    fn start(&self) -> Result<Game, TreeError> {
        let size = self.config.size;
        if self.setup.is_empty() {
            return Game::new(self.config.clone())
                .map_err(|e| TreeError::Record(RecordError::Config(e)));
        }
        let mut board = Board::new(size);
        for (pos, color) in self.setup.stones() {
            if !size.contains(pos) {
                return Err(TreeError::Setup(format!(
                    "the stone at {} is off the board",
                    move_name(size, pos)
                )));
            }
            if board.get(pos) != Cell::Empty {
                return Err(TreeError::Setup(format!(
                    "two setup stones on {}",
                    move_name(size, pos)
                )));
            }
            board.set(pos, Cell::stone(color));
        }
        Game::from_setup(self.config.clone(), &board, self.config.first).map_err(|e| match e {
            SetupError::Config(c) => TreeError::Record(RecordError::Config(c)),
            other => TreeError::Setup(other.to_string()),
        })
    }

    /// Checks every line of the tree under the rules; the error names the first bad move
    /// met in pre-order, with its path.
    pub fn validate(&self) -> Result<(), TreeError> {
        let mut game = self.start()?;
        // (node, entering): entering plays the node's move, leaving takes it back.
        let mut stack = vec![(ROOT, true)];
        while let Some((n, entering)) = stack.pop() {
            let slot = &self.slots[n.index()];
            if !entering {
                game.undo();
                continue;
            }
            if let Some(mv) = slot.mv {
                let number = game.moves().len() + 1;
                play_checked(&mut game, &mv, number)?;
                stack.push((n, false));
            }
            stack.extend(slot.children.iter().rev().map(|&c| (c, true)));
        }
        Ok(())
    }

    /// Plays `pos` at `node`: the existing child that plays it, or a new variation after
    /// the existing children (the main line when it is the first). The move must be legal
    /// in the position at `node`; the side to move plays it.
    pub fn play(&mut self, node: NodeId, pos: Pos) -> Result<NodeId, TreeError> {
        self.check(node)?;
        if let Some(child) = self.child_at(node, pos) {
            return Ok(child);
        }
        let mut game = self.position(node)?;
        let color = game.side_to_move();
        game.try_play(pos).map_err(|e| {
            TreeError::Record(RecordError::Move {
                number: game.moves().len() + 1,
                name: move_name(self.config.size, pos),
                reason: illegal_reason(&e),
            })
        })?;
        self.add_unchecked(
            node,
            Move {
                pos,
                color,
                time_ms: None,
            },
        )
    }

    /// Adds `mv` under `node` without checking it against the rules (for readers of files;
    /// [`GameTree::validate`] checks later). A child that already plays the same point
    /// with the same colour is returned instead of a copy.
    pub fn add_unchecked(&mut self, node: NodeId, mv: Move) -> Result<NodeId, TreeError> {
        self.check(node)?;
        if let Some(child) = self.child_at(node, mv.pos)
            && self.mv(child).is_some_and(|m| m.color == mv.color)
        {
            return Ok(child);
        }
        let id = NodeId(u32::try_from(self.slots.len()).expect("fewer than 2^32 nodes"));
        self.slots.push(Slot {
            mv: Some(mv),
            parent: Some(node),
            children: Vec::new(),
            comment: None,
            live: true,
        });
        self.slots[node.index()].children.push(id);
        self.live += 1;
        Ok(id)
    }

    /// Moves the variation holding `node` one place up among its siblings: the nearest of
    /// `node` and its ancestors that is not a first child swaps with the sibling before it.
    /// Returns `false` when `node` is already on the main line.
    pub fn promote(&mut self, node: NodeId) -> Result<bool, TreeError> {
        if node == ROOT {
            return Err(TreeError::Root);
        }
        self.check(node)?;
        let branch = self.ancestors(node).find_map(|n| {
            let parent = self.slots[n.index()].parent?;
            let i = self.slots[parent.index()]
                .children
                .iter()
                .position(|&c| c == n)?;
            (i > 0).then_some((parent, i))
        });
        match branch {
            Some((parent, i)) => {
                self.slots[parent.index()].children.swap(i - 1, i);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Makes the line to `node` the main line: `node` and each of its ancestors become
    /// their parent's first child, the others keeping their order.
    pub fn make_main_line(&mut self, node: NodeId) -> Result<(), TreeError> {
        if node == ROOT {
            return Err(TreeError::Root);
        }
        self.check(node)?;
        let line: Vec<NodeId> = self.ancestors(node).collect();
        for n in line {
            if let Some(parent) = self.slots[n.index()].parent {
                let children = &mut self.slots[parent.index()].children;
                if let Some(i) = children.iter().position(|&c| c == n) {
                    children[..=i].rotate_right(1);
                }
            }
        }
        Ok(())
    }

    /// Deletes `node` and everything after it. Returns how many moves went.
    pub fn delete(&mut self, node: NodeId) -> Result<usize, TreeError> {
        if node == ROOT {
            return Err(TreeError::Root);
        }
        let parent = self.check(node)?.parent.ok_or(TreeError::Root)?;
        self.slots[parent.index()].children.retain(|&c| c != node);
        let mut gone = 0;
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            let slot = &mut self.slots[n.index()];
            slot.live = false;
            slot.comment = None;
            stack.append(&mut slot.children);
            gone += 1;
        }
        self.live -= gone;
        Ok(gone)
    }
}

/// Trees are equal when they hold the same header, start and moves in the same shape and
/// order, with the same comments (node ids and deleted nodes do not count).
impl PartialEq for GameTree {
    fn eq(&self, other: &GameTree) -> bool {
        let shape = |t: &GameTree| {
            t.nodes()
                .map(|n| {
                    (
                        t.mv(n),
                        t.comment(n).map(str::to_owned),
                        t.children(n).len(),
                    )
                })
                .collect::<Vec<_>>()
        };
        self.config == other.config
            && self.setup == other.setup
            && self.players == other.players
            && self.opening == other.opening
            && self.clock == other.clock
            && self.result == other.result
            && self.dates == other.dates
            && self.tags == other.tags
            && self.live == other.live
            && shape(self) == shape(other)
    }
}

/// Plays `mv` (move `number` of its line) after checking that its colour is the side to
/// move.
fn play_checked(game: &mut Game, mv: &Move, number: usize) -> Result<(), TreeError> {
    let size = game.size();
    let bad = |reason: String| {
        TreeError::Record(RecordError::Move {
            number,
            name: move_name(size, mv.pos),
            reason,
        })
    };
    if !game.is_over() && mv.color != game.side_to_move() {
        return Err(bad(format!(
            "played by {} but {} is to move",
            mv.color,
            game.side_to_move()
        )));
    }
    game.try_play_timed(mv.pos, mv.time_ms)
        .map_err(|e| bad(illegal_reason(&e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rule, Size};

    fn p(s: &str) -> Pos {
        Size::STANDARD.parse_pos(s).unwrap()
    }

    fn names(tree: &GameTree, moves: &[Move]) -> String {
        let size = tree.config().size;
        let v: Vec<String> = moves
            .iter()
            .map(|m| size.notation(m.pos).to_string())
            .collect();
        v.join(" ")
    }

    /// h8 (h9 (i9 | j10) | i9 | g7): a small tree built by playing.
    fn sample() -> (GameTree, [NodeId; 6]) {
        let mut t = GameTree::new(GameConfig::new(Rule::Renju, Size::STANDARD));
        let h8 = t.play(t.root(), p("h8")).unwrap();
        let h9 = t.play(h8, p("h9")).unwrap();
        let i9b = t.play(h9, p("i9")).unwrap();
        let j10 = t.play(h9, p("j10")).unwrap();
        let i9 = t.play(h8, p("i9")).unwrap();
        let g7 = t.play(h8, p("g7")).unwrap();
        (t, [h8, h9, i9b, j10, i9, g7])
    }

    #[test]
    fn play_branches_and_reuses_children() {
        let (mut t, [h8, h9, i9b, j10, i9, g7]) = sample();
        assert_eq!(t.len(), 6);
        assert_eq!(t.children(h8), &[h9, i9, g7]);
        assert_eq!(t.children(h9), &[i9b, j10]);
        assert_eq!(
            t.play(h8, p("i9")).unwrap(),
            i9,
            "an existing move is not copied"
        );
        assert_eq!(t.len(), 6);
        assert_eq!(names(&t, &t.main_line()), "h8 h9 i9");
        assert_eq!(t.mv(i9).unwrap().color, Color::White);
        assert_eq!(t.mv(j10).unwrap().color, Color::Black);
        assert_eq!(t.depth(j10), 3);
        assert_eq!(t.node_at(&[0, 0, 1]), Some(j10));
        assert_eq!(t.path(j10), Some(vec![0, 0, 1]));
        assert_eq!(t.node_at(&[0, 3]), None);
        let order: Vec<NodeId> = t.nodes().collect();
        assert_eq!(order, [t.root(), h8, h9, i9b, j10, i9, g7]);
    }

    #[test]
    fn illegal_moves_are_refused_with_the_reason() {
        let (mut t, [h8, h9, ..]) = sample();
        let err = t.play(h9, p("h8")).unwrap_err();
        assert_eq!(err.to_string(), "move 3 (h8): h8 is occupied");
        assert_eq!(t.len(), 6);

        // Renju: Black's double-three at i9 is played and loses; nothing follows it.
        //    f g h i j k l
        // 11 . . . X . . .
        // 10 . . . X X . .    X to play i9: open threes h8-i9-j10 and i9-i10-i11
        //  9 . . . ? . . .
        //  8 . . X . . . .
        let mut t = GameTree::new(GameConfig::new(Rule::Renju, Size::STANDARD));
        let mut at = t.root();
        for m in ["h8", "a1", "j10", "a3", "i10", "a5", "i11", "a7"] {
            at = t.play(at, p(m)).unwrap();
        }
        let _ = h8;
        let i9 = t.play(at, p("i9")).unwrap();
        let game = t.position(i9).unwrap();
        assert_eq!(
            game.result().unwrap().describe(Size::STANDARD),
            "white wins: black forbidden double-three at i9"
        );
        let err = t.play(i9, p("o15")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 10 (o15): comes after the end of the game"
        );
    }

    #[test]
    fn promote_and_make_main_line() {
        let (mut t, [h8, h9, i9b, j10, i9, g7]) = sample();
        assert!(!t.promote(i9b).unwrap(), "already the main line");
        assert!(t.promote(g7).unwrap());
        assert_eq!(t.children(h8), &[h9, g7, i9]);
        assert!(t.promote(g7).unwrap());
        assert_eq!(t.children(h8), &[g7, h9, i9]);
        // j10 is a variation of h9, itself now second: promoting j10 moves it first.
        assert!(t.promote(j10).unwrap());
        assert_eq!(t.children(h9), &[j10, i9b]);
        assert_eq!(t.children(h8), &[g7, h9, i9]);
        t.make_main_line(i9b).unwrap();
        assert_eq!(t.children(h8), &[h9, g7, i9]);
        assert_eq!(t.children(h9), &[i9b, j10]);
        assert_eq!(names(&t, &t.main_line()), "h8 h9 i9");
        assert_eq!(t.promote(t.root()), Err(TreeError::Root));
    }

    #[test]
    fn delete_removes_the_subtree() {
        let (mut t, [h8, h9, i9b, j10, i9, g7]) = sample();
        assert_eq!(t.delete(h9).unwrap(), 3);
        assert_eq!(t.len(), 3);
        assert_eq!(t.children(h8), &[i9, g7]);
        for gone in [h9, i9b, j10] {
            assert!(!t.contains(gone));
            assert_eq!(t.path(gone), None);
            assert_eq!(t.play(gone, p("a1")), Err(TreeError::NoNode(gone)));
        }
        assert_eq!(names(&t, &t.main_line()), "h8 i9");
        assert_eq!(t.delete(t.root()), Err(TreeError::Root));
        t.delete(h8).unwrap();
        assert!(t.is_empty());
        assert_eq!(t.main_line_end(), t.root());
    }

    #[test]
    fn comments() {
        let (mut t, [h8, ..]) = sample();
        t.set_comment(h8, Some("centre".into())).unwrap();
        t.set_comment(t.root(), Some("start".into())).unwrap();
        assert_eq!(t.comment(h8), Some("centre"));
        assert_eq!(t.comment(t.root()), Some("start"));
        t.set_comment(h8, Some(String::new())).unwrap();
        assert_eq!(t.comment(h8), None);
    }

    #[test]
    fn a_setup_position_is_the_root() {
        // White to move after four setup stones; White completes nothing, Black then
        // makes five through the setup stones.
        //    a b c d e f g h i j k l m n o
        //  8 . . . . . . . X X X X . . . .
        //  7 . . . . . . . O O . . . . . .
        let setup = Setup {
            black: vec![p("h8"), p("i8"), p("j8"), p("k8")],
            white: vec![p("h7"), p("i7")],
        };
        let mut config = GameConfig::new(Rule::Freestyle, Size::STANDARD);
        config.first = Color::White;
        let mut t = GameTree::with_setup(config, setup);
        let w = t.play(t.root(), p("a1")).unwrap();
        assert_eq!(t.mv(w).unwrap().color, Color::White);
        let b = t.play(w, p("l8")).unwrap();
        let game = t.position(b).unwrap();
        assert_eq!(
            game.result().unwrap().describe(Size::STANDARD),
            "black wins: 5 in a row h8-l8"
        );
        assert_eq!(
            t.play(t.root(), p("h8")).unwrap_err().to_string(),
            "move 1 (h8): h8 is occupied"
        );
        // Four Black stones and two White cannot be alternating moves.
        assert!(matches!(t.to_record(b), Err(TreeError::Setup(_))));

        let bad = GameTree::with_setup(
            GameConfig::new(Rule::Freestyle, Size::STANDARD),
            Setup {
                black: vec![p("h8")],
                white: vec![p("h8")],
            },
        );
        assert_eq!(
            bad.position(bad.root()).unwrap_err().to_string(),
            "setup: two setup stones on h8"
        );
    }

    #[test]
    fn validate_names_the_first_bad_line() {
        let (mut t, [_, h9, ..]) = sample();
        assert_eq!(t.validate(), Ok(()));
        let bad = t
            .add_unchecked(
                h9,
                Move {
                    pos: p("h8"),
                    color: Color::Black,
                    time_ms: None,
                },
            )
            .unwrap();
        assert_eq!(t.path(bad), Some(vec![0, 0, 2]));
        assert_eq!(
            t.validate().unwrap_err().to_string(),
            "move 3 (h8): h8 is occupied"
        );
        t.delete(bad).unwrap();
        let wrong_colour = t
            .add_unchecked(
                h9,
                Move {
                    pos: p("a1"),
                    color: Color::White,
                    time_ms: None,
                },
            )
            .unwrap();
        assert!(
            t.position(wrong_colour)
                .unwrap_err()
                .to_string()
                .contains("played by white but black is to move")
        );
    }

    #[test]
    fn records_in_and_out() {
        let (t, [_, _, _, j10, ..]) = sample();
        let r = t.to_record(j10).unwrap();
        assert_eq!(names(&t, &r.moves), "h8 h9 j10");
        let back = GameTree::from_record(&r);
        assert_eq!(back.main_line(), r.moves);
        assert_eq!(back.len(), 3);
    }

    #[test]
    fn deep_trees_do_not_overflow() {
        let mut t = GameTree::new(GameConfig::new(Rule::Freestyle, Size::STANDARD));
        let mut at = t.root();
        for i in 0..300_000u32 {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let mv = Move {
                pos: Size::STANDARD.pos_at((i % 225) as usize),
                color,
                time_ms: None,
            };
            at = t.add_unchecked(at, mv).unwrap();
        }
        assert_eq!(t.depth(at), 300_000);
        assert!(t.validate().is_err());
        assert_eq!(t.nodes().count(), 300_001);
        let first = t.node_at(&[0]).unwrap();
        assert_eq!(t.delete(first).unwrap(), 300_000);
        drop(t);
    }
}
