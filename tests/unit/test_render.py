from pathlib import Path

import pytest

from kcompat.harness import ClusterSpec, SaslSpec
from kcompat.harness.render import (
    NodeLayout,
    authorizer_class,
    broker_properties,
    jaas_config,
    new_cluster_id,
    render_properties,
    zookeeper_properties,
)


def _nodes(count: int, kraft: bool) -> list[NodeLayout]:
    return [NodeLayout(i, 9000 + i, 9100 + i if kraft else None, Path(f"/runs/node-{i}")) for i in range(1, count + 1)]


def test_zookeeper_mode_properties() -> None:
    spec = ClusterSpec.of("2.8", "zk", nodes=3)
    nodes = _nodes(3, kraft=False)
    props = broker_properties(spec, nodes[1], nodes, zk_port=2181)
    assert props["broker.id"] == "2"
    assert props["zookeeper.connect"] == "127.0.0.1:2181"
    assert props["listeners"] == "PLAINTEXT://127.0.0.1:9002"
    assert props["offsets.topic.replication.factor"] == "3"
    assert props["log.dirs"] == "/runs/node-2/data"
    assert "process.roles" not in props
    # the last broker of a stopping cluster retries its controlled shutdown after this, not after 5 s
    assert props["controlled.shutdown.retry.backoff.ms"] == "200"
    one = _nodes(1, kraft=False)
    assert "controlled.shutdown.retry.backoff.ms" not in broker_properties(ClusterSpec.of("2.8", "zk"), one[0], one,
                                                                          zk_port=2181)


def test_kraft_mode_lists_every_voter() -> None:
    spec = ClusterSpec.of("3.9", "kraft", nodes=3)
    nodes = _nodes(3, kraft=True)
    props = broker_properties(spec, nodes[0], nodes)
    assert props["process.roles"] == "broker,controller"
    assert props["node.id"] == "1"
    assert props["controller.quorum.voters"] == "1@127.0.0.1:9101,2@127.0.0.1:9102,3@127.0.0.1:9103"
    assert props["listeners"] == "PLAINTEXT://127.0.0.1:9001,CONTROLLER://127.0.0.1:9101"
    assert props["advertised.listeners"] == "PLAINTEXT://127.0.0.1:9001"
    assert "zookeeper.connect" not in props


def test_single_node_uses_replication_factor_one() -> None:
    spec = ClusterSpec.of("4.4")
    nodes = _nodes(1, kraft=True)
    assert broker_properties(spec, nodes[0], nodes)["offsets.topic.replication.factor"] == "1"


@pytest.mark.parametrize(("version", "nodes", "replicas"), [("4.0", 1, "1"), ("4.4", 1, "1"), ("4.4", 5, "3")])
def test_the_share_state_topic_is_sized_like_the_offsets_topic(version: str, nodes: int, replicas: str) -> None:
    spec = ClusterSpec.of(version, nodes=nodes)
    layout = _nodes(nodes, kraft=True)
    props = broker_properties(spec, layout[0], layout)
    assert props["share.coordinator.state.topic.replication.factor"] == replicas
    assert props["share.coordinator.state.topic.min.isr"] == "1"


@pytest.mark.parametrize("version", ["3.9", "2.3"])
def test_a_release_without_share_groups_is_not_given_their_properties(version: str) -> None:
    spec = ClusterSpec.of(version, "zk")
    nodes = _nodes(1, kraft=False)
    assert not any(k.startswith("share.") for k in broker_properties(spec, nodes[0], nodes, zk_port=2181))


def test_spec_properties_win() -> None:
    spec = ClusterSpec.of("3.9", "kraft", server_properties={"num.partitions": "7", "auto.create.topics.enable": "true"})
    nodes = _nodes(1, kraft=True)
    props = broker_properties(spec, nodes[0], nodes)
    assert props["num.partitions"] == "7"
    assert props["auto.create.topics.enable"] == "true"


@pytest.mark.parametrize(
    ("version", "mode", "authorizer"),
    [("2.3", "zk", "kafka.security.auth.SimpleAclAuthorizer"),
     ("2.4", "zk", "kafka.security.authorizer.AclAuthorizer"),
     ("3.9", "zk", "kafka.security.authorizer.AclAuthorizer"),
     ("3.9", "kraft", "org.apache.kafka.metadata.authorizer.StandardAuthorizer"),
     ("4.4", "kraft", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")],
)
def test_authorizer_follows_version_and_mode(version: str, mode: str, authorizer: str) -> None:
    spec = ClusterSpec.of(version, mode, sasl=SaslSpec(users=(("alice", "pw"),)))
    assert authorizer_class(spec) == authorizer
    nodes = _nodes(1, kraft=mode == "kraft")
    props = broker_properties(spec, nodes[0], nodes, zk_port=2181)
    assert props["authorizer.class.name"] == authorizer
    assert props["super.users"] == "User:admin"
    assert props["allow.everyone.if.no.acl.found"] == "false"
    assert props["listeners"].startswith("SASL_PLAINTEXT://127.0.0.1:9001")


def test_kraft_sasl_secures_the_controller_listener_too() -> None:
    spec = ClusterSpec.of("3.9", "kraft", sasl=SaslSpec())
    nodes = _nodes(1, kraft=True)
    props = broker_properties(spec, nodes[0], nodes)
    assert props["listener.security.protocol.map"] == "SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT"
    assert props["sasl.mechanism.controller.protocol"] == "PLAIN"


def test_sasl_without_authorizer_has_no_acls() -> None:
    spec = ClusterSpec.of("3.9", "kraft", sasl=SaslSpec(authorizer=False))
    nodes = _nodes(1, kraft=True)
    assert "authorizer.class.name" not in broker_properties(spec, nodes[0], nodes)


def test_jaas_holds_every_user_and_repr_hides_passwords() -> None:
    sasl = SaslSpec(users=(("alice", "alice-pw"), ("bob", "bob-pw")), super_password="root-pw")
    text = jaas_config(sasl)
    assert 'user_alice="alice-pw"' in text and 'user_bob="bob-pw"' in text
    assert 'username="admin"' in text and 'user_admin="root-pw"' in text
    assert "pw" not in repr(sasl) and "alice" in repr(sasl)


def test_rendering_is_sorted_key_value_lines() -> None:
    assert render_properties({"b": "2", "a": "1"}) == "a=1\nb=2\n"
    assert zookeeper_properties(2181, Path("/zk"))["clientPortAddress"] == "127.0.0.1"


def test_cluster_ids_are_22_url_safe_characters_never_led_by_a_dash() -> None:
    ids = {new_cluster_id() for _ in range(3000)}  # a leading "-" would come up ~47 times
    assert len(ids) == 3000
    assert all(len(i) == 22 and "=" not in i and "/" not in i for i in ids)
    assert not any(i.startswith("-") for i in ids)


TRICKY = {
    "plain.key": "a value: with = and # inside ",
    "key with=sep:arators": "x",
    "#not.a.comment": "!neither",
    "newline.value": "first\nsecond=injected",
    "back\\slash": "C:\\dir\\",
    "leading": "  two blanks\tand a tab",
    "unicode": "café ☕ 😀",
    "empty": "",
}

READER = '''
import java.io.*;
import java.util.*;

public class ReadProps {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (InputStream in = new FileInputStream(args[0])) { props.load(in); }  // ISO-8859-1, as Kafka reads it
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        for (String key : new TreeSet<>(props.stringPropertyNames())) {
            out.print(key.length() + ":" + key + "=" + props.getProperty(key).length() + ":" + props.getProperty(key) + "\\u0000");
        }
    }
}
'''


def test_properties_read_back_in_java_exactly_as_given(tmp_path: Path) -> None:
    """A newline can't inject a property, separators in keys stay in keys, non-ASCII survives ISO-8859-1."""
    import shutil
    import subprocess

    java = shutil.which("java")
    assert java, "the harness needs Java; so does this test"
    (tmp_path / "server.properties").write_text(render_properties(TRICKY))
    (tmp_path / "ReadProps.java").write_text(READER)
    output = subprocess.run([java, str(tmp_path / "ReadProps.java"), str(tmp_path / "server.properties")],
                            capture_output=True, check=True, timeout=120).stdout.decode()
    read = {}
    for entry in filter(None, output.split("\0")):
        key_length, rest = entry.split(":", 1)
        key, rest = rest[:int(key_length)], rest[int(key_length) + 1:]
        value_length, value = rest.split(":", 1)
        assert len(value.encode("utf-16-le")) // 2 == int(value_length)  # Java counts UTF-16 units
        read[key] = value
    assert read == TRICKY
    assert len(render_properties(TRICKY).splitlines()) == len(TRICKY)
