"""A client metrics subscription (KIP-714) made by the super user, for the probes that list them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ...clients import error_name
from ...clients.wire import WireClient
from ...protocol import build_request, nested_type, pick_version
from ...waiting import attempts
from ..probe import ProbeFailed

INCREMENTAL_ALTER_CONFIGS = 44
CLIENT_METRICS = 16
"""The config resource type of a client metrics subscription (3.7+)."""
SET, DELETE = 0, 1
SETTLE = 30.0
METRICS = "org.apache.kafka.producer."
"""What the subscription asks for: a prefix of the producer's metrics, any client's."""


def _alter(admin: WireClient, name: str, operation: int) -> str:
    """IncrementalAlterConfigs of the subscription's ``metrics`` (SET or DELETE); the resource's error name."""
    conn, offered = admin.connection()
    version = pick_version(INCREMENTAL_ALTER_CONFIGS, offered)
    config = nested_type(INCREMENTAL_ALTER_CONFIGS, version, "AlterableConfig")(
        name="metrics", config_operation=operation, value=METRICS if operation == SET else None)
    resource = nested_type(INCREMENTAL_ALTER_CONFIGS, version, "AlterConfigsResource")(
        resource_type=CLIENT_METRICS, resource_name=name, configs=(config,))
    response: Any = conn.send(build_request(INCREMENTAL_ALTER_CONFIGS, version, resources=(resource,),
                                            validate_only=False))
    return error_name(int(response.responses[0].error_code)) if response.responses else "NO_ANSWER"


@contextmanager
def client_metrics_resource(admin: WireClient, name: str) -> Iterator[str]:
    """A subscription called ``name`` for the ``with`` block, then deleted (its one config removed; a deletion
    refused is left: a test cluster keeps a stray subscription harmlessly)."""
    error = _alter(admin, name, SET)
    if error != "NONE":
        raise ProbeFailed(f"set-up: creating client metrics subscription {name} as the super user gave {error}")
    try:
        yield name
    finally:
        for _ in attempts(SETTLE, interval=0.2):
            if _alter(admin, name, DELETE) in ("NONE", "RESOURCE_NOT_FOUND"):
                break


__all__ = ["client_metrics_resource"]
