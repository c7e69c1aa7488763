"""Describe configs through the Java AdminClient in its sidecar (``ops/DescribeConfigs.java``)."""

from __future__ import annotations

from ....operations.describe_configs import DESCRIBE_CONFIGS, DescribeConfigsArgs
from ...base import AdminResult
from ...java import JavaClient


@DESCRIBE_CONFIGS.implement(JavaClient)
def describe_configs(client: JavaClient, args: DescribeConfigsArgs, version: int | None) -> AdminResult:
    return client.describe_configs(args.targets, include_synonyms=args.include_synonyms,
                                   include_documentation=args.include_documentation)
