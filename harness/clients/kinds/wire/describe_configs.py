"""Describe configs through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

from ....operations.describe_configs import DESCRIBE_CONFIGS, DescribeConfigsArgs
from ...base import AdminResult
from ...wire import WireClient


@DESCRIBE_CONFIGS.implement(WireClient)
def describe_configs(client: WireClient, args: DescribeConfigsArgs, version: int | None) -> AdminResult:
    return client.describe_configs(args.targets, include_synonyms=args.include_synonyms,
                                   include_documentation=args.include_documentation, version=version)
