// ginscore app: Pyodide started, and the build's archives unpacked into it: for the app's worker (worker.js) and
// for a review's helpers (helper.js), each a Python of its own.
import { loadPyodide } from "./pyodide/pyodide.mjs";

// The runtime, from the build's own copy beside this file; what it prints is not shown, its warnings are logged.
export function startPython() {
  const here = new URL("./pyodide/", import.meta.url).href;
  return loadPyodide({ indexURL: here, packageBaseUrl: here, fullStdLib: false, stdout: function () {}, stderr: function (line) { console.warn(line); } });
}

// One of the build's archives, held to the sha256 build.json gives it, unpacked where Python finds its packages. A
// damaged one is said in words, never as Python's traceback.
export async function archive(py, path, info) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(path + " could not be read (" + response.status + ")");
  const data = await response.arrayBuffer();
  const expected = info.sha256 && info.sha256[path];
  if (expected && crypto.subtle) {
    const digest = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", data)), function (byte) { return byte.toString(16).padStart(2, "0"); }).join("");
    if (digest !== expected) throw new Error("its files are damaged (" + path + " is not the file this build wrote)");
  }
  try {
    py.unpackArchive(data, "zip", { extractDir: py.runPython("import sysconfig; sysconfig.get_paths()['purelib']") });
    py.runPython("import importlib; importlib.invalidate_caches()");
  } catch (error) {
    throw new Error("its files are damaged (" + path + ": " + lastLine(error) + ")");
  }
}

// An error's own words: Python's are its traceback's last line (`BadZipFile: File is not a zip file`).
export function lastLine(error) {
  const lines = String(error && error.message || error).split("\n").map(function (line) { return line.trim(); }).filter(Boolean);
  return (lines.length ? lines[lines.length - 1] : "it failed").replace(/\.$/, "");
}
