"""One sheet, several files: the kinds `show --export` writes, each built from the same `Sheet` as the terminal's."""

from __future__ import annotations

from ..match.tally import Sheet
from .html_page import sheet_page
from .svg_chart import sheet_svg
from .tables import to_csv, to_markdown

EXPORT_KINDS = ("svg", "html", "csv", "md")


def export_text(sheet: Sheet, kind: str) -> str:
    """The sheet as one of EXPORT_KINDS, all built from the same `Sheet` as the terminal's."""
    if kind == "html":
        return sheet_page(sheet)
    if kind == "svg":
        return sheet_svg(sheet)
    return to_csv(sheet) if kind == "csv" else to_markdown(sheet)


