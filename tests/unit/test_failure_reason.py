from pathlib import Path

import pytest

from kcompat.harness.providers.cluster import failure_reason

CASES = {
    "root cause wins": (
        'Exception in thread "main" java.lang.NoClassDefFoundError: org/apache/log4j/jmx/HierarchyDynamicMBean\n'
        "\tat org.apache.zookeeper.jmx.ManagedUtil.registerLog4jMBeans(ManagedUtil.java:50)\n"
        "Caused by: java.lang.ClassNotFoundException: org.apache.log4j.jmx.HierarchyDynamicMBean\n"
        "\t... 3 more\n",
        "java.lang.ClassNotFoundException: org.apache.log4j.jmx.HierarchyDynamicMBean",
    ),
    "kafka fatal": (
        "[2026-11-22 04:00:00,000] INFO starting (kafka.server.KafkaServer)\n"
        "[2026-11-22 04:00:01,000] ERROR Exiting Kafka due to fatal exception (kafka.Kafka$)\n"
        "org.apache.kafka.common.KafkaException: Socket server failed to bind to 127.0.0.1:9092: "
        "Address already in use.\n"
        "\tat kafka.network.Acceptor.openServerSocket(SocketServer.scala:1)\n",
        "org.apache.kafka.common.KafkaException: Socket server failed to bind to 127.0.0.1:9092: "
        "Address already in use.",
    ),
    "no exception": ("starting\nsomething odd happened\n", "something odd happened"),
    "empty": ("", "no output"),
}


@pytest.mark.parametrize("case", CASES)
def test_failure_reason_finds_the_telling_line(tmp_path: Path, case: str) -> None:
    text, expected = CASES[case]
    log = tmp_path / "broker.log"
    log.write_text(text)
    assert failure_reason(log) == expected


class _DeadJvm:
    """A JVM that has already exited with code 1, its log written."""

    name = "broker 1"

    def __init__(self, log_path: Path):
        self.log_path = log_path

    def exit_code(self) -> int:
        return 1


def _cluster(tmp_path: Path, **properties: str):  # type: ignore[no-untyped-def]
    from kcompat.harness import ClusterSpec, HarnessConfig
    from kcompat.harness.java import JavaRuntime
    from kcompat.harness.ports import PortAllocator
    from kcompat.harness.providers.cluster import JvmCluster

    config = HarnessConfig(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs")
    return JvmCluster(ClusterSpec.of("3.9", "kraft", server_properties=properties), run_dir=tmp_path,
                      java=JavaRuntime(Path("/usr/bin/java"), 17, "17"), classpath="", logging="log4j2",
                      ports=PortAllocator(tmp_path / "ports"), config=config, progress=lambda line: None)


DAMAGED = {
    "zip": "Error: Could not find or load main class kafka.Kafka\n"
           "Caused by: java.util.zip.ZipException: invalid LOC header (bad signature)\n",
    "class": 'Exception in thread "main" java.lang.NoClassDefFoundError: org/apache/kafka/common/utils/Utils\n'
             "Caused by: java.lang.ClassNotFoundException: org.apache.kafka.common.utils.Utils\n",
}


@pytest.mark.parametrize("case", DAMAGED)
def test_a_boot_that_could_not_read_a_class_points_at_fetch_verify(tmp_path: Path, case: str) -> None:
    from kcompat.harness import BootError

    log = tmp_path / "broker.log"
    log.write_text(DAMAGED[case])
    with pytest.raises(BootError) as caught:
        _cluster(tmp_path)._raise_if_exited(_DeadJvm(log))
    assert "hint: a class or jar of Kafka could not be read" in str(caught.value)
    assert "`kcompat brokers fetch --verify 3.9.2`" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_class_the_user_named_in_a_property_is_not_blamed_on_the_jars(tmp_path: Path) -> None:
    from kcompat.harness import BootError

    log = tmp_path / "broker.log"
    log.write_text("org.apache.kafka.common.config.ConfigException: Invalid value no.such.Authorizer\n"
                   "Caused by: java.lang.ClassNotFoundException: no.such.Authorizer\n")
    with pytest.raises(BootError) as caught:
        _cluster(tmp_path, **{"authorizer.class.name": "no.such.Authorizer"})._raise_if_exited(_DeadJvm(log))
    assert "--verify" not in str(caught.value) and "no.such.Authorizer" in str(caught.value)
