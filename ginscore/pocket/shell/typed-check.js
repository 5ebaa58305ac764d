// ginscore app: "Can I knock?" with the cards typed, answered by the lean layers as soon as they are in, before the
// pages are. The answer is the check page's own HTML, made by the Python that makes serve's (worker.py `check`,
// sheets/hand_check.py), inserted as it comes.
import { item } from "./dom.js";

// The box, from index.html's template, in place of `into`.
export function typedCheck(into) {
  into.replaceWith(document.getElementById("typed-check").content.cloneNode(true));
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
    pad.ask("check", { text: form.elements.cards.value }).then(function (html) {
      answer.innerHTML = html;  // escaped by the Python that made it, as serve's pages.js takes its live answer
      answer.scrollIntoView({ block: "center" });  // below the box typed in, and under the keyboard: in view, whole
    }, function () { answer.replaceChildren(); });  // the banner says why
  }
  document.addEventListener("submit", submitted);
  return function () { document.removeEventListener("submit", submitted); };
}
