//! The RenLib reader on real libraries in `testdata/renlib/` (sources in its README). The
//! facts asserted were found by an independent reading (a separate script) and, where the
//! library says something about itself, by what it says.

use std::path::PathBuf;

use wuzi_rules::record::renlib;
use wuzi_rules::record::sgf;
use wuzi_rules::record::tree::GameTree;
use wuzi_rules::{Color, Rule, Size};

fn library(name: &str) -> renlib::Library {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/renlib")
        .join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(renlib::is_renlib(&bytes));
    renlib::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn notation(tree: &GameTree, node: wuzi_rules::record::tree::NodeId) -> String {
    let v: Vec<String> = tree
        .line(node)
        .iter()
        .map(|m| Size::STANDARD.notation(m.pos).to_string())
        .collect();
    v.join(" ")
}

fn leaves(tree: &GameTree) -> Vec<wuzi_rules::record::tree::NodeId> {
    tree.nodes()
        .filter(|&n| n != tree.root() && tree.children(n).is_empty())
        .collect()
}

#[test]
fn vcf_library() {
    let lib = library("VCF.lib");
    let t = &lib.tree;
    assert_eq!(lib.version, Some((3, 0)));
    assert_eq!((lib.labels, lib.skipped), (0, 0));
    assert_eq!(t.config().rule, Rule::Renju);
    assert_eq!(t.len(), 741);
    assert_eq!(t.nodes().filter(|&n| t.comment(n).is_some()).count(), 32);
    // The first comment says what the library holds: 31 positions with a VCF, one at
    // the end of each line.
    let h8 = t.node_at(&[0]).unwrap();
    let intro = t.comment(h8).unwrap();
    assert!(
        intro.starts_with("31 VCF positions\nFind all comments"),
        "{intro}"
    );
    let ends = leaves(t);
    assert_eq!(ends.len(), 31);
    // Each end says whose VCF it is, and that is the side to move there: 22 for Black,
    // 9 for White. This checks the tree's shape and the colours together.
    let mut black = 0;
    for &end in &ends {
        let game = t
            .position(end)
            .unwrap_or_else(|e| panic!("{}: {e}", notation(t, end)));
        let to_move = game.side_to_move();
        assert_eq!(
            t.comment(end),
            Some(format!("VCF for {to_move}").as_str()),
            "{}",
            notation(t, end)
        );
        black += usize::from(to_move == Color::Black);
    }
    assert_eq!(black, 22);
    let depths: Vec<usize> = ends.iter().map(|&n| t.depth(n)).collect();
    assert_eq!(depths.iter().max(), Some(&77));
    assert_eq!(depths.iter().min(), Some(&19));
    assert_eq!(
        notation(t, t.main_line_end()),
        "h8 h9 j10 i9 i10 j8 g9 h10 k7 f10 g10 g11 f12 k9 i7 j6 j9 h11 h12 j7 j12 j11 i11 \
         i12 k10 m10 g6 i8 k8 g7 j5 m6 k6 i4 f6 k4 h4 i3 e6 h6 d8 f8"
    );
    assert_eq!(t.validate(), Ok(()));
}

#[test]
fn kagetsu_library() {
    let lib = library("D4.lib");
    let t = &lib.tree;
    assert_eq!(lib.version, Some((3, 0)));
    assert_eq!(t.len(), 3058);
    assert_eq!(leaves(t).len(), 350);
    assert_eq!(t.nodes().filter(|&n| t.comment(n).is_some()).count(), 145);
    assert_eq!(t.nodes().map(|n| t.depth(n)).max(), Some(45));
    // D4 is the fourth direct opening, Kagetsu: h8, h9, i9.
    assert_eq!(
        notation(t, t.main_line_end()),
        "h8 h9 i9 g10 i8 g7 i7 i10 g8 f8 j6 k5 h6"
    );
    let p = |s: &str| Size::STANDARD.parse_pos(s).unwrap();
    let mut at = t.root();
    for m in ["h8", "h9", "i9", "g10", "j8"] {
        at = t.child_at(at, p(m)).unwrap_or_else(|| panic!("no {m}"));
    }
    assert_eq!(t.comment(at), Some("Transition to opening D7"));
    assert_eq!(t.validate(), Ok(()));
}

#[test]
fn libraries_convert_to_sgf_and_back() {
    for name in ["VCF.lib", "D4.lib"] {
        let tree = library(name).tree;
        let text = sgf::write_tree(&tree).unwrap();
        let back = sgf::read_tree(&text).unwrap();
        assert!(back == tree, "{name} did not survive SGF");
        // The main-line reader takes the first line of the same file.
        let record = sgf::read(&text).unwrap();
        assert_eq!(record.moves, tree.main_line());
    }
}

#[test]
fn cut_libraries_fail_cleanly() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/renlib/VCF.lib");
    let bytes = std::fs::read(path).unwrap();
    for len in 0..bytes.len() {
        // Every prefix either reads (a smaller tree) or names a byte; nothing panics.
        match renlib::read(&bytes[..len]) {
            Ok(lib) => assert!(lib.tree.len() <= 741),
            Err(e) => assert!(e.offset <= len, "{e}"),
        }
    }
    let mut flipped = bytes.clone();
    for i in (20..flipped.len()).step_by(7) {
        flipped[i] ^= 0x5a;
        let _ = renlib::read(&flipped);
    }
}
