"""The command types a submit admits (adjudicator/admission.known_type), kept per command model (issue 15)."""

from __future__ import annotations

import re

import pytest

from arbitro.adjudicator import admission, registry
from arbitro.adjudicator.admission import command_types, known_type
from arbitro.adjudicator.errors import MalformedCommand


def test_the_command_types_a_submit_checks_are_the_models_own() -> None:
    """Issue 15: `admission.known_type` keeps each command model's type tags (`_COMMAND_TYPES`) instead of walking its
    typing at every submit; for every ruleset the kept tags are the model's, asked fresh, and a type outside them is
    refused with them all."""
    for name, ruleset in registry.available().items():
        if isinstance(ruleset, str):
            continue
        fresh = command_types(ruleset.Command)
        for kind in fresh:
            known_type(ruleset, {"type": kind})
        assert admission._COMMAND_TYPES.get((ruleset.Command,), "types", list) == fresh, name
        with pytest.raises(MalformedCommand, match=re.escape(", ".join(map(repr, fresh)))):
            known_type(ruleset, {"type": "no such type"})
