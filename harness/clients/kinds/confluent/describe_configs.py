"""Describe configs through confluent-kafka's AdminClient."""

from __future__ import annotations

from ....operations.describe_configs import DESCRIBE_CONFIGS, DescribeConfigsArgs
from ...base import AdminResult
from ...confluent import ConfluentClient


@DESCRIBE_CONFIGS.implement(ConfluentClient)
def describe_configs(client: ConfluentClient, args: DescribeConfigsArgs, version: int | None) -> AdminResult:
    return client.describe_configs(args.targets, include_synonyms=args.include_synonyms,
                                   include_documentation=args.include_documentation)
