//! Game state: configuration, moves, undo/redo and the result.

use serde::{Deserialize, Serialize};

use crate::forbidden::{self, ForbiddenKind};
use crate::{Board, Cell, Color, Pos, Rule, Size, Variant, zobrist};

/// Everything fixed at the start of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameConfig {
    /// The rule set.
    pub rule: Rule,
    /// The board size.
    pub size: Size,
    /// Stones in a row that win (5 normally; 4..=7 except under renju).
    pub k: u8,
    /// The theme's layout.
    #[serde(default)]
    pub variant: Variant,
    /// Who plays the first stone (Black in every standard game).
    #[serde(default = "first_default")]
    pub first: Color,
}

const fn first_default() -> Color {
    Color::Black
}

impl GameConfig {
    /// A plain game of five in a row.
    #[must_use]
    pub fn new(rule: Rule, size: Size) -> GameConfig {
        GameConfig {
            rule,
            size,
            k: 5,
            variant: Variant::Wood,
            first: Color::Black,
        }
    }

    /// Checks that the parts fit together.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !self.rule.supports_k(self.k) {
            return Err(ConfigError::K {
                rule: self.rule,
                k: self.k,
            });
        }
        let size = self.size;
        let outside = self
            .variant
            .walls()
            .iter()
            .chain(self.variant.bubbles())
            .find(|p| !size.contains(**p));
        if let Some(p) = outside {
            return Err(ConfigError::LayoutOffBoard(*p));
        }
        if let Variant::Ocean {
            bubbles, target, ..
        } = &self.variant
            && (*target == 0 || usize::from(*target) > bubbles.len())
        {
            return Err(ConfigError::BubbleTarget {
                target: *target,
                bubbles: bubbles.len(),
            });
        }
        Ok(())
    }
}

/// A configuration that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The rule does not support that k.
    #[error("{rule} does not support {k} in a row (renju needs 5; others 4..=7)")]
    K {
        /// The rule.
        rule: Rule,
        /// The k asked for.
        k: u8,
    },
    /// A wall or bubble lies outside the board.
    #[error("variant cell ({},{}) is off the board", .0.x, .0.y)]
    LayoutOffBoard(Pos),
    /// The bubble target cannot be reached.
    #[error("bubble target {target} does not fit {bubbles} bubbles")]
    BubbleTarget {
        /// Target.
        target: u8,
        /// Number of bubbles.
        bubbles: usize,
    },
}

/// One move of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// Where the stone went.
    pub pos: Pos,
    /// Whose stone.
    pub color: Color,
    /// Thinking time in milliseconds, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum EndReason {
    /// A winning row; the cells let a UI draw the line.
    Five {
        /// The row's cells in order.
        cells: Vec<Pos>,
    },
    /// Ocean: the winner holds enough bubbles.
    Bubbles {
        /// How many bubble entries the winner holds.
        count: u8,
    },
    /// Renju: Black played a forbidden point and lost.
    Forbidden {
        /// The point.
        pos: Pos,
        /// Why it was forbidden.
        kind: ForbiddenKind,
    },
    /// The loser resigned.
    Resignation,
    /// The loser's clock ran out.
    Time,
    /// No empty cell is left: a draw.
    BoardFull,
    /// Both players agreed to a draw.
    Agreement,
    /// Called off before both sides had played: no result (no winner, and not a draw).
    Aborted,
    /// The loser left the game and the winner claimed it (or, with no winner, a draw
    /// was claimed).
    Abandoned,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why.
    #[serde(flatten)]
    pub reason: EndReason,
}

impl GameResult {
    /// A sentence for people, e.g. `white wins: black forbidden double-three at j10`.
    #[must_use]
    pub fn describe(&self, size: Size) -> String {
        let who = match self.winner {
            Some(c) => format!("{c} wins"),
            None => "draw".to_string(),
        };
        let loser = self.winner.map_or("", |c| c.opponent().name());
        let why = match &self.reason {
            EndReason::Five { cells } => {
                let n = cells.len();
                let ends = match (cells.first(), cells.last()) {
                    (Some(&a), Some(&b)) => format!(" {}-{}", size.notation(a), size.notation(b)),
                    _ => String::new(),
                };
                format!("{n} in a row{ends}")
            }
            EndReason::Bubbles { count } => format!("holds {count} bubbles"),
            EndReason::Forbidden { pos, kind } => {
                format!("black forbidden {kind} at {}", size.notation(*pos))
            }
            EndReason::Resignation => format!("{loser} resigned"),
            EndReason::Time => format!("{loser} lost on time"),
            EndReason::BoardFull => "the board is full".to_string(),
            EndReason::Agreement => "agreed".to_string(),
            EndReason::Aborted => return "aborted".to_string(),
            EndReason::Abandoned if self.winner.is_some() => format!("{loser} left the game"),
            EndReason::Abandoned => "abandoned".to_string(),
        };
        format!("{who}: {why}")
    }
}

/// A move that cannot be played. Nothing changes when one is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The point is not on the board.
    #[error("({x},{y}) is off the board")]
    OffBoard {
        /// Column.
        x: u8,
        /// Row from the top.
        y: u8,
    },
    /// A stone is already there.
    #[error("{0} is occupied")]
    Occupied(String),
    /// A wall is there.
    #[error("{0} is a wall")]
    Wall(String),
}

/// A game in progress or finished: the board, the moves, the result, undo and redo.
#[derive(Clone, Debug)]
pub struct Game {
    config: GameConfig,
    /// The position before the first move: walls and any setup stones.
    initial: Board,
    /// Who moves first from `initial`.
    start: Color,
    board: Board,
    moves: Vec<Move>,
    redo: Vec<Move>,
    result: Option<GameResult>,
    hash: u64,
}

impl Game {
    /// A new game at the empty board (walls placed for rock).
    pub fn new(config: GameConfig) -> Result<Game, ConfigError> {
        config.validate()?;
        let mut board = Board::new(config.size);
        for &w in config.variant.walls() {
            board.set(w, Cell::Wall);
        }
        let start = config.first;
        Ok(Game {
            config,
            initial: board.clone(),
            start,
            board,
            moves: Vec::new(),
            redo: Vec::new(),
            result: None,
            hash: 0,
        })
    }

    /// A game that starts from a set-up position (SGF `AB`/`AW`, a Gomocup `BOARD`, a
    /// diagram) with `to_move` to play. Setup stones are not moves: undo stops at them.
    /// The variant's walls are added to the board; a stone on a wall cell is an error.
    pub fn from_setup(
        config: GameConfig,
        setup: &Board,
        to_move: Color,
    ) -> Result<Game, SetupError> {
        let mut game = Game::new(config).map_err(SetupError::Config)?;
        if setup.size() != game.config.size {
            return Err(SetupError::Size {
                board: setup.size(),
                config: game.config.size,
            });
        }
        for p in setup.size().points() {
            match (setup.get(p), game.board.get(p)) {
                (Cell::Empty, _) => {}
                (Cell::Wall, _) => game.board.set(p, Cell::Wall),
                (_, Cell::Wall) => return Err(SetupError::StoneOnWall(p)),
                (stone, _) => game.board.set(p, stone),
            }
        }
        game.initial = game.board.clone();
        game.start = to_move;
        game.hash = zobrist::hash_board(&game.board);
        Ok(game)
    }

    /// The position before the first move (walls and setup stones).
    #[must_use]
    pub fn initial_board(&self) -> &Board {
        &self.initial
    }

    /// Who played (or plays) the first move from the initial position.
    #[must_use]
    pub fn start_color(&self) -> Color {
        self.start
    }

    /// A game with `moves` played from the start; the error names the 0-based move index.
    pub fn from_moves(config: GameConfig, moves: &[Pos]) -> Result<Game, GameBuildError> {
        let mut game = Game::new(config).map_err(GameBuildError::Config)?;
        for (i, &p) in moves.iter().enumerate() {
            game.try_play(p)
                .map_err(|e| GameBuildError::Move { index: i, error: e })?;
        }
        Ok(game)
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> Size {
        self.config.size
    }

    /// The rule.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.config.rule
    }

    /// The current board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The moves played, in order.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves that `redo` would replay, next first.
    pub fn redo_moves(&self) -> impl Iterator<Item = &Move> {
        self.redo.iter().rev()
    }

    /// Number of moves played.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The last move.
    #[must_use]
    pub fn last_move(&self) -> Option<&Move> {
        self.moves.last()
    }

    /// Who plays next.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        if self.moves.len().is_multiple_of(2) {
            self.start
        } else {
            self.start.opponent()
        }
    }

    /// The result, once the game has ended.
    #[must_use]
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// Whether the game has ended.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// The Zobrist hash of the stones, kept incrementally.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Under renju, why Black may not play at `pos`; `None` under other rules.
    #[must_use]
    pub fn forbidden_kind(&self, pos: Pos) -> Option<ForbiddenKind> {
        if self.config.rule.has_forbidden() {
            forbidden::forbidden_kind(&self.board, pos)
        } else {
            None
        }
    }

    /// Under renju, every point forbidden for Black; empty under other rules.
    #[must_use]
    pub fn forbidden_points(&self) -> Vec<(Pos, ForbiddenKind)> {
        if self.config.rule.has_forbidden() {
            forbidden::forbidden_points(&self.board)
        } else {
            Vec::new()
        }
    }

    /// Under renju with Black to move and the game going on: whether every empty point
    /// is forbidden, so that every move Black has loses. wuzi's rules have no pass, so
    /// Black must then play one of them; a front end that refuses clicks on forbidden
    /// points lets them through here rather than leave Black without a move.
    #[must_use]
    pub fn only_forbidden_left(&self) -> bool {
        self.result.is_none()
            && self.config.rule.has_forbidden()
            && self.side_to_move() == Color::Black
            && !self.board.is_full()
            && self
                .board
                .empty_points()
                .all(|p| forbidden::forbidden_kind(&self.board, p).is_some())
    }

    /// Checks that the side to move may put a stone at `pos` (a forbidden point is legal
    /// to play: it loses).
    pub fn check_move(&self, pos: Pos) -> Result<(), IllegalMove> {
        if self.result.is_some() {
            return Err(IllegalMove::GameOver);
        }
        if !self.config.size.contains(pos) {
            return Err(IllegalMove::OffBoard { x: pos.x, y: pos.y });
        }
        let name = || self.config.size.notation(pos).to_string();
        match self.board.get(pos) {
            Cell::Empty => Ok(()),
            Cell::Wall => Err(IllegalMove::Wall(name())),
            _ => Err(IllegalMove::Occupied(name())),
        }
    }

    /// Plays a stone for the side to move; refuses illegal moves and changes nothing then.
    /// A forbidden point under renju is played and ends the game (White wins).
    pub fn try_play(&mut self, pos: Pos) -> Result<(), IllegalMove> {
        self.try_play_timed(pos, None)
    }

    /// [`Game::try_play`] recording the thinking time.
    pub fn try_play_timed(&mut self, pos: Pos, time_ms: Option<u64>) -> Result<(), IllegalMove> {
        self.check_move(pos)?;
        self.redo.clear();
        self.apply(Move {
            pos,
            color: self.side_to_move(),
            time_ms,
        });
        Ok(())
    }

    /// Plays a move known to be legal.
    ///
    /// # Panics
    /// If the move is illegal.
    pub fn play(&mut self, pos: Pos) {
        if let Err(e) = self.try_play(pos) {
            panic!("illegal move: {e}");
        }
    }

    fn apply(&mut self, mv: Move) {
        let (pos, color) = (mv.pos, mv.color);
        let forbidden = if color == Color::Black {
            self.forbidden_kind(pos)
        } else {
            None
        };
        self.board.set(pos, Cell::stone(color));
        self.hash ^= zobrist::key(pos, color);
        self.moves.push(mv);
        self.result = self.judge(pos, color, forbidden);
    }

    /// The result after `color` played at `pos`, in the order: five, forbidden, bubbles,
    /// full board.
    fn judge(
        &self,
        pos: Pos,
        color: Color,
        forbidden: Option<ForbiddenKind>,
    ) -> Option<GameResult> {
        let cfg = &self.config;
        if let Some(cells) = self.board.winning_line(pos, color, cfg.rule, cfg.k) {
            return Some(GameResult {
                winner: Some(color),
                reason: EndReason::Five { cells },
            });
        }
        if let Some(kind) = forbidden {
            return Some(GameResult {
                winner: Some(Color::White),
                reason: EndReason::Forbidden { pos, kind },
            });
        }
        if let Variant::Ocean {
            bubbles, target, ..
        } = &cfg.variant
        {
            let held = bubbles
                .iter()
                .filter(|&&b| self.board.get(b) == Cell::stone(color))
                .count();
            if held >= usize::from(*target) {
                return Some(GameResult {
                    winner: Some(color),
                    reason: EndReason::Bubbles { count: held as u8 },
                });
            }
        }
        if self.board.is_full() {
            return Some(GameResult {
                winner: None,
                reason: EndReason::BoardFull,
            });
        }
        None
    }

    /// Takes back the last move (and any result). Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.board.set(mv.pos, Cell::Empty);
        self.hash ^= zobrist::key(mv.pos, mv.color);
        self.result = None;
        self.redo.push(mv);
        Some(mv)
    }

    /// Replays the last undone move. Returns it, or `None` if there is nothing to redo.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = self.redo.pop()?;
        // An ended game cannot have a redo stack (moves after the end are never played),
        // but resignations or agreements might have ended it since: clear those first.
        self.result = None;
        self.apply(mv);
        Some(mv)
    }

    /// Undoes or redoes until `ply` moves are on the board.
    pub fn go_to(&mut self, ply: usize) -> Result<(), GoToError> {
        let total = self.moves.len() + self.redo.len();
        if ply > total {
            return Err(GoToError { ply, total });
        }
        while self.moves.len() > ply {
            self.undo();
        }
        while self.moves.len() < ply {
            self.redo();
        }
        Ok(())
    }

    /// Ends the game: `color` resigns.
    pub fn resign(&mut self, color: Color) -> Result<(), IllegalMove> {
        self.end(Some(color.opponent()), EndReason::Resignation)
    }

    /// Ends the game: `color`'s clock ran out.
    pub fn lose_on_time(&mut self, color: Color) -> Result<(), IllegalMove> {
        self.end(Some(color.opponent()), EndReason::Time)
    }

    /// Ends the game as a draw by agreement.
    pub fn agree_draw(&mut self) -> Result<(), IllegalMove> {
        self.end(None, EndReason::Agreement)
    }

    /// Calls the game off: it ends with no result.
    pub fn abort(&mut self) -> Result<(), IllegalMove> {
        self.end(None, EndReason::Aborted)
    }

    /// Ends the game with an outside verdict (resignation, time, agreement, or a referee's
    /// result read from a record).
    pub fn end(&mut self, winner: Option<Color>, reason: EndReason) -> Result<(), IllegalMove> {
        if self.result.is_some() {
            return Err(IllegalMove::GameOver);
        }
        self.redo.clear();
        self.result = Some(GameResult { winner, reason });
        Ok(())
    }
}

/// A move list that does not make a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameBuildError {
    /// The configuration is invalid.
    #[error("{0}")]
    Config(ConfigError),
    /// Move `index` (0-based) is illegal.
    #[error("move {} is illegal: {error}", index + 1)]
    Move {
        /// 0-based index of the move.
        index: usize,
        /// Why.
        error: IllegalMove,
    },
}

/// A set-up position that does not fit its configuration.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The configuration is invalid.
    #[error("{0}")]
    Config(ConfigError),
    /// The board is not the configured size.
    #[error("the position is {board} but the game is {config}")]
    Size {
        /// The position's size.
        board: Size,
        /// The configured size.
        config: Size,
    },
    /// A setup stone stands on a wall of the variant.
    #[error("a stone stands on the wall at ({},{})", .0.x, .0.y)]
    StoneOnWall(Pos),
}

/// A ply outside the game's history.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot go to move {ply}: the game has {total} moves")]
pub struct GoToError {
    /// Requested ply.
    pub ply: usize,
    /// Moves in the history (played and redoable).
    pub total: usize,
}
