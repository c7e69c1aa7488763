"""Describe configs through the wire client, at the cell's pinned request version where it has one; the
detail options a version lacks (synonyms, documentation) are left out and reported."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_CONFIGS, DescribeConfigsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import CONFIG_RESOURCE_TYPES, WireClient, config_entry, config_resource_type, observed, plain
from ...protocol import build_request, nested_type

API_KEY = 32


def _request(args: DescribeConfigsArgs, v: int, options: dict[str, bool]) -> Any:
    resource = nested_type(API_KEY, v, "DescribeConfigsResource", resources=())
    entities = tuple(resource(resource_type=config_resource_type(t.resource_type), resource_name=t.name,
                              configuration_keys=None) for t in args.targets)
    return build_request(API_KEY, v, resources=entities, **options)


def _type_name(code: int) -> str:
    return {v: k for k, v in CONFIG_RESOURCE_TYPES.items()}.get(code, str(code))


@DESCRIBE_CONFIGS.implement(WireClient)
@observed
def describe_configs(client: WireClient, args: DescribeConfigsArgs, version: int | None) -> AdminResult:
    sent, response, lacking = client.send(
        "describe_configs", API_KEY, version, lambda v, options: _request(args, v, options),
        {"include_synonyms": args.include_synonyms, "include_documentation": args.include_documentation})
    outcomes = []
    entry_fields: tuple[str, ...] = ()
    for item in response.results:
        raw = plain(item)
        configs = [config_entry(c) for c in raw["configs"]]
        if item.configs:
            entry_fields = tuple(configs[0])
        outcomes.append(ResourceOutcome.of(f"{_type_name(raw['resource_type'])}:{item.resource_name}",
                                           int(item.error_code), raw["error_message"], configs=configs))
    return AdminResult("describe_configs", client.kind, client.version, sent, tuple(outcomes),
                       tuple(f"configs.{name}" for name in entry_fields), unsupported_options=lacking)
