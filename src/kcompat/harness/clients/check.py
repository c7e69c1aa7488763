"""``kcompat clients check``: does a client keep docs/ADAPTERS.md's contract, operation by operation?

A kind is only as good as its answers: a wrong field name or a mapped error
code that is not Kafka's is a wrong verdict in every cell of that column.  The
check drives every operation the client has (an adapter's ready line says which;
a kind with modules has those) once against a real broker, with the
operation's first sample call on a topic made for it, and reads each answer
against the contract: the operation and client it names, each error code
against Kafka's name for it, an exception named where there is no code, the
request version inside the broker's offered range, options it could not
express named among the call's arguments.  Then it closes the client and
checks the adapter is still there.  An operation the client lacks is listed
as ``lacking`` (its cells are ``unsupported``, limited by the client), never
as a failure.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import HarnessError
from ..protocol import ApiVersionRange
from .base import AdminClient, AdminResult, error_name

Status = Literal["conforms", "lacking", "broken"]
ABSENT = frozenset({"NotImplementedError", "NoSuchMethodException"})
"""How a client says it lacks an operation (an undeclared adapter operation, a release without the method)."""


@dataclass(frozen=True)
class Conformance:
    """One operation's (or the close's) answer, read against the contract."""

    operation: str
    status: Status
    problems: tuple[str, ...] = ()
    result: AdminResult | None = None
    seconds: float | None = None
    """How long the call took, set-up excluded: an operation that waits out a timeout shows here."""

    def as_json(self) -> dict[str, Any]:
        return {"operation": self.operation, "status": self.status, "problems": list(self.problems),
                "seconds": None if self.seconds is None else round(self.seconds, 3),
                "result": None if self.result is None else self.result.as_json()}


def problems_of(result: AdminResult, operation: str, client_kind: str, args: object,
                offered: ApiVersionRange | None) -> list[str]:
    """What in one answer breaks the contract (empty: it conforms)."""
    found: list[str] = []
    if result.operation != operation:
        found.append(f"answers for operation {result.operation!r}")
    if result.client != client_kind:
        found.append(f"names client {result.client!r}")
    for resource in result.resources:
        where = f"resource {resource.resource!r}"
        if resource.error_code >= 0 and resource.error_name != error_name(resource.error_code):
            found.append(f"{where}: error_code {resource.error_code} is Kafka's {error_name(resource.error_code)}, "
                         f"the answer says {resource.error_name}")
        if resource.error_code < 0 and not resource.exception:
            found.append(f"{where}: error_code {resource.error_code} is no Kafka error and no exception is named")
        if not isinstance(resource.fields, Mapping):
            found.append(f"{where}: fields is not an object")
    if result.request_version is not None:
        if offered is None:
            found.append(f"says it sent v{result.request_version} of an API the broker does not offer")
        elif not offered.min_version <= result.request_version <= offered.max_version:
            found.append(f"says it sent v{result.request_version}, outside the broker's "
                         f"{offered.min_version}-{offered.max_version}")
    names = {f.name for f in dataclasses.fields(args)} if dataclasses.is_dataclass(args) else set()
    stray = [o for o in result.unsupported_options if o not in names]
    if stray:
        found.append(f"unsupported_options names no argument of the call: {', '.join(stray)}")
    return found


def read(result: AdminResult, operation: str, client_kind: str, args: object,
         offered: ApiVersionRange | None) -> Conformance:
    if result.exception in ABSENT and not result.resources:
        return Conformance(operation, "lacking", (), result)
    found = problems_of(result, operation, client_kind, args, offered)
    return Conformance(operation, "broken" if found else "conforms", tuple(found), result)


def check(admin: AdminClient, offered: Mapping[int, ApiVersionRange], topic_for: Any) -> list[Conformance]:
    """Every operation once through ``admin`` (``topic_for(name)`` makes a fresh topic on the broker and returns
    its name), then the close: each read against the contract."""
    from ..operations import NoImplementation, operations, perform
    from ..protocol import api_name

    keys = {name: key for key in range(0, 256) if (name := api_name(key)) is not None}
    rows: list[Conformance] = []
    for name, operation in sorted(operations().items()):
        args = operation.samples(topic_for(name))[0]
        started = time.monotonic()
        try:
            result = perform(admin, operation, args)
        except NoImplementation:
            rows.append(Conformance(name, "lacking", ("no implementation for this kind",)))
            continue
        except HarnessError as exc:
            rows.append(Conformance(name, "broken", (str(exc),), seconds=time.monotonic() - started))
            continue
        key = keys.get(operation.api)
        row = read(result, name, admin.kind, args, offered.get(key) if key is not None else None)
        rows.append(dataclasses.replace(row, seconds=time.monotonic() - started))
    try:
        admin.close()
        process = getattr(admin, "process", None)
        alive = process is None or process.alive
        rows.append(Conformance("close", "conforms" if alive else "broken",
                                () if alive else ("the adapter exited on close; it serves every cell of a worker",)))
    except HarnessError as exc:
        rows.append(Conformance("close", "broken", (str(exc),)))
    return rows
