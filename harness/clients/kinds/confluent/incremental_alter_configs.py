"""Incrementally alter configs through confluent-kafka's AdminClient (incremental_alter_configs: 2.2+)."""

from __future__ import annotations

import dataclasses

from ....operations.incremental_alter_configs import INCREMENTAL_ALTER_CONFIGS, IncrementalAlterConfigsArgs
from ...base import AdminResult
from ...confluent import ConfluentClient, _outcome, _type_label
from ._shared import lacks, library

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
    mark = client._log.mark()
    result = client._call("incremental_alter_configs", "IncrementalAlterConfigs",
                          client._admin.incremental_alter_configs, resources,
                          {"validate_only": args.validate_only, "request_timeout": 30},
                          lambda resource, future: _outcome(f"{_type_label(resource)}:{resource.name}", future))
    if result.request_version is None:  # librdkafka logs it as "Sent IncrementalAlterConfigsRequestRequest"
        return dataclasses.replace(result, request_version=client._request_version(mark, _LOGGED_AS))
    return result
