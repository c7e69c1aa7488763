"""What adapter installers share: their registry's list of releases (cached), the one-line refusal of a release
it does not publish, and an install made once per release under the cache, safely when xdist workers race.

A kind's ``install.py`` (``src/kcompat/harness/clients/kinds/<kind>/install.py``) gives the registry's own tool that
lists releases (``pip index versions``, ``npm view``) and the one that installs; this module keeps the list
in ``<cache>/adapters/<library>-releases.json``, asked again only when it lacks the release asked for (never
``--offline``), and builds an install in a directory of its own that becomes ``<cache>/adapters/<library>-
<release>`` only when complete: a half-made install is never taken for one.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..config import HarnessConfig
from ..errors import ConfigError, HarnessError
from ..locking import exclusive
from ..progress import report
from ..versions import KafkaVersion
from .adapter import check_published as check_listed

LISTING_MAX_AGE = 86400.0
"""Seconds a cached listing of releases is trusted before the registry is asked again (online)."""
LIST_TIMEOUT = 60.0
"""Seconds a registry's tool may take to list a library's releases."""
READY = ".kcompat-ready"

Fetch = Callable[[], Sequence[str]]
"""Asks the registry (its own client) for every release of the library; raises ``HarnessError`` if it can't."""


def plain_releases(names: Sequence[str]) -> tuple[str, ...]:
    """Releases with a plain numeric version (no betas, no release candidates), oldest first."""
    plain = [n for n in names if re.fullmatch(r"\d+(\.\d+)+", n)]
    return tuple(sorted(plain, key=KafkaVersion.parse))


def _listing(config: HarnessConfig, library: str) -> Path:
    return config.cache_dir / "adapters" / f"{library}-releases.json"


def _cached(path: Path) -> tuple[str, ...] | None:
    try:
        names = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        return plain_releases(names)
    return None


def published(config: HarnessConfig, library: str, fetch: Fetch, *, refresh: bool = False) -> tuple[str, ...]:
    """The releases the registry publishes: the cached list, or (``refresh``, none cached or one a day old,
    online) a fresh one, cached.  Offline without a list: empty.  A registry that can't be asked while a list
    is cached: that list; with none cached, the one-line ``HarnessError`` of ``fetch``."""
    path = _listing(config, library)
    cached = _cached(path)
    try:
        stale = time.time() - path.stat().st_mtime > LISTING_MAX_AGE
    except OSError:
        stale = True
    if config.offline or (cached is not None and not refresh and not stale):
        return cached or ()
    try:
        fresh = plain_releases(fetch())
    except HarnessError:
        if cached is None:
            raise
        return cached
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.write_text(json.dumps(list(fresh)))
    partial.replace(path)
    return fresh


def check_published(release: str, config: HarnessConfig, library: str, fetch: Fetch) -> str:
    """``release`` if the registry publishes it (or it is installed already); else a one-line ``ConfigError``
    naming the nearest published releases."""
    if (install_dir(config, library, release) / READY).is_file():
        return release
    if not re.fullmatch(r"\d+(\.\d+)+", release):
        raise ConfigError(f"{library} {release!r} is not a release number (e.g. 1.2.3)")
    listed_before = _listing(config, library).is_file()
    found = published(config, library, fetch)
    if release not in found and listed_before and not config.offline:  # a list cached before that release
        found = published(config, library, fetch, refresh=True)
    if not found:  # offline without a list: the install says what is missing
        return release
    return check_listed(library, release, found)


def install_dir(config: HarnessConfig, library: str, release: str) -> Path:
    return config.cache_dir / "adapters" / f"{library}-{release}"


def install_once(config: HarnessConfig, library: str, release: str, timeout: float,
                 make: Callable[[Path, Path], None]) -> Path:
    """``<cache>/adapters/<library>-<release>``, made once by ``make(directory, log)`` in a directory of its own
    and moved into place when complete; a second call (or a second xdist worker, after waiting) finds it."""
    target = install_dir(config, library, release)
    if (target / READY).is_file():
        return target
    if config.offline:
        raise HarnessError(f"--offline: {library} {release} is not installed in the cache ({target})")
    target.parent.mkdir(parents=True, exist_ok=True)
    with exclusive(target, timeout=timeout + 120, waiting_for=f"to install {library} {release}"):
        if (target / READY).is_file():  # installed by the process we waited for
            return target
        building = target.with_name(f"{target.name}.partial")
        shutil.rmtree(building, ignore_errors=True)
        shutil.rmtree(target, ignore_errors=True)  # one without its marker was never finished
        building.mkdir(parents=True)
        log = target.with_name(f"{target.name}.install.log")
        try:
            make(building, log)
        except BaseException:
            shutil.rmtree(building, ignore_errors=True)
            raise
        (building / READY).write_text(f"{library} {release}\n")
        building.rename(target)
    return target


def run_tool(argv: list[str], *, cwd: Path | None, log: Path, timeout: float, what: str,
             env: dict[str, str] | None = None) -> None:
    """One step of an install, its output appended to ``log``; a failure or a timeout is one line naming it."""
    report(what, log=log)
    with log.open("ab") as out:
        out.write(f"$ {' '.join(argv)}\n".encode())
        out.flush()
        try:
            subprocess.run(argv, cwd=cwd, stdout=out, stderr=out, stdin=subprocess.DEVNULL, check=True,
                           timeout=timeout, env=env)
        except subprocess.TimeoutExpired as exc:
            raise HarnessError(f"{what} took more than {timeout:.0f}s", log=log) from exc
        except (OSError, subprocess.CalledProcessError) as exc:
            raise HarnessError(f"{what} failed ({exc})", log=log) from exc


def tool_output(argv: list[str], what: str, *, env: dict[str, str] | None = None) -> str:
    """A registry tool's standard output (a listing), bounded; a failure is one line naming it."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=LIST_TIMEOUT, check=False,
                              stdin=subprocess.DEVNULL, env=env)
    except subprocess.TimeoutExpired as exc:
        raise HarnessError(f"{what} took more than {LIST_TIMEOUT:.0f}s") from exc
    except OSError as exc:
        raise HarnessError(f"{what} could not run ({exc})") from exc
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise HarnessError(f"{what} failed: {last}")
    return done.stdout
