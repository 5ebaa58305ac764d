// The store (ginscore/pocket/shell/store.js) against fake-indexeddb: generations, one transaction per change,
// acknowledged once complete, damaged records left alone, an earlier build's store upgraded.
import "fake-indexeddb/auto";
import { test } from "node:test";
import assert from "node:assert/strict";
import { remove, snapshot, summaries, text, texts, value, write } from "../../ginscore/pocket/shell/store.js";

let count = 0;
function fresh() { return "test-" + (++count); }

function line(name, generation) {
  return { name: name, players: ["Ann", "Bob"], totals: { Ann: 0, Bob: 0 }, status: "playing", hands: 0, generation: generation };
}

test("every write raises the text's generation, and its summary carries it", async function () {
  const db = fresh();
  const made = await write({ texts: { "a.toml": "one\r\n" }, summaries: { "a.toml": line("a.toml") } }, new Map(), db);
  assert.deepEqual(made, { "a.toml": 1 });
  assert.deepEqual(await write({ texts: { "a.toml": "two\r\n" }, summaries: { "a.toml": line("a.toml") } }, new Map(), db), { "a.toml": 2 });
  const seen = await snapshot({ names: ["a.toml"], all: true, listing: true }, db);
  assert.equal(seen.texts["a.toml"], "two\r\n");
  assert.equal(seen.generations["a.toml"], 2);
  assert.equal(seen.summaries["a.toml"].generation, 2);
  assert.deepEqual(seen.keys, ["a.toml"]);
});

test("a text held at its stored generation is not read again; a stale one is", async function () {
  const db = fresh();
  await write({ texts: { "a.toml": "A", "b.toml": "B" } }, new Map(), db);
  const held = new Map([["a.toml", 1], ["b.toml", 0]]);
  const seen = await snapshot({ names: ["a.toml", "b.toml", "gone.toml"], held: held }, db);
  assert.deepEqual(Object.keys(seen.texts).sort(), ["b.toml", "gone.toml"]);
  assert.equal(seen.texts["gone.toml"], undefined);
  assert.equal(seen.keys, null);
  assert.equal(seen.summaries, null);
});

test("the write is acknowledged only after its transaction completed: a new connection sees it", async function () {
  const db = fresh();
  await write({ texts: { "a.toml": "kept" } }, new Map(), db);
  const reading = await new Promise(function (resolve) { const r = globalThis.indexedDB.open(db); r.onsuccess = function () { resolve(r.result); }; });
  const found = await new Promise(function (resolve) { reading.transaction("matches").objectStore("matches").get("a.toml").onsuccess = function (e) { resolve(e.target.result); }; });
  assert.equal(found, "kept");
  reading.close();
});

test("a removed text goes with its generation, summary and next game", async function () {
  const db = fresh();
  await write({ texts: { "a.toml": "A" }, summaries: { "a.toml": line("a.toml") }, next: { "a.toml": "b.toml" } }, new Map([["a.toml", 1]]), db);
  let seen = await snapshot({ names: ["a.toml"], links: true }, db);
  assert.deepEqual(seen.next["a.toml"], { generation: 1, started: "b.toml" });
  await write({ texts: { "a.toml": null } }, new Map(), db);
  seen = await snapshot({ names: ["a.toml"], all: true, listing: true, links: true }, db);
  assert.match(seen.stamp, /^[0-9a-f]{32}$/);
  assert.deepEqual(Object.assign(seen, { stamp: "" }),
    { stamp: "", keys: [], generations: { "a.toml": undefined }, texts: { "a.toml": undefined }, summaries: {}, next: {}, damaged: {} });
});

test("a summary computed again is stored only while its generation is the stored one", async function () {
  const db = fresh();
  await write({ texts: { "a.toml": "A" } }, new Map(), db);
  await write({ lines: { "a.toml": line("a.toml", 7) } }, new Map(), db);
  assert.deepEqual(await summaries(db), {});
  await write({ lines: { "a.toml": line("a.toml", 1) } }, new Map(), db);
  assert.equal((await summaries(db))["a.toml"].generation, 1);
});

test("damaged records are kept as they are until removed, and never offered as texts", async function () {
  const db = fresh();
  await write({ texts: { "a.toml": "A" } }, new Map(), db);
  const opened = await new Promise(function (resolve) { const r = globalThis.indexedDB.open(db); r.onsuccess = function () { resolve(r.result); }; });
  await new Promise(function (resolve) {
    const t = opened.transaction(["matches", "summaries"], "readwrite");
    t.objectStore("matches").put(7, "number.toml");
    t.objectStore("matches").put({ text: "x" }, "sub/x.toml");
    t.objectStore("matches").put("A", 12);
    t.objectStore("summaries").put({ name: "s.toml", players: "Ann" }, "s.toml");
    t.objectStore("summaries").put(line("ghost.toml", 1), "ghost.toml");
    t.oncomplete = resolve;
  });
  opened.close();
  assert.deepEqual(await texts(db), { "a.toml": "A" });
  assert.equal(await text("number.toml", db), undefined);
  assert.equal(await value("number.toml", db), 7);
  assert.deepEqual(await value(12, db), "A");
  assert.deepEqual(Object.keys(await summaries(db)), []);  // no text, or not a list of players: not shown
  const seen = await snapshot({ all: true }, db);
  assert.deepEqual(seen.keys, [12, "a.toml", "number.toml", "sub/x.toml"]);
  await remove(12, db);
  await remove("sub/x.toml", db);
  assert.deepEqual((await snapshot({ all: true }, db)).keys, ["a.toml", "number.toml"]);
  await write({ dropped: ["ghost.toml", "a.toml"] }, new Map(), db);
  const left = await new Promise(function (resolve) { const r = globalThis.indexedDB.open(db); r.onsuccess = function () { resolve(r.result); }; });
  const keys = await new Promise(function (resolve) { left.transaction("summaries").objectStore("summaries").getAllKeys().onsuccess = function (e) { resolve(e.target.result); }; });
  assert.deepEqual(keys, ["s.toml"]);  // ghost's text is gone; a.toml had no summary to drop
  left.close();
});

test("an earlier build's store (version 1) is upgraded in place: every text kept, at generation 1", async function () {
  const db = fresh();
  await new Promise(function (resolve) {
    const r = globalThis.indexedDB.open(db, 1);
    r.onupgradeneeded = function () { r.result.createObjectStore("matches"); r.result.createObjectStore("summaries"); };
    r.onsuccess = function () {
      const t = r.result.transaction("matches", "readwrite");
      t.objectStore("matches").put("old text", "old.toml");
      t.objectStore("matches").put(5, "odd.toml");
      t.oncomplete = function () { r.result.close(); resolve(); };
    };
  });
  const seen = await snapshot({ names: ["old.toml"], all: true }, db);
  assert.equal(seen.texts["old.toml"], "old text");
  assert.deepEqual(seen.generations, { "odd.toml": 1, "old.toml": 1 });
  assert.equal(await value("odd.toml", db), 5);
});

test("a store of version 2 is upgraded in place: generations kept, and a stamp made that each write of a text replaces", async function () {
  const db = fresh();
  await new Promise(function (resolve) {
    const r = globalThis.indexedDB.open(db, 2);
    r.onupgradeneeded = function () { ["matches", "generations", "summaries", "next"].forEach(function (store) { r.result.createObjectStore(store); }); };
    r.onsuccess = function () {
      const t = r.result.transaction(["matches", "generations"], "readwrite");
      t.objectStore("matches").put("kept", "a.toml");
      t.objectStore("generations").put(4, "a.toml");
      t.oncomplete = function () { r.result.close(); resolve(); };
    };
  });
  const seen = await snapshot({ names: ["a.toml"], all: true }, db);
  assert.deepEqual(seen.generations, { "a.toml": 4 });
  assert.match(seen.stamp, /^[0-9a-f]{32}$/);
  assert.equal((await snapshot({ since: seen.stamp }, db)).keys, null);  // nothing moved: no name read
  const { commit } = await import("../../ginscore/pocket/shell/store.js");
  const done = await commit({ texts: { "a.toml": "new" } }, new Map(), db);
  assert.deepEqual(done.made, { "a.toml": 5 });
  assert.equal(done.was, seen.stamp);
  assert.notEqual(done.stamp, seen.stamp);
  assert.deepEqual((await snapshot({ since: seen.stamp }, db)).keys, ["a.toml"]);  // moved: every name read again
});

// --- a stored value that is not what the app writes -----------------------------------------------------------------

function cyclic() { const found = { name: "a.toml", players: ["Ann", "Bob"] }; found.self = found; return found; }

async function raw(db, store, key, stored) {
  const opened = await new Promise(function (resolve) { const r = globalThis.indexedDB.open(db); r.onsuccess = function () { resolve(r.result); }; });
  await new Promise(function (resolve, reject) {
    const transaction = opened.transaction(store, "readwrite");
    transaction.objectStore(store).put(stored, key);
    transaction.oncomplete = resolve;
    transaction.onerror = reject;
  });
  opened.close();
}

for (const [kind, stored] of [["a BigInt", 5n], ["an object that holds itself", cyclic()], ["a text", "3"], ["a fraction", 1.5], ["zero", 0]]) {
  test("a generation that is " + kind + " sets its match aside, its text unread, and everything else is plain JSON", async function () {
    const db = fresh();
    await write({ texts: { "a.toml": "A", "b.toml": "B" }, summaries: { "b.toml": line("b.toml") } }, new Map(), db);
    await raw(db, "generations", "a.toml", stored);
    await raw(db, "generations", "orphan.toml", stored);
    const seen = await snapshot({ names: ["a.toml", "b.toml"], all: true, listing: true, links: true }, db);
    assert.match(seen.damaged["a.toml"], /^its count of changes is /);
    assert.ok(seen.damaged["orphan.toml"]);
    assert.equal(seen.generations["a.toml"], undefined);
    assert.equal("a.toml" in seen.texts, false);
    assert.equal(seen.texts["b.toml"], "B");
    assert.doesNotThrow(function () { JSON.stringify(seen); });
    // a write to the name (a file opened over it, "Replace") starts its count again
    assert.deepEqual(await write({ texts: { "a.toml": "A2" } }, new Map(), db), { "a.toml": 1 });
  });

  test("a summary or next game that is " + kind + " is left out, to be computed again", async function () {
    const db = fresh();
    await write({ texts: { "a.toml": "A" }, summaries: { "a.toml": line("a.toml") } }, new Map(), db);
    await raw(db, "summaries", "a.toml", typeof stored === "object" ? stored : Object.assign(line("a.toml", 1), { hands: stored }));
    await raw(db, "next", "a.toml", { generation: typeof stored === "bigint" ? stored : 1, started: typeof stored === "object" ? stored : "b.toml" });
    const seen = await snapshot({ names: ["a.toml"], all: true, listing: true, links: true }, db);
    const numeric = typeof stored === "number" || typeof stored === "string";
    assert.equal("a.toml" in seen.summaries, numeric);  // a plain number or text: Python judges its shape
    assert.doesNotThrow(function () { JSON.stringify(seen); });
    assert.doesNotThrow(function () { JSON.stringify(seen.next); });
    assert.deepEqual(Object.keys(await summaries(db)), numeric ? ["a.toml"] : []);
  });
}

test("isCount, isPlain and asText", async function () {
  const { asText, isCount, isPlain } = await import("../../ginscore/pocket/shell/store.js");
  assert.deepEqual([1, 2 ** 53 - 1, 0, -1, 1.5, 2 ** 53, NaN, "1", 1n, null].map(isCount), [true, true, false, false, false, false, false, false, false, false]);
  assert.equal(isPlain({ a: [1, "b", null, true, { c: 2 }] }), true);
  assert.equal(isPlain({ a: 1n }), false);
  assert.equal(isPlain(cyclic()), false);
  assert.equal(isPlain(new Map()), false);
  assert.equal(isPlain(new Date()), false);
  assert.equal(isPlain({ a: Infinity }), false);
  let deep = {};
  for (let level = 0; level < 40; level += 1) deep = { deeper: deep };
  assert.equal(isPlain(deep), false);
  assert.equal(asText("as it is\r\n"), "as it is\r\n");
  assert.equal(asText(12n), "\"12\"");
  assert.match(asText(cyclic()), /"self":"\[seen above\]"/);
  const shared = { x: 1 };
  assert.doesNotMatch(asText({ a: shared, b: shared }), /seen above/);  // met twice, but not inside itself
});

test("a database deleted under an open connection is said once, when it is opened again", async function () {
  const { database, wasCleared } = await import("../../ginscore/pocket/shell/store.js");
  const db = fresh();
  await write({ texts: { "a.toml": "A" } }, new Map(), db);
  assert.equal(wasCleared(db), false);
  await new Promise(function (resolve) { const d = globalThis.indexedDB.deleteDatabase(db); d.onsuccess = d.onerror = d.onblocked = resolve; });
  await database(db);  // the connection closed on the deletion: a new, empty one
  assert.equal(await text("a.toml", db), undefined);
  assert.equal(wasCleared(db), true);
  assert.equal(wasCleared(db), false);
});
