//! A first, plain alpha-beta search over the rules board (step 0 of the engine; the
//! pattern-based search replaces it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use wuzi_rules::board::DIRECTIONS;
use wuzi_rules::{Cell, Color, Pos};

use crate::{Position, Score, SearchInfo, SearchLimits, SearchResult};

const WIN: i32 = 1_000_000;
const WIDTH: usize = 10;

struct Ctx<'a> {
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    nodes: u64,
    max_nodes: u64,
    aborted: bool,
}

impl Ctx<'_> {
    fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.max_nodes
            || self.stop.load(Ordering::Relaxed)
            || (self.nodes.is_multiple_of(256)
                && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
        self.aborted
    }
}

/// A stone's line value: run length and open ends through `p` for `c`.
fn point_value(pos: &Position, p: Pos, c: Color) -> i32 {
    let b = pos.board();
    let mut total = 0;
    for d in DIRECTIONS {
        let (back, fwd) = b.run_through(p, d, c);
        let len = back + fwd + 1;
        let open = |n: usize, s: i32| {
            let x = i32::from(p.x) + s * d.0 * (n as i32 + 1);
            let y = i32::from(p.y) + s * d.1 * (n as i32 + 1);
            b.get_xy(x, y) == Some(Cell::Empty)
        };
        let opens = i32::from(open(back, -1)) + i32::from(open(fwd, 1));
        total += match (len, opens) {
            (l, _) if l >= 5 => 100_000,
            (4, 2) => 10_000,
            (4, 1) | (3, 2) => 1_000,
            (3, 1) | (2, 2) => 100,
            (2, 1) | (1, 2) => 10,
            _ => 1,
        };
    }
    total
}

fn candidates(pos: &Position) -> Vec<Pos> {
    let size = pos.size();
    if pos.stone_count() == 0 {
        let c = size.center();
        if pos.is_legal(c) {
            return vec![c];
        }
    }
    let b = pos.board();
    let near = |p: Pos| {
        (-2..=2).any(|dy| {
            (-2..=2).any(|dx| {
                b.get_xy(i32::from(p.x) + dx, i32::from(p.y) + dy)
                    .and_then(Cell::color)
                    .is_some()
            })
        })
    };
    let mut v: Vec<Pos> = size
        .points()
        .filter(|&p| b.is_empty(p) && near(p) && pos.is_legal(p))
        .collect();
    if v.is_empty() {
        v = pos.legal_moves();
    }
    v
}

fn ordered(pos: &Position) -> (Vec<Pos>, Option<Pos>) {
    let me = pos.to_move();
    let mut cands = candidates(pos);
    if let Some(&w) = cands.iter().find(|&&p| pos.is_win(p)) {
        return (vec![w], Some(w));
    }
    // The opponent's winning points must be blocked.
    let threats: Vec<Pos> = cands
        .iter()
        .copied()
        .filter(|&p| {
            pos.board()
                .winning_line(p, me.opponent(), pos.rule(), pos.k())
                .is_some()
        })
        .collect();
    if !threats.is_empty() {
        cands = threats;
    }
    let mut scored: Vec<(i32, Pos)> = cands
        .into_iter()
        .map(|p| {
            (
                point_value(pos, p, me) * 2 + point_value(pos, p, me.opponent()),
                p,
            )
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.truncate(WIDTH);
    (scored.into_iter().map(|s| s.1).collect(), None)
}

fn evaluate(pos: &Position) -> i32 {
    let (moves, _) = ordered(pos);
    let me = pos.to_move();
    let mine = moves
        .first()
        .map_or(0, |&p| point_value(pos, p, me).min(50_000));
    mine / 4
}

fn negamax(
    pos: &Position,
    depth: u32,
    ply: u32,
    mut alpha: i32,
    beta: i32,
    ctx: &mut Ctx,
    pv: &mut Vec<Pos>,
) -> i32 {
    ctx.nodes += 1;
    pv.clear();
    let (moves, win) = ordered(pos);
    if let Some(w) = win {
        pv.push(w);
        return WIN - ply as i32 - 1;
    }
    if moves.is_empty() {
        return if pos.legal_moves().is_empty() && pos.board().is_full() {
            0
        } else {
            -(WIN - ply as i32 - 2)
        };
    }
    if depth == 0 {
        return evaluate(pos);
    }
    let mut best = -WIN * 2;
    let mut child_pv = Vec::new();
    for m in moves {
        if ctx.out_of_time() {
            break;
        }
        let mut child = pos.clone();
        let _ = child.play(m);
        let v = -negamax(
            &child,
            depth - 1,
            ply + 1,
            -beta,
            -alpha,
            ctx,
            &mut child_pv,
        );
        if v > best {
            best = v;
            pv.clear();
            pv.push(m);
            pv.extend_from_slice(&child_pv);
        }
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn to_score(v: i32) -> Score {
    if v > WIN / 2 {
        Score::Win((WIN - v) as u32)
    } else if v < -WIN / 2 {
        Score::Loss((WIN + v) as u32)
    } else {
        Score::Eval(v)
    }
}

/// Iterative deepening over [`negamax`].
pub(crate) fn search(
    pos: &Position,
    limits: &SearchLimits,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let start = Instant::now();
    let mut budget = limits.time;
    if let Some(c) = limits.clock {
        let share = c.remaining / 20 + c.increment * 3 / 4;
        let share = share.min(c.remaining / 3);
        budget = Some(budget.map_or(share, |b| b.min(share)));
    }
    let deadline = budget.map(|b| start + b.saturating_sub(Duration::from_millis(5)));
    let mut ctx = Ctx {
        stop,
        deadline,
        nodes: 0,
        max_nodes: limits.nodes.unwrap_or(u64::MAX),
        aborted: false,
    };
    let (root_moves, _) = ordered(pos);
    let mut result = SearchResult {
        best: root_moves.first().copied(),
        score: Score::Eval(0),
        pv: root_moves.first().copied().into_iter().collect(),
        depth: 0,
        nodes: 0,
        time: Duration::ZERO,
    };
    if root_moves.len() <= 1 {
        if let Some(&m) = root_moves.first()
            && pos.is_win(m)
        {
            result.score = Score::Win(1);
        }
        result.time = start.elapsed();
        return result;
    }
    let max_depth = limits.depth.unwrap_or(64).clamp(1, 64);
    let mut pv = Vec::new();
    for depth in 1..=max_depth {
        let v = negamax(pos, depth, 0, -WIN * 2, WIN * 2, &mut ctx, &mut pv);
        if ctx.aborted && depth > 1 {
            break;
        }
        result.best = pv.first().copied().or(result.best);
        result.pv = pv.clone();
        result.score = to_score(v);
        result.depth = depth;
        let time = start.elapsed();
        on_info(&SearchInfo {
            depth,
            seldepth: depth,
            score: result.score,
            nodes: ctx.nodes,
            nps: (ctx.nodes as f64 / time.as_secs_f64().max(1e-6)) as u64,
            time,
            pv: pv.clone(),
            multipv: 1,
        });
        if result.score.is_decisive() || ctx.aborted {
            break;
        }
    }
    result.nodes = ctx.nodes;
    result.time = start.elapsed();
    result
}
