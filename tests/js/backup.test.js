// The record of the last backup (ginscore/pocket/shell/store.js): kept only in the shape the app writes, the hands
// recorded since counted from the list's summaries, and the words the list says of it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BACKUP_KEY, backupLine, handsSince, keepBackup, lastBackup } from "../../ginscore/pocket/shell/store.js";

function storage(initial) {
  const kept = new Map(Object.entries(initial || {}));
  return {
    getItem: function (key) { return kept.has(key) ? kept.get(key) : null; },
    setItem: function (key, value) { kept.set(key, String(value)); },
  };
}

function lines(counts) {
  return Object.fromEntries(Object.entries(counts).map(function ([name, hands]) { return [name, { name: name, hands: hands }]; }));
}

test("a backup kept is read back as it was written", function () {
  const kept = storage();
  const when = new Date("2026-12-02T14:05:00Z");
  keepBackup(kept, when, { "a.toml": 3, "b.toml": 0 });
  assert.deepEqual(lastBackup(kept), { when: "2026-12-02T14:05:00.000Z", hands: { "a.toml": 3, "b.toml": 0 } });
});

test("no backup, or a record not of the shape the app writes, is no backup", function () {
  assert.equal(lastBackup(storage()), null);
  for (const stored of ["not json", "null", "[]", "7", JSON.stringify({ when: "yesterday", hands: {} }),
    JSON.stringify({ when: "2026-12-02T14:05:00Z" }), JSON.stringify({ when: "2026-12-02T14:05:00Z", hands: [1] })]) {
    assert.equal(lastBackup(storage({ [BACKUP_KEY]: stored })), null, stored);
  }
});

test("a count that is not a whole number from 0 is left out, the rest kept", function () {
  const stored = JSON.stringify({ when: "2026-12-02T14:05:00Z", hands: { "a.toml": 2, "b.toml": -1, "c.toml": 1.5, "d.toml": "4" } });
  assert.deepEqual(lastBackup(storage({ [BACKUP_KEY]: stored })).hands, { "a.toml": 2 });
});

test("the hands since are each match's hands past what the backup held, all of a match it did not hold", function () {
  const record = { when: "2026-12-02T14:05:00Z", hands: { "a.toml": 3, "b.toml": 5, "gone.toml": 9 } };
  assert.equal(handsSince(record, lines({ "a.toml": 3, "b.toml": 7, "new.toml": 2 })), 4);
  assert.equal(handsSince(record, lines({ "a.toml": 3, "b.toml": 5 })), 0);
  assert.equal(handsSince(record, lines({ "b.toml": 1 })), 0, "a match with fewer hands (taken from another copy) adds none");
  assert.equal(handsSince(null, lines({ "a.toml": 3, "b.toml": 1 })), 4);
  assert.equal(handsSince(record, { "x.toml": { name: "x.toml", hands: null }, "toString": { hands: 2 } }), 2);
});

test("the list's line says when, and how many hands since, in words", function () {
  const shown = function (date) { return date.toISOString().slice(0, 10); };
  const record = { when: "2026-12-02T14:05:00Z", hands: {} };
  assert.equal(backupLine(record, 3, shown), "Last backup: 2026-12-02 · 3 hands recorded since");
  assert.equal(backupLine(record, 1, shown), "Last backup: 2026-12-02 · 1 hand recorded since");
  assert.equal(backupLine(record, 0, shown), "Last backup: 2026-12-02 · no hands recorded since");
  assert.equal(backupLine(null, 0, shown), "No backup yet");
  assert.equal(backupLine(null, 5, shown), "No backup yet: 5 hands recorded so far");
});
