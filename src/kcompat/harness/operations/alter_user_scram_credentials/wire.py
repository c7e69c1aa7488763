"""AlterUserScramCredentials through the wire client: the client salts and hashes the password itself, as
Kafka's clients do (ScramFormatter: PBKDF2 with the mechanism's HMAC), so no password is sent."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from . import (
    ALTER_USER_SCRAM_CREDENTIALS,
    AlterUserScramCredentialsArgs,
    ScramUpsertion,
)
from ..describe_user_scram_credentials import SCRAM_MECHANISMS
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

API_KEY = 51
MECHANISM_CODES = {name: code for code, name in SCRAM_MECHANISMS.items()}
_HASHES = {"SCRAM_SHA_256": "sha256", "SCRAM_SHA_512": "sha512"}


def salted(upsertion: ScramUpsertion, salt: bytes) -> bytes:
    """SCRAM's SaltedPassword (RFC 5802 Hi): PBKDF2 of the password with the mechanism's hash."""
    return hashlib.pbkdf2_hmac(_HASHES[upsertion.mechanism], upsertion.password.encode(), salt,
                               upsertion.iterations)


@ALTER_USER_SCRAM_CREDENTIALS.implement(WireClient)
@observed
def alter_user_scram_credentials(client: WireClient, args: AlterUserScramCredentialsArgs,
                                 version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        upsertion, deletion = (nested_type(API_KEY, v, name, deletions=(), upsertions=())
                               for name in ("ScramCredentialUpsertion", "ScramCredentialDeletion"))
        salts = [secrets.token_bytes(32) for _ in args.upsertions]
        return build_request(API_KEY, v, deletions=tuple(
            deletion(name=d.user, mechanism=MECHANISM_CODES[d.mechanism]) for d in args.deletions),
            upsertions=tuple(upsertion(name=u.user, mechanism=MECHANISM_CODES[u.mechanism], iterations=u.iterations,
                                       salt=salt, salted_password=salted(u, salt))
                             for u, salt in zip(args.upsertions, salts, strict=True)))

    sent, response, _ = client.send("alter_user_scram_credentials", API_KEY, version, build, {},
                                   to_controller=True)  # ZooKeeper brokers alter them at the controller only
    outcomes = tuple(ResourceOutcome.of(str(r.user), int(r.error_code), r.error_message) for r in response.results)
    return AdminResult("alter_user_scram_credentials", client.kind, client.version, sent, outcomes)
