"""What a client sends, read off the wire: request headers (API key, version), whatever the client.

``StubBroker`` answers as a broker that speaks every version, so a client shows its own limits
(``kcompat.harness.clients.limits`` measures them with it); ``frames`` holds the pure framing it shares.
"""

from .stub import Recording, StubBroker, advertised

__all__ = ["Recording", "StubBroker", "advertised"]
