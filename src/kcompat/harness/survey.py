"""What a survey observes and how it is read, kept apart from any display.

The CLI prints these; the matrix and the reports read the same records and
the same interpretation, so nothing is interpreted twice.

* ``survey_record``: a booted cluster and what it answered to ApiVersions.
* ``accepted_range``: the request versions a probed broker accepts for one API.
* ``client_cells``: one call of each admin operation, as a client makes it.
* ``cell_summary``: one short line per call: the version sent, and what the
  seed KIPs are about (KIP-525 configs in CreateTopics, KIP-569 documentation
  in DescribeConfigs), or the exception or error codes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .catalog import Catalog
from .clients import AdminClient, AdminResult, ConfigTarget, NewPartitions, NewTopic, kind, kind_names
from .operations import perform
from .operations.create_partitions import CREATE_PARTITIONS, CreatePartitionsArgs
from .operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from .operations.describe_configs import DESCRIBE_CONFIGS, DescribeConfigsArgs
from .operations.list_topics import LIST_TOPICS, ListTopicsArgs
from .providers.base import Cluster

SURVEY_APIS = ("Metadata", "CreateTopics", "DeleteTopics", "CreatePartitions", "DescribeConfigs",
               "AlterConfigs", "IncrementalAlterConfigs", "CreateAcls", "DescribeAcls",
               "DescribeCluster", "SaslAuthenticate")
"""The admin APIs the seed KIPs are about, and their neighbours."""
SURVEY_DEFAULT = ("0.11", "2.4", "3.9", "4.4")
"""Broker lines a survey probes when none are named."""
SURVEY_OPERATIONS = ("CreateTopics", "CreatePartitions", "DescribeConfigs", "Metadata")
"""The requests ``client_cells`` makes, in order."""


def survey_record(cluster: Cluster, provider: str) -> dict[str, Any]:
    """The JSON record of ``kcompat brokers probe``: the cluster, and ApiVersions as answered."""
    spec = cluster.spec
    return {
        "version": str(spec.version),
        "mode": spec.mode,
        "nodes": spec.nodes,
        "provider": provider,
        "java": cluster.java.version,
        "boot_seconds": round(cluster.boot_seconds, 3),
        "api_versions": [r.as_json() for r in sorted(cluster.api_versions, key=lambda r: r.api_key)],
    }


def accepted_range(record: Mapping[str, Any], api: str) -> str:
    """``v0-v5`` for an API the probed broker accepts, ``-`` for one it does not offer."""
    found = next((a for a in record["api_versions"] if a["name"] == api), None)
    return "-" if found is None else f"v{found['min_version']}-v{found['max_version']}"


def default_clients(catalog: Catalog) -> tuple[str, ...]:
    """The clients a survey drives when none are named, as each kind says (wire, confluent, the oldest and
    newest Java)."""
    refs: list[str] = []
    for name in kind_names():
        declared = kind(name).survey_default
        refs += declared(catalog) if declared is not None else (name,)
    return tuple(refs)


def client_cells(admin: AdminClient, topic: str) -> list[AdminResult]:
    """One call of each admin operation, as a client would make it against an existing ``topic``."""
    return [
        perform(admin, CREATE_TOPICS, CreateTopicsArgs([NewTopic(f"{topic}-new", 2, 1)], validate_only=True)),
        perform(admin, CREATE_PARTITIONS, CreatePartitionsArgs([NewPartitions(topic, 2)], validate_only=True)),
        perform(admin, DESCRIBE_CONFIGS, DescribeConfigsArgs([ConfigTarget("topic", topic)], include_synonyms=True,
                                                             include_documentation=True)),
        perform(admin, LIST_TOPICS, ListTopicsArgs()),
    ]


def cell_summary(result: AdminResult) -> str:
    """One call read against the seed KIPs: ``v5 +configs``, ``v0 UnsupportedVersion``, ``v3 no doc``."""
    sent = "-" if result.request_version is None else f"v{result.request_version}"
    if result.exception:
        return f"{sent} {result.exception.rsplit('.', 1)[-1]}"
    errors = {r.error_name for r in result.resources if r.error_code}
    extra = []
    if result.operation == "create_topics":  # KIP-525: offered by the client, and filled by the broker?
        fields = [r.fields for r in result.resources]
        if "configs" not in result.result_fields:
            extra.append("no configs")
        elif any(f.get("configs") for f in fields):
            extra.append("+configs")
        else:
            failed = {str(f.get("configs.exception", "")).rsplit(".", 1)[-1] for f in fields} - {""}
            extra.append(f"configs: {', '.join(sorted(failed)) or 'empty'}")
    if result.operation == "describe_configs":  # KIP-569
        extra.append("+doc" if "configs.documentation" in result.result_fields else "no doc")
    return " ".join([sent, *extra, *sorted(errors)])
