"""Describe the cluster through confluent-kafka's AdminClient (describe_cluster: confluent-kafka 2.3+)."""

from __future__ import annotations

import dataclasses
from concurrent.futures import Future
from typing import Any

from . import DESCRIBE_CLUSTER, DescribeClusterArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import ConfluentClient, resource_outcome
from ...clients.kinds.confluent.shared import lacks


def _described(key: str, future: Future[Any]) -> ResourceOutcome:
    outcome = resource_outcome(key, future)
    if outcome.error_code != 0 or outcome.exception is not None:
        return outcome
    cluster = future.result()
    operations = cluster.authorized_operations
    return ResourceOutcome.of(key, 0, None, nodes=sorted(int(n.id) for n in cluster.nodes),
                              controller=None if cluster.controller is None else int(cluster.controller.id),
                              cluster_id=cluster.cluster_id,
                              authorized_operations=None if operations is None else
                              sorted(str(getattr(o, "name", o)) for o in operations))


@DESCRIBE_CLUSTER.implement(ConfluentClient)
def describe_cluster(client: ConfluentClient, args: DescribeClusterArgs, version: int | None) -> AdminResult:
    if (missing := lacks(client, "describe_cluster", "describe_cluster")) is not None:
        return missing
    result = client.call("describe_cluster", "Metadata",
                          lambda _, **options: {"cluster": client.library.describe_cluster(**options)}, None,
                          {"include_authorized_operations": args.include_authorized_operations,
                           "request_timeout": 30}, _described)
    return result if result.exception else dataclasses.replace(
        result, result_fields=("nodes", "controller", "cluster_id", "authorized_operations"))
