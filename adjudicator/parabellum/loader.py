"""Reading a Para Bellum game's data folder, one layout and one reader for both games: every file validated by its
schema (adjudicator/parabellum/data.py, each game's extensions of it), then by its own whole-file `checks()`, then
the cross-file checks both books share, then the game's own (`DataFolder.scenario_problems`); every problem
collected with the file's name (relative to the data folder) and the JSON path, never only the first.

The layout (docs/rulesets/parabellum.md "Data folder"), the same for both games:

    interpretations.json, and a game's own files (Arrivano's options.json)
    tables/crt.json, bombardment.json, terrain.json, orders.json, movement.json, rules.json (the values the whole
        book gives), and a game's own tables
    <scenario>/scenario.json, oob.json, map.json; weather.json where the scenario has weather, with the movement
        tables its boxes name (paths inside the data folder)

A game's folder is a `DataFolder`: the shipped one read once, and a user's own folder (`arbitro new caldiero|arrivano
SCENARIO --data DIR`), which a game carries as its files' texts and which is read the same way, built once per
process and content hash. Maps and movement tables are read by the shared map kit (adjudicator/maps/hexmap.py,
costs.py)."""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TypeVar

from arbitro.adjudicator.datafiles import DataError, DataProblem, Names, OwnData, named, read_json, read_text, validated
from arbitro.adjudicator.errors import BadInput
from arbitro.adjudicator.maps.costs import MovementTable, RoadRule, load_movement_table
from arbitro.adjudicator.maps.hexmap import HexMap, load_map
from arbitro.adjudicator.parabellum.data import (FORMATION, HEX, LEADER, PLACE, SIDE, UNIT, BombardmentTable,
                                                  CombatTable, FormationData, LeaderData, Marker, OrderOfBattle,
                                                  OrdersTable, ScenarioFile, TerrainTable, UnitData, fits_stacking)
from arbitro.adjudicator.parabellum.book_rules import BookRules
from arbitro.adjudicator.parabellum.readings import InterpretationsFile
from arbitro.adjudicator.parabellum.weather_track import WeatherTrack
from arbitro.adjudicator.ruleset import data_digest
from pydantic import BaseModel

_M = TypeVar("_M", bound=BaseModel)
_T = TypeVar("_T")

TABLES: dict[str, type[BaseModel]] = {"crt": CombatTable, "bombardment": BombardmentTable, "terrain": TerrainTable,
                                      "orders": OrdersTable, "rules": BookRules}  # tables/<name>.json, in both games
SCENARIO_FILES = ("scenario.json", "oob.json", "map.json", "weather.json")  # a scenario folder's (weather: if any)


@dataclass(frozen=True)
class Tables:
    """A game's tables/ folder: the tables every scenario of the game reads, the rule values its whole book gives
    (`rules`, a game's schema its own: Arrivano's ArrivanoRules), and the game's own (`own`, by name: Arrivano's
    infantry_fire)."""

    crt: CombatTable
    bombardment: BombardmentTable
    terrain: TerrainTable
    orders: OrdersTable
    rules: BookRules
    own: Mapping[str, BaseModel]


@dataclass(frozen=True)
class ScenarioData:
    """Everything a game of one scenario folder is played on (parabellum/world.World reads it): its scenario file, order
    of battle, map, weather track (None: the scenario has none), the movement costs by weather box (0: no weather),
    the game's tables and readings, the content hash of the files read (what caches of its answers are keyed by) and
    what those files mark as a reconstruction. Its counters are found by id through its order of battle."""

    name: str
    scenario: ScenarioFile
    oob: OrderOfBattle
    map: HexMap
    weather: WeatherTrack | None
    movement: dict[int, MovementTable]
    tables: Tables
    interpretations: InterpretationsFile
    digest: str
    provisional: tuple[Marker, ...]

    @property
    def terrain(self) -> TerrainTable:
        return self.tables.terrain

    @property
    def orders(self) -> OrdersTable:
        return self.tables.orders

    @property
    def crt(self) -> CombatTable:
        return self.tables.crt

    @property
    def bombardment(self) -> BombardmentTable:
        return self.tables.bombardment

    def unit(self, unit_id: str) -> UnitData:
        return self.oob.unit(unit_id)

    def leader(self, leader_id: str) -> LeaderData:
        return self.oob.leader(leader_id)

    def formation(self, formation_id: str) -> FormationData:
        return self.oob.formation(formation_id)

    def commander_movement(self, leader_id: str) -> int:
        """D31: a commander's movement points, his counter's (caldiero §2.2.1), else the scenario's for every
        commander (arrivano §9.1.4 with §17.1.2, §17.2.2); one of them is given (`placement_problems`)."""
        printed = self.leader(leader_id).movement
        return printed if printed is not None else self.scenario.commander_movement or 0

    def commander_movement_cited(self, leader_id: str) -> str:
        """The scenario's rule giving a commander's movement points (`ScenarioFile.commander_movement_rule`: arrivano
        §17.1.2 "tutti i comandanti hanno sei punti movimento e non otto", §17.2.2), cited where his allowance refuses a
        move; "" where his counter prints them (caldiero §2.2.1), which §9.1.4, cited anyway, covers."""
        return "" if self.leader(leader_id).movement is not None else self.scenario.commander_movement_rule


@dataclass(frozen=True)
class GameData:
    """A game's whole data folder: its tables, readings, own files (by name: Arrivano's options) and scenarios (by
    folder)."""

    tables: Tables
    interpretations: InterpretationsFile
    own: Mapping[str, BaseModel]
    scenarios: dict[str, ScenarioData]


class DataFolder:
    """A game's data folder, read as the module's docstring says: `load` reads a folder (the shipped one unless
    given), `shipped` the shipped folder once a process, `files` every data file in it, hashed into each game so that
    verification detects changed data. A user's own folder is `read_folder`'s files (path in the folder -> text, as
    a game's genesis carries them) and `own` their data, built from the texts once per process and content hash.
    What a game adds: its scenario folders, its scenario and weather schemas, its own tables and files, the unit classes its rules price
    every move with (`priced`), and its own cross-file checks (`scenario_problems`)."""

    def __init__(self, folder: Path, name: str, scenarios: Sequence[str], scenario: type[ScenarioFile],
                 weather: type[WeatherTrack], tables: Mapping[str, type[BaseModel]] | None = None,
                 files: Mapping[str, type[BaseModel]] | None = None, priced: Sequence[str] = ()) -> None:
        self.folder, self.scenarios, self.priced = folder, tuple(scenarios), tuple(priced)
        self.scenario_file, self.weather_file = scenario, weather
        self.tables, self.own_files = {**TABLES, **(tables or {})}, dict(files or {})
        self._shipped: GameData | None = None
        self.own: OwnData[GameData] = OwnData(name, self.from_files, self.shipped)

    def scenario_problems(self, s: ScenarioData) -> list[DataProblem]:
        """What only this game's book asks its scenario files to agree on (none by default)."""
        return []

    def moved(self, data_dir: Path) -> list[DataProblem]:
        """The files of a folder in a layout the game's data once had, each named with where it goes now (none by
        default: the layout never changed)."""
        return []

    def read(self, data_dir: Path) -> GameData:
        """Every data file of the folder, checked; raises DataError listing the problems of every file at once (a
        folder in the old layout: each file to move, and each file it lacks wherever it stood)."""
        moved = self.moved(data_dir)
        try:
            data = self._read(data_dir)
        except DataError as e:
            if not moved:
                raise
            at_root = {p.file for p in moved}
            raise DataError([*moved, *(p for p in e.problems if not (p.problem == "file not found"
                                                                       and Path(p.file).name in at_root))]) from None
        if moved:
            raise DataError(moved)
        return data

    def _read(self, data_dir: Path) -> GameData:
        problems: list[DataProblem] = []
        parts = {name: load_model(data_dir / "tables" / f"{name}.json", model, data_dir, problems)
                 for name, model in self.tables.items()}
        own = {name: load_model(data_dir / f"{name}.json", model, data_dir, problems)
               for name, model in {"interpretations": InterpretationsFile, **self.own_files}.items()}
        interpretations = own.pop("interpretations")
        tables = None
        if None not in parts.values():
            tables = Tables(**{k: parts.pop(k) for k in TABLES}, own=parts)  # type: ignore[arg-type]
        scenarios = {f: self._scenario(data_dir / f, data_dir, tables, interpretations, problems) for f in self.scenarios}
        if problems or tables is None or interpretations is None or None in own.values():
            raise DataError(dict.fromkeys(problems))  # a table every scenario reads is named once
        return GameData(tables=tables, interpretations=interpretations, own=own,  # type: ignore[arg-type]
                        scenarios={k: v for k, v in scenarios.items() if v is not None})

    def _scenario(self, folder: Path, data_dir: Path, tables: Tables | None, interpretations: BaseModel | None,
                  problems: list[DataProblem]) -> ScenarioData | None:
        """One scenario folder, checked with the tables (when they could be read), or None with its problems added."""
        name = folder.name
        spec = load_model(folder / "scenario.json", self.scenario_file, data_dir, problems)
        oob = load_model(folder / "oob.json", OrderOfBattle, data_dir, problems)
        hexmap = attempt(problems, lambda: load_map(folder / "map.json", source=f"{name}/map.json"))
        has_weather = spec is not None and spec.weather
        weather = load_model(folder / "weather.json", self.weather_file, data_dir, problems) if has_weather else None
        movement = {} if has_weather and weather is None else load_movement_by_box(
            data_dir / "tables" / "movement.json", weather, hexmap, data_dir, problems, self.priced,
            f"{name}/weather.json")
        if spec is None or oob is None or hexmap is None or (spec.weather and weather is None):
            return None
        problems += check_counters(f"{name}/oob.json", oob, spec.seats)
        problems += unknown_names(f"{name}/scenario.json", spec, spec.seats, oob, hexmap, f"{name}/map.json")
        problems += unknown_names(f"{name}/oob.json", oob, spec.seats, oob, hexmap, f"{name}/map.json")
        problems += placement_problems(f"{name}/oob.json", oob, spec, hexmap, f"{name}/map.json",
                                       tables.terrain if tables is not None else None, "tables/terrain.json")
        if tables is None or not isinstance(interpretations, InterpretationsFile):
            return None
        boxes = [data_dir / b.movement_table for b in weather.boxes if b.movement_table] if weather is not None else []
        read = [folder / f for f in SCENARIO_FILES] + [data_dir / "tables" / "movement.json", *boxes]
        read += [data_dir / "tables" / f"{t}.json" for t in self.tables] + [data_dir / f"{f}.json" for f in ("interpretations", *self.own_files)]
        s = ScenarioData(name=name, scenario=spec, oob=oob, map=hexmap, weather=weather, movement=movement,
                         tables=tables, interpretations=interpretations, digest=files_digest(read, data_dir),
                         provisional=provisional_markers(decoded(read, data_dir)))
        found = self.scenario_problems(s)
        problems += found
        return None if found else s

    def load(self, data_dir: Path | None = None) -> GameData:
        return self.read(self.folder if data_dir is None else data_dir)

    def shipped(self) -> GameData:
        if self._shipped is None:
            self._shipped = self.load()
        return self._shipped

    def files(self) -> list[Path]:
        return sorted(p for p in self.folder.rglob("*.json") if p.is_file())

    def read_folder(self, folder: Path) -> dict[str, str]:
        """A user's data folder as a game carries it: every JSON file in it (its path inside the folder, / separated
        -> its text), checked as the shipped folder is, every problem of every file at once (DataError: the files
        that are no UTF-8 text with every problem of the others; a file missing from the folder is one: copy the
        shipped folder whole, then edit it)."""
        if not folder.is_dir():
            raise BadInput(f"--data {folder}: no such folder (copy {self.folder} and edit the copy)")
        files, unreadable = texts(folder)
        problems = list(unreadable)
        try:
            self.from_files(files)
        except DataError as e:  # an unreadable file is also missing from `files`: named once, as unreadable
            named = {p.file for p in unreadable}
            problems += [p for p in e.problems if p.file not in named]
        if problems:
            raise DataError(problems)
        return files

    def shipped_files(self) -> dict[str, str]:
        """The shipped folder's files as a game would carry them (what a position's overrides start from)."""
        files, unreadable = texts(self.folder)
        if unreadable:
            raise DataError(unreadable)
        return files

    def from_files(self, files: Mapping[str, str]) -> GameData:
        """The data of a folder given as its files' texts (a game's genesis carries them): written to a private
        temporary folder and read as any folder is, so that a carried folder is checked exactly as the user's
        folder was. A name that would leave the folder, or that no folder can hold, is refused before anything is
        written, every such name at once; a text the file system cannot take is refused naming its file."""
        bad = name_problems(files)
        if bad:
            raise DataError(bad)
        with tempfile.TemporaryDirectory(prefix="arbitro-data-") as tmp:
            root = Path(tmp)
            for name, text in sorted(files.items()):
                path = root / name
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(text, encoding="utf-8")
                except (OSError, UnicodeError) as e:
                    bad.append(DataProblem(name, "$", f"cannot be written as a UTF-8 file: {e}"))
            if bad:
                raise DataError(bad)
            return self.read(root)


def texts(folder: Path) -> tuple[dict[str, str], list[DataProblem]]:
    """Every JSON file of `folder` (its path inside it, / separated -> its text), and a problem for each file that is
    no UTF-8 text (left out of the texts)."""
    files: dict[str, str] = {}
    unreadable: list[DataProblem] = []
    for path in sorted(p for p in folder.rglob("*.json") if p.is_file()):
        name = label(path, folder)
        try:
            files[name] = read_text(path, name)
        except DataError as e:
            unreadable.extend(e.problems)
    return files, unreadable


NAME_PART_BYTES = 255  # the longest file or folder name common file systems hold (ext4, APFS, NTFS)


def name_problems(files: Mapping[str, str]) -> list[DataProblem]:
    """Every carried file name that is not a JSON file's path inside a folder, has a part no file system holds, or
    is also a folder of another name ('oob.json' and 'oob.json/x.json')."""
    problems: list[DataProblem] = []
    folders = {"/".join(name.split("/")[:i]) for name in files for i in range(1, name.count("/") + 1)}
    for name in sorted(files):
        if not _inside(name):
            problems.append(DataProblem(name, "$", "not a JSON file's path inside a data folder (relative, / "
                                                   "separated, no '..', ending .json)"))
        elif not name.isprintable():  # a control character, a lone surrogate (no UTF-8 text)
            problems.append(DataProblem(name, "$", "the name is not printable text"))
        elif any(len(part.encode("utf-8")) > NAME_PART_BYTES for part in name.split("/")):
            problems.append(DataProblem(name, "$", f"a part of the name is over {NAME_PART_BYTES} bytes"))
        elif name in folders:
            problems.append(DataProblem(name, "$", "is both a file and the folder of another file"))
    return problems


def _inside(name: str) -> bool:
    """`name` is a relative path to a JSON file inside a folder: no root, no drive, no '..', no backslash."""
    path = PurePosixPath(name)
    return (bool(name) and "\\" not in name and "\0" not in name and not path.is_absolute()
            and all(part not in ("", ".", "..") for part in name.split("/")) and path.suffix == ".json")


def label(path: Path, data_dir: Path) -> str:
    """How problems name a file: its path inside the data folder (`montebello/oob.json`, `crt.json`)."""
    try:
        return path.relative_to(data_dir).as_posix()
    except ValueError:
        return str(path)


def files_digest(paths: Sequence[Path], data_dir: Path) -> str:
    """The content hash of the files something loaded was built from (each named as problems name it): what a cache
    of answers worked out from those data is keyed by, so that two loads that differ in content never share an
    answer, whatever their scenario's name (issue 19 point 15)."""
    return data_digest(sorted((label(p, data_dir), p.read_bytes()) for p in set(paths) if p.is_file()))


def load_model(path: Path, model: type[_M], data_dir: Path, problems: list[DataProblem]) -> _M | None:
    """One file as `model`, or None with every problem of the file added to `problems`."""
    name = label(path, data_dir)
    loaded = attempt(problems, lambda: validated(model, read_json(path, name), name))
    if loaded is None:
        return None
    # Whole-file checks with their own JSON paths (pydantic's model validators only report "$").
    checks = getattr(loaded, "checks", None)
    found = checks() if checks is not None else []
    problems.extend(DataProblem(name, where, message) for where, message in found)
    return None if found else loaded


def attempt(problems: list[DataProblem], load: Callable[[], _T]) -> _T | None:
    """`load()`, or None with the problems of its DataError added (a file's, so that the others are read on)."""
    try:
        return load()
    except DataError as e:
        problems.extend(e.problems)
        return None


def load_movement_by_box(base: Path | None, weather: WeatherTrack | None, hexmap: HexMap | None, data_dir: Path,
                         problems: list[DataProblem], priced: Sequence[str] = (),
                         weather_source: str = "weather.json") -> dict[int, MovementTable]:
    """The movement costs in force in each weather box (caldiero §17.1.2-§17.1.3, arrivano §17.2.8), one shape for
    both games: a box's own table (its `movement_table`, a file of the data folder), else the game's `base` table,
    its `scaled_roads` weighed by the weather too; without a weather track, `base` as box 0. A table that does not
    load is left out, its problems added; so is one that does not declare every unit class in `priced` (the classes
    the game's rules price moves with), which would load and then fail at the first move."""
    own = {b.box: b.movement_table for b in weather.boxes} if weather is not None else {0: None}
    named = _box_tables(weather, data_dir, weather_source, problems)
    paths = {box: named.get(box) if name else base for box, name in own.items()}
    tables = {path: attempt(problems, lambda: load_movement_table(path, hexmap=hexmap, source=label(path, data_dir)))
              for path in sorted({p for p in paths.values() if p})}
    for path, table in sorted(tables.items()):
        missing = [c for c in priced if table is not None and c not in table.unit_classes]
        if missing:
            problems.append(DataProblem(label(path, data_dir), "$.unit_classes",
                                        f"does not declare {', '.join(map(repr, missing))}, the unit class the rules "
                                        "price every move with"))
            tables[path] = None
    found = {box: table for box, path in paths.items() if path is not None and (table := tables[path]) is not None}
    for b in weather.boxes if weather is not None else []:
        unknown = [r for r in b.scaled_roads if b.box in found and r not in found[b.box].roads]
        problems += [DataProblem(label(paths[b.box], data_dir), "$.roads",  # type: ignore[arg-type]
                                 f"no road {r!r} (weather box {b.box}'s scaled_roads)") for r in unknown]
        if b.scaled_roads and b.box in found and not unknown:
            found[b.box] = _scaled(found[b.box], b.scaled_roads)
    return found


def _box_tables(weather: WeatherTrack | None, data_dir: Path, source: str,
                problems: list[DataProblem]) -> dict[int, Path]:
    """The boxes' own movement tables that are files of the data folder; any other is refused where the box names it
    (`source`, the weather file): a path outside the folder would be read but neither carried nor hashed by a game."""
    found: dict[int, Path] = {}
    for i, b in enumerate(weather.boxes if weather is not None else []):
        if not b.movement_table:
            continue
        where = f"$.boxes[{i}].movement_table"
        if not _inside(b.movement_table):
            problems.append(DataProblem(source, where, f"{b.movement_table!r} is not a JSON file's path inside the data "
                                                       "folder (relative to its root, / separated, no '..')"))
        elif not (data_dir / b.movement_table).is_file():
            problems.append(DataProblem(source, where, f"{b.movement_table!r}: no such file in the data folder (a path "
                                                       "from the folder's root, as tables/movement.json)"))
        else:
            found[b.box] = data_dir / b.movement_table
    return found


def _scaled(table: MovementTable, roads: Sequence[str]) -> MovementTable:
    """`table` with the step along each of `roads` weighed by the weather's multiplier too (map kit `RoadCost.scaled`)."""
    def scale(rule: RoadRule) -> RoadRule:
        return rule.model_copy(update={k: c.model_copy(update={"scaled": True})
                                       for k, c in (("always", rule.always), ("in_column", rule.in_column)) if c})
    return table.model_copy(update={"roads": {n: scale(r) if n in roads else r for n, r in table.roads.items()}})


def check_counters(ob: str, oob: OrderOfBattle, sides: Sequence[str]) -> list[DataProblem]:
    """An order of battle (file `ob`) agrees with itself: every id used once, every unit and commander in a formation
    of its own side (that each name is known is `unknown_names`'s), every formation's general one of its commanders,
    each side one commander in chief (the one it names, if it names one), every reinforcement group's counters
    arriving with it."""
    problems: list[DataProblem] = []
    ids = Counter([u.id for u in oob.units] + [leader.id for leader in oob.leaders])
    problems += [DataProblem(ob, "$", f"id {dup!r} is used {count} times") for dup, count in sorted(ids.items()) if count > 1]
    by_id = {f.id: f for f in oob.formations}
    by_leader = {leader.id: leader for leader in oob.leaders}
    for i, f in enumerate(oob.formations):
        general = by_leader.get(f.general) if f.general is not None else None  # an unknown one: unknown_names
        if general is not None and general.formation != f.id:
            problems.append(DataProblem(ob, f"$.formations[{i}].general", f"{f.general!r} is not a leader of formation {f.id!r}"))
    for side, data in sorted(oob.sides.items()):
        chief = by_leader.get(data.commander_in_chief)
        if chief is None or chief.role != "commander_in_chief" or chief.side != side:
            problems.append(DataProblem(ob, f"$.sides.{side}.commander_in_chief",
                                        f"{data.commander_in_chief!r} is not a commander in chief of {side}"))
    problems += _chief_problems(ob, oob, sides)
    pieces: list[tuple[str, UnitData | LeaderData]] = [(f"$.leaders[{i}]", p) for i, p in enumerate(oob.leaders)]
    pieces += [(f"$.units[{i}]", p) for i, p in enumerate(oob.units)]
    for where, piece in pieces:
        problems += _group_problems(ob, where, piece, oob)
        formation = by_id.get(piece.formation) if piece.formation is not None else None
        if formation is not None and formation.side != piece.side:
            problems.append(DataProblem(ob, f"{where}.formation",
                                        f"formation {formation.id!r} belongs to {formation.side}, not {piece.side}"))
    return problems + _reinforcement_problems(ob, oob)


def placement_problems(ob: str, oob: OrderOfBattle, scenario: ScenarioFile, hexmap: HexMap, map_label: str,
                       terrain: TerrainTable | None, terrain_label: str) -> list[DataProblem]:
    """What one scenario's files must agree on in both books, besides the order of battle with itself
    (`check_counters`) and the names they give (`unknown_names`): the printed set-up (each counter's start hex) within
    the scenario's stacking limits where it is fixed (§7.1 in both, arrivano §17.2.3; not a piece with a PI area,
    which its player places within one hex of it, caldiero §21.0), every arrival, a counter's or a reinforcement
    group's, on a turn the scenario has (caldiero §21.3-§21.4, arrivano §15.4), every commander's movement given by his
    counter or the scenario (D31), every terrain of the map in the terrain effects table (when it could be read).
    `map_label`, `terrain_label`: how problems name those files."""
    listed: tuple[tuple[str, Sequence[UnitData | LeaderData]], ...] = (("leaders", oob.leaders), ("units", oob.units))
    turns = [(f"$.{kind}[{i}].arrival.turn", p.arrival.turn) for kind, pieces in listed for i, p in enumerate(pieces)
             if p.arrival is not None and p.arrival.turn is not None]
    turns += [(f"$.reinforcements[{i}].turn", g.turn) for i, g in enumerate(oob.reinforcements)]
    problems = [DataProblem(ob, at, f"turn {turn} is after the last turn {scenario.turns}") for at, turn in turns
                if turn > scenario.turns]
    problems += [DataProblem(ob, f"$.leaders[{i}].movement", "required: the commander's movement allowance (caldiero "
                             "§2.2.1), unless the scenario.json gives every commander's `commander_movement` (arrivano "
                             "§9.1.4)") for i, le in enumerate(oob.leaders)
                 if le.movement is None and scenario.commander_movement is None]
    by_hex: dict[str, list[UnitData]] = {}
    for u in oob.units:  # a piece with a PI area is placed by its player "entro un esagono" of its PI (caldiero §21.0):
        if u.setup is not None and u.setup.area is None:  # its stacking holds when the set-up ends (setup_problems)
            by_hex.setdefault(u.setup.start_hex, []).append(u)
    for h, stack in sorted(by_hex.items()):
        if not fits_stacking([u.arm for u in stack], [u.formation for u in stack], scenario.stacking.allowed):
            problems.append(DataProblem(ob, "$.units", f"set-up hex {h} holds {', '.join(u.id for u in stack)}, over "
                                                       f"the stacking limit ({scenario.stacking.rule})"))
    unknown = terrain.unknown_terrains(hexmap.terrain_types) if terrain is not None else []
    return problems + [DataProblem(terrain_label, "$.terrain", f"no entry for terrain {t!r} of {map_label}") for t in unknown]


def unknown_names(file: str, record: BaseModel, seats: Sequence[str], oob: OrderOfBattle, hexmap: HexMap,
                  map_label: str) -> list[DataProblem]:
    """Every name a file's `record` gives (data.py marks the fields) of what another file defines, checked here once
    whichever file gives it: each hex on the map (`map_label`; a printed set-up hex: caldiero §21, arrivano §17), each
    place one the map names, each side one of the scenario's seats, each unit, commander and formation one of the
    order of battle; a place a record gives beside its hex (a victory hex: caldiero §18, arrivano §17.1.6) holds it."""
    known: dict[Names, Callable[[str], bool]] = {
        HEX: hexmap.grid.contains, PLACE: hexmap.places.__contains__, SIDE: set(seats).__contains__,
        UNIT: {u.id for u in oob.units}.__contains__, LEADER: {x.id for x in oob.leaders}.__contains__,
        FORMATION: {f.id for f in oob.formations}.__contains__}
    words = {HEX: f"hex {{}} is not on the map {map_label}", PLACE: f"no place {{!r}} on the map {map_label}",
             SIDE: f"unknown side {{!r}} (seats: {', '.join(seats)})"}
    # each record's hex, where on the map (a hex off it is reported as such, not again as outside its place)
    hexes = {p.rpartition(".")[0]: h for m, p, h in named(record) if m == HEX and not p.endswith("]") and known[m](h)}
    return [DataProblem(file, path, words.get(mark, f"unknown {mark.what} {{!r}}").format(name))
            for mark, path, name in named(record) if not known[mark](name)] + [
        DataProblem(file, p, f"the map's place {n!r} does not contain hex {h}") for m, p, n in named(record)
        if m == PLACE and (h := hexes.get(p.rpartition(".")[0])) and h not in hexmap.places.get(n, (h,))]


def _chief_problems(ob: str, oob: OrderOfBattle, sides: Sequence[str]) -> list[DataProblem]:
    """Each side has exactly one commander in chief (caldiero §4.2, arrivano §4.3 name one a side): World's
    commander_in_chief(side) reads the side's one leader in that role, so a second would silently lose the post and
    none would leave the orders phase without its chief. Every chief but the one the side names (or else its first)
    is reported at his role."""
    problems: list[DataProblem] = []
    for side in sides:
        chiefs = [(i, le.id) for i, le in enumerate(oob.leaders) if le.role == "commander_in_chief" and le.side == side]
        if not chiefs:
            problems.append(DataProblem(ob, "$.leaders", f"{side} has no commander in chief (no leader of {side} "
                                                         "has role 'commander_in_chief')"))
            continue
        named = oob.sides[side].commander_in_chief if side in oob.sides else None
        kept = named if named in {lid for _, lid in chiefs} else chiefs[0][1]
        problems += [DataProblem(ob, f"$.leaders[{i}].role",
                                 f"{lid!r} is a second commander in chief of {side} (besides {kept!r}): a side has one")
                     for i, lid in chiefs if lid != kept]
    return problems


def _group_problems(ob: str, where: str, piece: UnitData | LeaderData, oob: OrderOfBattle) -> list[DataProblem]:
    """A counter arriving with a reinforcement group (arrivano §15.4) is listed by that group."""
    group_id = piece.arrival.group if piece.arrival is not None else None
    if group_id is None:
        return []
    group = next((g for g in oob.reinforcements if g.id == group_id), None)
    if group is None:
        return [DataProblem(ob, f"{where}.arrival.group", f"unknown reinforcement group {group_id!r}")]
    if piece.id not in (group.units if isinstance(piece, UnitData) else group.leaders):
        return [DataProblem(ob, f"{where}.arrival.group", f"group {group_id!r} does not list {piece.id!r}")]
    return []


def _reinforcement_problems(ob: str, oob: OrderOfBattle) -> list[DataProblem]:
    """Each counter a reinforcement group lists arrives with it (that its formation is known: `unknown_names`)."""
    problems: list[DataProblem] = []
    pieces: dict[str, UnitData | LeaderData] = {u.id: u for u in oob.units} | {x.id: x for x in oob.leaders}
    for i, g in enumerate(oob.reinforcements):
        where = f"$.reinforcements[{i}]"
        for kind, listed in (("units", g.units), ("leaders", g.leaders)):
            for j, piece_id in enumerate(listed):
                piece = pieces.get(piece_id)
                if piece is None or piece.arrival is None or piece.arrival.group != g.id:
                    problems.append(DataProblem(ob, f"{where}.{kind}[{j}]", f"{piece_id!r} does not arrive with this group"))
    return problems


# --- what is a reconstruction (the brief's "provisional data"), as the files mark it ------------------------------
def provisional_markers(files: Mapping[str, object]) -> tuple[Marker, ...]:
    """Every mark of reconstructed data in `files` (label -> decoded JSON), in file and path order: what `provisional`
    reports, read from the data themselves (never a list kept in code)."""
    found: list[Marker] = []
    for name, doc in sorted(files.items()):
        meta = doc.get("meta") if isinstance(doc, dict) else None
        title = str((meta if isinstance(meta, dict) else doc if isinstance(doc, dict) else {}).get("title", ""))
        if isinstance(meta, dict) and "provisional" not in meta and "title" in meta:  # data.Meta's default
            found.append(Marker(name, "$.meta.provisional", title))
        found += [Marker(name, path, title) for path in _marks(doc, "$")]
    return tuple(found)


def _marks(value: object, path: str) -> list[str]:
    if isinstance(value, list):
        return [m for i, item in enumerate(value) for m in _marks(item, f"{path}[{i}]")]
    if not isinstance(value, dict):
        return []
    found = []
    for key, item in value.items():
        flag = key == "provisional" or key.endswith("_provisional")
        if flag and (item is True or (isinstance(item, list) and item)):
            found.append(f"{path}.{key}")
        elif not flag:
            found += _marks(item, f"{path}.{key}")
    return found


def provisional_report(markers: Sequence[Marker]) -> list[str]:
    """One line a file with marks: the file, its title when the file as a whole is marked, and the parts of it with
    marks, a record's by its first key and how many (`oob.json: reconstructed: units (60), leaders (6)`), a flag by
    its path (`scenario.json: reconstructed: turns_provisional`)."""
    lines = []
    for name in sorted({m.file for m in markers}):
        mine = [m for m in markers if m.file == name]
        parts = Counter(_part(m.path) for m in mine if m.path not in WHOLE_FILE)
        items = ["the whole file"] if sum(parts.values()) < len(mine) else []
        if parts:
            items.append("reconstructed: " + ", ".join(f"{part} ({n})" if n > 1 else part for part, n in parts.items()))
        lines.append(f"{name} ({mine[0].title}): {'; '.join(items)}" if mine[0].title else f"{name}: {'; '.join(items)}")
    return lines


WHOLE_FILE = ("$.provisional", "$.meta.provisional")  # the marks of a file as a whole (its meta's, a movement table's)


def _part(path: str) -> str:
    """The part of a file a mark is in: a record's first key (`units` of `$.units[3].provisional`), a flag's path
    (`turns_provisional`, `meta.default_provisional`: a map's hexes that do not say)."""
    inner = path.removeprefix("$.")
    return inner if inner.rsplit(".", 1)[-1].endswith("_provisional") else inner.split(".")[0].split("[")[0]


def decoded(paths: Sequence[Path], data_dir: Path) -> dict[str, object]:
    """The decoded JSON of every file read (each named as problems name it): what `provisional_markers` reads."""
    return {label(p, data_dir): read_json(p, label(p, data_dir)) for p in sorted(set(paths)) if p.is_file()}
