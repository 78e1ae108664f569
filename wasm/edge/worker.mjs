// The Cloudflare Worker around schedlab's API (wasm/edge, sim/api).
// `make edge` puts it into build/edge beside app.wasm and Go's
// wasm_exec.js. Every request gets a fresh instance of the Go module, so
// no state passes from one request to the next; the module sets
// globalThis.schedlabAPI and calls the ready import given here, which
// takes that object at once, before another request's instance can set
// its own.
import "./wasm_exec.js";
import mod from "./app.wasm";

async function start() {
  const go = new Go();
  let api;
  const ready = new Promise((resolve) => {
    const instance = new WebAssembly.Instance(mod, {
      ...go.importObject,
      schedlab: {
        ready: () => {
          api = globalThis.schedlabAPI;
          delete globalThis.schedlabAPI;
          resolve();
        },
      },
    });
    go.run(instance);
  });
  await ready;
  return api;
}

// readBody keeps at most limit+1 bytes of the body, enough for the API to
// refuse one over its limit, and reads and drops up to limit more, so
// that a client still sending gets to read the refusal rather than a
// reset connection (sim/api's drain does the same natively).
async function readBody(request, limit) {
  if (request.body === null) {
    return null;
  }
  const reader = request.body.getReader();
  const chunks = [];
  let kept = 0;
  let seen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    seen += value.length;
    if (kept <= limit) {
      chunks.push(value);
      kept += value.length;
    }
    if (seen > 2 * limit + 1) {
      reader.cancel();
      break;
    }
  }
  const body = new Uint8Array(kept);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  return body;
}

export default {
  async fetch(request) {
    const api = await start();
    const length = request.headers.get("Content-Length");
    const body = await readBody(request, api.maxBodyBytes);
    const answer = await api.answer(request.method, new URL(request.url).pathname, length === null ? -1 : Number(length), body,
      request.headers.get("Content-Type"), request.headers.get("Origin"));
    api.exit(); // one request per instance
    const noBody = answer.status === 204 || request.method === "HEAD";
    return new Response(noBody ? null : answer.body, { status: answer.status, headers: answer.headers });
  },
};
