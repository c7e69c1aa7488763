"""The contract between harness/clients/java.py and the Java sidecar, read from both sources."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from harness.clients import java

SIDECAR = java.SIDECAR_SOURCES / "kcompat" / "sidecar"
_REGISTERED = re.compile(r'ops\.put\("(?P<op>[a-z_]+)",\s*new\s+(?P<cls>\w+)\(\)\)')


def _registered() -> dict[str, str]:
    return {m["op"]: m["cls"] for m in _REGISTERED.finditer((SIDECAR / "Operations.java").read_text())}


def _sent_by_python() -> set[str]:
    """Every op name passed as a literal to ``Sidecar.call`` or ``JavaClient._call`` in java.py."""
    tree = ast.parse(Path(java.__file__).read_text())
    sent = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("call", "_call") and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            sent.add(node.args[0].value)
    return sent


def test_every_op_python_sends_is_registered_in_the_java_map() -> None:
    sent = _sent_by_python()
    assert {"create_topics", "create_partitions", "describe_configs", "list_topics", "create_acls", "close",
            "api_versions", "methods"} <= sent  # the parse sees them all
    assert sent - set(_registered()) == set()


def test_every_registered_op_has_its_own_class_file() -> None:
    registered = _registered()
    assert len(registered) >= 9
    for op, cls in registered.items():
        source = SIDECAR / "ops" / f"{cls}.java"
        assert source.is_file(), op
        assert re.search(rf"public final class {cls}\b", source.read_text()), op
    files = {p.stem for p in (SIDECAR / "ops").glob("*.java")}
    assert files == set(registered.values())  # no op class left unregistered


def test_both_sides_speak_the_same_protocol_version() -> None:
    found = re.search(r"int PROTOCOL = (\d+);", (SIDECAR / "AdminSidecar.java").read_text())
    assert found is not None and int(found.group(1)) == java.SIDECAR_PROTOCOL


def test_the_protocol_loop_knows_no_op_by_name() -> None:
    """Ops are found in the map, not in an if-chain of the loop."""
    loop = (SIDECAR / "AdminSidecar.java").read_text()
    assert "Operations.ALL.get(op)" in loop
    assert not any(f'"{op}"' in loop for op in _registered())


def test_a_sidecar_of_another_protocol_is_refused_and_its_classes_dropped(tmp_path, monkeypatch) -> None:
    import sys

    import pytest

    from harness.config import HarnessConfig
    from harness.errors import HarnessError

    config = HarnessConfig(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs")
    sidecar = java.Sidecar("4.4.0", config)
    classes = tmp_path / "classes"
    classes.mkdir()
    stale = 'print(\'{"ready": "4.4.0", "protocol": 1}\', flush=True); import sys; sys.stdin.read()'

    def command() -> list[str]:
        sidecar._classes = classes
        return [sys.executable, "-c", stale]

    monkeypatch.setattr(sidecar, "_command", command)
    with pytest.raises(HarnessError, match=f"speaks protocol 1, this harness speaks {java.SIDECAR_PROTOCOL}") as caught:
        sidecar.call("version", None, {})
    assert "\n" not in str(caught.value)
    assert not sidecar.alive
    assert not classes.exists()  # recompiled by the next start, never trusted again
