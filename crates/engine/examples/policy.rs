//! Fits the learned move-ordering policy ([`wuzi_engine::eval::policy`]) to the moves
//! of self-play records (`wuzi selfplay`): the search's own choices.
//!
//! ```text
//! cargo run --release -p wuzi-engine --example policy -- [--epochs N] [--sigma S] [--extra pair,ring1,ring2] [--from FILE] [--out DIR] FILES...
//! ```
//!
//! Every searched move of a game is a sample, unless the mover had to block a five
//! or had one move only: a softmax over the moves [`movegen::generate`] gives there
//! (what the search orders), its logits the sums of the policy's features. The loss
//! is the cross-entropy of the move played plus a Gaussian prior of spread `sigma`
//! logits around 0 (a slot seldom seen keeps about nothing). Every tenth game is held
//! out; the report compares its top-1 accuracy and the played move's mean rank with
//! the search's other orderings. Writes `policy-<checksum>.bin` (hundredths of a
//! logit, little-endian `i16`, by feature). `--extra` adds features the engine does
//! not have, to see what they would gain ([`EXTRA`]). `--from FILE` starts from the
//! values of a policy file instead of 0; with `--epochs 0` it reports how that table
//! orders the held-out moves.

use wuzi_engine::Position;
use wuzi_engine::board::{Board, STRIDE, idx};
use wuzi_engine::eval::{learned, policy};
use wuzi_engine::movegen;
use wuzi_engine::selfplay::Record;
use wuzi_rules::{Game, GameConfig};

/// Features per candidate: the policy's own, then the experimental extras
/// (`--extra`); [`NONE`] marks an extra left out.
const PER_CAND: usize = 5 + 3;
/// No feature.
const NONE: u16 = u16::MAX;
/// Extra features tried by `--extra` (values after [`policy::FEATURES`], in this order,
/// those used only): `pair`, the two place buckets together (10 × 10); `ring1`, own ×
/// opponent stones on the eight neighbours (9 × 9); `ring2`, own × opponent stones on
/// the sixteen points at distance 2, each count capped at 8 (9 × 9). The engine scores
/// none of them: they measure here whether more context would order better (results
/// in `weights/README.md`); a table fitted with them cannot be loaded.
const EXTRA: [(&str, usize); 3] = [("pair", 100), ("ring1", 81), ("ring2", 81)];

/// The extra features of the empty point `i` (see [`EXTRA`]), `on` saying which are
/// used.
fn extras(board: &Board, i: usize, on: [bool; 3]) -> [u16; 3] {
    let me = board.to_move();
    let mut start = policy::FEATURES;
    let mut out = [NONE; 3];
    let bucket = |m| policy::near_bucket(i, m);
    let ring = |r: isize| {
        let (mut own, mut opp) = (0usize, 0usize);
        for dy in -r..=r {
            for dx in -r..=r {
                if dx.abs().max(dy.abs()) != r {
                    continue;
                }
                let j = (i as isize + dy * STRIDE as isize + dx) as usize;
                match board.stone(j) {
                    Some(c) if c == me => own += 1,
                    Some(_) => opp += 1,
                    None => {}
                }
            }
        }
        own.min(8) * 9 + opp.min(8)
    };
    for (k, &(_, n)) in EXTRA.iter().enumerate() {
        if on[k] {
            let f = match k {
                0 => bucket(board.recent(0)) * 10 + bucket(board.recent(1)),
                1 => ring(1),
                _ => ring(2),
            };
            out[k] = (start + f) as u16;
            start += n;
        }
    }
    out
}

struct Sample {
    /// Each candidate's features.
    cands: Vec<[u16; PER_CAND]>,
    /// The move played, as an index into `cands`.
    played: usize,
}

/// A candidate's logit under the values `w`.
fn logit(w: &[f64], f: &[u16; PER_CAND]) -> f64 {
    f.iter()
        .filter(|&&k| k != NONE)
        .map(|&k| w[usize::from(k)])
        .sum()
}

/// Rank of the played move (0 = first) under the scores `s`.
fn rank(s: &[i32], played: usize) -> usize {
    s.iter().filter(|&&v| v > s[played]).count()
}

fn main() {
    let mut epochs: i32 = 300;
    let mut sigma = 3.0f64;
    let mut out_dir: Option<String> = None;
    let mut from: Option<String> = None;
    let mut extra = [false; 3];
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--epochs" => epochs = args.next().and_then(|v| v.parse().ok()).expect("--epochs"),
            "--sigma" => sigma = args.next().and_then(|v| v.parse().ok()).expect("--sigma"),
            "--out" => out_dir = args.next(),
            "--from" => from = args.next(),
            "--extra" => {
                let list = args.next().expect("--extra");
                for name in list.split(',') {
                    let k = EXTRA
                        .iter()
                        .position(|e| e.0 == name)
                        .expect("--extra name");
                    extra[k] = true;
                }
            }
            _ => files.push(a),
        }
    }
    let (mut train, mut test) = (Vec::new(), Vec::new());
    // Held-out ranks under the hand-set ordering and the evaluation's shares.
    let (mut r_hand, mut r_eval, mut top_hand, mut top_eval) = (0usize, 0usize, 0usize, 0usize);
    let mut games = 0;
    let mut cand = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("records");
        for line in text.lines() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let r: Record = line.parse().expect("record");
            games += 1;
            let held_out = games % 10 == 0;
            let game = Game::new(GameConfig::new(r.rule, r.size)).expect("game");
            let mut board = Board::with_eval(&Position::from_game(&game), true);
            for (&m, score) in r.moves.iter().zip(&r.scores) {
                let m = idx(m);
                let opp = board.to_move().opponent();
                if score.is_some() && !board.has_win(opp) {
                    movegen::generate(&mut board, &mut cand);
                    if let Some(played) = cand.iter().position(|&c| c == m)
                        && cand.len() >= 2
                    {
                        let cands = cand
                            .iter()
                            .map(|&c| {
                                let mut f = [NONE; PER_CAND];
                                for (k, x) in policy::features(&board, c).into_iter().enumerate() {
                                    f[k] = x as u16;
                                }
                                f[5..].copy_from_slice(&extras(&board, c, extra));
                                f
                            })
                            .collect();
                        if held_out {
                            let h: Vec<i32> = cand
                                .iter()
                                .map(|&c| movegen::order_score(&board, c))
                                .collect();
                            let e: Vec<i32> = cand
                                .iter()
                                .map(|&c| movegen::order_score_eval(&board, c))
                                .collect();
                            let (a, b) = (rank(&h, played), rank(&e, played));
                            r_hand += a;
                            r_eval += b;
                            top_hand += usize::from(a == 0);
                            top_eval += usize::from(b == 0);
                        }
                        let s = Sample { cands, played };
                        if held_out {
                            test.push(s);
                        } else {
                            train.push(s);
                        }
                    }
                }
                board.play(m);
            }
        }
    }
    let nt = test.len().max(1) as f64;
    eprintln!(
        "{games} games, {} samples ({} held out); held out, hand-set ordering: top-1 {:.3}, mean rank {:.2}; evaluation shares: top-1 {:.3}, mean rank {:.2}",
        train.len() + test.len(),
        test.len(),
        top_hand as f64 / nt,
        r_hand as f64 / nt,
        top_eval as f64 / nt,
        r_eval as f64 / nt
    );
    let n = policy::FEATURES
        + EXTRA
            .iter()
            .zip(extra)
            .filter(|(_, on)| *on)
            .map(|(e, _)| e.1)
            .sum::<usize>();
    let mut w = vec![0f64; n];
    if let Some(path) = from {
        let bytes = std::fs::read(&path).expect("--from");
        assert_eq!(
            bytes.len(),
            2 * policy::FEATURES,
            "--from: not a policy file"
        );
        for (v, c) in w.iter_mut().zip(bytes.chunks_exact(2)) {
            *v = f64::from(i16::from_le_bytes([c[0], c[1]])) / 100.0;
        }
    }
    let (mut m1, mut m2) = (vec![0f64; n], vec![0f64; n]);
    let (lr, b1, b2) = (0.05, 0.9, 0.999);
    let ntrain = train.len() as f64;
    let mut grad = vec![0f64; n];
    let mut z = Vec::new();
    for epoch in 0..epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let mut loss = 0.0;
        for s in &train {
            z.clear();
            z.extend(s.cands.iter().map(|f| logit(&w, f)));
            let mx = z.iter().copied().fold(f64::MIN, f64::max);
            let sum: f64 = z.iter().map(|v| (v - mx).exp()).sum();
            loss += sum.ln() + mx - z[s.played];
            for (j, f) in s.cands.iter().enumerate() {
                let p = (z[j] - mx).exp() / sum - f64::from(u8::from(j == s.played));
                for &k in f.iter().filter(|&&k| k != NONE) {
                    grad[usize::from(k)] += p;
                }
            }
        }
        let t = epoch + 1;
        for k in 0..n {
            let g = grad[k] / ntrain + w[k] / (sigma * sigma * ntrain);
            m1[k] = b1 * m1[k] + (1.0 - b1) * g;
            m2[k] = b2 * m2[k] + (1.0 - b2) * g * g;
            let mh = m1[k] / (1.0 - b1.powi(t));
            let vh = m2[k] / (1.0 - b2.powi(t));
            w[k] -= lr * mh / (vh.sqrt() + 1e-8);
        }
        if epoch % 50 == 0 || epoch + 1 == epochs {
            eprintln!("epoch {epoch}: train loss {:.4}", loss / ntrain);
        }
    }
    let (mut ce, mut top, mut rk) = (0.0, 0usize, 0usize);
    for s in &test {
        let z: Vec<f64> = s.cands.iter().map(|f| logit(&w, f)).collect();
        let mx = z.iter().copied().fold(f64::MIN, f64::max);
        let sum: f64 = z.iter().map(|v| (v - mx).exp()).sum();
        ce += sum.ln() + mx - z[s.played];
        let zi: Vec<i32> = z.iter().map(|v| (v * 100.0).round() as i32).collect();
        let r = rank(&zi, s.played);
        rk += r;
        top += usize::from(r == 0);
    }
    eprintln!(
        "held out, policy: cross-entropy {:.4}, top-1 {:.3}, mean rank {:.2}",
        ce / nt,
        top as f64 / nt,
        rk as f64 / nt
    );
    eprintln!(
        "place from the last move: {:?}",
        (0..policy::NEAR_BUCKETS)
            .map(|b| (w[policy::NEAR_START + b] * 100.0).round() as i32)
            .collect::<Vec<_>>()
    );
    if let Some(dir) = out_dir {
        let bytes: Vec<u8> = w
            .iter()
            .flat_map(|&v| ((v * 100.0).round().clamp(-32000.0, 32000.0) as i16).to_le_bytes())
            .collect();
        let path = format!("{dir}/policy-{:016x}.bin", learned::checksum(&bytes));
        std::fs::write(&path, &bytes).expect("write");
        println!("{path}");
    }
}
