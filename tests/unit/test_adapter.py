"""The adapter protocol's harness side (src/kcompat/harness/clients/adapter.py), against scripted adapter programs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from kcompat.harness.clients.adapter import (
    PROTOCOL,
    AdapterClient,
    AdapterProcess,
    Launch,
    api_keys,
    check_published,
    protocol_args,
)
from kcompat.harness.clients.base import AclSpec, ConfigTarget, Endpoint
from kcompat.harness.errors import ConfigError, HarnessError
from kcompat.harness.operations import operations
from kcompat.harness.operations.create_acls import CreateAclsArgs
from kcompat.harness.operations.create_topics import CreateTopicsArgs
from kcompat.harness.operations.describe_configs import DescribeConfigsArgs
from kcompat.harness.operations.describe_topics import DescribeTopicsArgs
from kcompat.harness.operations.list_topics import ListTopicsArgs

READY = json.dumps({"ready": "1.0.0", "protocol": PROTOCOL})
"""The ready line of a scripted adapter of release 1.0.0."""
ANSWER = {"request_version": None, "resources": [{"resource": "t1", "error_code": 36, "error_name":
          "TOPIC_ALREADY_EXISTS", "error_message": "exists", "fields": {}, "exception": "KafkaJSProtocolError"}],
          "result_fields": [], "exception": None, "exception_message": None, "unsupported_options": ["validate_only"]}


def _adapter(tmp_path: Path, ready: object, answer: object = None) -> AdapterProcess:
    """A Python adapter that prints ``ready``, then answers every request with ``answer`` (its requests logged)."""
    requests = tmp_path / "requests.jsonl"
    script = (f"import json, sys\nprint({json.dumps(ready)!r}, flush=True)\n"
              "for line in sys.stdin:\n"
              "    request = json.loads(line)\n"
              f"    open({str(requests)!r}, 'a').write(line)\n"
              f"    print(json.dumps({{'id': request['id'], 'result': json.loads({json.dumps(answer)!r})}}), "
              "flush=True)\n")
    return AdapterProcess("the test 1.0.0 adapter", "1.0.0", lambda: Launch((sys.executable, "-c", script)),
                          tmp_path / "adapter.log")


def test_an_undeclared_operation_is_the_client_lacking_it_and_is_never_sent(tmp_path: Path) -> None:
    process = _adapter(tmp_path, {"ready": "1.0.0", "protocol": PROTOCOL, "operations": ["create_topics"]},
                       ANSWER)
    client = AdapterClient("test", Endpoint("127.0.0.1:9"), "1.0.0", process)
    try:
        lacking = client.perform_by_name("delete_topics", operations()["delete_topics"].samples("t1")[0])
        assert lacking.exception == "NotImplementedError" and "declares no operation delete_topics" in str(
            lacking.exception_message)
        assert not (tmp_path / "requests.jsonl").exists()
        made = client.perform_by_name("create_topics", CreateTopicsArgs([], validate_only=True))
        assert made.resource("t1").error_name == "TOPIC_ALREADY_EXISTS"
        assert made.unsupported_options == ("validate_only",) and made.client == "test"
        sent = json.loads((tmp_path / "requests.jsonl").read_text())
        assert sent["op"] == "create_topics" and sent["connection"]["bootstrap"] == "127.0.0.1:9"
        assert sent["args"] == {"topics": [], "validate_only": True}
        assert sent["api_keys"] == [19]  # CreateTopics: the adapter reports its version, from no table of its own
    finally:
        process.close()


@pytest.mark.parametrize(("ready", "message"), [
    ({"ready": "1.0.0", "protocol": 2}, f"speaks protocol 2, this harness speaks {PROTOCOL}"),
    ({"ready": "0.9.0", "protocol": PROTOCOL}, "reports version '0.9.0'"),
    ({"ready": "1.0.0", "protocol": PROTOCOL, "operations": "all"}, "declares operations that are not a list"),
    (["not", "an", "object"], "not an object"),
])
def test_a_bad_ready_line_is_one_line_naming_the_adapter_and_its_log(tmp_path: Path, ready: object,
                                                                       message: str) -> None:
    process = _adapter(tmp_path, ready)
    with pytest.raises(HarnessError, match=message) as caught:
        process.call("list_topics", None, {})
    assert "\n" not in str(caught.value) and "the test 1.0.0 adapter" in str(caught.value)
    assert str(tmp_path / "adapter.log") in str(caught.value)
    assert not process.alive


def test_an_answer_in_another_shape_is_a_harness_error_never_a_verdict(tmp_path: Path) -> None:
    process = _adapter(tmp_path, {"ready": "1.0.0", "protocol": PROTOCOL}, {"resources": "none"})
    client = AdapterClient("test", Endpoint("127.0.0.1:9"), "1.0.0", process)
    try:
        with pytest.raises(HarnessError, match="in another shape than docs/ADAPTERS.md's"):
            client.perform_by_name("list_topics", ListTopicsArgs())
    finally:
        process.close()


@pytest.mark.parametrize(("extra", "lacking", "deadline"), [
    ({}, {}, None),
    ({"unsupported_fields": {"configs.type": "kadm.Config"}, "deadline_reached": 30}, {"configs.type": "kadm.Config"},
     30.0),
    ({"unsupported_fields": ["configs.type"]}, None, None),
    ({"deadline_reached": True}, None, None),
])
def test_the_optional_answer_keys_are_read_or_refused(tmp_path: Path, extra: dict[str, object],
                                                      lacking: dict[str, str] | None, deadline: float | None) -> None:
    process = _adapter(tmp_path, {"ready": "1.0.0", "protocol": PROTOCOL}, {**ANSWER, **extra})
    client = AdapterClient("test", Endpoint("127.0.0.1:9"), "1.0.0", process)
    try:
        if lacking is None:
            with pytest.raises(HarnessError, match="in another shape than docs/ADAPTERS.md's"):
                client.perform_by_name("list_topics", ListTopicsArgs())
        else:
            made = client.perform_by_name("list_topics", ListTopicsArgs())
            assert (made.unsupported_fields, made.deadline_reached) == (lacking, deadline)
    finally:
        process.close()


def test_every_operations_arguments_are_its_dataclass_fields() -> None:
    """No operation has a shape of its own: the three older than the dataclasses are written like the rest."""
    def wire(args: object) -> object:
        return json.loads(json.dumps(protocol_args(args)))

    assert wire(DescribeConfigsArgs((ConfigTarget("topic", "t"),), True)) == {
        "include_synonyms": True, "include_documentation": False, "targets": [{"resource_type": "topic", "name": "t"}]}
    acl = AclSpec("topic", "t", "User:alice", "READ")
    assert wire(CreateAclsArgs((acl,))) == {"acls": [{
        "resource_type": "topic", "resource_name": "t", "principal": "User:alice", "operation": "READ",
        "permission": "ALLOW", "host": "*", "pattern": "LITERAL"}]}
    assert wire(DescribeTopicsArgs(("t",))) == {"names": ["t"]}


def test_every_declared_operation_names_the_key_of_its_api() -> None:
    """Each request names the key of its operation's API, so an adapter needs no op-to-API table."""
    from kcompat.harness.protocol import api_name

    for name, operation in operations().items():
        keys = api_keys(name)
        assert len(keys) == 1 and api_name(keys[0]) == operation.api, name
    assert api_keys("close") == ()


def test_a_release_the_registry_lacks_names_the_nearest() -> None:
    published = ["2.2.2", "2.2.3", "2.2.4", "1.16.0", "2.0.0"]
    assert check_published("kafkajs", "2.2.4", published) == "2.2.4"
    with pytest.raises(ConfigError, match=r"^kafkajs 2\.2\.9 is not published; nearest releases: 2\.2\.3, 2\.2\.4$"):
        check_published("kafkajs", "2.2.9", published)
    with pytest.raises(ConfigError, match="lists no release"):
        check_published("kafkajs", "2.2.9", [])


def test_a_measurement_made_by_other_adapter_sources_is_not_current() -> None:
    from kcompat.harness.clients import kind
    from kcompat.harness.clients.base import ClientLimits
    from kcompat.harness.clients.limits import api_digests, current

    program = kind("kafkajs").program
    assert program is not None and len(program()) == 64 and program() == program()
    made = ClientLimits("kafkajs", "2.2.4", {"Metadata": 6}, operations=tuple(operations()), program=program(),
                        apis=api_digests())
    assert current(made)
    assert not current(ClientLimits("kafkajs", "2.2.4", {"Metadata": 6}, operations=tuple(operations()),
                                    program="0" * 64))
    assert ClientLimits.from_json(made.as_json(), "here") == made
    assert kind("wire").program is None and "program" not in ClientLimits("wire", "0.5.0", {}).as_json()


def test_a_line_past_the_bound_is_one_line_naming_it_and_reading_stops_there(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """An adapter writing a 16 MiB line (no newline until its end) against a 1 MiB bound: the read stops a chunk
    past the bound, never buffering the rest, and the call is one line naming the adapter, bound and size."""
    from kcompat.harness.clients import adapter

    monkeypatch.setattr(adapter, "MAX_LINE", 1 << 20)
    script = (f"import sys\nprint({READY!r}, flush=True)\nsys.stdin.readline()\n"
              "out = sys.stdout.buffer\nfor _ in range(256):\n    out.write(b'x' * 65536)\n"
              "out.write(b'\\n')\nout.flush()\n")
    process = AdapterProcess("the test 1.0.0 adapter", "1.0.0", lambda: Launch((sys.executable, "-c", script)),
                             tmp_path / "adapter.log")
    with pytest.raises(HarnessError) as caught:
        process.call("list_topics", None, {})
    message = str(caught.value)
    assert "\n" not in message and message.startswith("the test 1.0.0 adapter wrote a line longer than")
    assert "bound of 1,048,576 bytes during list_topics" in message and str(tmp_path / "adapter.log") in message
    read = int(message.split("(", 1)[1].split(" bytes read", 1)[0].replace(",", ""))
    assert (1 << 20) < read <= (1 << 20) + (1 << 16)  # stopped within one chunk of the bound, not at 16 MiB
    assert not process.alive and process._buffer == b""


def test_a_line_within_the_bound_is_read_whole_call_after_call(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from kcompat.harness.clients import adapter

    monkeypatch.setattr(adapter, "MAX_LINE", 1 << 20)
    size = (1 << 20) - 100
    script = (f"import json, sys\nprint({READY!r}, flush=True)\n"
              "for line in sys.stdin:\n"
              f"    answer = {{'id': json.loads(line)['id'], 'result': {{'pad': 'y' * {size}}}}}\n"
              "    print(json.dumps(answer), flush=True)\n")
    process = AdapterProcess("the test 1.0.0 adapter", "1.0.0", lambda: Launch((sys.executable, "-c", script)),
                             tmp_path / "adapter.log")
    try:
        for _ in range(2):
            assert process.call("list_topics", None, {}) == {"pad": "y" * size}
        assert process.starts == 1
    finally:
        process.close()


def test_the_bound_is_the_one_docs_adapters_states() -> None:
    from kcompat.harness.clients.adapter import MAX_LINE

    page = (Path(__file__).resolve().parents[2] / "docs" / "ADAPTERS.md").read_text()
    assert f"{MAX_LINE:,} bytes" in page and f"{MAX_LINE >> 20} MiB" in page
