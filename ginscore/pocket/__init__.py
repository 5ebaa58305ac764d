"""`ginscore app`: the offline phone app, serve's own pages run by ginscore's own Python in the browser.

- `runtime` — the pinned Pyodide runtime: fetched through npm by name, its integrity checked, cached for the user.
- `build` — the app written as a static folder: the shell, the service worker, the runtime and the archives of
  ginscore and the pure-Python packages the worker imports, packed from what is installed.
- `icons` — the app's icons, drawn as PNG and SVG.
- `worker` — the Python the browser's worker runs: checks from the lean layers at once, then serve's app over
  an in-memory folder of the match files the browser keeps.
- `shell/` — the page's script, the worker's script, the service worker, the manifest.

This layer sits above `web` (it runs web's app) and beside `cli`, whose `app` command imports `build` inside it.
"""
