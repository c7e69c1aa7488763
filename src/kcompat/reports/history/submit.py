"""The job on a Spark cluster: the dependency archive for ``--py-files`` and the spark-submit command.

The archive carries what executors import (the parser and the records contract) and what the
driver needs besides pyspark (click).  Its ``harness/__init__.py`` is empty on purpose: the
package's own ``__init__`` re-exports the broker machinery (packaging, platformdirs, ...), which a
reader of records never needs.
"""

from __future__ import annotations

import sys
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from . import spark as sparking

ROOT = Path(__file__).resolve().parents[2]
JOB = Path(__file__).resolve().with_name("job.py")
_HARNESS_MODULES = ("records.py", "errors.py", "versions.py", "waiting.py")
_HARNESS_INIT = '"""The records contract only (src/kcompat/reports/history/submit.py builds this archive)."""\n'


def build_archive(dest: Path) -> Path:
    """A zip of src/kcompat/reports/, harness's records contract (with the version order and the retry reports use) and
    click, for ``spark-submit --py-files``."""
    import click

    dest.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted((ROOT / "reports").rglob("*.py")):
            archive.write(path, f"kcompat/{path.relative_to(ROOT).as_posix()}")
        archive.writestr("kcompat/__init__.py", "")
        archive.writestr("kcompat/harness/__init__.py", _HARNESS_INIT)
        for name in _HARNESS_MODULES:
            archive.write(ROOT / "harness" / name, f"kcompat/harness/{name}")
        click_dir = Path(click.__file__).parent
        for path in sorted(click_dir.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                archive.write(path, f"click/{path.relative_to(click_dir).as_posix()}")
    return dest


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).parent


def command(master: str, job_args: Sequence[str], archive: Path,
            conf: Mapping[str, str] | None = None) -> list[str]:
    """``spark-submit`` of job.py with Delta's jars (cached list or ivy), the archive and loopback driver."""
    settings = {**sparking.DELTA_CONF, **sparking.jar_conf(),
                "spark.pyspark.python": sys.executable, "spark.pyspark.driver.python": sys.executable,
                "spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1",
                "spark.ui.enabled": "false", "spark.sql.shuffle.partitions": "4",
                "spark.sql.session.timeZone": "UTC", **(conf or {})}
    argv = [str(spark_home() / "bin" / "spark-submit"), "--master", master, "--py-files", str(archive)]
    for key, value in settings.items():
        argv += ["--conf", f"{key}={value}"]
    return argv + [str(JOB), *job_args]


if __name__ == "__main__":
    print(build_archive(Path(sys.argv[1] if len(sys.argv) > 1 else "kcompat-history.zip")))
