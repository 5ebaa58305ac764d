// ginscore app: the client of the worker (worker.js), where the pages' Python runs. Every question is answered or
// timed out: its deadline, in seconds, counts from when the worker can answer it (a check once the lean layers are
// in, the rest once the pages are), so a first start's download is not counted. A Save waits at most
// `LOCK_SECONDS` (worker.js) for another tab, well within its deadline. The client owns its timers: each
// question's deadline, and the heartbeat, which `stop()` clears.

import { endHelpers, startHelpers } from "./review-helpers.js";

export const DEADLINES = { request: 20, advice: 60, open: 60, backup: 60, restore: 60, check: 10, check_json: 10, value: 10, remove: 20, alive: 20, times: 10 };
const ADVICE = /^\/(m\/[^/]+\/check|api\/advise)$/;  // advice plays hands out, which may take a slow phone a while
export const BEAT_SECONDS = 5;  // how often an open page asks whether the worker is still there
export const TAB = String(Math.random()).slice(2);  // names this tab's own changes, which the other tabs are told of

export class NoAnswer extends Error {
  constructor(seconds) {
    super("the score pad did not answer within " + seconds + " seconds");
    this.name = "NoAnswer";
  }
}

// A question's deadline in seconds: a POST of advice has the long one.
export function deadline(kind, data) {
  const advice = kind === "request" && Boolean(data) && data.method === "POST" && ADVICE.test(data.path);
  return advice ? DEADLINES.advice : DEADLINES[kind];
}

// Whether a question's clock has started: a check's once the lean layers are in, the rest's once the pages are
// ("times" is asked of a worker that is still starting).
export function clockRuns(kind, lean, ready) {
  return kind === "check" || kind === "check_json" ? lean : ready || kind === "times";
}

// The path and query of a route ("/m/a.toml?x=1").
export function split(path) {
  const at = path.indexOf("?");
  return at < 0 ? [path, ""] : [path.slice(0, at), path.slice(at + 1)];
}

// hooks: progress(value, words), lean(), ready(message), failed(words) (the worker could not start), stalled(words)
// (it stopped answering, or failed after it started).
export class Pad {
  constructor(hooks) {
    this.hooks = hooks;
    this.worker = null;
    this.asked = 0;
    this.waiting = new Map();
    this.ready = false;
    this.leanReady = false;
    this.beat = null;
    this.started = new Promise((resolve) => { this.begun = resolve; });
  }

  start() {
    this.worker = new Worker("worker.js", { type: "module" });
    this.begun();
    // the worker's own script or the runtime it imports would not load: no message would ever come
    this.worker.onerror = (event) => {
      event.preventDefault();
      if (!this.ready) this.hooks.failed("its files would not load (" + (event.message || "the worker failed") + ")");
      else this.hooks.stalled("The score pad stopped (" + (event.message || "its worker failed") + ").");
    };
    this.worker.onmessage = (event) => this.heard(event.data);
  }

  heard(message) {
    if (message.id) {
      const pending = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (!pending) return;
      clearTimeout(pending.timer);
      if (message.ok) pending.resolve(message.result);
      else pending.reject(Object.assign(new Error(message.error), { said: message.said }));
    } else if (message.type === "progress") {
      this.hooks.progress(message.value, message.text);
    } else if (message.type === "lean") {
      this.leanReady = true;
      this.armAll();
      this.hooks.lean();
    } else if (message.type === "ready") {
      this.ready = true;
      this.armAll();
      this.heartbeat();
      this.hooks.ready(message);
    } else if (message.type === "helpers") {
      startHelpers(this.worker, message);
    } else if (message.type === "helpers-end") {
      endHelpers();
    } else if (message.type === "failed") {
      this.hooks.failed(message.error.split("\n")[0]);
    }
  }

  async ask(kind, data) {
    await this.started;
    return new Promise((resolve, reject) => {
      const id = ++this.asked;
      const pending = { resolve: resolve, reject: reject, kind: kind, seconds: deadline(kind, data), timer: null };
      this.waiting.set(id, pending);
      this.worker.postMessage(Object.assign({ id: id, kind: kind, tab: TAB }, data || {}));
      this.arm(id, pending);
    });
  }

  // A request to serve's app in the worker: `{status, headers, body}`.
  call(method, path, body, type) {
    const [where, query] = split(path);
    return this.ask("request", { method: method, path: where, query: query, body: body || "", contentType: type || "" });
  }

  armAll() { this.waiting.forEach((pending, id) => this.arm(id, pending)); }

  arm(id, pending) {
    if (pending.timer !== null || !clockRuns(pending.kind, this.leanReady, this.ready)) return;
    pending.timer = setTimeout(() => {
      if (!this.waiting.has(id)) return;
      this.waiting.delete(id);
      pending.reject(new NoAnswer(pending.seconds));
      // the worker busy with a long request cannot answer the heartbeat: that request's own deadline says it
      const others = Array.from(this.waiting.values()).some(function (other) { return other.kind !== "alive"; });
      if (pending.kind !== "alive" || !others) this.hooks.stalled("The score pad did not answer within " + pending.seconds + " seconds.");
    }, pending.seconds * 1000);
  }

  // A worker that is gone (closed, or killed) says nothing: asked every few seconds while the page is in view, its
  // silence past the deadline is said (`arm`).
  heartbeat() {
    if (this.beat !== null) return;
    let asking = false;
    this.beat = setInterval(() => {
      if (asking || document.visibilityState !== "visible") return;
      asking = true;
      this.ask("alive").catch(function () {}).then(function () { asking = false; });
    }, BEAT_SECONDS * 1000);
  }

  // The heartbeat and every deadline cleared: no timer of the client's runs after it.
  stop() {
    clearInterval(this.beat);
    this.beat = null;
    this.waiting.forEach(function (pending) { clearTimeout(pending.timer); });
  }
}

// A header of an answer, by its lower-case name; "" when it has none.
export function header(answer, name) {
  const found = answer.headers.find(function (pair) { return pair[0].toLowerCase() === name; });
  return found ? found[1] : "";
}

// The answer shown for a request that failed in the page itself.
export function failedAnswer(error) {
  const said = "Something went wrong (" + (error && error.message || error) + "); nothing was written. Try again.";
  return { status: 500, headers: [["content-type", "text/plain"]], body: new TextEncoder().encode(said) };
}
