// ginscore app: what the page says at its top when the worker did not answer, or said it did nothing, and when the
// score pad could not start at all; each in view, with what to do. A hand is saved only once the sheet shows it,
// so the words never say it was. "Show the matches" and "Try again" are asked of the router by an event on the
// document ("ginscore:go", its detail the path, or null for the route shown again), so nothing here imports it.
import { NoAnswer } from "./rpc.js";
import { button } from "./dom.js";

export const GO = "ginscore:go";

function page() { return document.getElementById("page"); }

function raised(banner, words, next) {
  banner.replaceChildren(words, next);
  banner.hidden = false;
  page().setAttribute("aria-busy", "false");
  banner.scrollIntoView({ block: "start" });
}

// The worker stopped answering, or failed.
export function stalled(why) {
  const banner = document.getElementById("no-answer");
  if (!banner || !banner.hidden) return;
  const again = button("Reload the score pad");
  again.onclick = function () { location.reload(); };
  raised(banner, why + " Reload it to go on: your saved matches are kept, and a hand you were saving is saved only if its sheet shows it after the reload. ", again);
}

// The worker's own words for a request it did not carry out, nothing written: another tab held the matches past
// the lock's deadline ("busy"), or the store was deleted under the page ("gone").
export function told(error) {
  const banner = document.getElementById("no-answer");
  if (!banner) return;
  const gone = error.said === "gone", next = button(gone ? "Show the matches" : "Try again");
  next.onclick = function () {
    banner.hidden = true;
    document.dispatchEvent(new CustomEvent(GO, { detail: gone ? "/" : null }));
  };
  raised(banner, error.message + " ", next);
}

// An answer that did not come, or that the worker said in words: the banner says so; true when it did.
export function unanswered(error) {
  if (error && error.said) told(error);
  else if (!(error instanceof NoAnswer)) return false;
  return true;
}

export function cannotStart(words) {
  const starting = document.getElementById("starting");
  if (!starting) return;
  starting.className = "error";
  starting.setAttribute("role", "alert");
  starting.textContent = "The score pad could not start here: " + words + ". Reload the page to try again; your matches are kept.";
  starting.tabIndex = -1;
  page().setAttribute("aria-busy", "false");
  starting.scrollIntoView({ block: "center" });  // the list may have been scrolled meanwhile
  starting.focus({ preventScroll: true });
}
