"""kafkajs (npm): its admin() client on the installed Node, behind the adapter protocol
(``adapter/kcompat-kafkajs.js``, installed by ``install.py``).

kafkajs picks every request version itself from the broker's ApiVersions (no option pins one); where the broker
lacks an API it throws ``KafkaJSServerDoesNotSupportApiKey`` before sending: that is its refusal.
"""

from __future__ import annotations

from ...adapter import adapter_kind
from .. import Refusal

KIND = adapter_kind(name="kafkajs", order=51, library="kafkajs",
                    installer_module="kcompat.harness.clients.kinds.kafkajs.install",
                    refusal=Refusal(exceptions=("KafkaJSServerDoesNotSupportApiKey",)), example="2.2.4")
