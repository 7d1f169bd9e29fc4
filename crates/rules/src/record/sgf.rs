//! SGF (Smart Game Format, FF\[4\]) records of Gomoku/Renju, `GM[4]`.
//!
//! ```text
//! (;FF[4]GM[4]CA[UTF-8]AP[wuzi:0.1.0]SZ[15]RU[renju]PB[Ann]PW[wuzi level5]RE[W+R]
//! ;B[hh];W[ii]WZMS[850];B[jj])
//! ```
//!
//! Points are two letters from `a`, column then row, rows from the **top** (`hh` is h8 on
//! 15×15). `SZ[15]` or `SZ[20:15]` (columns:rows). Standard properties read and written:
//! `SZ RU PB PW RE DT ON PL` and moves `B`/`W`. wuzi's own
//! properties carry what SGF has no name for: `WZK` (k in a row), `WZTH` (theme `wood`,
//! `rock` or `ocean`), `WZS` (layout seed), `WZR` (walls), `WZO` (bubbles, repeats
//! allowed), `WZN` (bubbles needed to win), `WZMS` (a move's thinking time in ms).
//!
//! Real-world files are tolerated: whitespace anywhere between tokens, escaped `\]`,
//! lowercase letters in old FF\[3\] property names, unknown properties (kept in the record's
//! tags when they look like `EV`, `PC` ...) and several game trees (the first is read).
//! The parser is iterative, so deep nesting cannot overflow the stack.
//!
//! Two readers and two writers: [`read`] and [`write()`] hold one game as a [`Record`] (the
//! main line, the first child at every branch; setup stones `AB`/`AW` in the root become
//! alternating moves, Black first, since a wuzi game has no setup), and [`read_tree`] and
//! [`write_tree`] hold a [`GameTree`] with its variations (`(;B[hh](;W[hg])(;W[ig]))`), its
//! setup position (`AB`/`AW` with `PL`) and node comments (`C`).
//!
//! `RE` is read as resignation (`B+R`), time (`W+T`) or agreement (`Draw`); any other
//! result (`B+`, `W+F`, `0`) is decided by the moves and checked by
//! [`Record::to_game`](super::Record::to_game).

use std::collections::BTreeMap;

use super::tree::{GameTree, NodeId, Setup};
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

/// Reads the main line of the first game tree (its first variation at every branch);
/// setup stones become alternating moves. [`read_tree`] keeps the variations and the
/// setup.
pub fn read(text: &str) -> Result<Record, RecordError> {
    check_len(text)?;
    let nodes = parse_game_tree(text)?;
    let mut line = vec![&nodes[0].props];
    let mut at = &nodes[0];
    while let Some(&first) = at.children.first() {
        at = &nodes[first];
        line.push(&at.props);
    }
    interpret(text, &line)
}

/// A node of the parsed game tree: its properties, its parent and children (indices into
/// the list, which is in document order, so a parent comes before its children).
struct ParsedNode {
    props: Node,
    parent: Option<usize>,
    children: Vec<usize>,
}

/// Scans the first game tree of the file into its nodes; the root is the first. The scan
/// is iterative (a stack of open parentheses), so deep nesting cannot overflow. Text
/// before the first `(` and after the tree's closing `)` is ignored.
fn parse_game_tree(text: &str) -> Result<Vec<ParsedNode>, RecordError> {
    let bytes = text.as_bytes();
    let err = |at: usize, m: &str| syntax_at(FORMAT, text, at, m);
    let mut i = bytes
        .iter()
        .position(|&b| b == b'(')
        .ok_or_else(|| err(0, "no game tree: an SGF file starts with `(;`"))?;
    let mut nodes: Vec<ParsedNode> = Vec::new();
    // For each open `(`: the node its variation hangs from, and how many nodes there
    // were when it opened (a variation needs at least one node).
    let mut open: Vec<(Option<usize>, usize)> = Vec::new();
    let mut current: Option<usize> = None;
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let Some(&b) = bytes.get(i) else {
            return Err(err(text.len(), "the game tree is not closed (missing `)`)"));
        };
        match b {
            b'(' => {
                open.push((current, nodes.len()));
                i += 1;
            }
            b')' => {
                let (parent, before) = open.pop().unwrap_or((None, 0));
                if nodes.len() == before {
                    return Err(err(i, "the game tree has no node (expected `(;...)`)"));
                }
                current = parent;
                if open.is_empty() {
                    return Ok(nodes);
                }
                i += 1;
            }
            b';' => {
                if current.is_none() && !nodes.is_empty() {
                    // A second root inside the first tree's parentheses (`((;a)(;b))`):
                    // only the first is read, as with several game trees.
                    return Ok(nodes);
                }
                i += 1;
                let props = parse_node(text, &mut i)?;
                let index = nodes.len();
                if let Some(parent) = current {
                    nodes[parent].children.push(index);
                }
                nodes.push(ParsedNode {
                    props,
                    parent: current,
                    children: Vec::new(),
                });
                current = Some(index);
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

/// Reads a node's properties from just after its `;`, leaving `i` after the last one.
fn parse_node(text: &str, i: &mut usize) -> Result<Node, RecordError> {
    let bytes = text.as_bytes();
    let err = |at: usize, m: &str| syntax_at(FORMAT, text, at, m);
    let mut node = Vec::new();
    loop {
        while *i < bytes.len() && bytes[*i].is_ascii_whitespace() {
            *i += 1;
        }
        if !bytes.get(*i).is_some_and(u8::is_ascii_alphabetic) {
            return Ok(node);
        }
        let start = *i;
        while *i < bytes.len() && bytes[*i].is_ascii_alphabetic() {
            *i += 1;
        }
        let ident: String = text[start..*i]
            .chars()
            .filter(char::is_ascii_uppercase)
            .collect();
        if ident.is_empty() {
            return Err(err(start, "a property name needs an upper-case letter"));
        }
        let mut values = Vec::new();
        loop {
            while *i < bytes.len() && bytes[*i].is_ascii_whitespace() {
                *i += 1;
            }
            if bytes.get(*i) != Some(&b'[') {
                break;
            }
            let open = *i;
            let (value, next) = read_value(text, open + 1)
                .ok_or_else(|| err(open, "the value is not closed (missing `]`)"))?;
            values.push((value, open));
            *i = next;
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

/// The record's header from the root node: configuration, players, result, tags.
fn header(text: &str, root: &Node) -> Result<Record, RecordError> {
    let err = |at: usize, m: String| syntax_at(FORMAT, text, at, m);
    let get = |ident: &str| find(root, ident);

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
    let points = |ident: &str| points_of(text, root, ident, size);
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

    Ok(record)
}

/// Finds a property of a node.
fn find<'a>(node: &'a Node, ident: &str) -> Option<&'a Property> {
    node.iter().find(|p| p.ident == ident)
}

/// A property's first value, trimmed.
fn single(p: &Property) -> String {
    p.values[0].0.trim().to_string()
}

/// The points of a property's values (none when the node lacks it).
fn points_of(text: &str, node: &Node, ident: &str, size: Size) -> Result<Vec<Pos>, RecordError> {
    find(node, ident).map_or(Ok(Vec::new()), |p| {
        p.values
            .iter()
            .map(|(v, at)| parse_point(v, size).map_err(|m| syntax_at(FORMAT, text, *at, m)))
            .collect()
    })
}

/// A node's move and its thinking time, if it has one; setup properties are refused
/// after the root.
fn node_move(
    text: &str,
    node: &Node,
    is_root: bool,
    size: Size,
) -> Result<Option<Move>, RecordError> {
    let err = |at: usize, m: String| syntax_at(FORMAT, text, at, m);
    if let Some(p) = node
        .iter()
        .find(|p| matches!(p.ident.as_str(), "AB" | "AW" | "AE"))
        .filter(|_| !is_root)
    {
        return Err(err(
            p.offset,
            format!("setup ({}) after the first node is not supported", p.ident),
        ));
    }
    let time_ms = match find(node, "WZMS") {
        Some(p) => Some(
            single(p)
                .parse::<u64>()
                .map_err(|_| err(p.offset, format!("WZMS[{}] is not a time in ms", single(p))))?,
        ),
        None => None,
    };
    let mut found = None;
    for p in node {
        let color = match p.ident.as_str() {
            "B" => Color::Black,
            "W" => Color::White,
            _ => continue,
        };
        if found.is_some() || p.values.len() != 1 {
            return Err(err(p.offset, "one move per node".into()));
        }
        let (value, at) = &p.values[0];
        let pos = parse_point(value, size).map_err(|m| err(*at, m))?;
        found = Some(Move {
            pos,
            color,
            time_ms,
        });
    }
    Ok(found)
}

/// The player to move named by `PL`.
fn to_play(text: &str, root: &Node) -> Result<Option<Color>, RecordError> {
    find(root, "PL")
        .map(|p| {
            single(p)
                .parse::<Color>()
                .map_err(|e| syntax_at(FORMAT, text, p.offset, e.to_string()))
        })
        .transpose()
}

/// The main line as a record: the header, setup stones as alternating moves, the moves.
fn interpret(text: &str, nodes: &[&Node]) -> Result<Record, RecordError> {
    let err = |at: usize, m: String| syntax_at(FORMAT, text, at, m);
    let root = nodes[0];
    let mut record = header(text, root)?;
    let size = record.config.size;
    let get = |ident: &str| find(root, ident);
    let points = |ident: &str| points_of(text, root, ident, size);

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
        if let Some(mv) = node_move(text, node, n == 0, size)? {
            first_color.get_or_insert(mv.color);
            record.moves.push(mv);
        }
    }
    let to_play = to_play(text, root)?;
    // Setup stones start with Black; otherwise the first move, or PL in an empty game.
    record.config.first = if black.is_empty() && white.is_empty() {
        first_color.or(to_play).unwrap_or(Color::Black)
    } else {
        Color::Black
    };
    Ok(record)
}

/// Reads the first game tree with its variations, setup stones (`AB`/`AW`, with `PL` for
/// the side to move) and comments (`C`). Not validated: see [`GameTree::validate`].
///
/// Without `PL` the side to move at the root is the colour of the first move, else White
/// when the setup has more Black stones than White, else Black. A node without a move
/// (only a comment, say) is merged into its parent.
pub fn read_tree(text: &str) -> Result<GameTree, RecordError> {
    check_len(text)?;
    let nodes = parse_game_tree(text)?;
    let root = &nodes[0].props;
    let record = header(text, root)?;
    let size = record.config.size;
    if let Some(p) = find(root, "AE") {
        return Err(syntax_at(
            FORMAT,
            text,
            p.offset,
            "AE (remove stones) has no meaning in a game record",
        ));
    }
    let setup = Setup {
        black: points_of(text, root, "AB", size)?,
        white: points_of(text, root, "AW", size)?,
    };
    let mut moves = Vec::with_capacity(nodes.len());
    for (n, node) in nodes.iter().enumerate() {
        moves.push(node_move(text, &node.props, n == 0, size)?);
    }
    // The first move of the main line.
    let mut first_move = None;
    let mut at = 0;
    loop {
        if let Some(mv) = moves[at] {
            first_move = Some(mv.color);
            break;
        }
        match nodes[at].children.first() {
            Some(&next) => at = next,
            None => break,
        }
    }
    let mut config = record.config.clone();
    config.first = match (to_play(text, root)?, first_move) {
        (Some(color), _) | (None, Some(color)) => color,
        (None, None) if setup.black.len() > setup.white.len() => Color::White,
        (None, None) => Color::Black,
    };
    let mut tree = GameTree::with_setup(config, setup);
    tree.players = record.players;
    tree.opening = record.opening;
    tree.result = record.result;
    tree.dates = record.dates;
    tree.tags = record.tags;
    // Parents come before children, so one pass in document order maps every node.
    let mut ids: Vec<NodeId> = Vec::with_capacity(nodes.len());
    for (n, node) in nodes.iter().enumerate() {
        let attach = node.parent.map_or(tree.root(), |p| ids[p]);
        let id = match moves[n] {
            Some(mv) => tree
                .add_unchecked(attach, mv)
                .expect("the parent was just added"),
            None => attach,
        };
        if let Some(c) = find(&node.props, "C")
            && !c.values[0].0.is_empty()
        {
            let text = &c.values[0].0;
            let comment = match tree.comment(id) {
                Some(before) => format!("{before}\n{text}"),
                None => text.clone(),
            };
            tree.set_comment(id, Some(comment))
                .expect("the node was just added");
        }
        ids.push(id);
    }
    Ok(tree)
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
    let mut out = write_header(record);
    out.push('\n');
    for (i, m) in record.moves.iter().enumerate() {
        write_move(&mut out, m);
        if i % 10 == 9 {
            out.push('\n');
        }
    }
    out.push_str(")\n");
    Ok(out)
}

/// `;B[hh]` with the move's time.
fn write_move(out: &mut String, m: &Move) {
    let c = if m.color == Color::Black { 'B' } else { 'W' };
    out.push_str(&format!(";{c}[{}]", point_text(m.pos)));
    if let Some(ms) = m.time_ms {
        out.push_str(&format!("WZMS[{ms}]"));
    }
}

/// The root node's properties (`(;FF[4]GM[4]...`), without its moves or a line break.
fn write_header(record: &Record) -> String {
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
    out
}

/// Writes a tree as SGF with its variations (`(;B[hh](;W[hi])(;W[ii]))`), setup stones
/// (`AB`/`AW` with `PL`) and comments (`C`). Refuses points off the board.
pub fn write_tree(tree: &GameTree) -> Result<String, RecordError> {
    let size = tree.config().size;
    let off = tree
        .setup()
        .stones()
        .map(|(p, _)| p)
        .chain(tree.nodes().filter_map(|n| tree.mv(n)).map(|m| m.pos))
        .find(|&p| !size.contains(p));
    if let Some(p) = off {
        return Err(RecordError::Unsupported {
            format: FORMAT,
            what: format!("the point ({},{}) off the {size} board", p.x, p.y),
        });
    }
    let mut header = Record::new(tree.config().clone());
    header.players = tree.players.clone();
    header.opening = tree.opening.clone();
    header.result = tree.result.clone();
    header.dates = tree.dates.clone();
    header.tags = tree.tags.clone();
    require_on_board(&header, FORMAT)?;
    let mut out = write_header(&header);
    let setup = tree.setup();
    // PL[W] is in the header when White starts; PL[B] is said when a reader would guess
    // otherwise (a setup, or a main line that starts with White's move).
    let first_move = tree.children(tree.root()).first().and_then(|&n| tree.mv(n));
    if tree.config().first == Color::Black
        && (!setup.is_empty() || first_move.is_some_and(|m| m.color == Color::White))
    {
        out.push_str("PL[B]");
    }
    if !setup.is_empty() {
        for (ident, stones) in [("AB", &setup.black), ("AW", &setup.white)] {
            if !stones.is_empty() {
                out.push_str(ident);
                for &p in stones {
                    out.push_str(&format!("[{}]", point_text(p)));
                }
            }
        }
    }
    let comment = |out: &mut String, node: NodeId| {
        if let Some(c) = tree.comment(node) {
            out.push_str(&format!("C[{}]", escape(c)));
        }
    };
    comment(&mut out, tree.root());
    out.push('\n');

    enum Step {
        /// A node that continues its sequence.
        Node(NodeId),
        /// A node that starts a variation: `(` first.
        Open(NodeId),
        /// The end of a variation.
        Close,
    }
    let push_children = |stack: &mut Vec<Step>, node: NodeId| match tree.children(node) {
        [only] => stack.push(Step::Node(*only)),
        many => {
            for &child in many.iter().rev() {
                stack.push(Step::Close);
                stack.push(Step::Open(child));
            }
        }
    };
    let mut stack = Vec::new();
    push_children(&mut stack, tree.root());
    let mut in_line = 0;
    while let Some(step) = stack.pop() {
        let node = match step {
            Step::Close => {
                out.push(')');
                continue;
            }
            Step::Open(node) => {
                if !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push('(');
                in_line = 0;
                node
            }
            Step::Node(node) => node,
        };
        if let Some(mv) = tree.mv(node) {
            write_move(&mut out, &mv);
        }
        comment(&mut out, node);
        in_line += 1;
        if in_line % 10 == 0 {
            out.push('\n');
        }
        push_children(&mut stack, node);
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

    fn notation(tree: &GameTree, node: NodeId) -> String {
        let size = tree.config().size;
        let line: Vec<String> = tree
            .line(node)
            .iter()
            .map(|m| size.notation(m.pos).to_string())
            .collect();
        line.join(" ")
    }

    /// Every line of the tree, in pre-order, as renju notation.
    fn lines(tree: &GameTree) -> Vec<String> {
        tree.nodes()
            .filter(|&n| tree.children(n).is_empty())
            .map(|n| notation(tree, n))
            .collect()
    }

    #[test]
    fn reads_variations_comments_and_escapes() {
        let text = "(;FF[4]GM[4]SZ[15]RU[renju]PB[Ann]C[The start \\] of it]\n\
                    ;B[hh]C[centre]\n\
                    (;W[hg]C[direct: h9]\n  (;B[ig];W[jf])\n  (;B[if]C[a \\\\ backslash\nand a line]))\n\
                    (;W[ig]C[indirect]\n;C[a comment-only node];B[if]))";
        let tree = read_tree(text).unwrap();
        assert_eq!(tree.config().rule, Rule::Renju);
        assert_eq!(tree.players.black.name.as_deref(), Some("Ann"));
        assert_eq!(tree.comment(tree.root()), Some("The start ] of it"));
        assert_eq!(tree.len(), 7);
        assert_eq!(lines(&tree), ["h8 h9 i9 j10", "h8 h9 i10", "h8 i9 i10"]);
        let h9 = tree.node_at(&[0, 0]).unwrap();
        assert_eq!(tree.comment(h9), Some("direct: h9"));
        let i10 = tree.node_at(&[0, 0, 1]).unwrap();
        assert_eq!(tree.comment(i10), Some("a \\ backslash\nand a line"));
        // The comment-only node is merged into its parent, i9.
        let i9 = tree.node_at(&[0, 1]).unwrap();
        assert_eq!(tree.comment(i9), Some("indirect\na comment-only node"));
        assert_eq!(tree.validate(), Ok(()));
        // The main-line reader still reads the first line.
        let r = read(text).unwrap();
        assert_eq!(r.moves.len(), 4);
        // And the tree survives its own writer.
        let again = read_tree(&write_tree(&tree).unwrap()).unwrap();
        assert_eq!(again, tree);
    }

    #[test]
    fn reads_and_writes_a_setup_position() {
        // White to move in a set-up position; two answers for White.
        //    f g h i j
        //  9 . . O . .
        //  8 . X X X .
        let text = "(;GM[4]SZ[15]RU[freestyle]AB[gh][hh][ih]AW[hg]PL[W](;W[jh];B[fh])(;W[fh]))";
        let tree = read_tree(text).unwrap();
        assert_eq!(tree.setup().black.len(), 3);
        assert_eq!(tree.setup().white.len(), 1);
        assert_eq!(tree.config().first, Color::White);
        assert_eq!(lines(&tree), ["j8 f8", "f8"]);
        let board = tree.position(tree.root()).unwrap().board().diagram();
        assert!(board.contains(". X X X ."), "{board}");
        let written = write_tree(&tree).unwrap();
        assert!(written.contains("AB[gh][hh][ih]AW[hg]"), "{written}");
        assert_eq!(read_tree(&written).unwrap(), tree);
        // Without PL: the first move says who is to move; with no move, the side with
        // fewer stones.
        let t = read_tree("(;GM[4]AB[hh][ii]AW[jj];B[aa])").unwrap();
        assert_eq!(t.config().first, Color::Black);
        let t = read_tree("(;GM[4]AB[hh][ii]AW[jj])").unwrap();
        assert_eq!(t.config().first, Color::White);
        assert_eq!(read_tree(&write_tree(&t).unwrap()).unwrap(), t);
    }

    #[test]
    fn unusual_trees_survive_their_writer() {
        // Black to move, but the file's first move is White's (read, not validated).
        let t = read_tree("(;GM[4]PL[B];W[hh];B[ii])").unwrap();
        assert_eq!(t.config().first, Color::Black);
        assert_eq!(read_tree(&write_tree(&t).unwrap()).unwrap(), t);
        // An empty comment on a node without a move leaves its parent's comment alone.
        let t = read_tree("(;GM[4];B[hh]C[keep];C[])").unwrap();
        let h8 = t.node_at(&[0]).unwrap();
        assert_eq!(t.comment(h8), Some("keep"));
        assert_eq!(read_tree(&write_tree(&t).unwrap()).unwrap(), t);
    }

    #[test]
    fn tree_errors_name_the_place() {
        let cases = [
            ("(;GM[4](;B[hh])(;B[zz]))", 1, 19),
            ("(;GM[4](;B[hh])(;W[ii]AB[jj]))", 1, 23),
            ("(;GM[4](;B[hh])())", 1, 17),
            ("(;GM[4](;B[hh])(;W[ii]", 1, 23),
            ("(;GM[4]AE[hh])", 1, 8),
            ("(;GM[4];B[hh]W[ii])", 1, 14),
        ];
        for (text, line, column) in cases {
            match read_tree(text) {
                Err(RecordError::Syntax {
                    line: l, column: c, ..
                }) => assert_eq!((l, c), (line, column), "{text:?}"),
                other => panic!("{text:?} gave {other:?}"),
            }
        }
        // An illegal move reads (the tree is not validated) and is named by validate.
        let tree = read_tree("(;GM[4];B[hh](;W[ii])(;W[hh]))").unwrap();
        assert_eq!(
            tree.validate().unwrap_err().to_string(),
            "move 2 (h8): h8 is occupied"
        );
    }

    #[test]
    fn deep_variations_do_not_overflow() {
        let mut text = String::from("(;GM[4]SZ[26]");
        let n = 100_000;
        for i in 0..n {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            let p = (b'a' + (i % 26) as u8) as char;
            let q = (b'a' + (i / 26 % 26) as u8) as char;
            text.push_str(&format!("(;{c}[{p}{q}]"));
        }
        text.push_str(&")".repeat(n + 1));
        let tree = read_tree(&text).unwrap();
        assert_eq!(tree.len(), n);
        let written = write_tree(&tree).unwrap();
        assert_eq!(read_tree(&written).unwrap().len(), n);
    }
}
