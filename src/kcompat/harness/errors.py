"""The harness's exception tree.

Two kinds of failure are kept apart on purpose:

* ``HarnessError`` and its subclasses mean the harness, the machine or a broker
  process broke: bad input, a missing artifact, a JVM that died during boot, a
  wait that ran out.  A matrix cell that hits one is an *infrastructure error*,
  never a compatibility finding.
* Compatibility findings (a pairing that behaves differently from its KIP) are
  not exceptions of this module; scenarios record them as outcomes.

Every message is one line that names the cause and, where there is one, the
file to look at (``log: <path>``).  Foreign exceptions are translated at the
boundary with ``raise ... from exc``.
"""

from __future__ import annotations

from pathlib import Path


class HarnessError(Exception):
    """The harness or its environment failed; the outcome is an infra error."""

    def __init__(self, message: str, *, log: Path | None = None, hint: str | None = None):
        self.log = log
        self.hint = hint
        parts = [message]
        if log is not None:
            parts.append(f"log: {log}")
        if hint:
            parts.append(f"hint: {hint}")
        super().__init__("; ".join(parts))


class UnknownVersionError(HarnessError, ValueError):
    """A version string that is malformed or not in the catalog."""


class ConfigError(HarnessError, ValueError):
    """A cluster spec or option that can't be honoured (mode, nodes, Java...)."""


class ArtifactError(HarnessError):
    """Broker jars could not be resolved, downloaded or verified."""


class JavaError(HarnessError):
    """No Java runtime that can run the requested broker is available."""


class PortError(HarnessError):
    """A port could not be allocated or is already taken."""


class BootError(HarnessError):
    """A broker or ZooKeeper process exited or never became ready."""


class WireError(HarnessError):
    """A Kafka protocol exchange failed below the level of an error code."""


class NotOffered(WireError):
    """The broker offers no request for what the harness wanted to do (no transactions before 0.11, no
    DescribeLogDirs before 1.0): a set-up that can't be made on this release, never a finding by itself."""


class EngineError(HarnessError):
    """No usable Docker engine, or the engine refused a request."""


class ImageError(HarnessError):
    """A broker image could not be built, found or inspected."""


class AdminToolError(HarnessError):
    """One of a release's own admin tools (kafka-acls...) exited non-zero or ran out of time."""


class AdminToolRefused(AdminToolError):
    """The tool ran and said no (exit non-zero): a finding about the request, not a harness failure."""
