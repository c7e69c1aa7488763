"""Incrementally alter configs through the wire client, at the cell's pinned version if any."""

from __future__ import annotations

from typing import Any

from . import (
    INCREMENTAL_ALTER_CONFIGS,
    OP_TYPES,
    IncrementalAlterConfigsArgs,
)
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed, config_resource_type
from ..alter_configs.wire import resource_type_name

INCREMENTAL_ALTER_CONFIGS_KEY = 44


@INCREMENTAL_ALTER_CONFIGS.implement(WireClient)
@observed
def incremental_alter_configs(client: WireClient, args: IncrementalAlterConfigsArgs,
                              version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        empty = {"resources": (), "validate_only": False}
        resource = nested_type(INCREMENTAL_ALTER_CONFIGS_KEY, v, "AlterConfigsResource", **empty)
        config = nested_type(INCREMENTAL_ALTER_CONFIGS_KEY, v, "AlterableConfig", **empty)
        return build_request(INCREMENTAL_ALTER_CONFIGS_KEY, v, validate_only=args.validate_only, resources=tuple(
            resource(resource_type=config_resource_type(r.target.resource_type), resource_name=r.target.name,
                     configs=tuple(config(name=o.name, config_operation=OP_TYPES[o.op], value=o.value)
                                   for o in r.ops))
            for r in args.resources))

    sent, response, _ = client.send("incremental_alter_configs", INCREMENTAL_ALTER_CONFIGS_KEY, version, build, {})
    return AdminResult("incremental_alter_configs", client.kind, client.version, sent, tuple(
        ResourceOutcome.of(f"{resource_type_name(int(r.resource_type))}:{r.resource_name}", int(r.error_code),
                           r.error_message) for r in response.responses))
