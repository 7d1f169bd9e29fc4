//! Game records for `wuzi match`: PSQ and SGF through `wuzi_rules::record` once the
//! record module lands; until then these minimal writers (same formats).

use wuzi_rules::{Color, Game, Pos, Size};

/// Piskvork's PSQ: header, one `x,y,ms` line per move (1-based), then the players.
pub fn psq(game: &Game, black: &str, white: &str) -> String {
    let size = game.size();
    let mut s = format!("Piskvorky {}x{}, 11:11, 0\n", size.width(), size.height());
    for m in game.moves() {
        s.push_str(&format!(
            "{},{},{}\n",
            u32::from(m.pos.x) + 1,
            u32::from(m.pos.y) + 1,
            m.time_ms.unwrap_or(0)
        ));
    }
    s.push_str(&format!("{black}\n{white}\n"));
    s
}

fn sgf_point(p: Pos) -> String {
    format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char)
}

fn sgf_text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// SGF (FF[4], GM[4]): points as two letters from `a`, y from the top.
pub fn sgf(game: &Game, black: &str, white: &str, result: &str) -> String {
    let size: Size = game.size();
    let sz = if size.is_square() {
        size.width().to_string()
    } else {
        format!("{}:{}", size.width(), size.height())
    };
    let mut s = format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[wuzi]SZ[{sz}]RU[{}]PB[{}]PW[{}]RE[{}]",
        game.rule(),
        sgf_text(black),
        sgf_text(white),
        sgf_text(result)
    );
    for m in game.moves() {
        let c = if m.color == Color::Black { 'B' } else { 'W' };
        s.push_str(&format!(";{c}[{}]", sgf_point(m.pos)));
        if let Some(ms) = m.time_ms {
            s.push_str(&format!("C[{ms} ms]"));
        }
    }
    s.push_str(")\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_rules::{GameConfig, Rule, notation};

    #[test]
    fn writes_both_formats() {
        let size = Size::STANDARD;
        let moves = notation::parse_moves("h8 i9", size).unwrap();
        let mut game = Game::new(GameConfig::new(Rule::Renju, size)).unwrap();
        game.try_play_timed(moves[0], Some(12)).unwrap();
        game.try_play_timed(moves[1], None).unwrap();
        assert_eq!(
            psq(&game, "a", "b"),
            "Piskvorky 15x15, 11:11, 0\n8,8,12\n9,7,0\na\nb\n"
        );
        assert_eq!(
            sgf(&game, "a]", "b", "B+R"),
            "(;FF[4]GM[4]CA[UTF-8]AP[wuzi]SZ[15]RU[renju]PB[a\\]]PW[b]RE[B+R];B[hh]C[12 ms];W[ig])\n"
        );
    }
}
