"""Arrivano i Francesi!'s citations by name (`R.ORDERS_PHASE`, `R.RETREAT`), used in rejections and events: data,
rulebook.json's `concepts` and `own` (rulebook: arrivano-i-francesi.it.md), read by the kernel's
parabellum/rules.read_citations and served as this module's attributes (PEP 562: a name the file lacks is an
AttributeError)."""

from __future__ import annotations

from pathlib import Path

from arbitro.adjudicator.parabellum.rules import read_citations

__getattr__ = read_citations(Path(__file__).with_name("rulebook.json")).cited
