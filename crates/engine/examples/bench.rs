//! `bench [DEPTH] [THREADS]`: the search benchmark (as `wuzi bench`).
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth = args
        .first()
        .map_or(wuzi_engine::bench::DEFAULT_DEPTH, |s| s.parse().unwrap());
    let threads = args.get(1).map_or(1, |s| s.parse().unwrap());
    let r = wuzi_engine::bench::run(depth, threads, 16);
    for l in &r.lines {
        let size = l.position.position.size();
        println!(
            "{:<9} {:<40} best {:<4} nodes {:>9} time {:>8.1?}",
            l.position.rule.name(),
            l.position.moves,
            l.best
                .map_or("-".to_string(), |b| size.notation(b).to_string()),
            l.nodes,
            l.time
        );
    }
    println!(
        "total nodes {} time {:.2?} nps {}",
        r.nodes,
        r.time,
        r.nps()
    );
}
