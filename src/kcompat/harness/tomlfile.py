"""Reading a TOML file a user wrote (a claim book, a qualify profile, a known-deviations list): every way
it can be unreadable is one line naming the file, and the line where TOML says it broke."""

from __future__ import annotations

import re
import stat
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAX_BYTES = 4 << 20
"""A claim book's file or a profile is kilobytes; more is not one (and is never read whole)."""
_AT_LINE = re.compile(r" \(at line (\d+), column \d+\)")


def read_toml(path: Path, error: Callable[[str], Exception], what: str) -> tuple[str, dict[str, Any]]:
    """The file's text and its TOML; else ``error("FILE[:LINE]: why")`` is raised (``what`` names the kind of
    file in the deep-nesting message: tomllib recurses, so a crafted file would otherwise be a traceback)."""
    try:
        mode = path.stat()
        if stat.S_ISREG(mode.st_mode) and mode.st_size > MAX_BYTES:
            raise error(f"{path}: {mode.st_size} bytes is too big to be {what} (at most {MAX_BYTES})")
        if not stat.S_ISREG(mode.st_mode) and not stat.S_ISDIR(mode.st_mode):  # /dev/zero or a FIFO never ends
            raise error(f"{path}: not a regular file (a device, a pipe or a socket)")
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 (byte {exc.start})") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = _AT_LINE.search(str(exc))
        raise error(f"{path}:{at.group(1) if at else 1}: not valid TOML: {_AT_LINE.sub('', str(exc))}") from None
    except RecursionError:
        raise error(f"{path}: nested too deeply to be {what}") from None
