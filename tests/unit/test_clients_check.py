"""The conformance kit's reading of one answer (src/kcompat/harness/clients/check.py), on crafted results."""

from __future__ import annotations

from kcompat.harness.clients.base import AdminResult, ResourceOutcome
from kcompat.harness.clients.check import problems_of, read
from kcompat.harness.operations.create_topics import CreateTopicsArgs
from kcompat.harness.protocol import ApiVersionRange

ARGS = CreateTopicsArgs((), validate_only=True)
OFFERED = ApiVersionRange(19, 2, 7)


def _result(**changes: object) -> AdminResult:
    values: dict[str, object] = {"operation": "create_topics", "client": "kafkajs", "client_version": "2.2.4",
                                 "request_version": 5, "resources": (ResourceOutcome("t1", 36, "TOPIC_ALREADY_EXISTS",
                                                                                     "exists", {}),)}
    values.update(changes)
    return AdminResult(**values)  # type: ignore[arg-type]


def test_a_right_answer_conforms() -> None:
    assert read(_result(), "create_topics", "kafkajs", ARGS, OFFERED).status == "conforms"


def test_each_break_of_the_contract_is_named() -> None:
    wrong = _result(operation="createTopics", client="js", request_version=9, unsupported_options=("validateOnly",),
                    resources=(ResourceOutcome("t1", 36, "TOPIC_EXISTS", None, {}),
                               ResourceOutcome("t2", -1, "KafkaJSError", None, {})))
    found = problems_of(wrong, "create_topics", "kafkajs", ARGS, OFFERED)
    assert found == ["answers for operation 'createTopics'", "names client 'js'",
                     "resource 't1': error_code 36 is Kafka's TOPIC_ALREADY_EXISTS, the answer says TOPIC_EXISTS",
                     "resource 't2': error_code -1 is no Kafka error and no exception is named",
                     "says it sent v9, outside the broker's 2-7",
                     "unsupported_options names no argument of the call: validateOnly"]
    assert read(wrong, "create_topics", "kafkajs", ARGS, OFFERED).status == "broken"
    assert problems_of(_result(), "create_topics", "kafkajs", ARGS, None) == [
        "says it sent v5 of an API the broker does not offer"]


def test_a_client_without_the_operation_is_lacking_never_broken() -> None:
    absent = _result(resources=(), exception="NotImplementedError", request_version=None)
    assert read(absent, "create_topics", "kafkajs", ARGS, OFFERED).status == "lacking"
