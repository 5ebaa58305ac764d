"""What a person sees: Rich text for the terminal, plain text when piped. The only package that imports rich.

One module a screen: `hand` (check and score), `rules`, `sheet` (record, edit) with `sheet_lines` (show) and
`sheet_table`, `chart`, `stats`; `console` holds the rich pieces they share, `lines` the plain ones. A piped `show`
builds its lines and writes them without rich's console (`lines`), so this package imports nothing itself.
"""
