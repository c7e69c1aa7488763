"""What a scenario asks for: a cluster described as data.

A spec is frozen and hashable so fixtures can share one running cluster
between every test that asks for an equal spec.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from .catalog import BrokerRelease, Mode, load_catalog
from .errors import ConfigError
from .features import parse_levels, profile_text
from .versions import KafkaVersion

Quorum = Literal["static", "dynamic"]


def has_dynamic_quorum(version: KafkaVersion, mode: Mode) -> bool:
    """Whether ``version`` in ``mode`` can run a dynamic quorum (KIP-853: KRaft 3.9+)."""
    return mode == "kraft" and version.supports("dynamic_quorum")


MAX_LOG_DIRS = 4


@dataclass(frozen=True)
class SaslSpec:
    """A SASL_PLAINTEXT listener (mechanism PLAIN) with named users.

    ``super_user`` is also the broker's own inter-broker identity.  With
    ``authorizer`` on, the broker runs AclAuthorizer (ZooKeeper) or
    StandardAuthorizer (KRaft) and denies what no ACL allows.
    """

    users: tuple[tuple[str, str], ...] = ()
    super_user: str = "admin"
    # Generated per spec and left out of equality, so equal specs share one cluster.
    super_password: str = field(default_factory=lambda: secrets.token_urlsafe(12), repr=False, compare=False)
    authorizer: bool = True

    def __post_init__(self) -> None:
        for name, password in ((self.super_user, self.super_password), *self.users):
            if not name or any(c in name for c in ' ";=\\\n'):
                raise ConfigError(f"SASL user name {name!r} can't be used in a JAAS file")
            if any(c in password for c in '"\\\n'):
                raise ConfigError(f"the password of SASL user {name!r} holds a quote, backslash or newline, "
                                  "which a JAAS file can't carry")
        if self.super_user in dict(self.users):
            raise ConfigError(f"SASL user {self.super_user!r} is the super user; give other users other names")

    @property
    def credentials(self) -> dict[str, str]:
        return {self.super_user: self.super_password, **dict(self.users)}

    def __repr__(self) -> str:  # never print passwords
        names = ", ".join(name for name, _ in self.users)
        return f"SaslSpec(users=[{names}], super_user={self.super_user!r}, authorizer={self.authorizer})"


@dataclass(frozen=True)
class ClusterSpec:
    version: KafkaVersion
    mode: Mode
    nodes: int = 1
    server_properties: tuple[tuple[str, str], ...] = ()
    """Extra broker properties, applied last (they win over the harness's)."""
    sasl: SaslSpec | None = None
    extra_classpath: tuple[Path, ...] = ()
    """Jars or class folders for broker plug-ins (e.g. a KIP-108 create-topic policy)."""
    java: Path | None = None
    """A ``java`` binary to use instead of the catalog's choice."""
    log_dirs: int = 1
    """Log directories per broker (``log.dirs``); two let a replica move between them (KIP-113)."""
    quorum: Quorum = "static"
    """KRaft's voter set: ``static`` (``controller.quorum.voters``, kraft.version 0) or ``dynamic`` (KIP-853,
    3.9+: every node formatted as an initial controller, kraft.version 1, so voters can be added and removed)."""
    features: tuple[tuple[str, int], ...] = ()
    """Feature levels (KIP-584) set with UpdateFeatures after boot, sorted by name; empty: the release's default
    configuration (``kcompat.harness.features``)."""

    @classmethod
    def of(
        cls,
        version: str | KafkaVersion,
        mode: Mode | None = None,
        *,
        nodes: int = 1,
        server_properties: dict[str, str] | None = None,
        sasl: SaslSpec | None = None,
        extra_classpath: tuple[Path, ...] | list[Path] = (),
        java: Path | None = None,
        log_dirs: int = 1,
        quorum: Quorum = "static",
        features: tuple[tuple[str, int], ...] = (),
    ) -> ClusterSpec:
        """Resolve a version or line against the catalog and validate the rest."""
        release = load_catalog().release(version)
        chosen: Mode = mode or release.line.default_mode
        spec = cls(release.version, chosen, nodes, tuple(sorted((server_properties or {}).items())),
                   sasl, tuple(Path(p).absolute() for p in extra_classpath), java, log_dirs, quorum,
                   tuple(sorted(features)))
        spec.validate()
        return spec

    @property
    def release(self) -> BrokerRelease:
        return load_catalog().release(self.version)

    def validate(self) -> None:
        release = self.release
        if self.mode not in release.line.modes:
            raise ConfigError(
                f"Kafka {self.version} can't run in {self.mode} mode; it supports: "
                f"{', '.join(release.line.modes)}"
            )
        if not 1 <= self.nodes <= 9:
            raise ConfigError(f"a cluster has 1 to 9 nodes, not {self.nodes}")
        if not 1 <= self.log_dirs <= MAX_LOG_DIRS:
            raise ConfigError(f"a broker has 1 to {MAX_LOG_DIRS} log dirs, not {self.log_dirs}")
        if self.quorum == "dynamic" and not has_dynamic_quorum(self.version, self.mode):
            raise ConfigError(f"a dynamic quorum needs KRaft 3.9 or newer (KIP-853), not Kafka {self.version} in "
                              f"{self.mode} mode")
        if self.features:
            parse_levels(self.version, self.mode, [f"{n}={v}" for n, v in self.features],
                         f"{self.version}{profile_text(self.features)}")
        for path in self.extra_classpath:
            if not path.exists():
                raise ConfigError(f"extra classpath entry {path} does not exist")

    @property
    def label(self) -> str:
        sasl = "-sasl" if self.sasl else ""
        dirs = f"-{self.log_dirs}dirs" if self.log_dirs > 1 else ""
        quorum = "-dynamic" if self.quorum == "dynamic" else ""
        levels = "".join(f"-{name}-{level}" for name, level in self.features)
        return f"kafka-{self.version}-{self.mode}-{self.nodes}n{sasl}{dirs}{quorum}{levels}"
