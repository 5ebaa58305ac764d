// What serve's pages.js and the app's shell share (ginscore/web/static/common.js): the "said once" parameters taken
// out of an address, share-or-download, local times and the timers a host gives.
import { test } from "node:test";
import assert from "node:assert/strict";
import { every, later, localTime, shareOrDownload, withoutSaidOnce } from "../../ginscore/web/static/common.js";

test("each said-once parameter goes, alone, first, last or between others, and the rest stays in its order", function () {
  const cases = {
    "http://127.0.0.1:8000/m/friday.toml?recorded=6": "http://127.0.0.1:8000/m/friday.toml",
    "/m/friday.toml?recorded=6&x=1": "/m/friday.toml?x=1",
    "/m/friday.toml?x=1&edited=2": "/m/friday.toml?x=1",
    "/m/friday.toml?x=1&removed=3&y=2": "/m/friday.toml?x=1&y=2",
    "/m/friday.toml?started=earlier": "/m/friday.toml",
    "/m/friday.toml?recorded=6&edited=2&removed=1&started=earlier": "/m/friday.toml",
    "/m/friday.toml?merged=kept&added=2": "/m/friday.toml?merged=kept&added=2",
  };
  for (const [address, said] of Object.entries(cases)) assert.equal(withoutSaidOnce(address), said, address);
});

test("the app's #/route?query loses them too, and a fragment after a query is kept", function () {
  assert.equal(withoutSaidOnce("http://h/app/#/m/a.toml?recorded=3"), "http://h/app/#/m/a.toml");
  assert.equal(withoutSaidOnce("/m/a.toml?recorded=3&b=1#sheet"), "/m/a.toml?b=1#sheet");
  assert.equal(withoutSaidOnce("/m/a.toml#sheet"), "/m/a.toml#sheet");
});

test("a parameter that only ends in a said-once name, or a value that names one, is kept", function () {
  assert.equal(withoutSaidOnce("/stats?unrecorded=1"), "/stats?unrecorded=1");
  assert.equal(withoutSaidOnce("/stats?note=recorded=1"), "/stats?note=recorded=1");
});

function phone(share) {
  const saved = [], shared = [];
  const navigator = share === null ? {} : {
    canShare: function () { return true; },
    share: async function (what) { shared.push(what); if (share) throw share; },
  };
  return { saved, shared, how: { navigator, save: function (file, name) { saved.push(name); } } };
}

const FILE = { name: "friday-result.png" };

test("a phone that shares shares the file, and nothing is downloaded", async function () {
  const one = phone(undefined);
  assert.equal(await shareOrDownload(FILE, { text: "Ann won" }, one.how), "shared");
  assert.deepEqual(one.shared, [{ files: [FILE], title: FILE.name, text: "Ann won" }]);
  assert.deepEqual(one.saved, []);
});

test("a share sheet closed is cancelled: nothing downloaded", async function () {
  const one = phone(Object.assign(new Error("closed"), { name: "AbortError" }));
  assert.equal(await shareOrDownload(FILE, {}, one.how), "cancelled");
  assert.deepEqual(one.saved, []);
});

test("a share refused (too long after the tap), or no share at all, downloads the file", async function () {
  const refused = phone(Object.assign(new Error("late"), { name: "NotAllowedError" }));
  assert.equal(await shareOrDownload(FILE, {}, refused.how), "downloaded");
  assert.deepEqual(refused.saved, [FILE.name]);
  const none = phone(null);
  assert.equal(await shareOrDownload(FILE, {}, none.how), "downloaded");
  assert.deepEqual(none.saved, [FILE.name]);
});

test("a share that fails otherwise is thrown, for the page to say so, and nothing is downloaded", async function () {
  const one = phone(Object.assign(new Error("broken"), { name: "DataError" }));
  await assert.rejects(shareOrDownload(FILE, {}, one.how), { name: "DataError" });
  assert.deepEqual(one.saved, []);
});

test("a time is said with its date and its minutes", function () {
  const said = localTime(new Date("2026-12-05T14:05:00Z"), "en-GB");
  assert.match(said, /2026/);
  assert.match(said, /\d{2}:05/);
});

test("a host's timers stop when told", async function () {
  let ticks = 0, fired = false;
  const stopTicks = every(function () { ticks++; }, 1);
  const cancel = later(function () { fired = true; }, 1);
  cancel();
  await new Promise(function (done) { setTimeout(done, 20); });
  stopTicks();
  const after = ticks;
  await new Promise(function (done) { setTimeout(done, 20); });
  assert.ok(after > 0);
  assert.equal(ticks, after);
  assert.equal(fired, false);
});
