"""The codec against Kafka's own generated classes: every API and version of a release, through the sidecar.

For each (API, version) a release defines, a full and a sparse sample of the request and of the response (and
every request/response header version) are encoded by the codec, read and written again by that release's
``<Name>Data`` class in the Java sidecar (op ``message_round_trip``), and both must agree: Java writes the
codec's bytes, and the codec reads Java's bytes back into the sample.  The newest catalog release and the oldest
whose jar carries the definitions run here; every catalog release, nightly.
"""

from __future__ import annotations

import base64
import re
from typing import Any

import pytest

from kcompat.harness.catalog import load_catalog
from kcompat.harness.clients.java import sidecar_for
from kcompat.harness.codec import Codec, CodecError
from kcompat.harness.codec.catalog import catalog_codec
from kcompat.harness.codec.samples import sample
from kcompat.harness.codec.schema import Field, Struct
from kcompat.harness.config import HarnessConfig
from kcompat.harness.versions import KafkaVersion

RELEASES = [str(line.newest) for line in load_catalog()]


def _cases(codec: Codec) -> list[tuple[str, int, dict[str, Any], bytes]]:
    """(definition file, version, sample, the codec's bytes) for both kinds of every API version, and headers."""
    files = [(f"{api}{kind}", v) for api in codec.apis() for v in codec.versions(api) for kind in ("Request", "Response")]
    files += [("RequestHeader", v) for v in range(3)] + [("ResponseHeader", v) for v in range(2)]
    cases = []
    for name, version in files:
        try:
            message = codec.message(name, version)
        except CodecError:
            continue  # a release before flexible versions has no header v2
        for full in (True, False):
            value = sample(message.struct, version, full=full, seed=version + 1)
            cases.append((name, version, value, codec.encode_message(name, version, value)))
    return cases


def round_trip(release: str, config: HarnessConfig) -> tuple[set[tuple[str, int]], set[tuple[str, int]], list[str]]:
    """The (API, version) pairs whose request and response both round-trip; those whose bytes Java read but could
    not write again for a defect of its generated classes (``_java_cannot_write``); one line per disagreement."""
    codec = Codec.for_release(release, config)
    cases = _cases(codec)
    messages = [{"class": f"{name}Data", "version": version, "data": base64.b64encode(data).decode()}
                for name, version, _, data in cases]
    results = sidecar_for(release, config).call("message_round_trip", None, {"messages": messages})["results"]
    failures, failed, read_only = [], set(), set()
    for (name, version, value, data), result in zip(cases, results, strict=True):
        pair = (name.removesuffix("Request").removesuffix("Response"), version)
        if _java_cannot_write(codec.message(name, version).struct, version, result):
            read_only.add(pair)
        elif problem := _disagreement(codec, name, version, value, data, result):
            failures.append(f"{name} v{version}: {problem}")
            failed.add(pair)
    pairs = {(api, v) for api in codec.apis() for v in codec.versions(api)} - failed - read_only
    return pairs, read_only - failed, failures


NON_DEFAULT = re.compile(r"UnsupportedVersionException: Attempted to write a non-default (\w+) at version (\d+)")
NO_RECORDS_WRITER = "Cannot write records to writer of class: ByteBufferAccessor"


def _java_cannot_write(struct: Struct, version: int, result: dict[str, Any]) -> bool:
    """Java read the codec's bytes but its generated classes can't write them again, for a defect of their own:
    kafka-clients 2.2's size() refuses a field the version lacks (a value the codec can't have sent; Java's own
    read left it at its default: the check is inverted), and 2.7's writes records only through a RecordsWritable
    (a network send, not a buffer)."""
    error = result.get("error", "") if result.get("stage") == "write" else ""
    if NO_RECORDS_WRITER in error:
        return any(f.type.name == "records" and f.present(version) for f in _fields(struct))
    refused = NON_DEFAULT.search(error)
    if refused is None or int(refused.group(2)) != version:
        return False
    named = [f for f in _fields(struct) if f.name.lower() == refused.group(1).lower()]
    return bool(named) and not any(f.present(version) for f in named)


def _fields(struct: Struct) -> list[Field]:
    return [g for f in struct.fields for g in [f, *(_fields(f.struct) if f.struct else [])]]


def _disagreement(codec: Codec, name: str, version: int, value: dict[str, Any], data: bytes,
                  result: dict[str, Any]) -> str | None:
    if "error" in result:
        return f"Java failed to {result['stage']} the codec's bytes: {result['error']}"
    java = base64.b64decode(result["data"])
    if java != data:
        return f"Java wrote {java.hex()}, the codec {data.hex()}"
    if (back := codec.decode_message(name, version, java)) != value:
        return f"the codec read Java's bytes as {back}, not {value}"
    return None


def _oldest_with_definitions(config: HarnessConfig) -> str:
    for release in RELEASES:
        try:
            Codec.for_release(release, config)
        except CodecError:
            continue
        return release
    raise AssertionError("no catalog release's jar carries message definitions")


def _check(release: str, config: HarnessConfig) -> None:
    pairs, read_only, failures = round_trip(release, config)
    codec = Codec.for_release(release, config)
    every = {(api, v) for api in codec.apis() for v in codec.versions(api)}
    print(f"kafka-clients {release}: {len(pairs)} of {len(every)} (API, version) pairs round-trip; "
          f"{len(read_only)} read by Java but not writable by its own classes: {sorted(read_only)}")
    assert not failures, f"{len(failures)} disagreements, first: " + "\n".join(failures[:10])
    assert pairs | read_only == every and pairs


def test_every_api_version_of_the_newest_release_round_trips_through_its_java_classes(kc_config) -> None:
    _check(RELEASES[-1], kc_config)


def test_every_api_version_of_the_oldest_release_with_definitions_round_trips(kc_config) -> None:
    _check(_oldest_with_definitions(kc_config), kc_config)


@pytest.mark.nightly
@pytest.mark.parametrize("release", RELEASES)
def test_every_catalog_release_round_trips(kc_config, release: str) -> None:
    try:
        Codec.for_release(release, kc_config)
    except CodecError as exc:
        assert "carries no message definitions" in str(exc)
        assert RELEASES.index(release) < RELEASES.index(_oldest_with_definitions(kc_config))
        return
    _check(release, kc_config)


def test_mutated_frames_of_every_api_of_the_newest_release_decode_or_fail_in_one_line(kc_config) -> None:
    """The fuzz loop of tests/unit/test_codec.py on a real release's definitions (its jar; no Java needed)."""
    import random

    codec, rng = Codec.for_release(RELEASES[-1], kc_config), random.Random(4400)
    refused = 0
    for api in codec.apis():
        for version in codec.versions(api):
            value = sample(codec.message(f"{api}Response", version).struct, version)
            frame = bytearray(codec.encode_response(api, version, {"CorrelationId": 1}, value))
            for _ in range(5):
                bad = bytes(frame[:rng.randrange(len(frame) + 1)]) if rng.random() < 0.3 else bytes(
                    b if rng.random() > 0.05 else rng.randrange(256) for b in frame)
                try:
                    codec.decode_response(api, version, bad)
                except CodecError as exc:
                    assert "\n" not in str(exc) and f"{api} v{version} response" in str(exc), str(exc)
                    refused += 1
    assert refused


BEFORE_DEFINITIONS = [r for r in RELEASES if KafkaVersion.parse("0.11") <= KafkaVersion.parse(r) < KafkaVersion.parse("2.2")]
"""Releases whose jars carry no definitions, which the catalog's codec speaks (docs/CODEC.md), from 0.11: the
sidecar's admin sources don't compile against 0.10.2, which has no AdminClient."""


def schema_round_trip(release: str, config: HarnessConfig) -> tuple[set[tuple[str, int]], list[str]]:
    """(API, version) pairs of ``release`` whose requests and responses, encoded by the catalog's codec, its own
    protocol ``Schema`` reads and writes back byte for byte (op ``schema_round_trip``); one line per problem,
    a version the release defines and the codec lacks among them."""
    codec, sidecar = catalog_codec(), sidecar_for(release, config)
    names = {key: name for name, key in codec.apis().items()}
    apis = sidecar.call("schema_round_trip", None, {"messages": []})["apis"]
    defined = [(int(key), v) for key, api in apis.items() for v in range(api["oldest"], api["latest"] + 1)]
    problems = [f"{apis[str(key)]['name']} v{v}: the catalog's codec lacks it" for key, v in defined
                if v not in (codec.versions(key) if key in names else ())]
    cases = [(key, v, kind, value, codec.encode_message(f"{names[key]}{kind}", v, value))
             for key, v in defined if key in names and v in codec.versions(key) for kind in ("Request", "Response")
             for full in (True, False)
             for value in [sample(codec.message(f"{names[key]}{kind}", v).struct, v, full=full, seed=v + 1)]]
    messages = [{"api_key": key, "version": v, "kind": kind.lower(), "data": base64.b64encode(data).decode()}
                for key, v, kind, _, data in cases]
    results = sidecar.call("schema_round_trip", None, {"messages": messages})["results"]
    failed = set()
    for (key, v, kind, value, data), result in zip(cases, results, strict=True):
        if problem := _disagreement(codec, f"{names[key]}{kind}", v, value, data, result):
            problems.append(f"{names[key]}{kind} v{v}: {problem}")
            failed.add((names[key], v))
    return {(names[key], v) for key, v in defined if key in names} - failed, problems


def _check_schemas(release: str, config: HarnessConfig) -> None:
    pairs, problems = schema_round_trip(release, config)
    print(f"kafka-clients {release}: {len(pairs)} (API, version) pairs round-trip through its own Schema")
    assert not problems, f"{len(problems)} problems, first: " + "\n".join(problems[:10])
    assert pairs


def test_every_api_version_of_the_oldest_release_round_trips_through_its_schemas(kc_config) -> None:
    _check_schemas(BEFORE_DEFINITIONS[0], kc_config)


@pytest.mark.nightly  # five more sidecars to compile; CI runs the oldest release
@pytest.mark.parametrize("release", BEFORE_DEFINITIONS[1:])
def test_every_release_before_definitions_round_trips_through_its_schemas(kc_config, release: str) -> None:
    _check_schemas(release, kc_config)
