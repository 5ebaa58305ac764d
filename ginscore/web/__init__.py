"""`ginscore serve`: the match files of one folder as a small web app, for the phones at the table.

- `fields` — a request's fields read from JSON values or form strings alike, with the command line's words.
- `service` — what the app does to one folder, with no web framework in it: list, show, start, record,
  preview, edit, undo and export, each raising only ginscore's errors.
- `hands` — one hand judged without a match file: check and advise.
- `security` — the token, the Host and Origin checks, CSRF, the body cap and the headers, as one middleware.
- `api` — the JSON API under `/api` (docs/serve.md).
- `pages` — the HTML pages' routes, templates in `templates/`, static files in `static/`; the pages themselves
  are `match_pages`, `hand_pages` and `check_pages`, with `picker` (the card picker) and `page_helpers`.
- `app` — `create_app(folder, token, hosts)`: the pieces put together.
- `server` — start-up: the address, the token, the printed URL and QR code, uvicorn, a clean Ctrl-C.

Nothing here imports `cli` or `render`: the web layer sits beside the terminal, never on it.
"""
