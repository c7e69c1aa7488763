"""DescribeUserScramCredentials through confluent-kafka (from 2.2; older releases lack the method)."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from . import (
    DESCRIBE_USER_SCRAM_CREDENTIALS,
    DescribeUserScramCredentialsArgs,
)
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import CALL_TIMEOUT, ConfluentClient, resource_outcome
from ...clients.kinds.confluent.shared import lacks

LOGGED_AS = "DescribeUserScramCredentialsRequest"
"""librdkafka names this API ``DescribeUserScramCredentialsRequest``: its log line reads
"Sent DescribeUserScramCredentialsRequestRequest (v0, ...)", so that is the name the adapter reads the request version
under."""


@DESCRIBE_USER_SCRAM_CREDENTIALS.implement(ConfluentClient)
def describe_user_scram_credentials(client: ConfluentClient, args: DescribeUserScramCredentialsArgs,
                                    version: int | None) -> AdminResult:
    missing = lacks(client, "describe_user_scram_credentials", "describe_user_scram_credentials")
    if missing is not None:
        return missing

    def describe(user: str, future: Future[Any]) -> ResourceOutcome:
        outcome = resource_outcome(user, future)
        if outcome.error_code != 0 or outcome.exception is not None:
            return outcome
        infos = future.result(timeout=CALL_TIMEOUT).scram_credential_infos
        return ResourceOutcome.of(user, 0, None, credentials=[
            {"mechanism": info.mechanism.name, "iterations": int(info.iterations)} for info in infos])

    return client.call("describe_user_scram_credentials", LOGGED_AS,
                        client.library.describe_user_scram_credentials, list(args.users), {"request_timeout": 30},
                        describe)
