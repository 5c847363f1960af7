"""Architecture guards: imports point one way (events <- projections <- adjudicator <- cli); nothing that
decides an outcome imports `random` or reads the clock; every package folder is installed."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ["events", "projections", "adjudicator", "cli"]
# Wall-clock metadata only (when a command arrived, when a game was made), and the stores' change feed (how long
# a live stream waits for an append: wait_for_append's timeout): never decides anything that is stored.
CLOCK_ALLOWED = {"adjudicator/service.py", "events/sqlite.py", "events/postgres.py",
                 "adjudicator/http_access.py"}  # the HTTP server's rate limits


def modules(layer: str) -> list[Path]:
    path = ROOT / layer
    return sorted(path.rglob("*.py")) if path.is_dir() else sorted(ROOT.glob(f"{layer}*.py"))


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", LAYERS)
def test_imports_point_one_way(layer: str) -> None:
    higher = LAYERS[LAYERS.index(layer) + 1 :]
    for path in modules(layer):
        for name in imported(path):
            for up in higher:
                assert not name.startswith(f"arbitro.{up}"), f"{path.relative_to(ROOT)} imports {name} (a higher layer)"


@pytest.mark.parametrize("layer", ["events", "projections", "adjudicator"])
def test_no_random_module_and_no_clock_in_deciding_code(layer: str) -> None:
    for path in modules(layer):
        rel = str(path.relative_to(ROOT))
        for name in imported(path):
            assert name.split(".")[0] != "random", f"{rel} imports the random module: dice come from events.random"
            if rel not in CLOCK_ALLOWED:
                assert name.split(".")[0] not in ("time", "datetime"), f"{rel} reads the clock ({name})"


def test_every_package_folder_is_installed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    for layer in ("events", "projections", "adjudicator"):
        for init in (ROOT / layer).rglob("__init__.py"):
            package = "arbitro." + ".".join(init.parent.relative_to(ROOT).parts)
            assert package in listed, f"{package} is missing from pyproject.toml [tool.setuptools] packages"
