"""A broker registration the super user makes at a KRaft controller, for the probes of the broker methods.

unregisterBroker is for a broker that is registered but not running (its
registration outlives it, fenced).  Rather than stopping a broker of a shared
cluster, the set-up registers an extra broker id at the controller itself
(BrokerRegistration on the controller listener, as a booting broker does) and
never heartbeats: the controller keeps it registered and fenced, like a broker
that died.  The controller listener is read from the first node's own
``server.properties`` (KRaft brokers advertise no controller endpoint to
clients before 3.9).  Every wait is bounded by ``SETTLE``; a refusal is
``ProbeFailed``.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from ...clients import error_name
from ...protocol import API_VERSIONS, build_request, nested_type, pick_version, request_fields
from ...waiting import attempts
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.setups.quorum import cluster_id

BROKER_REGISTRATION, UNREGISTER_BROKER = 62, 64
SETTLE = 30.0
PLAINTEXT, SASL_PLAINTEXT = 0, 2
CONTROLLER_LISTENER = "CONTROLLER"
_RETRIABLE = frozenset({"NOT_CONTROLLER", "REQUEST_TIMED_OUT", "COORDINATOR_NOT_AVAILABLE"})


def controller_address(ctx: ProbeContext) -> tuple[str, int]:
    """The first node's controller listener, from its ``server.properties`` (beside its log)."""
    properties = Path(ctx.cluster.brokers[0].log_path).parent / "server.properties"
    try:
        lines = properties.read_text().splitlines()
    except OSError as exc:
        raise ProbeFailed(f"set-up: can't read {properties} for the controller listener: {exc}") from exc
    listeners = next((line.split("=", 1)[1] for line in lines if line.startswith("listeners=")), "")
    for listener in listeners.split(","):
        name, _, address = listener.partition("://")
        if name == CONTROLLER_LISTENER:
            host, _, port = address.rpartition(":")
            return host, int(port)
    raise ProbeFailed(f"set-up: {properties} names no {CONTROLLER_LISTENER} listener (a ZooKeeper broker?)")


def _features(ctx: ProbeContext) -> list[tuple[str, int, int]]:
    """The features the real broker supports (ApiVersions v3+), which the controller checks a registration for."""
    conn, offered = ctx.admin.connection()
    version = pick_version(API_VERSIONS, offered)
    if version < 3:
        return []
    response: Any = conn.send(build_request(API_VERSIONS, version, client_software_name="kcompat",
                                            client_software_version="1"))
    return [(str(f.name), int(f.min_version), int(f.max_version)) for f in response.supported_features]


def register_fenced_broker(ctx: ProbeContext, broker_id: int) -> None:
    """Set-up: broker ``broker_id`` registered at the controller and never heartbeating (fenced)."""
    address = controller_address(ctx)
    conn, offered = ctx.admin.connection(address)
    if BROKER_REGISTRATION not in offered:
        raise ProbeFailed(f"set-up: the controller at {address} has no BrokerRegistration")
    version = pick_version(BROKER_REGISTRATION, offered)
    empty = {"broker_id": broker_id, "cluster_id": cluster_id(ctx), "incarnation_id": uuid.uuid4(), "listeners": (),
             "features": (), "rack": None}
    listener = nested_type(BROKER_REGISTRATION, version, "Listener", **empty)
    feature = nested_type(BROKER_REGISTRATION, version, "Feature", **empty)
    secure = ctx.admin.endpoint.username is not None
    fields: dict[str, Any] = {
        **empty,
        "listeners": (listener(name="PLAINTEXT" if not secure else "SASL_PLAINTEXT", host="127.0.0.1", port=9,
                               security_protocol=SASL_PLAINTEXT if secure else PLAINTEXT),),
        "features": tuple(feature(name=n, min_supported_version=lo, max_supported_version=hi)
                          for n, lo, hi in _features(ctx))}
    known = request_fields(BROKER_REGISTRATION, version)
    if "log_dirs" in known:
        fields["log_dirs"] = (uuid.uuid4(),)  # from 3.7 the controller wants the broker's directories
    if "previous_broker_epoch" in known:
        fields["previous_broker_epoch"] = -1
    error = "no attempt"
    for _ in attempts(SETTLE, interval=0.2):
        response: Any = conn.send(build_request(BROKER_REGISTRATION, version, **fields))
        error = error_name(int(response.error_code))
        if error not in _RETRIABLE:
            break
    if error != "NONE":
        raise ProbeFailed(f"set-up: registering broker {broker_id} at the controller {address} as the super user "
                          f"gave {error}")


def unregister_as_admin(ctx: ProbeContext, broker_id: int) -> str:
    """UnregisterBroker of ``broker_id`` as the super user, through a broker (which forwards it to the
    controller); the error's name."""
    conn, offered = ctx.admin.connection()
    response: Any = conn.send(build_request(UNREGISTER_BROKER, pick_version(UNREGISTER_BROKER, offered),
                                            broker_id=broker_id))
    return error_name(int(response.error_code))


__all__ = ["controller_address", "register_fenced_broker", "unregister_as_admin"]
