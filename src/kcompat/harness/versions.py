"""Kafka versions as ordered values with named capability questions.

Scenarios and providers never compare version strings inline; they ask
``version.supports("kraft")``.  The capability table is the one place where a
feature is tied to the release that introduced (or removed) it.  ``version_key``
is the one order of version text, for ``KafkaVersion`` and for every report that
sorts the versions records carry.  This module imports ``packaging`` only when a
version is parsed, so the history's Spark archive (src/kcompat/reports/history/submit.py)
can ship it for ``version_key`` alone.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .errors import UnknownVersionError

if TYPE_CHECKING:
    from packaging.version import Version

_RELEASE = re.compile(r"(\d+(?:\.\d+)*)[-._]?(.*)", re.DOTALL)
_RUNS = re.compile(r"\d+|\D+")

VersionKey = tuple[tuple[int, ...], int, tuple[tuple[int, int, str], ...]]


def version_key(text: str | None) -> VersionKey:
    """Release order of any version text: ``2.10`` after ``2.9``, ``2.4`` equal to ``2.4.0``.

    A suffix (``4.0.0-rc1``) sorts before its release, as a pre-release does, and suffixes
    among themselves in natural order (``rc2`` before ``rc10``).  Text that does not start with
    a number (None, ``""``, ``"latest"``) sorts before every release, by its text.
    """
    found = _RELEASE.fullmatch((text or "").strip())
    release: tuple[int, ...] = tuple(int(part) for part in found[1].split(".")) if found else ()
    while release and release[-1] == 0:
        release = release[:-1]
    suffix = found[2] if found else (text or "").strip()
    runs = tuple((0, int(run), "") if run.isdigit() else (1, 0, run) for run in _RUNS.findall(suffix))
    return release, 0 if suffix or not found else 1, runs


@dataclass(frozen=True)
class Capability:
    """A feature present from ``since`` up to, not including, ``until``."""

    since: str
    until: str | None = None
    source: str = ""

    def holds_for(self, version: KafkaVersion) -> bool:
        key = version_key(version.text)
        return version_key(self.since) <= key and (self.until is None or key < version_key(self.until))


CAPABILITIES: dict[str, Capability] = {
    "zookeeper": Capability("0.8", "4.0", "KIP-833: ZooKeeper removed in 4.0"),
    "kraft": Capability("3.3", None, "KIP-833: KRaft production ready in 3.3"),
    "create_topics": Capability("0.10.1", None, "KIP-4"),
    "create_topic_policy": Capability("0.10.2", None, "KIP-108"),
    "create_topics_validate_only": Capability("0.10.2", None, "KIP-108"),
    "create_partitions": Capability("1.0", None, "KIP-195"),
    "sasl_authenticate": Capability("1.0", None, "KIP-152"),
    "listener_prefixed_jaas": Capability("1.0", None, "KIP-226 predecessor (KAFKA-4636)"),
    "acl_authorizer": Capability("2.4", None, "KIP-504: kafka.security.authorizer.AclAuthorizer"),
    "simple_acl_authorizer": Capability("0.9", "3.0", "SimpleAclAuthorizer removed in 3.0"),
    "standard_authorizer": Capability("3.2", None, "KIP-801"),
    "create_topics_topic_acl": Capability("2.0", None, "KIP-277: CreateTopics authorized per topic, not Cluster"),
    "create_topics_configs": Capability("2.4", None, "KIP-525"),
    "describe_configs_documentation": Capability("2.6", None, "KIP-569"),
    "log4j2": Capability("4.0", None, "KIP-653: the broker logs through log4j2"),
    "topic_command_bootstrap_server": Capability("2.2", None, "KIP-377: kafka-topics --bootstrap-server"),
    "config_command_bootstrap_server": Capability("2.0", None, "KIP-248: kafka-configs --bootstrap-server"),
    "acl_command_bootstrap_server": Capability("2.1", None, "KIP-332: kafka-acls --bootstrap-server"),
    "delegation_tokens": Capability("1.1", None, "KIP-48: delegation.token.master.key enables them"),
    "dynamic_quorum": Capability("3.9", None, "KIP-853: kafka-storage format --initial-controllers, "
                                              "controller.quorum.bootstrap.servers"),
    "kraft_jbod": Capability("3.8", None, "KIP-858: KRaft handles a failed log dir from 3.7, released there as "
                                          "early access; before it KRaft ran several log dirs unsupported"),
    "kraft_delegation_tokens": Capability("3.6", None, "KIP-900: delegation tokens in KRaft mode (3.3-3.5 refuse "
                                                      "to boot with a token key: \"Delegation tokens are not "
                                                      "supported\")"),
    "delegation_token_secret_key": Capability("2.8", None, "KAFKA-10692: delegation.token.secret.key, "
                                                           "delegation.token.master.key deprecated"),
    "share_coordinator": Capability("4.0", None, "KIP-932: the share coordinator and its __share_group_state "
                                                 "topic, sized by share.coordinator.state.topic.*"),
}


@functools.total_ordering
@dataclass(frozen=True)
class KafkaVersion:
    """A released Kafka version: ``0.11.0.3``, ``2.4``, ``3.9.0``.

    Ordering is numeric (``2.10 > 2.9``).  ``line`` is the release line the
    catalog is keyed by: three components before 1.0 (``0.11.0``), two after.
    """

    text: str
    _parsed: Version = field(repr=False, compare=False)

    @classmethod
    def parse(cls, text: str | KafkaVersion) -> KafkaVersion:
        if isinstance(text, KafkaVersion):
            return text
        from packaging.version import InvalidVersion, Version

        raw = str(text).strip()
        try:
            parsed = Version(raw)
        except InvalidVersion as exc:
            raise UnknownVersionError(f"malformed Kafka version {raw!r}") from exc
        if parsed.pre or parsed.post or parsed.dev or parsed.local or parsed.epoch:
            raise UnknownVersionError(f"Kafka version {raw!r} is not a plain release (x.y[.z])")
        if len(parsed.release) < 2:
            raise UnknownVersionError(f"Kafka version {raw!r} needs at least major.minor")
        return cls(raw, parsed)

    @property
    def release(self) -> tuple[int, ...]:
        return self._parsed.release

    @property
    def line(self) -> str:
        width = 3 if self.release[0] == 0 else 2
        padded = self.release + (0,) * (width - len(self.release))
        return ".".join(str(part) for part in padded[:width])

    @property
    def is_line(self) -> bool:
        """True for ``2.4`` or ``0.11.0``: names a line, not one patch release."""
        return len(self.release) <= (3 if self.release[0] == 0 else 2)

    def supports(self, capability: str) -> bool:
        try:
            cap = CAPABILITIES[capability]
        except KeyError:
            raise KeyError(
                f"unknown capability {capability!r}; known: {', '.join(sorted(CAPABILITIES))}"
            ) from None
        return cap.holds_for(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KafkaVersion):
            return NotImplemented
        return version_key(self.text) == version_key(other.text)  # "2.4" == "2.4.0", as packaging says

    def __hash__(self) -> int:
        return hash(version_key(self.text))

    def __lt__(self, other: KafkaVersion) -> bool:
        if not isinstance(other, KafkaVersion):
            return NotImplemented
        return version_key(self.text) < version_key(other.text)

    def __str__(self) -> str:
        return self.text
