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

  // The helpers asked for, once until they are ended.
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
    this.left = Array.from(knocks);
    this.answers = [];
    this.stopping = false;
    this.underway = new Set();
    this.working = Array.from({ length: this.size }, (_, slot) => this.work(slot, text, model, table));
  }

  async work(slot, text, model, table) {
    try {
      const helper = await this.helper(slot);
      if (this.stopping) return;
      await helper.ask({ kind: "start", text: text, model: model, table: table });
      // two knocks asked at a time: the next is under way while this worker, busy, has yet to read the answer
      await Promise.all([this.take(helper), this.take(helper)]);
    } catch (error) {
      console.warn("a review's helper stopped: " + (error && error.message || error));
    }
  }

  async take(helper) {
    while (this.left.length && !this.stopping && !helper.broken) {
      const index = this.left.pop();
      const asked = helper.ask({ kind: "knock", index: index });
      this.underway.add(asked);
      try {
        this.answers.push([index, await asked]);
        this.helped += 1;
      } catch (error) {
        this.left.push(index);  // left to the others
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

  // No knock handed out more; done once the ones under way are answered. (Helpers still starting are not
  // waited for: their `ask` for the match is answered later and they then find nothing left.)
  async finish() {
    this.stopping = true;
    await Promise.allSettled(Array.from(this.underway));
  }

  endAll() {
    clearTimeout(this.timer);
    (this.helpers || []).forEach(function (helper) { helper.end(); });
    this.helpers = this.arrived = this.given = null;
    this.tell({ type: "helpers-end" });
  }
}
