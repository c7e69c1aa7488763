"""The Java AdminClient of a kafka-clients release, in a sidecar JVM compiled against that release."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ....central import check_client_release
from ....config import HarnessConfig
from ....protocol import api_name, api_names
from ...base import AdminClient, AdminResult, ClientLimits, Endpoint
from .. import ClientKind, Refusal, RunReleases


def _make(endpoint: Endpoint, config: HarnessConfig, release: str | None, run_id: str | None,
          settings: Mapping[str, object]) -> AdminClient:
    from ...java import JavaClient

    assert release is not None  # ClientRef.parse guarantees it (release = "required")
    return JavaClient(endpoint, release, config, run_id=run_id, settings=settings)


def api_constant(api: str) -> str:
    """``CreateTopics`` -> ``CREATE_TOPICS`` (Java's ApiKeys name)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", api).upper()


def _limits(client: AdminClient, config: HarnessConfig) -> ClientLimits:
    """kafka-clients' ApiKeys latestVersion() and oldestVersion(), asked in the sidecar."""
    from ...java import JavaClient

    assert isinstance(client, JavaClient)
    newest, oldest, keys = client.client_api_versions(), client.client_oldest_versions(), client.client_api_keys()
    by_constant = {api_constant(name): name for name in api_names().values()}
    for constant, key in keys.items():  # by key where the release says it: its name may not be the definitions'
        if (name := api_name(key)) is not None:
            by_constant[constant] = name
    return ClientLimits("java", client.version, {by_constant[c]: v for c, v in newest.items() if c in by_constant},
                        {by_constant[c]: v for c, v in oldest.items() if c in by_constant}, None,
                        "kafka-clients' ApiKeys latestVersion() and oldestVersion(), asked in the sidecar")


def _run_json(releases: RunReleases) -> dict[str, object]:
    return {"java_clients": sorted(set(releases.selected))} if releases.ran is None else {}


def _by_name(client: AdminClient, op: str, args: object) -> AdminResult:
    from ...java import JavaClient

    assert isinstance(client, JavaClient)
    return client.perform_by_name(op, args)


KIND = ClientKind(
    name="java", order=20, library="kafka-clients", release="required",
    release_note="the java client needs a kafka-clients release, e.g. java:4.4.0",
    make=_make, limits=_limits, modules=("kcompat.harness.clients.java",),
    refusal=Refusal(exceptions=("UnsupportedVersionException",)),
    check_release=check_client_release, run_json=_run_json, perform_by_name=_by_name, documents_itself=True,
    survey_default=lambda catalog: (f"java:{catalog.java_clients[0].version}",
                                    f"java:{catalog.java_clients[-1].version}"),
    surfaces=("brokers", "controllers"),
)
"""Surfaces: ``brokers`` (``bootstrap.servers``), ``controllers`` (``bootstrap.controllers``, KIP-919: kafka-clients
3.7 on, against KRaft)."""
