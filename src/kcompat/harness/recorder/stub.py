"""A stub Kafka broker on loopback that records the version of every request a client sends.

A client picks each request's version as min(its newest, the broker's
newest), so a broker that advertises every version of every API Kafka's own
definitions know (``spoken``) makes a client show its own newest.  The stub is one node that is also the
controller; it answers Metadata with the topics asked for (one partition
each, led by itself), and the admin calls kcompat makes (CreateTopics,
CreatePartitions, DescribeConfigs, CreateAcls, DeleteTopics, AlterConfigs,
DeleteRecords, ListOffsets...) with success for each resource (a blank
answer leaves a client waiting for its resources), and makes a client joining
a group its one member and leader; any other API gets its blank response.  A version kio reads is
answered through kio, any other the codec reads through the codec (``spoken`` says why).  A request of a
version neither reads is recorded, then the connection is closed (ApiVersions gets Kafka's
UNSUPPORTED_VERSION answer).

Threads, not asyncio: the stub runs beside a client that blocks (librdkafka's
calls, the sidecar's pipe).  Every socket read is bounded, ``close`` ends
every connection, and what went wrong is kept as one line per problem.
"""

from __future__ import annotations

import socket
import socketserver
import threading
import uuid
from collections.abc import Callable
from typing import Any, Self

from kio.index import load_response_schema
from kio.schema.errors import ErrorCode

from ..errors import HarnessError, WireError
from ..protocol import API_VERSIONS, api_name
from .frames import decode_request, encode_response, frame_size, known, read_header, unsupported_api_versions
from .spoken import Fields, Shape, blank, catalog_codec, codec_versions, has_field, item_type, speaks

NODE_ID = 1
CLUSTER_ID = "kcompat-stub"
IDLE_TIMEOUT = 30.0
"""A connection silent this long is closed (librdkafka's idle connections stay open until the client closes)."""
STUB_FAILED = "the stub failed on this request"
"""Marks the problem line of an error of the stub's own (a bug, not the client's bytes): tests look for it."""


def advertised() -> dict[int, range]:
    """Every API the catalog's definitions give, from its oldest stable request version to its newest (unstable
    versions, such as 4.0's ShareGroupDescribe v0, are never advertised)."""
    return {key: range(versions[0], versions[-1] + 1) for key, versions in sorted(codec_versions().items())
            if versions}


class Recording:
    """The request versions seen per API key, in arrival order; shared by every connection."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._sent: list[tuple[int, int]] = []
        self._problems: list[str] = []

    def add(self, api_key: int, version: int) -> None:
        with self._lock:
            self._sent.append((api_key, version))
            self._lock.notify_all()

    def wait_for(self, api_keys: set[int], timeout: float) -> set[int]:
        """Wait (at most ``timeout`` seconds) until each API key was sent once; the keys still unseen."""
        with self._lock:
            self._lock.wait_for(lambda: api_keys <= {key for key, _ in self._sent}, timeout)
            return api_keys - {key for key, _ in self._sent}

    def problem(self, line: str) -> None:
        with self._lock:
            self._problems.append(line)

    @property
    def problems(self) -> list[str]:
        with self._lock:
            return list(self._problems)

    def mark(self) -> int:
        """A position in the requests seen, for ``names_since``."""
        with self._lock:
            return len(self._sent)

    def names_since(self, mark: int) -> set[str]:
        """The APIs sent after ``mark`` (an unknown key by its number)."""
        with self._lock:
            return {api_name(key) or str(key) for key, _ in self._sent[mark:]}

    def versions(self) -> dict[str, tuple[int, ...]]:
        """API name -> the distinct versions sent, lowest first (an unknown key by its number)."""
        with self._lock:
            sent = list(self._sent)
        out: dict[str, set[int]] = {}
        for key, version in sent:
            out.setdefault(api_name(key) or str(key), set()).add(version)
        return {name: tuple(sorted(found)) for name, found in sorted(out.items())}


Answer = Callable[[Any, type[Any], "StubBroker"], Any]


def _api_versions(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    entry = item_type(schema, "api_keys")
    keys = tuple(blank(entry, api_key=key, min_version=r[0], max_version=r[-1]) for key, r in stub.apis.items())
    return blank(schema, api_keys=keys)


def _metadata(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    names = [t.name for t in request.topics if t.name] if request.topics is not None else sorted(stub.topics)
    broker = blank(item_type(schema, "brokers"), node_id=NODE_ID, host=stub.host, port=stub.port)
    topic_type = item_type(schema, "topics")
    partition = blank(item_type(topic_type, "partitions"), leader_id=NODE_ID, replica_nodes=(NODE_ID,),
                      isr_nodes=(NODE_ID,))
    topics = tuple(blank(topic_type, name=name, topic_id=uuid.uuid5(uuid.NAMESPACE_URL, name),
                         partitions=(partition,)) for name in names)
    return blank(schema, brokers=(broker,), cluster_id=CLUSTER_ID, controller_id=NODE_ID, topics=topics)


def _create_topics(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    result = item_type(schema, "topics")
    stub.topics.update(t.name for t in request.topics if not getattr(request, "validate_only", False))
    return blank(schema, topics=tuple(
        blank(result, name=t.name, num_partitions=max(int(t.num_partitions), 1),
              replication_factor=max(int(t.replication_factor), 1)) for t in request.topics))


def _create_partitions(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    result = item_type(schema, "results")
    return blank(schema, results=tuple(blank(result, name=t.name) for t in request.topics))


def _describe_configs(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    result = item_type(schema, "results")
    return blank(schema, results=tuple(blank(result, resource_type=r.resource_type, resource_name=r.resource_name)
                                       for r in request.resources))


def _create_acls(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    return blank(schema, results=tuple(blank(item_type(schema, "results")) for _ in request.creations))


def _delete_topics(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    names = getattr(request, "topic_names", None) or tuple(t.name for t in getattr(request, "topics", ()))
    return blank(schema, responses=tuple(blank(item_type(schema, "responses"), name=n) for n in names))


def _alter_configs(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    """AlterConfigs and IncrementalAlterConfigs: success for each resource."""
    result = item_type(schema, "responses")
    return blank(schema, responses=tuple(blank(result, resource_type=r.resource_type, resource_name=r.resource_name)
                                         for r in request.resources))


def _by_partition(request: Any, schema: type[Any], **values: Any) -> Any:
    """DeleteRecords, ListOffsets and OffsetCommit: success for each partition asked for, with ``values``."""
    topic = item_type(schema, "topics")
    partition = item_type(topic, "partitions")
    return blank(schema, topics=tuple(blank(topic, **_named(t), partitions=tuple(
        blank(partition, partition_index=p.partition_index, **values) for p in t.partitions)) for t in request.topics))


def _named(topic: Any) -> dict[str, Any]:
    """A topic's name and id as the request gave them (OffsetCommit v10 gives only its id)."""
    return {field: value for field in ("name", "topic_id") if (value := getattr(topic, field, None)) is not None}


def _find_coordinator(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    """The stub coordinates every group: a client sends a group's requests (OffsetFetch, DescribeGroups...)
    only once FindCoordinator names a node it can reach."""
    node: dict[str, Any] = {"node_id": NODE_ID, "host": stub.host, "port": stub.port}
    if not has_field(schema, "coordinators"):
        return blank(schema, **node)
    keys = request.coordinator_keys
    return blank(schema, coordinators=tuple(blank(item_type(schema, "coordinators"), key=k, **node) for k in keys))


def _delete_groups(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    return blank(schema, results=tuple(blank(item_type(schema, "results"), group_id=g) for g in request.groups_names))


def _describe_groups(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    return blank(schema, groups=tuple(blank(item_type(schema, "groups"), group_id=g, group_state="Empty")
                                      for g in request.groups))


def _consumer_group_describe(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    """Every group is unknown to the new protocol (KIP-848): a client falls back to DescribeGroups."""
    return blank(schema, groups=tuple(blank(item_type(schema, "groups"), group_id=g,
                                            error_code=ErrorCode.group_id_not_found) for g in request.group_ids))


def _offset_fetch(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    """No offsets committed; a batched request (v8+) gets an entry per group, as a client matches them."""
    if not has_field(schema, "groups"):
        return blank(schema)
    return blank(schema, groups=tuple(blank(item_type(schema, "groups"), group_id=g.group_id) for g in request.groups))


def _join_group(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    """The client joins as the group's one member and its leader, with its first protocol: a blank answer
    leaves it a member of nothing, so it never commits (kafkajs's ``setOffsets`` commits only the partitions
    assigned to it)."""
    member = request.member_id or f"{CLUSTER_ID}-member"
    protocol = request.protocols[0] if request.protocols else None
    members = () if protocol is None else (blank(item_type(schema, "members"), member_id=member,
                                                 metadata=protocol.metadata),)
    return blank(schema, generation_id=1, protocol_type=request.protocol_type,
                 protocol_name=protocol.name if protocol is not None else "", leader=member, member_id=member,
                 members=members)


def _sync_group(request: Any, schema: type[Any], stub: StubBroker) -> Any:
    """The assignment the leader (the client, ``_join_group``) made for itself."""
    mine = next((a.assignment for a in request.assignments if a.member_id == request.member_id), b"")
    return blank(schema, protocol_type=getattr(request, "protocol_type", None),
                 protocol_name=getattr(request, "protocol_name", None), assignment=mine)


ANSWERS: dict[str, Answer] = {
    "ApiVersions": _api_versions, "Metadata": _metadata, "CreateTopics": _create_topics,
    "CreatePartitions": _create_partitions, "DescribeConfigs": _describe_configs, "CreateAcls": _create_acls,
    "DeleteTopics": _delete_topics, "AlterConfigs": _alter_configs, "IncrementalAlterConfigs": _alter_configs,
    "DeleteRecords": lambda request, schema, stub: _by_partition(request, schema, low_watermark=0),
    "ListOffsets": lambda request, schema, stub: _by_partition(request, schema, offset=0, timestamp=-1),
    "FindCoordinator": _find_coordinator, "DeleteGroups": _delete_groups, "DescribeGroups": _describe_groups,
    "ConsumerGroupDescribe": _consumer_group_describe, "OffsetFetch": _offset_fetch,
    "OffsetCommit": lambda request, schema, stub: _by_partition(request, schema),
    "JoinGroup": _join_group, "SyncGroup": _sync_group,
}
"""What a client needs more than a blank answer for, by API name; every other API gets ``blank``."""


class _Connection(socketserver.BaseRequestHandler):
    server: _Server

    def handle(self) -> None:
        stub = self.server.stub
        sock: socket.socket = self.request
        sock.settimeout(IDLE_TIMEOUT)
        stub.track(sock)
        try:
            while (frame := _read_frame(sock)) is not None:
                reply = stub.answer(frame)
                if reply is None:
                    return
                sock.sendall(reply)
        except (OSError, WireError) as exc:
            if not stub.closing:
                stub.recording.problem(f"connection from {self.client_address[1]}: {exc}")
        except Exception as exc:  # noqa: BLE001 - one client's request must not end the stub's serving: one line
            stub.recording.problem(f"connection from {self.client_address[1]}: {STUB_FAILED}: "
                                   f"{type(exc).__name__}: {exc}")
        finally:
            stub.untrack(sock)


def _read_frame(sock: socket.socket) -> bytes | None:
    """One request frame, or None when the client closed the connection between requests."""
    prefix = _read_exact(sock, 4, eof_ok=True)
    if prefix is None:
        return None
    body = _read_exact(sock, frame_size(prefix), eof_ok=False)
    assert body is not None
    return body


def _read_exact(sock: socket.socket, count: int, *, eof_ok: bool) -> bytes | None:
    chunks = bytearray()
    while len(chunks) < count:
        chunk = sock.recv(count - len(chunks))
        if not chunk:
            if eof_ok and not chunks:
                return None
            raise WireError(f"the client closed the connection mid-frame ({len(chunks)} of {count} bytes)")
        chunks += chunk
    return bytes(chunks)


def _end(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed by the client


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    stub: StubBroker


class StubBroker:
    """``with StubBroker() as stub:`` point a client at ``stub.bootstrap_servers``; ``stub.recording``
    holds what it sent.  Loopback only; the port is the kernel's choice."""

    def __init__(self, apis: dict[int, range] | None = None):
        self.apis = advertised() if apis is None else apis
        self.recording = Recording()
        self.topics: set[str] = set()
        self.closing = False
        self._server = _Server(("127.0.0.1", 0), _Connection, bind_and_activate=True)
        self._server.stub = self
        address = self._server.server_address
        self.host, self.port = str(address[0]), int(address[1])
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=f"kcompat-stub-{self.port}", daemon=True)

    @property
    def bootstrap_servers(self) -> str:
        return f"{self.host}:{self.port}"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop accepting, end every open connection, and wait (bounded) for the server thread."""
        with self._lock:
            self.closing = True
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join(timeout=5.0)
        self._server.server_close()
        with self._lock:
            for sock in self._sockets:
                _end(sock)
        if self._thread.is_alive():
            raise HarnessError(f"the stub broker on {self.bootstrap_servers} did not stop in 5 s")

    def track(self, sock: socket.socket) -> None:
        """A connection's handler starts in its own thread, possibly after ``close`` ended the others:
        such a late one is ended at once instead of waiting out its idle timeout."""
        with self._lock:
            if self.closing:
                _end(sock)
            self._sockets.add(sock)

    def untrack(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.discard(sock)

    def answer(self, frame: bytes) -> bytes | None:
        """The response frame to one request frame, or None to close the connection."""
        header = read_header(frame)
        self.recording.add(header.api_key, header.api_version)
        name = api_name(header.api_key) or str(header.api_key)
        if known(header.api_key, header.api_version):
            request = decode_request(frame)
            response = self._respond(name, header.api_version, request,
                                     load_response_schema(header.api_key, header.api_version))
            return None if response is None else encode_response(header.correlation_id, response)
        if speaks(header.api_key, header.api_version):
            return self._answer_with_codec(frame, name)
        if header.api_key == API_VERSIONS:
            return unsupported_api_versions(header.correlation_id)
        self.recording.problem(f"{name} v{header.api_version}: no schema for it in kio or Kafka's definitions; "
                               "connection closed")
        return None

    def _answer_with_codec(self, frame: bytes, name: str) -> bytes | None:
        """A version kio can't read: the codec decodes it and encodes the answer ``ANSWERS`` builds."""
        codec = catalog_codec()
        head, body = codec.decode_request(len(frame).to_bytes(4, "big") + frame, rest_ok=True)  # as kio's path
        key, version = head["RequestApiKey"], head["RequestApiVersion"]
        response = self._respond(name, version, Fields(body), Shape.response(codec, key, version))
        if response is None:
            return None
        return codec.encode_response(key, version, {"CorrelationId": head["CorrelationId"]}, response)

    def _respond(self, name: str, version: int, request: Any, schema: Any) -> Any:
        """``ANSWERS``' answer (else a blank one), or None (a problem recorded) where this version refuses it."""
        respond = ANSWERS.get(name)
        try:
            return blank(schema) if respond is None else respond(request, schema, self)
        except (TypeError, ValueError, AttributeError) as exc:  # an answer this version's schema refuses
            self.recording.problem(f"{name} v{version}: no answer ({exc}); connection closed")
            return None


__all__ = ["STUB_FAILED", "Recording", "StubBroker", "advertised"]
