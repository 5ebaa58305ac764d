// Run by `ginscore app` (ahead.py) in Node: the build's Python archives compiled by the pinned runtime itself.
// node ahead.mjs RUNTIME_DIR JOBS_JSON, where the jobs file lists {source, target, keep_sources} (paths on this
// machine) and the path of bytecode.py, which compiles each zip inside the runtime.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [runtime, jobsPath] = process.argv.slice(2);
const jobs = JSON.parse(readFileSync(jobsPath, "utf8"));
const { loadPyodide } = await import(pathToFileURL(runtime + "/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: runtime + "/", fullStdLib: false, stdout: function () {}, stderr: function (line) { process.stderr.write(line + "\n"); } });
py.runPython(readFileSync(jobs.bytecode, "utf8"), { filename: "bytecode.py" });
const compileFile = py.globals.get("compile_file");
jobs.zips.forEach(function (job, index) {
  py.FS.writeFile("/tmp/source-" + index + ".zip", new Uint8Array(readFileSync(job.source)));
  compileFile("/tmp/source-" + index + ".zip", "/tmp/target-" + index + ".zip", job.keep_sources);
  writeFileSync(job.target, py.FS.readFile("/tmp/target-" + index + ".zip"));
});
