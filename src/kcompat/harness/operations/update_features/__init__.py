"""updateFeatures (KIP-584): a finalized feature's new max version level (0 or less with a downgrade: delete it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .. import Operation

UpgradeType = Literal["UPGRADE", "SAFE_DOWNGRADE", "UNSAFE_DOWNGRADE"]


@dataclass(frozen=True)
class UpdateFeaturesArgs:
    feature: str
    max_version_level: int
    upgrade_type: UpgradeType = "UPGRADE"
    """KIP-778's name for it (3.3+); UpdateFeatures v0 and kafka-clients before 3.3 carry only allowDowngrade,
    true for either downgrade."""
    validate_only: bool = False


UPDATE_FEATURES = Operation(
    "update_features", UpdateFeaturesArgs, "UpdateFeatures",
    "one result per feature: its error (the response's own error where it has one)",
    lambda topic: (UpdateFeaturesArgs("kcompat.no.such.feature", 0, "SAFE_DOWNGRADE"),), java_class="UpdateFeatures")
