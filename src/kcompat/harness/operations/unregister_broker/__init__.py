"""unregisterBroker (KIP-631, KRaft): the controller forgets a broker's registration (ZooKeeper brokers have no
UnregisterBroker)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class UnregisterBrokerArgs:
    broker_id: int


UNREGISTER_BROKER = Operation(
    "unregister_broker", UnregisterBrokerArgs, "UnregisterBroker",
    "one result, named `broker:<id>`: its error",
    lambda topic: (UnregisterBrokerArgs(999),), java_class="UnregisterBroker")
