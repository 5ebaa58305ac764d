// ginscore app: the stored matches listed at once, from the summaries IndexedDB keeps (store.js), before Python
// is ready; once it is, the list is serve's own page.
import { item } from "./dom.js";

// The names, the last played first.
export function latestFirst(lines) {
  return Object.keys(lines).sort(function (a, b) { return String(lines[b].last_played || "").localeCompare(String(lines[a].last_played || "")); });
}

export function listSaved(lines) {
  const list = document.getElementById("saved");
  if (!list) return;
  const names = latestFirst(lines);
  list.replaceChildren();
  if (!names.length) { list.append(item("No matches on this phone yet.")); return; }
  names.forEach(function (name) {
    const line = lines[name], entry = document.createElement("li");
    entry.className = "match-entry";
    if (line.reason || !Array.isArray(line.players) || !line.totals) {
      entry.append(item(name + ": " + line.status, "span"));  // why, in a player's words, once the pages are in
    } else {
      const link = document.createElement("a");
      link.className = "players";
      link.href = "#/m/" + encodeURIComponent(name);
      link.textContent = line.players.join(" vs ");
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = line.players.map(function (player) { return player + " " + line.totals[player]; }).join(", ");
      entry.append(link, " ", score, " ", item(line.status + " · " + line.hands + (line.hands === 1 ? " hand" : " hands"), "span"));
    }
    list.append(entry);
  });
}
