"""describeFeatures (KIP-584): the supported and finalized feature versions, in ApiVersions v3+."""

from __future__ import annotations

from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeFeaturesArgs:
    """describeFeatures takes no arguments (its options only set the timeout)."""


DESCRIBE_FEATURES = Operation(
    "describe_features", DescribeFeaturesArgs, "ApiVersions",
    "one result, `features`: `supported` and `finalized` ({name: [min, max]}) and `finalized_epoch` (null where "
    "the answer has none)",
    lambda topic: (DescribeFeaturesArgs(),), java_class="DescribeFeatures")
