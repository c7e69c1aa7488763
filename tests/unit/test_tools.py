"""Which admin tools a release ships, and the commands printed for them (no broker, fake jars)."""

import shlex
import stat
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kcompat.harness import ClusterSpec, ConfigError, HarnessConfig
from kcompat.harness.clients import AclSpec
from kcompat.harness.errors import AdminToolError, AdminToolRefused
from kcompat.harness.tools import (ACL_COMMAND_LOG, ARGS_FILE, acl_command_args, add_acls_zookeeper, admin_tool_commands,
                           list_acls_zookeeper, main_classes, parse_acl_listing)


def _jar(path: Path, *entries: str) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for entry in entries:
            archive.writestr(entry, b"")
    return path


class FakeStore:
    """The broker's classpath has only ``core``; ``resolve_tools`` adds the kafka-tools jar."""

    def __init__(self, core: Path, tools: Path):
        self.core, self.tools, self.tools_resolved = core, tools, False
        self.config = HarnessConfig(cache_dir=core.parent, offline=True)

    def resolve(self, release: Any) -> Any:
        return SimpleNamespace(classpath=(self.core,))

    def resolve_tools(self, release: Any, *, progress: Any = None) -> tuple[Path, ...]:
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


def test_acl_command_adds_one_call_per_resource_and_principal_with_the_tools_operation_names() -> None:
    calls = acl_command_args([AclSpec("cluster", "kafka-cluster", "User:alice", "CREATE"),
                              AclSpec("topic", "t1", "User:erin", "DESCRIBE"),
                              AclSpec("topic", "t1", "User:erin", "DESCRIBE_CONFIGS")])
    assert calls == [
        ["--add", "--allow-principal", "User:alice", "--allow-host", "*", "--operation", "Create", "--cluster"],
        ["--add", "--allow-principal", "User:erin", "--allow-host", "*", "--operation", "Describe",
         "--operation", "DescribeConfigs", "--topic", "t1"]]
    with pytest.raises(ConfigError, match="prefixed"):
        acl_command_args([AclSpec("topic", "t", "User:a", "READ", pattern="PREFIXED")])


def _java(tmp_path: Path, script: str) -> Path:
    """A stand-in for ``java`` that runs ``script`` (sh) with the tool's arguments."""
    java = tmp_path / "fake-java"
    java.write_text(f"#!/bin/sh\n{script}\n")
    java.chmod(java.stat().st_mode | stat.S_IXUSR)
    return java


def _zk_cluster(tmp_path: Path, java: Path) -> Any:
    cluster = _cluster(tmp_path, "0.10.2", "zk", "127.0.0.1:2181")
    cluster.java = SimpleNamespace(java=java)
    return cluster


def _core(tmp_path: Path) -> FakeStore:
    core = _jar(tmp_path / "kafka_2.12-0.10.2.2.jar", *(f"kafka/admin/{n}.class" for n in
                                                        ("TopicCommand", "ConfigCommand", "AclCommand")))
    return FakeStore(core, tmp_path / "unused.jar")


def test_acls_go_to_zookeeper_through_the_releases_acl_command(tmp_path: Path) -> None:
    java = _java(tmp_path, f'echo "$@" >> {tmp_path}/calls; echo Adding ACLs')
    add_acls_zookeeper(_core(tmp_path), _zk_cluster(tmp_path, java),  # type: ignore[arg-type]
                       [AclSpec("cluster", "kafka-cluster", "User:alice", "CREATE")])
    call = (tmp_path / "calls").read_text().split()
    assert call[call.index("kafka.admin.AclCommand"):] == [
        "kafka.admin.AclCommand", "--authorizer-properties", "zookeeper.connect=127.0.0.1:2181", "--add",
        "--allow-principal", "User:alice", "--allow-host", "*", "--operation", "Create", "--cluster"]
    log = (tmp_path / ACL_COMMAND_LOG).read_text()
    assert "Adding ACLs" in log and "[exit 0]" in log


def test_a_refusing_acl_command_is_one_line_naming_its_error_and_the_log(tmp_path: Path) -> None:
    java = _java(tmp_path, "echo 'Error while executing ACL command: bad op'; echo '  at kafka.Foo'; exit 1")
    with pytest.raises(AdminToolRefused) as caught:  # a refusal: the cell's fail, not the harness's infra_error
        add_acls_zookeeper(_core(tmp_path), _zk_cluster(tmp_path, java),  # type: ignore[arg-type]
                           [AclSpec("topic", "t", "User:bob", "READ")])
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("AclCommand exit 1: Error while executing ACL command: bad op")
    assert f"log: {tmp_path / ACL_COMMAND_LOG}" in message


def test_an_acl_command_that_hangs_is_killed_at_the_timeout(tmp_path: Path) -> None:
    java = _java(tmp_path, "echo waiting for ZooKeeper >&2; exec sleep 30")
    with pytest.raises(AdminToolError, match="killed after 1s: waiting for ZooKeeper") as caught:
        add_acls_zookeeper(_core(tmp_path), _zk_cluster(tmp_path, java),  # type: ignore[arg-type]
                           [AclSpec("topic", "t", "User:bob", "READ")], timeout=1.0)
    assert not isinstance(caught.value, AdminToolRefused)  # overrunning is the harness's: infra_error


def test_a_kraft_cluster_has_no_zookeeper_to_write_acls_to(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no ZooKeeper"):
        add_acls_zookeeper(_core(tmp_path), _cluster(tmp_path, "3.9", "kraft"),  # type: ignore[arg-type]
                           [AclSpec("topic", "t", "User:bob", "READ")])


def test_a_usage_dump_names_the_line_above_it(tmp_path: Path) -> None:
    java = _java(tmp_path, "echo 'ResourceType Topic only supports operations Read,All,Delete,Write,Describe' >&2; "
                           "printf 'Option  Description\\n------  -----------\\n--add   Indicates\\n' >&2; "
                           "exit 1")
    with pytest.raises(AdminToolError, match="exit 1: ResourceType Topic only supports operations Read,All"):
        add_acls_zookeeper(_core(tmp_path), _zk_cluster(tmp_path, java),  # type: ignore[arg-type]
                           [AclSpec("topic", "t", "User:carol", "ALTER")])


LISTING_0_10_2 = """Current ACLs for resource `Topic:t1`: 
 \tUser:kcompat-nobody has Allow permission for operations: Read from hosts: *
\tUser:erin has Deny permission for operations: DescribeConfigs, Write from hosts: * 

"""


def test_an_acl_listing_reads_as_labels() -> None:
    assert parse_acl_listing(LISTING_0_10_2, "topic", "t1") == {
        "topic:t1:User:kcompat-nobody:READ:ALLOW", "topic:t1:User:erin:DESCRIBE_CONFIGS:DENY",
        "topic:t1:User:erin:WRITE:DENY"}
    assert parse_acl_listing("Current ACLs for resource `Topic:t2`: \n \n", "topic", "t2") == set()


def test_acls_are_listed_from_zookeeper_through_acl_command(tmp_path: Path) -> None:
    (tmp_path / "listing").write_text(LISTING_0_10_2)
    java = _java(tmp_path, f'echo "$@" >> {tmp_path}/calls; cat {tmp_path}/listing')
    listed = list_acls_zookeeper(_core(tmp_path), _zk_cluster(tmp_path, java), "topic", "t1")  # type: ignore[arg-type]
    assert "topic:t1:User:kcompat-nobody:READ:ALLOW" in listed
    assert (tmp_path / "calls").read_text().split()[-3:] == ["--list", "--topic", "t1"]
