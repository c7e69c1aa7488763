"""Class-data sharing archives: what the key depends on, so a stale archive is never mapped."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from kcompat.harness.cds import archive_for


def _jars(tmp_path: Path, *names: str) -> list[str]:
    paths = []
    for name in names:
        path = tmp_path / name
        path.write_bytes(b"PK" + name.encode())
        paths.append(str(path))
    return paths


def test_the_key_follows_the_java_the_main_class_and_every_jar(tmp_path: Path) -> None:
    jars = _jars(tmp_path, "a.jar", "b.jar")
    java = Path(sys.executable)
    first = archive_for(tmp_path / "cache", java, "kafka.Kafka", os.pathsep.join(jars))
    assert first is not None and first.directory.parent == tmp_path / "cache" / "cds"
    assert archive_for(tmp_path / "cache", java, "kafka.Kafka", os.pathsep.join(jars)) == first
    assert archive_for(tmp_path / "cache", java, "kafka.tools.StorageTool", os.pathsep.join(jars)) != first
    assert archive_for(tmp_path / "cache", java, "kafka.Kafka", jars[0]) != first
    stat = os.stat(jars[1])
    os.utime(jars[1], ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # a jar replaced in place
    changed = archive_for(tmp_path / "cache", java, "kafka.Kafka", os.pathsep.join(jars))
    assert changed is not None and changed.directory != first.directory


def test_only_leading_jars_are_archived_and_no_jar_is_no_archive(tmp_path: Path) -> None:
    jars = _jars(tmp_path, "a.jar", "b.jar")
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    archive = archive_for(tmp_path / "cache", Path(sys.executable), "kafka.Kafka",
                          os.pathsep.join([jars[0], str(plugin), jars[1]]))
    assert archive is not None and archive.classpath == jars[0]
    assert archive_for(tmp_path / "cache", Path(sys.executable), "kafka.Kafka", str(plugin)) is None
    assert archive_for(tmp_path / "cache", Path(sys.executable), "kafka.Kafka", str(tmp_path / "gone.jar")) is None


def test_a_first_jvm_records_and_a_failed_dump_turns_sharing_off(tmp_path: Path) -> None:
    jars = _jars(tmp_path, "a.jar")
    archive = archive_for(tmp_path / "cache", Path("/bin/false"), "kafka.Kafka", jars[0])
    assert archive is not None
    flags = archive.flags(deadline=time.monotonic() + 30)
    assert len(flags) == 1 and flags[0].startswith("-XX:DumpLoadedClassList=")
    Path(flags[0].split("=", 1)[1]).write_bytes(b"java/lang/Object\nkafka/Kafka\nkafka/Par")  # the JVM mid-line
    archive.keep_recorded()
    assert archive.class_list.read_bytes() == b"java/lang/Object\nkafka/Kafka\n"
    assert archive.flags(deadline=time.monotonic() + 30) == []  # /bin/false "dumps" nothing: marked, never retried
    assert archive.failed.read_bytes().startswith(b"exit code 1")
    archive.forget_recordings()
    assert not list(archive.directory.glob("record-*"))
