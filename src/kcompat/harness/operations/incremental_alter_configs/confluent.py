"""Incrementally alter configs through confluent-kafka's AdminClient (incremental_alter_configs: 2.2+)."""

from __future__ import annotations

import dataclasses

from . import INCREMENTAL_ALTER_CONFIGS, IncrementalAlterConfigsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient, resource_outcome, type_label
from ...clients.kinds.confluent.shared import lacks, library

_LOGGED_AS = "IncrementalAlterConfigsRequest"
"""The API's name in librdkafka's protocol log (its request name ends in Request twice)."""


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
    mark = client.mark()
    result = client.call("incremental_alter_configs", "IncrementalAlterConfigs",
                          client.library.incremental_alter_configs, resources,
                          {"validate_only": args.validate_only, "request_timeout": 30},
                          lambda resource, future: resource_outcome(f"{type_label(resource)}:{resource.name}", future))
    if result.request_version is None:  # librdkafka logs it as "Sent IncrementalAlterConfigsRequestRequest"
        return dataclasses.replace(result, request_version=client.request_version(mark, _LOGGED_AS))
    return result
