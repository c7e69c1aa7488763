"""A codec for every version of every Kafka API, driven by Kafka's own message definitions.

``Codec.for_release("4.4.0")`` reads the ``common/message/*.json`` files of
that kafka-clients jar (the definitions Kafka generates its Java classes
from) and encodes and decodes request and response frames as plain dicts;
docs/CODEC.md says why and what it covers.  The stub broker speaks through it
the versions kio can't read (``kcompat.harness.recorder.spoken``).
"""

from .codec import Codec
from .releases import merge
from .structs import UNKNOWN_TAGGED
from .wire import CodecError

__all__ = ["UNKNOWN_TAGGED", "Codec", "CodecError", "merge"]
