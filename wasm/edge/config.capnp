# workerd's configuration for the Workers bundle that `make edge` writes
# into build/edge: its modules as one worker on one HTTP socket.
# `make edge-run` serves it on localhost:8787 (--socket-addr overrides).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .schedlab) ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "main") ],
);

const schedlab :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "wasm_exec.js", esModule = embed "wasm_exec.js"),
    (name = "app.wasm", wasm = embed "app.wasm"),
  ],
  compatibilityDate = "2025-06-01",
);
