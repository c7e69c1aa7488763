"""Alter configs (the legacy AlterConfigs) through the wire client, at the cell's pinned version if any."""

from __future__ import annotations

from typing import Any

from . import ALTER_CONFIGS, AlterConfigsArgs
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import CONFIG_RESOURCE_TYPES, WireClient, observed, config_resource_type

ALTER_CONFIGS_KEY = 33


@ALTER_CONFIGS.implement(WireClient)
@observed
def alter_configs(client: WireClient, args: AlterConfigsArgs, version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        empty = {"resources": (), "validate_only": False}
        resource = nested_type(ALTER_CONFIGS_KEY, v, "AlterConfigsResource", **empty)
        config = nested_type(ALTER_CONFIGS_KEY, v, "AlterableConfig", **empty)
        return build_request(ALTER_CONFIGS_KEY, v, validate_only=args.validate_only, resources=tuple(resource(
            resource_type=config_resource_type(r.target.resource_type), resource_name=r.target.name,
            configs=tuple(config(name=k, value=val) for k, val in sorted(r.configs.items())))
            for r in args.resources))

    sent, response, _ = client.send("alter_configs", ALTER_CONFIGS_KEY, version, build, {})
    return AdminResult("alter_configs", client.kind, client.version, sent, tuple(
        ResourceOutcome.of(f"{resource_type_name(int(r.resource_type))}:{r.resource_name}", int(r.error_code),
                           r.error_message) for r in response.responses))


def resource_type_name(code: int) -> str:
    """``topic`` for 2, ``broker`` for 4: how every client names a config resource's result."""
    return {v: k for k, v in CONFIG_RESOURCE_TYPES.items()}.get(code, str(code))
