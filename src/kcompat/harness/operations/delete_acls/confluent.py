"""DeleteAcls through confluent-kafka's AdminClient (delete_acls: a future per filter)."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from . import DELETE_ACLS, DeleteAclsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import CALL_TIMEOUT, ConfluentClient, resource_outcome
from ..describe_acls.confluent import binding_filter, labels


@DELETE_ACLS.implement(ConfluentClient)
def delete_acls(client: ConfluentClient, args: DeleteAclsArgs, version: int | None) -> AdminResult:
    filters = {binding_filter(f): f.label for f in args.filters}

    def describe(acl_filter: Any, future: Future[Any]) -> ResourceOutcome:
        label = filters[acl_filter]
        outcome = resource_outcome(label, future)
        if outcome.error_code == 0 and outcome.exception is None:
            return ResourceOutcome.of(label, 0, None, deleted=labels(future.result(timeout=CALL_TIMEOUT)))
        return outcome

    return client.call("delete_acls", "DeleteAcls", client.library.delete_acls, list(filters),
                        {"request_timeout": 30}, describe)
