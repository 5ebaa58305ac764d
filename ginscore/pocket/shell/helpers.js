// ginscore app: a review's helpers, as the worker's Python sees them (web/review_share.py, through
// pocket/worker.py). The page starts them (review-helpers.js: a helper's files would load only as fast as this
// worker lets them, and it is busy reviewing), one for each core the browser lends beyond the worker's own
// (three at most), when a review first wakes them; each answers over a port of its own. A review's knocks are a
// list here: the Python takes them from the front between its own knocks, each helper from the back, and the
// helpers' answers wait here until the Python collects them. Each helper asks for its next knock as soon as it
// answers, without waiting for the Python, which is busy. Unused for a minute, they are ended, to give back their
// memory.
export const MOST_HELPERS = 3;
export const IDLE_MS = 60000;
// How long the end of a visit waits for the helpers' knocks under way: a helper that stopped answering must not
// keep the page past the app's deadline (20 s); its knocks are then left to the page's own turn.
export const FINISH_MS = 8000;

// `promise`, or undefined once `ms` have passed.
function within(promise, ms) {
  let timer;
  const late = new Promise(function (resolve) { timer = setTimeout(resolve, ms); });
  return Promise.race([promise, late]).finally(function () { clearTimeout(timer); });
}

// How many helpers a browser telling `cores` gets: none with one core.
export function helperCount(cores) {
  return Math.max(0, Math.min(MOST_HELPERS, (cores || 1) - 1));
}

// One helper, over its port: each question answered by its id.
export class Helper {
  constructor(port) {
    this.port = port;
    this.waiting = new Map();
    this.last = 0;
    port.onmessage = (event) => this.answered(event.data);
  }

  ask(message) {
    const id = ++this.last;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve, reject: reject });
      this.port.postMessage(Object.assign({ id: id }, message));
    });
  }

  answered(message) {
    const waiting = this.waiting.get(message.id);
    if (!waiting) return;
    this.waiting.delete(message.id);
    if (message.ok) waiting.resolve(message.result);
    else waiting.reject(new Error(message.error));
  }

  end() {
    this.port.close();
    this.waiting.forEach(function (waiting) { waiting.reject(new Error("the review's helpers were ended")); });
    this.waiting.clear();
  }
}

// The helpers: asked of the page (`tell`) when first woken, the compiled runtime handed to them.
export class Helpers {
  constructor(cores, tell) {
    this.size = helperCount(cores);
    this.helped = 0;
    this.tell = tell;
    this.runtime = null;
    this.helpers = null;
    this.arrived = null;
    this.timer = null;
    this.left = [];
    this.answers = [];
    this.underway = new Set();
  }

  count() { return this.size; }

  // The worker's compiled Pyodide, which each helper instantiates instead of compiling it again.
  keepRuntime(module) {
    if (!this.runtime) this.runtime = module;
  }

  // The helpers asked for, once until they are ended: answered once their ports are here, or after `ms`.
  ready(ms) {
    return within(this.wake(), ms).then(function () { return null; });
  }

  // The helpers asked for, once until they are ended: answered once their ports are here.
  wake() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.endAll(), IDLE_MS);
    if (!this.arrived) {
      this.arrived = new Promise((resolve) => { this.given = resolve; });
      try {
        this.tell({ type: "helpers", count: this.size, module: this.runtime });
      } catch (error) {  // a browser that cannot hand a compiled module to the page: each helper compiles its own
        this.tell({ type: "helpers", count: this.size, module: null });
      }
    }
    return this.arrived;
  }

  // The page's answer: a port to each helper.
  receive(ports) {
    this.helpers = ports.map(function (port) { return new Helper(port); });
    if (this.given) this.given(this.helpers);
  }

  async helper(slot) {
    const helpers = await this.wake();
    if (!helpers[slot]) throw new Error("no helper " + slot);
    return helpers[slot];
  }

  // A review's knocks shared out: each helper given the match and its model, then knocks from the back.
  share(text, model, table, knocks) {
    this.review = (this.review || 0) + 1;
    this.left = Array.from(knocks);
    this.answers = [];
    this.stopping = false;
    this.underway = new Set();
    this.working = Array.from({ length: this.size }, (_, slot) => this.work(slot, text, model, table));
  }

  // A helper's part. Where its port is here, the match and its first two knocks are asked at once, before this
  // worker goes back to its own knocks (it reads no message until it pauses between them); the helper answers them
  // in turn. Two knocks are asked of it at a time, so the next is under way while this worker has yet to read the
  // answer. A helper whose start fails answers its knocks with errors, which leave them to the others.
  async work(slot, text, model, table) {
    try {
      const helper = this.helpers && this.helpers[slot] ? this.helpers[slot] : await this.helper(slot);
      if (this.stopping) return;
      helper.broken = false;
      const started = helper.ask({ kind: "start", text: text, model: model, table: table });
      await Promise.all([started, this.take(helper), this.take(helper)]);
    } catch (error) {
      console.warn("a review's helper stopped: " + (error && error.message || error));
    }
  }

  async take(helper) {
    const review = this.review;  // an answer come after its review ended is not another review's
    while (this.left.length && !this.stopping && !helper.broken) {
      const index = this.left.pop();
      const asked = helper.ask({ kind: "knock", index: index });
      this.underway.add(asked);
      try {
        const answer = await asked;
        if (this.review !== review) return;
        this.answers.push([index, answer]);
        this.helped += 1;
      } catch (error) {
        if (this.review === review) this.left.push(index);  // left to the others
        helper.broken = true;
        throw error;
      } finally {
        this.underway.delete(asked);
      }
    }
  }

  // The Python's next knock, from the front (undefined once none is left).
  next() { return this.left.shift(); }

  // The helpers' answers so far, [index, pickled review] each, handed over once.
  collect() { return this.answers.splice(0); }

  // No knock handed out more; done once the ones under way are answered, or after `ms`. (Helpers still starting
  // are not waited for: their `ask` for the match is answered later and they then find nothing left.)
  async finish(ms = FINISH_MS) {
    this.stopping = true;
    const answered = await within(Promise.allSettled(Array.from(this.underway)).then(function () { return true; }), ms);
    if (!answered) this.endAll();  // a helper that stopped answering is ended: the next review starts others
  }

  endAll() {
    clearTimeout(this.timer);
    (this.helpers || []).forEach(function (helper) { helper.end(); });
    this.helpers = this.arrived = this.given = null;
    this.tell({ type: "helpers-end" });
  }
}
