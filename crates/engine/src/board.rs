//! The search board: stones plus, for every empty point and both colours, the line
//! patterns and combined threat, all kept incrementally so that "who threatens what"
//! is known in O(1) after each move.
//!
//! Points are indices into a padded array ([`STRIDE`] × [`STRIDE`], five wall cells
//! around the largest board) so that a line key never needs a bounds check.

use wuzi_rules::forbidden;
use wuzi_rules::pos::MAX_SIDE;
use wuzi_rules::{Cell, Color, Pos, Rule, Size, Variant, zobrist};

use crate::Position;
use crate::eval::learned::{self, combination_slot};
use crate::eval::net::{self, ColorSums, Net, RowValues};
use crate::eval::pattern::{self, HALF, Pattern, PatternTable};
use crate::eval::{self, THREAT_KINDS, Threat};
use crate::params;

/// Wall cells around the board.
pub const PAD: usize = HALF;
/// Row length of the padded array.
pub const STRIDE: usize = MAX_SIDE as usize + 2 * PAD;
/// Cells of the padded array.
pub const CELLS: usize = STRIDE * STRIDE;
// A point's index fits the `u16` the hash table keeps a move in.
const _: () = assert!(CELLS <= u16::MAX as usize);
/// Index offsets of the four line directions, as `wuzi_rules::board::DIRECTIONS`.
pub const DIR: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, 1 - STRIDE as isize];

/// A padded-array index.
pub type Idx = usize;

/// The index of `pos`.
#[must_use]
pub const fn idx(pos: Pos) -> Idx {
    (pos.y as usize + PAD) * STRIDE + pos.x as usize + PAD
}

/// The point at index `i` (which must be on the board).
#[must_use]
pub const fn pos_of(i: Idx) -> Pos {
    Pos::new_unchecked((i % STRIDE - PAD) as u8, (i / STRIDE - PAD) as u8)
}

/// What the board keeps per point, packed into one cache line: `set_cell` touches
/// forty of them per move, and that is where the search spends its time.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
#[repr(align(64))]
struct Point {
    /// Line keys by direction: ternary keys per colour (`key[colour][dir]`, below
    /// 3^10), or with a two-bit table (caro) one 20-bit key for both colours, its low
    /// half in `key[0]` and its high bits in `key[1]` ([`Point::wide_key`]).
    key: [[u16; 4]; 2],
    pat: [[Pattern; 4]; 2],
    /// [`eval::combo_index`] of `pat`, per colour, kept with it.
    combo: [u16; 2],
    /// The combination of `pat` (the patterns sorted, [`learned::slot_table`]), per
    /// colour: where [`Board::combos`] and the network read.
    comb: [u16; 2],
    threat: [Threat; 2],
    /// Black's threat needs the exact forbidden-move check (renju, two open threes).
    check: bool,
    /// Move-ordering value per colour.
    value: [i16; 2],
    /// Evaluation share per colour and role ([`eval::Combo::eval`]).
    eval: [[i16; 2]; 2],
}

impl Point {
    /// The two-bit (caro) key of direction `d`.
    fn wide_key(&self, d: usize) -> u32 {
        u32::from(self.key[0][d]) | u32::from(self.key[1][d]) << 16
    }

    fn set_wide_key(&mut self, d: usize, key: u32) {
        self.key[0][d] = key as u16;
        self.key[1][d] = (key >> 16) as u16;
    }

    /// Colour `c`'s slot of the network and the learned table here.
    fn net_slot(&self, c: usize) -> usize {
        combination_slot(usize::from(self.comb[c]), self.threat[c])
    }
}

/// What a move changed besides its own cell, for [`Board::undo`] to put back: the sums
/// and counts before it, and where its saved copies of the points whose line keys it
/// touched start in [`Board::saved`].
#[derive(Clone, Copy)]
struct Undo {
    saved_from: usize,
    eval_sum: [[i32; 2]; 2],
    threat_count: [[u16; THREAT_KINDS]; 2],
    net_sums: [ColorSums; 2],
}

/// Index offsets of the points within [`HALF`] of a point along its four lines.
const LINE_OFFSETS: [isize; 8 * HALF] = {
    let mut t = [0; 8 * HALF];
    let mut k = 0;
    let mut d = 0;
    while d < 4 {
        let mut o = 1;
        while o <= HALF as isize {
            t[k] = -DIR[d] * o;
            t[k + 1] = DIR[d] * o;
            k += 2;
            o += 1;
        }
        d += 1;
    }
    t
};

/// Side salt so the side to move is part of the hash.
const SIDE_KEY: u64 = 0x9d3f_2a6b_41c8_e573;

/// The search board. Cloneable: each search thread owns one.
#[derive(Clone)]
pub struct Board {
    size: Size,
    rule: Rule,
    k: u8,
    table: &'static PatternTable,
    /// The point combinations: for each colour ([`eval::combo_table`]), by combination.
    combos: [&'static [eval::Combo]; 2],
    /// The combination of each [`eval::combo_index`] ([`learned::slot_table`]).
    slots: &'static [u16],
    /// The policy table the combinations' policy values come from.
    policy: &'static [i16],
    cells: Vec<u8>,
    points: Vec<Point>,
    cand: Vec<u8>,
    on_board: Vec<Idx>,
    to_move: Color,
    hash: u64,
    history: Vec<Idx>,
    /// The last two moves of the game the board was built from (the last first), when
    /// its position knows them: what came before [`Board::history`].
    before: [Option<Idx>; 2],
    /// One entry per move of [`Board::history`].
    undo_log: Vec<Undo>,
    /// The points the moves of [`Board::history`] touched, as they were before: for
    /// each move, the points at its [`LINE_OFFSETS`] in that order. Undoing a move
    /// copies them back, which is cheaper than working out their patterns again.
    saved: Vec<Point>,
    /// Sum of the points' evaluation shares, by colour and role.
    eval_sum: [[i32; 2]; 2],
    threat_count: [[u16; THREAT_KINDS]; 2],
    mirror: wuzi_rules::Board,
    bubbles: Vec<u8>,
    bubble_list: Vec<Idx>,
    held: [u32; 2],
    target: u32,
    forbid_cache: Vec<u64>,
    salt: u64,
    /// Where the evaluation shares come from.
    source: eval::Source,
    /// Renju: Black's double-three points are checked exactly in the evaluation
    /// ([`Board::evaluate_exact`]).
    exact_forbidden: bool,
    /// Counter-block defences are generated ([`Board::set_counter_block`]; on unless
    /// switched off).
    counter_block: bool,
    /// A four-three answered in advance does not restrict the moves
    /// ([`Board::set_defuse`]; off unless switched on).
    defuse: bool,
    /// The threat-mask values the evaluation adds ([`eval::mask`]), if it adds them.
    mask: Option<&'static [i16]>,
    /// The network the evaluation adds ([`eval::net`]), if it adds one.
    net: Option<&'static Net>,
    /// Each colour's network sums over the empty points ([`Net::row`]), kept while
    /// [`Board::net`] is set.
    net_sums: [ColorSums; 2],
    /// The sums are not kept for now: a search that never evaluates is playing
    /// ([`Board::freeze_net`]).
    net_frozen: bool,
    /// Empty points on the board.
    empties: i32,
    /// Each colour's [`eval::learned::class`].
    class_of: [usize; 2],
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} to move\n{}", self.to_move, self.mirror.diagram())
    }
}

const FORBID_CACHE: usize = 1 << 12;

/// The empty points whose threat for one colour is one of some kinds, in board order,
/// read no further than needed: the scan stops once it has met as many as the board's
/// counts of those kinds (the counts cover every empty point, so nothing is missed).
/// It holds no borrow of the board, so the caller may use the board mutably between
/// steps (a legality check).
#[derive(Clone, Copy, Debug)]
pub struct ThreatScan {
    color: Color,
    /// The kinds, as bits by [`Threat`] value.
    kinds: u16,
    next: usize,
    left: u32,
}

impl ThreatScan {
    /// A scan of `board`'s points for `color`'s threats of the (distinct) `kinds`.
    #[must_use]
    pub fn new(board: &Board, color: Color, kinds: &[Threat]) -> ThreatScan {
        ThreatScan {
            color,
            kinds: kinds.iter().fold(0, |m, &t| m | 1 << t as u16),
            next: 0,
            left: kinds
                .iter()
                .map(|&t| u32::from(board.threat_count(color, t)))
                .sum(),
        }
    }

    /// The next such point of `board` (the board the scan was made for, unchanged).
    pub fn next(&mut self, board: &Board) -> Option<Idx> {
        while self.left > 0 && self.next < board.on_board.len() {
            let i = board.on_board[self.next];
            self.next += 1;
            if board.is_empty(i) && self.kinds & 1 << board.threat(i, self.color) as u16 != 0 {
                self.left -= 1;
                return Some(i);
            }
        }
        None
    }
}

impl Board {
    /// The search board of a position, with the evaluation in use
    /// ([`params::Features::current`]).
    #[must_use]
    pub fn new(pos: &Position) -> Board {
        Board::with_source(pos, eval::Source::of(&params::Features::current()))
    }

    /// The search board of a position; `learned`: the evaluation is the learned table
    /// ([`eval::learned`]), else the hand-set values.
    #[must_use]
    pub fn with_eval(pos: &Position, learned: bool) -> Board {
        let source = if learned {
            eval::Source::Learned
        } else {
            eval::Source::HandSet
        };
        Board::with_source(pos, source)
    }

    /// The search board of a position, with the evaluation from `source` and the
    /// shipped policy table.
    #[must_use]
    pub fn with_source(pos: &Position, source: eval::Source) -> Board {
        Board::with_tables(pos, source, false)
    }

    /// The search board of a position, with the evaluation from `source` and, if
    /// `alt_policy`, the second policy table ([`eval::policy::alt_table`]).
    #[must_use]
    pub fn with_tables(pos: &Position, source: eval::Source, alt_policy: bool) -> Board {
        let size = pos.size();
        let rule = pos.rule();
        let k = pos.k();
        let mut b = Board {
            size,
            rule,
            k,
            table: PatternTable::get(rule, k),
            combos: [
                eval::combo_table(learned::class(rule, Color::Black), source, alt_policy),
                eval::combo_table(learned::class(rule, Color::White), source, alt_policy),
            ],
            slots: learned::slot_table(),
            policy: eval::policy::table_for(alt_policy),
            cells: vec![pattern::WALL as u8; CELLS],
            points: vec![Point::default(); CELLS],
            cand: vec![0; CELLS],
            on_board: size.points().map(idx).collect(),
            to_move: pos.to_move(),
            hash: 0,
            history: Vec::with_capacity(size.cells()),
            before: [None; 2],
            undo_log: Vec::new(),
            saved: Vec::new(),
            eval_sum: [[0; 2]; 2],
            threat_count: [[0; THREAT_KINDS]; 2],
            mirror: wuzi_rules::Board::new(size),
            bubbles: vec![0; CELLS],
            bubble_list: Vec::new(),
            held: [0; 2],
            target: u32::MAX,
            forbid_cache: vec![0; FORBID_CACHE],
            salt: config_salt(pos),
            source,
            exact_forbidden: false,
            counter_block: true,
            defuse: false,
            mask: None,
            net: None,
            net_sums: [[0; 2 * net::WIDTH]; 2],
            net_frozen: false,
            empties: 0,
            class_of: Color::ALL.map(|c| learned::class(rule, c)),
        };
        for &i in &b.on_board {
            b.cells[i] = pattern::EMPTY as u8;
        }
        // Keys of every cell from scratch (walls everywhere off the board).
        for i in 0..CELLS {
            for (d, &off) in DIR.iter().enumerate() {
                let mut key = 0;
                for o in -(HALF as i32)..=HALF as i32 {
                    if o == 0 {
                        continue;
                    }
                    let j = i as isize + off * o as isize;
                    let c = if (0..CELLS as isize).contains(&j) {
                        u32::from(b.cells[j as usize])
                    } else {
                        pattern::WALL
                    };
                    key |= c << pattern::shift(o);
                }
                if b.table.is_ternary() {
                    for c in Color::ALL {
                        b.points[i].key[c.index()][d] =
                            u16::try_from(PatternTable::ternary_key(key, c)).expect("3^10 < 2^16");
                    }
                } else {
                    b.points[i].set_wide_key(d, key);
                }
            }
        }
        for n in 0..b.on_board.len() {
            let i = b.on_board[n];
            b.refresh(i);
            b.add_point(i);
        }
        if let Variant::Ocean {
            bubbles, target, ..
        } = pos.variant()
        {
            b.target = u32::from(*target);
            for &p in bubbles {
                b.bubbles[idx(p)] += 1;
                if !b.bubble_list.contains(&idx(p)) {
                    b.bubble_list.push(idx(p));
                }
            }
        }
        // Stones (walls first, then stones; the order of stones does not matter).
        let to_move = pos.to_move();
        for p in size.points() {
            if pos.board().get(p) == Cell::Wall {
                b.set_cell(idx(p), pattern::WALL);
                b.mirror.set(p, Cell::Wall);
            }
        }
        for p in size.points() {
            if let Some(c) = pos.board().get(p).color() {
                b.to_move = c;
                b.play(idx(p));
            }
        }
        b.history.clear();
        b.undo_log.clear();
        b.saved.clear();
        b.to_move = to_move;
        // Walls go in by `set_cell`, not `play`, so the count is made afresh.
        b.empties = b.empty_count();
        let moves = pos.moves();
        b.before = [1, 2].map(|k| {
            moves
                .len()
                .checked_sub(k)
                .map(|n| idx(moves[n]))
                .filter(|&i| !b.is_empty(i))
        });
        b
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> Size {
        self.size
    }

    /// The rule.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Stones in a row that win.
    #[must_use]
    pub fn k(&self) -> u8 {
        self.k
    }

    /// The side to move.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Hash of stones, side to move and configuration.
    #[must_use]
    pub fn hash(&self) -> u64 {
        let side = if self.to_move == Color::White {
            SIDE_KEY
        } else {
            0
        };
        self.hash ^ side ^ self.salt
    }

    /// Moves played since the board was built.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The last move played on this board.
    #[must_use]
    pub fn last_move(&self) -> Option<Idx> {
        self.history.last().copied()
    }

    /// The moves played on this board, in order.
    #[must_use]
    pub fn history(&self) -> &[Idx] {
        &self.history
    }

    /// The `k`-th most recent move (0: the last), on this board or, before its first,
    /// in the game it was built from (whose last two moves it keeps).
    #[must_use]
    pub fn recent(&self, k: usize) -> Option<Idx> {
        let n = self.history.len();
        if k < n {
            Some(self.history[n - 1 - k])
        } else {
            self.before.get(k - n).copied().flatten()
        }
    }

    /// Every on-board index, row by row.
    #[must_use]
    pub fn points(&self) -> &[Idx] {
        &self.on_board
    }

    /// Whether the point is empty.
    #[inline]
    #[must_use]
    pub fn is_empty(&self, i: Idx) -> bool {
        self.cells[i] == pattern::EMPTY as u8
    }

    /// The stone at `i`, if any.
    #[must_use]
    pub fn stone(&self, i: Idx) -> Option<Color> {
        match u32::from(self.cells[i]) {
            pattern::BLACK => Some(Color::Black),
            pattern::WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// Whether some stone lies near the empty point (candidate area).
    #[inline]
    #[must_use]
    pub fn is_candidate(&self, i: Idx) -> bool {
        self.cand[i] > 0
    }

    /// The threat a `color` stone makes at the empty point `i`.
    #[inline]
    #[must_use]
    pub fn threat(&self, i: Idx, color: Color) -> Threat {
        self.points[i].threat[color.index()]
    }

    /// The combination index ([`eval::combo_index`]) of the empty point `i`'s four line
    /// patterns for `color`.
    #[inline]
    #[must_use]
    pub fn combo(&self, i: Idx, color: Color) -> usize {
        usize::from(self.points[i].combo[color.index()])
    }

    /// The learned policy's value of the empty point `i`'s slot for `color`, by role
    /// ([`eval::Combo::policy`]).
    #[inline]
    #[must_use]
    pub fn policy_share(&self, i: Idx, color: Color, role: usize) -> i32 {
        let c = color.index();
        i32::from(self.combos[c][usize::from(self.points[i].comb[c])].policy[role])
    }

    /// The learned policy's table this board's [`Board::policy_share`] values come from
    /// ([`eval::policy::table_for`]).
    #[must_use]
    pub fn policy_table(&self) -> &'static [i16] {
        self.policy
    }

    /// The line pattern a `color` stone makes at `i` in direction `d`.
    #[inline]
    #[must_use]
    pub fn pattern(&self, i: Idx, color: Color, d: usize) -> Pattern {
        self.points[i].pat[color.index()][d]
    }

    /// The static value of the empty point `i` for `color`.
    #[inline]
    #[must_use]
    pub fn point_value(&self, i: Idx, color: Color) -> i32 {
        i32::from(self.points[i].value[color.index()])
    }

    /// The evaluation's share of the empty point `i` for `color` in `role`
    /// ([`eval::ROLE_MOVER`] or [`eval::ROLE_WAITER`]), in sixteenths.
    #[inline]
    #[must_use]
    pub fn point_eval(&self, i: Idx, color: Color, role: usize) -> i32 {
        i32::from(self.points[i].eval[color.index()][role])
    }

    /// How many empty points give `color` the threat `t`.
    #[must_use]
    pub fn threat_count(&self, color: Color, t: Threat) -> u16 {
        self.threat_count[color.index()][t as usize]
    }

    /// Stones on the board (not counting walls).
    #[must_use]
    pub fn stone_count(&self) -> usize {
        self.mirror.stone_count()
    }

    /// Whether no empty point is left.
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.mirror.is_full()
    }

    /// Whether `color` wins at once by a stone at the empty point `i`.
    #[inline]
    #[must_use]
    pub fn wins_at(&self, i: Idx, color: Color) -> bool {
        self.threat(i, color) == Threat::Five
            || (self.bubbles[i] > 0
                && self.held[color.index()] + u32::from(self.bubbles[i]) >= self.target)
    }

    /// Whether `color` can win by bubbles somewhere.
    fn may_win_by_bubbles(&self, color: Color) -> bool {
        self.target != u32::MAX
            && self
                .bubble_list
                .iter()
                .any(|&b| self.is_empty(b) && self.wins_at(b, color))
    }

    /// Whether `color` has a point that wins at once.
    #[inline]
    #[must_use]
    pub fn has_win(&self, color: Color) -> bool {
        self.threat_count(color, Threat::Five) > 0 || self.may_win_by_bubbles(color)
    }

    /// The points where `color` wins at once (pushed onto `out`, without duplicates).
    pub fn win_points(&self, color: Color, out: &mut Vec<Idx>) {
        let start = out.len();
        let want = usize::from(self.threat_count(color, Threat::Five));
        let mut found = 0;
        if want > 0 {
            // Fives come from the last moves' lines; look there first, until all are
            // found.
            'near: for &m in self.history.iter().rev().take(2) {
                for &off in &DIR {
                    for o in -4..=4isize {
                        if found == want {
                            break 'near;
                        }
                        let j = (m as isize + off * o) as usize;
                        if o != 0
                            && self.is_empty(j)
                            && self.threat(j, color) == Threat::Five
                            && !out[start..].contains(&j)
                        {
                            out.push(j);
                            found += 1;
                        }
                    }
                }
            }
            if found < want {
                let mut scan = ThreatScan::new(self, color, &[Threat::Five]);
                while let Some(j) = scan.next(self) {
                    if !out[start..].contains(&j) {
                        out.push(j);
                    }
                }
            }
        }
        if self.target != u32::MAX {
            for &b in &self.bubble_list {
                if self.is_empty(b) && self.wins_at(b, color) && !out[start..].contains(&b) {
                    out.push(b);
                }
            }
        }
    }

    /// Whether the side to move may play the empty point `i`: never a forbidden point
    /// for Black under renju (unless it makes a five).
    #[inline]
    #[must_use]
    pub fn is_legal(&mut self, i: Idx) -> bool {
        self.is_legal_for(i, self.to_move)
    }

    /// Whether `color` may play the empty point `i`.
    #[must_use]
    pub fn is_legal_for(&mut self, i: Idx, color: Color) -> bool {
        if color == Color::White || self.rule != Rule::Renju {
            return true;
        }
        match self.threat(i, Color::Black) {
            Threat::Forbidden => false,
            Threat::Five => true,
            _ if self.points[i].check => !self.forbidden_exact(i),
            _ => true,
        }
    }

    /// The exact renju check (two open threes that may be false), cached by position.
    fn forbidden_exact(&mut self, i: Idx) -> bool {
        let key = self.hash.rotate_left(17) ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = (key as usize) & (FORBID_CACHE - 1);
        let entry = self.forbid_cache[slot];
        if entry | 1 == key | 1 && entry != 0 {
            return entry & 1 == 1;
        }
        let f = forbidden::forbidden_kind(&self.mirror, pos_of(i)).is_some();
        self.forbid_cache[slot] = (key & !1) | u64::from(f);
        f
    }

    /// Static evaluation for the side to move.
    #[must_use]
    pub fn evaluate(&self) -> i32 {
        self.evaluate_plus(0)
    }

    /// Whether Black's double threes are checked exactly ([`Board::evaluate_exact`],
    /// [`Board::exact_forbidden_for`]).
    pub fn set_exact_forbidden(&mut self, on: bool) {
        self.exact_forbidden = on;
    }

    /// Whether the defences against a four-three include the points that make its
    /// block a four of the defender's ([`crate::movegen::counter_block_points`]).
    pub fn set_counter_block(&mut self, on: bool) {
        self.counter_block = on;
    }

    /// See [`Board::set_counter_block`].
    #[must_use]
    pub fn counter_block(&self) -> bool {
        self.counter_block
    }

    /// Whether a four-three whose block makes a four of the defender's leaves the
    /// defender's moves unrestricted ([`crate::movegen::four_three_defused`]).
    pub fn set_defuse(&mut self, on: bool) {
        self.defuse = on;
    }

    /// See [`Board::set_defuse`].
    #[must_use]
    pub fn defuse(&self) -> bool {
        self.defuse
    }

    /// Whether the evaluation adds the threat-mask term ([`eval::mask`]), from the
    /// table that goes with the board's evaluation source.
    pub fn set_threat_mask(&mut self, on: bool) {
        self.mask = on.then(|| eval::mask::table_for(self.source == eval::Source::Alt));
    }

    /// Whether the evaluation adds the network's term ([`eval::net`], the network in
    /// use for the board's rule, [`Net::get`], if there is one). The sums are made from
    /// scratch here and kept from then on.
    pub fn set_net(&mut self, on: bool) {
        self.net = on.then(|| Net::get(self.rule)).flatten();
        self.net_sums = self
            .net
            .map_or([[0; 2 * net::WIDTH]; 2], |n| self.net_sums_from_scratch(n));
    }

    /// Whether the evaluation adds the network's term.
    #[must_use]
    pub fn net(&self) -> bool {
        self.net.is_some()
    }

    /// Stops (`true`) or resumes keeping the network's sums, and returns the old
    /// setting: for a search that never evaluates (the threat search), which undoes
    /// every move it makes before it resumes them, so the sums are right again then.
    pub fn freeze_net(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.net_frozen, on)
    }

    /// The empty points, counted.
    fn empty_count(&self) -> i32 {
        let n = self
            .on_board
            .iter()
            .filter(|&&i| self.cells[i] == pattern::EMPTY as u8)
            .count();
        i32::try_from(n).expect("at most 26 × 26 points")
    }

    /// Each colour's network sums over the empty points, from scratch.
    fn net_sums_from_scratch(&self, net: &Net) -> [ColorSums; 2] {
        let mut sums = [[0i32; 2 * net::WIDTH]; 2];
        for &i in &self.on_board {
            if self.cells[i] != pattern::EMPTY as u8 {
                continue;
            }
            let p = &self.points[i];
            for (c, sums) in sums.iter_mut().enumerate() {
                let row = net.row(self.class_of[c], p.net_slot(c));
                for (s, &r) in sums.iter_mut().zip(row) {
                    *s += i32::from(r);
                }
            }
        }
        sums
    }

    /// Whether the kept network sums and empty count are those made from scratch (for
    /// tests; true when no network is set).
    #[must_use]
    pub fn net_sums_hold(&self) -> bool {
        self.empties == self.empty_count()
            && self
                .net
                .is_none_or(|n| self.net_sums == self.net_sums_from_scratch(n))
    }

    /// Whether `color`'s double-three points need the exact check to count as threats:
    /// Black under renju, with the check switched on ([`Board::set_exact_forbidden`]).
    #[must_use]
    pub fn exact_forbidden_for(&self, color: Color) -> bool {
        self.exact_forbidden && self.rule == Rule::Renju && color == Color::Black
    }

    /// [`Board::evaluate`], with Black's points of two open threes (a double three, or
    /// with a four as well: a four-three-three, an open four with two threes) that the
    /// exact renju check finds forbidden valued as the forbidden points they are (under
    /// renju, when [`Board::set_exact_forbidden`] is on): the patterns alone take them for
    /// winning threats of Black's, when they are points Black may not play. (Until
    /// session 30 the check ran only when Black had a double-three or four-three point,
    /// so an open four with two threes alone went unchecked.)
    pub fn evaluate_exact(&mut self) -> i32 {
        let black = Color::Black.index();
        if !self.exact_forbidden_for(Color::Black)
            || self.threat_count[black][Threat::Flex3x2 as usize]
                + self.threat_count[black][Threat::Block4Flex3 as usize]
                + self.threat_count[black][Threat::Flex4 as usize]
                == 0
        {
            return self.evaluate();
        }
        let role = if self.to_move == Color::Black {
            eval::ROLE_MOVER
        } else {
            eval::ROLE_WAITER
        };
        let mut fix = 0;
        // A point that needs the check has one of these threats (two open threes of
        // Black's, with a four or not).
        let mut scan = ThreatScan::new(
            self,
            Color::Black,
            &[Threat::Flex3x2, Threat::Block4Flex3, Threat::Flex4],
        );
        while let Some(i) = scan.next(self) {
            if self.points[i].check && self.forbidden_exact(i) {
                let p = &self.points[i];
                fix += eval::forbidden_share(p.pat[black], self.source, role)
                    - i32::from(p.eval[black][role]);
            }
        }
        self.evaluate_plus(fix)
    }

    /// The static evaluation with `fix` sixteenths added to the pattern part.
    fn evaluate_plus(&self, fix: i32) -> i32 {
        let me = self.to_move;
        let mut v = (self.pattern_eval() + fix) / params::EVAL_SCALE;
        if let Some(net) = self.net {
            debug_assert!(
                !self.net_frozen,
                "an evaluation while the network's sums wait"
            );
            let (m, w) = (me.index(), me.opponent().index());
            v += net.output(
                (&self.net_sums[m][..net::WIDTH], self.class_of[m]),
                (&self.net_sums[w][net::WIDTH..], self.class_of[w]),
                self.empties,
                eval::mask::index(self),
            );
        }
        if self.target != u32::MAX {
            v += (self.held[me.index()] as i32 - self.held[me.opponent().index()] as i32) * 60;
        }
        v
    }

    /// The static evaluation's pattern part, in sixteenths ([`params::EVAL_SCALE`]):
    /// the points' shares by role plus the threat-presence terms.
    #[must_use]
    pub fn pattern_eval(&self) -> i32 {
        let me = self.to_move;
        let mut v = self.eval_sum[me.index()][eval::ROLE_MOVER]
            + self.eval_sum[me.opponent().index()][eval::ROLE_WAITER];
        if let Some(mask) = self.mask {
            v += i32::from(mask[eval::mask::index(self)]);
        }
        if !eval::THREAT_PRESENT_USED {
            return v;
        }
        for (role, color) in [(eval::ROLE_MOVER, me), (eval::ROLE_WAITER, me.opponent())] {
            for (t, &n) in self.threat_count[color.index()].iter().enumerate() {
                if n > 0 {
                    v += params::EVAL_THREAT_PRESENT[role][t];
                }
            }
        }
        v
    }

    /// Plays a stone of the side to move at the empty point `i`.
    pub fn play(&mut self, i: Idx) {
        let c = self.to_move;
        self.undo_log.push(Undo {
            saved_from: self.saved.len(),
            eval_sum: self.eval_sum,
            threat_count: self.threat_count,
            net_sums: self.net_sums,
        });
        self.save_lines(i);
        self.remove_point(i);
        self.set_cell(i, pattern::stone_code(c));
        self.hash ^= zobrist::key(pos_of(i), c);
        self.mirror.set(pos_of(i), Cell::stone(c));
        self.held[c.index()] += u32::from(self.bubbles[i]);
        self.adjust_candidates(i, 1);
        self.history.push(i);
        self.to_move = c.opponent();
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        let Some(i) = self.history.pop() else {
            return;
        };
        let c = self.to_move.opponent();
        self.to_move = c;
        self.adjust_candidates(i, -1);
        self.held[c.index()] -= u32::from(self.bubbles[i]);
        self.mirror.set(pos_of(i), Cell::Empty);
        self.hash ^= zobrist::key(pos_of(i), c);
        let u = self
            .undo_log
            .pop()
            .expect("every move of the history has its undo entry");
        for (&off, p) in LINE_OFFSETS.iter().zip(&self.saved[u.saved_from..]) {
            self.points[i.wrapping_add_signed(off)] = *p;
        }
        self.saved.truncate(u.saved_from);
        self.cells[i] = pattern::EMPTY as u8;
        self.eval_sum = u.eval_sum;
        self.threat_count = u.threat_count;
        self.net_sums = u.net_sums;
        self.empties += 1;
    }

    /// Saves the points whose line keys a stone at `i` changes ([`Board::set_cell`]'s).
    /// The stone is on the board, so all of them lie in the padded array; the list
    /// grows by one known length (one capacity check, not forty), and undo finds the
    /// points again by the same offsets.
    fn save_lines(&mut self, i: Idx) {
        let points = &self.points;
        self.saved.extend(
            LINE_OFFSETS
                .iter()
                .map(|&off| points[i.wrapping_add_signed(off)]),
        );
    }

    /// Plays a null move (passes).
    pub fn pass(&mut self) {
        self.to_move = self.to_move.opponent();
    }

    fn adjust_candidates(&mut self, i: Idx, delta: i8) {
        for dy in -2..=2isize {
            for dx in -2..=2isize {
                let j = (i as isize + dy * STRIDE as isize + dx) as usize;
                self.cand[j] = self.cand[j].wrapping_add_signed(delta);
            }
        }
        // Also the third point along the lines.
        for &off in &DIR {
            for o in [-3isize, 3] {
                let j = (i as isize + off * o) as usize;
                self.cand[j] = self.cand[j].wrapping_add_signed(delta);
            }
        }
    }

    /// Changes the cell `i` to `code`, updating the keys (and the patterns of empty
    /// points) within five cells along each line.
    fn set_cell(&mut self, i: Idx, code: u32) {
        let old = u32::from(self.cells[i]);
        self.cells[i] = code as u8;
        let table: &'static PatternTable = self.table;
        if let Some(tables) = table.ternary_tables() {
            self.set_cell_ternary(i, old, code, tables);
            return;
        }
        let delta = old ^ code;
        for (d, &off) in DIR.iter().enumerate() {
            for o in 1..=HALF as isize {
                for (j, rel) in [
                    (i as isize - off * o, o as i32),
                    (i as isize + off * o, -(o as i32)),
                ] {
                    if !(0..CELLS as isize).contains(&j) {
                        continue;
                    }
                    let j = j as usize;
                    let key = self.points[j].wide_key(d) ^ (delta << pattern::shift(rel));
                    self.points[j].set_wide_key(d, key);
                    if self.cells[j] == pattern::EMPTY as u8 {
                        let new = self.table.patterns(key);
                        for (c, &pat) in new.iter().enumerate() {
                            self.set_pattern(j, c, d, pat);
                        }
                    }
                }
            }
        }
    }

    /// [`Board::set_cell`] for ternary tables: per-colour keys and lookups. The cell is
    /// on the board, so every point within [`HALF`] of it lies in the padded array.
    fn set_cell_ternary(&mut self, i: Idx, old: u32, code: u32, tables: &[Vec<Pattern>; 2]) {
        let digit_delta = [
            pattern::ternary_digit(code, Color::Black) as i32
                - pattern::ternary_digit(old, Color::Black) as i32,
            pattern::ternary_digit(code, Color::White) as i32
                - pattern::ternary_digit(old, Color::White) as i32,
        ];
        for (d, &off) in DIR.iter().enumerate() {
            for o in 1..=HALF {
                for (j, rel) in [
                    (i as isize - off * o as isize, o as i32),
                    (i as isize + off * o as isize, -(o as i32)),
                ] {
                    debug_assert!((0..CELLS as isize).contains(&j));
                    let j = j as usize;
                    let place = pattern::POW3[(pattern::shift(rel) / 2) as usize] as i32;
                    let key = &mut self.points[j].key;
                    // Modulo 2^16: the sum is a ternary key, below 3^10.
                    let t = [
                        key[0][d].wrapping_add((digit_delta[0] * place) as u16),
                        key[1][d].wrapping_add((digit_delta[1] * place) as u16),
                    ];
                    key[0][d] = t[0];
                    key[1][d] = t[1];
                    if self.cells[j] == pattern::EMPTY as u8 {
                        self.set_pattern(j, 0, d, tables[0][t[0] as usize]);
                        self.set_pattern(j, 1, d, tables[1][t[1] as usize]);
                    }
                }
            }
        }
    }

    fn refresh_dir(&mut self, j: Idx, d: usize) {
        if self.table.is_ternary() {
            let t = self.points[j].key;
            let p = &mut self.points[j];
            p.pat[0][d] = self.table.by_ternary(Color::Black, u32::from(t[0][d]));
            p.pat[1][d] = self.table.by_ternary(Color::White, u32::from(t[1][d]));
            return;
        }
        let key = self.points[j].wide_key(d);
        let new = self.table.patterns(key);
        let p = &mut self.points[j];
        p.pat[0][d] = new[0];
        p.pat[1][d] = new[1];
    }

    fn refresh(&mut self, j: Idx) {
        for d in 0..4 {
            self.refresh_dir(j, d);
        }
        self.update_threat(j);
    }

    fn update_threat(&mut self, j: Idx) {
        let p = &mut self.points[j];
        p.combo = p.pat.map(|pats| eval::combo_index(pats) as u16);
        p.comb = p.combo.map(|index| self.slots[usize::from(index)]);
        let b = self.combos[0][usize::from(p.comb[0])];
        let w = self.combos[1][usize::from(p.comb[1])];
        p.threat = [b.threat, w.threat];
        p.check = b.check;
        p.value = [b.value, w.value];
        p.eval = [b.eval, w.eval];
    }

    /// Sets colour `c`'s line pattern in direction `d` at the empty point `j`; when it
    /// changes, the point's threat and values follow, and the sums and counts with them.
    /// The combination is found by the kept [`eval::combo_index`], not by reading the
    /// four patterns back: a four-byte load right after a one-byte store stalls on store
    /// forwarding, and this is the board's hottest path.
    #[inline]
    fn set_pattern(&mut self, j: Idx, c: usize, d: usize, pat: Pattern) {
        let p = &mut self.points[j];
        let old = p.pat[c][d];
        if pat == old {
            return;
        }
        p.pat[c][d] = pat;
        let index = (usize::from(p.combo[c]) + pat as usize * eval::COMBO_PLACE[d])
            - old as usize * eval::COMBO_PLACE[d];
        p.combo[c] = index as u16;
        let old_comb = usize::from(p.comb[c]);
        let comb = self.slots[index];
        p.comb[c] = comb;
        let comb = usize::from(comb);
        let old_threat = p.threat[c];
        let old_eval = p.eval[c];
        let k = self.combos[c][comb];
        p.threat[c] = k.threat;
        p.value[c] = k.value;
        p.eval[c] = k.eval;
        if c == 0 {
            p.check = k.check;
        }
        for (sum, (new, old)) in self.eval_sum[c]
            .iter_mut()
            .zip(k.eval.into_iter().zip(old_eval))
        {
            *sum += i32::from(new) - i32::from(old);
        }
        self.threat_count[c][old_threat as usize] -= 1;
        self.threat_count[c][k.threat as usize] += 1;
        if let Some(net) = self.net_kept() {
            self.net_move(
                net,
                c,
                combination_slot(old_comb, old_threat),
                combination_slot(comb, k.threat),
            );
        }
    }

    /// The network whose sums are kept now: set and not frozen (the callers look the
    /// slots up only then).
    #[inline]
    fn net_kept(&self) -> Option<&'static Net> {
        self.net.filter(|_| !self.net_frozen)
    }

    /// Moves colour `c`'s sums of `net` from slot `old` to slot `new` of its class.
    #[inline]
    fn net_move(&mut self, net: &Net, c: usize, old: usize, new: usize) {
        if old == new {
            return;
        }
        // Copies, so the compiler sees that the rows and the sums do not overlap and
        // adds them in vector registers.
        let from: RowValues = *net.row(self.class_of[c], old);
        let to: RowValues = *net.row(self.class_of[c], new);
        let mut sums = self.net_sums[c];
        for j in 0..2 * net::WIDTH {
            sums[j] += i32::from(to[j]) - i32::from(from[j]);
        }
        self.net_sums[c] = sums;
    }

    fn remove_point(&mut self, j: Idx) {
        let p = self.points[j];
        for c in 0..2 {
            for r in 0..2 {
                self.eval_sum[c][r] -= i32::from(p.eval[c][r]);
            }
            self.threat_count[c][p.threat[c] as usize] -= 1;
            if let Some(net) = self.net_kept() {
                self.net_move(net, c, p.net_slot(c), net.default_slot());
            }
        }
        self.empties -= 1;
    }

    fn add_point(&mut self, j: Idx) {
        let p = self.points[j];
        for c in 0..2 {
            for r in 0..2 {
                self.eval_sum[c][r] += i32::from(p.eval[c][r]);
            }
            self.threat_count[c][p.threat[c] as usize] += 1;
            if let Some(net) = self.net_kept() {
                self.net_move(net, c, net.default_slot(), p.net_slot(c));
            }
        }
        self.empties += 1;
    }
}

/// A hash of what the patterns depend on besides the stones.
fn config_salt(pos: &Position) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |v: u64| {
        h ^= v;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    mix(pos.rule() as u64);
    mix(u64::from(pos.k()));
    mix(u64::from(pos.size().width()) << 8 | u64::from(pos.size().height()));
    for p in pos.variant().walls().iter().chain(pos.variant().bubbles()) {
        mix(idx(*p) as u64);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::learned;
    use wuzi_rules::{GameConfig, notation};

    fn pos(rule: Rule, moves: &str) -> Position {
        let size = Size::STANDARD;
        let game = wuzi_rules::Game::from_moves(
            GameConfig::new(rule, size),
            &notation::parse_moves(moves, size).unwrap(),
        )
        .unwrap();
        Position::from_game(&game)
    }

    /// An empty point of `b`, drawn with `rng`.
    fn random_empty(b: &Board, rng: &mut wuzi_rules::random::SplitMix64) -> Idx {
        let empties: Vec<Idx> = b
            .points()
            .iter()
            .copied()
            .filter(|&i| b.is_empty(i))
            .collect();
        empties[rng.below(empties.len())]
    }

    /// Undoing a line of moves puts back every point, cell, sum and count exactly as
    /// they were (undo copies the saved points back rather than working them out).
    #[test]
    fn undo_restores_the_board_exactly() {
        let mut rng = wuzi_rules::random::SplitMix64::new(21);
        for rule in Rule::ALL {
            for learned in [false, true] {
                let mut b = Board::with_eval(&pos(rule, "h8 h9 i7"), learned);
                let start = b.clone();
                let mut line = Vec::new();
                for depth in 0..40 {
                    b.play(random_empty(&b, &mut rng));
                    line.push(b.clone());
                    // Back up a few plies now and then, as a search does.
                    if depth % 7 == 6 {
                        for _ in 0..3 {
                            b.undo();
                            line.pop();
                        }
                        assert_eq!(b.points, line.last().unwrap_or(&start).points);
                    }
                }
                while b.ply() > 0 {
                    b.undo();
                }
                assert_eq!(b.points, start.points, "{rule}");
                assert_eq!(b.cells, start.cells, "{rule}");
                assert_eq!(b.eval_sum, start.eval_sum, "{rule}");
                assert_eq!(b.threat_count, start.threat_count, "{rule}");
                assert_eq!(b.hash(), start.hash(), "{rule}");
                assert!(b.saved.is_empty() && b.undo_log.is_empty());
            }
        }
    }

    /// Incremental keys, patterns, sums and counts equal a board built from scratch,
    /// after random play and undo.
    #[test]
    fn incremental_equals_rebuilt() {
        let mut rng = wuzi_rules::random::SplitMix64::new(7);
        for rule in Rule::ALL {
            let mut p = pos(rule, "h8");
            let mut b = Board::with_eval(&p, false);
            let mut learned = Board::with_eval(&p, true);
            for step in 0..120 {
                if step % 5 == 4 && b.ply() > 0 {
                    b.undo();
                    learned.undo();
                    p = {
                        let mut q = pos(rule, "h8");
                        for &m in b.history() {
                            q.play(pos_of(m)).unwrap();
                        }
                        q
                    };
                } else {
                    let m = random_empty(&b, &mut rng);
                    b.play(m);
                    learned.play(m);
                    p.play(pos_of(m)).unwrap();
                }
                let fresh = Board::with_eval(&p, false);
                // The learned evaluation is the sum of its table over its features,
                // kept incrementally as well.
                let mut slots = Vec::new();
                learned::features(&mut learned, &mut slots);
                let table = learned::table();
                let sum: i32 = slots.iter().map(|&f| i32::from(table[f as usize])).sum();
                assert_eq!(learned.pattern_eval(), sum, "{rule} step {step}");
                let fresh_learned = Board::with_eval(&p, true);
                assert_eq!(
                    learned.eval_sum, fresh_learned.eval_sum,
                    "{rule} step {step}"
                );
                assert_eq!(b.hash(), fresh.hash(), "{rule} step {step}");
                assert_eq!(b.eval_sum, fresh.eval_sum, "{rule} step {step}\n{b:?}");
                // The tuner's linear model is the evaluation the search uses.
                let dot: i32 = eval::features(&b)
                    .iter()
                    .zip(eval::feature_weights())
                    .map(|(x, w)| x * w)
                    .sum();
                let leaf = if eval::threatened_leaf(&b) {
                    params::THREATENED_LEAF * params::EVAL_SCALE
                } else {
                    0
                };
                assert_eq!(dot, b.pattern_eval() + leaf, "{rule} step {step}\n{b:?}");
                assert_eq!(b.threat_count, fresh.threat_count, "{rule} step {step}");
                for &i in b.points() {
                    assert_eq!(b.points[i].key, fresh.points[i].key);
                    assert_eq!(b.cand[i] > 0, fresh.cand[i] > 0);
                    if b.is_empty(i) {
                        assert_eq!(b.points[i].threat, fresh.points[i].threat);
                    }
                }
            }
        }
    }

    /// The network's sums kept move by move equal those made from scratch, through
    /// random play, undo and threat searches (which stop keeping them while they play),
    /// under every rule and with walls; the evaluation equals a fresh board's.
    #[test]
    fn network_sums_equal_rebuilt() {
        let mut rng = wuzi_rules::random::SplitMix64::new(61);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let rocks = Variant::rock(Size::STANDARD, 5, 12);
        for (rule, variant) in Rule::ALL
            .into_iter()
            .map(|r| (r, Variant::Wood))
            .chain([(Rule::Renju, rocks)])
        {
            let mut config = GameConfig::new(rule, Size::STANDARD);
            config.variant = variant;
            let game = wuzi_rules::Game::new(config).unwrap();
            let mut p = Position::from_game(&game);
            let mut b = Board::with_eval(&p, true);
            b.set_net(true);
            assert!(b.net() && b.net_sums_hold());
            let mut term_seen = false;
            for step in 0..150 {
                if step % 6 == 5 && b.ply() > 0 {
                    b.undo();
                    p = Position::from_game(&game);
                    for &m in b.history() {
                        p.play(pos_of(m)).unwrap();
                    }
                } else {
                    let m = random_empty(&b, &mut rng);
                    b.play(m);
                    p.play(pos_of(m)).unwrap();
                }
                if step % 4 == 0 {
                    let mut solver = crate::threat::Solver::with_nodes(2_000, &stop);
                    solver.vcf(&mut b, 10, &mut Vec::new());
                    solver.vct(&mut b, 4, &mut Vec::new());
                    assert!(!b.freeze_net(false), "the solver resumes the sums");
                }
                assert!(b.net_sums_hold(), "{rule} step {step}");
                let mut fresh = Board::with_eval(&p, true);
                fresh.set_net(true);
                assert_eq!(b.evaluate(), fresh.evaluate(), "{rule} step {step}");
                fresh.set_net(false);
                term_seen |= b.evaluate() != fresh.evaluate();
            }
            assert!(
                term_seen,
                "{rule}: the network's term never changed the evaluation"
            );
        }
    }

    /// The sums hold what no `i16` can: under a network whose every slot but the
    /// default adds 31 to the mover's first sum (31,744 in the rows' units), the term is
    /// 31 for each empty point the side to move has a shape at, counted directly, at
    /// every step of a random game with take-backs. (Until session 62 the sums were
    /// `i16` and wrapped from the second such point on.)
    #[test]
    fn network_sums_do_not_wrap() {
        let mut rows = vec![0.0f32; (learned::FEATURES + eval::mask::FEATURES) * net::WIDTH];
        let default = net::default_slot();
        for class in 0..learned::CLASSES {
            for s in (0..learned::SLOTS).filter(|&s| s != default) {
                rows[learned::feature(class, eval::ROLE_MOVER, s) * net::WIDTH] = 31.0;
            }
        }
        let mut out = [0.0; net::WIDTH];
        out[0] = 1.0;
        let file = net::encode(&rows, &[0.0; net::WIDTH], &out);
        let net: &'static Net = Box::leak(Box::new(Net::parse(&file).unwrap()));
        let mut rng = wuzi_rules::random::SplitMix64::new(62);
        let game = wuzi_rules::Game::new(GameConfig::new(Rule::Freestyle, Size::STANDARD));
        let mut b = Board::with_eval(&Position::from_game(&game.unwrap()), true);
        b.net = Some(net);
        b.net_sums = b.net_sums_from_scratch(net);
        let mut most = 0;
        for step in 0..60 {
            if step % 5 == 4 {
                b.undo();
            } else {
                let m = random_empty(&b, &mut rng);
                b.play(m);
            }
            let me = b.to_move.index();
            let shaped = b
                .points()
                .iter()
                .filter(|&&i| b.is_empty(i))
                .map(|&i| &b.points[i])
                .filter(|p| p.net_slot(me) != default)
                .count();
            let with = b.evaluate();
            b.net = None;
            let without = b.evaluate();
            b.net = Some(net);
            assert_eq!(
                with - without,
                31 * i32::try_from(shaped).unwrap(),
                "step {step}"
            );
            most = most.max(shaped);
        }
        assert!(most > 30, "the game never had many shaped points: {most}");
    }

    #[test]
    fn threats_after_a_move() {
        // Black h8 i8 j8 k8 open four; white elsewhere.
        let p = pos(Rule::Freestyle, "h8 a1 i8 a2 j8 a3");
        let b = Board::new(&p);
        let g8 = idx(Size::STANDARD.parse_pos("g8").unwrap());
        let k8 = idx(Size::STANDARD.parse_pos("k8").unwrap());
        assert_eq!(b.threat(g8, Color::Black), Threat::Flex4);
        assert_eq!(b.threat(k8, Color::Black), Threat::Flex4);
        assert!(b.threat(g8, Color::White) < Threat::Flex3);
        let mut b2 = b.clone();
        b2.play(k8);
        assert_eq!(b2.threat(g8, Color::Black), Threat::Five);
        assert!(b2.has_win(Color::Black));
        let mut w = Vec::new();
        b2.win_points(Color::Black, &mut w);
        w.sort_unstable();
        let l8 = idx(Size::STANDARD.parse_pos("l8").unwrap());
        assert_eq!(w, vec![g8, l8]);
    }

    #[test]
    fn renju_forbidden_points_are_illegal_for_black() {
        // The Gomocup referee's check: g9 is a forbidden 3-3 for Black.
        let p = pos(Rule::Renju, "h8 h9 i7 i9 h10 i6 i11 i12");
        let mut b = Board::new(&p);
        let g9 = idx(Size::STANDARD.parse_pos("g9").unwrap());
        assert!(!b.is_legal(g9));
        let exact: Vec<Pos> = wuzi_rules::forbidden_points(p.board())
            .into_iter()
            .map(|f| f.0)
            .collect();
        for &i in &b.points().to_vec() {
            if b.is_empty(i) {
                assert_eq!(
                    b.is_legal(i),
                    !exact.contains(&pos_of(i)),
                    "{}",
                    Size::STANDARD.notation(pos_of(i))
                );
            }
        }
    }
    /// Under renju with the exact check on, the evaluation values every point the rules
    /// find forbidden for Black as forbidden, whatever threat its patterns make
    /// (double three, four-three-three, open four with two threes), and White is under
    /// threat exactly when Black has a threat point it may play. Random crowded
    /// positions, checked against the rules crate's forbidden points; the positions must
    /// include forbidden four-three-threes and open fours, which the patterns take for
    /// threats.
    #[test]
    fn the_exact_check_finds_every_forbidden_threat_point() {
        let mut rng = wuzi_rules::random::SplitMix64::new(30);
        let near_centre = |i: Idx| {
            let p = pos_of(i);
            p.x.abs_diff(7) <= 4 && p.y.abs_diff(7) <= 4
        };
        let mut forbidden_fours = 0;
        for source in [eval::Source::HandSet, eval::Source::Learned] {
            for game in 0..40 {
                let mut b = Board::with_source(&pos(Rule::Renju, "h8"), source);
                b.set_exact_forbidden(true);
                for _ in 0..50 {
                    let me = b.to_move();
                    let empties: Vec<Idx> = b
                        .points()
                        .iter()
                        .copied()
                        .filter(|&i| {
                            b.is_empty(i)
                                && near_centre(i)
                                && b.threat(i, me) != Threat::Five
                                && b.threat(i, me.opponent()) != Threat::Five
                        })
                        .collect();
                    if empties.is_empty() {
                        break;
                    }
                    b.play(empties[rng.below(empties.len())]);
                    let forbidden: Vec<Pos> = wuzi_rules::forbidden_points(&b.mirror)
                        .into_iter()
                        .map(|f| f.0)
                        .collect();
                    let role = if b.to_move() == Color::Black {
                        eval::ROLE_MOVER
                    } else {
                        eval::ROLE_WAITER
                    };
                    let mut fix = 0;
                    let mut black_threat = false;
                    for &i in &b.points().to_vec() {
                        if !b.is_empty(i) {
                            continue;
                        }
                        let t = b.threat(i, Color::Black);
                        let is_forbidden = forbidden.contains(&pos_of(i));
                        if is_forbidden && t != Threat::Forbidden {
                            let pats = [0, 1, 2, 3].map(|d| b.pattern(i, Color::Black, d));
                            fix += eval::forbidden_share(pats, source, role)
                                - b.point_eval(i, Color::Black, role);
                            if matches!(t, Threat::Flex4 | Threat::Block4Flex3) {
                                forbidden_fours += 1;
                            }
                        }
                        if !is_forbidden
                            && matches!(t, Threat::Flex4 | Threat::Block4Flex3 | Threat::Flex3x2)
                        {
                            black_threat = true;
                        }
                    }
                    assert_eq!(
                        b.evaluate_exact(),
                        (b.pattern_eval() + fix) / params::EVAL_SCALE,
                        "game {game}, {:?}",
                        b.history()
                    );
                    if b.to_move() == Color::White {
                        assert_eq!(
                            crate::movegen::under_threat_exact(&mut b),
                            black_threat,
                            "game {game}, {:?}",
                            b.history()
                        );
                    }
                }
            }
        }
        assert!(forbidden_fours > 0, "no forbidden four-three-three drawn");
    }

    /// Under renju with the exact check on, Black's forbidden double three (g9: the
    /// patterns make it two open threes) is valued as a forbidden point, not as the
    /// winning threat of Black's the patterns take it for, and does not threaten White;
    /// with the check off, and in freestyle, the evaluation is the plain one.
    #[test]
    fn the_exact_check_values_a_forbidden_double_three_as_forbidden() {
        let moves = "h8 h9 i7 i9 h10 i6 i11 i12";
        let g9 = idx(Size::STANDARD.parse_pos("g9").unwrap());
        for source in [eval::Source::HandSet, eval::Source::Learned] {
            let mut b = Board::with_source(&pos(Rule::Renju, moves), source);
            assert_eq!(b.threat(g9, Color::Black), Threat::Flex3x2);
            assert_eq!(b.threat_count(Color::Black, Threat::Flex3x2), 1);
            assert!(!b.is_legal(g9));
            let plain = b.evaluate();
            assert_eq!(b.evaluate_exact(), plain, "off: the plain evaluation");
            b.set_exact_forbidden(true);
            let pats = [0, 1, 2, 3].map(|d| b.pattern(g9, Color::Black, d));
            let share = b.point_eval(g9, Color::Black, eval::ROLE_MOVER);
            let forbidden = eval::forbidden_share(pats, source, eval::ROLE_MOVER);
            assert_eq!(
                b.evaluate_exact(),
                (b.pattern_eval() + forbidden - share) / params::EVAL_SCALE
            );
            if source == eval::Source::HandSet {
                assert!(
                    b.evaluate_exact() < plain,
                    "Black's forbidden point is no asset"
                );
            }
            // White to move: Black's only double three is forbidden, so no threat.
            b.pass();
            assert!(crate::movegen::under_threat(&b));
            assert!(!crate::movegen::under_threat_exact(&mut b));
            b.set_exact_forbidden(false);
            assert!(crate::movegen::under_threat_exact(&mut b));

            let mut free = Board::with_source(&pos(Rule::Freestyle, moves), source);
            free.set_exact_forbidden(true);
            assert_eq!(free.evaluate_exact(), free.evaluate());
        }
    }
}
