"""A client reference's settings and surface (``sarama:1.38.1@version=broker``, ``kafka-go:0.4.47@surface=conn``):
one spelling per configuration, each kind's declarations, one-line bad input, how a client and a record get them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kcompat.harness import ConfigError
from kcompat.harness.clients import ClientRef, kind, kind_names
from kcompat.harness.clients.adapter import connection_settings
from kcompat.harness.records import SCHEMA_VERSION, Cell, Record, RecordError, loads_record


@pytest.mark.parametrize(("text", "written"), [
    ("wire", "wire"),
    ("wire@v5", "wire@v5"),
    ("sarama:1.38.1@version=broker", "sarama:1.38.1@version=broker"),
    ("confluent:2.3.0@broker.version.fallback=0.9.0@api.version.request=false",
     "confluent:2.3.0@api.version.request=false@broker.version.fallback=0.9.0"),
    ("kafka-go:0.4.47@surface=client", "kafka-go:0.4.47"),
    ("kafka-go:0.4.47@surface=conn", "kafka-go:0.4.47@surface=conn"),
    ("sarama:1.38.1@version=2.3.0@version=2.3.0", "sarama:1.38.1@version=2.3.0"),
    ("franz-go:1.22.2@surface=kmsg@max_versions=broker", "franz-go:1.22.2@max_versions=broker@surface=kmsg"),
])
def test_one_configuration_has_one_spelling(text: str, written: str) -> None:
    """Settings sorted by key, a kind's default surface never written: the id of a cell names a configuration
    once, and existing ids keep theirs; the spelling parses back to itself."""
    ref = ClientRef.parse(text)
    assert str(ref) == written and ClientRef.parse(written) == ref


@pytest.mark.parametrize(("text", "said"), [
    ("java:4.4.0@version=2.3", "java has no setting 'version': it has no settings (only @surface=, one of "
                               "brokers, controllers)"),
    ("sarama:1.38.1@api_version=2.3.0", "sarama has no setting 'api_version'; its settings: version"),
    ("sarama:1.38.1@version=banana", "version takes a version (ASCII digits and dots, e.g. 2.3.0) or broker"),
    ("sarama:1.38.1@version=２.3.0", "not '２.3.0'"),
    ("kafka-go:0.4.47@surface=nope", "kafka-go has no surface 'nope'; its surfaces: client, conn"),
    ("confluent@api.version.request=yes", "api.version.request takes true or false, not 'yes'"),
    ("confluent@api.version.fallback.ms=１0", "api.version.fallback.ms takes a whole number (ASCII digits)"),
    ("confluent@broker.version.fallback=broker", "broker.version.fallback takes a version (ASCII digits and "
                                                 "dots, e.g. 2.3.0), not 'broker'"),
    ("sarama:1.38.1@version=", "'version=' is not key=value (neither may be empty)"),
    ("sarama:1.38.1@=2.3.0", "'=2.3.0' is not key=value"),
    ("sarama:1.38.1@version=2.3.0@version=2.4.0", "sets version twice (2.3.0 and 2.4.0)"),
    ("wire@v5@v6", "is not KIND[:RELEASE][@vN][@key=value...]"),
    ("wire@v５", "is not KIND[:RELEASE][@vN][@key=value...]"),
    ("sarama:1.38.1@version=" + "9" * 5000, "is 5022 characters long; a client reference has at most 200"),
])
def test_bad_settings_are_one_line_naming_what_the_kind_takes(text: str, said: str) -> None:
    with pytest.raises(ConfigError) as raised:
        ClientRef.parse(text)
    assert said in str(raised.value) and "\n" not in str(raised.value), str(raised.value)
    assert len(str(raised.value)) < 300


def test_broker_is_resolved_per_cell_and_every_client_gets_its_surface() -> None:
    """``broker`` stays in the reference (one column across brokers) and becomes the cell's release for the
    client and its record; ``make`` always gets the surface, typed values, never the default surface unnamed."""
    ref = ClientRef.parse("sarama:1.38.1@version=broker")
    assert ref.settings_for("2.3.1") == {"version": "2.3.1"}
    assert ref.make_settings("2.3.1") == {"version": "2.3.1", "surface": "admin"}
    confluent = ClientRef.parse("confluent:2.3.0@api.version.request=false@api.version.fallback.ms=0")
    assert confluent.make_settings("2.3.1") == {"api.version.request": False, "api.version.fallback.ms": 0,
                                                 "surface": "admin"}
    assert ClientRef.parse("java:4.4.0").make_settings("4.1.2") == {"surface": "brokers"}
    conn = ClientRef.parse("kafka-go:0.4.47@surface=conn")
    assert conn.settings_for("4.1.2") == {"surface": "conn"}
    assert connection_settings(conn.make_settings("4.1.2")) == {"settings": {}, "surface": "conn"}
    assert connection_settings(ref.make_settings("2.3.1")) == {"settings": {"version": "2.3.1"}, "surface": "admin"}


def test_every_kind_declares_its_surfaces_and_settings_as_the_contract_lists() -> None:
    declared = {name: (kind(name).surfaces, {s.name: (s.type, s.broker) for s in kind(name).settings.values()})
                for name in kind_names()}
    assert declared == {
        "wire": (("wire",), {}),
        "confluent": (("admin",), {"api.version.request": ("bool", False), "broker.version.fallback": ("version", False),
                                   "api.version.fallback.ms": ("int", False)}),
        "java": (("brokers", "controllers"), {}),
        "kafka-python": (("admin",), {"api_version": ("version", True)}),
        "franz-go": (("kadm", "kmsg"), {"max_versions": ("version", True)}),
        "kafkajs": (("admin",), {}),
        "sarama": (("admin", "broker"), {"version": ("version", True)}),
        "kafka-go": (("client", "conn"), {}),
    }
    assert all(s.about and "\n" not in s.about for name in kind_names() for s in kind(name).settings.values())


def test_librdkafka_gets_its_own_property_names_and_strings() -> None:
    pytest.importorskip("confluent_kafka")
    from kcompat.harness.clients.confluent import librdkafka_settings

    assert librdkafka_settings({"api.version.request": False, "api.version.fallback.ms": 0,
                                "broker.version.fallback": "0.9.0"}) == {
        "api.version.request": "false", "api.version.fallback.ms": "0", "broker.version.fallback": "0.9.0"}


def _record(cell_id: str, **changes: Any) -> dict[str, Any]:
    cell = Cell.parse(cell_id)
    data: dict[str, Any] = json.loads(Record(
        run_id="r", cell_id=cell_id, kip="KIP-525", claim_id=cell.claim_id, api="CreateTopics",
        broker_version=cell.broker_version, broker_mode=cell.broker_mode, provider="process",
        client_kind=cell.client.partition(":")[0], client_version="1.38.1", outcome="pass", client=cell.client,
        client_settings=ClientRef.parse(cell.client).settings_for(cell.broker_version)).line())
    data.update(changes)
    return data


PINNED = "KIP-525/x[2.3.1-zk|sarama:1.38.1@version=broker]"


def test_schema_8_records_carry_the_settings_as_run_and_older_records_still_read() -> None:
    record = loads_record(json.dumps(_record(PINNED)))
    assert record.schema_version == SCHEMA_VERSION == 8 and record.client_settings == {"version": "2.3.1"}
    assert record.cell.client_settings == (("version", "broker"),)
    assert record.cell.series == "KIP-525/x[2.3-zk|sarama:1.38@version=broker]"
    old = _record("KIP-525/x[2.3.1-zk|sarama:1.38.1]", schema_version=7)
    del old["client_settings"]
    assert loads_record(json.dumps(old)).client_settings == {}
    with pytest.raises(RecordError, match="schema_version 7 has no client settings"):
        loads_record(json.dumps(_record(PINNED, schema_version=7)))
    with pytest.raises(RecordError, match="client_settings .* disagrees with cell_id"):
        loads_record(json.dumps(_record(PINNED, client_settings={"version": "banana"})))
    with pytest.raises(RecordError, match="client_settings .* disagrees with cell_id"):
        loads_record(json.dumps(_record(PINNED, client_settings={})))
    with pytest.raises(RecordError, match="client_settings is"):
        loads_record(json.dumps(_record(PINNED, client_settings={"version": 2})))
    with pytest.raises(RecordError, match="out of order"):
        Cell.parse("KIP-525/x[2.3.1-zk|confluent:2.3.0@broker.version.fallback=0.9.0@api.version.request=false]")


def _refused(*args: str, said: str) -> str:
    """``kcompat ARGS`` as typed: a usage error (exit 2) of one line holding ``said``, nothing booted."""
    from tests.console import kcompat

    done = kcompat(*args, timeout=90)
    assert done.returncode == 2 and "Traceback" not in done.stderr, (done.returncode, done.stdout[-500:], done.stderr)
    (line,) = done.stderr.strip().splitlines()
    assert said in line, line
    return line


@pytest.mark.parametrize(("client", "said"), [
    ("java:4.4.0@version=2.3", "java has no setting 'version': it has no settings"),
    ("sarama:1.38.1@version=banana", "version takes a version (ASCII digits and dots, e.g. 2.3.0) or broker"),
    ("sarama@version=banana", "not 'banana'"),
    ("kafka-go:0.4.47@surface=nope", "kafka-go has no surface 'nope'; its surfaces: client, conn"),
    ("sarama:1.38.1@version=２.3.0", "not '２.3.0'"),
])
def test_a_bad_setting_on_the_command_line_is_one_line_before_anything_boots(tmp_path: Any, client: str,
                                                                              said: str) -> None:
    out = tmp_path / "run"
    _refused("run", "--clients", client, "--brokers", "2.3", "--out", str(out), said=said)
    assert not out.exists()
    _refused("run", "--plan", "--clients", client, "--brokers", "2.3", said=said)


def test_limits_are_keyed_per_settings_and_a_configuration_without_a_line_is_measured(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pinned version changes what a library sends: a reference with settings has its own line (its own cache
    file, its ``settings`` in limits.jsonl), and one with no line is measured as a missing release is."""
    from kcompat.harness import HarnessConfig
    from kcompat.harness.clients import limits as limits_module
    from kcompat.harness.clients.base import ClientLimits
    from kcompat.harness.operations import operations

    monkeypatch.setattr(limits_module, "_KNOWN", {})
    config = HarnessConfig(cache_dir=tmp_path)
    default = ClientLimits("confluent", "2.3.0", {"Metadata": 12}, {}, "2026-11-24", "stub",
                           tuple(operations()), None, limits_module.api_digests())
    pinned_ref = ClientRef.parse("confluent:2.3.0@api.version.request=false@broker.version.fallback=0.9.0")
    pinned = ClientLimits.from_json({**default.as_json(), "newest": {"Metadata": 0},
                                     "settings": dict(pinned_ref.settings)}, "test")
    assert pinned.ref == str(pinned_ref) and pinned.as_json()["settings"] == dict(pinned_ref.settings)
    assert "settings" not in default.as_json()
    (tmp_path / "client-limits").mkdir()
    (tmp_path / "client-limits" / f"{limits_module._slug(pinned_ref)}.json").write_text(json.dumps(pinned.as_json()))
    monkeypatch.setattr(limits_module, "checked_in", lambda: {default.ref: default})
    measuring: list[str] = []

    def measure(ref: ClientRef, config: HarnessConfig, python: str, base: ClientLimits | None = None) -> ClientLimits:
        measuring.append(str(ref))
        return ClientLimits.from_json({**default.as_json(), "newest": {"Metadata": 4},
                                       "settings": dict(ref.settings)}, "test")

    monkeypatch.setattr(limits_module, "measure", measure)

    class Client:
        kind, version = "confluent", "2.3.0"

    def newest(ref: ClientRef) -> int:
        return limits_module.limits_of(Client(), ref, config).newest["Metadata"]  # type: ignore[arg-type]

    assert newest(pinned_ref) == 0 and limits_module.cached(pinned_ref, config) == pinned
    assert newest(ClientRef("confluent", "2.3.0")) == 12
    assert newest(ClientRef.parse("confluent:2.3.0@api.version.request=false")) == 4
    assert measuring == ["confluent:2.3.0@api.version.request=false"]
    with pytest.raises(ConfigError, match="settings maps"):
        ClientLimits.from_json({**default.as_json(), "settings": {"version": 2}}, "test")


def test_a_configuration_is_planned_under_its_one_spelling() -> None:
    """``run --plan`` as typed: ids carry the settings sorted and the default surface never."""
    from tests.console import kcompat, ok

    planned = ok(kcompat("run", "--plan", "--brokers", "2.3", "--kip", "KIP-525", "--clients",
                         "sarama:1.38.1@version=broker,kafka-go:0.4.47@surface=client,"
                         "confluent:2.3.0@broker.version.fallback=0.9.0@api.version.request=false", timeout=120))
    clients = {line.rsplit("|", 1)[1].rstrip("]") for line in planned.splitlines() if "|" in line}
    assert clients == {"sarama:1.38.1@version=broker", "kafka-go:0.4.47",
                       "confluent:2.3.0@api.version.request=false@broker.version.fallback=0.9.0"}


def test_the_clients_page_lists_every_kinds_surfaces_and_settings_as_declared() -> None:
    """docs/CLIENTS.md's table can't drift from the declarations: its surfaces and settings, kind by kind."""
    from pathlib import Path
    import re

    text = (Path(__file__).resolve().parents[2] / "docs" / "CLIENTS.md").read_text(encoding="utf-8")
    section = text.split("## Settings and surfaces", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ") for line in section.splitlines() if line.startswith("| `")]
    table = {row[0].strip("| `"): (tuple(re.findall(r"(?:^|, )`([a-z]+)`", row[1])),
                                   tuple(re.findall(r"(?:^|, )`([a-z_.]+)` \(", row[2]))) for row in rows}
    assert table == {name: (kind(name).surfaces, tuple(kind(name).settings)) for name in kind_names()}
    for name in kind_names():
        for setting in kind(name).settings.values():
            flags = ", broker" if setting.broker else ""
            assert f"`{setting.name}` ({setting.type}{flags})" in section, setting.name


def test_each_configuration_is_a_client_column_of_its_own(tmp_path: Any) -> None:
    """The page keys columns by the reference as written: the default and the pinned configuration of one
    release are two columns, each cell under its own, across brokers (``broker`` is one column)."""
    from kcompat.harness.records import append_record
    from kcompat.reports.page import load

    (tmp_path / "run.json").write_text(json.dumps({"schema_version": 8, "run_id": "r", "command": ["kcompat"],
                                                   "started_at": "2026-11-28T10:00:00Z", "ended_at": None}))
    for broker in ("2.3.1", "2.4.1"):
        for client in ("sarama:1.38.1", "sarama:1.38.1@version=broker", "kafka-go:0.4.47@surface=conn"):
            data = _record(f"KIP-525/x[{broker}-zk|{client}]")
            append_record(tmp_path / "records.jsonl", Record.from_json(data))
    matrix = load([tmp_path])
    assert matrix.clients == ["sarama:1.38.1", "sarama:1.38.1@version=broker", "kafka-go:0.4.47@surface=conn"]
    pinned = matrix.cells["KIP-525/x[2.4.1-zk|sarama:1.38.1@version=broker]"].record
    assert pinned.client_settings == {"version": "2.4.1"}
