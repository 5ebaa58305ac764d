// The codes a scan collects (ginscore/web/static/handover.js): "k of n" from any order, repeats and strangers
// ignored, another match's code starting again, and the payloads posted in their order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const source = readFileSync(new URL("../../ginscore/web/static/handover.js", import.meta.url), "utf8");

function loaded() {
  const window = {};
  vm.runInNewContext(source, { window: window, document: { currentScript: { dataset: { host: "app" } } } });
  return window.ginscoreHandover;
}

const { Collector } = loaded();
const ID = "0123456789AB", OTHER = "BA9876543210";
function code(number, count, id, text) { return "GS1:" + (id || ID) + ":" + number + ":" + count + ":" + (text || "PART" + number); }

test("three codes read in any order, with repeats, make the whole in order", function () {
  const codes = new Collector();
  assert.equal(codes.words(), "Point the camera at the code on the other phone.");
  assert.equal(codes.add(code(3, 3)), "read");
  assert.equal(codes.words(), "1 of 3 read. Keep pointing at the other phone.");
  assert.equal(codes.add(code(3, 3)), "again");
  assert.equal(codes.add(code(1, 3)), "read");
  assert.deepEqual(Array.from(codes.missing()), [2]);  // an array of the script's own realm
  assert.equal(codes.words(), "2 of 3 read. Keep pointing at the other phone.");
  assert.equal(codes.add(code(2, 3)), "complete");
  assert.equal(codes.words(), "All 3 read: adding the match…");
  assert.equal(codes.payloads(), [code(1, 3), code(2, 3), code(3, 3)].join("\n"));
});

test("one code alone is the whole", function () {
  const codes = new Collector();
  assert.equal(codes.add(code(1, 1)), "complete");
  assert.equal(codes.payloads(), code(1, 1));
});

test("text that is not one of ginscore's codes is ignored", function () {
  const codes = new Collector();
  for (const text of ["hello", "https://example.invalid/", "GS1:0123:1:2:X", code(0, 2), code(3, 2), null, 42]) {
    assert.equal(codes.add(text), "foreign");
  }
  assert.equal(codes.read(), 0);
  assert.equal(codes.count, 0);
});

test("a code of another match starts the collection again with it, never mixed", function () {
  const codes = new Collector();
  codes.add(code(1, 3));
  codes.add(code(2, 3));
  assert.equal(codes.add(code(1, 2, OTHER)), "other");
  assert.equal(codes.read(), 1);
  assert.equal(codes.words(), "1 of 2 read. Keep pointing at the other phone.");
  assert.equal(codes.add(code(2, 2, OTHER)), "complete");
  assert.ok(codes.payloads().split("\n").every(function (line) { return line.indexOf(OTHER) === 4; }));
});

test("a code that differs from the one read under its number replaces it", function () {
  const codes = new Collector();
  codes.add(code(1, 2, ID, "FIRST"));
  assert.equal(codes.add(code(1, 2, ID, "AGAIN")), "read");
  assert.equal(codes.read(), 1);
  assert.equal(codes.add(code(2, 2)), "complete");
  assert.match(codes.payloads(), /AGAIN/);
});

test("under the app the script waits to be started, and stops cleanly when never started", function () {
  const handover = loaded();
  assert.equal(typeof handover.start, "function");
  handover.stop();
});
