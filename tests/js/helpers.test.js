// A review's helpers as the worker sees them (ginscore/pocket/shell/helpers.js): how many a browser gets, the
// knocks shared from both ends, two asked of a helper at a time, a failed knock left to the others, and only the
// knocks under way waited for at the end. Each helper here answers over a real MessageChannel.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Helpers, helperCount, MOST_HELPERS } from "../../ginscore/pocket/shell/helpers.js";

// A helper on the far end of a port: "start" answered at once, a knock after `delay` ms as the bytes [index], or
// refused for the indexes in `fails`. It counts the knocks it was working on at once.
function fakeHelper(port, { delay = 5, fails = [] } = {}) {
  const seen = { started: 0, knocks: [], most: 0, working: 0 };
  port.onmessage = function (event) {
    const message = event.data;
    if (message.kind === "start") {
      seen.started += 1;
      port.postMessage({ id: message.id, ok: true, result: null });
      return;
    }
    seen.knocks.push(message.index);
    seen.working += 1;
    seen.most = Math.max(seen.most, seen.working);
    const timer = setTimeout(function () {
      seen.working -= 1;
      if (fails.includes(message.index)) port.postMessage({ id: message.id, ok: false, error: "it broke" });
      else port.postMessage({ id: message.id, ok: true, result: new Uint8Array([message.index]) });
    }, delay);
    if (delay > 1000) timer.unref();  // a helper that never answers keeps no test waiting
  };
  return seen;
}

// Helpers whose page answers at once with `count` fake helpers.
function helpersWith(count, options) {
  const told = [], seen = [];
  const helpers = new Helpers(count + 1, function (message) {
    told.push(message);
    if (message.type !== "helpers") return;
    const ports = [];
    for (let slot = 0; slot < message.count; slot++) {
      const channel = new MessageChannel();
      seen.push(fakeHelper(channel.port2, options));
      ports.push(channel.port1);
    }
    queueMicrotask(function () { helpers.receive(ports); });
  });
  return { helpers: helpers, told: told, seen: seen };
}

function wait(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }

test("a helper for each core beyond the worker's own, three at most", function () {
  assert.deepEqual([undefined, 0, 1, 2, 4, 16].map(helperCount), [0, 0, 0, 1, 3, MOST_HELPERS]);
});

test("the worker takes knocks from the front, the helpers from the back, two at a time each", async function () {
  const { helpers, told, seen } = helpersWith(1);
  helpers.wake();
  helpers.share("text", new Uint8Array([1]), new Uint8Array([2]), [3, 5, 7, 9, 11, 13]);
  assert.equal(told[0].type, "helpers");
  assert.equal(told[0].count, 1);
  const mine = [];
  for (;;) {
    await wait(7);
    const index = helpers.next();
    if (index === undefined) break;
    mine.push(index);
  }
  await helpers.finish();
  const theirs = helpers.collect();
  assert.deepEqual(helpers.collect(), []);  // handed over once
  const all = mine.concat(theirs.map(function ([index]) { return index; })).sort(function (a, b) { return a - b; });
  assert.deepEqual(all, [3, 5, 7, 9, 11, 13]);
  assert.equal(mine[0], 3);
  assert.equal(seen[0].knocks[0], 13);
  assert.equal(seen[0].most, 2);
  theirs.forEach(function ([index, bytes]) { assert.deepEqual(Array.from(bytes), [index]); });
  assert.equal(helpers.helped, theirs.length);
  helpers.endAll();
  assert.equal(told[told.length - 1].type, "helpers-end");
});

test("a knock a helper fails is left to the others, and the helper asks for no more", async function () {
  const { helpers, seen } = helpersWith(1, { fails: [13] });
  helpers.wake();
  helpers.share("text", new Uint8Array([1]), new Uint8Array(), [3, 5, 7, 13]);
  await wait(30);
  assert.deepEqual(seen[0].knocks.slice(0, 2), [13, 7]);
  const mine = [];
  for (let index = helpers.next(); index !== undefined; index = helpers.next()) mine.push(index);
  await helpers.finish();
  const theirs = helpers.collect().map(function ([index]) { return index; });
  assert.ok(mine.includes(13), "the failed knock is the worker's again");
  assert.deepEqual(seen[0].knocks, [13, 7]);  // the one under way beside it answered, and no other asked
  assert.deepEqual(mine.concat(theirs).sort(function (a, b) { return a - b; }), [3, 5, 7, 13]);
  helpers.endAll();
});

test("at the end only the knocks under way are waited for, not a helper still starting", async function () {
  const told = [];
  const helpers = new Helpers(2, function (message) { told.push(message); });  // the page never answers
  helpers.wake();
  helpers.share("text", new Uint8Array(), new Uint8Array(), [1, 2, 3, 4]);
  assert.deepEqual([helpers.next(), helpers.next(), helpers.next(), helpers.next(), helpers.next()], [1, 2, 3, 4, undefined]);
  await helpers.finish();  // returns: nothing was under way
  assert.deepEqual(helpers.collect(), []);
  helpers.endAll();
});

test("a page that never answers, or a helper that stops answering, keeps the worker only so long", async function () {
  const silent = new Helpers(2, function () {});  // the page never sends the ports
  const began = Date.now();
  assert.equal(await silent.ready(20), null);
  assert.ok(Date.now() - began < 1000);
  silent.endAll();
  const { helpers, told } = helpersWith(1, { delay: 60000 });  // a helper that never answers its knocks
  await helpers.ready(1000);
  helpers.share("text", new Uint8Array(), new Uint8Array(), [1, 2, 3, 4]);
  await wait(20);
  const stopped = Date.now();
  await helpers.finish(30);
  assert.ok(Date.now() - stopped < 1000);
  assert.deepEqual(helpers.collect(), []);
  assert.equal(told[told.length - 1].type, "helpers-end");  // ended: the next review asks for new ones
});
