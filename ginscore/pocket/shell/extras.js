// ginscore app: what the shell adds to serve's pages once one is shown. On the list, its boxes (drawn by the
// template, templates/_app_boxes.html) made to work, and the records set aside; on a match's page, the match file
// itself, out and in; on /check, the typed check.
import { download, shareOrDownload } from "./static/common.js";
import { asText, text } from "./store.js";
import { button, item, section } from "./dom.js";
import { Backups, settled } from "./backups.js";
import { unanswered } from "./banners.js";
import { typedCheck } from "./typed-check.js";

export class Extras {
  constructor(pad, router) {
    this.pad = pad;
    this.router = router;
    this.backups = new Backups(pad, router);
  }

  // The router's hook (router.js `swap`): `answer` is the page's, with the records set aside on a listing.
  added(path, main, answer) {
    const match = /^\/m\/([^/]+)$/.exec(path);
    if (match) {
      main.append(matchFileBox(decodeURIComponent(match[1])));
      this.backups.offer(main);
    } else if (path === "/check") {
      const place = document.createElement("div");
      main.append(place);
      typedCheck(place);
    } else if (path === "/") {
      this.opening(main);
      this.backups.wire(main);
      if (answer && answer.damaged && answer.damaged.length) main.append(this.damagedBox(answer.damaged));
    }
  }

  // "Open a match file": the file is read by the worker, as `validate` reads one (its size first), and merged into
  // the phone's copy of its match by the rule; what it did is said in view.
  opening(main) {
    const input = main.querySelector("#open-file"), said = main.querySelector("#open-said");
    if (!input || !said) return;
    function tell(words, css) {
      said.className = css;
      said.replaceChildren(words);
      said.scrollIntoView({ block: "center" });
      said.focus({ preventScroll: true });
    }
    const opened = async (file) => {
      let answer;
      try { answer = await this.pad.ask("open", { file: file }); }
      catch (error) {
        if (!unanswered(error)) tell(file.name + " was not opened: something went wrong while reading it, and nothing on this phone changed. Try again.", "error");
        return;
      }
      if (answer.error) { tell(answer.error, "error"); return; }
      if (answer.form) { settled(this.router, answer.form); return; }  // a copy in conflict with the phone's: the merge page shows it
      // the match's page says what the merge did, as after one posted to /merge; a new match is itself the answer
      const query = answer.outcome === "new" ? "" : "?merged=" + answer.outcome + "&added=" + answer.added;
      this.router.go("/m/" + encodeURIComponent(answer.name) + query);
    };
    input.onchange = function () {
      const file = input.files[0];
      input.value = "";
      if (file) opened(file);
    };
  }

  // Records the store holds that are not a match file under a name the folder accepts: set aside, never loaded,
  // kept until the person removes them.
  damagedBox(records) {
    const box = section("Damaged records", "app-damaged"), list = document.createElement("ul");
    box.append(item("These stored records cannot be read as match files; the other matches are not affected.", "p"));
    records.forEach((record) => {
      const entry = document.createElement("li"), shown = typeof record.key === "string" ? record.key : JSON.stringify(record.key);
      entry.className = "damaged";
      const keep = button("Download as it is"), gone = button("Remove");
      keep.onclick = async () => {
        let stored;
        try { stored = await this.pad.ask("value", { key: record.key }); } catch (error) { unanswered(error); return; }
        download(new Blob([asText(stored)], { type: "text/plain" }), damagedName(record.key));
      };
      gone.onclick = async () => {
        try { await this.pad.ask("remove", { key: record.key }); } catch (error) { unanswered(error); return; }
        this.router.show("/");
      };
      entry.append(item(shown + ": " + record.reason, "span"), " ", keep, " ", gone);
      list.append(entry);
    });
    box.append(list);
    return box;
  }
}

// A damaged record's download name: its key where that is a plain file name (no leading dots), else a fixed one.
export function damagedName(key) {
  const named = typeof key === "string" && /^[^/\\]+$/.test(key) && key.replace(/^\.+/, "") ? key.replace(/^\.+/, "") : "damaged-record";
  return named.slice(0, 120);
}

async function matchFile(name) {
  return new File([await text(name)], name, { type: "application/toml" });
}

// "The match file": downloaded, or shared where the phone shares such a file.
function matchFileBox(name) {
  const box = section("The match file", "app-file"), buttons = document.createElement("p");
  buttons.className = "buttons";
  const save = button("Download the match file (.toml)");
  save.onclick = function () { matchFile(name).then(function (file) { download(file, name); }); };
  buttons.append(save);
  if (navigator.canShare && navigator.canShare({ files: [new File(["x"], "x.toml", { type: "text/plain" })] })) {
    const share = button("Share the match file");
    share.onclick = function () { matchFile(name).then(function (file) { shareOrDownload(file, { title: name }).catch(function () {}); }); };
    buttons.append(share);
  }
  box.append(buttons, item("It is the same file the command line reads on a computer.", "p"));
  return box;
}
