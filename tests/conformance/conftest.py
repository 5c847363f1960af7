"""The conformance kit runs over every ruleset that loads: the test ruleset and the shipped ones (never the toys
other test modules register)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import registry

registry.register("duel", "tests.foundation.duel:DuelRuleset")

# Per ruleset: the scenarios to play and how many commands a self-play game may take at most.
MAX_STEPS = {"duel": 400}
DEFAULT_MAX_STEPS = 3000


def loadable_rulesets() -> list[Any]:
    params = []
    for name, rs in registry.available().items():
        if name not in (*registry.SHIPPED, "duel"):  # toys other tests register to show one fault (a roll hidden,
            continue  # a command with no event) are theirs; which modules pytest imported first must not change the kit
        if isinstance(rs, str):
            params.append(pytest.param(name, None, (), marks=pytest.mark.skip(reason=f"{name}: {rs}"), id=name))
            continue
        for scenario, info in rs.scenarios().items():
            params.append(pytest.param(name, scenario, (), id=f"{name}-{scenario}"))
            if info.options:  # and once with every optional rule on (fog of war must not leak either)
                params.append(pytest.param(name, scenario, tuple(info.options), id=f"{name}-{scenario}-all-options"))
    return params


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if {"ruleset_name", "scenario", "options"} <= set(metafunc.fixturenames):
        metafunc.parametrize(("ruleset_name", "scenario", "options"), loadable_rulesets())


def served_text(obj: Any) -> str:
    return msgspec.json.encode(msgspec.to_builtins(obj)).decode()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`-n auto --dist loadgroup`, the README's command) every check of one self-played game runs
    in the worker that played it: the game is played once, not once per worker."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        params = getattr(item, "callspec", None)
        if params is not None and "ruleset_name" in params.params:
            p = params.params
            item.add_marker(pytest.mark.xdist_group(f"{p['ruleset_name']}-{p['scenario']}-{'+'.join(p['options'])}"))
