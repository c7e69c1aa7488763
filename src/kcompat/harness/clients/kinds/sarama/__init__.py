"""sarama's ClusterAdmin of a sarama release, through its adapter program (``adapter/main.go``).

A reference names the sarama release (``sarama:1.61.1``).  The Kafka version
sarama assumes (``Config.Version``) is one choice per release, stated in the
adapter's ready line.  sarama refuses a request the broker lacks with Kafka's
own UNSUPPORTED_VERSION (KError 35), which every kind recognises.
"""

from __future__ import annotations

from ...adapter import adapter_kind
from .. import Refusal, Setting

KIND = adapter_kind(name="sarama", order=51, library="sarama", installer_module=f"{__name__}.install",
                    refusal=Refusal(), example="1.61.1", surfaces=("admin", "broker"),
                    settings=(Setting("version", "version", "sarama's Config.Version (sarama.ParseKafkaVersion): "
                                      "the Kafka version it assumes and picks request versions from", broker=True),))
"""Surfaces: ``admin`` (ClusterAdmin), ``broker`` (the ``*sarama.Broker`` request methods)."""
