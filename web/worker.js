// The engine Web Worker. The page starts it and sends one "init" message
// with schedlab's module already compiled (a WebAssembly.Module, the one
// the page itself runs from, so that the 22 MB module is downloaded and
// compiled once for the page and every worker) or, where modules cannot
// be posted, the module's URL (the browser's cache then serves it). The
// worker then loads Go's wasm support and starts the module in its engine
// role (the argument "engine", see wasm/browser), which answers the
// page's messages itself (see web/protocol). URLs are relative to this
// script, so the site works under any base path (GitHub Pages).
"use strict";

let early = [];

onmessage = (e) => {
  if (e.data && e.data.type === "init") {
    start(e.data);
  } else {
    early.push(e); // before the engine took over onmessage
  }
};

// keepOutput remembers the end of what the Go program prints (Go writes
// "fatal error: out of memory" and its stacks there before exiting).
function keepOutput() {
  let out = "";
  const write = globalThis.fs.writeSync.bind(globalThis.fs);
  const decoder = new TextDecoder("utf-8");
  globalThis.fs.writeSync = (fd, buf) => {
    out = (out + decoder.decode(buf)).slice(-16384);
    return write(fd, buf);
  };
  return () => out;
}

function start(init) {
  importScripts(init.wasmExec);
  // The figures' fonts, fetched by the engine when it first draws.
  globalThis.schedlabFaces = init.faces || [];
  const output = keepOutput();
  const go = new Go();
  go.argv = ["schedlab.wasm", "engine"];
  // The engine never returns by itself: when its Go program exits (the
  // runtime out of memory, a fatal error), this worker is dead. Tell the
  // page, which replaces it, instead of leaving a run waiting forever.
  let told = false;
  const died = (code, extra) => {
    if (told) return;
    told = true;
    postMessage({ type: "exit", id: 0, json: JSON.stringify({ code, output: output() + (extra || "") }) });
  };
  go.exit = (code) => died(code);
  const instance = init.module
    ? WebAssembly.instantiate(init.module, go.importObject)
    : WebAssembly.instantiateStreaming(fetch(init.url), go.importObject).then((r) => r.instance);
  instance
    .then((inst) => {
      // the engine sets onmessage and posts "ready" before run returns
      go.run(inst).catch((err) => died(-1, "\nfatal error: " + err));
      for (const e of early) onmessage(e);
      early = [];
    })
    .catch((err) => {
      postMessage({ type: "error", id: 0, json: JSON.stringify({ message: "could not load the engine: " + err }) });
    });
}
