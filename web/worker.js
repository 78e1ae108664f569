// The engine Web Worker. The page starts it and sends one "init" message
// with the engine already compiled (a WebAssembly.Module shared by every
// worker, so the 13 MB engine compiles once) or, where modules cannot be
// posted, the engine's URL. The worker then loads Go's wasm support and
// runs the engine, which answers the page's messages itself (see
// web/protocol). URLs are relative to this script, so the site works
// under any base path (GitHub Pages).
"use strict";

let early = [];

onmessage = (e) => {
  if (e.data && e.data.type === "init") {
    start(e.data);
  } else {
    early.push(e); // before the engine took over onmessage
  }
};

function start(init) {
  importScripts(init.wasmExec);
  const go = new Go();
  const instance = init.module
    ? WebAssembly.instantiate(init.module, go.importObject)
    : WebAssembly.instantiateStreaming(fetch(init.engine), go.importObject).then((r) => r.instance);
  instance
    .then((inst) => {
      go.run(inst); // the engine sets onmessage and posts "ready" before this returns
      for (const e of early) onmessage(e);
      early = [];
    })
    .catch((err) => {
      postMessage({ type: "error", id: 0, json: JSON.stringify({ message: "could not load the engine: " + err }) });
    });
}
