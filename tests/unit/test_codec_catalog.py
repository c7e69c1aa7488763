"""The catalog's codec merges two releases' definitions; this checks, not assumes, that it speaks every other's.

For every catalog release 2.2+ (the jars the cache holds here; every release, fetched, nightly), each STABLE
(definition, version) must be in ``catalog_codec()`` with the same wire shape: its untagged fields in order
(type, nullability, compact encoding, nested structs), and each tag both know alike.  Field and struct names
don't count (renames don't change the bytes), nor do tagged fields one side lacks (a reader skips them), and
``records`` reads as ``bytes``.  ``DIVERGED`` names the pairs a release shipped without marking them unstable and
a later release changed: the merge takes the later one.
"""

from __future__ import annotations

from typing import Any

import pytest

from kcompat.harness.catalog import load_catalog
from kcompat.harness.codec import CodecError
from kcompat.harness.codec.catalog import catalog_codec
from kcompat.harness.codec.releases import read_jar
from kcompat.harness.codec.schema import Message, Struct, default_value
from kcompat.harness.codec.structs import compact_for
from kcompat.harness.config import HarnessConfig
from kcompat.harness.versions import KafkaVersion

WITH_DEFINITIONS = [str(line.newest) for line in load_catalog() if line.newest >= KafkaVersion.parse("2.2")]
DIVERGED = {
    ("RequestHeader", 0): "2.2 and 2.3 gave header v0 a ClientId (ControlledShutdown v0 sends none)",
    ("EndQuorumEpochRequest", 0): "KRaft's internal API before 2.8",
    ("LeaderChangeMessage", 0): "KRaft's control record before 3.0",
    ("ConsumerGroupHeartbeatResponse", 0): "KIP-848's early access (3.5, 3.6)",
    ("ConsumerGroupDescribeResponse", 0): "KIP-848's early access (3.7)",
    ("ReadShareGroupStateSummaryResponse", 0): "KIP-932's share state, internal, before 4.1",
}


def _shape(struct: Struct, version: int, flexible: bool) -> tuple[list[Any], dict[int, Any]]:
    """(untagged fields in order, tag -> tagged field) of ``struct`` at ``version``, names left out."""
    plain: list[Any] = []
    tagged: dict[int, Any] = {}
    for field in struct.fields:
        if not field.present(version):
            continue
        kind = "struct" if field.type.struct else "bytes" if field.type.name == "records" else field.type.name
        nested = _shape(field.struct, version, flexible) if field.struct else None
        shape = (kind, field.type.array, version in field.nullable, compact_for(field, version, flexible), nested)
        if flexible and field.is_tagged(version):
            assert field.tag is not None
            tagged[field.tag] = (*shape, repr(default_value(field, version)))
        else:
            plain.append(shape)
    return plain, tagged


def _same(mine: tuple[list[Any], dict[int, Any]], merged: tuple[list[Any], dict[int, Any]]) -> bool:
    if len(mine[0]) != len(merged[0]):
        return False
    for left, right in zip(mine[0], merged[0], strict=True):
        if left[:4] != right[:4] or (left[4] is not None and not _same(left[4], right[4])):
            return False
    shared = mine[1].keys() & merged[1].keys()
    return all(mine[1][t][:4] == merged[1][t][:4] and mine[1][t][5] == merged[1][t][5] for t in shared) and all(
        mine[1][t][4] is None or _same(mine[1][t][4], merged[1][t][4]) for t in shared)


def differences(definitions: dict[str, Message]) -> list[tuple[str, int]]:
    """The stable (definition, version) pairs of one release the catalog's codec lacks or shapes otherwise."""
    codec = catalog_codec()
    current = {(m.api_key, m.kind): m.api + m.kind.capitalize() for m in definitions.values()
               if m.api_key is not None} | {(key, kind): f"{name}{kind.capitalize()}"
                                            for name, key in codec.apis().items() for kind in ("request", "response")}
    found = []
    for name, message in definitions.items():
        merged_name = current.get((message.api_key, message.kind), name) if message.api_key is not None else name
        for version in message.versions():
            if version in message.unstable():
                continue
            try:
                merged = codec.message(merged_name, version)
            except CodecError:  # the codec lacks the pair
                found.append((name, version))
                continue
            if not _same(_shape(message.struct, version, version in message.flexible),
                         _shape(merged.struct, version, version in merged.flexible)):
                found.append((merged_name, version))
    return found


def _cached_jar(release: str) -> Any:
    jar = HarnessConfig.resolve().cache_dir / "m2/org/apache/kafka/kafka-clients" / release / f"kafka-clients-{release}.jar"
    return jar if jar.exists() else None


def test_the_catalogs_codec_speaks_every_stable_pair_of_every_cached_release_alike() -> None:
    cached = [r for r in WITH_DEFINITIONS if _cached_jar(r) is not None]
    assert cached, "no kafka-clients jar of 2.2+ in the cache"
    found = {r: differences(read_jar(_cached_jar(r), r)) for r in cached}
    unexplained = {r: [pair for pair in pairs if pair not in DIVERGED] for r, pairs in found.items()}
    assert not any(unexplained.values()), {r: pairs[:5] for r, pairs in unexplained.items() if pairs}
    print(f"{len(cached)} releases checked; diverged as documented: "
          f"{sorted({pair for pairs in found.values() for pair in pairs})}")


@pytest.mark.nightly  # fetches every catalog release's jar
@pytest.mark.parametrize("release", WITH_DEFINITIONS)
def test_the_catalogs_codec_speaks_every_stable_pair_of_each_release_alike(release: str) -> None:
    definitions = read_jar(_jar(release), release)
    assert [pair for pair in differences(definitions) if pair not in DIVERGED] == []


def _jar(release: str) -> Any:
    from kcompat.harness.artifacts import ArtifactStore

    jars = ArtifactStore(HarnessConfig.resolve()).resolve_client(release)
    return next(j for j in jars if j.name == f"kafka-clients-{release}.jar")


def test_the_api_names_kept_beside_the_codec_are_the_definitions_names() -> None:
    """A claim book names APIs offline from ``api_names.json``: it must say what the definitions say
    (regenerate with scripts/api_names.py when a catalog release adds an API)."""
    from kcompat.harness.codec.catalog import catalog_codec
    from kcompat.harness.codec.names import known_names

    assert known_names() == {key: name for name, key in catalog_codec().apis().items()}


def test_a_broken_jar_of_a_release_with_definitions_is_an_error_never_skipped(monkeypatch: pytest.MonkeyPatch
                                                                                 ) -> None:
    """Skipping it would quietly cap the wire client and the stub at the other release's versions."""
    from kcompat.harness.codec import catalog
    from kcompat.harness.codec.wire import CodecError

    def broken(release: str, config: object) -> object:
        raise CodecError(f"kafka-clients {release}: can't read its jar")

    monkeypatch.setattr(catalog, "release_definitions", broken)
    catalog.catalog_codec.cache_clear()
    try:
        with pytest.raises(CodecError, match="can't read its jar"):
            catalog.catalog_codec()
    finally:
        catalog.catalog_codec.cache_clear()
