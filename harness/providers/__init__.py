"""Broker providers: one module per way of running brokers, behind ``base.Provider``."""

from __future__ import annotations

from collections.abc import Callable

from ..config import HarnessConfig
from .base import Cluster, Progress, Provider
from .container import ContainerProvider
from .process import ProcessProvider

PROVIDERS: dict[str, Callable[..., Provider]] = {"process": ProcessProvider, "container": ContainerProvider}


def provider_for(
    name: str, config: HarnessConfig, *, progress: Progress | None = None, run_id: str | None = None
) -> Provider:
    try:
        factory = PROVIDERS[name]
    except KeyError:
        from ..errors import ConfigError

        raise ConfigError(f"unknown provider {name!r}; known: {', '.join(PROVIDERS)}") from None
    return factory(config, progress=progress, run_id=run_id)


__all__ = ["PROVIDERS", "Cluster", "Progress", "Provider", "provider_for"]
