"""DescribeUserScramCredentials (KIP-554): the SCRAM mechanisms and iterations each user has, never a secret."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation

SCRAM_MECHANISMS = {1: "SCRAM_SHA_256", 2: "SCRAM_SHA_512"}
"""Kafka's ScramMechanism by wire value, named as the Java enum and confluent-kafka name it."""


@dataclass(frozen=True)
class DescribeUserScramCredentialsArgs:
    users: Sequence[str]


DESCRIBE_USER_SCRAM_CREDENTIALS = Operation(
    "describe_user_scram_credentials", DescribeUserScramCredentialsArgs, "DescribeUserScramCredentials",
    "one result per user: its error and `credentials`, [{mechanism, iterations}]",
    lambda topic: (DescribeUserScramCredentialsArgs([topic]),), java_class="DescribeUserScramCredentials")
