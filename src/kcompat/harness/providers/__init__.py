"""Broker providers: one module per way of running brokers, behind ``base.Provider``.

Registered lazily: a provider's module (and whatever SDK it needs) is imported
only when that provider is asked for, so a run with the process provider never
loads testcontainers or the Docker SDK.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..config import HarnessConfig
from ..errors import ConfigError
from .base import Cluster, Progress, Provider

ProviderFactory = Callable[..., Provider]
"""A provider's class: ``factory(config, progress=..., run_id=...)``."""


def _process() -> ProviderFactory:
    from .process import ProcessProvider

    return ProcessProvider


def _container() -> ProviderFactory:
    from .container import ContainerProvider

    return ContainerProvider


PROVIDERS: dict[str, Callable[[], ProviderFactory]] = {"process": _process, "container": _container}
"""Provider name -> a function importing and returning its class."""


def provider_for(
    name: str, config: HarnessConfig, *, progress: Progress | None = None, run_id: str | None = None
) -> Provider:
    try:
        load = PROVIDERS[name]
    except KeyError:
        raise ConfigError(f"unknown provider {name!r}; known: {', '.join(PROVIDERS)}") from None
    return load()(config, progress=progress, run_id=run_id)


def reap_orphans(config: HarnessConfig, names: Iterable[str] | None = None, *, reused: bool = False) -> list[str]:
    """Each named provider's ``reap_orphans`` (every provider when ``names`` is None), in order.

    A name no provider has is skipped: whoever boots with it reports that.
    """
    reaped: list[str] = []
    for name in dict.fromkeys(PROVIDERS if names is None else names):
        if name in PROVIDERS:
            reaped += provider_for(name, config).reap_orphans(reused=reused)
    return reaped


__all__ = ["PROVIDERS", "Cluster", "Progress", "Provider", "ProviderFactory", "provider_for", "reap_orphans"]
