"""franz-go's admin client (kadm) of a franz-go release, through its adapter program (``adapter/main.go``).

A reference names the franz-go release (``franz-go:1.22.2``); the installer
pairs it with a kadm release (``install.py`` states the rule) and builds the
adapter with Go.  kgo refuses a request the broker lacks with its own error
(``errBrokerTooOld``, which the adapter names so), not Kafka's UNSUPPORTED_VERSION.
"""

from __future__ import annotations

from ...adapter import adapter_kind
from .. import Refusal, Setting

KIND = adapter_kind(name="franz-go", order=50, library="franz-go", installer_module=f"{__name__}.install",
                    refusal=Refusal(exceptions=("errBrokerTooOld",)), example="1.22.2", surfaces=("kadm", "kmsg"),
                    settings=(Setting("max_versions", "version", "kgo.MaxVersions(kversion.FromString(release)): the newest "
                                      "request versions franz-go sends, a Kafka release's", broker=True),))
"""Surfaces: ``kadm`` (its admin client), ``kmsg`` (raw ``kmsg`` requests through ``kgo.Client.Request``)."""
