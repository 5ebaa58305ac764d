"""Run by test_app_node.py twice, under CPython here and under the pinned Pyodide in Node: what the app's worker
computes, from importing every pure module to a match recorded through serve's app. Both must print the same."""

import importlib
import json
import pkgutil
import sys

from ginscore.pocket import worker

KNOCKER, OPPONENT = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d", "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"


async def probe(folder: str) -> str:
    imported = []
    for part in ("game", "match", "files", "sheets"):
        package = importlib.import_module(f"ginscore.{part}")
        for info in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"ginscore.{part}.{info.name}")
            imported.append(f"{part}.{info.name}")
    worker.FOLDER = folder
    worker.start_pages()
    asked = [
        ("POST", "/api/matches", {"file": "n.toml", "players": ["Ann", "Bob"]}),
        ("POST", "/api/matches/n.toml/hands", {"knocker": "Ann", "cards": KNOCKER, "opponent_cards": OPPONENT}),
        ("POST", "/api/matches/n.toml/hands", {"knocker": "Bob", "deadwood": 0, "opponent_deadwood": 31}),
        ("GET", "/api/matches/n.toml", None),
    ]
    statuses, shown = [], {}
    for method, path, fields in asked:
        answer = await worker.request(method, path, "", json.dumps(fields) if fields else "", "application/json" if fields else "")
        statuses.append(answer["status"])
        shown = json.loads(bytes(answer["body"]))
    return json.dumps({
        "python": list(sys.version_info[:2]),
        "imported": imported,
        "check": json.loads(worker.check_json(KNOCKER)),
        "statuses": statuses,
        "totals": shown["totals"],
        "points": [hand.get("points") for hand in shown["hands"]],
        "page": (await worker.request("GET", "/m/n.toml", "", "", ""))["status"],
    }, sort_keys=True)
