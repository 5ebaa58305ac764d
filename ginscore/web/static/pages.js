// ginscore serve: makes the pages smoother; every page works without it.
// The card picker toggles cards in place, and asks the server (never a copy of the solver) what they make.
// An open match page polls the file's version about once a second and swaps in the new sheet, and keeps the
// screen awake where the browser has the Screen Wake Lock API.
"use strict";
(function () {
  function post(url, form) {
    return fetch(url, { method: "POST", body: new FormData(form), credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.text(); });
  }

  // --- the live sheet ---
  function live(box) {
    var busy = false;
    function poll() {
      if (busy || document.hidden) return;
      var sheet = document.getElementById("sheet");
      busy = true;
      fetch(box.dataset.versionUrl, { credentials: "same-origin", cache: "no-store" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (found) {
          if (!found || !found.version || (sheet && sheet.dataset.version === found.version)) return null;
          return fetch(box.dataset.sheetUrl, { credentials: "same-origin", cache: "no-store" })
            .then(function (response) { return response.ok ? response.text() : null; })
            .then(function (html) {
              if (!html) return;
              box.innerHTML = html;
              // say the newest hand once, rather than having a screen reader read the whole sheet again
              var status = document.getElementById("live-status"), last = box.querySelector("tr.hand:last-of-type .result");
              if (status) status.textContent = last ? "Sheet updated: " + last.textContent : "Sheet updated.";
            });
        })
        .catch(function () {})
        .then(function () { busy = false; });
    }
    setInterval(poll, 1000);
  }

  // --- the screen stays awake while a match is open, where the browser can (Screen Wake Lock) ---
  function stay_awake() {
    var wake = navigator.wakeLock, held = null;
    if (!wake || typeof wake.request !== "function") return;
    function ask() {
      if (held || document.visibilityState !== "visible") return;
      held = "asking";
      Promise.resolve().then(function () { return wake.request("screen"); }).then(function (lock) {
        held = lock;
        if (lock && lock.addEventListener) lock.addEventListener("release", function () { held = null; });
      }).catch(function () { held = null; });  // refused (battery saver, no permission): silently nothing
    }
    // the browser lets the lock go when the page is hidden; ask again when it is shown
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && held && held.released) held = null;
      ask();
    });
    ask();
  }

  // --- the card picker and the live answer ---
  function words(value) { return value.split(/\s+/).filter(Boolean); }

  function picker(form) {
    var box = form.querySelector("[data-picker]");
    var liveHand = document.getElementById("live-hand");
    var picking = box ? box.querySelector("[data-picking]") : null;
    var timer = null, asked = 0;

    function side(key) { return box.querySelector('[data-side="' + key + '"]'); }
    function sides() { return Array.prototype.slice.call(box.querySelectorAll("[data-side]")); }

    function paint() {
      if (!box) return;
      var mine = words(side(picking.value).value);
      var others = [];
      sides().forEach(function (input) {
        if (input.dataset.side !== picking.value) others = others.concat(words(input.value));
        var count = box.querySelector('[data-count="' + input.dataset.side + '"]');
        if (count) count.textContent = words(input.value).length;
      });
      box.querySelectorAll("button[name=toggle]").forEach(function (button) {
        var code = button.value, other = others.indexOf(code) >= 0;
        button.setAttribute("aria-pressed", mine.indexOf(code) >= 0 ? "true" : "false");
        button.disabled = other;
        button.classList.toggle("other", other);
      });
      box.querySelectorAll("button[name=side]").forEach(function (button) {
        button.setAttribute("aria-pressed", button.value === picking.value ? "true" : "false");
      });
      var discard = form.querySelector("[data-discard]");
      var knocker = side("knocker");
      if (discard && knocker) {
        var cards = words(knocker.value), chosen = discard.value;
        while (discard.options.length > 1) discard.remove(1);
        if (cards.length > 10) cards.forEach(function (code) { discard.add(new Option(code, code, false, code === chosen)); });
      }
    }

    function refresh() {
      if (!liveHand || !form.dataset.liveUrl) return;
      clearTimeout(timer);
      timer = setTimeout(function () {
        var mine = ++asked;
        post(form.dataset.liveUrl, form).then(function (html) {
          if (mine !== asked) return;
          var active = document.activeElement, focused = active && liveHand.contains(active) ? active.id : "";
          liveHand.innerHTML = html;
          if (focused && document.getElementById(focused)) document.getElementById(focused).focus();  // a spread chosen keeps focus
        }).catch(function () {});
      }, 150);
    }

    form.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button || !box || !box.contains(button)) return;
      if (button.name === "toggle") {
        var input = side(picking.value), cards = words(input.value), at = cards.indexOf(button.value);
        if (at >= 0) cards.splice(at, 1); else cards.push(button.value);
        input.value = cards.join(" ");
      } else if (button.name === "side") {
        picking.value = button.value;
      } else if (button.name === "clear") {
        side(picking.value).value = "";
      } else {
        return;
      }
      event.preventDefault();
      paint();
      refresh();
    });
    function name_sides() {
      // the side buttons say whose cards they are once the knocker is chosen, as the server's page does
      var radios = Array.prototype.slice.call(form.querySelectorAll("input[name=knocker]"));
      var chosen = radios.filter(function (radio) { return radio.checked; })[0];
      if (!box || !chosen || radios.length !== 2) return;
      var other = radios[0] === chosen ? radios[1] : radios[0];
      var names = { knocker: chosen.value, opponent: other.value };
      box.querySelectorAll("button[name=side]").forEach(function (button) {
        if (button.firstChild && button.firstChild.nodeType === 3) button.firstChild.nodeValue = names[button.value] + "'s cards ";
      });
    }

    form.addEventListener("change", function (event) {
      if (event.target.name === "knocker") name_sides();
      refresh();
    });
    form.addEventListener("submit", function (event) {
      // a double tap sends the hand once; the server's expected_hands refuses a second one anyway
      if (form.dataset.sent) { event.preventDefault(); return; }
      form.dataset.sent = "1";
      setTimeout(function () { delete form.dataset.sent; }, 5000);
    });
    form.addEventListener("input", function (event) {
      if (event.target.inputMode === "numeric" || event.target.name === "note") refresh();
    });
    paint();
  }

  // A refused save comes back with its reason beside the field: bring it into view and give it focus.
  function show_refusal() {
    var refusal = document.querySelector("[data-refusal]");
    if (!refusal) return;
    refusal.scrollIntoView({block: "center"});
    refusal.focus({preventScroll: true});
  }

  function start() {
    show_refusal();
    var box = document.getElementById("live");
    if (box && box.dataset.versionUrl) { live(box); stay_awake(); }
    document.querySelectorAll("form[data-live-url]").forEach(picker);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
