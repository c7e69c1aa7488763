"""describeFeatures through the wire client: ApiVersions at the newest common version (features: v3+)."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_FEATURES, DescribeFeaturesArgs
from ...protocol import build_request
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

API_VERSIONS = 18
FEATURES_SINCE = 3


@DESCRIBE_FEATURES.implement(WireClient)
@observed
def describe_features(client: WireClient, args: DescribeFeaturesArgs, version: int | None) -> AdminResult:
    """A version without features (before v3) has no ``features`` field: left out, never an empty map."""
    def build(v: int, options: dict[str, bool]) -> Any:
        software = ({"client_software_name": "kcompat-wire", "client_software_version": client.version.replace("+", "-")}
                    if v >= FEATURES_SINCE else {})  # v3 brought both, with the features
        return build_request(API_VERSIONS, v, **software)

    sent, response, _ = client.send("describe_features", API_VERSIONS, version, build, {})
    fields: dict[str, Any] = {}
    if sent >= FEATURES_SINCE:
        epoch = int(response.finalized_features_epoch)
        fields["features"] = {
            "supported": {str(f.name): [int(f.min_version), int(f.max_version)] for f in response.supported_features},
            "finalized": {str(f.name): [int(f.min_version_level), int(f.max_version_level)]
                          for f in response.finalized_features},
            "finalized_epoch": None if epoch < 0 else epoch}
    outcome = ResourceOutcome.of("cluster", int(response.error_code), None, **fields)
    return AdminResult("describe_features", client.kind, client.version, sent, (outcome,), tuple(fields))
