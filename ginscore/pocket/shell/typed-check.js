// ginscore app: "Can I knock?" with the cards typed, answered by the lean layers as soon as they are in, before the
// pages are, and laid out as the check page lays out its answer (worker.py `check`).
import { item, refusal } from "./dom.js";

// The box, from index.html's template, in place of `into`.
export function typedCheck(into) {
  into.replaceWith(document.getElementById("typed-check").content.cloneNode(true));
}

function chip(card) {
  const made = document.createElement("span");
  made.className = card.red ? "card-chip red" : "card-chip";
  made.textContent = card.face;
  return made;
}

export function checkAnswer(said) {
  if (said.error) return refusal(said.error);
  const box = document.createElement("div"), verdict = item(said.verdict, "p"), answer = document.createElement("dl");
  box.className = "hand-check";
  verdict.className = "knock-verdict";
  said.discards.forEach(function (card, at) { verdict.append(at ? " or " : ", discarding ", chip(card)); });
  verdict.append(".");
  const melds = document.createElement("dd"), deadwood = document.createElement("dd"), count = item(String(said.deadwood), "span");
  melds.className = "melds";
  said.melds.forEach(function (meld) {
    const group = document.createElement("span");
    group.className = "meld";
    group.append.apply(group, meld.map(chip));
    melds.append(group);
  });
  if (!said.melds.length) melds.textContent = "none";
  deadwood.className = "deadwood";
  count.className = "deadwood-count";
  deadwood.append.apply(deadwood, said.deadwood_cards.map(chip));
  deadwood.append(" ", count);
  answer.className = "answer";
  answer.append(item("Melds", "dt"), melds, item("Deadwood", "dt"), deadwood);
  box.append(verdict, answer);
  return box;
}

// Every typed check's form answered through the worker (`pad`, rpc.js): one listener for the page's life. The
// function returned removes it.
export function answerTypedChecks(pad) {
  function submitted(event) {
    const form = event.target;
    if (!form.classList.contains("typed-check")) return;
    event.preventDefault();
    const answer = form.parentNode.querySelector(".typed-answer");
    if (!pad.leanReady) answer.replaceChildren(item("The score pad is still getting ready…", "p"));
    pad.ask("check", { text: form.elements.cards.value }).then(function (said) {
      answer.replaceChildren(checkAnswer(JSON.parse(said)));
      answer.scrollIntoView({ block: "center" });  // below the box typed in, and under the keyboard: in view, whole
    }, function () { answer.replaceChildren(); });  // the banner says why
  }
  document.addEventListener("submit", submitted);
  return function () { document.removeEventListener("submit", submitted); };
}
