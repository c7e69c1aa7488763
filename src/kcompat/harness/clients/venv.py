"""A venv per confluent-kafka release: confluent-kafka is an install-time axis, so another release runs
in a Python of its own (cells of ``kcompat run``, and measuring its limits), seeing kcompat through a .pth."""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
from pathlib import Path

from ..central import nearest_releases
from ..config import HarnessConfig
from ..errors import ConfigError, HarnessError
from ..locking import exclusive
from ..progress import report
from ..versions import KafkaVersion

VENV_INSTALL_TIMEOUT = 600.0
INDEX_TIMEOUT = 60.0
"""Seconds pip may take to list PyPI's releases of confluent-kafka."""


def published_confluent() -> list[KafkaVersion] | None:
    """The confluent-kafka releases PyPI publishes, oldest first (``pip index versions``); None when PyPI
    can't be asked (offline, or pip's answer unreadable): the install then says what went wrong."""
    try:
        done = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "confluent-kafka",
                               "--disable-pip-version-check"], capture_output=True, text=True, timeout=INDEX_TIMEOUT,
                              check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    listed = re.search(r"^Available versions: (.+)$", done.stdout, re.M)
    if done.returncode != 0 or listed is None:
        return None
    return sorted(KafkaVersion.parse(v) for v in listed.group(1).split(", ") if re.fullmatch(r"\d+(\.\d+)+", v))


def check_confluent_release(release: str, config: HarnessConfig) -> str:
    """``release`` if PyPI publishes confluent-kafka at it (or a venv for it is cached, or PyPI can't be asked);
    else a one-line ``ConfigError`` naming the nearest releases, before anything boots."""
    if config.offline or (config.cache_dir / "venvs" / f"confluent-kafka-{release}" / ".kcompat-ready").is_file():
        return release
    published = published_confluent()
    if published is None:
        return release
    if KafkaVersion.parse(release) not in published:
        near = ", ".join(map(str, nearest_releases(release, published))) or "none"
        raise ConfigError(f"PyPI publishes no confluent-kafka {release}; nearest releases: {near}")
    if not _has_wheel(release):
        newer = [str(v) for v in published if v > KafkaVersion.parse(release)][:WHEEL_PROBES]
        near = ", ".join([v for v in newer if _has_wheel(v)][:2]) or "none"
        python = f"{sys.version_info.major}.{sys.version_info.minor}"
        raise ConfigError(f"confluent-kafka {release} can't be installed here: PyPI has no wheel of it for Python "
                          f"{python}, and the librdkafka a build from source needs is on no registry; nearest "
                          f"installable releases: {near}")
    return release


WHEEL_PROBES = 8
"""Releases above one without a wheel asked about, for the nearest installable ones."""


def _has_wheel(release: str) -> bool:
    """Whether pip finds a wheel of confluent-kafka ``release`` for this Python (a dry run, nothing installed);
    True when pip can't be asked (the install then says what went wrong)."""
    try:
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--only-binary=:all:", "--no-deps",
                               "--ignore-installed", "--quiet", "--disable-pip-version-check",
                               f"confluent-kafka=={release}"], capture_output=True, text=True, timeout=INDEX_TIMEOUT,
                              check=False)
    except (OSError, subprocess.SubprocessError):
        return True
    return done.returncode == 0 or "No matching distribution" not in done.stderr


def confluent_venv(release: str, config: HarnessConfig, log: Path) -> Path:
    """A venv with confluent-kafka ``release`` that sees this installation's packages behind its own.

    Its own site-packages comes first on sys.path, so its confluent_kafka wins; a
    ``.pth`` line adds the site-packages the starting kcompat names in ``HOST_SITE``
    (``host_env``), and their own .pth files such as an editable install, after it for
    everything else.  The venv is shared by every kcompat installation on the machine:
    it names none of them, so a checkout removed after making it leaves it working.
    """
    venv = config.cache_dir / "venvs" / f"confluent-kafka-{release}"
    python = venv / "bin" / "python"
    marker = venv / ".kcompat-ready"
    if _ready(marker):
        return python
    if config.offline:
        raise HarnessError(f"--offline: no venv for confluent-kafka {release} in the cache ({venv})")
    with exclusive(venv, timeout=VENV_INSTALL_TIMEOUT + 180, waiting_for=f"to make the venv of confluent-kafka "
                                                                         f"{release}"):
        if not _ready(marker):  # made (or relinked) by the process we waited for
            if marker.is_file():  # made by an older kcompat, its .pth naming the installation that made it
                _link(python, marker, release)
            else:
                _make(release, venv, config, log)
    return python


HOST_SITE = "KCOMPAT_HOST_SITE"
"""The environment variable a venv's .pth reads: the starting kcompat's site-packages (``os.pathsep``-separated)."""
_PTH = ("import os, site; list(map(site.addsitedir, filter(None, os.environ.get('" + HOST_SITE
        + "', '').split(os.pathsep))))\n")
"""One line, run by ``site`` with exec in a function's scope (a comprehension there could not see ``site``)."""
_LINK = "host-site-env 2"
"""The marker's second line: the venv's .pth reads ``HOST_SITE`` (markers without it name their maker's path)."""


def host_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a child on a confluent venv's Python: ``base`` (default ours) plus ``HOST_SITE``."""
    ours = [p for p in site.getsitepackages() if Path(p).is_dir()]
    return {**(dict(os.environ) if base is None else base), HOST_SITE: os.pathsep.join(ours)}


def _ready(marker: Path) -> bool:
    try:
        return marker.read_text().splitlines()[1:2] == [_LINK]
    except OSError:
        return False


def _link(python: Path, marker: Path, release: str) -> None:
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    (Path(purelib) / "kcompat-host.pth").write_text(_PTH)
    marker.write_text(f"{release}\n{_LINK}\n")


def _make(release: str, venv: Path, config: HarnessConfig, log: Path) -> None:
    python, marker = venv / "bin" / "python", venv / ".kcompat-ready"
    venv.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as out:
        try:
            report("making the venv (1/2)", log=log)
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], stdout=out, stderr=out, check=True,
                           timeout=120)
            report(f"pip install confluent-kafka=={release} (2/2)")
            subprocess.run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "--quiet",
                            f"confluent-kafka=={release}"], stdout=out, stderr=out, check=True,
                           timeout=VENV_INSTALL_TIMEOUT)
        except (OSError, subprocess.SubprocessError) as exc:
            shutil.rmtree(venv, ignore_errors=True)  # a half-made venv is never mistaken for one
            check_confluent_release(release, config)  # not published: say so, with the nearest releases
            raise HarnessError(f"could not install confluent-kafka {release} into {venv} ({exc})", log=log) from exc
    _link(python, marker, release)
