//! Property tests: trees of variations with setup stones and comments survive SGF, editing
//! keeps them sound, and damaged SGF or RenLib input never panics.

use proptest::prelude::*;
use wuzi_rules::record::tree::{GameTree, NodeId, Setup};
use wuzi_rules::record::{renlib, sgf};
use wuzi_rules::{Color, GameConfig, Rule, Size};

#[derive(Clone, Debug)]
enum Edit {
    /// Play the `pick`th empty point at the `at`th live node.
    Play { at: usize, pick: usize },
    /// Comment the `at`th node.
    Comment { at: usize, text: String },
    /// Promote the `at`th node's variation.
    Promote { at: usize },
    /// Make the `at`th node's line the main line.
    Main { at: usize },
    /// Delete the `at`th node (not the root).
    Delete { at: usize },
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        6 => (any::<usize>(), any::<usize>()).prop_map(|(at, pick)| Edit::Play { at, pick }),
        2 => (any::<usize>(), "(\\PC|[\\]\\\\\n\r])*").prop_map(|(at, text)| Edit::Comment { at, text }),
        1 => any::<usize>().prop_map(|at| Edit::Promote { at }),
        1 => any::<usize>().prop_map(|at| Edit::Main { at }),
        1 => any::<usize>().prop_map(|at| Edit::Delete { at }),
    ]
}

#[derive(Clone, Debug)]
struct Spec {
    rule: Rule,
    width: u8,
    height: u8,
    setup: Vec<(usize, bool)>,
    white_first: bool,
    edits: Vec<Edit>,
    black_name: Option<String>,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        prop::sample::select(Rule::ALL.to_vec()),
        5u8..=19,
        5u8..=19,
        prop::collection::vec((any::<usize>(), any::<bool>()), 0..6),
        any::<bool>(),
        prop::collection::vec(edit(), 0..60),
        prop::option::of("[A-Za-z]([A-Za-z0-9 ]{0,10}[A-Za-z0-9])?"),
    )
        .prop_map(
            |(rule, width, height, setup, white_first, edits, black_name)| Spec {
                rule,
                width,
                height,
                setup,
                white_first,
                edits,
                black_name,
            },
        )
}

fn live(tree: &GameTree) -> Vec<NodeId> {
    tree.nodes().collect()
}

/// Builds a tree by editing: every move is played with [`GameTree::play`], so legal.
fn build(spec: &Spec) -> GameTree {
    let size = Size::new(spec.width, spec.height).unwrap();
    let mut config = GameConfig::new(spec.rule, size);
    config.first = if spec.white_first {
        Color::White
    } else {
        Color::Black
    };
    let mut setup = Setup::default();
    let mut taken = std::collections::HashSet::new();
    for &(i, black) in &spec.setup {
        let p = size.pos_at(i % size.cells());
        if taken.insert(p) {
            if black {
                setup.black.push(p);
            } else {
                setup.white.push(p);
            }
        }
    }
    let mut tree = GameTree::with_setup(config, setup);
    tree.players.black.name = spec.black_name.clone();
    for e in &spec.edits {
        let nodes = live(&tree);
        let pick_node = |at: usize| nodes[at % nodes.len()];
        match e {
            Edit::Play { at, pick } => {
                let node = pick_node(*at);
                let Ok(game) = tree.position(node) else {
                    continue;
                };
                if game.is_over() {
                    continue;
                }
                let empty: Vec<_> = game.board().empty_points().collect();
                if empty.is_empty() {
                    continue;
                }
                let p = empty[pick % empty.len()];
                let child = tree.play(node, p).unwrap();
                assert_eq!(tree.parent(child), Some(node));
            }
            Edit::Comment { at, text } => {
                tree.set_comment(pick_node(*at), Some(text.clone()))
                    .unwrap();
            }
            Edit::Promote { at } => {
                let node = pick_node(*at);
                if node != tree.root() {
                    tree.promote(node).unwrap();
                }
            }
            Edit::Main { at } => {
                let node = pick_node(*at);
                if node != tree.root() {
                    let line = tree.line(node);
                    tree.make_main_line(node).unwrap();
                    assert_eq!(tree.main_line()[..line.len()], line[..]);
                }
            }
            Edit::Delete { at } => {
                let node = pick_node(*at);
                if node != tree.root() {
                    let before = tree.len();
                    let gone = tree.delete(node).unwrap();
                    assert_eq!(tree.len(), before - gone);
                    assert!(!tree.contains(node));
                }
            }
        }
    }
    tree
}

/// A tree as a file might hold it, never validated: any colours, any points on the board,
/// setup stones that may overlap, a side to move that may not fit.
fn unchecked() -> impl Strategy<Value = GameTree> {
    (
        5u8..=26,
        5u8..=26,
        any::<bool>(),
        prop::collection::vec((any::<u16>(), any::<bool>()), 0..5),
        prop::collection::vec(
            (
                any::<usize>(),
                any::<u16>(),
                any::<bool>(),
                prop::option::of("[ -~]{0,6}"),
            ),
            0..40,
        ),
    )
        .prop_map(|(w, h, white_first, setup, adds)| {
            let size = Size::new(w, h).unwrap();
            let mut config = GameConfig::new(Rule::Renju, size);
            config.first = if white_first {
                Color::White
            } else {
                Color::Black
            };
            let mut s = Setup::default();
            for (i, black) in setup {
                let p = size.pos_at(usize::from(i) % size.cells());
                if black {
                    s.black.push(p)
                } else {
                    s.white.push(p)
                }
            }
            let mut tree = GameTree::with_setup(config, s);
            for (at, i, black, comment) in adds {
                let nodes = live(&tree);
                let parent = nodes[at % nodes.len()];
                let mv = wuzi_rules::Move {
                    pos: size.pos_at(usize::from(i) % size.cells()),
                    color: if black { Color::Black } else { Color::White },
                    time_ms: None,
                };
                let child = tree.add_unchecked(parent, mv).unwrap();
                tree.set_comment(child, comment).unwrap();
            }
            tree
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn unchecked_trees_survive_sgf(tree in unchecked()) {
        let text = sgf::write_tree(&tree).unwrap();
        let back = sgf::read_tree(&text).unwrap();
        prop_assert!(back == tree, "{}", text);
        let _ = tree.validate();
    }

    #[test]
    fn trees_survive_sgf(spec in spec()) {
        let tree = build(&spec);
        prop_assert_eq!(tree.nodes().count(), tree.len() + 1);
        // Paths and ids agree.
        for n in tree.nodes() {
            let path = tree.path(n).unwrap();
            prop_assert_eq!(tree.node_at(&path), Some(n));
            prop_assert_eq!(path.len(), tree.depth(n));
        }
        if tree.position(tree.root()).is_ok() {
            prop_assert_eq!(tree.validate(), Ok(()));
        }
        let text = sgf::write_tree(&tree).unwrap();
        let back = sgf::read_tree(&text).unwrap();
        prop_assert!(back == tree, "{}", text);
    }

    #[test]
    fn damaged_sgf_never_panics(spec in spec(), cut in any::<usize>(), flip in any::<(usize, u8)>()) {
        let text = sgf::write_tree(&build(&spec)).unwrap();
        let mut bytes = text.into_bytes();
        let len = bytes.len();
        bytes[flip.0 % len] = flip.1 & 0x7f;
        bytes.truncate(cut % (len + 1));
        if let Ok(s) = std::str::from_utf8(&bytes)
            && let Ok(tree) = sgf::read_tree(s)
        {
            let _ = tree.validate();
            let _ = sgf::write_tree(&tree);
        }
    }

    #[test]
    fn any_renlib_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..400), header in any::<bool>()) {
        let mut bytes = if header {
            b"\xffRenLib\xff\x03\x04\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff".to_vec()
        } else {
            vec![0x78]
        };
        bytes.extend(body);
        if let Ok(lib) = renlib::read(&bytes) {
            let _ = lib.tree.validate();
            let text = sgf::write_tree(&lib.tree).unwrap();
            prop_assert!(sgf::read_tree(&text).unwrap() == lib.tree);
        }
    }
}
