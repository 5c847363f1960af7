"""rev-f (e228a74): Arrivano's options offered are options.json's keys, so a user's folder naming an optional rule no
code implements offers it and a game is created with it, played as if it were absent (a stub the players cannot
see). Before, IMPLEMENTED_OPTIONS kept such a name from being offered. The folder must be refused at load instead
(file, JSON path, "no rule of this build implements it"), or the option not offered."""

from __future__ import annotations

import json

from arbitro.adjudicator.datafiles import DataError
from tests.arrivano.harness import RULESET


def test_an_option_no_code_implements_is_not_offered() -> None:
    files = RULESET.read_data(RULESET.folder.folder)
    name = next(k for k in files if k.endswith("options.json"))
    raw = json.loads(files[name])
    raw["options"]["ritirata_notturna"] = {"title": "Night retreat", "rule": "arrivano §16.9",
                                           "summary": "implemented nowhere", "scenario_rules": []}
    files[name] = json.dumps(raw)
    try:
        RULESET.folder.from_files(files)
    except DataError as e:
        assert any("ritirata_notturna" in str(p) for p in e.problems)
        return
    with RULESET.using_data(files):
        offered = {k: v.options for k, v in RULESET.scenarios().items()}
    assert all("ritirata_notturna" not in o for o in offered.values()), offered
