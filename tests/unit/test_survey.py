"""The survey's records and their reading against the seed KIPs, without a broker."""

from types import SimpleNamespace
from typing import Any

from kcompat.harness import load_catalog
from kcompat.harness.clients import AdminResult, ResourceOutcome
from kcompat.harness.survey import SURVEY_OPERATIONS, accepted_range, cell_summary, client_cells, default_clients, survey_record
from kcompat.harness.operations import operations
from kcompat.harness.protocol import ApiVersionRange


def test_survey_record_sorts_api_versions_and_rounds_the_boot() -> None:
    spec = SimpleNamespace(version="3.9.2", mode="kraft", nodes=1)
    cluster: Any = SimpleNamespace(spec=spec, java=SimpleNamespace(version="17.0.9"), boot_seconds=3.14159,
                                   api_versions=[ApiVersionRange(19, 0, 7), ApiVersionRange(3, 0, 12)])
    record = survey_record(cluster, "process")
    assert record["boot_seconds"] == 3.142 and record["provider"] == "process"
    assert [a["api_key"] for a in record["api_versions"]] == [3, 19]
    assert accepted_range(record, "CreateTopics") == "v0-v7"
    assert accepted_range(record, "DescribeCluster") == "-"


def test_cells_read_kip_525_and_kip_569() -> None:
    def result(operation: str, fields: dict[str, Any], result_fields: tuple[str, ...], version: int = 5,
               code: int = 0) -> AdminResult:
        resource = ResourceOutcome("t", code, "TOPIC_ALREADY_EXISTS" if code else "NONE", None, fields)
        return AdminResult(operation, "java", "2.3.1", version, (resource,), result_fields)

    assert cell_summary(result("create_topics", {}, ())) == "v5 no configs"
    assert cell_summary(result("create_topics", {"configs": [{"name": "a"}]}, ("configs",))) == "v5 +configs"
    assert cell_summary(result("create_topics", {"configs.exception": "org.x.UnsupportedVersionException"},
                               ("configs",))) == "v5 configs: UnsupportedVersionException"
    assert cell_summary(result("describe_configs", {}, ("configs.documentation",), 3)) == "v3 +doc"
    assert cell_summary(result("list_topics", {}, (), 1, code=36)) == "v1 TOPIC_ALREADY_EXISTS"
    thrown = AdminResult("create_topics", "java", "4.4.0", None, exception="org.apache.kafka.X.UnsupportedVersion")
    assert cell_summary(thrown) == "- UnsupportedVersion"


def test_client_cells_make_one_call_per_operation_in_order() -> None:
    """Each call goes through the operation registry (``perform``), as any kind's client would take it."""
    calls: list[tuple[str, Any]] = []

    class Recorder:
        kind, version = "recorder", "1.0"

    for name, operation in operations().items():
        operation.implement(Recorder)(lambda client, args, version, name=name: calls.append((name, args))
                                      or AdminResult(name, client.kind, client.version, None))
    made = client_cells(Recorder(), "t")  # type: ignore[arg-type]
    assert [r.operation for r in made] == ["create_topics", "create_partitions", "describe_configs", "list_topics"]
    assert calls[0][1].validate_only is True and calls[2][1].include_documentation is True
    assert len(SURVEY_OPERATIONS) == len(calls)


def test_default_clients_span_the_java_axis() -> None:
    catalog = load_catalog()
    clients = default_clients(catalog)
    assert clients[:2] == ("wire", "confluent")
    assert clients[2:] == (f"java:{catalog.java_clients[0].version}", f"java:{catalog.java_clients[-1].version}")
