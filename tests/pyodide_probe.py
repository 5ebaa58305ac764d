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
    worker.FOLDER, worker.OPENING = folder, folder + "-opening"
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
    first = json.loads(worker.changes())
    crlf = first["texts"]["n.toml"].replace("\n", "\r\n")
    held = json.loads(worker.hold(json.dumps({
        "keys": ["n.toml", "c.toml", "num.toml", "sub/x.toml", "p.toml"], "generations": {"c.toml": 1}, "texts": {"c.toml": crlf},
        "others": {"num.toml": "a number"}, "summaries": {"p.toml": {"name": "p.toml", "players": "Ann"}}, "next": {}})))
    recorded = await worker.request("POST", "/api/matches/c.toml/hands", "", json.dumps({"knocker": "Bob", "deadwood": 1, "opponent_deadwood": 9}),
                                    "application/json")
    after = json.loads(worker.changes())
    polled = (await worker.request("GET", "/m/c.toml/version", "", "", ""))["status"]
    polled_changes = json.loads(worker.changes())["texts"]
    page = (await worker.request("GET", "/m/n.toml", "", "", ""))["status"]
    # n.toml's record turns into something that is not a text (another build, devtools): set aside, and no later
    # change writes its old text back over it
    worker.hold(json.dumps({"keys": None, "generations": {}, "texts": {}, "others": {"n.toml": "an object"}, "summaries": None, "next": {}}))
    await worker.request("POST", "/api/matches/c.toml/hands", "", json.dumps({"knocker": "Bob", "deadwood": 2, "opponent_deadwood": 9}),
                         "application/json")
    set_aside = json.loads(worker.changes())["texts"]
    damaged = json.loads(worker.opened("damaged.toml", b'[match]\nplayers = ["Ann", "Bob"]\nfirst_dealer "Ann"\n', ""))
    return json.dumps({
        "first_changes": sorted(first["texts"]),
        "held": held,
        "recorded": recorded["status"],
        "crlf_changes": sorted(after["texts"]),
        "crlf_kept": after["texts"]["c.toml"].startswith(crlf) and after["texts"]["c.toml"].count("\n") == after["texts"]["c.toml"].count("\r\n"),
        "summary_players": after["summaries"]["c.toml"]["players"],
        "poll": [polled, polled_changes],
        "set_aside_changes": sorted(set_aside),
        "python": list(sys.version_info[:2]),
        "imported": imported,
        "check": json.loads(worker.check_json(KNOCKER)),
        "lean_check": worker.check(KNOCKER),  # the check page's answer, its HTML
        "damaged_open": damaged["error"],
        "statuses": statuses,
        "totals": shown["totals"],
        "points": [hand["derived"]["points"] for hand in shown["hands"]],
        "page": page,
    }, sort_keys=True)
