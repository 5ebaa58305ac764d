// The app's shell, its pure parts: the deadlines of the worker's client (rpc.js), when their clocks start, the
// routes' path and query, the first list's order (list.js) and the first start's bar (progress.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { BEAT_SECONDS, DEADLINES, NoAnswer, Pad, clockRuns, deadline, header, split } from "../../ginscore/pocket/shell/rpc.js";
import { latestFirst } from "../../ginscore/pocket/shell/list.js";
import { filled, megabytes } from "../../ginscore/pocket/shell/progress.js";

test("advice posted has the long deadline; the same path read, or another post, has the request's", function () {
  assert.equal(deadline("request", { method: "POST", path: "/m/friday.toml/check" }), DEADLINES.advice);
  assert.equal(deadline("request", { method: "POST", path: "/api/advise" }), DEADLINES.advice);
  assert.equal(deadline("request", { method: "GET", path: "/m/friday.toml/check" }), DEADLINES.request);
  assert.equal(deadline("request", { method: "POST", path: "/m/friday.toml/record" }), DEADLINES.request);
  assert.equal(deadline("check"), DEADLINES.check);
});

test("a check's clock starts with the lean layers, a page's with the pages, and `times` at once", function () {
  assert.equal(clockRuns("check", false, false), false);
  assert.equal(clockRuns("check", true, false), true);
  assert.equal(clockRuns("request", true, false), false);
  assert.equal(clockRuns("request", true, true), true);
  assert.equal(clockRuns("times", false, false), true);
});

test("a route splits into its path and its query", function () {
  assert.deepEqual(split("/m/a.toml?x=1&y=2"), ["/m/a.toml", "x=1&y=2"]);
  assert.deepEqual(split("/"), ["/", ""]);
});

test("a header is found whatever the case it was sent in", function () {
  const answer = { headers: [["Content-Type", "text/html"]] };
  assert.equal(header(answer, "content-type"), "text/html");
  assert.equal(header(answer, "location"), "");
});

function fakePad() {
  const sent = [];
  const pad = new Pad({ progress() {}, lean() {}, ready() {}, failed() {}, stalled() {} });
  pad.worker = { postMessage: function (message) { sent.push(message); } };
  pad.begun();
  return { pad, sent };
}

test("an answer settles its question, and a refusal carries the worker's words", async function () {
  const { pad, sent } = fakePad();
  const asked = pad.ask("value", { key: "a.toml" });
  await new Promise(setImmediate);
  assert.equal(sent[0].kind, "value");
  pad.heard({ id: sent[0].id, ok: true, result: "text" });
  assert.equal(await asked, "text");
  const refused = pad.ask("remove", { key: "b.toml" });
  await new Promise(setImmediate);
  pad.heard({ id: sent[1].id, ok: false, error: "busy", said: "busy" });
  await assert.rejects(refused, function (error) { return error.said === "busy" && error.message === "busy"; });
  assert.equal(pad.waiting.size, 0);
});

test("a question past its deadline is refused as NoAnswer and said once; stop() clears every timer", async function (t) {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  globalThis.document = { visibilityState: "hidden" };  // the heartbeat asks only while the page is in view
  t.after(function () { delete globalThis.document; });
  const said = [];
  const { pad, sent } = fakePad();
  pad.hooks.stalled = function (words) { said.push(words); };
  pad.heard({ type: "ready", times: {} });
  const asked = pad.ask("request", { method: "GET", path: "/" });
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(sent.length, 1);
  t.mock.timers.tick(DEADLINES.request * 1000);
  await assert.rejects(asked, NoAnswer);
  assert.deepEqual(said, ["The score pad did not answer within 20 seconds."]);
  assert.equal(sent.length, 1);  // hidden: no heartbeat asked
  globalThis.document.visibilityState = "visible";
  t.mock.timers.tick(BEAT_SECONDS * 1000);
  await Promise.resolve();
  await Promise.resolve();
  assert.deepEqual(sent.map(function (message) { return message.kind; }), ["request", "alive"]);
  pad.stop();
  assert.equal(pad.beat, null);
  t.mock.timers.tick(10 * BEAT_SECONDS * 1000);  // stopped: no heartbeat, and the alive question's deadline cleared
  await Promise.resolve();
  assert.equal(sent.length, 2);
  assert.deepEqual(said, ["The score pad did not answer within 20 seconds."]);
});

test("the first list shows the last played first, and a match never played last", function () {
  const lines = { "a.toml": { last_played: "2026-12-01T10:00:00Z" }, "b.toml": { last_played: "2026-12-03T10:00:00Z" }, "c.toml": {} };
  assert.deepEqual(latestFirst(lines), ["b.toml", "a.toml", "c.toml"]);
});

test("the start bar gives the download its first part, and Python's steps the rest", function () {
  assert.equal(filled(0, true), 0.8);
  assert.equal(filled(1, true), 1);
  assert.equal(filled(0.5, false), 0.5);
  assert.equal(megabytes(12345678), "12.3");
});
