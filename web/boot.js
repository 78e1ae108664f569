// Starts schedlab's page. index.html loads Go's wasm_exec.js, Vugu's
// renderer helper and this script, which it names with their content
// hashes in the data- attributes of this script's tag (see build/site):
// the page's Content-Security-Policy allows no inline script.
"use strict";
(() => {
  const tag = document.currentScript;
  const s = (window.schedlab = {
    ui: tag.dataset.ui,
    engine: tag.dataset.engine,
    worker: tag.dataset.worker,
    wasmExec: tag.dataset.wasmExec,
  });

  const failed = (what, err) => {
    const boot = document.getElementById("boot");
    if (!boot) return;
    const p = document.createElement("p");
    p.className = "error";
    p.textContent = "schedlab could not start (" + what + ": " + err + "). A current browser with WebAssembly is needed.";
    boot.replaceChildren(p);
  };

  // Vugu's renderer hands its helper script to window.eval, which the CSP
  // forbids. The same script, taken from Vugu's source by build/site, is
  // loaded before this one and has defined window.vuguRender, so that
  // call has nothing left to do; any other eval is left to the browser
  // (and its CSP).
  const nativeEval = window.eval;
  window.eval = function (src) {
    if (typeof src === "string" && typeof window.vuguRender === "function" && src.startsWith("(function(){if(window.vuguRender)return;")) {
      return undefined;
    }
    return nativeEval(src);
  };

  // The page first: the small UI module starts at once.
  const go = new Go();
  WebAssembly.instantiateStreaming(fetch(s.ui), go.importObject)
    .then((r) => go.run(r.instance))
    .catch((err) => failed("loading the page", err));
  // The engine compiles in the background, once, for every worker.
  s.engineModule = WebAssembly.compileStreaming(fetch(s.engine));
  s.engineModule.catch(() => {}); // each worker then reports the failure
  // newWorker starts an engine worker (called by the page, see wasm/ui).
  s.newWorker = () => {
    const w = new Worker(s.worker);
    const plain = { type: "init", engine: s.engine, wasmExec: s.wasmExec };
    s.engineModule.then(
      (module) => {
        try {
          w.postMessage(Object.assign({ module }, plain));
        } catch (e) {
          w.postMessage(plain); // modules cannot be posted here: fetch it
        }
      },
      () => w.postMessage(plain));
    return w;
  };
})();
