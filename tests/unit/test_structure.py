"""Keeps the layers pointing one way and the import names resolving to this repository."""

import ast
import importlib
from pathlib import Path

import pytest

import harness
from harness.providers import PROVIDERS

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("package", ["harness", "fixtures", "reports", "scenarios"])
def test_import_names_resolve_to_this_repository(package: str) -> None:
    module = importlib.import_module(package)
    assert Path(module.__file__ or "").resolve().is_relative_to(ROOT / package)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_harness_imports_none_of_the_layers_above_it() -> None:
    for path in (ROOT / "harness").rglob("*.py"):
        assert not _imports(path) & {"fixtures", "scenarios", "reports", "pytest"}, path


def test_reports_never_import_pytest_or_a_kafka_client() -> None:
    for path in (ROOT / "reports").rglob("*.py"):
        assert not _imports(path) & {"pytest", "fixtures", "scenarios", "confluent_kafka"}, path


def test_every_provider_module_is_registered() -> None:
    modules = {p.stem for p in (ROOT / "harness" / "providers").glob("*.py")} - {"__init__", "base", "cluster"}
    assert modules == set(PROVIDERS)


def test_public_surface_is_importable() -> None:
    for name in harness.__all__:
        assert getattr(harness, name) is not None


def test_one_module_imports_confluent_kafka() -> None:
    importers = {p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.py")
                 if ".venv" not in p.parts and ".tox" not in p.parts and "confluent_kafka" in _imports(p)}
    assert importers == {"harness/clients/confluent.py"}


def test_the_sidecar_source_ships_with_the_package() -> None:
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["harness"]
    shipped = {path for pattern in patterns for path in ROOT.joinpath("harness").glob(pattern)}
    sources = set(ROOT.joinpath("harness", "clients", "sidecar").rglob("*.java"))
    assert sources and sources <= shipped, sorted(str(p) for p in sources - shipped)


def _importers(*names: str) -> set[str]:
    return {p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.py")
            if not {".venv", ".tox", "tests", "bench"} & set(p.parts) and _imports(p) & set(names)}


def test_docker_is_reached_through_three_modules_and_testcontainers_through_one() -> None:
    """The engine, the image builder and the container provider (its watchdog goes through the engine)."""
    assert _importers("docker") == {"harness/engine.py", "harness/images.py", "harness/providers/container.py"}
    assert _importers("testcontainers") == {"harness/providers/container.py"}


def test_providers_docker_folder_and_docs_stay_in_step() -> None:
    from harness.images import DOCKERFILE

    readme = (ROOT / "README.md").read_text()
    for name in PROVIDERS:
        assert f"--provider {name}" in readme or f"provider {name}" in readme, name
    assert DOCKERFILE.parent == ROOT / "docker" and DOCKERFILE.is_file()
    assert DOCKERFILE.name in (ROOT / "docker" / "README.md").read_text()


def test_records_import_only_the_standard_library() -> None:
    """Reports, the Spark job and users' tools read records anywhere: no kio, pytest or client."""
    import sys

    assert _imports(ROOT / "harness" / "records.py") <= set(sys.stdlib_module_names) | {"__future__"}


def test_scenarios_import_fixtures_and_harness_only() -> None:
    for path in (ROOT / "scenarios").rglob("*.py"):
        assert _imports(path) <= {"__future__", "typing", "fixtures", "harness", "collections"}, path


def test_every_probe_a_claim_can_name_is_implemented() -> None:
    import importlib

    from harness.matrix.observables import PROBES as DECLARED

    implemented = importlib.import_module("scenarios.probes").PROBES
    assert set(implemented) == set(DECLARED)
