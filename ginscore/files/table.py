"""The table: the match files of one folder, as one value that every view asks.

Everything ginscore says about the table (the sheets of its matches, a pair's series, a match's chance to win
and the model behind it, the head-to-head figures) comes from a `Table`: `show`, `odds`,
the API, every page and the app ask it, and none reads the folder or joins these itself.

Which files belong, one rule for every reader:
- a name a match file may have here (`name_problem`): it ends in `.toml`, is not hidden (a leading dot), has no
  slash and no character that does not show;
- a regular file, links followed as the command line follows them (a link out of the folder too); a link that
  leads to no file, or round in a loop, is no file and is not listed;
- two names that are one name on a phone (equal under NFC and case folding): the first in sorted order counts,
  the other is listed as damaged, so no match is counted twice;
- a file that cannot be read is listed as damaged with its problem, and counts in no figure;
- two files of one match (equal ids, or by the rule for files without one, `match.merge.not_the_same`; or one file
  reached through two names, such as a link): one counts, the one whose hands include the other's (else the
  first by name), and the other is a copy of it (`Table.copies`), listed with the command that settles it
  (`ginscore merge COUNTED COPY`) and counted in no figure, so no game counts twice.

Each file is read once per version its storage gives (`Storage.version`; on the disk its size, times and inode
change with every write, since each write renames a new file into place): the table's cache in memory. A table a
command makes afresh (`table_at`) also has the cache on disk (`Layer`): what each file gives the series and the
chance (`match.gives`), by its content, and the folder's whole for one listing of its names and versions, so that
while no file changes it reads none but the match it shows; once the folder stands settled (`Storage.settled`),
it asks no other file its version either. What either holds is shared and read-only.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import GinscoreError, InputError, MatchFileError, RefusedError
from ..match.gives import MatchGives, match_gives
from ..match.series import Series, series_as_of
from .builtin_model import DEFAULT_PRIOR, model_from
from .copies import copies_given
from .disk import Disk
from .file_names import name_problem, phone_name, twin_problem, twins_among
from .table_io import Layer, Storage

if TYPE_CHECKING:
    from ..game.advise_game import GameState
    from ..game.rulebook import Rules
    from ..match.gives import TableGives
    from ..match.odds import MatchOdds, Model
    from ..match.records import Match
    from ..match.stats import PairStats
    from ..match.tally import Sheet
    from .reading import MatchFile


@dataclass(frozen=True)
class TableFile:
    """One match file of the table, as its version reads."""

    name: str
    version: str | None
    read: MatchFile | None
    """The file read, when it can be; None when it is damaged."""
    problem: MatchFileError | None
    """Why it cannot be used, with its place; None when it can."""
    digest: bytes = b""
    """A SHA-256 of the text read (its UTF-8 bytes, the file's own); empty when it could not be read."""
    gives: MatchGives | None = None
    """What its match gives the table (`gives.match_gives`); None when it is damaged."""

    def sheet(self) -> Sheet:
        """The file's sheet; its problem raised (a copy of its own: this one is shared) when it has none."""
        if self.read is None:
            problem = self.problem or MatchFileError("", ["cannot be read"])
            raise problem.named(problem.file)
        return self.read.sheet


class Table:
    """The match files of one folder and every figure drawn from them."""

    def __init__(self, folder: str, storage: Storage | None = None, layer: Layer | None = None):
        self.storage = storage or Disk(folder)
        self.layer = layer
        self.folder = os.path.abspath(folder)
        self._files: dict[str, tuple[str | None, str | None, TableFile]] = {}
        """Each file as read, by the version it was read at and the earlier name it shares on a phone."""
        self._lock = threading.Lock()

    # which files belong

    def names(self) -> list[str]:
        """The names of the table's files, sorted, the damaged ones too (each says why in `file`)."""
        return [name for name in self.storage.listed_files() if name_problem(name) is None]

    def _belongs(self, name: str) -> bool:
        return name_problem(name) is None and self.storage.is_file(name)

    def file(self, name: str, twinned: dict[str, str] | None = None) -> TableFile:
        """The file `name`, read once for each version of it. `twinned`, the table's `twins` when the caller has
        them for many files, saves finding them again for each."""
        if twinned is None:
            known = self._settled()[1]
            twinned = known[1] if known is not None else self._twins_of(name)
        return self._file(name, twinned.get(name))

    def _twins_of(self, name: str) -> dict[str, str]:
        """`twins` among the names that are `name` on a phone."""
        key = phone_name(name)
        return twins_among([other for other in self.storage.listed_files() if phone_name(other) == key and name_problem(other) is None])

    def twins(self) -> dict[str, str]:
        """Each of the table's names that is an earlier one's on a phone, with that name."""
        return twins_among(self.names())

    def files(self) -> list[TableFile]:
        """Every file of the table, the damaged ones too."""
        names = self.names()
        twinned = twins_among(names)
        self._forget_all_but(names)
        return [self._file(name, twinned.get(name)) for name in names]

    def _forget_all_but(self, names: list[str]) -> None:
        with self._lock:
            for gone in set(self._files) - set(names):  # a file removed or renamed is forgotten
                del self._files[gone]

    def _file(self, name: str, twin: str | None) -> TableFile:
        version = self.storage.version(name)
        with self._lock:
            known = self._files.get(name)
        if known is not None and version is not None and known[:2] == (version, twin):
            return known[2]
        made = self._read(name, version, twin)
        with self._lock:
            self._files[name] = (version, twin, made)
        return made

    def _read(self, name: str, version: str | None, twin: str | None) -> TableFile:
        from .reading import match_file

        path = self.storage.path(name)
        if twin is not None:
            return TableFile(name, version, None, twin_problem(path, twin))
        try:
            text = self.storage.text(name)
            read = match_file(path, text)
            return TableFile(name, version, read, None, hashlib.sha256(text.encode("utf-8")).digest(), match_gives(read.sheet))
        except MatchFileError as error:
            return TableFile(name, version, None, error)
        except RecursionError:
            return TableFile(name, version, None, MatchFileError(path, ["nested too deeply to read"]))

    def copies(self) -> dict[str, str]:
        """Each readable file that is a copy of another file's match, with the file that counts for it (see the
        module's words)."""
        return self._copies_of(self._gives_by_name())

    def _copies_of(self, given: dict[str, MatchGives]) -> dict[str, str]:
        """`copies` among the files that give `given` (`copies.copies_given`)."""
        def read(name: str) -> tuple[object, Match] | None:
            found = self._file(name, None).read
            return None if found is None else (self.storage.identity(name), found.match)

        return copies_given(given, read)

    def gives(self) -> tuple[tuple[str, MatchGives], ...]:
        """What each readable match of the table gives (`match.gives`), with its file's name, the first started
        first (`MatchGives.order`); a copy of another file's match is left out (`copies`)."""
        return self.counted()[0]

    def counted(self) -> tuple[tuple[tuple[str, MatchGives], ...], dict[str, str]]:
        """`gives` and `copies` from one reading of the table, for a view that shows both."""
        given = self._gives_by_name()
        copies = self._copies_of(given)
        return tuple(sorted(((name, gives) for name, gives in given.items() if name not in copies),
                            key=lambda named: named[1].order(named[0]))), copies

    def _gives_by_name(self) -> dict[str, MatchGives]:
        """What each readable file gives, by name: as the table holds it, else from the layer where it knows the
        file's version, else read (and the layer told)."""
        names = self.names()
        twinned = twins_among(names)
        self._forget_all_but(names)
        versions = {name: self.storage.version(name) for name in names if name not in twinned}
        with self._lock:
            held = {name: found[2].gives for name, found in self._files.items()
                    if found[2].gives is not None and found[:2] == (versions.get(name), None)}
        asked = {name: v for name, v in versions.items() if v is not None and name not in held}
        known = self.layer.known(self.folder, asked) if self.layer and asked else {}
        given: dict[str, MatchGives] = {}
        for name in versions:
            if name in held or name in known:
                given[name] = held.get(name) or known[name]
                continue
            found = self._file(name, None)
            if found.gives is None:
                continue
            given[name] = found.gives
            if self.layer is not None and found.version is not None:
                self.layer.remember(self.folder, name, found.version, found.digest, given[name])
        if self.layer is not None:
            self.layer.flush()
        return given

    def read_at(self, path: str) -> MatchFile:
        """The match file at `path`: through the table when it is one of its files, so that it is read once; else
        read as `show` reads any file. Problems raise `MatchFileError`, naming the file as `path` does."""
        name = os.path.basename(path)
        if os.path.dirname(os.path.abspath(path)) == self.folder and self._belongs(name):
            found = self.file(name)
            if found.read is None:
                problem = found.problem or MatchFileError(path, ["cannot be read"])
                raise problem.named(path)
            return found.read
        from .reading import load_file

        return load_file(path)

    def sheet_at(self, path: str) -> Sheet:
        """The sheet of the match file at `path` (`read_at`)."""
        return self.read_at(path).sheet

    # what the table knows

    def sheets(self) -> tuple[Sheet, ...]:
        """Every readable match's sheet, the first started first; within a second, the first played first (a
        match with no hand yet last), then by name."""
        return tuple(sheet for _, sheet in self.named_sheets())

    def named_sheets(self) -> tuple[tuple[str, Sheet], ...]:
        """`sheets()`, each with its file's name; a copy of another file's match is left out (`copies`)."""
        files = [self._file(name, None) for name, _ in self.gives()]
        return tuple((found.name, found.read.sheet) for found in files if found.read is not None)

    def table_gives(self) -> TableGives:
        """What the table's matches give, as the series and the chance ask it (`gives.TableGives`); with a layer,
        kept whole for the folder's listing (each name and version), so that while no file changes no other file
        is read, nor a row for each."""
        from ..match.gives import TableGives

        if self.layer is None:
            return TableGives.of(gives for _, gives in self.gives())
        return self.layer.table_gives(self.folder, self._listing()) or self._table_gives_afresh()

    def _table_gives_afresh(self) -> TableGives:
        """`table_gives` made from what each file gives, and kept by the layer for the listing it was made at."""
        from ..match.gives import TableGives

        listing = self._listing() if self.layer is not None else b""
        found = TableGives.of(gives for _, gives in self.gives())
        if self.layer is not None:
            self.layer.remember_table(self.folder, listing, found)
            self.layer.flush()
        return found

    def _listing(self) -> bytes:
        """A digest of the table's names and their versions: it changes whenever a file comes, goes or changes."""
        return self._listing_and_twins()[0]

    def _listing_and_twins(self) -> tuple[bytes, dict[str, str]]:
        """`_listing`, and the table's `twins`. While the folder stands settled (`Storage.settled`), the layer's, so
        that no file is asked its version: a file rewritten in place by another program is then seen at the folder's
        next change."""
        settled, known = self._settled()
        if known is not None:
            return known
        names = self.names()
        version = self.storage.version
        listed = "".join(f"{name}\0{version(name) or ''}\0" for name in names)
        found = hashlib.sha256(listed.encode("utf-8", "surrogateescape")).digest(), twins_among(names)
        if self.layer is not None and settled is not None:
            self.layer.remember_settled(self.folder, settled, *found)
        return found

    def _settled(self) -> tuple[str | None, tuple[bytes, dict[str, str]] | None]:
        """The folder's settled text (`Storage.settled`; None without a layer, or while the folder is not settled),
        and the layer's `_listing_and_twins` kept for it, when it has them."""
        settled = self.storage.settled() if self.layer is not None else None
        if self.layer is None or settled is None:
            return None, None
        return settled, self.layer.settled_listing(self.folder, settled)

    def series(self, sheet: Sheet, given: TableGives | None = None) -> Series:
        """The series of `sheet`'s players as that match stands in it, over the table's matches (`given`, when the
        caller has them)."""
        pair = (given or self.table_gives()).pair(sheet.match.players)
        if pair is None:  # the layer's record of them is damaged (or of an older shape): made again, and kept again
            pair = self._table_gives_afresh().pair(sheet.match.players) or ()
        return series_as_of(match_gives(sheet), pair)

    def model(self, rules: Rules, prior: int = DEFAULT_PRIOR, given: TableGives | None = None) -> Model:
        """The model a chance under `rules` is solved from: the table's hands by those rules (of `given`, when the
        caller has them), and the built-in ones weighed as `prior` hands."""
        return model_from(rules, given or self.table_gives(), prior)

    def odds(self, sheet: Sheet, prior: int = DEFAULT_PRIOR, given: TableGives | None = None) -> MatchOdds:
        """The sheet's chances; refused where a game in play is beyond what is solved."""
        from ..game.odds import MAX_SPAN, MAX_TARGET
        from ..match.odds import MatchOdds, game_chances

        if not solvable(sheet):
            raise RefusedError(
                f"the chance is solved for targets up to {MAX_TARGET}, at most {MAX_SPAN} points from the lower score, "
                f"and this game is to {sheet.match.rules.target}",
                field="target",
            )
        model = self.model(sheet.match.rules, prior, given)
        return MatchOdds(sheet, game_chances(sheet, model.outcomes), model)

    def beside(self, sheet: Sheet, *, finished_odds: bool = True) -> tuple[MatchOdds | None, Series]:
        """What a view shows beside the sheet, from one reading of the table: its chances (None where they are not
        solved, or for a finished match unless `finished_odds`) and its players' series."""
        given = self.table_gives()
        shown = solvable(sheet) and (finished_odds or not sheet.finished)
        return (self.odds(sheet, DEFAULT_PRIOR, given) if shown else None), self.series(sheet, given)

    def show(self, sheet: Sheet) -> dict[str, Any]:
        """The `show --json` object: the sheet, under `odds` its chances as `odds --json`, and under `series` the
        players' series."""
        from ..match.tally import sheet_dict

        data = sheet_dict(sheet)
        odds, series = self.beside(sheet)
        data["odds"] = None if odds is None else odds.as_dict()
        data["series"] = series.as_json()
        return data

    def pairs(self) -> list[PairStats]:
        """Every pair's head-to-head figures over the table's matches."""
        from ..match.stats import collect

        return collect(self.sheets())

    def advice_state(self, sheet: Sheet, player: str, prior: int = DEFAULT_PRIOR) -> tuple[Rules, GameState, Model]:
        """What `advise --match` weighs: the match's rules, the game in play from `player`'s side (the scores,
        whether they dealt this hand), and the table's model."""
        from ..game.advise_game import GameState

        found = self.odds(sheet, prior)
        if sheet.finished:
            raise RefusedError("the match is over: there is no game left to play for", field="match")
        try:
            me = sheet.match.player(player)
        except GinscoreError as error:
            raise error.about("player") from None
        now, rules = found.now, sheet.match.rules
        other = sheet.match.other(me)
        state = GameState(now.scores[me], now.scores[other], sheet.next_dealer == me, rules.target, rules.next_dealer)
        return rules, state, found.model


def match_odds(path: str, history: str | None = None, prior: int = DEFAULT_PRIOR) -> MatchOdds:
    """The chances of the match in a file, the table's history read from the folder `history` (by default the
    file's own)."""
    from .reading import load

    if history is None:
        table = table_of(path)
        return table.odds(table.sheet_at(path), prior)
    _, sheet = load(path)
    return table_at(history).odds(sheet, prior)


def advice_state(path: str, player: str, prior: int = DEFAULT_PRIOR) -> tuple[Rules, GameState, Model]:
    """`Table.advice_state` for the match file at `path`, over its folder's table."""
    table = table_of(path)
    return table.advice_state(table.sheet_at(path), player, prior)


def solvable(sheet: Sheet) -> bool:
    """Whether every game in play is within what the chance is solved for."""
    from ..game.odds import solvable as within

    target = sheet.match.rules.target
    return all(game.finished or within(target, tuple(game.totals.values())) for game in sheet.games)  # type: ignore[arg-type]


def named_paths(paths: list[str]) -> list[str | MatchFileError]:
    """The match files `paths` name, in order, each path once: a file as named; a folder's by the table's rule, as
    every page counts them (`Table.names`: its own files, not those below it, no hidden one), a name that is an
    earlier one's on a phone standing as its problem."""
    found: list[str | MatchFileError] = []
    for path in paths:
        if not os.path.isdir(path):
            found.append(path)
            continue
        table = Table(path)
        twinned = table.twins()
        for name in table.names():
            at = os.path.join(path, name)
            found.append(at if name not in twinned else twin_problem(at, twinned[name]))
    seen: set[str] = set()
    unique: list[str | MatchFileError] = []
    for entry in found:  # a path named twice is read once; a file under two names is a copy (`copies.path_copies`)
        place = os.path.abspath(entry) if isinstance(entry, str) else None
        if place is None or place not in seen:
            seen.add(place or "")
            unique.append(entry)
    return unique


def table_of(path: str) -> Table:
    """The table of the match file at `path`: the match files of its folder. A file in no folder is refused as
    reading it refuses it (`no such file`), not as a folder named for `--history`."""
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        from .reading import load_file

        load_file(path)
    return table_at(folder)


def file_at(path: str) -> MatchFile:
    """The match file at `path`, read through its folder's table (`Table.read_at`) for a command that reads that
    file alone: no cache on disk, whose rows are for the whole folder."""
    return Table(os.path.dirname(path) or ".").read_at(path)


def table_at(folder: str) -> Table:
    """The table of a folder, refused with the field `history` when it is not one; what its files give is kept
    across commands in the user's cache (`stats_cache`), so a command reads again only the files that changed."""
    from .stats_cache import StatsCache, cache_folder

    if not os.path.isdir(folder):
        raise InputError(f"{folder!r} is not a folder: give the folder of this table's match files", field="history")
    return Table(folder, layer=StatsCache(cache_folder()))
