//! The bench signature: the node total of the benchmark at a fixed depth on one
//! thread. It changes whenever the search changes; update the constant deliberately
//! (and say why in the commit) when that is intended.

/// Depth of the signature run (small, so the test is quick).
const DEPTH: u32 = 4;
/// Total nodes of `bench::run(DEPTH, 1, 16)`.
const SIGNATURE: u64 = 84_572;

#[test]
fn bench_node_signature() {
    let r = wuzi_engine::bench::run(DEPTH, 1, 16);
    assert_eq!(r.lines.len(), 10);
    assert!(r.lines.iter().all(|l| l.best.is_some()));
    assert_eq!(
        r.nodes, SIGNATURE,
        "bench signature changed: {} nodes (was {SIGNATURE})",
        r.nodes
    );
}
