// Nodes per second of the engine in the browser (WebAssembly in a Web Worker, headless Chromium)
// against the native build, on the same positions and the same node counts: `wuzi bench` (Rapfi's
// benchmark positions, one thread, a cleared 16 MiB table, a fixed depth) run natively and by the
// page's engine. A measurement, not a test: it prints both figures and asserts nothing but that
// the node counts agree (the same search). Run by scripts/bench-wasm.sh:
//
//   bash scripts/bench-wasm.sh            # depth 8 (wuzi bench's default), 3 runs each
//   DEPTH=6 RUNS=1 bash scripts/bench-wasm.sh

import { execFileSync } from 'node:child_process';
import { startServer, openBrowser, wuziBinary } from './lib/harness.mjs';

const depth = Number(process.env.DEPTH || 8);
const runs = Number(process.env.RUNS || 3);
const hash = 16;
const bin = wuziBinary();

function native() {
  const out = execFileSync(bin, ['bench', '--depth', String(depth), '--hash', String(hash), '--quiet'], { encoding: 'utf8' });
  // `total nodes 607988`, `nodes/s 122048`
  const nodes = Number((/total nodes\s+(\d+)/.exec(out) || [])[1]);
  const nps = Number((/nodes\/s\s+(\d+)/.exec(out) || [])[1]);
  return { nodes, nps, out };
}

const server = await startServer();
const browser = await openBrowser();
try {
  const { page } = browser;
  await page.goto(server.url);
  const version = await browser.context.browser()?.version?.() ?? 'chromium';
  const wasm = [];
  for (let i = 0; i < runs; i++) {
    wasm.push(
      await page.evaluate(async ([d, h]) => {
        const engine = await import('/js/engine.js');
        if (!(await engine.available())) throw new Error('this binary has no page engine (build with WUZI_WASM=1)');
        return engine.bench(d, h);
      }, [depth, hash]),
    );
  }
  const nat = [];
  for (let i = 0; i < runs; i++) nat.push(native());
  const best = (xs) => Math.max(...xs.map((x) => x.nps));
  const w = wasm[0];
  console.log(`wuzi bench, depth ${depth}, 1 thread, hash ${hash} MiB, ${w.lines.length} positions, best of ${runs}`);
  console.log(`  native   (${bin}): ${nat[0].nodes} nodes, ${best(nat)} nodes/s (runs: ${nat.map((x) => x.nps).join(', ')})`);
  console.log(`  wasm     (headless ${version}, Web Worker): ${w.nodes} nodes, ${best(wasm)} nodes/s (runs: ${wasm.map((x) => x.nps).join(', ')})`);
  console.log(`  wasm / native: ${(best(wasm) / best(nat)).toFixed(2)}`);
  if (w.nodes !== nat[0].nodes) {
    console.log(`  note: the node counts differ (${w.nodes} vs ${nat[0].nodes}): not the same search`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  await server.stop();
}
