"""updateFeatures of a feature no broker has: deleting it (level 0, a downgrade) or raising it."""

from __future__ import annotations

from typing import Any, cast

from . import UPDATE_FEATURES, UpdateFeaturesArgs, UpgradeType
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common

NO_SUCH_FEATURE = "kcompat.no.such.feature"
UPGRADE_TYPES = ("UPGRADE", "SAFE_DOWNGRADE", "UNSAFE_DOWNGRADE")


@probe(ProbeSpec("update_features", COMMON, {"level": int, "upgrade_type": str, "validate_only": bool},
                 about=f"updateFeatures of `{NO_SUCH_FEATURE}`, a feature no broker has, to max version `level` "
                       "(default 0: delete it) with `upgrade_type` (UPGRADE, SAFE_DOWNGRADE, the default, or "
                       "UNSAFE_DOWNGRADE; before KIP-778 any downgrade is allowDowngrade); nothing can change, so "
                       "every cluster stays as it was"))
def update_features(ctx: ProbeContext) -> dict[str, Any]:
    upgrade_type = str(ctx.args.get("upgrade_type", "SAFE_DOWNGRADE"))
    if upgrade_type not in UPGRADE_TYPES:
        raise ProbeFailed(f"upgrade_type is one of {', '.join(UPGRADE_TYPES)}, not {upgrade_type!r}")
    result = ctx.call(UPDATE_FEATURES, UpdateFeaturesArgs(NO_SUCH_FEATURE, int(ctx.args.get("level", 0)),
                                                          cast(UpgradeType, upgrade_type),
                                                          bool(ctx.args.get("validate_only", False))))
    observed, _ = common(result)
    return observed
