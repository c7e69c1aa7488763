"""A venv per confluent-kafka release: confluent-kafka is an install-time axis, so another release runs
in a Python of its own (cells of ``kcompat run``, and measuring its limits), seeing kcompat through a .pth."""

from __future__ import annotations

import site
import subprocess
import sys
from pathlib import Path

from ..config import HarnessConfig
from ..errors import HarnessError

VENV_INSTALL_TIMEOUT = 600.0


def confluent_venv(release: str, config: HarnessConfig, log: Path) -> Path:
    """A venv with confluent-kafka ``release`` that sees this installation's packages behind its own.

    Its own site-packages comes first on sys.path, so its confluent_kafka wins; a
    ``.pth`` line adds this Python's site-packages (and their own .pth files, such
    as an editable install of kcompat) after it for everything else.
    """
    venv = config.cache_dir / "venvs" / f"confluent-kafka-{release}"
    python = venv / "bin" / "python"
    marker = venv / ".kcompat-ready"
    if marker.is_file():
        return python
    if config.offline:
        raise HarnessError(f"--offline: no venv for confluent-kafka {release} in the cache ({venv})")
    with log.open("ab") as out:
        try:
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], stdout=out, stderr=out, check=True,
                           timeout=120)
            subprocess.run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "--quiet",
                            f"confluent-kafka=={release}"], stdout=out, stderr=out, check=True,
                           timeout=VENV_INSTALL_TIMEOUT)
        except (OSError, subprocess.SubprocessError) as exc:
            raise HarnessError(f"could not install confluent-kafka {release} into {venv} ({exc})", log=log) from exc
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    ours = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (Path(purelib) / "kcompat-host.pth").write_text(
        "import site; " + "; ".join(f"site.addsitedir({p!r})" for p in ours) + "\n")
    marker.write_text(release + "\n")
    return python
