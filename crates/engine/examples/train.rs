//! Fits the learned evaluation ([`wuzi_engine::eval::learned`]) to self-play records
//! (`wuzi selfplay`).
//!
//! ```text
//! cargo run --release -p wuzi-engine --example train -- [OPTIONS] FILES...
//!   --alpha A    weight of the game result in the target (default 0.5; the rest is
//!                the search's score)
//!   --renju-alpha A  the same weight for renju games alone (default: --alpha)
//!   --sigma S    spread of the prior around the hand-set values, evaluation units
//!                (default 40)
//!   --epochs N   full-batch Adam steps (default 300)
//!   --rules R    only games of these rules, comma-separated (default: all)
//!   --out DIR    write the table there as eval-<checksum>.bin
//!   --prior      write the hand-set table (no fit)
//!   --mask       fit the threat-mask term ([`eval::mask`]) alone, the points' shares
//!                fixed at the table in use; writes mask-<checksum>.bin
//!   --joint      fit the points' shares and the threat mask together; writes both
//!   --mask-sigma S  spread of the mask values' prior around 0 (default 20)
//!   --from-tables  start from the tables in use (shares and mask; with
//!                `WUZI_EVAL_WEIGHTS`, `WUZI_EVAL_MASK` any pair), and pull towards
//!                them; with `--epochs 0` this reports a pair's losses on the data
//!   --widen FILE write the mask table FILE of the six-bit layout ([`eval::mask::widen`])
//!                in today's layout (no fit)
//!   --exact-forbidden  renju: Black's double threes that the exact check finds
//!                forbidden are forbidden points, as the engine's `rforbid` switch
//!                evaluates them
//!   --net        fit the network ([`eval::net`]) beside the tables in use, which stay
//!                as they are; writes net-<checksum>.bin
//!   --net-epochs N  passes over the data (default 10; the rate falls to 0.3 of itself
//!                for the last third)
//!   --net-lr R   Adam's rate for the network (default 0.001)
//!   --net-decay D  weight decay of the rows (default 0)
//!   --seed S     the network's random start (default 12345)
//!   --net-from FILE  start the network from FILE (a network file, e.g. the shipped
//!                one) instead of a random start; its rows no training position has
//!                keep their values. So a fit can add new games to what a network
//!                learnt from games no longer at hand
//!   --net-rows-only  with --net-from: fit only the rows, the bias and output weights
//!                kept as the file has them; with --rules, the other rules' rows are
//!                then untouched too, so their evaluation stays exactly the file's
//! ```
//!
//! Every position of a game from its first searched move on is a sample when a search
//! would score it statically ([`eval::is_quiet`]). Its target for the side to move is
//! `alpha · result + (1 − alpha) · sigmoid(score / K)`, the result 1, ½ or 0 and
//! `score` the self-play search's score of that position (a proven win 1, a loss 0):
//! the search's score looks deeper than the evaluation, and unlike the result of a
//! game between shallow searches it does not credit holding a shape the search would
//! rather keep in hand. The model is `sigmoid(eval / K)` with `eval` the sum of the
//! table over [`eval::learned::features`] plus the fixed threatened-leaf term; `K` is
//! the scale at which the hand-set evaluation predicts the results best, kept so the
//! fitted values stay in the search's units (margins, windows). The loss is the
//! cross-entropy plus a Gaussian prior (spread `sigma`) around the hand-set values, so
//! a combination seldom seen keeps about its hand-set value. Every tenth game is held
//! out to check the fit.
//!
//! With `--net` the model is that sum plus the network's term ([`eval::net`]) and only
//! the network is fitted, by minibatch Adam (256 positions a batch) on the same
//! cross-entropy; its rows start small and random, and the rows of features no
//! training position has are zero in the file.

use wuzi_engine::board::{Board, idx};
use wuzi_engine::eval::{self, learned, mask, net};
use wuzi_engine::params::{EVAL_SCALE, THREATENED_LEAF};
use wuzi_engine::selfplay::Record;
use wuzi_engine::{Position, Score};
use wuzi_rules::{Game, GameConfig, Rule};

/// One position: its features (learned-table slots, with repeats) and target.
struct Sample {
    slots: Vec<(u32, f32)>,
    /// The threat mask's place ([`mask::index`]), after the slots in the weights.
    mask: u32,
    /// The fixed part of the evaluation (the threatened-leaf term), evaluation units.
    offset: f32,
    /// The blended target and the game result alone, for the side to move.
    target: f32,
    result: f32,
    /// The search's win probability, before blending (for the report).
    score_p: Option<f32>,
}

#[derive(Clone)]
struct Options {
    alpha: f32,
    renju_alpha: Option<f32>,
    sigma: f64,
    epochs: usize,
    rules: Option<Vec<Rule>>,
    out: Option<String>,
    prior_only: bool,
    exact_forbidden: bool,
    mask: bool,
    joint: bool,
    mask_sigma: f64,
    from_tables: bool,
    widen: Option<String>,
    net: bool,
    net_epochs: usize,
    net_lr: f32,
    net_decay: f32,
    seed: u64,
    net_from: Option<String>,
    net_rows_only: bool,
    files: Vec<String>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        alpha: 0.5,
        renju_alpha: None,
        sigma: 40.0,
        epochs: 300,
        rules: None,
        out: None,
        prior_only: false,
        exact_forbidden: false,
        mask: false,
        joint: false,
        mask_sigma: 20.0,
        from_tables: false,
        widen: None,
        net: false,
        net_epochs: 10,
        net_lr: 0.001,
        net_decay: 0.0,
        seed: 12345,
        net_from: None,
        net_rows_only: false,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--alpha" => o.alpha = value("--alpha")?.parse().map_err(|_| "bad --alpha")?,
            "--renju-alpha" => {
                o.renju_alpha = Some(
                    value("--renju-alpha")?
                        .parse()
                        .map_err(|_| "bad --renju-alpha")?,
                );
            }
            "--sigma" => o.sigma = value("--sigma")?.parse().map_err(|_| "bad --sigma")?,
            "--epochs" => o.epochs = value("--epochs")?.parse().map_err(|_| "bad --epochs")?,
            "--rules" => {
                let r: Result<Vec<Rule>, _> =
                    value("--rules")?.split(',').map(str::parse).collect();
                o.rules = Some(r.map_err(|_| "bad --rules")?);
            }
            "--out" => o.out = Some(value("--out")?),
            "--prior" => o.prior_only = true,
            "--exact-forbidden" => o.exact_forbidden = true,
            "--mask" => o.mask = true,
            "--joint" => o.joint = true,
            "--from-tables" => o.from_tables = true,
            "--widen" => o.widen = Some(value("--widen")?),
            "--net" => o.net = true,
            "--net-epochs" => {
                o.net_epochs = value("--net-epochs")?
                    .parse()
                    .map_err(|_| "bad --net-epochs")?;
            }
            "--net-lr" => o.net_lr = value("--net-lr")?.parse().map_err(|_| "bad --net-lr")?,
            "--net-decay" => {
                o.net_decay = value("--net-decay")?
                    .parse()
                    .map_err(|_| "bad --net-decay")?;
            }
            "--seed" => o.seed = value("--seed")?.parse().map_err(|_| "bad --seed")?,
            "--net-from" => o.net_from = Some(value("--net-from")?),
            "--net-rows-only" => o.net_rows_only = true,
            "--mask-sigma" => {
                o.mask_sigma = value("--mask-sigma")?
                    .parse()
                    .map_err(|_| "bad --mask-sigma")?;
            }
            _ => o.files.push(a),
        }
    }
    if o.net_rows_only && o.net_from.is_none() {
        return Err("--net-rows-only needs --net-from (a random start's output is zero)".into());
    }
    Ok(o)
}

fn main() {
    if let Err(e) = run() {
        eprintln!("train: {e}");
        std::process::exit(2);
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The samples of the records in `files` (training, held out).
fn load(o: &Options, k_guess: f64) -> Result<(Vec<Sample>, Vec<Sample>, usize), String> {
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let mut games = 0;
    let mut buf = Vec::new();
    for f in &o.files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        for line in text.lines() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let r: Record = line.parse().map_err(|e| format!("{f}: {e}"))?;
            if o.rules.as_ref().is_some_and(|rs| !rs.contains(&r.rule)) {
                continue;
            }
            games += 1;
            let out = if games % 10 == 0 {
                &mut test
            } else {
                &mut train
            };
            let alpha = match (r.rule, o.renju_alpha) {
                (Rule::Renju, Some(a)) => a,
                _ => o.alpha,
            };
            let game = Game::new(GameConfig::new(r.rule, r.size)).map_err(|e| e.to_string())?;
            let mut board = Board::with_eval(&Position::from_game(&game), false);
            board.set_exact_forbidden(o.exact_forbidden);
            for (&m, &score) in r.moves.iter().zip(&r.scores) {
                if let Some(score) = score
                    && eval::is_quiet(&board)
                {
                    let me = board.to_move();
                    let result = match r.winner {
                        Some(w) if w == me => 1.0,
                        Some(_) => 0.0,
                        None => 0.5,
                    };
                    let score_p = match score {
                        Score::Win(_) => 1.0,
                        Score::Loss(_) => 0.0,
                        Score::Eval(v) => sigmoid(f64::from(v) / k_guess) as f32,
                    };
                    buf.clear();
                    learned::features(&mut board, &mut buf);
                    buf.sort_unstable();
                    let mut slots: Vec<(u32, f32)> = Vec::new();
                    for &s in &buf {
                        match slots.last_mut() {
                            Some((last, n)) if *last == s => *n += 1.0,
                            _ => slots.push((s, 1.0)),
                        }
                    }
                    let offset = if eval::threatened_leaf_exact(&mut board) {
                        THREATENED_LEAF as f32
                    } else {
                        0.0
                    };
                    out.push(Sample {
                        slots,
                        mask: (learned::FEATURES + mask::index(&board)) as u32,
                        offset,
                        target: alpha * result + (1.0 - alpha) * score_p,
                        result,
                        score_p: Some(score_p),
                    });
                }
                board.play(idx(m));
            }
        }
    }
    Ok((train, test, games))
}

/// The evaluation of a sample under weights `w` (evaluation units).
fn eval_of(s: &Sample, w: &[f64]) -> f64 {
    f64::from(s.offset)
        + w[s.mask as usize]
        + s.slots
            .iter()
            .map(|&(i, n)| w[i as usize] * f64::from(n))
            .sum::<f64>()
}

/// Mean cross-entropy of the predictions against the blended targets, and against the
/// results alone.
fn losses(samples: &[Sample], w: &[f64], k: f64) -> (f64, f64) {
    let (mut l, mut lr) = (0.0, 0.0);
    let ce = |y: f64, p: f64| -(y * p.ln() + (1.0 - y) * (1.0 - p).ln());
    for s in samples {
        let p = sigmoid(eval_of(s, w) / k).clamp(1e-9, 1.0 - 1e-9);
        l += ce(f64::from(s.target), p);
        lr += ce(f64::from(s.result), p);
    }
    let n = samples.len().max(1) as f64;
    (l / n, lr / n)
}

fn run() -> Result<(), String> {
    let o = options()?;
    let unit = f64::from(EVAL_SCALE);
    let prior = learned::prior();
    let mut w0: Vec<f64> = prior.iter().map(|&v| f64::from(v) / unit).collect();
    if o.mask || o.net {
        // The points' shares are the table in use, held fixed.
        w0 = learned::table()
            .iter()
            .map(|&v| f64::from(v) / unit)
            .collect();
    }
    w0.resize(learned::FEATURES + mask::FEATURES, 0.0);
    // The scale `K` is found with these starting values, so that `--from-tables` reports
    // losses at the same scale as a joint fit on the same data.
    let w_scale = w0.clone();
    if o.from_tables || o.net {
        let shares = learned::table().iter();
        for (w, &v) in w0.iter_mut().zip(shares.chain(mask::table())) {
            *w = f64::from(v) / unit;
        }
    }
    if let Some(f) = &o.widen {
        let bytes = std::fs::read(f).map_err(|e| format!("{f}: {e}"))?;
        let six: Vec<i16> = bytes
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let wide = mask::widen(&six);
        return write(
            &o,
            &wide.iter().map(|&v| i32::from(v)).collect::<Vec<_>>(),
            "mask",
        );
    }
    // Which weights the fit moves: the shares, or with --mask the mask values alone.
    let fitted = |i: usize| o.joint || (i >= learned::FEATURES) == o.mask;
    if o.prior_only {
        return write(&o, &prior, "eval");
    }
    if o.files.is_empty() {
        return Err("give files of `wuzi selfplay` records".into());
    }
    let started = std::time::Instant::now();
    // The scale at which the hand-set evaluation predicts the results best.
    let (probe, _, _) = load(
        &Options {
            alpha: 1.0,
            renju_alpha: None,
            ..o.clone()
        },
        400.0,
    )?;
    let mut k = 400.0;
    let mut best = f64::INFINITY;
    for cand in (50..=2000).step_by(25) {
        let l = losses(&probe, &w_scale, f64::from(cand)).1;
        if l < best {
            best = l;
            k = f64::from(cand);
        }
    }
    drop(probe);
    let (samples, held_out, games) = load(&o, k)?;
    let n = samples.len();
    let nnz: usize = samples.iter().map(|s| s.slots.len()).sum();
    eprintln!(
        "{games} games, {n} positions ({} held out), {nnz} slot counts; scale K = {k}, alpha {}{}, sigma {}",
        held_out.len(),
        o.alpha,
        o.renju_alpha
            .map_or(String::new(), |a| format!(" (renju {a})")),
        o.sigma
    );
    let agree = held_out
        .iter()
        .filter_map(|s| s.score_p.map(|p| (p > 0.5) == (s.result > 0.5)))
        .filter(|&b| b)
        .count();
    eprintln!(
        "held out: the search's score picks the winner in {:.1}% of positions",
        100.0 * agree as f64 / held_out.len().max(1) as f64
    );
    let report = |w: &[f64], what: &str| {
        let (lt, lr) = losses(&samples, w, k);
        let (ht, hr) = losses(&held_out, w, k);
        eprintln!("{what}: loss {lt:.5} (results {lr:.5}); held out {ht:.5} (results {hr:.5})");
    };
    if o.net {
        report(&w0, "tables in use");
        return fit_net(&o, &w0, samples, &held_out, k as f32, started);
    }
    report(
        &w0,
        if o.from_tables {
            "tables in use"
        } else {
            "hand-set"
        },
    );
    // Full-batch Adam on cross-entropy + prior.
    let m = w0.len();
    let mut w = w0.clone();
    let (mut m1, mut m2) = (vec![0.0; m], vec![0.0; m]);
    let lr = 1.0;
    let prior_pull = 1.0 / (n as f64 * o.sigma * o.sigma);
    let mask_pull = 1.0 / (n as f64 * o.mask_sigma * o.mask_sigma);
    for step in 1..=o.epochs {
        let mut g = vec![0.0; m];
        for s in &samples {
            let e = sigmoid(eval_of(s, &w) / k) - f64::from(s.target);
            for &(i, c) in &s.slots {
                g[i as usize] += e * f64::from(c) / k;
            }
            g[s.mask as usize] += e / k;
        }
        for i in (0..m).filter(|&i| fitted(i)) {
            let pull = if i < learned::FEATURES {
                prior_pull
            } else {
                mask_pull
            };
            let gi = g[i] / n as f64 + pull * (w[i] - w0[i]);
            m1[i] = 0.9 * m1[i] + 0.1 * gi;
            m2[i] = 0.999 * m2[i] + 0.001 * gi * gi;
            let mh = m1[i] / (1.0 - 0.9f64.powi(step as i32));
            let vh = m2[i] / (1.0 - 0.999f64.powi(step as i32));
            w[i] -= lr * mh / (vh.sqrt() + 1e-9);
        }
        if step % 50 == 0 || step == o.epochs {
            report(&w, &format!("step {step}"));
        }
    }
    eprintln!("fitted in {:.0} s", started.elapsed().as_secs_f64());
    // The combinations that moved most, among those seen often.
    let mut seen = vec![0.0f64; m];
    for s in &samples {
        for &(i, c) in &s.slots {
            seen[i as usize] += f64::from(c);
        }
        seen[s.mask as usize] += 1.0;
    }
    if o.mask {
        let mut masks: Vec<usize> = (learned::FEATURES..m)
            .filter(|&i| seen[i] >= 50.0)
            .collect();
        masks.sort_by(|&a, &b| w[b].abs().total_cmp(&w[a].abs()));
        for &i in masks.iter().take(30) {
            let x = i - learned::FEATURES;
            let (class, mover, waiter) = (
                x / mask::MASKS,
                x % (1 << mask::SIDE_BITS),
                (x % mask::MASKS) >> mask::SIDE_BITS,
            );
            println!(
                "{} mover {mover:07b} waiter {waiter:07b} seen {:>7.0}  {:>7.1}",
                ["free ", "renju black to move", "renju white to move"][class],
                seen[i],
                w[i]
            );
        }
        return write(&o, &sixteenths(&w[learned::FEATURES..]), "mask");
    }
    let mut moved: Vec<usize> = (0..learned::FEATURES)
        .filter(|&i| seen[i] >= 1000.0)
        .collect();
    moved.sort_by(|&a, &b| (w[b] - w0[b]).abs().total_cmp(&(w[a] - w0[a]).abs()));
    for &i in moved.iter().take(25) {
        let (class, role, s) = (
            i / learned::SLOTS / 2,
            i / learned::SLOTS % 2,
            i % learned::SLOTS,
        );
        let what = if s == learned::FORBIDDEN_SLOT {
            "forbidden".to_string()
        } else {
            format!("{:?}", learned::representative(s))
        };
        println!(
            "{}{} {what:<50} seen {:>9.0}  {:>7.1} -> {:>7.1}",
            ["", "renju black ", "renju white "][class],
            ["mover ", "waiter"][role],
            seen[i],
            w0[i],
            w[i]
        );
    }
    if o.joint {
        write(&o, &sixteenths(&w[learned::FEATURES..]), "mask")?;
    }
    write(&o, &sixteenths(&w[..learned::FEATURES]), "eval")
}

/// Fitted weights (evaluation units) as a table's values, in sixteenths.
fn sixteenths(w: &[f64]) -> Vec<i32> {
    w.iter()
        .map(|&v| (v * f64::from(EVAL_SCALE)).round() as i32)
        .collect()
}

/// Writes `table` as a weights file named `<kind>-<checksum>.bin` into `--out` (if
/// given).
fn write(o: &Options, table: &[i32], kind: &str) -> Result<(), String> {
    write_bytes(o, &learned::encode(table), kind)
}

/// Writes `bytes` as a file named `<kind>-<checksum>.bin` into `--out` (if given).
fn write_bytes(o: &Options, bytes: &[u8], kind: &str) -> Result<(), String> {
    let name = format!("{kind}-{:016x}.bin", learned::checksum(bytes));
    if let Some(dir) = &o.out {
        let path = std::path::Path::new(dir).join(&name);
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    } else {
        eprintln!("(not written: no --out) {name}");
    }
    Ok(())
}

/// A pseudo-random stream (splitmix64) for the network's start and the batches.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Adam's moments for a block of weights.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step; weights whose gradient and moment are both zero (rows no position of
    /// the batch has, never seen yet) are left alone.
    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32) {
        self.t += 1;
        let b1 = 1.0 - 0.9f32.powi(self.t);
        let b2 = 1.0 - 0.999f32.powi(self.t);
        for i in 0..w.len() {
            if g[i] == 0.0 && self.m[i] == 0.0 {
                continue;
            }
            self.m[i] = 0.9 * self.m[i] + 0.1 * g[i];
            self.v[i] = 0.999 * self.v[i] + 0.001 * g[i] * g[i];
            w[i] -= lr * (self.m[i] / b1) / ((self.v[i] / b2).sqrt() + 1e-8);
        }
    }
}

/// The network's weights while it is fitted: `rows` by feature (the tables' features,
/// then the masks), [`net::WIDTH`] each; `out` in units of [`NET_OUT`].
struct NetModel {
    rows: Vec<f32>,
    bias: Vec<f32>,
    out: Vec<f32>,
}

/// The output weights are fitted in units of this many evaluation units, so that all
/// weights start at about the same size.
const NET_OUT: f32 = 100.0;

impl NetModel {
    /// The sums before the ReLU, into `a`.
    fn sums(&self, s: &Sample, a: &mut [f32]) {
        a.copy_from_slice(&self.bias);
        for &(i, n) in s.slots.iter().chain(std::iter::once(&(s.mask, 1.0))) {
            let row = &self.rows[i as usize * net::WIDTH..][..net::WIDTH];
            for (a, &r) in a.iter_mut().zip(row) {
                *a += n * r;
            }
        }
    }

    /// The network's term, evaluation units; `a` gets the sums.
    fn term(&self, s: &Sample, a: &mut [f32]) -> f32 {
        self.sums(s, a);
        NET_OUT
            * a.iter()
                .zip(&self.out)
                .map(|(&a, &v)| v * a.max(0.0))
                .sum::<f32>()
    }
}

/// Fits the network beside the tables `w` (held fixed) and writes it.
fn fit_net(
    o: &Options,
    w: &[f64],
    mut samples: Vec<Sample>,
    held_out: &[Sample],
    k: f32,
    started: std::time::Instant,
) -> Result<(), String> {
    let d = net::WIDTH;
    let nf = learned::FEATURES + mask::FEATURES;
    // The tables' part of each position's evaluation, which the fit does not move.
    let base = |s: &Sample| eval_of(s, w) as f32;
    let mut rng = Rng(o.seed);
    let mut m = match &o.net_from {
        None => NetModel {
            rows: (0..nf * d).map(|_| (rng.unit() - 0.5) * 0.1).collect(),
            bias: vec![0.0; d],
            out: vec![0.0; d],
        },
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            let (rows, bias, out) = net::Net::parse(&bytes)
                .map_err(|e| format!("{path}: {e}"))?
                .weights();
            NetModel {
                rows,
                bias,
                out: out.iter().map(|&v| v / NET_OUT).collect(),
            }
        }
    };
    let losses = |m: &NetModel, set: &[Sample]| {
        let mut a = vec![0.0; d];
        let (mut l, mut lr) = (0.0, 0.0);
        let ce = |y: f64, p: f64| -(y * p.ln() + (1.0 - y) * (1.0 - p).ln());
        for s in set {
            let z = base(s) + m.term(s, &mut a);
            let p = sigmoid(f64::from(z / k)).clamp(1e-9, 1.0 - 1e-9);
            l += ce(f64::from(s.target), p);
            lr += ce(f64::from(s.result), p);
        }
        let n = set.len().max(1) as f64;
        (l / n, lr / n)
    };
    let (mut ad_rows, mut ad_bias, mut ad_out) = (Adam::new(nf * d), Adam::new(d), Adam::new(d));
    let (mut g_rows, mut g_bias, mut g_out) = (vec![0.0; nf * d], vec![0.0; d], vec![0.0; d]);
    // A row is written as fitted if a training position has it, or if the start
    // gave it a value (a row of the network started from).
    let mut seen: Vec<bool> = (0..nf)
        .map(|i| o.net_from.is_some() && m.rows[i * d..][..d].iter().any(|&r| r != 0.0))
        .collect();
    let (ht, hr) = losses(&m, held_out);
    eprintln!("start: held out {ht:.5} (results {hr:.5})");
    let mut touched: Vec<u32> = Vec::new();
    let mut a = vec![0.0; d];
    let bases: Vec<f32> = samples.iter().map(base).collect();
    let mut order: Vec<usize> = (0..samples.len()).collect();
    for epoch in 1..=o.net_epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next() % (i as u64 + 1)) as usize);
        }
        let lr = o.net_lr
            * if epoch > o.net_epochs * 2 / 3 {
                0.3
            } else {
                1.0
            };
        for batch in order.chunks(256) {
            touched.clear();
            for &n in batch {
                let s = &samples[n];
                let z = bases[n] + m.term(s, &mut a);
                let dz = (sigmoid(f64::from(z / k)) as f32 - s.target) / k / batch.len() as f32;
                for j in 0..d {
                    g_out[j] += dz * NET_OUT * a[j].max(0.0);
                    if a[j] > 0.0 {
                        let da = dz * NET_OUT * m.out[j];
                        g_bias[j] += da;
                        for &(i, c) in s.slots.iter().chain(std::iter::once(&(s.mask, 1.0))) {
                            g_rows[i as usize * d + j] += da * c;
                        }
                    }
                }
                touched.extend(s.slots.iter().map(|&(i, _)| i));
                touched.push(s.mask);
            }
            touched.sort_unstable();
            touched.dedup();
            for &i in &touched {
                let i = i as usize;
                seen[i] = true;
                for j in 0..d {
                    g_rows[i * d + j] += o.net_decay * m.rows[i * d + j];
                }
            }
            ad_rows.step(&mut m.rows, &g_rows, lr);
            if !o.net_rows_only {
                ad_bias.step(&mut m.bias, &g_bias, lr);
                ad_out.step(&mut m.out, &g_out, lr);
            }
            for &i in &touched {
                g_rows[i as usize * d..][..d].fill(0.0);
            }
            g_bias.fill(0.0);
            g_out.fill(0.0);
        }
        let (ht, hr) = losses(&m, held_out);
        eprintln!(
            "epoch {epoch}: held out {ht:.5} (results {hr:.5}) [{:.0} s]",
            started.elapsed().as_secs_f64()
        );
    }
    samples.clear();
    for (i, _) in seen.iter().enumerate().filter(|(_, s)| !**s) {
        m.rows[i * d..][..d].fill(0.0);
    }
    let (ht, hr) = losses(&m, held_out);
    eprintln!(
        "unseen rows zeroed ({} of {nf}): held out {ht:.5} (results {hr:.5})",
        seen.iter().filter(|s| !**s).count()
    );
    let out: Vec<f32> = m.out.iter().map(|&v| v * NET_OUT).collect();
    write_bytes(o, &net::encode(&m.rows, &m.bias, &out), "net")
}
