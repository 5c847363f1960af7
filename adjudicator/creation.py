"""How a game begins: its genesis (`game_created`) from a scenario and its options, or from a position file,
checked against the ruleset before anything is stored. Pure: the service stores what this returns."""

from __future__ import annotations

import difflib
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from arbitro.adjudicator.datafiles import DataError, differing_files
from arbitro.adjudicator.errors import BadInput, BadPosition, UnknownScenario
from arbitro.adjudicator.overrides import apply_overrides
from arbitro.adjudicator.ruleset import Interpretation, Ruleset
from arbitro.events import core, random as rnd
from arbitro.events.codec import canonical, to_builtins

POSITION_FORMAT = "arbitro-position/1"


def genesis(
    ruleset: Ruleset[Any], seed: str, scenario: str | None = None, options: Iterable[str] = (), *, salt_key: str,
    position: dict[str, Any] | None = None, transcribed: bool = False, seat_entropy: bool = False,
    data: Mapping[str, str] | None = None, provable_rolls: bool = False,
) -> core.GameCreated:
    """A new game's `game_created`, committing to `seed` and to `salt_key` (the key its salts and its position's
    digest derive from, events.random). `seat_entropy`: every playing seat commits entropy, then
    reveals it, before anything is rolled (arbitro §R.2). `data`: a user's data folder (Ruleset.read_data), played
    instead of the shipped data: recorded whole in origin["data"] and hashed into data_hash. `provable_rolls`: the dice
    derive by arbitro-random/2, each roll under its own key, the genesis committing to the keys' Merkle root, so that
    one roll can later be proven without the seed (arbitro §R.5); refused for a transcribed game, which rolls nothing."""
    if provable_rolls and transcribed:
        raise BadInput("a transcribed game rolls nothing (its dice are entered from the table, arbitro §R.4), so it "
                       "has no roll to prove: create it without provable rolls (arbitro §R.5)")
    chosen = tuple(sorted({options} if isinstance(options, str) else set(options)))
    initial_core: dict[str, Any] = {}
    shipped_readings = ruleset.interpretations()
    with ruleset.using_data(data):
        readings = folder_readings(shipped_readings, ruleset.interpretations())
        if readings:
            initial_core["interpretations"] = readings
        if position is not None:
            initial_core["interpretations"] = {**readings, **position_interpretations(ruleset, position)}
            scenario, chosen, initial, overridden = from_position(ruleset, position, scenario, chosen, data,
                                                                  initial_core["interpretations"])
            origin: dict[str, Any] = {"position": rnd.position_digest(salt_key, canonical(position))}
            if overridden:  # public names: `status` lists them as non-standard (adjudicator/overrides.py)
                origin["overrides"] = overridden
        else:
            scenario = scenario_of(ruleset, scenario, chosen)
            initial = ruleset.adopt_data(ruleset.new_state(scenario, chosen), data)
            origin = {"scenario": scenario}
        provisional = tuple(ruleset.provisional(scenario))
    if data:
        origin["data"] = dict(sorted(data.items()))
        named = [f"data file {name}" for name in data_differences(ruleset, initial, data)]
        if named:  # a user's folder is as non-standard as a position's carried files (own_data)
            origin["overrides"] = named + origin.get("overrides", [])
    mark_own_data(origin, ruleset, initial)
    return core.GameCreated(
        ruleset=ruleset.name, version=ruleset.version, scenario=scenario, options=chosen,
        kind="transcribed" if transcribed else "generated", seats=ruleset.seats(initial),
        seed_commitment=rnd.commitment(seed), data_hash=ruleset.played_hash(initial, data), origin=origin,
        initial=to_builtins(initial), provisional=provisional, initial_core=initial_core,
        entropy_seats=ruleset.seats(initial) if seat_entropy and not transcribed else (),
        salt_key_commitment=rnd.commitment(salt_key), **roll_key_commitment(seed, provable_rolls),
    )


def roll_key_commitment(seed: str, provable_rolls: bool) -> dict[str, Any]:
    """A genesis's fields for provable rolls (arbitro §R.5): the Merkle root over the seed's first ROLL_KEYS roll keys
    and their count, or none (arbitro-random/1). Made with the genesis, before any seat's entropy is asked for."""
    if not provable_rolls:
        return {}
    return {"roll_key_root": rnd.roll_key_root(seed, rnd.ROLL_KEYS), "roll_keys": rnd.ROLL_KEYS}


def data_differences(ruleset: Ruleset[Any], state: Any, data: Mapping[str, str] | None = None) -> list[str]:
    """Each data file a game in `state` plays on (the files it carries, else `data`, a user's folder) that differs
    from the shipped one, as "NAME: changed|added|left out"; [] for a game on the shipped data."""
    played = ruleset.carried_data(state) or dict(data or {})
    return [f"{name}: {how}" for name, how in differing_files(played, ruleset.shipped_data())] if played else []


def mark_own_data(origin: dict[str, Any], ruleset: Ruleset[Any], state: Any) -> None:
    """Mark a genesis whose game plays on data files of its own (a user's data folder, a position's carried files
    that differ from the shipped ones, data an override wrote; every ruleset): its data hash, and the folder it
    carries, would let a seat test candidate values (a fogged unit's strength) against them, so seats are served
    neither (projections/views.served_origin). Whether the files differ from the shipped ones does not decide it:
    an override setting a hidden value to the printed one would then serve the hash, setting it to another would
    not, and the seat would learn which. What decides it is public: the folder given, the overrides named.
    Decided here, where the genesis is made, and again for a fork."""
    if ruleset.carried_data(state) or origin.get("data"):
        origin["own_data"] = True


def folder_readings(shipped: Mapping[str, Interpretation], own: Mapping[str, Interpretation]) -> dict[str, str]:
    """The readings a user's data folder makes its defaults (Arrivano's interpretations.json) where they are not the
    shipped defaults: in force from the genesis, as a position's are, so that the game plays them and `status` lists
    them. A default that is no reading the ruleset knows is refused (BadInput), not played as something else."""
    readings: dict[str, str] = {}
    for name, interp in sorted(own.items()):
        known = shipped.get(name)
        if known is None or interp.default not in known.choices:
            offered = "|".join(known.choices) if known else "none: no such interpretation"
            raise BadInput(f"the data folder's interpretations: {name}'s default {interp.default!r} is no reading "
                           f"this ruleset plays (known: {offered})")
        if interp.default != known.default:
            readings[name] = interp.default
    return readings


def position_interpretations(ruleset: Ruleset[Any], position: dict[str, Any]) -> dict[str, str]:
    """The umpire's readings a position file names, each one the ruleset knows."""
    return known_readings(ruleset, position.get("interpretations", {}), "interpretations")


def known_readings(ruleset: Ruleset[Any], chosen: Any, where: str) -> dict[str, str]:
    """`chosen` (the position's field `where`), each of its readings one the ruleset knows, or BadPosition."""
    known = ruleset.interpretations()
    if not isinstance(chosen, dict):
        raise BadPosition(f'"{where}" is an object: {{"name": "reading"}}')
    for name, value in sorted(chosen.items()):
        if name in known and value not in known[name].choices:
            raise BadPosition(f"{where}.{name}: no such reading {value!r} ({name}: {'|'.join(known[name].choices)})")
        if name not in known:  # the nearest names, not all of them (Arrivano has 61)
            near = "".join(f"; did you mean {n}?" for n in difflib.get_close_matches(name, sorted(known), n=1))
            raise BadPosition(f"{where}.{name}: no such reading {value!r} ({ruleset.name} has no reading named "
                              f"{name}{near}; `arbitro interpretations {ruleset.name}` lists them)")
    return dict(sorted(chosen.items()))


def scenario_of(ruleset: Ruleset[Any], scenario: str | None, options: tuple[str, ...]) -> str:
    """The scenario named (or the ruleset's only one), with options it offers."""
    scenarios = ruleset.scenarios()
    if scenario is None:
        if len(scenarios) != 1:
            raise BadInput(f"{ruleset.name} has several scenarios; name one of: {', '.join(scenarios)}")
        scenario = next(iter(scenarios))
    if scenario not in scenarios:
        raise UnknownScenario(f"{ruleset.name} has no scenario {scenario!r}; choose one of: {', '.join(scenarios)}")
    unknown = [o for o in options if o not in scenarios[scenario].options]
    if unknown:
        offered = ", ".join(scenarios[scenario].options) or "none"
        raise UnknownScenario(f"scenario {scenario} has no option {', '.join(unknown)}; options: {offered}")
    return scenario


def from_position(
    ruleset: Ruleset[Any], position: dict[str, Any], scenario: str | None, options: tuple[str, ...],
    data: Mapping[str, str] | None = None, readings: Mapping[str, str] | None = None,
) -> tuple[str, tuple[str, ...], Any, list[str]]:
    """A position file's scenario, options and state, each checked (the state by the ruleset's own checks, after
    the position's overrides are applied, and its copy of the readings in force against `readings`:
    `readings_as_written`), and the overrides' names."""
    if not isinstance(position, dict) or position.get("format") != POSITION_FORMAT:
        raise BadPosition(f'a position file is a JSON object with "format": "{POSITION_FORMAT}"')
    if position.get("ruleset") != ruleset.name:
        raise BadPosition(f"the position is for ruleset {position.get('ruleset')!r}, not {ruleset.name!r}")
    try:
        state = msgspec.convert(position.get("state"), ruleset.State)
    except msgspec.ValidationError as e:
        raise BadPosition(f"the position's state is not valid: {str(e).replace('$', 'state', 1)}") from None
    named = ruleset.position_scenario(state)  # one the ruleset does not have: its validate_position says so
    scenario = scenario or position.get("scenario")
    if scenario is not None and named in ruleset.scenarios() and scenario != named:
        raise BadPosition(f"the position is named scenario {scenario!r} and its state is of {named!r}: a position is "
                          "of one scenario (name the state's, or none)")
    scenario = scenario_of(ruleset, scenario or named, options or tuple(position.get("options", ())))
    options = options or tuple(sorted(position.get("options", ())))
    state, carried = own_data(ruleset, state, data)
    state, overridden = apply_overrides(ruleset, state, position.get("overrides"))
    overridden = carried + overridden
    problems = ruleset.validate_position(state)
    if problems:
        raise BadPosition("the position is not legal: " + "; ".join(problems))
    return scenario, options, readings_as_written(ruleset, state, position["state"], readings or {}), overridden


def readings_as_written(ruleset: Ruleset[Any], state: Any, written: Any, readings: Mapping[str, str]) -> Any:
    """The position's state with the ruleset's copy of the readings in force (`note_interpretations`: what legal()
    reads) made from `readings`, the checked top-level "interpretations" over the data folder's. The copy is the
    fold's (Fold.initial), so a position's state may leave it out, or name some of the readings in force, defaults
    included (as a state written from a fresh game has it: it plants nothing); one naming a reading not in force
    would be stored in the genesis, served to every seat, as a reading in force that is not (review rev-g G1):
    refused (BadPosition), naming the field and both values, rather than overwritten unseen: its author meant a
    reading and learns where it goes. A reading the ruleset does not know is refused as such first (rev-j R-j-6)."""
    before = to_builtins(state)
    noted = ruleset.note_interpretations(msgspec.convert(before, ruleset.State), dict(readings))
    after = to_builtins(noted)
    defaults = {k: i.default for k, i in ruleset.interpretations().items()}
    for name in sorted(k for k in after if after[k] != before.get(k) and isinstance(written, dict) and written.get(k)):
        copy = known_readings(ruleset, written[name], f"state.{name}")
        if all({**defaults, **after[name]}.get(k) == v for k, v in copy.items()):
            continue
        raise BadPosition(f"state.{name} is {canonical(copy).decode()}, not the readings in force "
                          f"{canonical(after[name]).decode()}: a reading is chosen by the position's top-level "
                          f'"interpretations" (or an umpire\'s ruling); leave state.{name} out or name only '
                          "readings in force")
    return noted


def own_data(ruleset: Ruleset[Any], state: Any, data: Mapping[str, str] | None) -> tuple[Any, list[str]]:
    """A position's state made to play on `data` (a user's folder) when given, else on the data files its state
    carries (a position saved from a game on its own data or with overrides, or written by hand), each file that is
    not the shipped one named as non-standard for `status` (review rev-fidelity 1): carried files the same as the
    shipped ones are dropped, so that the game plays, and its data_hash names, the shipped data."""
    if data:
        return ruleset.adopt_data(state, data), []
    carried, shipped = ruleset.carried_data(state), ruleset.shipped_data()
    if not carried:
        return state, []
    if not shipped:
        raise BadPosition(f"the position's state carries data files, and {ruleset.name} takes no data folder")
    names = [f"data file {name}: {how}" for name, how in differing_files(carried, shipped)]
    if not names:
        return msgspec.structs.replace(state, data_files={}), []
    try:
        with ruleset.using_data(carried):  # checked as a user's folder is, every problem at once
            pass
    except DataError as e:
        raise BadPosition("the data files the position's state carries: " + "; ".join(map(str, e.problems))) from None
    return state, names


def fresh_game_id(ruleset: str) -> str:
    return f"{ruleset}-{secrets.token_hex(4)}"


GAME_ID_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def checked_game_id(game_id: str, where: str = "the game id") -> str:
    """`game_id` if every client can address it: a URL path segment (`/games/{id}`), a CLI argument that is not
    read as a file's path, a line of `arbitro games` — letters, digits, '.', '_' and '-' (the form fresh_game_id
    makes), not "." or "..", not starting with '-' (an option to click) nor ending ".json"/".jsonl" (a file to
    `cli_common.is_file_source`). Refused otherwise, saying which."""
    bad = next((c for c in game_id if c not in GAME_ID_CHARACTERS), None)
    file_like = game_id.endswith((".json", ".jsonl"))
    if bad is not None or game_id in ("", ".", "..") or game_id.startswith("-") or file_like:
        why = (f"its character {bad!r} is not allowed" if bad is not None
               else "the CLI would read it as an option" if game_id.startswith("-")
               else "the CLI would read it as an exported file's name" if file_like
               else "it names no game")
        raise BadInput(f"{where} {game_id!r}: {why}; a game id is letters, digits, '.', '_' and '-' "
                       f"(e.g. {fresh_game_id('duel')!r}), so that every request and command can address it")
    return game_id
