"""Adding a client kind, an admin operation or a probe touches no central file.

A kind is one package ``src/kcompat/harness/clients/kinds/<kind>/`` (plus the adapter
modules its ``modules`` names); an operation is one folder
``src/kcompat/harness/operations/<operation>/``: its spec in ``__init__.py``, one
implementation module per kind named after the kind (``wire.py``; a by-name
runner, the sidecar's or an adapter's, may stand in for it), its probes
(``probe.py``, ``probe_<name>.py``) and, for the Java sidecar, the class under
``ops/`` its spec names.  The first tests build them in a copy of the harness and show the
registries find them with every existing file unchanged; the others keep
anything outside a kind's own modules from branching on its name again.
"""

from __future__ import annotations

import ast
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kcompat.harness import ConfigError, HarnessConfig
from kcompat.harness.clients import ClientRef, kind, kind_names
from kcompat.harness.clients.kinds import registry
from kcompat.harness.matrix.probes import registry as probe_registry
from kcompat.harness.operations import NoImplementation, operations, perform

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "kcompat"
KINDS = SRC / "harness" / "clients" / "kinds"

NEW_KIND = '''
"""A kind made by the test: a client that answers list_topics with nothing."""
from kcompat.harness.clients.base import AdminResult, ClientLimits
from kcompat.harness.clients.kinds import ClientKind, Refusal


class NoneClient:
    kind, version = "nonekind", "1.0"

    def close(self) -> None:
        pass


KIND = ClientKind(
    name="nonekind", order=5, library="none-lib", release="required", release_note="name a release",
    make=lambda endpoint, config, release, run_id, settings: NoneClient(),  # type: ignore[arg-type,return-value]
    limits=lambda client, config: ClientLimits("nonekind", client.version, {"Metadata": 1}),
    modules=(), refusal=Refusal(exceptions=("NoneRefused",)))
'''
NEW_KIND_OPERATION = '''
from kcompat.harness.clients.base import AdminResult
from kcompat.harness.clients.kinds.nonekind import NoneClient
from kcompat.harness.operations.list_topics import LIST_TOPICS, ListTopicsArgs


@LIST_TOPICS.implement(NoneClient)
def list_topics(client: NoneClient, args: ListTopicsArgs, version: int | None) -> AdminResult:
    return AdminResult("list_topics", client.kind, client.version, 0)
'''
NEW_OPERATION = '''
"""An operation made by the test."""
from dataclasses import dataclass

from kcompat.harness.operations import Operation


@dataclass(frozen=True)
class ExampleClusterArgs:
    include_authorized_operations: bool = False


EXAMPLE_CLUSTER = Operation("example_cluster", ExampleClusterArgs, "DescribeCluster", "the cluster",
                            lambda topic: (ExampleClusterArgs(),), java_class="ExampleCluster")
'''
NEW_OPERATION_FOR_WIRE = '''
from kcompat.harness.clients.base import AdminResult
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.operations.example_cluster import EXAMPLE_CLUSTER, ExampleClusterArgs


@EXAMPLE_CLUSTER.implement(WireClient)
def example_cluster(client: WireClient, args: ExampleClusterArgs, version: int | None) -> AdminResult:
    return AdminResult("example_cluster", client.kind, client.version, version)
'''
CHECK = '''
import json
from kcompat.harness.clients import ClientRef, Endpoint, client_for, kind_names
from kcompat.harness.clients.kinds import kind_rank
from kcompat.harness.clients.limits import limits_of
from kcompat.harness.config import HarnessConfig
from kcompat.harness.matrix.claims import CLIENT_KINDS
from kcompat.harness.matrix.verdict import refusal_observed
from kcompat.harness.matrix.probes import implementation
from kcompat.harness.operations import NoImplementation, operations, perform
from kcompat.harness.operations.example_cluster import EXAMPLE_CLUSTER, ExampleClusterArgs
from kcompat.harness.operations.list_topics import LIST_TOPICS, ListTopicsArgs

config = HarnessConfig.resolve(cache_dir=CACHE)
client = client_for("nonekind:1.0", Endpoint("127.0.0.1:9"), config)
try:
    perform(client, EXAMPLE_CLUSTER, ExampleClusterArgs())
    unimplemented = None
except NoImplementation as exc:
    unimplemented = str(exc)
wire = client_for("wire", Endpoint("127.0.0.1:9"), config)
print(json.dumps({
    "kinds": list(kind_names()), "claims_kinds": list(CLIENT_KINDS), "rank": kind_rank("nonekind"),
    "ref": str(ClientRef.parse("nonekind:1.0")),
    "listed": perform(client, LIST_TOPICS, ListTopicsArgs()).client,
    "limits": dict(limits_of(client, ClientRef.parse("nonekind:1.0"), config).newest),
    "refused": refusal_observed({"exception": "NoneRefused"}, "nonekind"),
    "operations": sorted(operations()),
    "wire_cluster": perform(wire, EXAMPLE_CLUSTER, ExampleClusterArgs(), version=3).request_version,
    "unimplemented": unimplemented,
    "example_probe": implementation("example_cluster").__name__,
}))
'''
NEW_OPERATION_PROBE = '''
from typing import Any

from kcompat.harness.matrix.probe import ProbeContext
from kcompat.harness.matrix.probes import ProbeSpec, probe
from kcompat.harness.operations.example_cluster import EXAMPLE_CLUSTER, ExampleClusterArgs


@probe(ProbeSpec("example_cluster", frozenset({"exception"}), {}, about="the example's call"))
def example_cluster(ctx: ProbeContext) -> dict[str, Any]:
    return {"exception": ctx.call(EXAMPLE_CLUSTER, ExampleClusterArgs()).exception}
'''


def _source_files(root: Path) -> dict[str, Path]:
    return {p.relative_to(root).as_posix(): p for p in root.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def _with_new_files(tmp_path: Path, added: dict[str, str], check: str) -> subprocess.CompletedProcess[str]:
    """Runs ``check`` against a copy of src/kcompat/harness/ with ``added`` (path -> text) written into it, after showing
    the copy differs from src/kcompat/harness/ by those new files only."""
    copy = tmp_path / "kcompat" / "harness"
    shutil.copytree(SRC / "harness", copy, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "kcompat" / "__init__.py").write_text("")
    for layer in ("fixtures", "reports", "scenarios"):
        (tmp_path / "kcompat" / layer).symlink_to(ROOT / layer)
    for path, text in added.items():
        (copy / path).parent.mkdir(parents=True, exist_ok=True)
        (copy / path).write_text(textwrap.dedent(text))
    before, after = _source_files(SRC / "harness"), _source_files(copy)
    assert set(after) - set(before) == set(added)  # only new files ...
    assert all(filecmp.cmp(before[p], after[p], shallow=False) for p in before)  # ... and none changed
    script = (f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\nCACHE = {str(tmp_path / 'cache')!r}\n"
              f"import kcompat.harness\nassert kcompat.harness.__file__.startswith({str(copy)!r}), kcompat.harness.__file__\n" + check)
    return subprocess.run([sys.executable, "-P", "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": ""})


def test_a_new_kind_and_a_new_operation_are_new_files_only(tmp_path: Path) -> None:
    done = _with_new_files(tmp_path, {
        "clients/kinds/nonekind/__init__.py": NEW_KIND,
        "operations/list_topics/nonekind.py": NEW_KIND_OPERATION,
        "operations/example_cluster/__init__.py": NEW_OPERATION,
        "operations/example_cluster/wire.py": NEW_OPERATION_FOR_WIRE,
        "operations/example_cluster/probe.py": NEW_OPERATION_PROBE,
    }, CHECK)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    # in the kind's declared order (5), among the kinds there are
    assert found["kinds"] == ["wire", "nonekind", *(k for k in kind_names() if k != "wire")]
    assert found["claims_kinds"] == found["kinds"] and found["rank"] == 1
    assert found["ref"] == "nonekind:1.0" and found["listed"] == "nonekind"
    assert found["limits"] == {"Metadata": 1} and found["refused"] is True
    assert "example_cluster" in found["operations"] and found["wire_cluster"] == 3
    assert "nonekind has no implementation of example_cluster" in found["unimplemented"]
    assert found["example_probe"] == "example_cluster"  # the folder's probe.py: the probe named after it


NEW_PROBE = '''
"""A probe made by the test: how many topics the client lists."""
from __future__ import annotations

from typing import Any

from kcompat.harness.matrix.probe import ProbeContext
from kcompat.harness.matrix.probes import ProbeSpec, probe
from kcompat.harness.operations.list_topics import LIST_TOPICS, ListTopicsArgs


@probe(ProbeSpec("topic_count", frozenset({"topics", "exception"}), {"list_internal": bool},
                 about="how many topics the client's listTopics lists"))
def topic_count(ctx: ProbeContext) -> dict[str, Any]:
    result = ctx.call(LIST_TOPICS, ListTopicsArgs(bool(ctx.args.get("list_internal", True))))
    return {"topics": len(result.resources), "exception": result.exception}
'''
PROBE_CLAIMS = '''
kip = "KIP-1"
title = "t"
source = "x.md"

[[claim]]
id = "counted"
section = "s"
api = "Metadata"
versions = "0+"
probe = "topic_count"
args = { list_internal = false }

  [[claim.expect]]
  quote = "q"
  observe = { topics = { type = "int" }, exception = { null = true } }

  [[claim.fallback]]
  limited_by = ["broker", "client", "both"]
  quote = "q2"
  observe = { topics = { type = "int" } }
'''
PROBE_CHECK = '''
import json
from pathlib import Path
from kcompat.harness.matrix.claims import ClaimError, load_claims_file
from kcompat.harness.matrix.observables import PROBES
from kcompat.harness.matrix.probes import implementation
from kcompat.harness.operations.list_topics.probe_topic_count import topic_count

claims = Path(CACHE).parent / "KIP-1.toml"
claims.write_text(CLAIMS)
(claims.parent / "x.md").write_text("q. q2.")
loaded = load_claims_file(claims)
claims.write_text(CLAIMS.replace("topics = {", "topcs = {"))
try:
    load_claims_file(claims)
    typo = None
except ClaimError as exc:
    typo = str(exc)
print(json.dumps({
    "probes": sorted(PROBES), "about": PROBES["topic_count"].about,
    "implemented": implementation("topic_count") is topic_count,
    "claims": [[c.id, c.probe, dict(c.args)] for c in loaded.claims], "typo": typo,
}))
'''


def test_a_new_probe_is_one_new_file(tmp_path: Path) -> None:
    """A second probe of an operation, ``probe_<name>.py`` in its folder: its spec reaches the claim loader (a
    claim may name it and its keys, a typo is refused) and its function the cell (``implementation``), through
    the registry alone."""
    done = _with_new_files(tmp_path, {"operations/list_topics/probe_topic_count.py": NEW_PROBE},
                           f"CLAIMS = {PROBE_CLAIMS!r}\n" + PROBE_CHECK)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["probes"] == sorted([*probe_registry(), "topic_count"])
    assert found["about"] == "how many topics the client's listTopics lists" and found["implemented"] is True
    assert found["claims"] == [["KIP-1/counted", "topic_count", {"list_internal": False}]]
    assert "probe topic_count does not observe 'topcs'" in found["typo"]


def test_a_probe_module_declares_one_probe_named_after_it(tmp_path: Path) -> None:
    """File name = probe name, as for operations: a module declaring another name (or none) is one line."""
    misnamed = NEW_PROBE.replace('ProbeSpec("topic_count"', 'ProbeSpec("topics_counted"')
    done = _with_new_files(tmp_path, {"operations/list_topics/probe_topic_count.py": misnamed},
                           "from kcompat.harness.matrix.observables import PROBES\nlen(PROBES)\n")
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last == ("kcompat.harness.errors.HarnessError: src/kcompat/harness/operations/list_topics/probe_topic_count.py must "
                    "declare one probe, "
                    "named 'topic_count' (@probe(ProbeSpec('topic_count', ...))); it declares 'topics_counted'")


def test_every_probe_module_declares_its_probe() -> None:
    """Each operation folder's ``probe.py`` (the probe named after it) and ``probe_<name>.py``, and the few
    probes that call no operation (``src/kcompat/harness/matrix/probes/<name>.py``)."""
    found = {(p.stem if p.parent.name == "probes" else p.parent.name if p.stem == "probe"
              else p.stem.removeprefix("probe_")): p
             for p in [*(SRC / "harness" / "operations").glob("*/probe*.py"),
                       *(SRC / "harness" / "matrix" / "probes").glob("[!_]*.py")]}
    assert set(probe_registry()) == set(found)
    for name, declared in probe_registry().items():
        assert declared.spec.name == name and declared.observe.__name__ == name
        assert declared.observe.__module__ == ".".join(["kcompat", *found[name].relative_to(SRC).with_suffix("").parts])


def _kind_owned(path: Path) -> set[str]:
    """The kinds whose own files ``path`` is (its package under kinds/, or a module its ``modules`` names)."""
    module = ".".join(["kcompat", *path.relative_to(SRC).with_suffix("").parts])
    return {name for name, declared in registry().items()
            if path.is_relative_to(KINDS / name.replace("-", "_")) or module in declared.modules}


ALLOWED = {
    "src/kcompat/harness/records.py": "the records contract (standard library only): a java: release's cell id keeps Kafka's "
                          "release lines, docs/RECORDS.md",
}


def _kind_literals(node: ast.AST, names: set[str]) -> set[str]:
    if isinstance(node, ast.Constant) and node.value in names:
        return {str(node.value)}
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return {name for element in node.elts for name in _kind_literals(element, names)}
    return set()


def _about_a_kind(compare: ast.Compare) -> bool:
    """Whether a comparison is about a client kind (``ref.kind``, ``client_kind``): "java" is also the JVM's binary."""
    return any((isinstance(n, ast.Name) and "kind" in n.id.lower())
               or (isinstance(n, ast.Attribute) and "kind" in n.attr.lower())
               for side in (compare.left, *compare.comparators) for n in ast.walk(side))


@pytest.mark.parametrize("layer", ["harness", "fixtures", "reports", "scenarios"])
def test_nothing_outside_a_kind_branches_on_its_name(layer: str) -> None:
    """No comparison with a kind's name, no list of kinds or table keyed by them, no ``case "wire":``: ask
    ``kind(name)`` or ``kind_names()``."""
    names = set(kind_names())
    for path in sorted((SRC / layer).rglob("*.py")):
        if path.relative_to(ROOT).as_posix() in ALLOWED:
            continue
        foreign = names - _kind_owned(path)
        for node in ast.walk(ast.parse(path.read_text())):
            found: set[str] = set()
            if isinstance(node, ast.Compare) and _about_a_kind(node):
                for side in (node.left, *node.comparators):
                    found |= _kind_literals(side, foreign)
            elif isinstance(node, ast.Dict):  # a table by kind (two kinds or more: "java" alone is also a JVM)
                keyed = {k for key in node.keys if key is not None for k in _kind_literals(key, names)}
                found |= keyed & foreign if len(keyed) > 1 else set()
            elif isinstance(node, ast.Tuple | ast.List | ast.Set) and len(node.elts) > 1:  # a list of the kinds
                listed = _kind_literals(node, names)
                found |= listed & foreign if len(listed) == len(node.elts) else set()
            elif isinstance(node, ast.MatchValue):
                found |= _kind_literals(node.value, foreign)
            assert not found, f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')} branches on {sorted(found)}"


def test_every_kind_is_its_own_package_and_names_modules_that_exist() -> None:
    packages = [p.name for p in KINDS.iterdir() if (p / "__init__.py").is_file()]
    assert sorted(p.replace("_", "-") for p in packages) == sorted(kind_names())  # franz_go is franz-go
    for name, declared in registry().items():
        assert declared.name == name
        for module in declared.modules:
            assert (ROOT / "src" / Path(*module.split("."))).with_suffix(".py").is_file(), module


def test_every_kind_implements_every_operation() -> None:
    for name, declared in registry().items():
        for op in operations():
            module = SRC / "harness" / "operations" / op / f"{name.replace('-', '_')}.py"
            assert module.is_file() or declared.perform_by_name is not None, (name, op)


def test_every_operation_folder_declares_its_operation() -> None:
    folders = {p.parent.name for p in (SRC / "harness" / "operations").glob("*/__init__.py")}
    assert set(operations()) == folders
    for op in operations().values():
        assert op.samples("t"), op.name  # limits.exercise makes each one


SIDECAR_OPS = SRC / "harness" / "clients" / "sidecar" / "kcompat" / "sidecar" / "ops"
SIDECAR_SERVICE = {"ApiVersions", "Close", "Methods", "MessageRoundTrip", "SchemaRoundTrip", "Version"}
"""The sidecar's own requests (its versions, its client's methods, closing, its message classes' round trip
for the codec's tests, and the schema round trip of releases before message definitions), performing no admin
operation."""


def test_each_operation_names_its_java_class_and_the_sidecar_has_each_one() -> None:
    """The spec's ``java_class`` is a class under the sidecar's ``ops/`` (the sidecar finds it by the operation's
    name: CamelCase), and every class there performs an operation or is one of the sidecar's own requests."""
    named = {op.java_class: op.name for op in operations().values() if op.java_class}
    for java_class, name in named.items():
        assert (SIDECAR_OPS / f"{java_class}.java").is_file(), (name, java_class)
        assert java_class == "".join(part.capitalize() for part in name.split("_")), (name, java_class)
    assert {p.stem for p in SIDECAR_OPS.glob("*.java")} - SIDECAR_SERVICE == set(named)


@pytest.mark.parametrize("text", ["nosuch", "nosuch:1.0"])
def test_an_unknown_kind_is_one_line_never_another_kind(text: str) -> None:
    with pytest.raises(ConfigError, match="unknown client kind 'nosuch'") as caught:
        ClientRef.parse(text)
    assert "\n" not in str(caught.value)
    with pytest.raises(ConfigError, match="known: wire, confluent, java"):
        kind("nosuch")


def test_an_unknown_kind_has_no_limits(tmp_path: Path) -> None:
    """limits_of asks the kind; a record's kind this installation lacks is refused, not measured as confluent."""
    from kcompat.harness.clients.limits import limits_of

    class Stray:
        kind, version = "nosuch", "1.0"

    with pytest.raises(ConfigError, match="unknown client kind"):
        limits_of(Stray(), ClientRef("nosuch", "1.0"), HarnessConfig(cache_dir=tmp_path))  # type: ignore[arg-type]


def test_an_operation_a_kind_lacks_raises_no_implementation() -> None:
    """Nothing was sent: the probe's cell is ``fail``, never a finding about the client."""
    from kcompat.harness.clients.wire import WireClient
    from kcompat.harness.clients.base import Endpoint
    from kcompat.harness.operations import Operation

    lonely = Operation("lonely", dict, "Metadata", "an operation no kind implements", lambda topic: ({},))
    with pytest.raises(NoImplementation, match="wire has no implementation of lonely"):
        perform(WireClient(Endpoint("127.0.0.1:9")), lonely, {})


def test_run_json_says_what_it_said_before_per_kind() -> None:
    """run.json's ``java_clients`` and ``confluent`` (docs/RECORDS.md), now written by their kinds."""
    from kcompat.harness.clients.kinds import RunReleases

    java, confluent = kind("java").run_json, kind("confluent").run_json
    assert java is not None and confluent is not None and kind("wire").run_json is None
    assert java(RunReleases(("4.4.0", "2.3.1", "4.4.0"), ("4.4.0",))) == {"java_clients": ["2.3.1", "4.4.0"]}
    assert java(RunReleases((), (), (("4.4.0", None),))) == {}  # written once, as the run starts
    assert confluent(RunReleases((), ("2.16.1", "2.0.2", "2.16.1"))) == {
        "confluent": [{"confluent_kafka": "2.0.2"}, {"confluent_kafka": "2.16.1"}]}
    assert confluent(RunReleases((), (), (("2.16.1", "2.16.0"), ("2.16.1", "2.16.0"), ("2.0.2", None)))) == {
        "confluent": [{"confluent_kafka": "2.16.1", "librdkafka": "2.16.0"}]}


def test_only_a_measured_kind_has_a_stale_measurement() -> None:
    from kcompat.harness.matrix.limits import stale_measurement

    stale = stale_measurement(ClientRef("confluent", "2.16.1"), "2.16.1", "CreateTopics", 5, 4)
    assert stale == ("confluent-kafka 2.16.1 sent CreateTopics v5, newer than the v4 measured for it: the measurement "
                     "is stale; measure again with `kcompat clients limits confluent:2.16.1`")
    assert stale_measurement(ClientRef("confluent", "2.16.1"), "2.16.1", "CreateTopics", 4, 4) is None
    assert stale_measurement(ClientRef("java", "4.4.0"), "4.4.0", "CreateTopics", 9, 7) is None


def test_only_the_pinnable_kind_takes_a_pin_and_releases_follow_each_kind() -> None:
    assert ClientRef.parse("wire@v5").pin == 5
    for text, says in [("confluent@v5", "only wire can be pinned"), ("wire:1.0", "no release to choose"),
                       ("java", "needs a kafka-clients release")]:
        with pytest.raises(ConfigError, match=says):
            ClientRef.parse(text)


HANDLER_TABLES = (
    # (a language's sources, where its table of handlers starts, how a handler's name is written there)
    ("*.go", re.compile(r"^var (ops|operations) = map\[string\]"), re.compile(r'"([a-z0-9_]+)":')),
    ("*.py", re.compile(r"^(OPS|METHODS)\b.*= \{"), re.compile(r'"([a-z0-9_]+)":')),
    ("*.js", re.compile(r"^\s*const methods = \{"), re.compile(r"\b([a-z0-9_]+):")),
)


def _handler_names(adapter: Path) -> set[str]:
    """The operation names an adapter program's handler tables hold (each table ends at its closing brace)."""
    found: set[str] = set()
    for pattern, starts, name in HANDLER_TABLES:
        for path in adapter.glob(pattern):
            inside = False
            for line in path.read_text().splitlines():
                if starts.search(line):
                    inside, line = True, line.split("{", 1)[1]
                if inside:
                    found |= set(name.findall(line.split("}", 1)[0]))
                    inside = "}" not in line
    return found


def test_every_adapter_handler_is_named_after_a_declared_operation() -> None:
    """An adapter's handler is found by the operation's name, so a handler under another name (a typo, an
    operation renamed) would never run: each table's names are operations the registry declares."""
    adapters = sorted(p for p in KINDS.glob("*/adapter") if p.is_dir())
    assert len(adapters) == len([k for k in kind_names() if kind(k).program is not None])
    for adapter in adapters:
        names = _handler_names(adapter)
        assert names, adapter  # a table was found: the check checked something
        assert names <= set(operations()), (adapter.parent.name, sorted(names - set(operations())))
