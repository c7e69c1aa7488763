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
from ..features import Levels, load_features, parse_levels, split_ref
from ..records import Cell
from ..spec import ClusterSpec, SaslSpec, has_dynamic_quorum
from ..versions import KafkaVersion
from .axes import load_defaults
from .claims import BROKER_PLUGINS, SASL_USERS, BrokerPlugin, Claim, ClaimBook, ClusterNeeds

DEFAULT_BROKERS, DEFAULT_CLIENTS = load_defaults()
"""The default run's axes, chosen from data (``kcompat axes choose``; ``default_axes.toml``)."""
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
        return cls(_items(brokers, "--brokers", "broker", DEFAULT_BROKERS) or DEFAULT_BROKERS, modes or "default",
                   _items(clients, "--clients", "client", DEFAULT_CLIENTS) or DEFAULT_CLIENTS,
                   _items(kips, "--kip", "KIP", ("every KIP with claims",)))

    def as_json(self) -> dict[str, Any]:
        return {"brokers": list(self.brokers), "modes": self.modes, "clients": list(self.clients),
                "kips": list(self.kips)}


def _items(value: str | Sequence[str] | None, option: str, noun: str, default: Sequence[str]) -> tuple[str, ...]:
    """The names of a comma-separated axis; None or no value at all: the default (empty).  A value given that
    names nothing (``--clients ''``) is an error: silently running the default would run something else."""
    if value is None:
        return ()
    parts = value.split(",") if isinstance(value, str) else [p for v in value for p in v.split(",")]
    items = tuple(dict.fromkeys(p.strip() for p in parts if p.strip()))
    if not items and (isinstance(value, str) or value):
        raise ConfigError(f"{option} {','.join([value] if isinstance(value, str) else value)!r} names no {noun}; "
                          f"leave it out for the default ({','.join(default)})")
    return items


@dataclass(frozen=True)
class PlannedCell:
    cell: Cell
    claim: Claim
    version: KafkaVersion
    mode: Mode
    client: ClientRef
    host: ClusterNeeds | None = None
    """The cluster the cell runs on (``hosting``); None: exactly what its claim names."""

    @property
    def cluster(self) -> ClusterNeeds:
        """What the cell's cluster is booted with, each need fitted to what the release can run."""
        return fitted(self.host or self.claim.cluster, self.version, self.mode)

    @property
    def dynamic_quorum(self) -> bool:
        """Whether the cell's cluster runs a dynamic quorum: asked for, and a KRaft release that has one.  A
        broker that can't runs its static one (those cells lack the voter APIs anyway)."""
        return self.cluster.quorum == "dynamic"

    @property
    def last(self) -> bool:
        """Whether the cell runs after the other cells of its cluster: its claim asked for what a shared cluster
        adds (a dynamic quorum whose voters it changes, a second log dir it moves a replica to), so no cell that
        did not ask observes what it left.  Kafka 3.9.2's quorum leader has died in such a voter change
        ("Unexpected acknowledgement from non-voter 3"), which every later cell of its cluster would have met."""
        own = self.claim.cluster
        return self.host is not None and (own.log_dirs > 1 or own.quorum == "dynamic")

    @property
    def cluster_key(self) -> str:
        """Cells with equal keys share one running cluster (and one xdist group): the key of the cluster
        booted, so a need a broker can't meet (a dynamic quorum on ZooKeeper) splits no group."""
        return f"{self.version}-{self.mode}-{self.cluster.key}{self.cell.profile}"


def fitted(needs: ClusterNeeds, version: KafkaVersion, mode: Mode) -> ClusterNeeds:
    """``needs`` as ``version`` in ``mode`` boots them: a dynamic quorum only where KRaft has one (3.9+)."""
    if needs.quorum == "dynamic" and not has_dynamic_quorum(version, mode):
        return dataclasses.replace(needs, quorum="static")
    return needs


def hosting(claim: Claim, shared: ClusterNeeds, version: KafkaVersion, mode: Mode) -> ClusterNeeds:
    """The cluster a claim's cells run on at one broker: its shape's ``shared`` cluster where that has all the
    claim names, else the claim's own needs.  One boot then serves the plain and log-dir claims of a release,
    and the static and voter claims of a 3-node KRaft 3.9+ one; plug-in claims keep their own cluster.  Sharing gives a cell only what the
    release runs supported: several log dirs on ZooKeeper and on KRaft from 3.8 (``kraft_jbod``), a dynamic
    quorum on KRaft from 3.9; a claim whose answer a feature it does not name would change says
    ``shared = false``."""
    own = claim.cluster
    if not own.shared:
        return own
    if shared.log_dirs > 1 and mode == "kraft" and not version.supports("kraft_jbod"):
        shared = dataclasses.replace(shared, log_dirs=1)
    shared = fitted(shared, version, mode)
    if not shared.covers(fitted(own, version, mode)):
        return own
    return dataclasses.replace(own, log_dirs=shared.log_dirs, quorum=shared.quorum)


Broker = tuple[KafkaVersion, Mode, Levels | None]
"""A broker of the selection: version, mode, and the feature levels its reference names (None: none named, so
the plan adds the profiles a claim's feature gate calls for, ``profiles``)."""


def brokers(selection: Selection, catalog: Catalog) -> list[Broker]:
    """Each broker reference resolved, its feature levels (``4.1@share.version=1``) checked against the
    release's measured features (``kcompat.harness.features``)."""
    if selection.modes not in MODE_CHOICES:
        raise ConfigError(f"mode is one of {', '.join(MODE_CHOICES)}, not {selection.modes!r}")
    wanted = [line.line.line for line in catalog] if selection.brokers == ("all",) else list(selection.brokers)
    chosen: list[Broker] = []
    for ref in wanted:
        text, items = split_ref(ref)
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
        chosen.extend((release.version, mode, parse_levels(release.version, mode, items, ref) if items else None)
                      for mode in modes)
    return list(dict.fromkeys(chosen))


def profiles(claim: Claim, version: KafkaVersion, mode: Mode, named: Levels | None) -> list[Levels]:
    """The cluster profiles a claim runs on at one broker: the one its reference names; else the default, and
    beside it each feature the claim's APIs need enabled at its highest level where the release lists those
    APIs but keeps the feature off by default (4.1 and ``share.version``).  Other claims keep one profile."""
    if named is not None:
        return [named]
    book = load_features()
    entry = book.releases.get(version) if mode == "kraft" else None
    if entry is None:
        return [()]
    gates = [f for f in book.gating((claim.api, *claim.requires)) if entry.off_by_default(f)]
    return [(), *(((f.name, entry.supported[f.name]),) for f in gates)]


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
    shared = {shape: book.shared_needs(*shape) for shape in {c.cluster.shape for c in claims}}
    cells = [PlannedCell(Cell(claim.id, str(version), mode, str(ref), levels), claim, version, mode, ref, host)
             for version, mode, named in brokers(selection, catalog)
             for claim in claims
             for host in (hosting(claim, shared[claim.cluster.shape], version, mode),)
             for levels in profiles(claim, version, mode, named)
             for ref in _clients_for(claim, refs)]
    cells = list({c.cell: c for c in cells}.values())  # ``4.1,4.1@share.version=1``: each cell once
    return sorted(cells, key=lambda c: (c.version, c.mode, c.cluster_key, c.last, c.cell.client, c.cell.claim_id))


def plugin_sources(plugin: BrokerPlugin) -> Path:
    """A broker plug-in's Java sources: ``src/kcompat/fixtures/plugins/<name>``, located (never imported) like the claims."""
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
        needs = cell.cluster
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
                              quorum="dynamic" if cell.dynamic_quorum else "static",
                              features=cell.cell.broker_features)
