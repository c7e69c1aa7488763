"""The contract between src/kcompat/harness/clients/java.py and the Java sidecar, read from both sources."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from kcompat.harness.clients import adapter, java
from kcompat.harness.operations import operations

SIDECAR = java.SIDECAR_SOURCES / "kcompat" / "sidecar"


def _class_name(op: str) -> str:
    """The sidecar's rule (Operations.className): op ``create_topics`` is class ``ops.CreateTopics``."""
    return "".join(part.capitalize() for part in op.split("_"))


def _op_classes() -> dict[str, str]:
    """op name -> class, for every class under ops/ (by the rule read backwards, as Operations.opName)."""
    return {re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", p.stem).lower(): p.stem for p in (SIDECAR / "ops").glob("*.java")}


def _sent_by_python() -> set[str]:
    """Every op name passed as a literal to ``Sidecar.call`` or ``JavaClient._call`` in java.py, and to the calls
    every protocol client makes (adapter.py's ``ProtocolClient``)."""
    sent = set()
    for node in (n for source in (java.__file__, adapter.__file__) for n in ast.walk(ast.parse(Path(source).read_text()))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("call", "_call", "_by_args") and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            sent.add(node.args[0].value)
    return sent


def test_every_op_python_sends_and_every_declared_operation_has_its_class() -> None:
    sent = _sent_by_python()
    assert {"close", "api_versions", "methods"} <= sent  # the parse sees them all (operations go by name)
    for op in sent | set(operations()):
        source = SIDECAR / "ops" / f"{_class_name(op)}.java"
        assert source.is_file(), op
        assert re.search(rf"public final class {_class_name(op)}\b", source.read_text()), op
        assert _op_classes()[op] == _class_name(op)  # the name maps back to the op


def test_every_op_class_is_an_operation_with_a_public_no_argument_constructor() -> None:
    for op, cls in _op_classes().items():
        text = (SIDECAR / "ops" / f"{cls}.java").read_text()
        assert re.search(rf"public final class {cls} (extends AdminOperation|implements Operation)\b", text), op
        constructors = re.findall(rf"(\w+)\s+{cls}\(([^)]*)\)", text)
        assert all(access == "public" and not params.strip() for access, params in constructors), op


def test_both_sides_speak_the_same_protocol_version() -> None:
    found = re.search(r"int PROTOCOL = (\d+);", (SIDECAR / "AdminSidecar.java").read_text())
    assert found is not None and int(found.group(1)) == java.SIDECAR_PROTOCOL


def test_no_sidecar_source_outside_ops_names_an_op() -> None:
    """Ops are found by class name (Operations.find), not in a map or an if-chain: a new op is one new class."""
    for source in SIDECAR.glob("*.java"):
        text = source.read_text()
        assert not any(f'"{op}"' in text for op in _op_classes()), source.name
        assert not re.search(r"import kcompat\.sidecar\.ops\.", text), source.name
    assert "Operations.find(op)" in (SIDECAR / "AdminSidecar.java").read_text()


def test_a_sidecar_of_another_protocol_is_refused_and_its_classes_dropped(tmp_path, monkeypatch) -> None:
    import sys

    import pytest

    from kcompat.harness.clients.adapter import Launch
    from kcompat.harness.config import HarnessConfig
    from kcompat.harness.errors import HarnessError

    config = HarnessConfig(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs")
    sidecar = java.Sidecar("4.4.0", config)
    classes = tmp_path / "classes"
    classes.mkdir()
    stale = 'print(\'{"ready": "4.4.0", "protocol": 1}\', flush=True); import sys; sys.stdin.read()'

    def command() -> Launch:
        sidecar._classes = classes
        return Launch((sys.executable, "-c", stale))

    monkeypatch.setattr(sidecar, "_command", command)
    with pytest.raises(HarnessError, match=f"speaks protocol 1, this harness speaks {java.SIDECAR_PROTOCOL}") as caught:
        sidecar.call("version", None, {})
    assert "\n" not in str(caught.value)
    assert not sidecar.alive
    assert not classes.exists()  # recompiled by the next start, never trusted again
