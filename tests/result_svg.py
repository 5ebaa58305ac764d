"""A reader of the result card's SVG for the tests: its texts by what they are, parsed as XML (a card that is not
well-formed XML fails here)."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass

SVG = "{http://www.w3.org/2000/svg}"


@dataclass
class CardText:
    """What a result card says."""

    width: int
    height: int
    title: str
    headline: str
    players: list[tuple[str, str, str, str]]
    """Each player's name, final total, the words under it and whether the card marks them the winner."""
    caption: str
    columns: list[str]
    rows: dict[str, list[str]]
    """Each line of the final totals by its label: one figure a player."""
    notes: list[str]
    series: str
    lowest_text: float
    """The largest y of any text: it must lie inside the card."""


def read_card(svg: str) -> CardText:
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg"

    def texts(css: str, within: ElementTree.Element = root) -> list[str]:
        return [element.text or "" for element in within.iter(f"{SVG}text") if element.get("class") == css]

    players = []
    for group in root.iter(f"{SVG}g"):
        if group.get("class") == "player":
            players.append((*texts("name", group), *texts("total", group), *texts("under", group), group.get("data-winner", "")))
    rows = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class") == "row":
            (label,) = texts("label", group)
            rows[label] = texts("cell", group)
    return CardText(
        width=int(root.get("width", "0")), height=int(root.get("height", "0")), title=" ".join(texts("title")),
        headline=" ".join(texts("headline")), players=players, caption=" ".join(texts("caption")), columns=texts("column"),
        rows=rows, notes=texts("note"), series=" ".join(texts("series")),
        lowest_text=max(float(element.get("y", "0")) for element in root.iter(f"{SVG}text")),
    )
