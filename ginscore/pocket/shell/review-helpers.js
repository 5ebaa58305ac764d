// ginscore app: the page's side of a review's helpers (helpers.js): each a Web Worker of helper.js, started when
// the worker asks, given the worker's compiled runtime and a port to answer the worker over; all ended when the
// worker says they are unused.
let started = [];

export function startHelpers(worker, message) {
  endHelpers();
  const ports = [];
  for (let slot = 0; slot < message.count; slot++) {
    const helper = new Worker("helper.js", { type: "module" });
    const channel = new MessageChannel();
    try {
      helper.postMessage({ kind: "runtime", module: message.module, port: channel.port2 }, [channel.port2]);
    } catch (error) {  // the compiled module not handed on: the helper compiles its own
      helper.postMessage({ kind: "runtime", module: null, port: channel.port2 }, [channel.port2]);
    }
    started.push(helper);
    ports.push(channel.port1);
  }
  worker.postMessage({ kind: "helpers", ports: ports }, ports);
}

export function endHelpers() {
  started.forEach(function (helper) { helper.terminate(); });
  started = [];
}
