"""The kafka-python adapter's pure logic (loaded from its file: it imports no kcompat and, for these, no kafka),
and its installer's refusals and once-only install, with no registry asked."""

from __future__ import annotations

import importlib.util
import json
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kcompat.harness import ConfigError
from kcompat.harness.clients import installing
from kcompat.harness.clients.kinds.kafka_python import install
from kcompat.harness.config import HarnessConfig


def _adapter() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kcompat_kafka_python", install.ADAPTER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ADAPTER = _adapter()


class TopicAlreadyExistsError(Exception):
    errno = 36
    message = "TOPIC_ALREADY_EXISTS"


class NoError(Exception):
    errno = 0
    message = "NO_ERROR"


class KafkaTimeoutError(Exception):
    """A client-side error: kafka-python gives it no errno."""


class InvalidReplicationAssignmentError(Exception):
    errno = 39
    message = "INVALID_REPLICATION_ASSIGNMENT"


def test_kafka_python_errors_map_to_kafkas_code_and_name() -> None:
    assert ADAPTER.kafka_name(InvalidReplicationAssignmentError) == (39, "INVALID_REPLICA_ASSIGNMENT")  # Kafka's
    assert ADAPTER.kafka_name(TopicAlreadyExistsError) == (36, "TOPIC_ALREADY_EXISTS")
    assert ADAPTER.kafka_name(NoError) == (0, "NONE")
    assert ADAPTER.kafka_name(None) == (0, "NONE")
    assert ADAPTER.kafka_name(KafkaTimeoutError) == (-1, "KafkaTimeoutError")


def test_an_entry_carries_the_error_class_and_its_message() -> None:
    failed = ADAPTER.entry("t1", TopicAlreadyExistsError("Topic 't1' already exists."))
    assert failed == {"resource": "t1", "error_code": 36, "error_name": "TOPIC_ALREADY_EXISTS",
                      "error_message": "Topic 't1' already exists.", "fields": {},
                      "exception": "TopicAlreadyExistsError"}
    fine = ADAPTER.entry("t1", NoError, "ignored", fields={"partitions": 2})
    assert (fine["error_code"], fine["error_message"], fine["exception"], fine["fields"]) == (0, None, None,
                                                                                           {"partitions": 2})


def test_config_entries_take_the_sidecars_shape() -> None:
    raw = {"value": "compact", "read_only": False, "config_source": "DYNAMIC_TOPIC_CONFIG", "is_sensitive": False,
           "synonyms": [{"name": "log.cleanup.policy", "value": "delete", "source": "DEFAULT_CONFIG"}],
           "config_type": "LIST", "documentation": None}
    assert ADAPTER.config_entry("cleanup.policy", raw) == {
        "name": "cleanup.policy", "value": "compact", "read_only": False, "source": "DYNAMIC_TOPIC_CONFIG",
        "is_default": False, "sensitive": False,
        "synonyms": [{"name": "log.cleanup.policy", "value": "delete", "source": "DEFAULT_CONFIG"}],
        "type": "LIST", "documentation": None}
    # CreateTopics v5 has no is_default: it follows the source, as Java's ConfigEntry.isDefault() does
    bare = ADAPTER.config_entry("retention.ms", {"value": "1", "read_only": False, "config_source": "DEFAULT_CONFIG",
                                                 "is_sensitive": False})
    assert bare["is_default"] is True and "synonyms" not in bare and "type" not in bare


def test_create_topics_args_become_kafka_pythons_dict_form() -> None:
    spec = ADAPTER.topics_spec([
        {"name": "a", "partitions": 3, "replication_factor": 1, "assignments": None, "configs": {"x": "1"}},
        {"name": "b", "partitions": None, "replication_factor": None, "assignments": None, "configs": {}},
        {"name": "c", "partitions": None, "replication_factor": None, "assignments": {"0": [1, 2]}, "configs": {}}])
    assert spec == {"a": {"configs": {"x": "1"}, "num_partitions": 3, "replication_factor": 1},
                    "b": {"configs": {}, "num_partitions": -1, "replication_factor": -1},
                    "c": {"configs": {}, "assignments": {0: [1, 2]}}}
    assert ADAPTER.partitions_spec([{"topic": "a", "total_count": 4, "assignments": None},
                                    {"topic": "b", "total_count": 3, "assignments": [[1], [2]]}]) == {
        "a": 4, "b": {"count": 3, "assignments": [[1], [2]]}}


def test_acl_labels_match_kcompats() -> None:
    assert ADAPTER.acl_label("TOPIC", "t", "User:alice", "read", "allow") == "topic:t:User:alice:READ:ALLOW"
    assert ADAPTER._filter_label({"resource_type": "topic", "resource_name": None, "principal": None,
                                  "operation": "ANY", "permission": "ANY"}) == "topic:*:*:ANY:ANY"


class _Adapter:
    def run(self, op: str, connection: Any, args: dict[str, Any], api_keys: list[int]) -> dict[str, Any]:
        if op == "boom":
            raise LookupError("unknown op 'boom'")
        return {"op": op}


def test_a_request_the_adapter_cant_run_is_a_failure_answer_with_its_id() -> None:
    assert ADAPTER.answer(_Adapter(), json.dumps({"id": 3, "op": "list_topics"})) == {"id": 3,
                                                                                     "result": {"op": "list_topics"}}
    assert ADAPTER.answer(_Adapter(), json.dumps({"id": 4, "op": "boom"}))["failure"] == {
        "class": "LookupError", "message": "unknown op 'boom'"}
    assert ADAPTER.answer(_Adapter(), "{not json")["failure"]["class"] == "JSONDecodeError"


def test_the_call_deadline_is_kcompats_setting_and_60_s_without_it() -> None:
    assert ADAPTER.call_deadline({"KCOMPAT_ADAPTER_DEADLINE": "2.5"}) == 2.5
    for unusable in ({}, {"KCOMPAT_ADAPTER_DEADLINE": ""}, {"KCOMPAT_ADAPTER_DEADLINE": "soon"},
                     {"KCOMPAT_ADAPTER_DEADLINE": "0"}, {"KCOMPAT_ADAPTER_DEADLINE": "-3"}):
        assert ADAPTER.call_deadline(unusable) == 60.0, unusable


def test_a_call_reached_its_deadline_by_the_adapters_clock_or_the_deadlines_own_error() -> None:
    assert ADAPTER.reached(2.0, 2.01, expired=False) == 2.0  # a library timeout as long as ours ended it there
    assert ADAPTER.reached(2.0, 0.1, expired=True) == 2.0
    assert ADAPTER.reached(2.0, 1.99, expired=False) is None  # the library's own, shorter timeout: data


class _Library:
    """A stand-in ``kafka`` module whose admin client's making and ``list_topics`` take the times the test sets,
    and whose ``list_topics`` raises what the test sets once its time is up."""

    __version__ = "0.0.0"
    making = 0.0
    listing = 0.0
    raises: Exception | None = None
    released = threading.Event()

    class KafkaAdminClient:
        DEFAULT_CONFIG: dict[str, Any] = {"bootstrap_servers": None, "client_id": None, "request_timeout_ms": None}

        def __init__(self, **conf: Any) -> None:
            _Library.released.wait(_Library.making)

        def list_topics(self) -> list[str]:
            _Library.released.wait(_Library.listing)
            if _Library.raises is not None:
                raise _Library.raises
            return ["t1"]

        def close(self) -> None:
            pass


@pytest.fixture
def library(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[_Library]]:
    monkeypatch.setitem(sys.modules, "kafka", _Library)
    monkeypatch.setattr(_Library, "released", threading.Event())
    yield _Library
    _Library.released.set()  # the calls given up on end with the test


def _list(deadline: float) -> tuple[dict[str, Any], float]:
    adapter = ADAPTER.Adapter(deadline)
    try:
        started = time.monotonic()
        answer = adapter.run("list_topics", {"bootstrap": "127.0.0.1:9"}, {}, [3])
        return answer, time.monotonic() - started
    finally:
        adapter.pool.shutdown(wait=False)


def test_a_call_the_library_never_ends_is_answered_at_its_deadline_and_says_so(library: type[_Library],
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(library, "listing", 60.0)
    answer, took = _list(0.5)
    assert answer["deadline_reached"] == 0.5 and answer["exception"] == "DeadlineExpired", answer
    assert 0.5 <= took < 5.0


def test_the_clients_making_and_the_call_share_one_deadline(library: type[_Library],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(library, "making", 0.4)
    monkeypatch.setattr(library, "listing", 0.4)  # each shorter than the deadline, together longer
    answer, took = _list(0.6)
    assert answer["deadline_reached"] == 0.6, answer
    assert 0.6 <= took < 5.0


def test_a_prompt_call_and_a_library_timeout_before_the_deadline_reach_none(library: type[_Library],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert "deadline_reached" not in _list(5.0)[0]
    monkeypatch.setattr(library, "raises", KafkaTimeoutError("Request timed out"))
    answer, _ = _list(5.0)
    assert answer["exception"] == "KafkaTimeoutError" and "deadline_reached" not in answer, answer


def _config(tmp_path: Path, offline: bool = False) -> HarnessConfig:
    return HarnessConfig(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs", offline=offline)


def test_a_release_pypi_lacks_is_one_line_naming_the_nearest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    def index() -> list[str]:
        asked.append(1)
        return ["3.0.12", "3.0.11", "3.0.10", "2.3.3", "1.4.3", "3.1.0rc1"]

    monkeypatch.setattr(install, "_pip_index", index)
    with pytest.raises(ConfigError, match=r"^kafka-python 3\.0\.99 is not published; nearest releases: "
                                          r"3\.0\.11, 3\.0\.12$"):
        install.check_release("3.0.99", _config(tmp_path))
    assert install.published(_config(tmp_path)) == ("1.4.3", "2.3.3", "3.0.10", "3.0.11", "3.0.12")  # from the cache
    assert len(asked) == 1  # no list cached: asked once, and the cached list then lacked the release too
    with pytest.raises(ConfigError, match="KafkaAdminClient from 1.4.4 on; kafka-python 1.4.3 is older"):
        install.check_release("1.4.3", _config(tmp_path))
    assert install.check_release("3.0.12", _config(tmp_path)) == "3.0.12"


def test_an_install_is_made_once_even_when_two_workers_race(tmp_path: Path) -> None:
    config = _config(tmp_path)
    made: list[Path] = []
    gate = threading.Barrier(2)

    def make(directory: Path, log: Path) -> None:
        made.append(directory)
        (directory / "lib").write_text("installed")

    def worker() -> None:
        gate.wait()
        installing.install_once(config, "lib", "1.0.0", 30, make)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    target = installing.install_dir(config, "lib", "1.0.0")
    assert len(made) == 1 and (target / "lib").read_text() == "installed" and (target / installing.READY).is_file()
    assert not target.with_name(f"{target.name}.partial").exists()


def test_a_failed_install_leaves_nothing_to_mistake_for_one(tmp_path: Path) -> None:
    config = _config(tmp_path)

    def make(directory: Path, log: Path) -> None:
        (directory / "half").write_text("")
        raise ConfigError("no toolchain")

    with pytest.raises(ConfigError, match="no toolchain"):
        installing.install_once(config, "lib", "1.0.0", 30, make)
    target = installing.install_dir(config, "lib", "1.0.0")
    assert not target.exists() and not target.with_name(f"{target.name}.partial").exists()


def test_a_listing_a_day_old_is_asked_again_and_kept_when_the_registry_cant_answer(tmp_path: Path) -> None:
    import os

    from kcompat.harness.errors import HarnessError

    config = _config(tmp_path)
    assert installing.published(config, "lib", lambda: ["1.0.0"]) == ("1.0.0",)
    assert installing.published(config, "lib", lambda: ["9.9.9"]) == ("1.0.0",)  # fresh: the cached list
    listing = config.cache_dir / "adapters" / "lib-releases.json"
    os.utime(listing, (0, 0))  # a day old and more

    def unreachable() -> list[str]:
        raise HarnessError("pip index versions lib failed: no network")

    assert installing.published(config, "lib", unreachable) == ("1.0.0",)
    assert installing.published(config, "lib", lambda: ["1.0.0", "1.1.0"]) == ("1.0.0", "1.1.0")
    with pytest.raises(HarnessError, match="no network"):
        installing.published(_config(tmp_path / "elsewhere"), "lib", unreachable)
    assert installing.published(HarnessConfig(cache_dir=tmp_path / "none", run_root=tmp_path / "runs",
                                              offline=True), "lib", unreachable) == ()


def test_api_version_becomes_kafka_pythons_tuple_and_a_configuration_its_own_client() -> None:
    plain = {"bootstrap": "127.0.0.1:9092", "username": None, "password": None}
    pinned = {**plain, "settings": {"api_version": "2.3.0"}, "surface": "admin"}
    assert ADAPTER.library_settings(plain) == ADAPTER.library_settings({**plain, "settings": {}}) == {}
    assert ADAPTER.library_settings(pinned) == {"api_version": (2, 3, 0)}
    assert ADAPTER.client_key(plain) != ADAPTER.client_key(pinned)
    assert ADAPTER.client_key(pinned) == ADAPTER.client_key({**pinned, "settings": {"api_version": "2.3.0"}})
    with pytest.raises(ValueError, match=r"^api_version=２\.3 is not a release kafka-python can take"):
        ADAPTER.library_settings({**plain, "settings": {"api_version": "２.3"}})  # fullwidth: not ASCII digits
