"""describeFeatures: the broker's supported and finalized features as the client reports them."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_FEATURES, DescribeFeaturesArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common


@probe(ProbeSpec("describe_features", COMMON | {"supported_features", "finalized_features", "finalized_epoch"},
                 {},
                 about="describeFeatures: the names of the supported and of the finalized features (sorted) and the "
                       "finalized features' epoch (null where the answer has none); all three left out where the "
                       "answer has no features at all (ApiVersions before v3)"))
def describe_features(ctx: ProbeContext) -> dict[str, Any]:
    observed, outcome = common(ctx.call(DESCRIBE_FEATURES, DescribeFeaturesArgs()))
    features = outcome.fields.get("features") if outcome is not None else None
    if isinstance(features, dict):
        observed["supported_features"] = sorted(features.get("supported", {}))
        observed["finalized_features"] = sorted(features.get("finalized", {}))
        observed["finalized_epoch"] = features.get("finalized_epoch")
    return observed
