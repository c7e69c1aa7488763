from pathlib import Path

import pytest

from harness.providers.cluster import failure_reason

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
