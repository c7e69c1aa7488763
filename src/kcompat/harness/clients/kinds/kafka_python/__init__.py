"""kafka-python (PyPI): its KafkaAdminClient in a venv made per release, behind the adapter protocol
(``adapter/kcompat_kafka_python.py``, installed by ``install.py``).

kafka-python picks every request version itself from the broker's ApiVersions (no option pins one); where the
broker lacks an API it raises ``IncompatibleBrokerVersion`` before sending: that is its refusal.  A release is
checked by the installer's own ``check_release``, which also refuses releases before 1.4.4 (the first with a
KafkaAdminClient), before anything boots.
"""

from __future__ import annotations

import dataclasses

from ....config import HarnessConfig
from ...adapter import adapter_kind
from .. import Refusal, Setting

INSTALLER = "kcompat.harness.clients.kinds.kafka_python.install"


def _check(release: str, config: HarnessConfig) -> str:
    from .install import check_release  # imported when a reference is checked: listing kinds stays quick

    return check_release(release, config)


KIND = dataclasses.replace(
    adapter_kind(name="kafka-python", order=50, library="kafka-python", installer_module=INSTALLER,
                 refusal=Refusal(exceptions=("IncompatibleBrokerVersion",)), example="3.0.12",
                 settings=(Setting("api_version", "version", "KafkaAdminClient(api_version=(x, y, z)): the broker "
                                   "version kafka-python assumes (3.x still asks ApiVersions and keeps the lower)", broker=True),)),
    check_release=_check)
