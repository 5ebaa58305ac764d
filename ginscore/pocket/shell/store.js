// The match files kept on the phone: IndexedDB database "ginscore", each match's TOML text in the store "matches"
// (key: the file's name), and beside it in "summaries" the line the list of matches shows, computed by Python.
// Used by the page (to list the matches before Python is ready) and by the worker (every read and write).
export const LOCK = "ginscore-matches";
export const CHANNEL = "ginscore";
const TEXTS = "matches", SUMMARIES = "summaries";
let opening = null;

export function database() {
  if (!opening) {
    opening = new Promise(function (resolve, reject) {
      const request = indexedDB.open("ginscore", 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(TEXTS);
        request.result.createObjectStore(SUMMARIES);
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { opening = null; reject(request.error); };
    });
  }
  return opening;
}

function everything(db, name) {
  return new Promise(function (resolve, reject) {
    const found = {}, transaction = db.transaction(name, "readonly");
    const cursor = transaction.objectStore(name).openCursor();
    cursor.onsuccess = function () {
      const at = cursor.result;
      if (!at) return;
      found[at.key] = at.value;
      at.continue();
    };
    transaction.oncomplete = function () { resolve(found); };
    transaction.onerror = function () { reject(transaction.error); };
  });
}

export async function texts() { return everything(await database(), TEXTS); }
export async function summaries() { return everything(await database(), SUMMARIES); }

export async function text(name) {
  const db = await database();
  return new Promise(function (resolve, reject) {
    const request = db.transaction(TEXTS, "readonly").objectStore(TEXTS).get(name);
    request.onsuccess = function () { resolve(request.result); };
    request.onerror = function () { reject(request.error); };
  });
}

// Every changed text and its summary in ONE transaction: a tab killed part way leaves the old match or the new one.
// `changed` maps a name to its new text, or to null when the file is gone.
export async function write(changed, lines) {
  const db = await database();
  return new Promise(function (resolve, reject) {
    const transaction = db.transaction([TEXTS, SUMMARIES], "readwrite", { durability: "strict" });
    const kept = transaction.objectStore(TEXTS), shown = transaction.objectStore(SUMMARIES);
    Object.keys(changed).forEach(function (name) {
      if (changed[name] === null) { kept.delete(name); shown.delete(name); return; }
      kept.put(changed[name], name);
      if (lines[name]) shown.put(lines[name], name);
    });
    Object.keys(lines).forEach(function (name) { if (!(name in changed)) shown.put(lines[name], name); });
    transaction.oncomplete = function () { resolve(); };
    transaction.onerror = transaction.onabort = function () { reject(transaction.error || new Error("not stored")); };
  });
}
