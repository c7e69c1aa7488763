"""CreateDelegationToken through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

import base64
import datetime
from types import SimpleNamespace
from typing import Any

from kio.index import load_response_schema
from kio.serial import entity_reader
from kio.static.primitive import i64Timedelta

from ...errors import WireError
from . import CREATE_DELEGATION_TOKEN, CreateDelegationTokenArgs
from ...protocol import build_request, nested_type, pick_version
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

API_KEY = 38
EXPIRY_ONLY = frozenset({39, 40})
"""RenewDelegationToken and ExpireDelegationToken, whose response body is the error code, then the expiry
timestamp (int64 ms), then the throttle time, in every version: their expiry is read off the frame where kio
can't make a datetime of it (KRaft 3.6 answers an expired token's with a value past datetime's range)."""


def epoch_ms(value: Any) -> int:
    """A response timestamp in epoch ms: an int64 of ms (DescribeDelegationToken), or an aware datetime, which
    kio truncates to the second as it decodes it (the other token responses)."""
    if isinstance(value, datetime.datetime):
        return int(value.timestamp() * 1000)
    return int(value)


def send_token_request(client: WireClient, operation: str, api_key: int, version: int | None,
                       build: Any) -> tuple[int, Any | None, int]:
    """(version sent, response or None, error code) of a token request.

    A token response that is an error carries its timestamps as -1, which kio can't decode (a datetime
    before the epoch); its error code, the body's first field, is then read from the frame itself, and so is
    a success's expiry where the response is of ``EXPIRY_ONLY``.  A
    version the broker does not offer goes through ``WireClient._send``, whose refusal record is the same
    as for every request."""
    offered = client.api_versions()
    advertised = offered.get(api_key)
    if advertised is None or (version is not None and not advertised.min_version <= version <= advertised.max_version):
        sent, response, _ = client.send(operation, api_key, version, build, {})
        return sent, response, int(response.error_code)
    chosen = pick_version(api_key, offered) if version is None else version
    conn, _ = client.connection()
    try:
        frame = conn.exchange(build(chosen, {}))
    except WireError:
        client.drop(client.endpoint.first)
        raise
    try:
        response = conn.decode(frame)
    except WireError:
        header = load_response_schema(api_key, chosen).__header_schema__
        _, offset = entity_reader(header)(frame.data, 0)
        code = int.from_bytes(frame.data[offset:offset + 2], "big", signed=True)
        if code == 0 and api_key in EXPIRY_ONLY:  # a success whose expiry kio can't read as a datetime
            expiry = int.from_bytes(frame.data[offset + 2:offset + 10], "big", signed=True)
            return chosen, SimpleNamespace(error_code=0, expiry_timestamp=expiry), code
        if code == 0:
            raise  # a success kio can't read: not an error response's -1 timestamps
        return chosen, None, code
    return chosen, response, int(response.error_code)


def principal(kind: str, name: str) -> tuple[str, str]:
    """``User:alice`` -> (``User``, ``alice``)."""
    found, _, rest = kind.partition(":")
    return found, rest if rest else name


@CREATE_DELEGATION_TOKEN.implement(WireClient)
@observed
def create_delegation_token(client: WireClient, args: CreateDelegationTokenArgs, version: int | None
                            ) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        fields: dict[str, Any] = {  # the owner fields (v3+, KIP-373) left null: the token is the caller's
            "owner_principal_type": None, "owner_principal_name": None, "renewers": (),
            "max_lifetime": i64Timedelta.parse(datetime.timedelta(milliseconds=args.max_lifetime_ms))}
        renewer = nested_type(API_KEY, v, "CreatableRenewers", **fields)
        fields["renewers"] = tuple(renewer(principal_type=t, principal_name=n)
                                   for t, n in (principal(r, "") for r in args.renewers))
        return build_request(API_KEY, v, **fields)

    sent, response, code = send_token_request(client, "create_delegation_token", API_KEY, version, build)
    fields: dict[str, Any] = {}
    if response is not None and code == 0:
        fields = {"token_id": str(response.token_id),
                  "owner": f"{response.principal_type}:{response.principal_name}", "renewers": list(args.renewers),
                  "issue_timestamp": epoch_ms(response.issue_timestamp),
                  "expiry_timestamp": epoch_ms(response.expiry_timestamp),
                  "max_timestamp": epoch_ms(response.max_timestamp),
                  "hmac": base64.b64encode(bytes(response.hmac)).decode()}
    return AdminResult("create_delegation_token", client.kind, client.version, sent,
                       (ResourceOutcome.of("token", code, None, **fields),), tuple(fields))
