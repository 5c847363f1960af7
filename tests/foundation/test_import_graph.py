"""Imports run one way, by rank (docs/architecture: events < projections < map and table kit < engine < kernels <
rulesets < registry < application < cli), with no cycles and no imports of project modules hidden inside
functions. What does not conform yet is listed by name below, with the issue that removes it: the lists may only
shrink, and a stale entry fails too, so they stay the truth."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("events", "projections", "adjudicator")

# Each module's rank is that of the longest prefix listed here (a ruleset's sub-packages are rulesets).
RANKS: dict[str, int] = {
    "arbitro.adjudicator": 2,  # the bare package (an empty __init__); every module below it has its own rank
    "arbitro.events": 0,
    "arbitro.events.rows": 0,  # what the SQL stores share
    "arbitro.events.sqlite": 0,
    "arbitro.events.postgres": 0,
    "arbitro.events.postgres_schema": 0,  # the PostgreSQL store's tables
    "arbitro.events.stores": 0,  # a location (path or URL) -> its store
    "arbitro.projections": 1,
    "arbitro.adjudicator.errors": 2,  # the map and table kit, and what it needs
    "arbitro.adjudicator.datafiles": 2,
    "arbitro.adjudicator.memo": 2,  # the one kind of cache kept across positions and games
    "arbitro.adjudicator.maps": 2,
    "arbitro.adjudicator.tables": 2,
    "arbitro.adjudicator.core_commands": 3,  # the engine
    "arbitro.adjudicator.randomness": 3,
    "arbitro.adjudicator.decisions": 3,
    "arbitro.adjudicator.ruleset": 3,
    "arbitro.adjudicator.engine_steps": 3,
    "arbitro.adjudicator.engine": 3,
    "arbitro.adjudicator.undo": 3,  # the engine's undo rule (arbitro §U)
    "arbitro.adjudicator.reveal": 3,  # the engine's reveals and forks (arbitro §R.3)
    "arbitro.adjudicator.signing_keys": 3,  # a seat's signing key registered and withdrawn, chained (arbitro §L.6)
    "arbitro.adjudicator.disputes": 3,  # the engine's dispute procedure (arbitro §D)
    "arbitro.adjudicator.log_points": 3,  # where a sender's number lies in the log (§V.6)
    "arbitro.adjudicator.parabellum": 4,  # kernels (the Para Bellum kernel)
    "arbitro.adjudicator.marengo": 5,  # rulesets
    "arbitro.adjudicator.monferrato": 5,
    "arbitro.adjudicator.caldiero": 5,
    "arbitro.adjudicator.arrivano": 5,
    "arbitro.adjudicator.caricat": 5,
    "arbitro.adjudicator.pictures": 5,  # which picture draws each ruleset's games (pictures/rulesets.py)
    "arbitro.adjudicator.pictures.model": 2,  # the drawing interface and the renderers: the map kit's peers
    "arbitro.adjudicator.pictures.kit": 2,  # what the rulesets' pictures share
    "arbitro.adjudicator.pictures.hexes": 2,
    "arbitro.adjudicator.pictures.areas": 2,
    "arbitro.adjudicator.registry": 6,
    "arbitro.adjudicator.service": 7,  # the application
    "arbitro.adjudicator.service_exchange": 7,  # its exchange and verification calls
    "arbitro.adjudicator.service_reading": 7,  # its reading calls, in the reader's numbers (§V.6)
    "arbitro.adjudicator.service_keys": 7,  # its key, receipt and token calls (§L.4, §L.6)
    "arbitro.adjudicator.preload": 7,  # rulesets' data loaded and frozen once per process (issue 15)
    "arbitro.adjudicator.ledger": 7,  # the events a game's status reads, kept per game
    "arbitro.adjudicator.results": 3,  # the service's result types: plain data (the ruleset listing is registry's)
    "arbitro.adjudicator.admission": 7,
    "arbitro.adjudicator.creation": 7,
    "arbitro.adjudicator.overrides": 7,  # a position's overrides, read with it at creation
    "arbitro.adjudicator.storecheck": 7,
    "arbitro.adjudicator.verify": 7,
    "arbitro.adjudicator.verify_reads": 7,  # the log as verification reads it
    "arbitro.adjudicator.verify_ranges": 7,  # which events each command claims (verify, check, import)
    "arbitro.adjudicator.verify_replay": 7,  # re-adjudication, in one process or in forked segments (verify --jobs)
    "arbitro.adjudicator.verify_anchors": 7,  # what anchors a log: a recorded head, receipts, completeness
    "arbitro.adjudicator.verify_seat": 7,  # what a seat checks of its export in its own numbers (arbitro-seat/3)
    "arbitro.adjudicator.verify_signatures": 7,  # seats' signatures on their own commands (verify, check, import)
    "arbitro.adjudicator.served_dice": 7,  # the dice checked from what a seat was served
    "arbitro.adjudicator.exchange": 7,
    "arbitro.adjudicator.exchange_file": 7,  # an exported file whose events are read from it as asked (verify)
    "arbitro.adjudicator.importing": 7,
    "arbitro.adjudicator.selfplay": 7,
    "arbitro.adjudicator.demo": 7,
    "arbitro.adjudicator.migration": 7,
    "arbitro.adjudicator.report": 7,  # `arbitro report`'s story, over the service and render (issue 13)
    "arbitro.adjudicator.report_pages": 7,  # the story as HTML or Markdown
    "arbitro.adjudicator.report_phrases": 2,  # a served event in plain words
    "arbitro.adjudicator.settling": 7,  # disputes, knowledge, amend over the service (issue 16)
    "arbitro.adjudicator.render": 7,  # `arbitro render`'s library call, over the service's view (issue 13)
    "arbitro.adjudicator.seatcopy": 7,
    "arbitro.adjudicator.seat_numbers": 7,  # a seat's numbers (its commands') to the log's and back (§V.6)  # a seat's copy of a game played by e-mail, read as it was served
    "arbitro.adjudicator.mail": 7,  # a mailed command file
    "arbitro.adjudicator.history": 7,  # the historian's reading of served logs and views
    "arbitro.adjudicator.viewer_file": 7,  # the viewer's page, and one seat's game in it as one offline file
    "arbitro.cli": 8,  # the CLI: cli.py, its entry point, and its parts adjudicator/cli_*.py
    "arbitro.adjudicator.cli_common": 8,
    "arbitro.adjudicator.cli_dice": 8,
    "arbitro.adjudicator.cli_audit": 8,
    "arbitro.adjudicator.cli_store": 8,
    "arbitro.adjudicator.cli_play": 8,
    "arbitro.adjudicator.cli_history": 8,
    "arbitro.adjudicator.cli_render": 8,
    "arbitro.adjudicator.cli_report": 8,
    "arbitro.adjudicator.cli_disputes": 8,
    "arbitro.adjudicator.cli_tables": 8,  # the CLI's tables and grouped listings
    "arbitro.adjudicator.cli_remote": 8,  # `arbitro remote`, the CLI as an HTTP client (loaded lazily)
    "arbitro.adjudicator.cli_remote_client": 8,  # its client: one server, one token, the server's errors read back
    "arbitro.adjudicator.cli_remote_acts": 8,  # its acting commands: entropy, undo, consent, annotate, fork, amend
    "arbitro.adjudicator.cli_remote_disputes": 8,  # its dispute commands, disputes, knowledge
    "arbitro.adjudicator.cli_remote_follow": 8,  # its live stream (`follow`)
    "arbitro.adjudicator.cli_serve": 8,  # `arbitro serve`, loaded lazily by cli.py (cli.LAZY_COMMANDS)
    "arbitro.adjudicator.server": 8,  # the HTTP server, the CLI's peer over the application
    "arbitro.adjudicator.server_bodies": 8,  # its request bodies
    "arbitro.adjudicator.http_access": 8,
    "arbitro.adjudicator.http_stream": 8,
    "arbitro.adjudicator.viewer": 8,  # the headers the server serves the viewer's page with (issue 13)
}

# What does not conform yet, by name (empty since issue 18 broke the last cycle): the lists may only shrink.
KNOWN_CYCLES: set[frozenset[str]] = set()
KNOWN_UPWARD: set[tuple[str, str]] = set()
KNOWN_LOCAL_IMPORTS: set[str] = set()


def module_files() -> dict[str, Path]:
    out = {"arbitro.cli": ROOT / "cli.py"}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = ["arbitro", *path.relative_to(ROOT).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = module_files()


def _resolve(name: str) -> str | None:
    """The project module an imported name refers to (`from arbitro.adjudicator import registry` names one)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(path: Path) -> Iterator[tuple[str, bool]]:
    """(project module imported, whether the import sits inside a function)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    local: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            local.update(id(n) for n in ast.walk(node) if n is not node)
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if name.startswith("arbitro.") and (target := _resolve(name)) is not None:
                yield target, id(node) in local


def _ranked_by(module: str) -> str | None:
    prefixes = [p for p in RANKS if module == p or (p != "arbitro.adjudicator" and module.startswith(p + "."))]
    return max(prefixes, key=len) if prefixes else None


def rank(module: str) -> int:
    prefix = _ranked_by(module)
    assert prefix is not None, module
    return RANKS[prefix]


def graph() -> dict[str, set[str]]:
    return {m: {t for t, _ in imports(p) if t != m} for m, p in MODULES.items()}


def cycles(edges: dict[str, set[str]]) -> set[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan), in sorted visiting order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_module_has_a_rank() -> None:
    unranked = [m for m in MODULES if _ranked_by(m) is None]
    assert not unranked, f"give these modules a rank in RANKS: {unranked}"


def test_no_import_cycles_but_the_known_ones() -> None:
    found = cycles(graph())
    assert found - KNOWN_CYCLES == set(), f"new import cycles: {[sorted(c) for c in found - KNOWN_CYCLES]}"
    assert KNOWN_CYCLES - found == set(), f"cycles gone: remove them from KNOWN_CYCLES: {KNOWN_CYCLES - found}"


def test_imports_point_down_by_rank() -> None:
    upward = {(m, t) for m, targets in graph().items() for t in targets if rank(t) > rank(m)}
    assert upward - KNOWN_UPWARD == set(), f"upward imports: {sorted(upward - KNOWN_UPWARD)}"
    assert KNOWN_UPWARD - upward == set(), f"gone: remove them from KNOWN_UPWARD: {KNOWN_UPWARD - upward}"


def test_no_project_imports_inside_functions_but_the_known_ones() -> None:
    offenders = {str(p.relative_to(ROOT)) for p in MODULES.values() if any(local for _, local in imports(p))}
    assert offenders - KNOWN_LOCAL_IMPORTS == set(), (
        f"imports inside functions (hide a cycle; move the shared piece down or pass it in): "
        f"{sorted(offenders - KNOWN_LOCAL_IMPORTS)}")
    assert KNOWN_LOCAL_IMPORTS - offenders == set(), f"gone: remove from KNOWN_LOCAL_IMPORTS: {KNOWN_LOCAL_IMPORTS - offenders}"


def star_imports(path: Path) -> list[str]:
    """The modules `path` imports everything from (`from M import *`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.module or "." for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)]


def test_no_module_imports_everything_from_another() -> None:
    """A star import lets a later module's name silently replace an earlier one's (the kernel's attack_problem once
    replaced Caldiero's assault check through flow.py's star imports): every name is imported by name."""
    offenders = {str(p.relative_to(ROOT)): star_imports(p) for p in MODULES.values() if star_imports(p)}
    assert offenders == {}, f"star imports: {offenders}"


def test_the_star_import_finder_finds_one(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from arbitro.adjudicator.caldiero.system_procedure import *\nimport os\n")
    assert star_imports(module) == ["arbitro.adjudicator.caldiero.system_procedure"]


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {frozenset({"a", "b", "c"})}
    assert cycles({"a": {"b"}, "b": set()}) == set()
