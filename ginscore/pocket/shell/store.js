// The match files kept on the phone, and the one-at-a-time discipline around them.
//
// IndexedDB database "ginscore", version 3, four stores keyed by the match file's name, and one of the folder's:
//   matches      the match file's text, exactly as the file holds it (its UTF-8 is the file, byte for byte)
//   generations  a count raised by every write of that text: a tab knows what changed without reading texts
//   summaries    the list's line for the match, computed by Python, with the generation it was computed from
//   next         the game "Next game" started after a finished match: {generation, started}
//   folder       "stamp": a random text made afresh by every write of a text or removal of a record, so that a
//                worker that knows every name and generation at a stamp reads them again only when it moved
// A store written by an earlier build (version 1: texts and summaries only; 2: no stamp) is upgraded in place:
// each text of version 1 gets generation 1; nothing is removed. A tab of an earlier build, which would write
// without moving the stamp, is closed out by the upgrade (its connection closes; it cannot open version 3).
// Pure ES module, nothing touched at import: the page and the worker use it, and so do the Node tests.
export const LOCK = "ginscore-matches";
export const CHANNEL = "ginscore";
export const VERSION = 3;
const TEXTS = "matches", GENERATIONS = "generations", SUMMARIES = "summaries", NEXT = "next", FOLDER = "folder";
const STAMP = "stamp";
const STORES = [TEXTS, GENERATIONS, SUMMARIES, NEXT, FOLDER];
const openings = new Map();
const opened = new Set(), cleared = new Set();  // databases opened before in this realm; those since made afresh

// What this realm has read from IndexedDB since it started: records (each value or key a request answered) and
// bytes (a text's UTF-8, a number's 8, any other value's JSON), for the benchmark and the tests to weigh a request.
export const reads = { records: 0, bytes: 0 };

function utf8Length(found) {
  let bytes = 0;
  for (let at = 0; at < found.length; at++) {
    const unit = found.charCodeAt(at);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00) { bytes += 4; at++; }  // a pair of surrogates: one character
    else bytes += 3;
  }
  return bytes;
}

function weigh(found) {
  if (found === undefined) return 0;
  reads.records++;
  if (typeof found === "string") reads.bytes += utf8Length(found);
  else if (typeof found === "number" || typeof found === "bigint") reads.bytes += 8;
  else reads.bytes += asText(found).length;
}

// A stamp no other write makes: 16 random bytes as hex (crypto.getRandomValues works outside secure contexts too).
function newStamp() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), function (byte) { return byte.toString(16).padStart(2, "0"); }).join("");
}

// Calls run one after another, each started when the one before has settled, whatever its outcome.
export function serial() {
  let tail = Promise.resolve();
  return function (task) {
    const run = tail.then(function () { return task(); });
    tail = run.then(function () {}, function () {});
    return run;
  };
}

export function database(name) {
  const called = name || "ginscore";
  if (!openings.has(called)) {
    openings.set(called, new Promise(function (resolve, reject) {
      const request = indexedDB.open(called, VERSION);
      request.onupgradeneeded = function (event) {
        const db = request.result, upgrade = request.transaction;
        if (event.oldVersion === 0 && opened.has(called)) cleared.add(called);  // deleted while this realm used it
        STORES.forEach(function (store) { if (!db.objectStoreNames.contains(store)) db.createObjectStore(store); });
        upgrade.objectStore(FOLDER).put(newStamp(), STAMP);
        if (event.oldVersion === 1) {
          const counted = upgrade.objectStore(GENERATIONS);
          upgrade.objectStore(TEXTS).getAllKeys().onsuccess = function (found) {
            found.target.result.forEach(function (key) { counted.put(1, key); });
          };
        }
      };
      request.onsuccess = function () {
        const db = request.result;
        opened.add(called);
        db.onversionchange = function () { db.close(); openings.delete(called); };  // a newer build's tab may upgrade
        resolve(db);
      };
      request.onerror = function () { openings.delete(called); reject(request.error); };
      request.onblocked = function () {
        openings.delete(called);
        reject(new Error("another tab runs an older ginscore: close it, then reload this one"));
      };
    }));
  }
  return openings.get(called);
}

// --- what a stored value must be, checked before anything uses it ------------------------------------------------
// IndexedDB holds any value a script wrote (a BigInt, an object that holds itself, a Map): a value that is not
// what the app writes is never handed on. A generation that is not a count sets its match aside as damaged; a
// summary or next game that is not plain data is left out (a summary is then computed again from its text).

// A generation: a whole number from 1, exactly held by a double.
export function isCount(stored) { return Number.isSafeInteger(stored) && stored >= 1; }

// Plain data, as JSON holds it without loss: null, true and false, finite numbers, texts, lists and plain objects,
// no deeper than `depth`, holding nothing twice over (so no cycle).
export function isPlain(stored, depth) {
  const most = depth === undefined ? 16 : depth, seen = new Set();
  function plain(found, level) {
    if (found === null || typeof found === "string" || typeof found === "boolean") return true;
    if (typeof found === "number") return Number.isFinite(found);
    if (typeof found !== "object" || level > most || seen.has(found)) return false;
    seen.add(found);
    const shape = Object.getPrototypeOf(found);
    if (Array.isArray(found)) return found.every(function (item) { return plain(item, level + 1); });
    if (shape !== Object.prototype && shape !== null) return false;
    return Object.keys(found).every(function (key) { return plain(found[key], level + 1); });
  }
  return plain(stored, 0);
}

// A stored value as text to download as it is: a text itself, anything else as JSON, a BigInt as its digits and a
// value met again (a cycle) as "[seen above]".
export function asText(stored) {
  if (typeof stored === "string") return stored;
  const open = [];
  const said = JSON.stringify(stored, function (key, found) {
    if (typeof found === "bigint") return found.toString();
    if (found === null || typeof found !== "object") return found;
    while (open.length && open[open.length - 1] !== this) open.pop();  // back out of what this one is not inside
    if (open.includes(found)) return "[seen above]";
    open.push(found);
    return found;
  });
  return said === undefined ? String(stored) : said;
}

// Why a stored generation is not one, in a player's words.
export function countProblem(stored) {
  if (isCount(stored)) return null;
  if (stored === undefined) return "its count of changes is missing";
  const kind = typeof stored === "bigint" ? "a BigInt" : stored === null ? "null" : Array.isArray(stored) ? "a list" :
    typeof stored === "object" ? "an object" : typeof stored === "number" ? "the number " + stored : "a " + typeof stored;
  return "its count of changes is " + kind + ", not a whole number from 1";
}

// Whether the database was deleted (the browser's storage for the site cleared) since this realm last used it,
// and made afresh, empty: said once, then forgotten.
export function wasCleared(dbName) {
  const called = dbName || "ginscore";
  const was = cleared.has(called);
  cleared.delete(called);
  return was;
}

// A request's answer; what it read is weighed (`reads`): each key or value of a list (`many`), else the value.
function asked(request, many) {
  return new Promise(function (resolve, reject) {
    request.onsuccess = function () {
      if (many) request.result.forEach(weigh);
      else weigh(request.result);
      resolve(request.result);
    };
    request.onerror = function () { reject(request.error); };
  });
}

function finished(transaction) {
  return new Promise(function (resolve, reject) {
    transaction.oncomplete = function () { resolve(); };
    transaction.onerror = transaction.onabort = function () { reject(transaction.error || new Error("not stored")); };
  });
}

async function pairs(store) {
  const [keys, values] = await Promise.all([asked(store.getAllKeys(), true), asked(store.getAll(), true)]);
  return keys.map(function (key, at) { return [key, values[at]]; });
}

// What a request needs, in ONE read transaction, so that it is one moment's store:
//   names: the matches it names; their texts are read only when `held` (name -> generation in memory) is stale;
//   all: every key of every text, and every generation; since: a stamp, at which the caller knows every key and
//   generation: they are read, as for `all`, only when the stored stamp is another; listing: every summary;
//   links: each named match's next game, whose text is read too. Answers {stamp, keys, generations, texts,
//   summaries, next, damaged}: `keys` is null when they were not read, `stamp` the stored stamp (undefined when
//   none is stored, or it is not a text); a name with no text stored is in `texts` as undefined. Every value is
//   checked first: a generation that is not a count is left out, its name in `damaged` with the reason (its text
//   is not read); a summary or next game that is not plain data is left out.
export async function snapshot(wanted, dbName) {
  const db = await database(dbName);
  const transaction = db.transaction(STORES, "readonly");
  const done = finished(transaction);
  const texts = transaction.objectStore(TEXTS), counts = transaction.objectStore(GENERATIONS);
  const held = wanted.held || new Map();
  const seen = { stamp: undefined, keys: null, generations: {}, texts: {}, summaries: null, next: {}, damaged: {} };
  function counted(key, stored) {
    if (isCount(stored) || stored === undefined) seen.generations[key] = stored;
    else { seen.generations[key] = undefined; seen.damaged[key] = countProblem(stored); }
  }
  function everything() {
    return Promise.all([
      asked(texts.getAllKeys(), true).then(function (keys) { seen.keys = keys; }),
      pairs(counts).then(function (found) {
        found.forEach(function ([key, value]) { if (typeof key === "string") counted(key, value); });
      }),
    ]);
  }
  const reading = [asked(transaction.objectStore(FOLDER).get(STAMP)).then(function (stamp) {
    if (typeof stamp === "string") seen.stamp = stamp;
    if (!wanted.all && typeof wanted.since === "string" && seen.stamp === wanted.since) return undefined;
    return wanted.all || "since" in wanted ? everything() : undefined;
  })];
  if (wanted.listing) {
    reading.push(pairs(transaction.objectStore(SUMMARIES)).then(function (found) {
      seen.summaries = {};
      found.forEach(function ([key, value]) { if (typeof key === "string" && isPlain(value)) seen.summaries[key] = value; });
    }));
  }
  async function one(name) {
    const generation = await asked(counts.get(name));
    counted(name, generation);
    if (seen.damaged[name]) delete seen.texts[name];
    else if (generation === undefined || generation !== held.get(name)) seen.texts[name] = await asked(texts.get(name));
  }
  const names = Array.from(new Set(wanted.names || []));
  reading.push.apply(reading, names.map(one));
  if (wanted.links) {
    reading.push.apply(reading, names.map(async function (name) {
      const link = await asked(transaction.objectStore(NEXT).get(name));
      if (!isPlain(link) || typeof link.started !== "string" || !isCount(link.generation)) return;
      seen.next[name] = link;
      if (!names.includes(link.started)) await one(link.started);
    }));
  }
  await Promise.all(reading);
  await done;
  return seen;
}

// Every changed text in ONE transaction, acknowledged once it has completed (`oncomplete`, durability strict):
// a tab killed part way leaves the old match or the new one. `change.texts` maps a name to its new text, or to
// null when the file is gone; each text gets the next generation and its summary (`change.summaries`) that
// generation. `change.next` maps a finished match to the game started after it, at the generation in `held`.
// `change.lines` are summaries computed again for a generation (put only while it is still the stored one),
// `change.dropped` summaries whose text is gone. Answers the new generations, by name.
export async function write(change, held, dbName) {
  return (await commit(change, held, dbName)).made;
}

// `write`, answering {made: the new generations, by name, was: the stamp before, stamp: the stamp after}: a write
// of any text makes a new stamp, so that every other worker knows its names and generations moved.
export async function commit(change, held, dbName) {
  const db = await database(dbName);
  const transaction = db.transaction(STORES, "readwrite", { durability: "strict" });
  const done = finished(transaction);
  const texts = transaction.objectStore(TEXTS), counts = transaction.objectStore(GENERATIONS);
  const shown = transaction.objectStore(SUMMARIES), next = transaction.objectStore(NEXT);
  const made = {};
  const changed = change.texts || {}, summaries = change.summaries || {};
  const stamps = restamp(transaction, Object.keys(changed).length > 0);
  await Promise.all(Object.keys(changed).map(async function (name) {
    if (changed[name] === null) {
      [texts, counts, shown, next].forEach(function (store) { store.delete(name); });
      made[name] = null;
      return;
    }
    const was = await asked(counts.get(name));
    const generation = (isCount(was) ? was : 0) + 1;  // a damaged count, replaced as the person asked, starts again
    texts.put(changed[name], name);
    counts.put(generation, name);
    if (summaries[name]) shown.put(Object.assign({}, summaries[name], { generation: generation }), name);
    else shown.delete(name);
    made[name] = generation;
  }));
  Object.entries(change.next || {}).forEach(function ([finished, started]) {
    next.put({ generation: held && held.get(finished), started: started }, finished);
  });
  await Promise.all(Object.entries(change.lines || {}).map(async function ([name, line]) {
    if (await asked(counts.get(name)) === line.generation) shown.put(line, name);
  }));
  await Promise.all((change.dropped || []).map(async function (name) {
    if (await asked(texts.get(name)) === undefined) shown.delete(name);
  }));
  const [was, stamp] = await stamps;
  await done;
  return { made: made, was: was, stamp: stamp };
}

// In a write's transaction: the stored stamp, and a new one in its place when `moved` (else the same). Answers
// [before, after], each undefined when it is not a text.
async function restamp(transaction, moved) {
  const folder = transaction.objectStore(FOLDER);
  const found = await asked(folder.get(STAMP));
  const was = typeof found === "string" ? found : undefined;
  if (!moved) return [was, was];
  const stamp = newStamp();
  folder.put(stamp, STAMP);
  return [was, stamp];
}

// A record set aside as damaged, as it is stored (any value), and its removal when the person asks for it.
export async function value(key, dbName) {
  const db = await database(dbName);
  return asked(db.transaction(TEXTS, "readonly").objectStore(TEXTS).get(key));
}

export async function remove(key, dbName) {
  const db = await database(dbName);
  const transaction = db.transaction(STORES, "readwrite", { durability: "strict" });
  const done = finished(transaction);
  [TEXTS, GENERATIONS, SUMMARIES, NEXT].forEach(function (store) { transaction.objectStore(store).delete(key); });
  transaction.objectStore(FOLDER).put(newStamp(), STAMP);  // a name gone: every worker reads the names again
  await done;
}

// For the first screen, before Python is ready: the stored summaries that have a text and look like one.
export async function summaries(dbName) {
  const db = await database(dbName);
  const transaction = db.transaction([TEXTS, SUMMARIES], "readonly");
  const [keys, found] = await Promise.all([asked(transaction.objectStore(TEXTS).getAllKeys(), true), pairs(transaction.objectStore(SUMMARIES))]);
  const kept = new Set(keys), lines = {};
  found.forEach(function ([name, line]) {
    if (kept.has(name) && isPlain(line) && line && typeof line === "object" && Array.isArray(line.players)) lines[name] = line;
  });
  return lines;
}

export async function text(name, dbName) {
  const found = await value(name, dbName);
  return typeof found === "string" ? found : undefined;
}

export async function texts(dbName) {
  const db = await database(dbName);
  const found = await pairs(db.transaction(TEXTS, "readonly").objectStore(TEXTS));
  return Object.fromEntries(found.filter(function ([key, found]) { return typeof key === "string" && typeof found === "string"; }));
}

// --- the last backup --------------------------------------------------------------------------------------------
// When the last backup was made and the hands each match had in it, kept in the page's localStorage (the worker
// never needs it): written only once the backup's share or download has started. Checked when read, like every
// stored value: anything else is "no backup yet".
export const BACKUP_KEY = "ginscore-last-backup";

export function lastBackup(storage) {
  let found;
  try { found = JSON.parse(storage.getItem(BACKUP_KEY)); } catch (error) { return null; }
  if (!isPlain(found) || found === null || typeof found !== "object" || Array.isArray(found)) return null;
  if (typeof found.when !== "string" || Number.isNaN(Date.parse(found.when))) return null;
  if (!found.hands || typeof found.hands !== "object" || Array.isArray(found.hands)) return null;
  const hands = {};
  Object.entries(found.hands).forEach(function ([name, count]) { if (Number.isSafeInteger(count) && count >= 0) hands[name] = count; });
  return { when: found.when, hands: hands };
}

// `hands`: each match's name and its count of hands, as the backup held them.
export function keepBackup(storage, when, hands) {
  const record = { when: when.toISOString(), hands: hands };
  storage.setItem(BACKUP_KEY, JSON.stringify(record));
  return record;
}

// The hands recorded since the backup (`record`, or null for none yet), from the list's summaries: each match's
// hands past the count the backup held of it, all of them for a match it did not hold.
export function handsSince(record, lines) {
  const held = record ? record.hands : {};
  return Object.keys(lines).reduce(function (sum, name) {
    const hands = lines[name] && lines[name].hands;
    if (!Number.isSafeInteger(hands) || hands < 0) return sum;
    return sum + Math.max(0, hands - (Object.hasOwn(held, name) ? held[name] : 0));
  }, 0);
}

// What the home screen says of it: "Last backup: 2 Dec 2026, 14:05 · 3 hands recorded since", or "No backup yet".
export function backupLine(record, since, shown) {
  const hands = since === 0 ? "no hands" : since + (since === 1 ? " hand" : " hands");
  if (!record) return "No backup yet" + (since ? ": " + hands + " recorded so far" : "");
  return "Last backup: " + shown(new Date(record.when)) + " · " + hands + " recorded since";
}
