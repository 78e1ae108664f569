// The engine Web Worker: loads Go's wasm support and the engine, which then
// answers the page's messages itself (see wasm/protocol). Paths are relative
// to this script, so the site works under any base URL (GitHub Pages).
importScripts("wasm_exec.js");

const go = new Go();
WebAssembly.instantiateStreaming(fetch("engine.wasm"), go.importObject)
  .then((r) => go.run(r.instance))
  .catch((err) => postMessage({ type: "error", id: 0, json: JSON.stringify({ message: "could not load the engine: " + err }) }));
