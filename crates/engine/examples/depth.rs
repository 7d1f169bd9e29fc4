//! The nominal depth the search completes on the benchmark positions within a limit:
//! `depth nodes N [FEATURES]` (deterministic) or `depth ms N [FEATURES]` (timed; note
//! the machine's load with the result). `FEATURES` switches features as
//! `WUZI_FEATURES_OFF` does. Prints each position's depth, then the mean and median.
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use wuzi_engine::params::Features;
use wuzi_engine::{Engine, EngineOptions, SearchLimits};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: depth nodes|ms N [FEATURES]");
        std::process::exit(2);
    };
    let Some(n) = args.get(1).and_then(|a| a.parse::<u64>().ok()) else {
        usage()
    };
    let limits = match args[0].as_str() {
        "nodes" => SearchLimits {
            nodes: Some(n),
            ..SearchLimits::default()
        },
        "ms" => SearchLimits::per_move(Duration::from_millis(n)),
        _ => usage(),
    };
    let features = Features::ALL.switched(args.get(2).map_or("", String::as_str));
    let mut depths = Vec::new();
    let mut nodes = 0;
    let mut times = Vec::new();
    for p in wuzi_engine::bench::positions() {
        let mut e = Engine::new(EngineOptions {
            hash_mb: 16,
            threads: 1,
        });
        e.set_features(features);
        let verbose = std::env::var_os("DEPTH_VERBOSE").is_some();
        let r = e.search(&p.position, &limits, &AtomicBool::new(false), &mut |i| {
            if verbose {
                println!(
                    "  depth {:>2} seldepth {:>2} nodes {:>8} score {:?}",
                    i.depth, i.seldepth, i.nodes, i.score
                );
            }
        });
        println!(
            "{:<9} {:<40} depth {:>2} nodes {:>8} time {:>6.1?}",
            p.rule.name(),
            p.moves,
            r.depth,
            r.nodes,
            r.time
        );
        times.push(r.time);
        depths.push(r.depth);
        nodes += r.nodes;
    }
    depths.sort_unstable();
    let mean = f64::from(depths.iter().sum::<u32>()) / depths.len() as f64;
    times.sort_unstable();
    println!(
        "{} positions: mean depth {mean:.2}, median {}, {nodes} nodes, slowest {:.1?}",
        depths.len(),
        depths[depths.len() / 2],
        times[times.len() - 1]
    );
}
