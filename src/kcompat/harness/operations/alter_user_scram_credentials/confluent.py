"""AlterUserScramCredentials through confluent-kafka (from 2.2; older releases lack the method)."""

from __future__ import annotations

from . import ALTER_USER_SCRAM_CREDENTIALS, AlterUserScramCredentialsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient, resource_outcome
from ...clients.kinds.confluent.shared import lacks, library

LOGGED_AS = "AlterUserScramCredentialsRequest"
"""librdkafka names this API ``AlterUserScramCredentialsRequest``: its log line reads
"Sent AlterUserScramCredentialsRequestRequest (v0, ...)", so that is the name the adapter reads the request version
under."""


@ALTER_USER_SCRAM_CREDENTIALS.implement(ConfluentClient)
def alter_user_scram_credentials(client: ConfluentClient, args: AlterUserScramCredentialsArgs,
                                 version: int | None) -> AdminResult:
    missing = lacks(client, "alter_user_scram_credentials", "alter_user_scram_credentials")
    if missing is not None:
        return missing
    ck = library().admin
    alterations = [ck.UserScramCredentialUpsertion(
        u.user, ck.ScramCredentialInfo(getattr(ck.ScramMechanism, u.mechanism), u.iterations), u.password.encode())
        for u in args.upsertions]
    alterations += [ck.UserScramCredentialDeletion(d.user, getattr(ck.ScramMechanism, d.mechanism))
                    for d in args.deletions]
    return client.call("alter_user_scram_credentials", LOGGED_AS,
                        client.library.alter_user_scram_credentials, alterations, {"request_timeout": 30}, resource_outcome)
