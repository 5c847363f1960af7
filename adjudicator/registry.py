"""Finding rulesets by name: the shipped ones, plus any named in $ARBITRO_RULESETS
("module:Class,module:Class", e.g. the test ruleset `tests.foundation.duel:DuelRuleset`)."""

from __future__ import annotations

import importlib
import os
from typing import Any

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
