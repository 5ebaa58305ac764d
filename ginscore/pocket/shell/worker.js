// ginscore app: the Web Worker that runs ginscore's own Python (Pyodide) and keeps the match files.
// The page sends {id, kind, ...}; the answer is {id, ok, result} or {id, ok: false, error}.
// Every message waits its turn in one queue: nothing a request holds in memory is touched by another.
// A request runs serve's app (ginscore.pocket.worker.request) over an in-memory folder holding only the match
// files it names, each read from IndexedDB only when its generation moved (store.js). A request that may change
// the folder runs inside the browser's one lock (navigator.locks) for every tab, writes back only what changed
// in one transaction, is answered only once that transaction has completed, and tells the other tabs
// (BroadcastChannel).
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { CHANNEL, LOCK, remove, serial, snapshot, value, write } from "./store.js";

const channel = new BroadcastChannel(CHANNEL);
const times = { began: performance.now() };
const turn = serial();
const held = new Map();  // name -> the generation of the text Python holds
let pocket = null, damaged = [], oddKeys = [];

function say(message) { self.postMessage(message); }

async function archive(py, path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(path + ": " + response.status);
  py.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: py.runPython("import sysconfig; sysconfig.get_paths()['purelib']") });
  py.runPython("import importlib; importlib.invalidate_caches()");
}

// Pyodide only logs a runtime that does not compile, and waits forever: say so instead. (A wrong media type makes
// the streaming compile fail with a TypeError, and Pyodide then compiles the bytes: that is no failure.)
["instantiate", "instantiateStreaming"].forEach(function (name) {
  const original = WebAssembly[name];
  if (typeof original !== "function") return;
  WebAssembly[name] = function () {
    return original.apply(WebAssembly, arguments).catch(function (error) {
      if (error instanceof WebAssembly.CompileError || error instanceof WebAssembly.LinkError) failed("its files are damaged (" + error.message + ")");
      throw error;
    });
  };
});

const build = fetch("./build.json").then(function (response) { return response.json(); });
const lean = (async function () {
  const info = await build;
  say({ type: "progress", value: 0.1, text: "Getting the score pad ready" });
  const here = new URL("./pyodide/", import.meta.url).href;
  const py = await loadPyodide({ indexURL: here, packageBaseUrl: here, fullStdLib: false, stdout: function () {}, stderr: function (line) { console.warn(line); } });
  times.python = performance.now();
  say({ type: "progress", value: 0.7, text: "Loading the score pad" });
  await archive(py, info.archives.lean);
  pocket = py.pyimport("ginscore.pocket.worker");
  times.lean = performance.now();
  say({ type: "lean" });
  return py;
})();
const pages = (async function () {
  const py = await lean;
  const info = await build;
  say({ type: "progress", value: 0.85, text: "Loading the pages" });
  await archive(py, info.archives.pages);
  pocket.start_pages();
  times.pages = performance.now();
  say({ type: "ready", times: times });
  return py;
})();
function failed(error) { say({ type: "failed", error: String(error && error.message || error) }); }
lean.catch(failed);
pages.catch(failed);
self.addEventListener("unhandledrejection", function (event) { if (!pocket) failed(event.reason); });

// --- which stored records a request needs --------------------------------------------------------------------
// Python says it: the app's routes name the match files an address reads, and a page that draws on the whole
// table (the series, the chances, the players' figures) marks that it read a text not loaded; it is then asked
// again with every stored text. Each is read from IndexedDB only when its generation moved.

function storedNames(seen) { return seen.keys.filter(function (key) { return typeof key === "string"; }); }

function describe(stored) {
  if (stored === null) return "nothing (null)";
  if (Array.isArray(stored)) return "a list";
  if (typeof stored === "object") return "an object (" + (stored.constructor && stored.constructor.name || "Object") + ")";
  return "a " + typeof stored;
}

// The snapshot into Python: texts (null where none is stored), what is stored instead of a text, the rest as read.
function hold(seen) {
  const texts = {}, others = {};
  Object.keys(seen.texts).forEach(function (name) {
    const stored = seen.texts[name];
    if (stored === undefined) { texts[name] = null; held.delete(name); }
    else if (typeof stored === "string") texts[name] = stored;
    else { others[name] = describe(stored); held.delete(name); }
  });
  const keys = seen.keys === null ? null : seen.keys.filter(function (key) { return typeof key === "string"; });
  const answer = JSON.parse(pocket.hold(JSON.stringify({ keys: keys, generations: seen.generations, texts: texts, others: others, summaries: seen.summaries, next: seen.next })));
  answer.held.forEach(function (name) { held.set(name, seen.generations[name]); });
  if (seen.keys !== null) oddKeys = seen.keys.filter(function (key) { return typeof key !== "string"; });
  damaged = Object.entries(answer.damaged).map(function ([key, reason]) { return { key: key, reason: reason }; })
    .concat(oddKeys.map(function (key) { return { key: key, reason: "its name is not a text" }; }));
  return answer;
}

// What the request changed into the store, answered once stored; the other tabs told.
async function keep(tab) {
  const changed = JSON.parse(pocket.changes());
  const names = Object.keys(changed.texts);
  if (!names.length && !Object.keys(changed.next).length) return;
  const made = await write(changed, held);
  Object.entries(made).forEach(function ([name, generation]) { if (generation === null) held.delete(name); else held.set(name, generation); });
  channel.postMessage({ changed: names, tab: tab });
}

// Summaries computed again (none stored, or not for the stored text) are stored for the next list, and summaries
// whose text is gone are dropped: both only where the store still says so (store.write checks).
async function tidy(seen, need, locked) {
  const lines = JSON.parse(pocket.lines(JSON.stringify(need)));
  Object.keys(lines).forEach(function (name) { lines[name].generation = held.get(name); });
  const kept = new Set(seen.keys);
  const dropped = Object.keys(seen.summaries).filter(function (name) { return !kept.has(name); });
  if (!Object.keys(lines).length && !dropped.length) return;
  const store = function () { return write({ lines: lines, dropped: dropped }); };
  await (locked ? store() : navigator.locks.request(LOCK, store));
}

async function run(method, path, query, body, type) {
  const answer = await pocket.request(method, path, query || "", body || "", type || "");
  const result = answer.toJs({ dict_converter: Object.fromEntries });
  answer.destroy();
  return result;
}

async function request(message) {
  await pages;
  const changing = message.method !== "GET" && message.method !== "HEAD";
  const asked = JSON.parse(pocket.reads(message.method, message.path));
  const listing = asked.listing;
  const work = async function () {
    // a change may answer with figures of the whole table after it has written: every text is there first
    const names = changing ? storedNames(await snapshot({ all: true })) : asked.names;
    const seen = await snapshot({ names: names, all: true, listing: listing, links: asked.links, held: held });
    const need = hold(seen).need;
    if (need.length) hold(await snapshot({ names: need, held: held }));
    let result;
    try {
      result = await run(message.method, message.path, message.query, message.body, message.contentType);
      if (result.need && !changing) {
        hold(await snapshot({ names: storedNames(await snapshot({ all: true })), held: held }));
        result = await run(message.method, message.path, message.query, message.body, message.contentType);
      }
      if (changing) await keep(message.tab);
    } catch (error) {
      pocket.forget();
      held.clear();
      throw error;
    }
    if (listing) await tidy(seen, need, changing).catch(function (error) { console.warn(error); });  // stored already: the answer stands
    if (listing) result.damaged = damaged;
    return result;
  };
  return changing ? navigator.locks.request(LOCK, work) : work();
}

// A file opened on the phone: its size checked before it is read, then read as `validate` reads one.
async function open(message) {
  await pages;
  const file = message.file;
  const early = JSON.parse(pocket.before_reading(file.name, file.size));
  if (early.error) return early;
  const data = new Uint8Array(await file.arrayBuffer());
  return navigator.locks.request(LOCK, async function () {
    hold(await snapshot({ names: storedNames(await snapshot({ all: true })), all: true, held: held }));  // every text: the file may be one of them
    let answer;
    try {
      answer = JSON.parse(pocket.opened(file.name, data, message.choice || ""));
      await keep(message.tab);
    } catch (error) {
      pocket.forget();
      held.clear();
      throw error;
    }
    return answer;
  });
}

const kinds = {
  request: request,
  open: open,
  check: async function (message) { await lean; return pocket.check(message.text); },
  check_json: async function (message) { await lean; return pocket.check_json(message.text); },
  // a damaged record, as it is stored, and its removal when the person asks
  value: async function (message) { return value(message.key); },
  remove: async function (message) {
    await navigator.locks.request(LOCK, function () { return remove(message.key); });
    channel.postMessage({ changed: [], tab: message.tab });
  },
  times: async function () { return times; },
};

function answer(message) {
  return kinds[message.kind](message).then(function (result) {
    self.postMessage({ id: message.id, ok: true, result: result }, result && result.body && result.body.buffer ? [result.body.buffer] : []);
  }, function (error) {
    console.error(error);
    self.postMessage({ id: message.id, ok: false, error: String(error && error.message || error) });
  });
}

self.onmessage = function (event) {
  const message = event.data;
  // a check is answered from the lean layers at once; everything else, one at a time, in the order asked
  if (message.kind === "check" || message.kind === "check_json" || message.kind === "times") answer(message);
  else turn(function () { return answer(message); });
};
