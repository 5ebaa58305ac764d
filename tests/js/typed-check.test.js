// The app's typed check (ginscore/pocket/shell/typed-check.js): the worker's answer, the check page's own HTML,
// inserted as it comes; what it says while the lean layers load, and after a refusal.
import { test } from "node:test";
import assert from "node:assert/strict";
import { answerTypedChecks } from "../../ginscore/pocket/shell/typed-check.js";

const ANSWER = '<div class="hand-check">\n<p class="knock-verdict">You can knock: 2 deadwood, limit 10.</p>\n</div>\n';

function element(tag) {
  return {
    tag, children: [], innerHTML: "", scrolled: null,
    replaceChildren(...nodes) { this.children = nodes; this.innerHTML = ""; },
    scrollIntoView(how) { this.scrolled = how; },
  };
}

// A page with one typed check's form and another form, and a pad whose worker answers `said` (or refuses).
function page(said, leanReady = true) {
  const listeners = new Set(), asked = [], answer = element("div");
  globalThis.document = {
    addEventListener(kind, listener) { assert.equal(kind, "submit"); listeners.add(listener); },
    removeEventListener(kind, listener) { listeners.delete(listener); },
    createElement: element,
  };
  const form = (css) => ({
    classList: { contains: (name) => name === css },
    parentNode: { querySelector: (selector) => (selector === ".typed-answer" ? answer : null) },
    elements: { cards: { value: "3h 4h 5h 7c 8c 9c Kc Kd Ks 2d 9h" } },
  });
  const pad = {
    leanReady,
    ask(kind, args) { asked.push([kind, args]); return said instanceof Error ? Promise.reject(said) : Promise.resolve(said); },
  };
  function submit(css) {
    const event = { target: form(css), prevented: false, preventDefault() { this.prevented = true; } };
    listeners.forEach(function (listener) { listener(event); });
    return event;
  }
  return { listeners, asked, answer, pad, submit };
}

test("the typed cards are asked of the worker's check, and its HTML goes in as it is, in view", async function () {
  const { asked, answer, pad, submit } = page(ANSWER);
  answerTypedChecks(pad);
  assert.equal(submit("typed-check").prevented, true);
  await new Promise(setImmediate);
  assert.deepEqual(asked, [["check", { text: "3h 4h 5h 7c 8c 9c Kc Kd Ks 2d 9h" }]]);
  assert.equal(answer.innerHTML, ANSWER);
  assert.deepEqual(answer.scrolled, { block: "center" });
});

test("before the lean layers are in, the box says so until the answer replaces it", async function () {
  const { answer, pad, submit } = page(ANSWER, false);
  answerTypedChecks(pad);
  submit("typed-check");
  assert.equal(answer.children.length, 1);
  assert.equal(answer.children[0].tag, "p");
  assert.equal(answer.children[0].textContent, "The score pad is still getting ready…");
  await new Promise(setImmediate);
  assert.equal(answer.innerHTML, ANSWER);
});

test("a check the worker cannot answer leaves the box empty (the banner says why), and nothing scrolls", async function () {
  const { answer, pad, submit } = page(new Error("no answer"), false);
  answerTypedChecks(pad);
  submit("typed-check");
  await new Promise(setImmediate);
  assert.deepEqual([answer.children, answer.innerHTML, answer.scrolled], [[], "", null]);
});

test("another form's submit is left to the router, and the listener goes when the page stops", function () {
  const { listeners, asked, pad, submit } = page(ANSWER);
  const stop = answerTypedChecks(pad);
  assert.equal(submit("stack").prevented, false);
  assert.deepEqual(asked, []);
  stop();
  assert.equal(listeners.size, 0);
});
