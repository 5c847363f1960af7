"""Arrivano i Francesi!'s numbered conformance cases (docs/conformance/arrivano.md)."""
