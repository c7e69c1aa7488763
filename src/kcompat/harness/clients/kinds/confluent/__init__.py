"""confluent-kafka (librdkafka): an install-time axis; another release runs in a venv of its own, and its
limits are measured against the stub broker (librdkafka can't be asked)."""

from __future__ import annotations

from collections.abc import Mapping

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version

from ....config import HarnessConfig
from ....errors import ConfigError
from ...base import AdminClient, ClientLimits, Endpoint
from ...limits import measured
from ...ref import ClientRef
from ...venv import check_confluent_release, confluent_venv
from .. import ClientKind, Refusal, RunReleases, Setting


def installed_confluent() -> str:
    try:
        return dist_version("confluent-kafka")
    except PackageNotFoundError:
        raise ConfigError("confluent-kafka is not installed here; install it (pip install confluent-kafka) "
                          "or name a release (confluent:2.16.1) for kcompat to install") from None


def _make(endpoint: Endpoint, config: HarnessConfig, release: str | None, run_id: str | None,
          settings: Mapping[str, object]) -> AdminClient:
    from ...confluent import ConfluentClient  # imported on demand: confluent-kafka may be absent

    installed = installed_confluent()
    if release is not None and release != installed:
        ref = f"confluent:{release}"
        raise ConfigError(f"{ref} asked for, but this Python has confluent-kafka {installed}; "
                          f"`kcompat run --clients {ref}` runs those cells in a venv of that release")
    return ConfluentClient(endpoint, {k: v for k, v in settings.items() if k != "surface"})


def _limits(client: AdminClient, config: HarnessConfig) -> ClientLimits:
    return measured(ClientRef("confluent", client.version), config)


def _run_json(releases: RunReleases) -> dict[str, object]:
    if releases.ran is None:
        return {"confluent": [{"confluent_kafka": v} for v in sorted(set(releases.planned))]}
    ran = sorted({(client, lib) for client, lib in releases.ran if lib})
    return {"confluent": [{"confluent_kafka": client, "librdkafka": lib} for client, lib in ran]}


KIND = ClientKind(
    name="confluent", order=10, library="confluent-kafka", release="optional", release_note="",
    make=_make, limits=_limits, modules=("kcompat.harness.clients.confluent", "kcompat.harness.clients.venv"),
    refusal=Refusal(errors=("_UNSUPPORTED_FEATURE",)), measured=True,
    installed=installed_confluent, check_release=check_confluent_release, python=confluent_venv, run_json=_run_json,
    settings={s.name: s for s in (
        Setting("api.version.request", "bool", "librdkafka's api.version.request: whether it asks the broker's "
                "ApiVersions (false: it assumes broker.version.fallback)"),
        Setting("broker.version.fallback", "version", "librdkafka's broker.version.fallback: the broker version "
                "it assumes without ApiVersions (only one below 0.10 really pins)"),
        Setting("api.version.fallback.ms", "int", "librdkafka's api.version.fallback.ms: how long it keeps the "
                "fallback after an ApiVersions request failed"))},
)
"""``_UNSUPPORTED_FEATURE``: librdkafka's error for a request the broker does not offer."""
