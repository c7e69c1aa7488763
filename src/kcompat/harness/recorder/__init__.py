"""What a client sends, read off the wire: request headers (API key, version), whatever the client.

``RequestRecorder`` is a loopback proxy in front of a real cluster that records every request a client
sends it (``Traffic``); ``StubBroker`` answers as a broker that speaks every version, so a client shows its
own limits (``kcompat.harness.clients.limits`` measures them with it); ``frames`` holds the pure framing
both share.
"""

from .pool import Recorders
from .proxy import RequestRecorder
from .stub import Recording, StubBroker, advertised
from .traffic import CrossCheck, Mark, SentRequest, Traffic, cross_check, out_of_range

__all__ = ["CrossCheck", "Mark", "Recorders", "Recording", "RequestRecorder", "SentRequest", "StubBroker", "Traffic",
           "advertised", "cross_check", "out_of_range"]
