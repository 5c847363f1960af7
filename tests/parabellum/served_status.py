"""What a seat is served of some commands, for the non-interference tests of both Para Bellum games: the helpers live
in bench/served.py, which the non-interference fuzzer (bench/nifuzz.py) reads too, a tool that may not import tests/."""

from bench.served import markers_aside, served

__all__ = ["markers_aside", "served"]
