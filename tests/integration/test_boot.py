"""Single brokers of several versions and modes boot and answer on the wire."""

from __future__ import annotations

import dataclasses
import shutil
import time

import pytest

from kcompat.harness import ClusterSpec, HarnessConfig, load_catalog
from kcompat.harness.cds import ClassArchive
from kcompat.harness.protocol import api_name
from kcompat.harness.providers.cluster import BROKER_MAIN
from kcompat.harness.providers.process import ProcessProvider

NEWEST = str(load_catalog().newest().version)
BOOTS = [("2.8", "zk"), ("3.9", "zk"), ("3.9", "kraft"), (NEWEST, "kraft"), ("0.11", "zk")]


@pytest.mark.parametrize(("version", "mode"), BOOTS, ids=[f"{v}-{m}" for v, m in BOOTS])
def test_broker_answers_api_versions_and_metadata(kafka_cluster_factory, wire, version: str, mode: str) -> None:
    cluster = kafka_cluster_factory(ClusterSpec.of(version, mode))
    conn, offered = wire(cluster)
    with conn:
        assert {api_name(key) for key in offered} >= {"ApiVersions", "Metadata", "CreateTopics"}
        assert conn.metadata_brokers(offered) == [1]
        # What readiness recorded is what the broker answers now.
        assert sorted(cluster.api_versions, key=lambda r: r.api_key) == sorted(offered.values(), key=lambda r: r.api_key)
    release = cluster.spec.release
    assert cluster.java.major in release.line.java
    # The broker says which Kafka it is: the jars are the ones asked for.  It logs that just
    # after it starts answering (and a container's log arrives through a follower thread).
    said = (f"Kafka version: {release.version}", f"Kafka version : {release.version}")
    deadline = time.monotonic() + 30
    while not any(s in (log := cluster.brokers[0].log_path.read_text(errors="replace")) for s in said):
        if time.monotonic() > deadline:
            pytest.fail(f"{cluster.brokers[0].log_path} never said {said[0]!r}; it ends: {log[-500:]!r}")
        time.sleep(0.2)


def test_old_and_new_brokers_differ_as_kafka_4_documents(kafka_cluster_factory) -> None:
    """KIP-896: 4.0 removed CreateTopics v0-v1; 3.9 still accepts v0."""
    old = {r.api_key: r for r in kafka_cluster_factory(ClusterSpec.of("3.9", "kraft")).api_versions}
    new = {r.api_key: r for r in kafka_cluster_factory(ClusterSpec.of(NEWEST, "kraft")).api_versions}
    assert old[19].min_version == 0
    assert new[19].min_version == 2



def test_a_release_boots_from_its_class_archive_once_a_boot_recorded_it(kc_config: HarnessConfig) -> None:
    """Boot 1 records the classes a boot loads, boot 2 dumps and maps the archive; sharing off maps neither.
    The JIT choice leaves the archive alone: C1 alone by default, the JVM's tiered JIT when asked."""
    spec = ClusterSpec.of(NEWEST, "kraft")
    kc_config = dataclasses.replace(kc_config, jit="c1")

    def boot(config: HarnessConfig) -> tuple[list[str], ClassArchive | None]:
        cluster = ProcessProvider(config).start(spec)
        try:
            command = cluster._brokers[0].command  # type: ignore[attr-defined]
            used = [flag.split("=")[0] for flag in command
                    if flag.startswith(("-XX:Shared", "-XX:DumpLoaded", "-XX:TieredStopAtLevel"))]
            return used, cluster._archives.get(BROKER_MAIN)
        finally:
            cluster.stop()

    _, archive = boot(kc_config)
    assert archive is not None
    shutil.rmtree(archive.directory)  # this key starts from nothing, whatever the cache held
    assert boot(kc_config)[0] == ["-XX:TieredStopAtLevel", "-XX:DumpLoadedClassList"]
    assert archive.class_list.stat().st_size > 10_000 and not list(archive.directory.glob("record-*"))
    assert boot(kc_config)[0] == ["-XX:TieredStopAtLevel", "-XX:SharedArchiveFile"]
    assert archive.archive.stat().st_size > 1_000_000 and not archive.failed.exists()
    assert boot(dataclasses.replace(kc_config, jit="tiered"))[0] == ["-XX:SharedArchiveFile"]
    assert boot(dataclasses.replace(kc_config, class_sharing=False))[0] == ["-XX:TieredStopAtLevel"]
