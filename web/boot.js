// Starts schedlab's page. index.html loads Go's wasm_exec.js, Vugu's
// renderer helper and this script, which it names with their content
// hashes in the data- attributes of this script's tag (see build/site):
// the page's Content-Security-Policy allows no inline script.
"use strict";
(() => {
  const tag = document.currentScript;
  const s = (window.schedlab = {
    module: tag.dataset.module,
    worker: tag.dataset.worker,
    wasmExec: tag.dataset.wasmExec,
    // the figures' two fonts, which the module leaves out: each engine
    // worker fetches them when it first draws (see sim/plot's FaceData).
    // Absolute, since a worker's own base may not resolve a relative name.
    faces: (tag.dataset.faces || "").split(" ").filter((f) => f).map((f) => new URL(f, document.baseURI).href),
  });

  // The failure replaces the loading placeholder, or the download's
  // progress line of the first screen drawn when the site was built.
  const failed = (what, err) => {
    const boot = document.getElementById("boot") || document.getElementById("boot-what");
    if (!boot) return;
    const p = document.createElement(boot.id === "boot" ? "p" : "span");
    p.className = "error";
    // A download that failed is the network's or the server's doing, not
    // the browser's: say what to try.
    const advice = err && err.download ? "Check the connection, then reload the page." : "A current browser with WebAssembly is needed.";
    p.textContent = "schedlab could not start (" + what + ": " + (err && err.message ? err.message : err) + "). " + advice;
    boot.replaceChildren(p);
    // The first screen drawn when the site was built says a run is under
    // way; with no page to run it, it is not.
    const run = document.getElementById("run");
    if (run && document.querySelector("[data-snapshot]")) {
      run.textContent = "Run";
      run.removeAttribute("aria-busy");
      run.title = "schedlab could not start";
    }
    const running = document.querySelector("#built span");
    if (running) running.remove();
  };

  // index.html holds the page's first screen as the page draws it once it
  // has shown the default scenario's results computed when the site was
  // built (build/site, web/snapshot; its root carries data-snapshot until
  // the page renders over it). It is of the default scenario only: a page
  // that opens another (a link's, or one this browser has stored) gets the
  // header and the download's progress instead.
  const snap = document.querySelector("[data-snapshot]");
  const storedSum = (v) => {
    let h = 2166136261; // FNV-1a over UTF-16 code units, as build/site's storedSum
    for (let i = 0; i < v.length; i++) h = Math.imul(h ^ v.charCodeAt(i), 16777619) >>> 0;
    return h.toString(16);
  };
  const opensDefault = () => {
    if (location.hash.length > 1) return false;
    try {
      const v = localStorage.getItem("schedlab.scenario.v1");
      return v === null || storedSum(v) === tag.dataset.snapshotOf;
    } catch (e) {
      return true; // no storage: the page opens the default scenario
    }
  };
  if (snap && !opensDefault()) {
    const boot = document.createElement("div");
    boot.className = "boot";
    boot.id = "boot";
    const spin = document.createElement("div");
    spin.className = "spinner";
    spin.setAttribute("aria-hidden", "true");
    const what = document.createElement("p");
    what.id = "boot-what";
    what.textContent = "Loading schedlab…";
    boot.append(spin, what);
    const header = snap.querySelector("header");
    snap.replaceChildren(...(header ? [header] : []), boot);
  } else if (snap) {
    // A figure comes as a picture (a phone's image, or a desktop's); once
    // loaded, its image leaves the picture, keeping the address it shows,
    // so that the page finds the element it draws (an image) there and
    // only changes its address, not the element (which would blank it).
    for (const pic of snap.querySelectorAll("picture")) {
      const img = pic.querySelector("img");
      if (!img) continue;
      const unwrap = () => {
        if (img.currentSrc) img.src = img.currentSrc;
        pic.replaceWith(img);
      };
      if (img.complete) unwrap();
      else img.addEventListener("load", unwrap, { once: true });
    }
  }

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

  // counted fetches url and calls onBytes with the bytes read so far and
  // then with -1 at the end. It reads a copy of the body (Response.clone)
  // and hands on the fetch's own response, which the module compiles
  // from as it downloads (not a Response made here: see below).
  const counted = (url, onBytes) =>
    fetch(url).then((res) => {
      if (!res.ok) {
        onBytes(-1);
        throw Object.assign(new Error("the server answered " + res.status + " " + res.statusText + " for " + url), { download: true });
      }
      if (!res.body) {
        onBytes(-1);
        return res;
      }
      const reader = res.clone().body.getReader();
      let n = 0;
      const count = () =>
        reader.read().then(({ done, value }) => {
          if (done) {
            onBytes(-1);
            return;
          }
          n += value.byteLength;
          onBytes(n);
          return count();
        }, () => onBytes(-1));
      count();
      return res;
    }, (err) => {
      throw Object.assign(new Error("could not download " + url + " (" + err.message + ")"), { download: true });
    });

  // One module is both the page and the engine (wasm/browser): it is
  // downloaded and compiled once, here, then started as the page on this
  // thread and handed, compiled, to every engine worker (newWorker). Its
  // size is the file's own (build/site writes it beside the name); a
  // server may send fewer bytes, compressed. Chrome keeps the module's
  // optimised code once it has compiled enough of it, and compiles the
  // next visit from that copy (build/e2e's TestLoadFigures, "a second
  // visit"): only for a module compiled from the fetch's own Response,
  // which counted hands on.
  const mb = (n) => (n / 1e6).toFixed(1) + " MB";
  const moduleSize = Number(tag.dataset.moduleSize) || 0;
  s.compiled = WebAssembly.compileStreaming(
    counted(s.module, (n) => {
      const boot = document.getElementById("boot-what");
      if (!boot) return;
      if (n < 0) {
        boot.textContent = "Starting schedlab…";
      } else if (moduleSize > 0) {
        boot.textContent = "Loading schedlab: " + mb(n) + " of " + mb(moduleSize);
      }
    }),
  );
  const go = new Go();
  s.compiled
    .then((module) => WebAssembly.instantiate(module, go.importObject))
    .then((instance) => go.run(instance))
    .catch((err) => failed("loading the page", err));
  // The default scenario's results computed when the site was built
  // (build/site): small, fetched beside the module, and shown by the page
  // until its engine workers have run the scenario themselves. null when
  // they cannot be had. A
  // phone (the page draws narrower figures under 760 px, see web/app's
  // figureWidth) gets the ones drawn for a phone.
  const previewFile = window.innerWidth > 0 && window.innerWidth < 760 && tag.dataset.previewPhone
    ? tag.dataset.previewPhone
    : tag.dataset.preview;
  const preview = previewFile
    ? fetch(previewFile).then((r) => (r.ok ? r.arrayBuffer() : null)).catch(() => null)
    : Promise.resolve(null);
  // The page's first render waits for them (wasm/browser's showPreview),
  // so that it draws what the first screen in index.html already shows,
  // over its elements; never for more than two seconds after the module
  // has compiled (then null: the results come from the page's own run).
  s.preview = s.compiled.then(
    () => Promise.race([preview, new Promise((done) => setTimeout(() => done(null), 2000))]),
    () => preview);
  s.compiled.catch(() => {}); // each worker then reports the failure
  // newWorker starts an engine worker (called by the page, see
  // wasm/browser): the same module in its engine role.
  s.newWorker = () => {
    const w = new Worker(s.worker);
    const plain = { type: "init", url: s.module, wasmExec: s.wasmExec, faces: s.faces };
    s.compiled.then(
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
