// ESLint's flat config for ginscore's JavaScript: the app's shell (ES modules in a page, a worker and a service
// worker), serve's static scripts (classic scripts, and the module they share with the app), and what runs in
// Node: the build's compile step and the JavaScript tests.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "**/pyodide/", ".venv*/", "build/"] },
  js.configs.recommended,
  {
    files: ["ginscore/pocket/shell/**/*.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser, ...globals.worker, ...globals.serviceworker } },
  },
  {
    files: ["ginscore/pocket/shell/sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker, __BUILD__: "readonly" } },
  },
  {
    files: ["ginscore/web/static/**/*.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.browser } },
  },
  {
    // what serve's pages.js and the app's shell share: an ES module, imported by both
    files: ["ginscore/web/static/common.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js", "ginscore/pocket/ahead.mjs"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
  { rules: { "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }] } },
];
