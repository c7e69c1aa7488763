"""DeleteAcls through the cell's client of one of two bindings the super user granted; the listing afterwards."""

from __future__ import annotations

from typing import Any

from . import DELETE_ACLS, DeleteAclsArgs
from ..describe_acls import AclFilter
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common
from ..describe_acls.probe import settled_acls, two_bindings


@probe(ProbeSpec("delete_acls", COMMON | {"deleted", "gone", "other_kept"}, {},
                 about="DeleteAcls with a filter naming a topic and one of the two principals the super user "
                       "granted on it; `deleted`: the result names that binding, `gone`: the super user's "
                       "DescribeAcls no longer lists it (awaited), `other_kept`: it still lists the other"))
def delete_acls(ctx: ProbeContext) -> dict[str, Any]:
    """The binding is gone afterwards, and only it: the filter deletes what it matches."""
    reader, writer = two_bindings(ctx)
    result = ctx.call(DELETE_ACLS, DeleteAclsArgs([AclFilter("topic", reader.resource_name, reader.principal)]))
    observed, outcome = common(result)
    deleted = outcome.fields.get("deleted") if outcome is not None else None
    if deleted is not None:
        observed["deleted"] = reader.label in deleted
    listed = settled_acls(ctx, reader.resource_name,
                          lambda found: reader.label not in found if observed.get("error") == "NONE" else True)
    observed["gone"] = reader.label not in listed
    observed["other_kept"] = writer.label in listed
    return observed
