"""Alter configs (legacy) through confluent-kafka's AdminClient."""

from __future__ import annotations

from . import ALTER_CONFIGS, AlterConfigsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient, resource_outcome, type_label
from ...clients.kinds.confluent.shared import library


@ALTER_CONFIGS.implement(ConfluentClient)
def alter_configs(client: ConfluentClient, args: AlterConfigsArgs, version: int | None) -> AdminResult:
    admin = library().admin
    resources = [admin.ConfigResource(getattr(admin.ResourceType, r.target.resource_type.upper()), r.target.name,
                                      set_config=dict(r.configs)) for r in args.resources]
    return client.call("alter_configs", "AlterConfigs", client.library.alter_configs, resources,
                        {"validate_only": args.validate_only, "request_timeout": 30},
                        lambda resource, future: resource_outcome(f"{type_label(resource)}:{resource.name}", future))
