"""A loopback proxy in front of a cluster's brokers that records every request a client sends.

"The request version the client actually sent" is read off the wire the same
way for every client: each request frame's header (API key, version,
correlation id, client id) as it passes, and each broker's ApiVersions answer
(what it offered that client).  Bytes are forwarded as they come; the only
responses changed are those naming brokers (``rewrite``): their addresses
become the proxy's, so a client that bootstraps through the recorder stays
on it for every broker it later reaches.  Responses are matched to requests
by correlation id (clients pipeline).  SASL: handshake v1 is followed by
SaslAuthenticate requests like any other; after handshake v0 the client sends
raw tokens, so the next frames (one round for PLAIN, two for SCRAM) are
passed without being read as requests.

What the recorder cannot follow (a response version kio can't decode, an
address it does not proxy, a mechanism whose rounds it doesn't know, a
stream that stops being Kafka's) is a line in ``traffic.problems``, never
silence: such a connection is forwarded unread from then on, and a client
may then reach a broker directly.

Threads, not asyncio: the recorder runs beside clients that block (librdkafka,
the sidecar's pipe).  One thread accepts for every port; each connection has
two pumps.  Every wait for data is bounded by ``POLL``, every send by
``SEND_TIMEOUT``, and ``close`` ends every connection and joins every thread
(bounded).
"""

from __future__ import annotations

import itertools
import select
import selectors
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterable
from typing import Self

from ..errors import HarnessError, WireError
from ..protocol import API_VERSIONS, METADATA, SASL_HANDSHAKE, ApiVersionRange, api_name
from .frames import FrameBuffer, client_id_of, decode_request, decode_response, encode_response, read_header
from .rewrite import BROKER_ADDRESSES, Address, response_schema, rewrite_addresses, rewrite_metadata, rewrites
from .traffic import SentRequest, Traffic

POLL = 0.5
"""Longest a thread waits on a socket before it looks whether the recorder is closing."""
CONNECT_TIMEOUT = 5.0
SEND_TIMEOUT = 60.0
"""Longest a send waits for a peer that stops reading (then the connection ends, named as a problem)."""
JOIN_TIMEOUT = 5.0
CHUNK = 256 * 1024
SASL_ROUNDS = {"PLAIN": 1, "SCRAM-SHA-256": 2, "SCRAM-SHA-512": 2}
"""Raw token exchanges after SaslHandshake v0, per mechanism (client token, broker token, each one frame)."""
UNSUPPORTED_VERSION = 35
FrameHandler = Callable[[FrameBuffer, bytes], bytes]
"""Reads what a pump received and returns the bytes to forward."""


def _end(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed by the peer
    sock.close()


class _Link:
    """One client connection and its upstream connection to one broker: what is in flight between them."""

    def __init__(self, recorder: RequestRecorder, number: int, broker: str, client: socket.socket,
                 upstream: socket.socket):
        self.recorder, self.number, self.broker = recorder, number, broker
        self.client, self.upstream = client, upstream
        self.pending: dict[int, SentRequest] = {}
        self.raw_requests = 0
        """Client frames still to pass as SASL tokens (after handshake v0)."""
        self.raw_responses = 0
        """Broker frames still to pass as answers to those tokens."""
        self.blind = False
        self.ended = False
        self.pumps_done = 0
        """Pumps that have ended (counted by the recorder under its lock)."""
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._pump, args=(client, upstream, self.requests),
                                         name=f"kcompat-recorder-{number}-up", daemon=True),
                        threading.Thread(target=self._pump, args=(upstream, client, self.responses),
                                         name=f"kcompat-recorder-{number}-down", daemon=True)]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def end(self) -> None:
        self.ended = True
        _end(self.client)
        _end(self.upstream)

    def problem(self, line: str) -> None:
        self.recorder.traffic.problem(f"connection {self.number} to {self.broker}: {line}")

    def go_blind(self, why: str) -> None:
        """Stop reading this connection (its bytes still flow): a problem, named."""
        with self.lock:
            if self.blind:
                return
            self.blind = True
        self.problem(f"{why}; from here its bytes are forwarded unread (requests unrecorded, addresses not rewritten)")

    def _pump(self, source: socket.socket, sink: socket.socket, read: FrameHandler) -> None:
        """Source to sink until either side ends.  The wait for data is a ``poll`` bounded by ``POLL`` (a
        socket timeout would also cut a ``sendall`` of the other pump short, mid-frame, on a slow reader);
        sends are bounded by the sockets' ``SEND_TIMEOUT``."""
        frames = FrameBuffer()
        try:
            waiting = select.poll()  # not select.select: a busy process has descriptors above its 1024 limit
            waiting.register(source, select.POLLIN)
            while not self.recorder.closing:
                if not waiting.poll(POLL * 1000):
                    continue
                data = source.recv(CHUNK)
                if not data:
                    break
                sink.sendall(data if self.blind else read(frames, data))
        except (ConnectionResetError, BrokenPipeError):
            pass  # a peer went away: how connections end
        except ValueError:
            pass  # the other pump closed this socket (its descriptor is -1 now): the link has ended
        except OSError as exc:
            if not (self.recorder.closing or self.ended):  # else the other pump ended the link under this one
                self.problem(f"{type(exc).__name__}: {exc}")
        finally:
            self.end()  # either side gone: the other pump wakes up and ends too
            self.recorder.finished(self)

    def requests(self, frames: FrameBuffer, data: bytes) -> bytes:
        """Record each request complete in ``data``, then forward ``data`` as it is (before the broker can
        answer, the response's correlation id is known)."""
        for frame in frames.feed(data):
            try:
                self.request(frame)
            except Exception as exc:  # a bug of the recorder must not cut the client off: named, bytes still flow
                self.problem(f"a request left unrecorded: {type(exc).__name__}: {exc}")
        if frames.broken is not None:
            frames.drain()
            self.go_blind(frames.broken)
        return data

    def request(self, frame: bytes) -> None:
        with self.lock:
            if self.raw_requests > 0:
                self.raw_requests -= 1
                self.raw_responses += 1
                return
        try:
            header = read_header(frame)
        except WireError as exc:
            self.go_blind(str(exc))
            return
        sent = SentRequest(self.number, self.broker, header.api_key, header.api_version, header.correlation_id,
                           client_id_of(frame), time.time())
        self.recorder.traffic.add(sent)
        with self.lock:
            self.pending[header.correlation_id] = sent
        if header.api_key == SASL_HANDSHAKE and header.api_version == 0:
            self._sasl_v0(frame)

    def _sasl_v0(self, frame: bytes) -> None:
        """Handshake v0: the client's next frames are raw tokens, as many as its mechanism exchanges."""
        try:
            mechanism = str(decode_request(frame).mechanism)
        except WireError as exc:
            self.go_blind(f"SaslHandshake v0 unreadable ({exc})")
            return
        rounds = SASL_ROUNDS.get(mechanism)
        if rounds is None:
            self.go_blind(f"SASL mechanism {mechanism} over handshake v0 exchanges an unknown number of raw tokens")
            return
        with self.lock:
            self.raw_requests = rounds

    def responses(self, frames: FrameBuffer, data: bytes) -> bytes:
        """The responses complete in ``data``, each read and possibly rewritten, framed again."""
        out = bytearray()
        for frame in frames.feed(data):
            try:
                out += self.response(frame)
            except Exception as exc:  # as for requests: the response passes unchanged, the problem named
                self.problem(f"a response passed unread: {type(exc).__name__}: {exc}")
                out += struct.pack(">i", len(frame)) + frame
        if frames.broken is not None:
            out += frames.drain()
            self.go_blind(frames.broken)
        return bytes(out)

    def response(self, frame: bytes) -> bytes:
        with self.lock:
            raw = not self.pending and self.raw_responses > 0
            if raw:
                self.raw_responses -= 1
            sent = None if raw or len(frame) < 4 else self.pending.pop(struct.unpack_from(">i", frame)[0], None)
        if raw:
            return struct.pack(">i", len(frame)) + frame
        if sent is None:
            self.problem(f"a response of {len(frame)} bytes matches no request in flight; passed unchanged")
        elif sent.api_key == API_VERSIONS:
            self._offered(sent, frame)
        elif api_name(sent.api_key) in BROKER_ADDRESSES:
            frame = self._rewritten(sent, frame)
        return struct.pack(">i", len(frame)) + frame

    def _offered(self, sent: SentRequest, frame: bytes) -> None:
        """A broker answers an ApiVersions version it doesn't know at v0 with UNSUPPORTED_VERSION, still listing
        what it offers: read at the request's version, else at v0."""
        response = None
        for version in dict.fromkeys((sent.api_version, 0)):
            try:
                _, response = decode_response(API_VERSIONS, version, frame, response_schema(API_VERSIONS, version))
            except WireError:
                continue
            if int(response.error_code) != UNSUPPORTED_VERSION or version == 0:
                break
        if response is None:
            self.problem(f"ApiVersions v{sent.api_version} answer unreadable at that version and at v0")
            return
        self.recorder.traffic.offer(self.broker, (ApiVersionRange(int(k.api_key), int(k.min_version),
                                                                  int(k.max_version)) for k in response.api_keys))

    def _rewritten(self, sent: SentRequest, frame: bytes) -> bytes:
        name = f"{sent.api} v{sent.api_version}"
        bypass = "passed unchanged: the client may reach the brokers it names directly, bypassing the recorder"
        schema = response_schema(sent.api_key, sent.api_version)
        if schema is None:
            self.problem(f"{name}: kio has no schema for it; {bypass}")
            return frame
        if not rewrites(sent.api_key, sent.api_version):
            return frame
        try:
            if sent.api_key == METADATA:
                out, unknown = rewrite_metadata(frame, sent.api_version, self.recorder.ports)
            else:
                correlation_id, response = decode_response(sent.api_key, sent.api_version, frame, schema)
                rewritten, unknown = rewrite_addresses(response, self.recorder.ports)
                out = frame if rewritten is response else encode_response(correlation_id, rewritten)[4:]
        except WireError as exc:
            self.problem(f"{name}: {exc}; {bypass}")
            return frame
        if unknown:
            self.problem(f"{name} names {', '.join(f'{h}:{p}' for h, p in unknown)}, which the recorder does not "
                         "proxy: the client may reach it directly")
        return out


class RequestRecorder:
    """``with RequestRecorder(brokers) as recorder:`` a client given ``recorder.bootstrap_servers`` talks to every
    broker through the recorder; ``recorder.traffic`` holds what it sent.  ``brokers``: each broker's
    (host, port) as its listener advertises it.  Listens on 127.0.0.1 only, ports of the kernel's choice."""

    def __init__(self, brokers: Iterable[Address], *, name: str = "recorder"):
        self.name = name
        self.traffic = Traffic()
        self.closing = False
        self.ports: dict[Address, Address] = {}
        self._upstream: dict[socket.socket, Address] = {}
        self._links: set[_Link] = set()
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()
        self._selector = selectors.DefaultSelector()
        try:
            for broker in brokers:
                listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                self._upstream[listener] = broker
                listener.bind(("127.0.0.1", 0))
                listener.listen(64)
                listener.setblocking(False)
                self._selector.register(listener, selectors.EVENT_READ)
                self.ports[broker] = ("127.0.0.1", int(listener.getsockname()[1]))
        except OSError as exc:
            self._close_listeners()
            raise HarnessError(f"the request recorder could not listen on 127.0.0.1: {exc}") from exc
        self._thread = threading.Thread(target=self._accept, name=f"kcompat-{name}-accept", daemon=True)

    @property
    def bootstrap_servers(self) -> str:
        return ",".join(f"{host}:{port}" for host, port in self.ports.values())

    def proxy_of(self, broker: Address) -> Address:
        """The recorder's address for a broker (``KeyError`` for a broker it does not proxy)."""
        return self.ports[broker]

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _accept(self) -> None:
        while not self.closing:
            for key, _ in self._selector.select(timeout=POLL):
                listener = key.fileobj
                assert isinstance(listener, socket.socket)
                try:
                    client, _ = listener.accept()
                except (BlockingIOError, OSError):
                    continue  # the client gave up before we took it, or the recorder is closing
                self._connect(client, self._upstream[listener])

    def _connect(self, client: socket.socket, broker: Address) -> None:
        where = f"{broker[0]}:{broker[1]}"
        number = self.traffic.connected(where)
        client.settimeout(SEND_TIMEOUT)
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            upstream = socket.create_connection(broker, timeout=CONNECT_TIMEOUT)
            upstream.settimeout(SEND_TIMEOUT)
            upstream.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError as exc:
            self.traffic.problem(f"connection {number}: can't reach broker {where}: {exc}; the client's "
                                 "connection was closed")
            _end(client)
            return
        link = _Link(self, number, where, client, upstream)
        with self._lock:
            if self.closing:
                link.end()
                return
            self._links.add(link)
        link.start()

    def finished(self, link: _Link) -> None:
        """A pump ended; the link goes once both have (its sockets are closed by then)."""
        with self._lock:
            link.pumps_done += 1
            if link.pumps_done == len(link.threads):
                self._links.discard(link)

    def open_connections(self) -> int:
        """Client connections not yet ended."""
        with self._lock:
            return len(self._links)

    def threads(self) -> list[threading.Thread]:
        """Every thread the recorder runs now (for tests that check nothing outlives it)."""
        with self._lock:
            pumps = [t for link in self._links for t in link.threads]
        return [t for t in (self._thread, *pumps) if t.is_alive()]

    def own_connections(self) -> set[int]:
        """The local ports of the recorder's open connections to brokers: telling its own traffic to a broker
        apart from a client's that bypassed it (tests count connections to broker ports)."""
        with self._lock:
            links = list(self._links)
        ports: set[int] = set()
        for link in links:
            try:
                ports.add(int(link.upstream.getsockname()[1]))
            except OSError:
                continue  # closed meanwhile
        return ports

    def close(self) -> None:
        """Stop accepting, end every connection, join every thread (``JOIN_TIMEOUT`` in all)."""
        self.closing = True
        if self._thread.is_alive():
            self._thread.join(JOIN_TIMEOUT)
        self._close_listeners()
        with self._lock:
            links = list(self._links)
        for link in links:
            link.end()
        deadline = time.monotonic() + JOIN_TIMEOUT
        for thread in [t for link in links for t in link.threads]:
            if thread.is_alive() and thread is not threading.current_thread():
                thread.join(max(0.0, deadline - time.monotonic()))
        alive = [t.name for t in self.threads()]
        if alive:
            raise HarnessError(f"the request recorder {self.name} did not stop in {JOIN_TIMEOUT:.0f} s: "
                               f"{', '.join(alive)} still running")

    def _close_listeners(self) -> None:
        if self._selector.get_map() is None:
            return  # closed already
        for listener in list(self._upstream):
            try:
                self._selector.unregister(listener)
            except (KeyError, ValueError):
                pass  # never registered: its bind failed
            listener.close()
        self._selector.close()


__all__ = ["RequestRecorder"]
