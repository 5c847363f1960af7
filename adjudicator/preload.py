"""Each ruleset's shipped data loaded once per process and frozen out of the garbage collector's sight (issue 15):
what a long-running process (the server, the benchmarks of legal()) does at its start, so that no full collection
walks the rulesets' maps and tables in the middle of a request (docs/architecture.md "Garbage collection")."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Mapping
from typing import Any

from arbitro.adjudicator import registry
from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.errors import ArbitroError
from arbitro.adjudicator.ruleset import Ruleset

_SETTLED: set[str] = set()  # the rulesets whose data this process has loaded and frozen (`settle_data`)
_settling = threading.Lock()


def settle_data(rulesets: Mapping[str, Ruleset[Any]]) -> list[str]:
    """Load each ruleset's shipped data (every scenario's initial state) and move everything then alive out of the
    collector's sight (`gc.freeze`), once per ruleset name per process; the names it settled now. Issue 15: a full
    collection walks every object alive, the rulesets' maps, tables and counters too, and those walks were Caldiero's
    largest legal() pauses (docs/architecture.md "Garbage collection"). Frozen objects are never collected, so freezing
    is bounded here: once per name (a handful), never per game, per request or per own-data folder (those stay
    collectable), and after a full collection, so that no garbage is frozen. A long-running process calls it at its
    start (`settle_rulesets`); a one-shot command never pays for it."""
    with _settling:
        new = [name for name in sorted(rulesets) if name not in _SETTLED]
        for name in new:
            _SETTLED.add(name)
            for scenario in rulesets[name].scenarios():
                # a scenario whose data cannot start says so, precisely, when a game asks it; the others still load
                with contextlib.suppress(ArbitroError, DataError):
                    rulesets[name].new_state(scenario, ())
        if new:
            gc.collect()
            gc.freeze()
        return new


def settle_rulesets() -> list[str]:
    """`settle_data` of every ruleset this build can load: what the server does at its start (server.create_app's
    lifespan), before its first request, and what the benchmarks of legal() do as a server would. A scenario that
    cannot start for a precise reason (ArbitroError, DataError) says so when a game asks it; anything else raised (a
    bug) propagates, and stops the server's start: fail fast, not at that ruleset's first request."""
    return settle_data({name: rules for name, rules in registry.available().items() if not isinstance(rules, str)})
