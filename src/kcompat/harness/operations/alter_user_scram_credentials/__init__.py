"""AlterUserScramCredentials (KIP-554): SCRAM credentials upserted (from a password) or deleted, per user."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import Operation


@dataclass(frozen=True)
class ScramUpsertion:
    user: str
    password: str = field(repr=False)
    mechanism: str = "SCRAM_SHA_256"
    iterations: int = 8192


@dataclass(frozen=True)
class ScramDeletion:
    user: str
    mechanism: str = "SCRAM_SHA_256"


@dataclass(frozen=True)
class AlterUserScramCredentialsArgs:
    upsertions: Sequence[ScramUpsertion] = ()
    deletions: Sequence[ScramDeletion] = ()


ALTER_USER_SCRAM_CREDENTIALS = Operation(
    "alter_user_scram_credentials", AlterUserScramCredentialsArgs, "AlterUserScramCredentials",
    "one result per user altered: its error",
    lambda topic: (AlterUserScramCredentialsArgs([ScramUpsertion(topic, "kcompat-limits")]),),
    java_class="AlterUserScramCredentials")
