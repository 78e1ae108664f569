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

  // progress shows what is loading in a line of its own, outside the
  // part of the page that Vugu draws: the page's module first, then the
  // engine's. Sizes are the files' own (build/site writes them beside
  // the names); a server may send fewer bytes, compressed.
  const bar = document.getElementById("load-progress");
  const mb = (n) => (n / 1e6).toFixed(1) + " MB";
  // progress shows done of total bytes, or with total 0 a step of
  // unknown length (the meter then moves by itself).
  const progress = (what, done, total) => {
    if (!bar) return;
    bar.hidden = false;
    const meter = bar.querySelector("progress");
    if (total > 0) {
      bar.querySelector("span").textContent = what + ": " + mb(done) + " of " + mb(total);
      meter.value = Math.min(100, (100 * done) / total);
    } else {
      bar.querySelector("span").textContent = what;
      meter.removeAttribute("value");
    }
  };
  const progressDone = () => { if (bar) bar.hidden = true; };

  // counted fetches url and calls onBytes with the bytes read so far and
  // then with -1 at the end, handing the body on as it comes so that the
  // module still compiles while it downloads.
  const counted = (url, onBytes) =>
    fetch(url).then((res) => {
      if (!res.ok || !res.body || typeof TransformStream !== "function") {
        onBytes(-1);
        return res;
      }
      let n = 0;
      const count = new TransformStream({
        transform(chunk, ctl) {
          n += chunk.byteLength;
          onBytes(n);
          ctl.enqueue(chunk);
        },
        flush() {
          onBytes(-1);
        },
      });
      return new Response(res.body.pipeThrough(count), { status: res.status, statusText: res.statusText, headers: res.headers });
    });

  const uiSize = Number(tag.dataset.uiSize) || 0;
  const engineSize = Number(tag.dataset.engineSize) || 0;
  let engineStarted = false;
  let resolveEngine;
  s.engineModule = new Promise((resolve) => (resolveEngine = resolve));
  // The engine is fetched once the page's own module has arrived (or
  // failed), so that the two never share the connection: the page is
  // usable sooner, and the engine compiles while the page starts.
  const startEngine = () => {
    if (engineStarted) return;
    engineStarted = true;
    const compiling = WebAssembly.compileStreaming(
      counted(s.engine, (n) => (n >= 0 ? progress("Downloading the simulator", n, engineSize) : progress("Compiling the simulator…", 0, 0))),
    );
    compiling.then(progressDone, (err) => {
      if (bar) bar.querySelector("span").textContent = "The simulator could not load: " + err;
    });
    resolveEngine(compiling);
  };

  // The page first: its module starts at once. (A constructed Response
  // has no URL, so the browser keeps no compiled copy of the module for
  // the next visit; a cold start is what the progress is for.)
  const go = new Go();
  WebAssembly.instantiateStreaming(
    counted(s.ui, (n) => {
      const boot = document.getElementById("boot-what");
      if (n < 0) {
        if (boot) boot.textContent = "Starting schedlab…";
        startEngine();
      } else if (boot && uiSize > 0) {
        boot.textContent = "Loading schedlab: " + mb(n) + " of " + mb(uiSize);
      }
    }),
    go.importObject,
  )
    .then((r) => go.run(r.instance))
    .catch((err) => failed("loading the page", err));
  // The default scenario's results computed when the site was built
  // (build/site): small, fetched beside the page's module, and shown by
  // the page while the engine loads. null when they cannot be had. A
  // phone (the page draws narrower figures under 760 px, see web/app's
  // figureWidth) gets the ones drawn for a phone.
  const previewFile = window.innerWidth > 0 && window.innerWidth < 760 && tag.dataset.previewPhone
    ? tag.dataset.previewPhone
    : tag.dataset.preview;
  s.preview = previewFile
    ? fetch(previewFile).then((r) => (r.ok ? r.arrayBuffer() : null)).catch(() => null)
    : Promise.resolve(null);
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
