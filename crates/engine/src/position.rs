//! The position handed to the engine: rule configuration, stones, side to move.

use wuzi_rules::forbidden::{self, ForbiddenKind};
use wuzi_rules::game::IllegalMove;
use wuzi_rules::{Board, Cell, Color, Game, GameConfig, Pos, Rule, Size, Variant, zobrist};

/// A position to search: the game's configuration (rule, size, k, variant), the stones
/// and the side to move. It does not need the move order (renju positions are judged by
/// their stones), but keeps it when it is known.
#[derive(Clone, Debug)]
pub struct Position {
    config: GameConfig,
    board: Board,
    to_move: Color,
    history: Vec<Pos>,
    hash: u64,
}

impl Position {
    /// The current position of a game (move order kept).
    #[must_use]
    pub fn from_game(game: &Game) -> Position {
        Position {
            config: game.config().clone(),
            board: game.board().clone(),
            to_move: game.side_to_move(),
            history: game.moves().iter().map(|m| m.pos).collect(),
            hash: game.hash(),
        }
    }

    /// A position from a board and the side to move. The config's walls are added to
    /// the board (cells the board already walls stay walls); stones on wall cells of
    /// the config are removed.
    #[must_use]
    pub fn from_board(config: &GameConfig, board: &Board, to_move: Color) -> Position {
        let mut board = board.clone();
        if board.size() != config.size {
            // A board of another size cannot be this game's: start from an empty one of
            // the right size, copying what fits.
            let mut fitted = Board::new(config.size);
            for p in config.size.points() {
                if board.size().contains(p) {
                    fitted.set(p, board.get(p));
                }
            }
            board = fitted;
        }
        for &w in config.variant.walls() {
            board.set(w, Cell::Wall);
        }
        let hash = zobrist::hash_board(&board);
        Position {
            config: config.clone(),
            board,
            to_move,
            history: Vec::new(),
            hash,
        }
    }

    /// The game's configuration.
    #[must_use]
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The rule.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.config.rule
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> Size {
        self.config.size
    }

    /// Stones in a row that win.
    #[must_use]
    pub fn k(&self) -> u8 {
        self.config.k
    }

    /// The variant layout (walls, bubbles).
    #[must_use]
    pub fn variant(&self) -> &Variant {
        &self.config.variant
    }

    /// The stones (and walls).
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The Zobrist hash of the stones (as [`wuzi_rules::Game::hash`]).
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The moves that led here, when known (empty for positions built from a board).
    #[must_use]
    pub fn moves(&self) -> &[Pos] {
        &self.history
    }

    /// The last move, when known.
    #[must_use]
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().copied()
    }

    /// Number of stones on the board.
    #[must_use]
    pub fn stone_count(&self) -> usize {
        self.board.stone_count()
    }

    /// Why `pos` is forbidden for the side to move: only Black under renju has
    /// forbidden points.
    #[must_use]
    pub fn forbidden_kind(&self, pos: Pos) -> Option<ForbiddenKind> {
        if self.config.rule.has_forbidden() && self.to_move == Color::Black {
            forbidden::forbidden_kind(&self.board, pos)
        } else {
            None
        }
    }

    /// Whether the side to move may put a stone at `pos` without losing at once: the
    /// point is on the board and empty, and not forbidden — unless it makes a five,
    /// which beats every forbidden shape.
    #[must_use]
    pub fn is_legal(&self, pos: Pos) -> bool {
        self.size().contains(pos)
            && self.board.is_empty(pos)
            && (self.forbidden_kind(pos).is_none() || self.is_win(pos))
    }

    /// Every point the side to move may play (see [`Position::is_legal`]), row by row.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Pos> {
        self.size().points().filter(|&p| self.is_legal(p)).collect()
    }

    /// Whether a stone of the side to move at the empty point `pos` wins at once (a
    /// winning row under the rule, or enough bubbles on an ocean board).
    #[must_use]
    pub fn is_win(&self, pos: Pos) -> bool {
        let c = self.to_move;
        if self
            .board
            .winning_line(pos, c, self.config.rule, self.config.k)
            .is_some()
        {
            return true;
        }
        if let Variant::Ocean {
            bubbles, target, ..
        } = &self.config.variant
        {
            let held = bubbles
                .iter()
                .filter(|&&b| b == pos || self.board.get(b) == Cell::stone(c))
                .count();
            return held >= usize::from(*target);
        }
        false
    }

    /// Puts a stone of the side to move at `pos` and passes the turn. Refuses occupied,
    /// walled and off-board points (and changes nothing then). It does not judge the
    /// result: a forbidden point can be played, as in a game.
    pub fn play(&mut self, pos: Pos) -> Result<(), IllegalMove> {
        if !self.size().contains(pos) {
            return Err(IllegalMove::OffBoard { x: pos.x, y: pos.y });
        }
        let name = || self.size().notation(pos).to_string();
        match self.board.get(pos) {
            Cell::Empty => {}
            Cell::Wall => return Err(IllegalMove::Wall(name())),
            _ => return Err(IllegalMove::Occupied(name())),
        }
        self.board.set(pos, Cell::stone(self.to_move));
        self.hash ^= zobrist::key(pos, self.to_move);
        self.history.push(pos);
        self.to_move = self.to_move.opponent();
        Ok(())
    }
}
