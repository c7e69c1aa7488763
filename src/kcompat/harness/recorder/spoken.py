"""What the stub broker speaks beyond kio: every API and version Kafka's own definitions give, through the codec.

kio 0.5.0 stops short of Kafka 4 (Metadata v12, no key above 87), so a stub
that spoke only kio would make every client that goes further look capped at
kio's newest.  The codec (``kcompat.harness.codec``) reads the definitions of
the catalog's kafka-clients releases, merged (a version some release marks
unstable never counts): the stub advertises what kio or the codec speaks.
kio's path stays for the versions kio reads, where the answers were written
and tested against kio's entities; the codec takes the rest, with the same
answer functions: ``Fields`` reads a decoded request as kio's entities are read
(``request.topics``), and ``Shape`` stands for a response class, so ``blank``,
``item_type`` and ``has_field`` build a response dict the codec encodes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from . import frames
from ..codec import Codec
from ..codec.catalog import catalog_codec, codec_versions
from ..codec.schema import Field, Struct
from ..messages import Fields, field_name


def speaks(api_key: int, version: int) -> bool:
    return version in codec_versions().get(api_key, ())


@dataclass(frozen=True)
class Shape:
    """A response struct at one version, where the answers take kio's response class."""

    struct: Struct
    version: int

    def field(self, name: str) -> Field | None:
        """The field kio names ``name``, whether or not this version has it."""
        return next((f for f in self.struct.fields if field_name(f.name) == name), None)

    @classmethod
    def response(cls, codec: Codec, api_key: int, version: int) -> Shape:
        name = next(name for name, key in codec.apis().items() if key == api_key)
        return cls(codec.message(f"{name}Response", version).struct, version)


def blank(entity: Any, depth: int = 0, **values: Any) -> Any:
    """``frames.blank`` for a kio class; for a ``Shape``, the dict of ``values`` its version has (the codec gives
    every other field its default)."""
    if not isinstance(entity, Shape):
        return frames.blank(entity, depth, **values)
    return {field.name: _plain(value) for name, value in values.items()
            if (field := entity.field(name)) is not None and field.present(entity.version)}


def _plain(value: Any) -> Any:
    """A kio-typed value as the codec writes it (an ``ErrorCode`` as its number, a tuple as a list)."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def item_type(entity: Any, name: str) -> Any:
    if not isinstance(entity, Shape):
        return frames.item_type(entity, name)
    field = entity.field(name)
    if field is None or field.struct is None:
        raise AttributeError(f"{entity.struct.name} has no list of structs {name}")
    return Shape(field.struct, entity.version)


def has_field(entity: Any, name: str) -> bool:
    if not isinstance(entity, Shape):
        return frames.has_field(entity, name)
    field = entity.field(name)
    return field is not None and field.present(entity.version)


__all__ = ["Fields", "Shape", "blank", "catalog_codec", "codec_versions", "has_field", "item_type", "speaks"]
