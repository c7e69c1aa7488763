"""kcompat installed as users install it: a wheel in a fresh venv, away from this checkout.

An editable install reads every file from the repository, so it can't show a
file missing from the package.  This builds the wheel, installs it (its
dependencies from PyPI) into a new venv and runs the console script from
outside the checkout: the catalog listing and the image build plan, which
reads the Dockerfile from the installed package (no engine needed).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from kcompat.harness import ClusterSpec, HarnessConfig, load_catalog
from kcompat.harness.artifacts import ArtifactStore

ROOT = Path(__file__).resolve().parents[2]
VERSION = "3.9"


def _run(command: list[str], *, timeout: float, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{command[:3]} exited {done.returncode}: {done.stderr[-1500:]}"
    return done.stdout


@pytest.fixture(scope="module")
def installed() -> Iterator[Path]:
    """A venv with the wheel built from this checkout installed; removed afterwards."""
    work = Path(tempfile.mkdtemp(prefix="kcompat-wheel-"))
    try:
        # Built from a copy: an in-tree build would leave build/ and *.egg-info in the checkout.
        shutil.copytree(ROOT, work / "src", ignore=shutil.ignore_patterns(
            ".git", ".venv", ".tox", "build", "*.egg-info", "__pycache__", ".mypy_cache", ".kcompat"))
        built = subprocess.run([sys.executable, "-m", "pip", "wheel", str(work / "src"), "--no-deps", "-w",
                                str(work / "dist"), "-v"], cwd=work, capture_output=True, text=True, timeout=300)
        assert built.returncode == 0, built.stderr[-1500:]
        # an ordinary src layout: setuptools has nothing to warn about (a flat layout's "Please be careful with
        # folders in your working directory with the same name as your package")
        assert "careful" not in built.stdout + built.stderr, (built.stdout + built.stderr)[-1500:]
        (wheel,) = (work / "dist").glob("kcompat-*.whl")
        names = zipfile.ZipFile(wheel).namelist()
        assert "kcompat/harness/containers/broker.Dockerfile" in names
        # the KIP-108 claims' policy plug-in is compiled from its source at run time
        assert "kcompat/fixtures/plugins/create_topic_policy/kcompat/plugins/RejectPrefixPolicy.java" in names
        # one top-level name: nothing of kcompat can shadow (or be shadowed by) PyPI's fixtures, reports, ...
        assert {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")} == {"kcompat"}
        _run([sys.executable, "-m", "venv", str(work / "venv")], timeout=120, cwd=work)
        _run([str(work / "venv" / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
              str(wheel)], timeout=600, cwd=work)
        yield work / "venv"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _env(config: HarnessConfig, home: Path) -> dict[str, str]:
    """No trace of the checkout (PYTHONPATH), the test run's cache and run root, offline."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("KCOMPAT_", "PYTHON"))}
    return {**env, "KCOMPAT_CACHE_DIR": str(config.cache_dir), "KCOMPAT_RUN_ROOT": str(home / "runs"),
            "KCOMPAT_OFFLINE": "1"}


def test_the_installed_package_is_not_this_checkout(installed: Path) -> None:
    out = _run([str(installed / "bin" / "python"), "-c",
                "import kcompat.harness.containers.images as i; print(i.__file__); print(i.DOCKERFILE.is_file())"],
               timeout=60, cwd=installed)
    where, found = out.split()
    assert Path(where).is_relative_to(installed) and found == "True"


def test_brokers_list_runs_from_the_wheel(installed: Path, kc_config: HarnessConfig) -> None:
    out = _run([str(installed / "bin" / "kcompat"), "brokers", "list", "--json"], timeout=60, cwd=installed,
               env=_env(kc_config, installed.parent))
    assert [json.loads(line)["newest"] for line in out.splitlines()] == [str(line.newest) for line in load_catalog()]


def test_the_image_build_plan_reads_the_packaged_dockerfile(installed: Path, kc_config: HarnessConfig) -> None:
    release = ClusterSpec.of(VERSION).release
    ArtifactStore(kc_config).resolve(release)  # the plan runs offline on the test run's cache
    out = _run([str(installed / "bin" / "kcompat"), "images", "build", "--plan", "--json", VERSION], timeout=120,
               cwd=installed, env={**_env(kc_config, installed.parent), "DOCKER_HOST": "unix:///nonexistent.sock"})
    plan = json.loads(out.splitlines()[-1])
    assert plan["version"] == str(release.version) and plan["built"] and plan["jars"] > 0
    assert Path(plan["dockerfile"]).is_relative_to(installed) and plan["dockerfile"].endswith("broker.Dockerfile")
    assert plan["base"].startswith("kcompat/jre:") and plan["image"] is None  # no engine: the base id is unknown
