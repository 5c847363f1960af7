"""Finding rulesets by name, and listing them with their scenarios (`arbitro rulesets`): the shipped ones, plus any
named in $ARBITRO_RULESETS ("module:Class,module:Class", e.g. the test ruleset `tests.foundation.duel:DuelRuleset`)."""

from __future__ import annotations

import importlib
import os
from typing import Any

import msgspec

from arbitro.adjudicator.errors import UnknownRuleset
from arbitro.adjudicator.ruleset import Ruleset

SHIPPED: dict[str, str] = {
    "marengo": "arbitro.adjudicator.marengo:MarengoRuleset",
    "caldiero": "arbitro.adjudicator.caldiero:CaldieroRuleset",
    "arrivano": "arbitro.adjudicator.arrivano:ArrivanoRuleset",
    "caricat": "arbitro.adjudicator.caricat:CaricatRuleset",
    "monferrato": "arbitro.adjudicator.monferrato:MonferratoRuleset",
}

_loaded: dict[str, Ruleset[Any]] = {}
_extra: dict[str, str] = {}


def register(name: str, target: str) -> None:
    """Make a ruleset available by name (`module:Class`)."""
    _extra[name] = target
    _loaded.pop(name, None)


def _targets() -> dict[str, str]:
    targets = dict(SHIPPED)
    for item in filter(None, os.environ.get("ARBITRO_RULESETS", "").split(",")):
        module, _, cls = item.strip().partition(":")
        targets[cls.lower().removesuffix("ruleset") or module] = item.strip()
    targets.update(_extra)
    return targets


def _load(target: str) -> Ruleset[Any]:
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)()  # type: ignore[no-any-return]


def get(name: str) -> Ruleset[Any]:
    targets = _targets()
    if name not in targets:
        raise UnknownRuleset(f"no ruleset {name!r}; available: {', '.join(sorted(available()))}")
    if name not in _loaded:
        try:
            _loaded[name] = _load(targets[name])
        except Exception as e:  # a broken ruleset (bad data file, import error) must not take the CLI down
            raise UnknownRuleset(
                f"ruleset {name!r} is not available in this build ({type(e).__name__}: {e})") from None
    return _loaded[name]


def available() -> dict[str, Ruleset[Any] | str]:
    """Every known ruleset name -> the ruleset, or why it cannot be loaded."""
    out: dict[str, Ruleset[Any] | str] = {}
    for name in sorted(_targets()):
        try:
            out[name] = get(name)
        except UnknownRuleset as e:
            out[name] = str(e)
    return out


class ScenarioInfo(msgspec.Struct, kw_only=True):
    """A scenario as `arbitro rulesets` lists it."""

    title: str
    seats: list[str]
    options: list[str]


class RulesetInfo(msgspec.Struct, kw_only=True):
    """A ruleset this build names: its scenarios, or why it cannot be loaded (`available` false, `reason`)."""

    name: str
    available: bool
    title: str | msgspec.UnsetType = msgspec.UNSET
    version: str | msgspec.UnsetType = msgspec.UNSET
    scenarios: dict[str, ScenarioInfo] | msgspec.UnsetType = msgspec.UNSET
    reason: str | msgspec.UnsetType = msgspec.UNSET


def rulesets() -> list[RulesetInfo]:
    """The rulesets this build names, with their scenarios and optional rules; one that cannot be loaded says why
    (`Arbitro.rulesets`, `arbitro rulesets`)."""
    infos = []
    for name, ruleset in available().items():
        if isinstance(ruleset, str):
            infos.append(RulesetInfo(name=name, available=False, reason=ruleset))
            continue
        scenarios = {k: ScenarioInfo(title=s.title, seats=list(s.seats), options=list(s.options))
                     for k, s in ruleset.scenarios().items()}
        infos.append(RulesetInfo(name=name, available=True, title=ruleset.title, version=ruleset.version,
                                 scenarios=scenarios))
    return infos
