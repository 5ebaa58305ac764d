// What the app's worker knows of the store between requests: every stored name and generation, as read at the
// folder's stamp (store.js). A request then reads the stamp and the records it names, and every name and
// generation again only when the stamp moved (another tab wrote a text, or removed a record): so a Save or a
// sheet's poll reads as much with 300 matches stored as with one. The worker's own writes keep what it knows
// up to date, when the stamp they replaced is the one it knew.
// Pure ES module over store.js: the worker uses it, and so do the Node tests.
import { commit, snapshot } from "./store.js";

export class Known {
  constructor(dbName) {
    this.db = dbName;
    this.reset();
  }

  // Forget it all: the next read reads every name and generation.
  reset() {
    this.stamp = undefined;  // the stamp `keys` and `generations` were read at; undefined: they are not to be trusted
    this.keys = [];  // every stored key (a name, or a key that is not a text), as the store lists them
    this.generations = {};  // name -> its stored generation (undefined where it is not a count)
    this.moved = {};  // name -> a generation this worker wrote, not yet handed on (`handed`)
  }

  // One read transaction (store.snapshot): `wanted` as snapshot takes it, but for `all` and `since`, which this
  // decides; `all` forces every name and generation to be read again. Answers snapshot's answer, whose `keys` is
  // null when what was known stood.
  async read(wanted) {
    const asked = Object.assign({}, wanted, { all: Boolean(wanted.all) || this.stamp === undefined, since: this.stamp });
    const seen = await snapshot(asked, this.db);
    if (seen.keys !== null) {
      this.keys = seen.keys;
      this.generations = Object.assign({}, seen.generations);
      this.moved = {};
      this.stamp = seen.stamp;
    } else {
      Object.assign(this.generations, seen.generations);
      // a named record gone or set aside though the stamp stood (written by no worker of this build): read again
      const lost = Object.keys(seen.generations).some((name) => seen.generations[name] === undefined && this.keys.includes(name));
      if (lost) this.stamp = undefined;
    }
    return seen;
  }

  // The stored names that are texts.
  names() { return this.keys.filter(function (key) { return typeof key === "string"; }); }

  // The generations to hand to Python beside a read's own: every one after a read of them all, else those this
  // worker wrote since it last handed them on. Each is handed on once.
  handed(seen, every) {
    const given = every || seen.keys !== null ? Object.assign({}, this.generations) : Object.assign(this.moved, seen.generations);
    this.moved = {};
    return given;
  }

  // store.commit, and what it changed known: the new generations, names added and removed, the new stamp; all of it
  // forgotten when the stamp it replaced is not the one known (a write of another that this worker missed).
  async commit(change, held) {
    const done = await commit(change, held, this.db);
    if (this.stamp === undefined || done.was !== this.stamp) {
      this.reset();
      return done.made;
    }
    Object.entries(done.made).forEach(([name, generation]) => {
      if (generation === null) {
        this.keys = this.keys.filter(function (key) { return key !== name; });
        delete this.generations[name];
      } else {
        if (!(name in this.generations) && !this.keys.includes(name)) this.keys.push(name);
        this.generations[name] = generation;
        this.moved[name] = generation;
      }
    });
    this.stamp = done.stamp;
    return done.made;
  }
}
