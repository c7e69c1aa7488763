"""Which admin tools a release ships, and the commands printed for them (no broker, fake jars)."""

import shlex
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from harness import ClusterSpec
from harness.tools import ARGS_FILE, admin_tool_commands, main_classes


def _jar(path: Path, *entries: str) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for entry in entries:
            archive.writestr(entry, b"")
    return path


class FakeStore:
    """The broker's classpath has only ``core``; ``resolve_tools`` adds the kafka-tools jar."""

    def __init__(self, core: Path, tools: Path):
        self.core, self.tools, self.tools_resolved = core, tools, False
        self.config = SimpleNamespace(cache_dir=core.parent, offline=True)

    def resolve(self, release: Any) -> Any:
        return SimpleNamespace(classpath=(self.core,))

    def resolve_tools(self, release: Any) -> tuple[Path, ...]:
        self.tools_resolved = True
        return (self.core, self.tools)


def _cluster(tmp_path: Path, version: str, mode: str, zookeeper: str | None = None) -> Any:
    java = _jar(tmp_path / "java", "x")  # any existing file stands for the binary
    return SimpleNamespace(spec=ClusterSpec.of(version, mode), java=SimpleNamespace(java=java), run_dir=tmp_path,
                           bootstrap_servers="127.0.0.1:9092", zookeeper_connect=zookeeper)


def test_tools_in_the_core_jar_win_and_others_come_from_kafka_tools(tmp_path: Path) -> None:
    core = _jar(tmp_path / "kafka_2.13-3.9.2.jar", "kafka/admin/ConfigCommand.class", "kafka/admin/AclCommand.class")
    tools = _jar(tmp_path / "kafka-tools-3.9.2.jar", "org/apache/kafka/tools/TopicCommand.class")
    other = _jar(tmp_path / "scala-library.jar", "kafka/admin/TopicCommand.class")  # not Kafka's: never looked in
    assert main_classes([core, other]) == {"ConfigCommand": "kafka.admin.ConfigCommand",
                                           "AclCommand": "kafka.admin.AclCommand"}
    store = FakeStore(core, tools)
    props = tmp_path / "client.properties"
    commands = dict(admin_tool_commands(store, _cluster(tmp_path, "3.9", "kraft"),  # type: ignore[arg-type]
                                        client_config=props))
    assert store.tools_resolved
    topics = shlex.split(commands["kafka-topics"])
    assert topics[1:] == [f"@{tmp_path / ARGS_FILE}", "org.apache.kafka.tools.TopicCommand", "--bootstrap-server",
                          "127.0.0.1:9092", "--command-config", str(props), "--list"]
    assert "kafka.admin.AclCommand --bootstrap-server" in commands["kafka-acls"]
    args = (tmp_path / ARGS_FILE).read_text().splitlines()
    assert args[0] == "-cp" and str(tools) in args[1] and "tools-log4j.properties" in args[2]


def test_releases_before_bootstrap_server_support_name_zookeeper(tmp_path: Path) -> None:
    core = _jar(tmp_path / "kafka_2.12-2.0.1.jar", *(f"kafka/admin/{n}.class" for n in
                                                     ("TopicCommand", "ConfigCommand", "AclCommand")))
    store = FakeStore(core, tmp_path / "unused.jar")
    commands = dict(admin_tool_commands(store, _cluster(tmp_path, "2.0", "zk", "127.0.0.1:2181")))  # type: ignore[arg-type]
    assert not store.tools_resolved
    assert commands["kafka-topics"].endswith("kafka.admin.TopicCommand --zookeeper 127.0.0.1:2181 --list")
    assert "--bootstrap-server 127.0.0.1:9092 --describe --entity-type brokers" in commands["kafka-configs"]
    assert "--authorizer-properties zookeeper.connect=127.0.0.1:2181 --list" in commands["kafka-acls"]
