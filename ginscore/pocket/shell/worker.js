// ginscore app: the Web Worker that runs ginscore's own Python (Pyodide) and keeps the match files.
// The page sends {id, kind, ...}; the answer is {id, ok, result} or {id, ok: false, error}.
// Every message waits its turn in one queue: nothing a request holds in memory is touched by another.
// A request runs serve's app (ginscore.pocket.worker.request) over an in-memory folder holding only the match
// files it names, each read from IndexedDB only when its generation moved (store.js). Every stored name and
// generation is kept between requests (known.js) and read again only when the folder's stamp moved, so a Save or
// a poll reads the stamp and the records it names, whatever else is stored. A request that may change the folder
// runs inside the browser's one lock (navigator.locks) for every tab, writes back only what changed in one
// transaction, is answered only once that transaction has completed, and tells the other tabs
// (BroadcastChannel). Each answer says what its request read from IndexedDB (`reads`: records and bytes).
import { Known } from "./known.js";
import { archive, lastLine, startPython } from "./python.js";
import { Helpers } from "./helpers.js";
import { CHANNEL, LOCK, reads, remove, serial, snapshot, value, wasCleared, write } from "./store.js";

// How long a change waits for another tab's hold on the matches before it gives up, writing nothing: within the
// page's deadline for a Save (page.js DEADLINES), so that the page can say which it was.
export const LOCK_SECONDS = 10;
const BUSY = "Another tab of the app is busy with the matches: close it or wait, then try again. Nothing was saved.";

const channel = new BroadcastChannel(CHANNEL);
const times = { began: performance.now() };
const turn = serial();
const held = new Map();  // name -> the generation of the text Python holds
const given = new Map();  // name -> the generation of the stored summary Python holds what the match gives from
const known = new Known();  // every stored name and generation, at the folder's stamp
let pocket = null, damaged = [], oddKeys = [], oddCounts = {};

function say(message) { self.postMessage(message); }
const helpers = self.ginscoreHelpers = new Helpers(self.navigator.hardwareConcurrency, say);

// Pyodide only logs a runtime that does not compile, and waits forever: say so instead. (A wrong media type makes
// the streaming compile fail with a TypeError, and Pyodide then compiles the bytes: that is no failure.) The
// compiled runtime is kept for a review's helpers, which then start without compiling it again.
["instantiate", "instantiateStreaming"].forEach(function (name) {
  const original = WebAssembly[name];
  if (typeof original !== "function") return;
  WebAssembly[name] = function () {
    return original.apply(WebAssembly, arguments).then(function (made) {
      if (made && made.module) helpers.keepRuntime(made.module);
      return made;
    }, function (error) {
      if (error instanceof WebAssembly.CompileError || error instanceof WebAssembly.LinkError) failed("its files are damaged (" + error.message + ")");
      throw error;
    });
  };
});

const build = fetch("./build.json").then(function (response) { return response.json(); });
const lean = (async function () {
  const info = await build;
  say({ type: "progress", value: 0.1, text: "Getting the score pad ready" });
  const py = await startPython();
  times.python = performance.now();
  say({ type: "progress", value: 0.7, text: "Loading the score pad" });
  await archive(py, info.archives.lean, info);
  pocket = py.pyimport("ginscore.pocket.worker");
  times.lean = performance.now();
  say({ type: "lean" });
  return py;
})();
const pages = (async function () {
  const py = await lean;
  const info = await build;
  say({ type: "progress", value: 0.85, text: "Loading the pages" });
  await archive(py, info.archives.pages, info);
  pocket.start_pages();
  times.pages = performance.now();
  say({ type: "ready", times: times });
  return py;
})();
function failed(error) { say({ type: "failed", error: lastLine(error) }); }
lean.catch(failed);
pages.catch(failed);
self.addEventListener("unhandledrejection", function (event) { if (!pocket) failed(event.reason); });

// --- which stored records a request needs --------------------------------------------------------------------
// Python says it: the app's routes name the match files an address reads, and a page that draws on the whole
// table (the series, the chances, the players' figures) marks that it read a text not loaded; it is then asked
// again with every stored text. Each is read from IndexedDB only when its generation moved.

// Whether Python can draw on every stored match without a summary more: it holds the match's text, or what it gives
// from a summary, for the generation stored now.
function tableHeld() {
  return known.names().every(function (name) {
    const generation = known.generations[name];
    return generation === undefined || held.get(name) === generation || given.get(name) === generation;
  });
}

// Everything the worker holds dropped, in Python and here: the next request reads what it needs again.
function forgetAll() {
  pocket.forget();
  held.clear(); given.clear();
  known.reset();
}

function describe(stored) {
  if (stored === null) return "nothing (null)";
  if (Array.isArray(stored)) return "a list";
  if (typeof stored === "object") return "an object (" + (stored.constructor && stored.constructor.name || "Object") + ")";
  return "a " + typeof stored;
}

// The snapshot into Python: texts (null where none is stored), what is stored instead of a text, the rest as read;
// every name only when they were read again, and the generations Python has not been told.
function hold(seen) {
  const texts = {}, others = {};
  Object.keys(seen.texts).forEach(function (name) {
    const stored = seen.texts[name];
    if (stored === undefined) { texts[name] = null; held.delete(name); }
    else if (typeof stored === "string") texts[name] = stored;
    else { others[name] = describe(stored); held.delete(name); }
  });
  const keys = seen.keys === null ? null : seen.keys.filter(function (key) { return typeof key === "string"; });
  Object.keys(seen.damaged).forEach(function (name) { held.delete(name); });
  const generations = known.handed(seen, seen.summaries !== null);  // a summary is judged by its match's generation
  const answer = JSON.parse(pocket.hold(JSON.stringify({ keys: keys, generations: generations, texts: texts, others: others,
    damaged: seen.damaged, summaries: seen.summaries, next: seen.next })));
  answer.held.forEach(function (name) { held.set(name, seen.generations[name]); });
  if (seen.summaries !== null) {
    given.clear();
    Object.entries(seen.summaries).forEach(function ([name, line]) {
      if (line && line.gives !== undefined && line.generation === known.generations[name]) given.set(name, line.generation);
    });
  }
  if (seen.keys !== null) {
    const named = new Set(keys);
    oddKeys = seen.keys.filter(function (key) { return typeof key !== "string"; });
    oddCounts = Object.fromEntries(Object.entries(seen.damaged).filter(function ([name]) { return !named.has(name); }));
  }
  damaged = Object.entries(answer.damaged).map(function ([key, reason]) { return { key: key, reason: reason }; })
    .concat(Object.entries(oddCounts).map(function ([key, reason]) { return { key: key, reason: reason + ", and no match file's text is stored" }; }))
    .concat(oddKeys.map(function (key) { return { key: key, reason: "its name is not a text" }; }));
  return answer;
}

// What the request changed into the store, answered once stored; the other tabs told.
async function keep(tab) {
  const changed = JSON.parse(pocket.changes());
  const names = Object.keys(changed.texts);
  if (!names.length && !Object.keys(changed.next).length) return;
  const made = await known.commit(changed, held);
  Object.entries(made).forEach(function ([name, generation]) { if (generation === null) held.delete(name); else held.set(name, generation); });
  channel.postMessage({ changed: names, tab: tab });
}

// Summaries computed again (none stored, or not for the stored text) are stored for the next list, and summaries
// whose text is gone are dropped: both only where the store still says so (store.write checks).
async function tidy(seen, need, locked) {
  const lines = JSON.parse(pocket.lines(JSON.stringify(need)));
  Object.keys(lines).forEach(function (name) { lines[name].generation = held.get(name); });
  const kept = new Set(known.keys);
  const dropped = Object.keys(seen.summaries).filter(function (name) { return !kept.has(name); });
  if (!Object.keys(lines).length && !dropped.length) return;
  const store = function (lock) { return lock === null ? null : write({ lines: lines, dropped: dropped }); };
  // a list only reads: with another tab holding the matches, its summaries are stored by a later list instead
  await (locked ? store() : navigator.locks.request(LOCK, { ifAvailable: true }, store));
}

class Busy extends Error {
  constructor() { super(BUSY); this.said = "busy"; }
}

// The store was deleted under an open page: said once, in words, before anything is answered from what is gone.
class Gone extends Error {
  constructor() {
    super("The matches kept in this browser were deleted (its storage for the app was cleared), so nothing was saved. "
      + "A match file you downloaded can be opened again from the list.");
    this.said = "gone";
  }
}

// The one lock every tab's changes take turns under, waited for at most LOCK_SECONDS.
function locked(work) {
  return navigator.locks.request(LOCK, { signal: AbortSignal.timeout(LOCK_SECONDS * 1000) }, work).catch(function (error) {
    if (error && (error.name === "TimeoutError" || error.name === "AbortError")) throw new Busy();
    throw error;
  });
}

async function run(method, path, query, body, type) {
  const answer = await pocket.request(method, path, query || "", body || "", type || "");
  const result = answer.toJs({ dict_converter: Object.fromEntries });
  answer.destroy();
  return result;
}

async function request(message) {
  await pages;
  const before = { records: reads.records, bytes: reads.bytes };
  const asked = JSON.parse(pocket.reads(message.method, message.path));
  const changing = asked.changes, listing = asked.listing, summaries = asked.summaries;
  // The texts a request names (a Save's one match), the stored names beside them when they moved (every one for a
  // list, which shows them all), and every stored summary for a list or a page that draws on the whole table
  // (each summary carries what its match gives the table) when Python lacks one.
  const load = async function (names, all) {
    const seen = await known.read({ names: names, all: all || listing, listing: listing, links: asked.links, held: held });
    if (!listing && summaries && !tableHeld()) seen.summaries = (await snapshot({ listing: true })).summaries;
    if (wasCleared()) {
      forgetAll();
      throw new Gone();
    }
    const need = hold(seen).need;
    if (need.length) hold(await known.read({ names: need, held: held }));
    return { seen: seen, need: need };
  };
  const work = async function () {
    let loaded = await load(asked.names), result;
    try {
      result = await run(message.method, message.path, message.query, message.body, message.contentType);
      if (result.need) {
        // it read a text not loaded (a page or a change drawing on the whole table): every text loaded, and asked
        // again; a change's first answer, stored nowhere yet, is thrown away with what it did
        if (changing) forgetAll();
        await known.read({ all: true });
        loaded = await load(known.names(), true);
        result = await run(message.method, message.path, message.query, message.body, message.contentType);
      }
      if (changing) await keep(message.tab);
    } catch (error) {
      forgetAll();
      throw error;
    }
    if (loaded.seen.summaries !== null) await tidy(loaded.seen, loaded.need, changing).catch(function (error) { console.warn(error); });  // stored already: the answer stands
    if (listing) result.damaged = damaged;
    result.reads = { records: reads.records - before.records, bytes: reads.bytes - before.bytes };
    return result;
  };
  return changing ? locked(work) : work();
}

// A change made with every stored text held (a file opened may be a copy of any of them, and a backup restored
// merges into all of them), under the lock every tab shares, written back as a Save is.
function withEveryText(tab, work) {
  return locked(async function () {
    await known.read({ all: true });
    hold(await known.read({ names: known.names(), all: true, held: held }));
    let answer;
    try {
      answer = work();
      await keep(tab);
    } catch (error) {
      forgetAll();
      throw error;
    }
    return answer;
  });
}

// A file opened on the phone: its size checked before it is read, then read as `validate` reads one and merged.
async function open(message) {
  await pages;
  const file = message.file;
  const early = JSON.parse(pocket.before_reading(file.name, file.size));
  if (early.error) return early;
  const data = new Uint8Array(await file.arrayBuffer());
  return withEveryText(message.tab, function () { return JSON.parse(pocket.opened(file.name, data)); });
}

// A backup: serve's own /backup.zip (the request loads every stored text for it), with each match's count of
// hands as it held them, for the page to record once the backup is shared or downloaded.
async function backup(message) {
  const answer = await request({ method: "GET", path: "/backup.zip", query: "", tab: message.tab });
  if (answer.status === 200) answer.hands = JSON.parse(pocket.hands());
  return answer;
}

// A backup opened on the phone: every match file in it merged by the rule; what each became, in words.
async function restore(message) {
  await pages;
  const file = message.file;
  const data = new Uint8Array(await file.arrayBuffer());
  return withEveryText(message.tab, function () { return JSON.parse(pocket.restore(file.name, data)); });
}

const kinds = {
  request: request,
  open: open,
  backup: backup,
  restore: restore,
  check: async function (message) { await lean; return pocket.check(message.text); },
  check_json: async function (message) { await lean; return pocket.check_json(message.text); },
  // a damaged record, as it is stored, and its removal when the person asks
  value: async function (message) { return value(message.key); },
  remove: async function (message) {
    await locked(function () { return remove(message.key); });
    channel.postMessage({ changed: [], tab: message.tab });
  },
  times: async function () { return Object.assign({ helped: helpers.helped }, times); },
  alive: async function () { return true; },
};

function answer(message) {
  return kinds[message.kind](message).then(function (result) {
    self.postMessage({ id: message.id, ok: true, result: result }, result && result.body && result.body.buffer ? [result.body.buffer] : []);
  }, function (error) {
    if (!(error && error.said)) console.error(error);
    self.postMessage({ id: message.id, ok: false, error: String(error && error.message || error), said: error && error.said || "" });
  });
}

self.onmessage = function (event) {
  const message = event.data;
  if (message.kind === "helpers") return helpers.receive(message.ports);  // at once: a review waits for them
  // a check is answered from the lean layers at once; everything else, one at a time, in the order asked
  if (["check", "check_json", "times", "alive"].includes(message.kind)) answer(message);
  else turn(function () { return answer(message); });
};
