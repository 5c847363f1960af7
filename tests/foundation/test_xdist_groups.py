"""`--dist loadgroup` keeps an `xdist_group`'s tests on one worker only if a test's id ends with `@group`, which
tests/conftest.py sets through pytest's private `Item._id` (9564598: pytest-xdist 3.8 sets `_nodeid`, which pytest 9
no longer reads). Should pytest change that again, the groups spread over the workers silently and each builds its
self-played games again (issue 15); these fail instead (rev-speed 5)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.conftest import collected_id, pytest_collection_modifyitems


def _probe() -> None:
    """The body of the item built below; never run."""


def test_a_grouped_test_is_named_by_its_group_under_loadgroup(request: pytest.FixtureRequest) -> None:
    item = pytest.Function.from_parent(request.node.parent, name="test_probe", callobj=_probe)
    item.add_marker(pytest.mark.xdist_group("probe"))
    collected = item.nodeid
    loadgroup: Any = SimpleNamespace(option=SimpleNamespace(loadgroup=True))
    pytest_collection_modifyitems(loadgroup, [item])
    assert item.nodeid == f"{collected}@probe"
    assert collected_id(item) == collected  # the dice seeds and the replay command keep the id as collected


@pytest.mark.xdist_group("ids")
def test_this_grouped_test_carries_its_group_in_its_id_when_the_suite_runs_grouped(request: pytest.FixtureRequest) -> None:
    grouped = bool(getattr(request.config.option, "loadgroup", False))
    assert request.node.nodeid.endswith("@ids") == grouped, request.node.nodeid
    assert collected_id(request.node).endswith(f"::{request.node.name}")
