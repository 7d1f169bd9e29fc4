//! SGF (Smart Game Format, FF\[4\]) records of Gomoku/Renju, `GM[4]`.
//!
//! ```text
//! (;FF[4]GM[4]CA[UTF-8]AP[wuzi:0.1.0]SZ[15]RU[renju]PB[Ann]PW[wuzi level5]RE[W+R]
//! ;B[hh];W[ii]WZMS[850];B[jj])
//! ```
//!
//! Points are two letters from `a`, column then row, rows from the **top** (`hh` is h8 on
//! 15×15). `SZ[15]` or `SZ[20:15]` (columns:rows). Standard properties read and written:
//! `SZ RU PB PW RE DT ON PL` and moves `B`/`W`; setup stones `AB`/`AW` in the root are read
//! and become alternating moves (Black first) since a wuzi game has no setup. wuzi's own
//! properties carry what SGF has no name for: `WZK` (k in a row), `WZTH` (theme `wood`,
//! `rock` or `ocean`), `WZS` (layout seed), `WZR` (walls), `WZO` (bubbles, repeats
//! allowed), `WZN` (bubbles needed to win), `WZMS` (a move's thinking time in ms).
//!
//! Real-world files are tolerated: whitespace anywhere between tokens, escaped `\]`,
//! lowercase letters in old FF\[3\] property names, unknown properties (kept in the record's
//! tags when they look like `EV`, `PC` ...), several game trees (the first is read) and
//! variations (the main line, first child each time, is read). The parser is iterative,
//! so deep nesting cannot overflow the stack.
//!
//! `RE` is read as resignation (`B+R`), time (`W+T`) or agreement (`Draw`); any other
//! result (`B+`, `W+F`, `0`) is decided by the moves and checked by
//! [`Record::to_game`](super::Record::to_game).

use std::collections::BTreeMap;

use super::{Format, Opening, Record, RecordError, check_len, require_on_board, syntax_at};
use crate::{Color, EndReason, GameConfig, GameResult, Move, Pos, Rule, Size, Variant};

const FORMAT: Format = Format::Sgf;

/// Properties wuzi interprets (others become tags).
const KNOWN: &[&str] = &[
    "FF", "GM", "CA", "AP", "SZ", "RU", "PB", "PW", "RE", "DT", "ON", "PL", "B", "W", "AB", "AW",
    "AE", "WZK", "WZTH", "WZS", "WZR", "WZO", "WZN", "WZMS", "C",
];

struct Property {
    ident: String,
    offset: usize,
    values: Vec<(String, usize)>,
}

type Node = Vec<Property>;

/// Reads the main line of the first game tree.
pub fn read(text: &str) -> Result<Record, RecordError> {
    check_len(text)?;
    let nodes = parse_main_line(text)?;
    interpret(text, &nodes)
}

/// Scans the file and returns the nodes of the main line: every node before the first `)`.
fn parse_main_line(text: &str) -> Result<Vec<Node>, RecordError> {
    let bytes = text.as_bytes();
    let err = |at: usize, m: &str| syntax_at(FORMAT, text, at, m);
    let mut i = bytes
        .iter()
        .position(|&b| b == b'(')
        .ok_or_else(|| err(0, "no game tree: an SGF file starts with `(;`"))?;
    let mut nodes: Vec<Node> = Vec::new();
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let Some(&b) = bytes.get(i) else {
            return Err(err(text.len(), "the game tree is not closed (missing `)`)"));
        };
        match b {
            b'(' => i += 1,
            b')' => {
                if nodes.is_empty() {
                    return Err(err(i, "the game tree has no node (expected `(;...)`)"));
                }
                return Ok(nodes);
            }
            b';' => {
                i += 1;
                let mut node = Vec::new();
                loop {
                    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if !bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
                        break;
                    }
                    let start = i;
                    while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                        i += 1;
                    }
                    let ident: String = text[start..i]
                        .chars()
                        .filter(char::is_ascii_uppercase)
                        .collect();
                    if ident.is_empty() {
                        return Err(err(start, "a property name needs an upper-case letter"));
                    }
                    let mut values = Vec::new();
                    loop {
                        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                            i += 1;
                        }
                        if bytes.get(i) != Some(&b'[') {
                            break;
                        }
                        let open = i;
                        let (value, next) = read_value(text, i + 1)
                            .ok_or_else(|| err(open, "the value is not closed (missing `]`)"))?;
                        values.push((value, open));
                        i = next;
                    }
                    if values.is_empty() {
                        return Err(err(start, &format!("property {ident} has no value")));
                    }
                    node.push(Property {
                        ident,
                        offset: start,
                        values,
                    });
                }
                nodes.push(node);
            }
            _ => {
                let c = text[i..].chars().next().unwrap_or('?');
                return Err(err(
                    i,
                    &format!("unexpected {c:?} (expected `;`, `(` or `)`)"),
                ));
            }
        }
    }
}

/// Reads a value from just after `[`; returns the unescaped text and the index after `]`.
fn read_value(text: &str, start: usize) -> Option<(String, usize)> {
    let mut out = String::new();
    let mut chars = text[start..].char_indices();
    while let Some((j, c)) = chars.next() {
        match c {
            ']' => return Some((out, start + j + 1)),
            '\\' => {
                let (_, next) = chars.next()?;
                match next {
                    // A soft line break: backslash-newline is removed.
                    '\n' => {}
                    '\r' => {
                        if text[start..].get(j + 2..j + 3) == Some("\n") {
                            chars.next();
                        }
                    }
                    other => out.push(other),
                }
            }
            other => out.push(other),
        }
    }
    None
}

fn interpret(text: &str, nodes: &[Node]) -> Result<Record, RecordError> {
    let err = |at: usize, m: String| syntax_at(FORMAT, text, at, m);
    let root = &nodes[0];
    let get = |ident: &str| root.iter().find(|p| p.ident == ident);
    let single = |p: &Property| p.values[0].0.trim().to_string();

    if let Some(gm) = get("GM")
        && single(gm) != "4"
    {
        return Err(err(
            gm.offset,
            format!("GM[{}] is not Gomoku/Renju (GM[4])", single(gm)),
        ));
    }
    let size = match get("SZ") {
        Some(p) => parse_size(&single(p)).map_err(|m| err(p.offset, m))?,
        None => Size::STANDARD,
    };
    let mut config = GameConfig::new(Rule::Freestyle, size);
    let mut record_tags = BTreeMap::new();
    if let Some(p) = get("RU") {
        match parse_rule(&single(p)) {
            Some(rule) => config.rule = rule,
            None => {
                record_tags.insert("RU".to_string(), single(p));
            }
        }
    }
    if let Some(p) = get("WZK") {
        config.k = single(p)
            .parse()
            .map_err(|_| err(p.offset, format!("WZK[{}] is not a number", single(p))))?;
    }
    let point = |value: &(String, usize)| parse_point(&value.0, size).map_err(|m| err(value.1, m));
    let points = |ident: &str| -> Result<Vec<Pos>, RecordError> {
        get(ident).map_or(Ok(Vec::new()), |p| p.values.iter().map(point).collect())
    };
    let seed = match get("WZS") {
        Some(p) => single(p)
            .parse::<u64>()
            .map_err(|_| err(p.offset, format!("WZS[{}] is not a seed", single(p))))?,
        None => 0,
    };
    if let Some(p) = get("WZTH") {
        config.variant = match single(p).to_ascii_lowercase().as_str() {
            "wood" => Variant::Wood,
            "rock" => Variant::Rock {
                seed,
                walls: points("WZR")?,
            },
            "ocean" => {
                let target = match get("WZN") {
                    Some(n) => single(n).parse::<u8>().map_err(|_| {
                        err(
                            n.offset,
                            format!("WZN[{}] is not a bubble count", single(n)),
                        )
                    })?,
                    None => crate::variant::OCEAN_TARGET,
                };
                Variant::Ocean {
                    seed,
                    bubbles: points("WZO")?,
                    target,
                }
            }
            other => return Err(err(p.offset, format!("unknown theme WZTH[{other}]"))),
        };
    }
    let mut record = Record::new(config);
    record.tags = record_tags;
    if let Some(p) = get("PB") {
        record.players.black.name = Some(single(p));
    }
    if let Some(p) = get("PW") {
        record.players.white.name = Some(single(p));
    }
    if let Some(p) = get("DT") {
        record.dates.started = Some(single(p));
    }
    if let Some(p) = get("ON") {
        record.opening = Some(Opening::named(single(p)));
    }
    if let Some(p) = get("RE") {
        let raw = single(p);
        match parse_result(&raw) {
            Some(result) => record.result = Some(result),
            None => {
                record.tags.insert("RE".to_string(), raw);
            }
        }
    }
    for p in root {
        if !KNOWN.contains(&p.ident.as_str()) && p.ident.len() <= 8 {
            let joined: Vec<&str> = p.values.iter().map(|(v, _)| v.as_str()).collect();
            record.tags.insert(p.ident.clone(), joined.join(", "));
        }
    }

    // Setup stones become alternating moves, Black first.
    let black = points("AB")?;
    let white = points("AW")?;
    if let Some(p) = get("AE") {
        return Err(err(
            p.offset,
            "AE (remove stones) has no meaning in a game record".into(),
        ));
    }
    if !black.is_empty() || !white.is_empty() {
        if !(black.len() == white.len() || black.len() == white.len() + 1) {
            let at = get("AB").or_else(|| get("AW")).map_or(0, |p| p.offset);
            return Err(err(
                at,
                format!(
                    "{} black and {} white setup stones cannot be replayed as alternating moves",
                    black.len(),
                    white.len()
                ),
            ));
        }
        for (i, &pos) in black.iter().enumerate() {
            record.moves.push(Move {
                pos,
                color: Color::Black,
                time_ms: None,
            });
            if let Some(&w) = white.get(i) {
                record.moves.push(Move {
                    pos: w,
                    color: Color::White,
                    time_ms: None,
                });
            }
        }
    }

    let mut first_color = None;
    for (n, node) in nodes.iter().enumerate() {
        if n > 0
            && let Some(p) = node
                .iter()
                .find(|p| matches!(p.ident.as_str(), "AB" | "AW" | "AE"))
        {
            return Err(err(
                p.offset,
                format!("setup ({}) after the first node is not supported", p.ident),
            ));
        }
        let time_ms =
            match node.iter().find(|p| p.ident == "WZMS") {
                Some(p) => Some(single(p).parse::<u64>().map_err(|_| {
                    err(p.offset, format!("WZMS[{}] is not a time in ms", single(p)))
                })?),
                None => None,
            };
        let mut moved = false;
        for p in node {
            let color = match p.ident.as_str() {
                "B" => Color::Black,
                "W" => Color::White,
                _ => continue,
            };
            if moved || p.values.len() != 1 {
                return Err(err(p.offset, "one move per node".into()));
            }
            moved = true;
            let pos = point(&p.values[0])?;
            first_color.get_or_insert(color);
            record.moves.push(Move {
                pos,
                color,
                time_ms,
            });
        }
    }
    let to_play = match get("PL") {
        Some(p) => Some(
            single(p)
                .parse::<Color>()
                .map_err(|e| err(p.offset, e.to_string()))?,
        ),
        None => None,
    };
    // Setup stones start with Black; otherwise the first move, or PL in an empty game.
    record.config.first = if black.is_empty() && white.is_empty() {
        first_color.or(to_play).unwrap_or(Color::Black)
    } else {
        Color::Black
    };
    Ok(record)
}

fn parse_size(s: &str) -> Result<Size, String> {
    let num = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("SZ[{s}] is not a board size"))
    };
    match s.split_once(':') {
        Some((w, h)) => Size::from_u32(num(w)?, num(h)?),
        None => {
            let n = num(s)?;
            Size::from_u32(n, n)
        }
    }
    .map_err(|e| e.to_string())
}

fn parse_rule(s: &str) -> Option<Rule> {
    let lower = s.trim().to_ascii_lowercase();
    let renju_names = [
        "renju",
        "rif",
        "yamaguchi",
        "soosyrv",
        "taraguchi",
        "sakata",
    ];
    if renju_names.iter().any(|n| lower.contains(n)) {
        return Some(Rule::Renju);
    }
    lower.parse().ok()
}

fn parse_point(s: &str, size: Size) -> Result<Pos, String> {
    let b = s.trim().as_bytes();
    if b.is_empty() {
        return Err("an empty point (a pass) is not a Gomoku move".into());
    }
    if b.len() != 2 || !b.iter().all(u8::is_ascii_lowercase) {
        return Err(format!(
            "{s:?} is not a point (two letters from a, like hh)"
        ));
    }
    size.pos(i32::from(b[0] - b'a'), i32::from(b[1] - b'a'))
        .map_err(|_| format!("point [{s}] is off the {size} board"))
}

fn parse_result(s: &str) -> Option<GameResult> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("draw") || t.eq_ignore_ascii_case("d") {
        return Some(GameResult {
            winner: None,
            reason: EndReason::Agreement,
        });
    }
    if t.eq_ignore_ascii_case("void") {
        return Some(GameResult {
            winner: None,
            reason: EndReason::Aborted,
        });
    }
    let (who, how) = t.split_once('+')?;
    let winner = match who.trim() {
        "B" | "b" => Color::Black,
        "W" | "w" => Color::White,
        _ => return None,
    };
    let reason = match how.trim().to_ascii_lowercase().as_str() {
        "r" | "resign" => EndReason::Resignation,
        "t" | "time" => EndReason::Time,
        "forfeit" => EndReason::Abandoned,
        _ => return None,
    };
    Some(GameResult {
        winner: Some(winner),
        reason,
    })
}

fn point_text(p: Pos) -> String {
    format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes a record as SGF. Keeps everything but per-player kinds, clocks, opening data and
/// the end date (see the module docs); never fails for a valid record, but refuses points
/// off the board.
pub fn write(record: &Record) -> Result<String, RecordError> {
    require_on_board(record, FORMAT)?;
    let cfg = &record.config;
    let mut out = String::from("(;FF[4]GM[4]CA[UTF-8]");
    out.push_str(&format!("AP[wuzi:{}]", env!("CARGO_PKG_VERSION")));
    if cfg.size.is_square() {
        out.push_str(&format!("SZ[{}]", cfg.size.width()));
    } else {
        out.push_str(&format!("SZ[{}:{}]", cfg.size.width(), cfg.size.height()));
    }
    out.push_str(&format!("RU[{}]", cfg.rule));
    if cfg.k != 5 {
        out.push_str(&format!("WZK[{}]", cfg.k));
    }
    if cfg.first == Color::White {
        out.push_str("PL[W]");
    }
    let prop = |out: &mut String, ident: &str, value: &Option<String>| {
        if let Some(v) = value {
            out.push_str(&format!("{ident}[{}]", escape(v)));
        }
    };
    prop(&mut out, "PB", &record.players.black.name);
    prop(&mut out, "PW", &record.players.white.name);
    prop(&mut out, "DT", &record.dates.started);
    prop(
        &mut out,
        "ON",
        &record.opening.as_ref().map(|o| o.name.clone()),
    );
    match &record.result {
        Some(r) => {
            let who = match r.winner {
                Some(Color::Black) => "B",
                Some(Color::White) => "W",
                None => "",
            };
            let re = match (&r.reason, who) {
                (EndReason::Agreement, _) => "Draw".to_string(),
                (EndReason::Aborted, _) => "Void".to_string(),
                (EndReason::Abandoned, "") => "0".to_string(),
                (EndReason::Abandoned, w) => format!("{w}+Forfeit"),
                (EndReason::BoardFull, _) | (_, "") => "0".to_string(),
                (EndReason::Resignation, w) => format!("{w}+R"),
                (EndReason::Time, w) => format!("{w}+T"),
                (EndReason::Forbidden { .. }, w) => format!("{w}+F"),
                (_, w) => format!("{w}+"),
            };
            out.push_str(&format!("RE[{re}]"));
        }
        None => prop(&mut out, "RE", &record.tags.get("RE").cloned()),
    }
    let list = |out: &mut String, ident: &str, cells: &[Pos]| {
        if !cells.is_empty() {
            out.push_str(ident);
            for &c in cells {
                out.push_str(&format!("[{}]", point_text(c)));
            }
        }
    };
    match &cfg.variant {
        Variant::Wood => {}
        Variant::Rock { seed, walls } => {
            out.push_str(&format!("WZTH[rock]WZS[{seed}]"));
            list(&mut out, "WZR", walls);
        }
        Variant::Ocean {
            seed,
            bubbles,
            target,
        } => {
            out.push_str(&format!("WZTH[ocean]WZS[{seed}]WZN[{target}]"));
            list(&mut out, "WZO", bubbles);
        }
    }
    for (key, value) in &record.tags {
        let is_ident =
            !key.is_empty() && key.len() <= 8 && key.bytes().all(|b| b.is_ascii_uppercase());
        // Known names (an unreadable RU or RE kept as a tag) are written above or dropped.
        if is_ident && !KNOWN.contains(&key.as_str()) {
            out.push_str(&format!("{key}[{}]", escape(value)));
        }
    }
    out.push('\n');
    for (i, m) in record.moves.iter().enumerate() {
        let c = if m.color == Color::Black { 'B' } else { 'W' };
        out.push_str(&format!(";{c}[{}]", point_text(m.pos)));
        if let Some(ms) = m.time_ms {
            out.push_str(&format!("WZMS[{ms}]"));
        }
        if i % 10 == 9 {
            out.push('\n');
        }
    }
    out.push_str(")\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_plain_game() {
        let r = read("(;FF[4]GM[4]SZ[15]RU[Renju]PB[Ann]PW[Bo\\]b]RE[W+R]DT[2026-11-21]\n;B[hh];W[ii] ;B[jj])")
            .unwrap();
        assert_eq!(r.config.rule, Rule::Renju);
        assert_eq!(r.config.size, Size::STANDARD);
        assert_eq!(r.players.white.name.as_deref(), Some("Bo]b"));
        assert_eq!(r.dates.started.as_deref(), Some("2026-11-21"));
        let names: Vec<String> = r
            .moves
            .iter()
            .map(|m| r.config.size.notation(m.pos).to_string())
            .collect();
        assert_eq!(names, ["h8", "i7", "j6"]);
        let game = r.to_game().unwrap();
        assert_eq!(
            game.result().unwrap().describe(r.config.size),
            "white wins: black resigned"
        );
    }

    #[test]
    fn takes_the_main_line_and_tolerates_noise() {
        let text = "garbage before\n( ;GM[4]\n SZ [ 20:15 ] CoPyright[x] EV[Cup\\\n 2026]\n\
                    ;B[aa] (;W[bb];B[cc](;W[dd])(;W[ee])) (;W[ff]) ) (;GM[4];B[zz])";
        let r = read(text).unwrap();
        assert_eq!(r.config.size, Size::new(20, 15).unwrap());
        let pts: Vec<(u8, u8)> = r.moves.iter().map(|m| (m.pos.x, m.pos.y)).collect();
        assert_eq!(pts, [(0, 0), (1, 1), (2, 2), (3, 3)]);
        assert_eq!(r.tags.get("EV").map(String::as_str), Some("Cup 2026"));
    }

    #[test]
    fn setup_stones_become_moves() {
        let r = read("(;GM[4]SZ[15]AB[hh][jj]AW[ii];B[kk])").unwrap();
        let colors: Vec<Color> = r.moves.iter().map(|m| m.color).collect();
        assert_eq!(
            colors,
            [Color::Black, Color::White, Color::Black, Color::Black]
        );
        // The last move is out of turn: the record reads, the game does not.
        assert!(r.to_game().unwrap_err().to_string().starts_with("move 4"));
        assert!(read("(;GM[4]AB[aa]AW[bb][cc][dd])").is_err());
    }

    #[test]
    fn damaged_files_name_the_place() {
        let cases = [
            ("", 1, 1),
            ("(;GM[1]SZ[19];B[aa])", 1, 3),
            ("(;GM[4]\nSZ[30])", 2, 1),
            ("(;GM[4]SZ[15];B[pp])", 1, 16),
            ("(;GM[4]SZ[15];B[])", 1, 16),
            ("(;GM[4]SZ[15];B[hh]", 1, 20),
            ("(;GM[4]SZ[15];B[hh", 1, 16),
            ("(;GM[4]SZ[15];B[hh]W[ii])", 1, 20),
            ("(;GM[4]SZ[15];B)", 1, 15),
            ("(;GM[4]SZ[15]; B[hh] ? )", 1, 22),
            ("()", 1, 2),
            ("(;GM[4]WZTH[moon])", 1, 8),
        ];
        for (text, line, column) in cases {
            match read(text) {
                Err(RecordError::Syntax {
                    line: l, column: c, ..
                }) => assert_eq!((l, c), (line, column), "{text:?}"),
                other => panic!("{text:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let mut text = String::from("(;GM[4]");
        text.push_str(&"(;B[aa]".repeat(200_000));
        text.push_str(&")".repeat(200_001));
        // Every branch replays a1... the record reads, the game refuses the second stone.
        let r = read(&text).unwrap();
        assert_eq!(r.moves.len(), 200_000);
        assert!(r.to_game().is_err());
        assert!(read(&"(".repeat(1_000_000)).is_err());
    }

    #[test]
    fn variants_survive() {
        let size = Size::new(13, 9).unwrap();
        let mut cfg = GameConfig::new(Rule::Freestyle, size);
        cfg.variant = Variant::ocean(size, 99);
        cfg.k = 4;
        cfg.first = Color::White;
        let mut r = Record::new(cfg);
        r.push_alternating(Pos::new_unchecked(3, 3), Some(17));
        r.tags.insert("EV".into(), "Cup [final]".into());
        let text = write(&r).unwrap();
        assert_eq!(read(&text).unwrap(), r, "{text}");
    }
}
