"""From a selection (brokers, modes, clients, KIPs) to the cells of the matrix, checked before anything boots.

The one cell model (``kcompat.harness.records.Cell``) is built here for the pytest
plugin, ``kcompat run``, resume and repro alike, so every consumer agrees on
what a run contains.  Cells are ordered by the cluster they need, so a worker
walks one cluster's cells together and boots each cluster once.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..catalog import Catalog, Mode
from ..clients.kinds import kind
from ..clients.ref import ClientRef, parse_clients
from ..errors import ConfigError
from ..records import Cell
from ..spec import ClusterSpec, SaslSpec
from ..versions import KafkaVersion
from .claims import BROKER_PLUGINS, SASL_USERS, BrokerPlugin, Claim, ClaimBook

DEFAULT_BROKERS = ("2.3", "2.6", "3.9", "4.4")
DEFAULT_CLIENTS = ("wire", "confluent", "java:2.3.1", "java:4.4.0")
MODE_CHOICES = ("default", "zk", "kraft", "all")


@dataclass(frozen=True)
class Selection:
    """What a run covers; ``all`` as a broker means every catalog line."""

    brokers: tuple[str, ...] = DEFAULT_BROKERS
    modes: str = "default"
    clients: tuple[str, ...] = DEFAULT_CLIENTS
    kips: tuple[str, ...] = ()

    @classmethod
    def of(cls, brokers: str | Sequence[str] | None = None, modes: str | None = None,
           clients: str | Sequence[str] | None = None, kips: str | Sequence[str] | None = None) -> Selection:
        return cls(_items(brokers) or DEFAULT_BROKERS, modes or "default", _items(clients) or DEFAULT_CLIENTS,
                   _items(kips))

    def as_json(self) -> dict[str, Any]:
        return {"brokers": list(self.brokers), "modes": self.modes, "clients": list(self.clients),
                "kips": list(self.kips)}


def _items(value: str | Sequence[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    parts = value.split(",") if isinstance(value, str) else [p for v in value for p in v.split(",")]
    return tuple(dict.fromkeys(p.strip() for p in parts if p.strip()))


@dataclass(frozen=True)
class PlannedCell:
    cell: Cell
    claim: Claim
    version: KafkaVersion
    mode: Mode
    client: ClientRef

    @property
    def dynamic_quorum(self) -> bool:
        """Whether the cell's cluster runs a dynamic quorum: asked for, and a KRaft release that has one.  A
        broker that can't runs its static one (those cells lack the voter APIs anyway)."""
        return (self.claim.cluster.quorum == "dynamic" and self.mode == "kraft"
                and self.version.supports("dynamic_quorum"))

    @property
    def cluster_key(self) -> str:
        """Cells with equal keys share one running cluster (and one xdist group): the key of the cluster
        booted, so a need a broker can't meet (a dynamic quorum on ZooKeeper) splits no group."""
        need = self.claim.cluster
        if need.quorum == "dynamic" and not self.dynamic_quorum:
            need = dataclasses.replace(need, quorum="static")
        return f"{self.version}-{self.mode}-{need.key}"


def brokers(selection: Selection, catalog: Catalog) -> list[tuple[KafkaVersion, Mode]]:
    if selection.modes not in MODE_CHOICES:
        raise ConfigError(f"mode is one of {', '.join(MODE_CHOICES)}, not {selection.modes!r}")
    wanted = [line.line.line for line in catalog] if selection.brokers == ("all",) else list(selection.brokers)
    chosen: list[tuple[KafkaVersion, Mode]] = []
    for text in wanted:
        release = catalog.release(text)  # unknown versions: one line naming the known lines
        modes: tuple[Mode, ...]
        if selection.modes == "default":
            modes = (release.line.default_mode,)
        elif selection.modes == "all":
            modes = release.line.modes
        elif selection.modes in release.line.modes:
            modes = (selection.modes,)
        elif selection.brokers == ("all",):
            continue
        else:
            raise ConfigError(f"Kafka {release.version} has no {selection.modes} mode "
                              f"(it runs in {', '.join(release.line.modes)})")
        chosen.extend((release.version, mode) for mode in modes)
    return list(dict.fromkeys(chosen))


def client_refs(selection: Selection) -> tuple[ClientRef, ...]:
    return tuple(dict.fromkeys(ref.resolved() for ref in parse_clients(selection.clients)))


def _clients_for(claim: Claim, refs: Sequence[ClientRef]) -> list[ClientRef]:
    """A pinnable client (the wire client) also runs just below and at a claim's version bound (``wire@v4``,
    ``wire@v5``)."""
    out: list[ClientRef] = []
    for ref in refs:
        if not claim.applies_to(ref.kind):
            continue
        out.append(ref)
        if kind(ref.kind).pinnable and ref.pin is None and claim.min_version > 0:
            out += [ref.pinned(claim.min_version - 1), ref.pinned(claim.min_version)]
    return list(dict.fromkeys(out))


def plan(selection: Selection, book: ClaimBook, catalog: Catalog) -> list[PlannedCell]:
    """Every cell of the selection, grouped by cluster; raises ConfigError on any unknown name."""
    claims = book.select(selection.kips)
    refs = client_refs(selection)
    cells = [PlannedCell(Cell(claim.id, str(version), mode, str(ref)), claim, version, mode, ref)
             for version, mode in brokers(selection, catalog)
             for claim in claims
             for ref in _clients_for(claim, refs)]
    return sorted(cells, key=lambda c: (c.version, c.mode, c.cluster_key, c.cell.client, c.cell.claim_id))


def plugin_sources(plugin: BrokerPlugin) -> Path:
    """A broker plug-in's Java sources: ``fixtures/plugins/<name>``, located (never imported) like the claims."""
    spec = importlib.util.find_spec("kcompat.fixtures")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError("the fixtures package is not installed beside the harness; reinstall kcompat")
    return Path(next(iter(spec.submodule_search_locations))) / "plugins" / plugin.name


Compiler = Callable[[BrokerPlugin, KafkaVersion], Path]
"""Compiles a plug-in against one broker release's jars; returns its class directory (HarnessError if javac fails)."""


@dataclass
class ClusterSpecs:
    """The ClusterSpec of each cell's cluster; SASL passwords are made once per process and never recorded.

    Plug-ins are compiled against the cell's own broker release (``compile``)
    and named in the server properties; the spec is equal for every cell with
    the same cluster key, so those cells share one running cluster.
    """

    compile: Compiler | None = None
    passwords: dict[str, str] = field(default_factory=dict)
    compiled: dict[tuple[str, KafkaVersion], Path] = field(default_factory=dict)

    def spec(self, cell: PlannedCell) -> ClusterSpec:
        needs = cell.claim.cluster
        sasl = None
        if needs.sasl:  # every SASL user on every SASL cluster: one cluster serves every SASL claim
            users = tuple((user, self.passwords.setdefault(user, secrets.token_urlsafe(12)))
                          for user in SASL_USERS)
            sasl = SaslSpec(users=users)
        properties: dict[str, str] = {}
        classpath: list[Path] = []
        for name in needs.plugins:
            plugin = BROKER_PLUGINS[name]
            if (name, cell.version) not in self.compiled:
                if self.compile is None:
                    raise ConfigError(f"{cell.cell.id} needs broker plug-in {name}, and nothing here compiles "
                                      "plug-ins (ClusterSpecs(compile=...))")
                self.compiled[name, cell.version] = self.compile(plugin, cell.version)
            classpath.append(self.compiled[name, cell.version])
            properties[plugin.property] = plugin.class_name
        return ClusterSpec.of(cell.version, cell.mode, nodes=needs.nodes, sasl=sasl, server_properties=properties,
                              extra_classpath=classpath, log_dirs=needs.log_dirs,
                              quorum="dynamic" if cell.dynamic_quorum else "static")
