"""What confluent-kafka's group operations share: states by Kafka's names, and the results of a call whose
futures carry many (groups, partitions)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from ....errors import HarnessError
from ...base import ResourceOutcome, error_name
from ...confluent import CALL_TIMEOUT
from .shared import library

STATES = {"PREPARING_REBALANCING": "PreparingRebalance", "COMPLETING_REBALANCING": "CompletingRebalance",
          "STABLE": "Stable", "DEAD": "Dead", "EMPTY": "Empty", "UNKNOWN": "Unknown"}
"""confluent-kafka's ConsumerGroupState names -> Kafka's (what ListGroups and DescribeGroups answer)."""
OFFSET_INVALID = -1001
"""librdkafka's offset for a partition without a committed one."""


def state_name(state: Any) -> str | None:
    """A ConsumerGroupState (an enum, or an int in some releases) by Kafka's name."""
    if state is None:
        return None
    name = getattr(state, "name", None)
    if name is None:
        name = library().ConsumerGroupState(int(state)).name
    return STATES.get(str(name), str(name))


def state_of(name: str) -> Any:
    """Kafka's state name (``Stable``) as confluent-kafka's ConsumerGroupState."""
    by_kafka = {kafka: ours for ours, kafka in STATES.items()}
    return library().ConsumerGroupState[by_kafka.get(name, name.upper())]


def waited(resource: str, future: Future[Any]) -> tuple[Any, ResourceOutcome]:
    """A future's value and its outcome (the error it failed with: data; no answer in time: ours)."""
    try:
        return future.result(timeout=CALL_TIMEOUT), ResourceOutcome(resource)
    except FutureTimeout as exc:
        raise HarnessError(f"confluent-kafka gave no answer for {resource} in {CALL_TIMEOUT:.0f}s") from exc
    except Exception as exc:  # the client's verdict is data
        return None, failure(resource, exc)


def failure(resource: str, exc: BaseException) -> ResourceOutcome:
    """An exception (a KafkaException's KafkaError, or any other) as a resource's outcome."""
    error = exc.args[0] if exc.args and isinstance(exc.args[0], library().KafkaError) else exc
    if isinstance(error, library().KafkaError):
        code = int(error.code())
        return ResourceOutcome(resource, code, error_name(code) if code >= 0 else str(error.name()), str(error.str()),
                               {}, type(exc).__name__)
    return ResourceOutcome(resource, -1, type(exc).__name__, str(exc), {}, type(exc).__name__)


def partition_outcomes(partitions: Sequence[Any], fields: Callable[[Any], dict[str, Any]]) -> list[ResourceOutcome]:
    """One outcome per TopicPartition of a result (``topic:partition``), its error where it has one."""
    outcomes = []
    for tp in partitions:
        name = f"{tp.topic}:{tp.partition}"
        error = getattr(tp, "error", None)
        if error is not None:
            code = int(error.code())
            outcomes.append(ResourceOutcome(name, code, error_name(code) if code >= 0 else str(error.name()),
                                            str(error.str()), fields(tp)))
        else:
            outcomes.append(ResourceOutcome(name, 0, "NONE", None, fields(tp)))
    return outcomes
