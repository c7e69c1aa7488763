"""segmentio/kafka-go's ``kafka.Client`` of a kafka-go release, through its adapter program (``adapter/main.go``).

A reference names the kafka-go release (``kafka-go:0.4.51``).  kafka-go's Client
sends each request at the newest version both it and the broker know (its
transport reads each broker's ApiVersions); for an API the broker does not
advertise at all it sends v0 and the broker's refusal is Kafka's own
UNSUPPORTED_VERSION or a closed connection, so the kind declares no refusal of
its own.  Its Client answers Metadata from its transport's cache, as it does
for any application (``adapter/main.go`` says more).
"""

from __future__ import annotations

from ...adapter import adapter_kind
from .. import Refusal

KIND = adapter_kind(name="kafka-go", order=52, library="kafka-go", installer_module=f"{__name__}.install",
                    refusal=Refusal(), example="0.4.51", surfaces=("client", "conn"))
"""Surfaces: ``client`` (``kafka.Client``), ``conn`` (``kafka.Conn`` methods, the path its README shows)."""
