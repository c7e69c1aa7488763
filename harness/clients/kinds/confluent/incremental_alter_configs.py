"""Incrementally alter configs through confluent-kafka's AdminClient (incremental_alter_configs: 2.2+)."""

from __future__ import annotations

from ....operations.incremental_alter_configs import INCREMENTAL_ALTER_CONFIGS, IncrementalAlterConfigsArgs
from ...base import AdminResult
from ...confluent import ConfluentClient, _outcome, _type_label
from ._shared import lacks, library


@INCREMENTAL_ALTER_CONFIGS.implement(ConfluentClient)
def incremental_alter_configs(client: ConfluentClient, args: IncrementalAlterConfigsArgs,
                              version: int | None) -> AdminResult:
    if (missing := lacks(client, "incremental_alter_configs", "incremental_alter_configs")) is not None:
        return missing
    admin = library().admin
    resources = [admin.ConfigResource(
        getattr(admin.ResourceType, r.target.resource_type.upper()), r.target.name,
        incremental_configs=[admin.ConfigEntry(o.name, o.value,
                                               incremental_operation=getattr(admin.AlterConfigOpType, o.op))
                             for o in r.ops]) for r in args.resources]
    return client._call("incremental_alter_configs", "IncrementalAlterConfigs",
                        client._admin.incremental_alter_configs, resources, {"validate_only": args.validate_only, "request_timeout": 30},
                        lambda resource, future: _outcome(f"{_type_label(resource)}:{resource.name}", future))
