// ginscore app: backups, and whether the browser keeps the matches. The list's Backups box is serve's template
// (templates/_app_boxes.html): here it is told when the last backup was made and the hands recorded since, its
// "Back up" makes one, and "Open a backup" merges one; a finished match's result block offers a backup while
// hands on the phone are in none.
import { download, localTime, shareOrDownload } from "./static/common.js";
import { backupLine, handsSince, keepBackup, lastBackup, summaries } from "./store.js";
import { button, item, refusal } from "./dom.js";
import { fileName } from "./router.js";
import { unanswered } from "./banners.js";
import { waitShown } from "./progress.js";

// Asked once: the browser is asked to keep the app's storage (persist), then whether it does (persisted). Where it
// cannot say (no Storage API, as over plain http), the answer is no.
let kept = null;
export function storageKept() {
  if (kept) return kept;
  kept = (async function () {
    const storage = navigator.storage;
    if (!storage || typeof storage.persisted !== "function") return false;
    try {
      if (typeof storage.persist === "function" && await storage.persist()) return true;
      return Boolean(await storage.persisted());
    } catch (error) {
      return false;
    }
  })();
  return kept;
}

function backupRecord() {
  try { return lastBackup(localStorage); } catch (error) { return null; }  // storage the browser will not open
}

export class Backups {
  constructor(pad, router) {
    this.pad = pad;
    this.router = router;
    this.restored = null;  // what the last backup opened became, shown on the list drawn after it
  }

  // The list's box, as the template drew it, made to work.
  wire(main) {
    const box = main.querySelector(".app-backup");
    if (!box) return;
    const warning = box.querySelector(".app-keep");
    if (warning) storageKept().then(function (promised) { if (promised) warning.remove(); else warning.hidden = false; });
    const line = box.querySelector("#backup-line"), make = box.querySelector("[data-back-up]"), said = box.querySelector("#backup-said");
    const input = box.querySelector("#open-backup"), results = box.querySelector("#restore-said");
    make.onclick = () => { this.backUp(make, said).then(function () { shown(line); }); };
    input.onchange = () => {
      const file = input.files[0];
      input.value = "";
      if (file) this.restoring(file, results);
    };
    shown(line);
    if (this.restored) {
      restoredShown(this.restored, results, this.router);
      this.restored = null;
    }
  }

  // The backup made by the worker (serve's own /backup.zip), shared where the browser shares such a file, else
  // downloaded; recorded as the last backup only once the share or the download has started. True when it has.
  async backUp(control, said) {
    function tell(words, css) {
      said.className = css;
      said.textContent = words;
    }
    control.disabled = true;
    try {
      let answer;
      try { answer = await waitShown(this.pad.ask("backup")); } catch (error) {
        if (!unanswered(error)) tell("The backup was not made: something went wrong, and nothing changed. Try again.", "error");
        return false;
      }
      if (answer.status !== 200) {
        tell("The backup was not made (the score pad answered " + answer.status + "); nothing changed. Try again.", "error");
        return false;
      }
      const file = new File([answer.body], fileName(answer, "ginscore-backup.zip"), { type: "application/zip" });
      let how;
      try { how = await shareOrDownload(file); } catch (error) { download(file, file.name); how = "downloaded"; }  // the share failed: downloaded
      if (how === "cancelled") { tell("Not shared: nothing was backed up.", "notice"); return false; }
      try { keepBackup(localStorage, new Date(), answer.hands || {}); } catch (error) {
        tell(file.name + " is made, but this browser would not keep the note of when: keep the file off this phone.", "notice");
        return true;
      }
      tell((how === "shared" ? "Shared " : "Downloaded ") + file.name + ": keep it somewhere off this phone.", "notice");
      return true;
    } finally {
      control.disabled = false;
    }
  }

  // A finished match's result block offers a backup while hands on the phone are in none.
  offer(main) {
    const block = main.querySelector(".result-block");
    if (!block) return;
    summaries().then((lines) => {
      const since = handsSince(backupRecord(), lines);
      if (!since || !block.isConnected || block.querySelector(".result-backup")) return;
      const offer = document.createElement("div"), words = item(since === 1 ? "1 hand on this phone is in no backup yet."
        : since + " hands on this phone are in no backup yet.", "p");
      const make = button("Back up"), said = item("", "p");
      offer.className = "result-backup";
      said.setAttribute("role", "status");
      make.onclick = () => {
        this.backUp(make, said).then(function (done) { if (done) { words.textContent = "Every match on this phone is in the backup."; make.remove(); } });
      };
      words.append(" ", make);
      offer.append(words, said);
      block.append(offer);
    }).catch(function () {});
  }

  // A backup opened: the worker merges each match file in it; the list is drawn again, with what each became below
  // "Open a backup".
  async restoring(file, results) {
    let answer;
    try { answer = await waitShown(this.pad.ask("restore", { file: file })); } catch (error) {
      if (!unanswered(error)) {
        restoredShown({ error: file.name + " was not opened: something went wrong while reading it, and nothing on this phone changed. Try again." }, results, this.router);
      }
      return;
    }
    this.restored = answer;
    if (await this.router.show("/")) return;
    this.restored = null;  // another page came first: said where the person opened it
    restoredShown(answer, results, this.router);
  }
}

async function shown(line) {
  const lines = await summaries().catch(function () { return {}; });
  const record = backupRecord();
  line.textContent = backupLine(record, handsSince(record, lines), localTime);
}

function restoredShown(answer, results, router) {
  const opened = results.isConnected ? results : document.getElementById("restore-said");
  if (!opened) return;
  if (answer.error) {
    opened.replaceChildren(refusal(answer.error));
  } else {
    const list = document.createElement("ul");
    answer.merged.forEach(function (one) {
      const entry = item(one.words);
      entry.className = "restored " + one.outcome;
      if (one.form) {
        const settle = button("Settle it");
        settle.onclick = function () { settled(router, one.form); };
        entry.append(" ", settle);
      }
      list.append(entry);
    });
    const heading = item(answer.words, "p");
    heading.setAttribute("role", "status");
    opened.replaceChildren(heading, list);
  }
  opened.scrollIntoView({ block: "start" });
  opened.focus({ preventScroll: true });
}

// A copy that conflicts with the phone's: posted to /merge as its page's form would be, and the page it answers
// (the differing hands side by side, and the three choices) shown at /merge's address, not the list's.
export function settled(router, form) {
  router.post("/merge", form, "/merge");
}
