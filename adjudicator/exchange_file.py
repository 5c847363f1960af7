"""An exported file read for verification without holding its log (issue 15: "checks the chain while streaming").

`read_file` reads a file as `exchange.read_lines` does, every record checked as it is read, but keeps of each command
and full event only where its line begins (`FileRecords`, 8 bytes a record): verification reads them again from the
file as it reaches them (the chain check, the command and salt checks, re-adjudication, an undo's earlier states),
so its memory does not grow with the log. The file is held open, and read again only while it is the file first
read: one changed since (its size, time or identity) is refused, never judged half old and half new."""

from __future__ import annotations

import os
import weakref
from array import array
from hashlib import blake2b
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO, Generic, TypeVar, overload

import msgspec

from arbitro.adjudicator.errors import BadFile, not_utf8, unusable
from arbitro.adjudicator.exchange import Command, Loaded, command_entry, event_entry, read_lines
from arbitro.events.records import StoredEvent

T = TypeVar("T")
D = TypeVar("D")
_RECORD = msgspec.json.Decoder(dict[str, Any])


def read_file(path: str | Path, source: str | None = None) -> Loaded:
    """The export at `path`, its commands and full events left in the file; errors name the file and the line."""
    named = str(path) if source is None else source
    try:
        handle = open(path, "rb")  # noqa: SIM115  (read again later)
    except OSError as e:  # there (the CLI asked) but not to be read: no permission
        raise unusable(named, e, "read") from None
    lines = FileLines(handle, named)
    commands: FileRecords[Command] = FileRecords(lines, command_entry)
    return read_lines(lines.read(), lines.source, commands, FileEvents(lines))


DIGEST = 16  # bytes of blake2b kept a line


def line_digest(raw: bytes) -> bytes:
    return blake2b(raw, digest_size=DIGEST).digest()


class FileLines:
    """An open file read once line by line, noting where each begins and its digest, then read again a line at a
    time, each line checked against its digest."""

    def __init__(self, handle: BinaryIO, source: str) -> None:
        self.handle, self.source = handle, source
        self.line_at = 0  # where the line read last begins
        self.digest = b""  # and its digest
        self.raw = b""  # and the line itself (while it is the one read)
        self._opened = os.fstat(handle.fileno())  # the file as opened: what every later look must find
        _OPEN.add(self)

    def own_handle(self) -> None:
        """In a forked child, a handle of its own on the same file (not reopened by name: the file first read, even
        if renamed since). A child shares its parent's file offsets, and two processes seeking and reading the one
        offset would read each other's lines (verify_replay's workers read the events of one file at once)."""
        if self.handle.closed:
            return
        fd = self.handle.fileno()
        self.handle = open(f"/proc/self/fd/{fd}" if os.path.exists(f"/proc/self/fd/{fd}") else self.handle.name,  # noqa: SIM115
                           "rb")

    def read(self) -> Iterator[str]:
        offset = 0
        for number, raw in enumerate(self.handle, 1):
            self.line_at, self.digest, self.raw = offset, line_digest(raw), raw
            offset += len(raw)
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise not_utf8(f"{self.source}, line {number}", e, "the file may have been edited") from None
        self.raw = b""
        self.unchanged()  # changed while it was first read: what was kept of it may be half old, half new

    def unchanged(self) -> FileLines:
        """Itself, once it has checked that the file looks as it did when opened (before each read of its records):
        size, times (ctime too, which `utime` cannot put back) and identity. The cheap check; `record_at` is the
        sure one."""
        now, was = os.fstat(self.handle.fileno()), self._opened
        if (now.st_size, now.st_mtime_ns, now.st_ctime_ns, now.st_ino, now.st_dev) != (
                was.st_size, was.st_mtime_ns, was.st_ctime_ns, was.st_ino, was.st_dev):
            raise self.changed()
        return self

    def changed(self) -> BadFile:
        return BadFile(f"{self.source}: the file changed while it was being verified (its records are read from it "
                       "again as they are checked): verify it again once nothing writes to it")

    def record_at(self, offset: int, digest: bytes, decoder: msgspec.json.Decoder[Any] = _RECORD) -> Any:
        """The record on the line at `offset`, decoded by `decoder` (a JSON object unless another is given), once the
        line is found to be the one first read there (`digest`)."""
        self.handle.seek(offset)
        raw = self.handle.readline()
        if line_digest(raw) != digest:
            raise self.changed()
        try:
            return decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError):  # the same bytes decoded before: only a changed file
            raise self.changed() from None

    def entry(self, make: Callable[[dict[str, Any]], T], offset: int, digest: bytes) -> T:
        """`make` of the record at `offset`; a line that is not the record first read there is the changed file."""
        record = self.record_at(offset, digest)
        try:
            return make(record)
        except (KeyError, TypeError, ValueError, msgspec.ValidationError):  # a line of another kind or shape
            raise self.changed() from None


_OPEN: weakref.WeakSet[FileLines] = weakref.WeakSet()  # every file whose records are read again as asked


def _own_handles() -> None:
    for lines in list(_OPEN):
        lines.own_handle()


os.register_at_fork(after_in_child=_own_handles)


class FileRecords(Sequence[T], Generic[T]):
    """Records of one kind in a file, each read from its line when asked (`entry` makes it of the line's record, as
    `read_lines` did). `read_lines` gives it each one it reads (`append`), of which it keeps where its line begins
    and the line's digest."""

    forkable = True  # read in a forked child through a handle of its own (FileLines.own_handle; verify_replay)

    def __init__(self, lines: FileLines, entry: Callable[[dict[str, Any]], T]) -> None:
        self._lines, self._entry = lines, entry
        self._offsets = array("q")
        self._digests = bytearray()

    def append(self, item: T) -> None:
        self._offsets.append(self._lines.line_at)
        self._digests += self._lines.digest

    def __len__(self) -> int:
        return len(self._offsets)

    def _digest(self, i: int) -> bytes:
        return bytes(self._digests[i * DIGEST : (i + 1) * DIGEST])

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        lines = self._lines.unchanged()
        if isinstance(index, slice):
            return [self._read(lines, i) for i in range(*index.indices(len(self)))]
        i = range(len(self))[index]  # an IndexError out of range, a negative index from the end
        return self._read(lines, i)

    def __iter__(self) -> Iterator[T]:
        lines = self._lines.unchanged()
        for i in range(len(self._offsets)):
            yield self._read(lines, i)

    def _read(self, lines: FileLines, i: int) -> T:
        """The i-th record, read again from its line."""
        return lines.entry(self._entry, self._offsets[i], self._digest(i))

    def fields(self, decoder: msgspec.json.Decoder[D]) -> Iterator[D]:
        """Each line decoded by `decoder` alone (a struct of the few fields a check reads, the rest skipped): a
        check that reads no body whole need not build and re-encode it (verify_reads.Stamps, EventHashes)."""
        lines = self._lines.unchanged()
        for i, offset in enumerate(self._offsets):
            yield lines.record_at(offset, self._digest(i), decoder)


class _EventLine(msgspec.Struct):
    """An event's line as its record is read again: the body as the line writes it, not decoded."""

    seq: int
    hash: str
    body: msgspec.Raw


_EVENT_LINE = msgspec.json.Decoder(_EventLine)


class FileEvents(FileRecords[StoredEvent]):
    """A file's full events (`event_entry` of each line). Where a line writes its event's body first and as that
    body's canonical bytes (as every export writes it: `exchange` writes canonical lines), which the first read finds
    by comparing them, the body is read again as the line writes it, neither built nor encoded anew: the same bytes, the
    line being the one first read (its digest). Verification reads each event at least twice more (its chain,
    re-adjudication): building and encoding a body was most of a read (issue 15)."""

    def __init__(self, lines: FileLines) -> None:
        super().__init__(lines, event_entry)
        self._as_written = bytearray()  # 1 where the line's body is its canonical bytes

    def append(self, item: StoredEvent) -> None:
        super().append(item)
        # A line beginning with its body (the first of its sorted keys) then the next key: the value read there is
        # `item.body` exactly, a whole JSON value followed by its separator (no decoding to find it out)
        self._as_written.append(self._lines.raw.startswith(b'{"body":%b,"hash":' % item.body))

    def _read(self, lines: FileLines, i: int) -> StoredEvent:
        if not self._as_written[i]:
            return super()._read(lines, i)
        line: _EventLine = lines.record_at(self._offsets[i], self._digest(i), _EVENT_LINE)
        return StoredEvent(line.seq, bytes(line.body), line.hash)
