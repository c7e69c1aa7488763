"""kafka-python from PyPI, one venv per release under the cache, running ``adapter/kcompat_kafka_python.py``.

pip installs ``kafka-python==<release>`` into a venv made by this Python's ``venv`` module, checking each
file against the hash PyPI's index gives; the venv holds nothing of kcompat (the adapter imports only the
standard library and ``kafka``), and its Python runs the adapter isolated (``-I``: no PYTHONPATH, no user site,
not the adapter's folder).  The adapter drives KafkaAdminClient as 3.0 rewrote it (dict results, ``raise_errors``,
``config_filter``) and as it was before (objects in, raw responses out), telling them apart by each method's
parameters; a method a release lacks is an operation it lacks.  Releases before 1.4.4, which has no
KafkaAdminClient, are refused by name.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ....config import HarnessConfig
from ....errors import ConfigError
from ....versions import KafkaVersion
from ... import installing

LIBRARY = "kafka-python"
ADAPTER = Path(__file__).resolve().parent / "adapter" / "kcompat_kafka_python.py"
OLDEST = "1.4.4"
"""The first release with a KafkaAdminClient."""
VENV_TIMEOUT = 120.0
PIP_TIMEOUT = 600.0


def _pip_index() -> list[str]:
    listing = installing.tool_output([sys.executable, "-m", "pip", "index", "versions", LIBRARY,
                                      "--disable-pip-version-check"], f"pip index versions {LIBRARY}")
    found = re.search(r"^Available versions: (.+)$", listing, re.M)
    return found.group(1).split(", ") if found else []


def published(config: HarnessConfig) -> tuple[str, ...]:
    """The kafka-python releases PyPI publishes, oldest first (cached; ``pip index versions`` when none is)."""
    return installing.published(config, LIBRARY, _pip_index)


def check_release(release: str, config: HarnessConfig) -> str:
    """``release`` if PyPI publishes it and the adapter drives it; else one line saying which to name."""
    installing.check_published(release, config, LIBRARY, _pip_index)
    if KafkaVersion.parse(release) < KafkaVersion.parse(OLDEST):
        raise ConfigError(f"kafka-python has a KafkaAdminClient from {OLDEST} on; kafka-python {release} is older: "
                          f"name {OLDEST} or newer")
    return release


def install(release: str, config: HarnessConfig) -> tuple[list[str], dict[str, str]]:
    """argv and extra environment that start the adapter on kafka-python ``release`` (installed once)."""
    check_release(release, config)

    def make(venv: Path, log: Path) -> None:
        try:
            import ensurepip  # noqa: F401  (a Debian Python without python3-venv lacks it)
        except ImportError:
            raise ConfigError(f"{sys.executable} can't make venvs (no ensurepip): install python3-venv "
                              f"(apt-get install python{sys.version_info.major}.{sys.version_info.minor}-venv)") from None
        installing.run_tool([sys.executable, "-m", "venv", str(venv)], cwd=None, log=log, timeout=VENV_TIMEOUT,
                            what=f"making the venv of kafka-python {release}")
        installing.run_tool([str(venv / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check",
                             "--no-input", "--quiet", f"{LIBRARY}=={release}"], cwd=None, log=log,
                            timeout=PIP_TIMEOUT, what=f"pip install {LIBRARY}=={release}")

    venv = installing.install_once(config, LIBRARY, release, VENV_TIMEOUT + PIP_TIMEOUT, make)
    return [str(venv / "bin" / "python"), "-I", str(ADAPTER)], {}
