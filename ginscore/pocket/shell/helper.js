// ginscore app: a review's helper, a Web Worker with a Python of its own (started by review-helpers.js). Over its
// port the app's worker gives it a match file's text, the chance's model and its solved table once a review, then
// asks for one knock at a time, answered as a pickled review of that knock (ginscore.pocket.reviewer). It reads
// no stored match and writes nothing.
import { archive, lastLine, startPython } from "./python.js";

let given;
const runtime = new Promise(function (resolve) { given = resolve; });

// The worker's compiled runtime instantiated instead of the one Pyodide would fetch and compile again: only the
// runtime's own instantiation (the one given Emscripten's `env` imports), once; a small module Pyodide tries out
// for what the browser can do goes to the browser's own functions.
function instantiateGiven(module) {
  const original = { instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
  const isRuntime = function (imports) { return Boolean(imports && typeof imports === "object" && imports.env); };
  const made = function (imports) {
    Object.assign(WebAssembly, original);
    return original.instantiate.call(WebAssembly, module, imports).then(function (instance) { return { module: module, instance: instance }; });
  };
  WebAssembly.instantiateStreaming = function (source, imports) {
    return isRuntime(imports) ? made(imports) : original.instantiateStreaming.apply(WebAssembly, arguments);
  };
  WebAssembly.instantiate = function (source, imports) {
    return isRuntime(imports) && !(source instanceof WebAssembly.Module) ? made(imports) : original.instantiate.apply(WebAssembly, arguments);
  };
}

const reviewer = (async function () {
  const module = await runtime;
  if (module) instantiateGiven(module);
  const info = await (await fetch("./build.json")).json();
  const py = await startPython();
  await archive(py, info.archives.lean, info);
  return py.pyimport("ginscore.pocket.reviewer");
})();

async function answer(message) {
  const python = await reviewer;
  if (message.kind === "start") {
    python.start(message.text, message.model, message.table);
    return null;
  }
  const proxy = python.knock(message.index);
  try {
    return proxy.toJs();
  } finally {
    proxy.destroy();
  }
}

// The page's first message: the runtime to instantiate and the port the worker asks over.
self.onmessage = function (event) {
  const port = event.data.port;
  given(event.data.module);
  port.onmessage = function (asked) {
    const message = asked.data;
    answer(message).then(function (result) {
      port.postMessage({ id: message.id, ok: true, result: result }, result ? [result.buffer] : []);
    }, function (error) {
      port.postMessage({ id: message.id, ok: false, error: lastLine(error) });
    });
  };
};
