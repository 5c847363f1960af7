"""Caldiero 1796's numbered conformance cases (docs/conformance/caldiero.md)."""
