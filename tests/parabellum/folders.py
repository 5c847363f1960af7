"""A user's data folder for a Para Bellum game's tests: the shipped folder copied, one file edited as a user would
(`arbitro new GAME --data DIR`)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

Edit = Callable[[dict[str, Any]], Any]  # changes a file's JSON in place


def edited_folder(shipped: Path, tmp_path: Path, file: str, edit: Edit) -> Path:
    """`shipped` copied into `tmp_path` with `file` (relative to it) edited by `edit`."""
    shutil.copytree(shipped, tmp_path, dirs_exist_ok=True)
    path = tmp_path / file
    raw = json.loads(path.read_text(encoding="utf-8"))
    edit(raw)
    path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    return tmp_path
