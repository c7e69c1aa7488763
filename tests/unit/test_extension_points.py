"""Adding a client kind or an admin operation touches no central file.

A kind is one package ``harness/clients/kinds/<kind>/`` (plus the adapter
modules its ``modules`` names); an operation is one module
``harness/operations/<operation>.py`` plus one implementation module per kind
(``harness/clients/kinds/<kind>/<operation>.py``; a sidecar kind's by-name
runner may stand in for it) and, for the Java sidecar, one class under ``ops/``.
The first test builds both in a copy of the harness and shows the registries
find them with every existing file unchanged; the others keep anything outside a
kind's own modules from branching on its name again.
"""

from __future__ import annotations

import ast
import filecmp
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness import ConfigError, HarnessConfig
from harness.clients import ClientRef, kind, kind_names
from harness.clients.kinds import registry
from harness.operations import NoImplementation, operations, perform

ROOT = Path(__file__).resolve().parents[2]
KINDS = ROOT / "harness" / "clients" / "kinds"

NEW_KIND = '''
"""A kind made by the test: a client that answers list_topics with nothing."""
from harness.clients.base import AdminResult, ClientLimits
from harness.clients.kinds import ClientKind, Refusal


class NoneClient:
    kind, version = "nonekind", "1.0"

    def close(self) -> None:
        pass


KIND = ClientKind(
    name="nonekind", order=5, library="none-lib", release="required", release_note="name a release",
    make=lambda endpoint, config, release, run_id: NoneClient(),  # type: ignore[arg-type,return-value]
    limits=lambda client, config: ClientLimits("nonekind", client.version, {"Metadata": 1}),
    modules=(), refusal=Refusal(exceptions=("NoneRefused",)))
'''
NEW_KIND_OPERATION = '''
from harness.clients.base import AdminResult
from harness.clients.kinds.nonekind import NoneClient
from harness.operations.list_topics import LIST_TOPICS, ListTopicsArgs


@LIST_TOPICS.implement(NoneClient)
def list_topics(client: NoneClient, args: ListTopicsArgs, version: int | None) -> AdminResult:
    return AdminResult("list_topics", client.kind, client.version, 0)
'''
NEW_OPERATION = '''
"""An operation made by the test."""
from dataclasses import dataclass

from harness.operations import Operation


@dataclass(frozen=True)
class DescribeClusterArgs:
    include_authorized_operations: bool = False


DESCRIBE_CLUSTER = Operation("describe_cluster", DescribeClusterArgs, "DescribeCluster", "the cluster",
                             lambda topic: (DescribeClusterArgs(),))
'''
NEW_OPERATION_FOR_WIRE = '''
from harness.clients.base import AdminResult
from harness.clients.wire import WireClient
from harness.operations.describe_cluster import DESCRIBE_CLUSTER, DescribeClusterArgs


@DESCRIBE_CLUSTER.implement(WireClient)
def describe_cluster(client: WireClient, args: DescribeClusterArgs, version: int | None) -> AdminResult:
    return AdminResult("describe_cluster", client.kind, client.version, version)
'''
CHECK = '''
import json
from harness.clients import ClientRef, Endpoint, client_for, kind_names
from harness.clients.kinds import kind_rank
from harness.clients.limits import limits_of
from harness.config import HarnessConfig
from harness.matrix.claims import CLIENT_KINDS
from harness.matrix.verdict import refusal_observed
from harness.operations import NoImplementation, operations, perform
from harness.operations.describe_cluster import DESCRIBE_CLUSTER, DescribeClusterArgs
from harness.operations.list_topics import LIST_TOPICS, ListTopicsArgs

config = HarnessConfig.resolve(cache_dir=CACHE)
client = client_for("nonekind:1.0", Endpoint("127.0.0.1:9"), config)
try:
    perform(client, DESCRIBE_CLUSTER, DescribeClusterArgs())
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
    "wire_cluster": perform(wire, DESCRIBE_CLUSTER, DescribeClusterArgs(), version=3).request_version,
    "unimplemented": unimplemented,
}))
'''


def _source_files(root: Path) -> dict[str, Path]:
    return {p.relative_to(root).as_posix(): p for p in root.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def test_a_new_kind_and_a_new_operation_are_new_files_only(tmp_path: Path) -> None:
    copy = tmp_path / "harness"
    shutil.copytree(ROOT / "harness", copy, ignore=shutil.ignore_patterns("__pycache__"))
    added = {
        "clients/kinds/nonekind/__init__.py": NEW_KIND,
        "clients/kinds/nonekind/list_topics.py": NEW_KIND_OPERATION,
        "operations/describe_cluster.py": NEW_OPERATION,
        "clients/kinds/wire/describe_cluster.py": NEW_OPERATION_FOR_WIRE,
    }
    for path, text in added.items():
        (copy / path).parent.mkdir(parents=True, exist_ok=True)
        (copy / path).write_text(textwrap.dedent(text))
    before, after = _source_files(ROOT / "harness"), _source_files(copy)
    assert set(after) - set(before) == set(added)  # only new files ...
    assert all(filecmp.cmp(before[p], after[p], shallow=False) for p in before)  # ... and none changed
    script = (f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\nCACHE = {str(tmp_path / 'cache')!r}\n"
              f"import harness\nassert harness.__file__.startswith({str(copy)!r}), harness.__file__\n" + CHECK)
    done = subprocess.run([sys.executable, "-P", "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": ""})
    assert done.returncode == 0, done.stderr[-2000:]
    import json

    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["kinds"] == ["wire", "nonekind", "confluent", "java"]  # in the kind's declared order
    assert found["claims_kinds"] == found["kinds"] and found["rank"] == 1
    assert found["ref"] == "nonekind:1.0" and found["listed"] == "nonekind"
    assert found["limits"] == {"Metadata": 1} and found["refused"] is True
    assert "describe_cluster" in found["operations"] and found["wire_cluster"] == 3
    assert "nonekind has no implementation of describe_cluster" in found["unimplemented"]


def _kind_owned(path: Path) -> set[str]:
    """The kinds whose own files ``path`` is (its package under kinds/, or a module its ``modules`` names)."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return {name for name, declared in registry().items()
            if path.is_relative_to(KINDS / name) or module in declared.modules}


ALLOWED = {
    "harness/records.py": "the records contract (standard library only): a java: release's cell id keeps Kafka's "
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
    for path in sorted((ROOT / layer).rglob("*.py")):
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
    assert sorted(p.name for p in KINDS.iterdir() if (p / "__init__.py").is_file()) == sorted(kind_names())
    for name, declared in registry().items():
        assert declared.name == name
        for module in declared.modules:
            assert (ROOT / Path(*module.split("."))).with_suffix(".py").is_file(), module


def test_every_kind_implements_every_operation() -> None:
    for name, declared in registry().items():
        for op in operations():
            assert (KINDS / name / f"{op}.py").is_file() or declared.perform_by_name is not None, (name, op)


def test_every_operation_module_declares_its_operation() -> None:
    modules = {p.stem for p in (ROOT / "harness" / "operations").glob("*.py")} - {"__init__"}
    assert set(operations()) == modules
    for op in operations().values():
        assert op.samples("t"), op.name  # limits.exercise makes each one


@pytest.mark.parametrize("text", ["nosuch", "nosuch:1.0"])
def test_an_unknown_kind_is_one_line_never_another_kind(text: str) -> None:
    with pytest.raises(ConfigError, match="unknown client kind 'nosuch'") as caught:
        ClientRef.parse(text)
    assert "\n" not in str(caught.value)
    with pytest.raises(ConfigError, match="known: wire, confluent, java"):
        kind("nosuch")


def test_an_unknown_kind_has_no_limits(tmp_path: Path) -> None:
    """limits_of asks the kind; a record's kind this installation lacks is refused, not measured as confluent."""
    from harness.clients.limits import limits_of

    class Stray:
        kind, version = "nosuch", "1.0"

    with pytest.raises(ConfigError, match="unknown client kind"):
        limits_of(Stray(), ClientRef("nosuch", "1.0"), HarnessConfig(cache_dir=tmp_path))  # type: ignore[arg-type]


def test_an_operation_a_kind_lacks_raises_no_implementation() -> None:
    """Nothing was sent: the probe's cell is ``fail``, never a finding about the client."""
    from harness.clients.wire import WireClient
    from harness.clients.base import Endpoint
    from harness.operations import Operation

    lonely = Operation("lonely", dict, "Metadata", "an operation no kind implements", lambda topic: ({},))
    with pytest.raises(NoImplementation, match="wire has no implementation of lonely"):
        perform(WireClient(Endpoint("127.0.0.1:9")), lonely, {})


def test_run_json_says_what_it_said_before_per_kind() -> None:
    """run.json's ``java_clients`` and ``confluent`` (docs/RECORDS.md), now written by their kinds."""
    from harness.clients.kinds import RunReleases

    java, confluent = kind("java").run_json, kind("confluent").run_json
    assert java is not None and confluent is not None and kind("wire").run_json is None
    assert java(RunReleases(("4.4.0", "2.3.1", "4.4.0"), ("4.4.0",))) == {"java_clients": ["2.3.1", "4.4.0"]}
    assert java(RunReleases((), (), (("4.4.0", None),))) == {}  # written once, as the run starts
    assert confluent(RunReleases((), ("2.16.1", "2.0.2", "2.16.1"))) == {
        "confluent": [{"confluent_kafka": "2.0.2"}, {"confluent_kafka": "2.16.1"}]}
    assert confluent(RunReleases((), (), (("2.16.1", "2.16.0"), ("2.16.1", "2.16.0"), ("2.0.2", None)))) == {
        "confluent": [{"confluent_kafka": "2.16.1", "librdkafka": "2.16.0"}]}


def test_only_a_measured_kind_has_a_stale_measurement() -> None:
    from harness.matrix.limits import stale_measurement

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
