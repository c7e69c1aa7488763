"""Keeps the layers pointing one way and the import names resolving to this repository.

The layering it states: ``harness`` imports none of the layers above it; the
Docker SDK is imported only under ``harness/containers/`` and testcontainers
by one module there; ``harness/containers/`` imports no provider; no module of
``harness``, ``fixtures``, ``reports`` or ``scenarios`` takes part in an import
cycle (function-level imports included);
providers are registered lazily, so importing the plugin or the CLI, or a run
with the process provider, loads neither SDK; the probes' modules (in the
operations' folders) load only when their specs are first read, and with them
no kind's implementation of an operation; the image Dockerfile ships as
package data.
"""

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kcompat import harness
from kcompat.harness.providers import PROVIDERS

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "kcompat"


@pytest.mark.parametrize("package", ["harness", "fixtures", "reports", "scenarios"])
def test_import_names_resolve_to_this_repository(package: str) -> None:
    module = importlib.import_module(f"kcompat.{package}")
    assert Path(module.__file__ or "").resolve().is_relative_to(SRC / package)


def test_the_distribution_is_one_package_in_an_ordinary_src_layout() -> None:
    """setuptools finds ``kcompat`` under src/ and nothing beside it; the package is real folders, no links
    (a link would need a path trick wherever the tree is read: mypy, ruff, pytest, a wheel)."""
    import tomllib

    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    assert found == {"where": ["src"], "include": ["kcompat*"]}
    assert [p.name for p in (ROOT / "src").iterdir() if not p.name.endswith(".egg-info")] == ["kcompat"]
    assert not [p for p in SRC.rglob("*") if p.is_symlink()]
    assert not {p.name for p in ROOT.iterdir()} & set(PACKAGES)  # no second copy of a layer beside src/


def _layer(module: str) -> str:
    """What an absolute import reaches: kcompat's layers by their folder (``kcompat.harness.x`` -> ``harness``),
    anything else by its first part."""
    parts = module.split(".")
    return parts[1] if parts[0] == "kcompat" and len(parts) > 1 else parts[0]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {_layer(alias.name) for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(_layer(node.module))
    return found


def test_harness_imports_none_of_the_layers_above_it() -> None:
    for path in (SRC / "harness").rglob("*.py"):
        assert not _imports(path) & {"fixtures", "scenarios", "reports", "pytest"}, path


def test_reports_never_import_pytest_or_a_kafka_client() -> None:
    for path in (SRC / "reports").rglob("*.py"):
        assert not _imports(path) & {"pytest", "fixtures", "scenarios", "confluent_kafka"}, path


def test_every_provider_module_is_registered() -> None:
    modules = {p.stem for p in (SRC / "harness" / "providers").glob("*.py")} - {"__init__", "base", "cluster"}
    assert modules == set(PROVIDERS)
    for name, load in PROVIDERS.items():  # file name = provider name
        factory = load()
        assert getattr(factory, "name", None) == name and factory.__module__ == f"kcompat.harness.providers.{name}"


def test_public_surface_is_importable() -> None:
    for name in harness.__all__:
        assert getattr(harness, name) is not None


def test_one_module_imports_confluent_kafka() -> None:
    importers = {p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.py")
                 if ".venv" not in p.parts and ".tox" not in p.parts and "confluent_kafka" in _imports(p)}
    assert importers == {"src/kcompat/harness/clients/confluent.py"}


def test_the_sidecar_source_ships_with_the_package() -> None:
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["kcompat.harness"]
    shipped = {path for pattern in patterns for path in SRC.joinpath("harness").glob(pattern)}
    sources = set(SRC.joinpath("harness", "clients", "sidecar").rglob("*.java"))
    assert sources and sources <= shipped, sorted(str(p) for p in sources - shipped)


def _importers(*names: str) -> set[str]:
    return {p.relative_to(SRC).as_posix() for p in SRC.rglob("*.py") if _imports(p) & set(names)}


def test_docker_is_reached_only_from_the_containers_package_and_testcontainers_from_one_module() -> None:
    """The engine client, the image builder and the per-JVM container; the provider goes through them."""
    assert _importers("docker") == {"harness/containers/engine.py", "harness/containers/images.py",
                                    "harness/containers/jvm.py"}
    assert _importers("testcontainers") == {"harness/containers/jvm.py"}


def test_the_harness_reaches_pytest_only_for_its_expression_parser_in_one_module() -> None:
    """``kcompat run`` evaluates ``-m``/``-k`` before pytest starts, with pytest's own grammar (so both select the
    same cells); nothing else of pytest's enters the harness."""
    assert _importers("_pytest") == {"harness/matrix/select.py"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(["kcompat", *(parts[:-1] if parts[-1] == "__init__" else parts)])


PACKAGES = ("harness", "fixtures", "reports", "scenarios")


def _import_graph() -> dict[str, set[str]]:
    """Module -> the project's modules it imports anywhere in its body (relative imports resolved)."""
    paths = {_module_name(p): p for package in PACKAGES for p in (SRC / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                edges |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                target = ".".join([*base, *([node.module] if node.module else [])])
                for alias in node.names:
                    edges.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in paths else target)
        graph[name] = {edge for edge in edges if edge in paths and edge != name}
    return graph


def test_no_package_has_import_cycles() -> None:
    graph = _import_graph()
    assert {module.split(".")[1] for module in graph} == set(PACKAGES)
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(module):], module]))
        if module in done:
            return
        for imported in sorted(graph[module]):
            visit(imported, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])


def test_the_containers_package_imports_no_provider() -> None:
    graph = _import_graph()
    for module, imported in graph.items():
        if module.startswith("kcompat.harness.containers"):
            assert not {m for m in imported if m.startswith(("kcompat.harness.providers", "kcompat.harness.clients", "kcompat.harness.cli"))}, module


SDKS = ("docker", "testcontainers")


def test_importing_the_plugin_and_the_cli_loads_no_container_sdk() -> None:
    """What ``python -X importtime -c "import kcompat.fixtures.plugin"`` shows on every pytest run."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import kcompat.fixtures.plugin, kcompat.harness.cli"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "kcompat.fixtures.plugin" in imported and "kcompat.harness.cli" in imported
    assert not {m for m in imported if m.split(".")[0] in SDKS}


def test_the_process_provider_loads_no_container_sdk(tmp_path: Path) -> None:
    """A CLI call and a provider's whole set-up (reaping included) with the process provider."""
    script = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from kcompat.harness import HarnessConfig\n"
        "from kcompat.harness.cli import main\n"
        "from kcompat.harness.providers import provider_for, reap_orphans\n"
        f"config = HarnessConfig.resolve(cache_dir={str(tmp_path)!r}, run_root={str(tmp_path)!r})\n"
        "assert provider_for('process', config).name == 'process'\n"
        "reap_orphans(config, ('process',))\n"
        f"assert CliRunner().invoke(main, ['--cache-dir', {str(tmp_path)!r}, 'brokers', 'list']).exit_code == 0\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {SDKS!r}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-800:]
    assert done.stdout.strip() == "[]"


def test_the_container_provider_still_loads_its_sdk() -> None:
    """The other side of laziness: asking for the container provider brings it (so reaping reaches the engine)."""
    script = ("import sys\nfrom kcompat.harness.providers import PROVIDERS\nPROVIDERS['container']()\n"
              "print('testcontainers' in sys.modules and 'docker' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "True", done.stderr[-800:]


def test_the_image_dockerfile_ships_with_the_package() -> None:
    """A non-editable install (a wheel) builds images from the file inside the package."""
    import tomllib

    from kcompat.harness.containers.images import DOCKERFILE

    assert DOCKERFILE.is_file() and DOCKERFILE.parent == SRC / "harness" / "containers"
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["kcompat.harness"]
    assert any(DOCKERFILE in SRC.joinpath("harness").glob(pattern) for pattern in patterns)
    assert not list((ROOT / "docker").glob("*Dockerfile*"))  # one definition, documented in docker/README.md


def test_providers_docker_folder_and_docs_stay_in_step() -> None:
    from kcompat.harness.containers.images import DOCKERFILE

    readme = (ROOT / "README.md").read_text()
    for name in PROVIDERS:
        assert f"--provider {name}" in readme or f"provider {name}" in readme, name
    assert DOCKERFILE.relative_to(ROOT).as_posix() in (ROOT / "docker" / "README.md").read_text()


def test_records_import_only_the_standard_library() -> None:
    """Reports, the Spark job and users' tools read records anywhere: no kio, pytest or client."""
    import sys

    assert _imports(SRC / "harness" / "records.py") <= set(sys.stdlib_module_names) | {"__future__"}


def test_scenarios_import_fixtures_and_harness_only() -> None:
    """Beyond the standard library, scenarios reach Kafka and clients only through fixtures and harness."""
    import sys

    allowed = set(sys.stdlib_module_names) | {"__future__", "fixtures", "harness"}
    for path in (SRC / "scenarios").rglob("*.py"):
        assert _imports(path) <= allowed, (path, _imports(path) - allowed)


LAZY_PROBES = """
import json, sys

def loaded():
    return sorted(m for m in sys.modules if m.startswith("kcompat.harness.matrix.probes.")
                  or m.rpartition(".")[2].startswith("probe") and m.startswith("kcompat.harness.operations."))

import kcompat.harness.matrix.claims
from kcompat.harness.matrix.observables import PROBES
from kcompat.harness.matrix.probes import modules
before = loaded()
print(json.dumps([before, sorted(PROBES), loaded(), sorted(module for _, module, _ in modules()),
                  [m for m in sys.modules if m.split(".")[0] in ("confluent_kafka", "jpype")
                   or m.rpartition(".")[2] in ("wire", "confluent") and m.startswith("kcompat.harness.operations.")]]))
"""


def test_the_claim_loader_imports_the_probes_only_when_it_reads_their_specs() -> None:
    """Loading claims.py loads no probe module (they import the claim loader back); reading the specs loads
    them all (in the operations' folders and the probes package), and still no client library nor any
    kind's implementation of an operation."""
    done = subprocess.run([sys.executable, "-c", LAZY_PROBES], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-800:]
    before, probes, after, modules, clients = json.loads(done.stdout)
    assert before == [] and probes and len(modules) == len(probes) and clients == []
    assert after == sorted([*modules, "kcompat.harness.matrix.probes._shared"])


def test_every_data_file_of_the_package_ships_in_the_wheel() -> None:
    """Each file under src/kcompat that is not Python matches a package-data pattern of its package (a claim
    document in a folder of the book, the Go kit's sources): a wheel install has what the checkout has."""
    import glob
    import tomllib

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    shipped = {path for package, globs in patterns.items() for g in globs
               for path in map(Path, glob.glob(str(ROOT / "src" / package.replace(".", "/") / g), recursive=True))}
    data = {p for p in SRC.rglob("*") if p.is_file() and p.suffix not in {".py", ".pyc"} and "__pycache__" not in p.parts}
    assert not data - shipped, sorted(str(p.relative_to(SRC)) for p in data - shipped)
