"""updateFeatures through the wire client: UpdateFeatures to the controller (it alone serves it, KIP-584)."""

from __future__ import annotations

from typing import Any


from . import UPDATE_FEATURES, UpdateFeaturesArgs
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

UPDATE_FEATURES_KEY = 57
TIMEOUT = 30_000
"""Milliseconds the broker may take."""
UPGRADE_TYPES = {"UPGRADE": 1, "SAFE_DOWNGRADE": 2, "UNSAFE_DOWNGRADE": 3}


@UPDATE_FEATURES.implement(WireClient)
@observed
def update_features(client: WireClient, args: UpdateFeaturesArgs, version: int | None) -> AdminResult:
    """v0 says a downgrade as ``allow_downgrade``, v1 (KIP-778) as ``upgrade_type``; ``validate_only`` is v1's,
    so v0 refuses to send it (UnsupportedOption) rather than change the call."""
    def build(v: int, options: dict[str, bool]) -> Any:
        key = nested_type(UPDATE_FEATURES_KEY, v, "FeatureUpdateKey", timeout=TIMEOUT, feature_updates=())
        how = ({"upgrade_type": UPGRADE_TYPES[args.upgrade_type]} if v >= 1
               else {"allow_downgrade": args.upgrade_type != "UPGRADE"})
        update = key(feature=args.feature, max_version_level=args.max_version_level, **how)
        return build_request(UPDATE_FEATURES_KEY, v, timeout=TIMEOUT, feature_updates=(update,), **options)

    sent, response, lacking = client.send("update_features", UPDATE_FEATURES_KEY, version, build,
                                           {"validate_only": args.validate_only}, to_controller=True)
    outcomes: tuple[ResourceOutcome, ...]
    if int(response.error_code) != 0:
        outcomes = (ResourceOutcome.of(args.feature, int(response.error_code), response.error_message),)
    elif sent >= 2:  # v2 has no per-feature results: the top-level answer is the update's
        outcomes = (ResourceOutcome.of(args.feature, 0),)
    else:
        outcomes = tuple(ResourceOutcome.of(str(r.feature), int(r.error_code), r.error_message)
                         for r in response.results)
    return AdminResult("update_features", client.kind, client.version, sent, outcomes, unsupported_options=lacking)
