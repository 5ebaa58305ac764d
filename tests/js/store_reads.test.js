// What a Save reads from the store (ginscore/pocket/shell/store.js, as worker.js asks it): the one text it names,
// with every name and generation beside it, whatever the number of matches stored; every text only when the
// Python asks for one not loaded.
import "fake-indexeddb/auto";
import { test } from "node:test";
import assert from "node:assert/strict";
import { snapshot, write } from "../../ginscore/pocket/shell/store.js";

// Every text read from the "matches" store, by counting what its get and getAll answer.
function counting() {
  const read = { texts: 0, bytes: 0 };
  const prototype = globalThis.IDBObjectStore.prototype, get = prototype.get, getAll = prototype.getAll;
  function counted(request, many) {
    request.addEventListener("success", function () {
      const found = many ? request.result : [request.result];
      found.filter(function (one) { return typeof one === "string"; }).forEach(function (one) { read.texts++; read.bytes += one.length; });
    });
    return request;
  }
  prototype.get = function (key) { return counted(get.call(this, key), false); };
  prototype.getAll = function (...args) { return counted(getAll.apply(this, args), true); };
  return { read, restore: function () { prototype.get = get; prototype.getAll = getAll; } };
}

async function stored(db, count) {
  const texts = {};
  for (let at = 0; at < count; at++) texts["m" + at + ".toml"] = "x".repeat(10000);
  await write({ texts: texts }, new Map(), db);
}

for (const count of [1, 300]) {
  test(`a Save's read with ${count} stored: one text, its 10 kB, and every name and generation`, async function (t) {
    const db = "reads-" + count;
    await stored(db, count);
    const probe = counting();
    t.after(probe.restore);
    const seen = await snapshot({ names: ["m0.toml"], all: true, held: new Map() }, db);
    assert.deepEqual(Object.keys(seen.texts), ["m0.toml"]);
    assert.equal(seen.keys.length, count);
    assert.equal(Object.keys(seen.generations).length, count);
    assert.deepEqual(probe.read, { texts: 1, bytes: 10000 });
  });
}

test("a text held at its stored generation is not read again, beside 300 others", async function (t) {
  const db = "reads-held";
  await stored(db, 300);
  const probe = counting();
  t.after(probe.restore);
  await snapshot({ names: ["m5.toml"], all: true, held: new Map([["m5.toml", 1]]) }, db);
  assert.deepEqual(probe.read, { texts: 0, bytes: 0 });
});
