// Run by `ginscore app` (ahead.py) in Node: the app's Python compiled by the pinned runtime itself.
// node ahead.mjs RUNTIME_DIR JOBS_JSON. The jobs file names bytecode.py, the archives (unpacked as the app's
// worker unpacks them, then started as it starts them, its first page shown) and the zips to compile: the
// standard library's and the archives, each {source, target}, paths on this machine. What that start imported
// is what is compiled (bytecode.py).
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [runtime, jobsPath] = process.argv.slice(2);
const jobs = JSON.parse(readFileSync(jobsPath, "utf8"));
const { loadPyodide } = await import(pathToFileURL(runtime + "/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: runtime + "/", fullStdLib: false, stdout: function () {}, stderr: function (line) { process.stderr.write(line + "\n"); } });
py.runPython(readFileSync(jobs.bytecode, "utf8"), { filename: "bytecode.py" });
const packages = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
jobs.archives.forEach(function (path) { py.unpackArchive(new Uint8Array(readFileSync(path)), "zip", { extractDir: packages }); });
await py.runPythonAsync([
  "import importlib; importlib.invalidate_caches()",
  "from ginscore.pocket import worker",
  "worker.start_pages()",
  "await worker.request('GET', '/', '', '', '')",
].join("\n"));
const imported = py.globals.get("started")();
const compileFile = py.globals.get("compile_file");
jobs.zips.forEach(function (job, index) {
  py.FS.writeFile("/tmp/source-" + index + ".zip", new Uint8Array(readFileSync(job.source)));
  compileFile("/tmp/source-" + index + ".zip", "/tmp/target-" + index + ".zip", imported);
  writeFileSync(job.target, py.FS.readFile("/tmp/target-" + index + ".zip"));
});
// The worker's start leaves Python's timers pending (the event loop would idle some eight seconds on them): the
// work is written, so end now.
process.exit(0);
