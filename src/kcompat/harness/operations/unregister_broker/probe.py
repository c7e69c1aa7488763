"""unregisterBroker of a registered, fenced broker (one the super user registered at the controller and that
never heartbeats): is its registration gone afterwards?"""

from __future__ import annotations

import random
from typing import Any

from . import UNREGISTER_BROKER, UnregisterBrokerArgs
from ...waiting import attempts
from ...matrix.probe import ProbeContext
from .setup import UNREGISTER_BROKER as UNREGISTER_BROKER_KEY
from .setup import register_fenced_broker, unregister_as_admin
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, common


@probe(ProbeSpec("unregister_broker", COMMON | {"unregistered"}, {},
                 about="unregisterBroker of a broker id the super user registered at the KRaft controller "
                       "(BrokerRegistration on its listener) and that never heartbeats, so stays fenced: a broker "
                       "that died (only where the broker has UnregisterBroker: a ZooKeeper broker has no "
                       "registration to make); `unregistered`: the super user's own UnregisterBroker of the id then "
                       "answers BROKER_ID_NOT_REGISTERED (awaited, bounded)"))
def unregister_broker(ctx: ProbeContext) -> dict[str, Any]:
    broker_id = random.randint(1000, 1_000_000)  # an id no node of the shared cluster has, new per cell
    offered = UNREGISTER_BROKER_KEY in {r.api_key for r in ctx.cluster.api_versions}
    if offered:
        register_fenced_broker(ctx, broker_id)
    observed, _ = common(ctx.call(UNREGISTER_BROKER, UnregisterBrokerArgs(broker_id)))
    if observed.get("error") == "NONE":
        unregistered = False
        for _ in attempts(SETTLE, interval=0.2):
            if (unregistered := unregister_as_admin(ctx, broker_id) == "BROKER_ID_NOT_REGISTERED"):
                break
        observed["unregistered"] = unregistered
    return observed
