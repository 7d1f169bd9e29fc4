// The engine in the browser: a Web Worker that runs wuzi's rules and engine compiled to
// WebAssembly (crates/wasm, served at wasm/wuzi.wasm). Messages in: `{ id, request }` (the JSON
// requests of crates/wasm: judge, think, solve, bench); out: `{ id, progress }` during a search,
// then `{ id, answer }` or `{ id, error }`. One request at a time (the search is single-threaded:
// it blocks this worker, never the page). Started by js/engine.js.

let wasm = null;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/// The request being answered (its progress reports carry its id).
let current = null;

const ready = (async () => {
  const url = new URL('../wasm/wuzi.wasm', self.location.href);
  const imports = {
    env: {
      wuzi_now: () => performance.now(),
      wuzi_progress: (ptr, len) => {
        const text = decoder.decode(new Uint8Array(wasm.exports.memory.buffer, ptr, len));
        if (current !== null) self.postMessage({ id: current, progress: JSON.parse(text) });
      },
    },
  };
  const res = await fetch(url);
  if (!res.ok) throw new Error(`no engine (${res.status})`);
  const { instance } = await WebAssembly.instantiate(await res.arrayBuffer(), imports);
  wasm = instance;
})();

function call(request) {
  const bytes = encoder.encode(JSON.stringify(request));
  const ptr = wasm.exports.wuzi_alloc(bytes.length);
  new Uint8Array(wasm.exports.memory.buffer, ptr, bytes.length).set(bytes);
  let len;
  try {
    len = wasm.exports.wuzi_call(ptr, bytes.length);
  } finally {
    wasm.exports.wuzi_free(ptr, bytes.length);
  }
  const text = decoder.decode(new Uint8Array(wasm.exports.memory.buffer, wasm.exports.wuzi_answer(), len));
  return JSON.parse(text);
}

self.onmessage = async (event) => {
  const { id, request } = event.data;
  try {
    await ready;
    current = id;
    const answer = call(request);
    if (answer && answer.error && !('index' in answer)) self.postMessage({ id, error: answer.error });
    else self.postMessage({ id, answer });
  } catch (e) {
    // A trap (a panic in the engine) leaves the instance unusable: say so, the page starts another.
    self.postMessage({ id, error: String((e && e.message) || e), fatal: e instanceof WebAssembly.RuntimeError || !wasm });
  } finally {
    current = null;
  }
};
