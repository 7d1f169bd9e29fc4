//! The network beside the tables: a small layer that learns what the tables cannot, how
//! the points' shapes combine. Every empty point's slot ([`learned::slot`]) for each
//! colour, by role, and the threat mask's place ([`mask::index`]) each carry a vector of
//! [`WIDTH`] weights; the vectors are summed with a bias, each sum goes through a ReLU,
//! and a weighted sum of the [`WIDTH`] results, in evaluation units, is added to the
//! static evaluation (the switch `net`, [`crate::params::Features::net`]).
//!
//! The board keeps the points' sums as it plays and takes back moves
//! ([`crate::board::Board::set_net`]), so the evaluation only adds the mask's row, the
//! empty points' common share and the output layer. The sums are kept relative to the
//! slot of a point with nothing near it ([`default_slot`], four open ones): such a
//! point adds its class's default row, counted as the number of empty points times
//! that row, and the other points the difference of their row from it, in integers
//! (rows of `i16` at [`ROW_SCALE`], summed as `i32`), so the sum from scratch and the
//! sum kept move by move are exactly the same. (Until session 62 the sums were `i16`
//! too: a sum the fit made larger than 32 overflowed and wrapped to a wrong sign, in
//! over a thousand of the depth-8 bench's updates, and in 16 to 64 times as many with a
//! refit to more data, which then lost to Rapfi far more often than without it.)
//!
//! The weights are fitted to self-play games (`examples/train.rs --net`) with the
//! tables held fixed. Two fitted networks ship in the binary, [`WEIGHTS`] for freestyle
//! and standard and [`RENJU_WEIGHTS`] for renju ([`Net::get`] picks by the board's
//! rule); their provenance is in `weights/README.md`.

use std::sync::OnceLock;

use wuzi_rules::Rule;

use super::pattern::Pattern;
use super::{COMBO_PLACE, Threat, learned, mask};

/// The width of the layer.
pub const WIDTH: usize = 16;
/// The points' rows are stored in units of 1/`ROW_SCALE`.
pub const ROW_SCALE: f32 = 1024.0;
/// The mask's rows are stored in units of 1/`MASK_SCALE`.
pub const MASK_SCALE: f32 = 8192.0;
/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"wuzinet1";

/// One slot's rows, less the default slot's: the mover's [`WIDTH`], then the waiter's.
pub type RowValues = [i16; 2 * WIDTH];

/// One colour's sums of its points' [`RowValues`]: the mover's [`WIDTH`], then the
/// waiter's. `i32`, so no board overflows them (26 × 26 points × 2<sup>15</sup> is far
/// below 2<sup>31</sup>).
pub type ColorSums = [i32; 2 * WIDTH];

/// A slot's rows, less the default slot's: the mover's, then the waiter's.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub struct Row(pub RowValues);

/// A network, as the engine uses it.
#[derive(Debug)]
pub struct Net {
    /// By [`learned::class`] and slot, the two roles' rows less the default slot's.
    rows: Vec<Row>,
    /// The [`default_slot`].
    default_slot: usize,
    /// By class and role, the default slot's row (every empty point's share).
    default: Vec<[[f32; WIDTH]; 2]>,
    /// By [`mask::index`], the mask's rows.
    mask: Vec<i16>,
    bias: [f32; WIDTH],
    out: [f32; WIDTH],
}

/// The shipped network for freestyle and standard, the rules without restrictions
/// (see `weights/README.md`). Named by its [`learned::checksum`]. Only its unrestricted
/// class and its bias and output weights are used ([`Net::get`]). The page's engine
/// (WebAssembly) ships without networks: the files would more than triple the module's
/// download, so there they are empty and the evaluation has no network term.
#[cfg(not(target_arch = "wasm32"))]
pub const WEIGHTS: &[u8] = include_bytes!("weights/net-0cc490385355ed5a.bin");
/// The shipped network for freestyle and standard: none in the page's engine (see
/// above).
#[cfg(target_arch = "wasm32")]
pub const WEIGHTS: &[u8] = &[];
/// The name of the shipped network's file for freestyle and standard.
pub const WEIGHTS_FILE: &str = "net-0cc490385355ed5a.bin";

/// The shipped network for renju. A network of its own, because a fit that moves the
/// shared bias and output weights to serve the unrestricted rules better has so far
/// served renju worse (`weights/README.md`, sessions 71–72). Only its renju classes and
/// its bias and output weights are used.
#[cfg(not(target_arch = "wasm32"))]
pub const RENJU_WEIGHTS: &[u8] = include_bytes!("weights/net-4af42c78872378d6.bin");
/// The shipped network for renju: none in the page's engine.
#[cfg(target_arch = "wasm32")]
pub const RENJU_WEIGHTS: &[u8] = &[];
/// The name of the shipped network's file for renju.
pub const RENJU_WEIGHTS_FILE: &str = "net-4af42c78872378d6.bin";

/// The shipped network file for `rule`: [`RENJU_WEIGHTS`] for renju, [`WEIGHTS`] for
/// the rules without restrictions (caro's stones are of the unrestricted class too).
#[must_use]
pub fn shipped(rule: Rule) -> &'static [u8] {
    match rule {
        Rule::Renju => RENJU_WEIGHTS,
        Rule::Freestyle | Rule::Standard | Rule::Caro => WEIGHTS,
    }
}

/// Values of each part of a network file, in order, after the magic and the width.
const DEFAULTS: usize = learned::CLASSES * 2 * WIDTH;
const ROWS: usize = learned::CLASSES * learned::SLOTS * 2 * WIDTH;
const MASK_ROWS: usize = mask::FEATURES * WIDTH;
/// The size of a network file.
pub const FILE_BYTES: usize =
    MAGIC.len() + 4 + 4 * DEFAULTS + 2 * ROWS + 2 * MASK_ROWS + 4 * 2 * WIDTH;

/// The slot of a point with nothing near it: four open ones.
#[must_use]
pub fn default_slot() -> usize {
    let flex1 = Pattern::Flex1 as usize;
    learned::slot(COMBO_PLACE.iter().map(|p| p * flex1).sum(), Threat::None)
}

impl Net {
    /// [`default_slot`], kept.
    #[must_use]
    #[inline]
    pub fn default_slot(&self) -> usize {
        self.default_slot
    }

    /// Reads a network file: [`MAGIC`], the width (`u32`, [`WIDTH`]), the default rows
    /// (`f32`, by class and role), the other slots' rows less the default's (`i16` at
    /// [`ROW_SCALE`], by class and slot, the mover's then the waiter's), the mask's rows
    /// (`i16` at [`MASK_SCALE`], by [`mask::index`]), the bias and the output weights
    /// (`f32`), all little-endian.
    ///
    /// # Errors
    /// A file of another size, magic or width, or with a non-zero row at the default
    /// slot or a value that is not finite.
    pub fn parse(bytes: &[u8]) -> Result<Net, String> {
        if bytes.len() != FILE_BYTES {
            return Err(format!(
                "a network file has {FILE_BYTES} bytes, not {}",
                bytes.len()
            ));
        }
        let (magic, rest) = bytes.split_at(MAGIC.len());
        if magic != MAGIC {
            return Err("not a wuzi network file (bad magic)".into());
        }
        let (width, rest) = rest.split_at(4);
        let width = u32::from_le_bytes(width.try_into().expect("4 bytes"));
        if width as usize != WIDTH {
            return Err(format!("a network of width {width}, not {WIDTH}"));
        }
        let (defaults, rest) = rest.split_at(4 * DEFAULTS);
        let (rows, rest) = rest.split_at(2 * ROWS);
        let (mask_rows, rest) = rest.split_at(2 * MASK_ROWS);
        let floats = |b: &[u8]| -> Vec<f32> {
            b.chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect()
        };
        let ints = |b: &[u8]| -> Vec<i16> {
            b.chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        let defaults = floats(defaults);
        let tail = floats(rest);
        if !defaults.iter().chain(&tail).all(|x| x.is_finite()) {
            return Err("a network value is not a finite number".into());
        }
        let rows: Vec<Row> = ints(rows)
            .chunks_exact(2 * WIDTH)
            .map(|c| Row(c.try_into().expect("a row")))
            .collect();
        let default_slot = default_slot();
        for class in 0..learned::CLASSES {
            if rows[class * learned::SLOTS + default_slot].0 != [0; 2 * WIDTH] {
                return Err("the default slot's rows are not zero".into());
            }
        }
        Ok(Net {
            rows,
            default_slot,
            default: defaults
                .chunks_exact(2 * WIDTH)
                .map(|c| {
                    let mut d = [[0.0; WIDTH]; 2];
                    d[0].copy_from_slice(&c[..WIDTH]);
                    d[1].copy_from_slice(&c[WIDTH..]);
                    d
                })
                .collect(),
            mask: ints(mask_rows),
            bias: tail[..WIDTH].try_into().expect("WIDTH values"),
            out: tail[WIDTH..].try_into().expect("WIDTH values"),
        })
    }

    /// The network in use for `rule`: the shipped one ([`shipped`]), or for strength
    /// tests of a new fit the file named by the environment variable `WUZI_EVAL_NET`
    /// (every rule) or `WUZI_EVAL_NET_RENJU` (renju, before `WUZI_EVAL_NET`), read
    /// once; none where none is shipped (the page's engine).
    ///
    /// # Panics
    /// If the variable names a file that cannot be read or is not a network.
    #[must_use]
    pub fn get(rule: Rule) -> Option<&'static Net> {
        static NETS: [OnceLock<Option<Net>>; 2] = [OnceLock::new(), OnceLock::new()];
        let renju = rule == Rule::Renju;
        NETS[usize::from(renju)]
            .get_or_init(|| {
                let names: &[&str] = if renju {
                    &["WUZI_EVAL_NET_RENJU", "WUZI_EVAL_NET"]
                } else {
                    &["WUZI_EVAL_NET"]
                };
                match names
                    .iter()
                    .find_map(|&name| std::env::var_os(name).map(|path| (name, path)))
                {
                    Some((name, path)) => Some(
                        std::fs::read(&path)
                            .map_err(|e| e.to_string())
                            .and_then(|b| Net::parse(&b))
                            .unwrap_or_else(|e| panic!("{name} {}: {e}", path.display())),
                    ),
                    None if shipped(rule).is_empty() => None,
                    None => Some(Net::parse(shipped(rule)).expect("the shipped network parses")),
                }
            })
            .as_ref()
    }

    /// The rows of `slot` for a colour of `class`.
    #[must_use]
    #[inline]
    pub fn row(&self, class: usize, slot: usize) -> &RowValues {
        &self.rows[class * learned::SLOTS + slot].0
    }

    /// The network's term, in evaluation units: `mover` and `waiter` are the side to
    /// move's and the other side's sums (each its own role's half), of classes
    /// `mover_class` and `waiter_class`, `empties` the empty points, `mask` the board's
    /// [`mask::index`].
    #[must_use]
    pub fn output(
        &self,
        mover: (&[i32], usize),
        waiter: (&[i32], usize),
        empties: i32,
        mask: usize,
    ) -> i32 {
        let dm = &self.default[mover.1][0];
        let dw = &self.default[waiter.1][1];
        let m = &self.mask[mask * WIDTH..(mask + 1) * WIDTH];
        let n = empties as f32;
        let mut o = 0.0;
        for j in 0..WIDTH {
            let a = self.bias[j]
                + f32::from(m[j]) / MASK_SCALE
                + n * (dm[j] + dw[j])
                + (mover.0[j] + waiter.0[j]) as f32 / ROW_SCALE;
            o += self.out[j] * a.max(0.0);
        }
        (o.round()) as i32
    }

    /// The weights as [`encode`] takes them: `rows` by [`learned::feature`] then by
    /// [`mask::index`] after [`learned::FEATURES`], each [`WIDTH`] values, then the
    /// bias and the output weights. `encode` of them gives the file back, so a fit can
    /// start from a network in use (`examples/train.rs --net-from`).
    #[must_use]
    pub fn weights(&self) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
        let mut rows = vec![0.0; (learned::FEATURES + mask::FEATURES) * WIDTH];
        for class in 0..learned::CLASSES {
            for slot in 0..learned::SLOTS {
                let delta = self.row(class, slot);
                for role in 0..2 {
                    let at = learned::feature(class, role, slot) * WIDTH;
                    for j in 0..WIDTH {
                        rows[at + j] = self.default[class][role][j]
                            + f32::from(delta[role * WIDTH + j]) / ROW_SCALE;
                    }
                }
            }
        }
        for (r, &m) in rows[learned::FEATURES * WIDTH..].iter_mut().zip(&self.mask) {
            *r = f32::from(m) / MASK_SCALE;
        }
        (rows, self.bias.to_vec(), self.out.to_vec())
    }
}

/// Writes a network file ([`Net::parse`]'s layout) from unquantized weights: `rows`
/// by [`learned::feature`] then by [`mask::index`] after [`learned::FEATURES`], each
/// [`WIDTH`] values, then the bias and the output weights, the output in evaluation
/// units. Rows of features never seen in the fit should be zero.
#[must_use]
pub fn encode(rows: &[f32], bias: &[f32], out: &[f32]) -> Vec<u8> {
    assert_eq!(rows.len(), (learned::FEATURES + mask::FEATURES) * WIDTH);
    assert_eq!((bias.len(), out.len()), (WIDTH, WIDTH));
    let default_slot = default_slot();
    let e = |class, role, slot, j| rows[learned::feature(class, role, slot) * WIDTH + j];
    let q =
        |x: f32, scale: f32| ((x * scale).round().clamp(-32767.0, 32767.0) as i16).to_le_bytes();
    let mut b = Vec::with_capacity(FILE_BYTES);
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&(WIDTH as u32).to_le_bytes());
    for class in 0..learned::CLASSES {
        for role in 0..2 {
            for j in 0..WIDTH {
                b.extend_from_slice(&e(class, role, default_slot, j).to_le_bytes());
            }
        }
    }
    for class in 0..learned::CLASSES {
        for slot in 0..learned::SLOTS {
            for role in 0..2 {
                for j in 0..WIDTH {
                    let delta = e(class, role, slot, j) - e(class, role, default_slot, j);
                    b.extend_from_slice(&q(delta, ROW_SCALE));
                }
            }
        }
    }
    for &x in &rows[learned::FEATURES * WIDTH..] {
        b.extend_from_slice(&q(x, MASK_SCALE));
    }
    for &x in bias.iter().chain(out) {
        b.extend_from_slice(&x.to_le_bytes());
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_networks_are_pinned() {
        for (bytes, name) in [(WEIGHTS, WEIGHTS_FILE), (RENJU_WEIGHTS, RENJU_WEIGHTS_FILE)] {
            assert_eq!(format!("net-{:016x}.bin", learned::checksum(bytes)), name);
            Net::parse(bytes).unwrap();
        }
    }

    #[test]
    fn each_rule_has_its_network() {
        // Renju's network is its own file; freestyle and standard share the other.
        let weights = |rule| Net::get(rule).unwrap().weights();
        let file = |bytes| Net::parse(bytes).unwrap().weights();
        assert_eq!(weights(Rule::Renju), file(RENJU_WEIGHTS));
        assert_eq!(weights(Rule::Freestyle), file(WEIGHTS));
        assert_eq!(weights(Rule::Standard), file(WEIGHTS));
        assert_ne!(file(WEIGHTS), file(RENJU_WEIGHTS), "two networks");
    }

    #[test]
    fn bad_files_are_refused() {
        let mut b = WEIGHTS.to_vec();
        assert!(Net::parse(&b[..b.len() - 1]).unwrap_err().contains("bytes"));
        b[0] = b'x';
        assert!(Net::parse(&b).unwrap_err().contains("magic"));
        let mut b = WEIGHTS.to_vec();
        b[MAGIC.len()] = 8;
        assert!(Net::parse(&b).unwrap_err().contains("width"));
        let mut b = WEIGHTS.to_vec();
        let at = MAGIC.len() + 4 + 4 * DEFAULTS + 2 * (2 * WIDTH) * default_slot();
        b[at] ^= 1;
        assert!(Net::parse(&b).unwrap_err().contains("default slot"));
        let mut b = WEIGHTS.to_vec();
        let n = b.len();
        b[n - 4..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(Net::parse(&b).unwrap_err().contains("finite"));
    }

    #[test]
    fn the_weights_of_a_network_encode_to_its_file() {
        // The shipped file read and written again is the same bytes; so is any file
        // written from weights off the file's grid, once written.
        let (rows, bias, out) = Net::parse(WEIGHTS).unwrap().weights();
        assert!(
            encode(&rows, &bias, &out) == WEIGHTS,
            "the shipped file comes back"
        );
        let n = (learned::FEATURES + mask::FEATURES) * WIDTH;
        let rows: Vec<f32> = (0..n)
            .map(|i| ((i * 7919 % 997) as f32 - 498.3) / 9000.0)
            .collect();
        let once = encode(&rows, &bias, &out);
        let (back, b, o) = Net::parse(&once).unwrap().weights();
        assert_eq!((&b, &o), (&bias, &out));
        assert!(encode(&back, &b, &o) == once, "a written file comes back");
        let d = default_slot();
        let f = learned::feature(learned::RENJU_BLACK, 1, d + 1) * WIDTH + 3;
        assert!((back[f] - rows[f]).abs() <= 0.5 / ROW_SCALE + 1e-6);
    }

    #[test]
    fn encoding_keeps_the_weights_to_their_scale() {
        // Weights on the file's grid come back exactly; the default slot's rows are
        // the defaults and every other slot's its difference from them.
        let n = (learned::FEATURES + mask::FEATURES) * WIDTH;
        let rows: Vec<f32> = (0..n)
            .map(|i| ((i * 7919 % 97) as f32 - 48.0) / ROW_SCALE)
            .collect();
        let bias: Vec<f32> = (0..WIDTH).map(|j| j as f32 / 8.0).collect();
        let out: Vec<f32> = (0..WIDTH).map(|j| 1.0 - j as f32 / 4.0).collect();
        let net = Net::parse(&encode(&rows, &bias, &out)).unwrap();
        let d = default_slot();
        for class in 0..learned::CLASSES {
            for role in 0..2 {
                for slot in [0, 17, d, learned::FORBIDDEN_SLOT] {
                    for j in 0..WIDTH {
                        let f = rows[learned::feature(class, role, slot) * WIDTH + j];
                        let back = net.default[class][role][j]
                            + f32::from(net.row(class, slot)[role * WIDTH + j]) / ROW_SCALE;
                        assert!((back - f).abs() < 1e-6, "{class} {role} {slot} {j}");
                    }
                }
            }
        }
        assert_eq!(net.bias.to_vec(), bias);
        assert_eq!(net.out.to_vec(), out);
        let m = 12_345;
        let want = rows[(learned::FEATURES + m) * WIDTH];
        assert!((f32::from(net.mask[m * WIDTH]) / MASK_SCALE - want).abs() < 1e-6);
    }
}
