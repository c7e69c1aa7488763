"""Alter configs (legacy) through confluent-kafka's AdminClient."""

from __future__ import annotations

from ....operations.alter_configs import ALTER_CONFIGS, AlterConfigsArgs
from ...base import AdminResult
from ...confluent import ConfluentClient, _outcome, _type_label
from ._shared import library


@ALTER_CONFIGS.implement(ConfluentClient)
def alter_configs(client: ConfluentClient, args: AlterConfigsArgs, version: int | None) -> AdminResult:
    admin = library().admin
    resources = [admin.ConfigResource(getattr(admin.ResourceType, r.target.resource_type.upper()), r.target.name,
                                      set_config=dict(r.configs)) for r in args.resources]
    return client._call("alter_configs", "AlterConfigs", client._admin.alter_configs, resources,
                        {"validate_only": args.validate_only, "request_timeout": 30},
                        lambda resource, future: _outcome(f"{_type_label(resource)}:{resource.name}", future))
