// What a Save and a poll read from the store (ginscore/pocket/shell/store.js), as worker.js asks it through what it
// knows between requests (known.js): the folder's stamp and the records the request names, the same whatever the
// number of matches stored; every name and generation only when another worker moved the stamp; every text only
// when the Python asks for one not loaded.
import "fake-indexeddb/auto";
import { test } from "node:test";
import assert from "node:assert/strict";
import { Known } from "../../ginscore/pocket/shell/known.js";
import { reads, remove, write } from "../../ginscore/pocket/shell/store.js";

// Every record the store's requests answer, counted by a double over IndexedDB's own: a get's value (none when
// nothing is stored), each key or value of a getAll or getAllKeys; texts and their characters apart.
function counting() {
  const read = { records: 0, texts: 0, characters: 0 };
  const prototype = globalThis.IDBObjectStore.prototype;
  const originals = { get: prototype.get, getAll: prototype.getAll, getAllKeys: prototype.getAllKeys };
  function counted(request, many) {
    request.addEventListener("success", function () {
      const found = many ? request.result : request.result === undefined ? [] : [request.result];
      read.records += found.length;
      found.filter(function (one) { return typeof one === "string" && one.length > 100; }).forEach(function (one) { read.texts++; read.characters += one.length; });
    });
    return request;
  }
  prototype.get = function (key) { return counted(originals.get.call(this, key), false); };
  prototype.getAll = function (...args) { return counted(originals.getAll.apply(this, args), true); };
  prototype.getAllKeys = function (...args) { return counted(originals.getAllKeys.apply(this, args), true); };
  return { read, restore: function () { Object.assign(prototype, originals); } };
}

async function stored(db, count) {
  const texts = {};
  for (let at = 0; at < count; at++) texts["m" + at + ".toml"] = "x".repeat(10000);
  await write({ texts: texts }, new Map(), db);
}

// A worker as after its first request: it knows every name and generation, and holds m0.toml's text.
async function started(db) {
  const known = new Known(db), held = new Map();
  await known.read({ names: ["m0.toml"], held: held });
  held.set("m0.toml", known.generations["m0.toml"]);
  return { known, held };
}

// A Save as worker.js makes it: the named match read (its text only when it moved), then its new text written.
async function save(known, held, text) {
  const seen = await known.read({ names: ["m0.toml"], held: held });
  const made = await known.commit({ texts: { "m0.toml": text }, summaries: { "m0.toml": { name: "m0.toml" } } }, held);
  held.set("m0.toml", made["m0.toml"]);
  return seen;
}

const weighed = {};
for (const count of [1, 300]) {
  test(`a Save with ${count} stored reads the stamp and the match's generation, no text, and the same again to write`, async function (t) {
    const db = "reads-" + count;
    await stored(db, count);
    const { known, held } = await started(db);
    const probe = counting();
    t.after(probe.restore);
    const before = { records: reads.records, bytes: reads.bytes };
    const seen = await save(known, held, "y".repeat(10001));
    assert.equal(seen.keys, null);  // no name listed
    assert.deepEqual(Object.keys(seen.texts), []);  // its text is held at its generation
    // read: the stamp and the generation; written: the generation raised from, and the stamp replaced
    assert.deepEqual(probe.read, { records: 4, texts: 0, characters: 0 });
    weighed[count] = { records: reads.records - before.records, bytes: reads.bytes - before.bytes };
    assert.deepEqual(weighed[count], { records: 4, bytes: 32 + 8 + 8 + 32 });  // what the worker reports: the same
    assert.equal(known.generations["m0.toml"], 2);
    assert.equal(known.names().length, count);
  });

  test(`a poll with ${count} stored, nothing changed, reads the stamp and one generation`, async function (t) {
    const db = "polls-" + count;
    await stored(db, count);
    const { known, held } = await started(db);
    const probe = counting();
    t.after(probe.restore);
    const seen = await known.read({ names: ["m0.toml"], held: held });
    assert.deepEqual(probe.read, { records: 2, texts: 0, characters: 0 });
    assert.equal(seen.keys, null);
    assert.deepEqual(known.handed(seen, false), { "m0.toml": 1 });
  });
}

test("another tab's write moves the stamp: every name and generation is read once again, and its text", async function (t) {
  const db = "reads-other-tab";
  await stored(db, 300);
  const { known, held } = await started(db);
  const other = await started(db);
  await save(other.known, other.held, "z".repeat(10002));  // another tab's Save of the same match
  await other.known.commit({ texts: { "new.toml": "n".repeat(500) } }, other.held);  // and a new match
  const probe = counting();
  t.after(probe.restore);
  const seen = await known.read({ names: ["m0.toml"], held: held });
  assert.equal(seen.keys.length, 301);
  assert.equal(seen.texts["m0.toml"], "z".repeat(10002));
  assert.equal(probe.read.texts, 1);
  assert.ok(probe.read.records > 600);  // every key and generation
  assert.equal(known.generations["m0.toml"], 2);
  assert.equal(known.handed(seen, false)["m299.toml"], 1);  // every generation handed on after a read of them all
  held.set("m0.toml", 2);
  const again = counting();
  t.after(again.restore);
  await known.read({ names: ["m0.toml"], held: held });
  assert.equal(again.read.records, 2);
});

test("this worker's own writes keep what it knows: a new match listed, a removed one gone, no read of them all", async function (t) {
  const db = "reads-own";
  await stored(db, 3);
  const { known, held } = await started(db);
  const probe = counting();
  t.after(probe.restore);
  await known.commit({ texts: { "made.toml": "m".repeat(200), "m1.toml": null } }, held);
  const seen = await known.read({ names: ["made.toml"], held: new Map([["made.toml", 1]]) });
  assert.equal(seen.keys, null);
  assert.deepEqual(known.names().sort(), ["m0.toml", "m2.toml", "made.toml"]);
  assert.equal("m1.toml" in known.generations, false);
  assert.deepEqual(known.handed(seen, false), { "made.toml": 1 });  // its generation handed on once
  assert.equal(probe.read.texts, 0);
});

test("a record removed, or a write over a stamp it did not know, makes the worker read every name again", async function () {
  const db = "reads-removed";
  await stored(db, 3);
  const { known, held } = await started(db);
  await remove("m2.toml", db);
  const seen = await known.read({ names: ["m0.toml"], held: held });
  assert.deepEqual(seen.keys, ["m0.toml", "m1.toml"]);
  const other = await started(db);
  await other.known.commit({ texts: { "m1.toml": "B" } }, other.held);
  await known.commit({ texts: { "m0.toml": "A" } }, held);  // wrote over the other's stamp: known no more
  assert.equal(known.stamp, undefined);
  assert.notEqual((await known.read({ names: [], held: held })).keys, null);
});

test("a summary recomputed, or one dropped, leaves the stamp as it was", async function () {
  const db = "reads-lines";
  await stored(db, 2);
  const { known, held } = await started(db);
  const stamp = known.stamp;
  await write({ lines: { "m0.toml": { name: "m0.toml", generation: 1 } }, dropped: ["gone.toml"] }, held, db);
  assert.equal((await known.read({ names: ["m0.toml"], held: held })).stamp, stamp);
  assert.equal(known.stamp, stamp);
});
