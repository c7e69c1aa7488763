"""kafka-python (PyPI): its KafkaAdminClient in a venv made per release, behind the adapter protocol
(``adapter/kcompat_kafka_python.py``, installed by ``install.py``).

kafka-python picks every request version itself from the broker's ApiVersions (no option pins one); where the
broker lacks an API it raises ``IncompatibleBrokerVersion`` before sending: that is its refusal.
"""

from __future__ import annotations

from ...adapter import adapter_kind
from .. import Refusal

KIND = adapter_kind(name="kafka-python", order=50, library="kafka-python",
                    installer_module="kcompat.harness.clients.kinds.kafka_python.install",
                    refusal=Refusal(exceptions=("IncompatibleBrokerVersion",)), example="3.0.12")
