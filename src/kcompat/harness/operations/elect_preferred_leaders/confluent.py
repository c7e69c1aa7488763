"""electPreferredLeaders through confluent-kafka: no release has AdminClient.elect_preferred_leaders (its
elect_leaders takes an election type, as kafka-clients' electLeaders does), so the record says the method is
missing and nothing is sent."""

from __future__ import annotations

from . import ELECT_PREFERRED_LEADERS, ElectPreferredLeadersArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@ELECT_PREFERRED_LEADERS.implement(ConfluentClient)
def elect_preferred_leaders(client: ConfluentClient, args: ElectPreferredLeadersArgs, version: int | None
                            ) -> AdminResult:
    return AdminResult("elect_preferred_leaders", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no "
                                         "AdminClient.elect_preferred_leaders",
                       librdkafka_version=client.librdkafka_version)
