"""A match's review, and a folder's, as `review --json` gives them."""

from __future__ import annotations

from .review import JUDGEMENTS, Choice, FolderReview, Review


def _choice_dict(choice: Choice | None) -> dict | None:
    if choice is None:
        return None
    return {
        "discard": str(choice.discard),
        "play": choice.play.replace(" ", "_"),
        "chance": choice.chance,
        "interval": None if choice.interval is None else list(choice.interval),
        "sampled": choice.sampled,
    }


def review_dict(found: Review, player: str | None = None) -> dict:
    """`review --json`: each hand (reviewed or why not), each player's sums, the thresholds, and `nothing`; with
    `player`, that player's knocks and sums alone."""
    return {
        "thresholds": {name: least for name, least in JUDGEMENTS},
        "nothing": found.nothing,
        "hands": [
            {
                "hand": hand.number,
                "knocker": hand.knocker,
                "reviewed": hand.reviewed,
                "reason": hand.reason,
                **({} if not hand.reviewed else {
                    "kind": hand.kind,
                    "deadwood": hand.deadwood,
                    "spread": hand.spread,
                    "scores": {"knocker": hand.scores[0], "opponent": hand.scores[1]},
                    "knocker_dealt": hand.dealt,
                    "seed": hand.seed,
                    "opponent_hands": hand.samples,
                    "exact": hand.exact,
                    "taken": _choice_dict(hand.taken),
                    "best": _choice_dict(hand.best),
                    "options": [_choice_dict(choice) for choice in hand.choices],
                    "lost": hand.lost,
                    "lost_interval": None if hand.lost_interval is None else list(hand.lost_interval),
                    "close": hand.close,
                    "judgement": hand.judgement,
                    "words": hand.words(),
                }),
            }
            for hand in found.hands if player in (None, hand.knocker)
        ],
        "players": [
            {
                "player": summary.player,
                "hands": summary.hands,
                "total_lost": summary.total,
                "mean_lost": summary.mean,
                "judgements": dict(summary.counts),
                "worst": None if summary.worst is None else {"hand": summary.worst.number, "words": summary.worst.words()},
            }
            for summary in found.players if player in (None, summary.player)
        ],
    }


def folder_dict(found: FolderReview) -> dict:
    """`review FOLDER --json`: each file's own review as `review --json` gives it, and each player's sums over the
    folder (`worst` naming its file)."""
    players = review_dict(Review((), found.players, None))["players"]
    for player in players:
        if player["worst"] is not None:
            player["worst"]["file"] = found.worst_files[player["player"]]
    return {
        "thresholds": {name: least for name, least in JUDGEMENTS},
        "files": [{"file": file, **review_dict(each)} for file, each in found.files],
        "players": players,
    }
