"""The public methods of a class of the client library (no request is sent)."""

from __future__ import annotations

from typing import Any

from ...clients.java import JavaClient
from ..probe import ProbeContext, ProbeFailed
from . import ProbeSpec, probe


@probe(ProbeSpec("client_methods", frozenset({"methods", "exception"}), {"class": str},
                 about="the public methods of a class of the client library (Java AdminClient only)",
                 sends_request=False))
def client_methods(ctx: ProbeContext) -> dict[str, Any]:
    """The public methods of a class of the client library, as the library itself reports them."""
    if not isinstance(ctx.client, JavaClient):
        raise ProbeFailed(f"{ctx.cell.client} has no class library to inspect (client_methods is for java clients)")
    methods = ctx.client.public_methods(str(ctx.args["class"]))
    return {"exception": "ClassNotFoundException"} if methods is None else {"methods": list(methods), "exception": None}
