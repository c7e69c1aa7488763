"""The Java AdminClient of any kafka-clients release, through a long-lived sidecar JVM.

The sidecar (``sidecar/kcompat/sidecar/``: the protocol loop in
``AdminSidecar.java``, one class per op under ``ops/``, found by name: op
``create_topics`` is class ``ops.CreateTopics``) is compiled once per
kafka-clients release against that release's jar from Maven Central and driven
over JSON lines on stdin/stdout.
Its ready line carries the protocol version it speaks; one that differs from
``SIDECAR_PROTOCOL`` is refused (and its compiled classes dropped).  One sidecar runs per (process, client
version): an xdist worker starts it on first use and keeps it for every cell.
It is the first adapter (``adapter.AdapterProcess``, docs/ADAPTERS.md): a sidecar
that dies or stops answering is a ``HarnessError`` (infra error, never a
compatibility finding), killed, and the next call starts a new one.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from ..artifacts import ArtifactStore, check_release_name
from ..config import HarnessConfig
from ..java import jit_flags, select_java
from ..javac import compile_sources
from ..reaper import labels, new_run_id
from .adapter import PROTOCOL, AdapterProcess, Launch, ProtocolClient, close_processes, process_for
from .base import Endpoint

SIDECAR_SOURCES = Path(__file__).resolve().parent / "sidecar"
SIDECAR_MAIN = "kcompat.sidecar.AdminSidecar"
SIDECAR_PROTOCOL = PROTOCOL
"""The request/answer shapes this module speaks; ``AdminSidecar.PROTOCOL`` must be the same."""


class Sidecar(AdapterProcess):
    """One JVM running one kafka-clients release's AdminClient."""

    def __init__(self, version: str, config: HarnessConfig, *, run_id: str | None = None):
        self.version = check_release_name(version)  # it names the log, the classes and the cache entry
        self.config = config
        self.run_id = run_id or new_run_id()
        self._classes: Path | None = None
        log = config.run_root / self.run_id / f"sidecar-kafka-clients-{version}-{os.getpid()}.log"
        super().__init__(f"the sidecar for kafka-clients {version}", self.version, lambda: self._command(), log)

    def _command(self) -> Launch:
        store = ArtifactStore(self.config)
        jars = store.resolve_client(self.version)
        classpath = ":".join(str(j) for j in jars)
        classes = self._classes = compile_sources(SIDECAR_SOURCES, classpath, f"kafka-clients {self.version}",
                                  self.config.cache_dir / "sidecars" / f"kafka-clients-{self.version}",
                                  self.config.cache_dir)
        java = select_java((17, 11, 21), self.config.cache_dir, offline=self.config.offline,
                           what=f"kafka-clients {self.version}")
        # VM warnings go to stderr: stdout carries nothing but JSON lines.
        return Launch((str(java.java), "-Xmx256m", "-XX:+UseSerialGC", *jit_flags(self.config.jit),
                       "-XX:+DisplayVMOutputToStderr",
                       *labels(self.run_id), "-cp", f"{classes}:{classpath}", SIDECAR_MAIN))

    def on_wrong_protocol(self) -> None:
        if self._classes is not None:  # compiled from other sources: never trusted again
            shutil.rmtree(self._classes, ignore_errors=True)

    def _dropped_note(self) -> str:
        return " (its compiled classes were removed; the next call compiles it again)"


def sidecar_for(version: str, config: HarnessConfig, *, run_id: str | None = None) -> Sidecar:
    """The sidecar of this process for a kafka-clients release, created on first use."""
    sidecar = process_for(("java", version), lambda: Sidecar(version, config, run_id=run_id))
    assert isinstance(sidecar, Sidecar)
    return sidecar


def close_sidecars() -> None:
    """Close every adapter process of this worker, sidecars included (also done at exit)."""
    close_processes()


class JavaClient(ProtocolClient):
    kind = "java"

    def __init__(self, endpoint: Endpoint, client_version: str, config: HarnessConfig, *,
                 run_id: str | None = None, settings: Mapping[str, object] | None = None):
        self.sidecar = sidecar_for(client_version, config, run_id=run_id)
        super().__init__(endpoint, client_version, self.sidecar, settings)

    def client_api_versions(self) -> dict[str, int]:
        """The newest request version this kafka-clients can send, per API (``ApiKeys`` name, e.g. CREATE_TOPICS)."""
        versions: dict[str, int] = self.sidecar.call("api_versions", None, {})["api_versions"]
        return versions

    def client_api_keys(self) -> dict[str, int]:
        """Each ``ApiKeys`` name's key in this release (a release may rename an API; the key stays)."""
        keys: dict[str, int] = self.sidecar.call("api_versions", None, {}).get("api_keys", {})
        return keys

    def client_oldest_versions(self) -> dict[str, int]:
        """The oldest request version this kafka-clients still sends, per API (4.0 dropped many, KIP-896)."""
        versions: dict[str, int] = self.sidecar.call("api_versions", None, {}).get("oldest_versions", {})
        return versions

    def public_methods(self, class_name: str) -> tuple[str, ...] | None:
        """Sorted public method names of a class of this release (``Object``'s left out); None if it has none."""
        methods: list[str] | None = self.sidecar.call("methods", None, {"class": class_name})["methods"]
        return None if methods is None else tuple(methods)
