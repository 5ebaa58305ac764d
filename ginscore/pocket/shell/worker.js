// ginscore app: the Web Worker that runs ginscore's own Python (Pyodide) and keeps the match files.
// The page sends {id, kind, ...}; the answer is {id, ok, result} or {id, ok: false, error}.
// Each request runs serve's app (ginscore.pocket.worker.request) over an in-memory folder filled from IndexedDB;
// a change runs inside a browser lock (navigator.locks), re-reads the stored texts first, writes what changed back
// in one transaction, and tells the other tabs (BroadcastChannel).
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { CHANNEL, LOCK, texts, write } from "./store.js";

const channel = new BroadcastChannel(CHANNEL);
const times = { began: performance.now() };
let pocket = null;

function say(message) { self.postMessage(message); }

async function archive(py, path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(path + ": " + response.status);
  py.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: py.runPython("import sysconfig; sysconfig.get_paths()['purelib']") });
  py.runPython("import importlib; importlib.invalidate_caches()");
}

const build = fetch("./build.json").then(function (response) { return response.json(); });
const lean = (async function () {
  const info = await build;
  say({ type: "progress", value: 0.1, text: "Starting Python" });
  const here = new URL("./pyodide/", import.meta.url).href;
  const py = await loadPyodide({ indexURL: here, packageBaseUrl: here, fullStdLib: false, stdout: function () {}, stderr: function (line) { console.warn(line); } });
  times.python = performance.now();
  say({ type: "progress", value: 0.7, text: "Loading ginscore" });
  await archive(py, info.archives.lean);
  pocket = py.pyimport("ginscore.pocket.worker");
  times.lean = performance.now();
  say({ type: "lean" });
  return py;
})();
const pages = (async function () {
  const py = await lean;
  const info = await build;
  await summarise();
  say({ type: "progress", value: 0.85, text: "Loading the pages" });
  await archive(py, info.archives.pages);
  pocket.start_pages();
  times.pages = performance.now();
  say({ type: "ready", times: times });
  return py;
})();
lean.catch(function (error) { say({ type: "failed", error: String(error) }); });
pages.catch(function (error) { say({ type: "failed", error: String(error) }); });

// The stored texts into the in-memory folder, then `run`, then what changed back into storage and the other tabs told.
async function changing(run, tab) {
  return navigator.locks.request(LOCK, async function () {
    pocket.sync(JSON.stringify(await texts()));
    const result = await run();
    const changed = JSON.parse(pocket.changes());
    const names = Object.keys(changed.texts);
    if (names.length) {
      await write(changed.texts, changed.summaries);
      channel.postMessage({ changed: names, tab: tab });
    }
    return result;
  });
}

// Each stored match's line for the list, computed again by Python (an older build may have stored none).
async function summarise() {
  await changing(async function () {
    const lines = JSON.parse(pocket.summaries());
    await write({}, lines);
  });
}

async function request(message) {
  await pages;
  const run = async function () {
    const answer = await pocket.request(message.method, message.path, message.query || "", message.body || "", message.contentType || "");
    const result = answer.toJs({ dict_converter: Object.fromEntries });
    answer.destroy();
    return result;
  };
  if (message.method === "GET" || message.method === "HEAD") {
    pocket.sync(JSON.stringify(await texts()));  // one read transaction: another tab's hand is seen at once
    return run();
  }
  return changing(run, message.tab);
}

const kinds = {
  request: request,
  check: async function (message) { await lean; return pocket.check(message.text); },
  check_json: async function (message) { await lean; return pocket.check_json(message.text); },
  open: async function (message) {
    await pages;
    return changing(async function () { return JSON.parse(pocket.opened(message.name, message.text)); }, message.tab);
  },
  times: async function () { return times; },
};

self.onmessage = async function (event) {
  const message = event.data;
  try {
    const result = await kinds[message.kind](message);
    self.postMessage({ id: message.id, ok: true, result: result }, result && result.body && result.body.buffer ? [result.body.buffer] : []);
  } catch (error) {
    console.error(error);
    self.postMessage({ id: message.id, ok: false, error: String(error && error.message || error) });
  }
};
