// serial(): the one queue every request of a tab waits in (ginscore/pocket/shell/store.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { serial } from "../../ginscore/pocket/shell/store.js";

function pause(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }

test("tasks run one at a time, in the order asked, whatever each takes", async function () {
  const turn = serial(), log = [];
  let running = 0, most = 0;
  const tasks = [30, 0, 10, 0, 20].map(function (ms, at) {
    return turn(async function () {
      running++;
      most = Math.max(most, running);
      log.push("start " + at);
      await pause(ms);
      log.push("end " + at);
      running--;
      return at;
    });
  });
  assert.deepEqual(await Promise.all(tasks), [0, 1, 2, 3, 4]);
  assert.equal(most, 1);
  assert.deepEqual(log, [0, 1, 2, 3, 4].flatMap(function (at) { return ["start " + at, "end " + at]; }));
});

test("a task that fails is answered with its error, and the next one still runs", async function () {
  const turn = serial();
  const failing = turn(async function () { throw new Error("refused"); });
  const thrown = turn(function () { throw new Error("at once"); });
  const next = turn(async function () { return "ran"; });
  await assert.rejects(failing, /refused/);
  await assert.rejects(thrown, /at once/);
  assert.equal(await next, "ran");
});

test("a task asked while another runs waits for it, even when asked from inside it", async function () {
  const turn = serial(), log = [];
  await turn(async function () {
    turn(async function () { log.push("inner"); });
    await pause(5);
    log.push("outer");
  });
  await turn(async function () {});
  assert.deepEqual(log, ["outer", "inner"]);
});
