"""ElectLeaders through confluent-kafka's AdminClient.elect_leaders (of the axis, 2.8.2 and later have it).

confluent-kafka answers with one future for the whole election; it is split into one future per
partition here so each partition's error is its own result, as with the other clients.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from . import ELECT_LEADERS, ElectLeadersArgs, TopicPartition
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient, resource_outcome
from ...clients.kinds.confluent.shared import lacks, library


@ELECT_LEADERS.implement(ConfluentClient)
def elect_leaders(client: ConfluentClient, args: ElectLeadersArgs, version: int | None) -> AdminResult:
    if (missing := lacks(client, "elect_leaders", "elect_leaders")) is not None:
        return missing
    ck = library()
    election = getattr(ck.ElectionType, args.election_type.upper())

    def elect(partitions: list[Any], **options: Any) -> dict[str, Future[Any]]:
        whole = client.library.elect_leaders(election, partitions, **options)
        futures: dict[str, Future[Any]] = {TopicPartition(p.topic, p.partition).label: Future() for p in partitions}
        whole.add_done_callback(lambda done: _split(done, futures))
        return futures

    # librdkafka's protocol log names the request "ElectLeadersRequestRequest (v0, ...)": its API is read as that
    return client.call("elect_leaders", "ElectLeadersRequest", elect,
                        [ck.TopicPartition(p.topic, p.partition) for p in args.partitions],
                        {}, resource_outcome)  # any keyword fails in 2.16.1's C binding (SystemError): defaults only


def _split(whole: Future[Any], futures: dict[str, Future[Any]]) -> None:
    """Each partition's answer (None or its KafkaError) onto its own future; a call-level error onto all."""
    ck = library()
    error = whole.exception()
    answers = {} if error is not None else {TopicPartition(tp.topic, tp.partition).label: value
                                            for tp, value in whole.result().items()}
    for label, future in futures.items():
        answer = error if error is not None else answers.get(label, LookupError(f"the answer has no {label}"))
        if isinstance(answer, ck.KafkaError):  # each partition's answer is a KafkaError, not raised
            answer = ck.KafkaException(answer)
        if isinstance(answer, BaseException):
            future.set_exception(answer)
        else:
            future.set_result(answer)
