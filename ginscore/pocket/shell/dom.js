// ginscore app: the few elements the shell makes itself (its banners, the list drawn before Python is ready, the
// typed check's line while the lean layers load, the damaged records); every other page and box, the typed check's
// answer too, is HTML made by serve's Python.

export function item(words, tag) {
  const element = document.createElement(tag || "li");
  element.textContent = words;
  return element;
}

export function button(words) {
  const made = document.createElement("button");
  made.type = "button";
  made.textContent = words;
  return made;
}

export function link(href, words) {
  const anchor = document.createElement("a");
  anchor.href = href;
  anchor.textContent = words;
  return anchor;
}

export function section(heading, css) {
  const box = document.createElement("section"), title = document.createElement("h2");
  box.className = css;
  title.textContent = heading;
  box.append(title);
  return box;
}

// A refusal in the page's own words, said at once.
export function refusal(words) {
  const refused = item(words, "p");
  refused.className = "error";
  refused.setAttribute("role", "alert");
  return refused;
}
