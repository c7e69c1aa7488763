"""The codec's pure logic on definitions written here (tests/integration/test_codec_java.py checks it against Java).

Varints, compact and classic lengths, tagged fields, field-level flexible versions, ignorable fields and
defaults, the header versions, the one-line errors, and a bounded fuzz loop whose only allowed failure is a
one-line ``CodecError``.
"""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest

from kcompat.harness.codec import UNKNOWN_TAGGED, Codec, CodecError, merge
from kcompat.harness.codec.releases import read_jar
from kcompat.harness.codec.samples import sample
from kcompat.harness.codec.schema import Message, Versions, parse_message, strip_comments
from kcompat.harness.codec.wire import Reader, unsigned_varint

HEADERS = {
    "RequestHeader": """{
      "type": "header", "name": "RequestHeader",
      // comments go; "//" inside a string stays: http://kafka.apache.org
      "validVersions": "0-2", "flexibleVersions": "2+",
      "fields": [
        { "name": "RequestApiKey", "type": "int16", "versions": "0+" },
        { "name": "RequestApiVersion", "type": "int16", "versions": "0+" },
        { "name": "CorrelationId", "type": "int32", "versions": "0+" },
        { "name": "ClientId", "type": "string", "versions": "1+", "nullableVersions": "1+",
          "flexibleVersions": "none", "about": "see http://x//y" }
      ]}""",
    "ResponseHeader": """{"type": "header", "name": "ResponseHeader", "validVersions": "0-1",
      "flexibleVersions": "1+", "fields": [{ "name": "CorrelationId", "type": "int32", "versions": "0+" }]}""",
}

FIELDS: list[dict[str, Any]] = [
    {"name": "Int8", "type": "int8", "versions": "0+"},
    {"name": "Int16", "type": "int16", "versions": "0+", "default": "-1"},
    {"name": "Int32", "type": "int32", "versions": "0+", "default": "0x7fffffff"},
    {"name": "Int64", "type": "int64", "versions": "0+"},
    {"name": "Uint16", "type": "uint16", "versions": "1+"},
    {"name": "Uint32", "type": "uint32", "versions": "1+"},
    {"name": "Float64", "type": "float64", "versions": "0+"},
    {"name": "Bool", "type": "bool", "versions": "0+", "default": True},
    {"name": "Name", "type": "string", "versions": "0+"},
    {"name": "NullableName", "type": "string", "versions": "1+", "nullableVersions": "1+", "default": "null"},
    {"name": "Data", "type": "bytes", "versions": "0+", "nullableVersions": "0+"},
    {"name": "Records", "type": "records", "versions": "0+", "nullableVersions": "0+"},
    {"name": "Id", "type": "uuid", "versions": "1+"},
    {"name": "Ints", "type": "[]int32", "versions": "0+"},
    {"name": "Strings", "type": "[]string", "versions": "0+", "nullableVersions": "2+"},
    {"name": "Items", "type": "[]Item", "versions": "0+", "fields": [
        {"name": "Key", "type": "string", "versions": "0+", "mapKey": True},
        {"name": "Value", "type": "int32", "versions": "0+"}]},
    {"name": "Shared", "type": "Common", "versions": "0+", "nullableVersions": "3+", "default": "null"},
    {"name": "Gone", "type": "int32", "versions": "0-1", "ignorable": True},
    {"name": "Kept", "type": "int32", "versions": "0"},
    {"name": "Note", "type": "string", "versions": "2+", "nullableVersions": "2+", "default": "null",
     "taggedVersions": "2+", "tag": 0},
    {"name": "Limit", "type": "int32", "versions": "2+", "default": "5", "taggedVersions": "2+", "tag": 1},
    {"name": "Extra", "type": "Common", "versions": "2+", "taggedVersions": "2+", "tag": 2},
]
COMMON = [{"name": "Common", "versions": "0+", "fields": [{"name": "X", "type": "int64", "versions": "0+"}]}]


def _definition(kind: str, latest_unstable: bool = False) -> str:
    data = {"apiKey": 1000, "type": kind.lower(), "name": f"Sample{kind}", "validVersions": "0-3",
            "flexibleVersions": "2+", "fields": FIELDS, "commonStructs": COMMON}
    if latest_unstable:
        data["latestVersionUnstable"] = True
    return json.dumps(data)


def _definitions(release: str = "9.9.9", *, latest_unstable: bool = False) -> dict[str, Message]:
    texts = {**HEADERS, "SampleRequest": _definition("Request", latest_unstable),
             "SampleResponse": _definition("Response")}
    return {name: parse_message(text, release, name) for name, text in texts.items()}


CODEC = Codec.of("9.9.9", _definitions())


def _body(version: int, **values: Any) -> dict[str, Any]:
    return {**sample(CODEC.message("SampleRequest", version).struct, version, full=False), **values}


@pytest.mark.parametrize(("value", "encoded"), [(0, "00"), (1, "01"), (127, "7f"), (128, "8001"), (300, "ac02"),
                                                 (2**32 - 1, "ffffffff0f")])
def test_unsigned_varints_are_protobufs_base_128(value: int, encoded: str) -> None:
    assert unsigned_varint(value).hex() == encoded
    assert Reader(bytes.fromhex(encoded), "t").unsigned_varint("v") == value


@pytest.mark.parametrize("encoded", ["ffffffff1f", "8080808080", "80"])
def test_a_varint_too_long_or_truncated_is_one_line(encoded: str) -> None:
    with pytest.raises(CodecError, match=r"^t: .*varint v.* at byte \d+$"):
        Reader(bytes.fromhex(encoded), "t").unsigned_varint("v")


def test_comments_go_and_slashes_inside_strings_stay() -> None:
    text = strip_comments('{"a": "http://x", // gone\n "b": "\\"//\\""} // gone too')
    assert json.loads(text) == {"a": "http://x", "b": '"//"'}


def test_version_ranges() -> None:
    assert 5 in Versions.parse("3+") and 2 not in Versions.parse("3+")
    assert list(Versions.parse("1-3").upto(9)) == [1, 2, 3] and list(Versions.parse("none").upto(9)) == []
    assert list(Versions.parse("4").upto(9)) == [4]


def test_strings_bytes_and_arrays_are_compact_from_the_first_flexible_version() -> None:
    for version, name, nothing in ((1, "0002" + b"hi".hex(), "ffffffff"), (2, "03" + b"hi".hex(), "00")):
        body = _body(version, Name="hi", Data=None)
        encoded = CODEC.encode_message("SampleRequest", version, body).hex()
        assert name + nothing in encoded  # the string, then the null bytes field
        assert CODEC.decode_message("SampleRequest", version, bytes.fromhex(encoded)) == body


def test_a_fields_own_flexible_versions_keep_a_classic_string_in_a_flexible_header() -> None:
    frame = CODEC.encode_request("Sample", 2, {"CorrelationId": 7, "ClientId": "me"}, _body(2))
    assert frame[4:16].hex() == "03e80002" + "00000007" + "0002" + b"me".hex()  # no compact ClientId
    assert frame[16] == 0  # the header's own (empty) tagged fields: header v2
    header, body = CODEC.decode_request(frame)
    assert header == {"RequestApiKey": 1000, "RequestApiVersion": 2, "CorrelationId": 7, "ClientId": "me"}
    assert body == _body(2)


def test_header_versions_follow_the_request_and_response_versions() -> None:
    assert [CODEC.request_header_version("Sample", v) for v in range(4)] == [1, 1, 2, 2]
    assert [CODEC.response_header_version(1000, v) for v in range(4)] == [0, 0, 1, 1]
    frame = CODEC.encode_response("Sample", 3, {"CorrelationId": 9}, _body(3))
    assert frame[4:9].hex() == "0000000900"
    assert CODEC.decode_response("Sample", 3, frame) == ({"CorrelationId": 9}, _body(3))


def test_tagged_fields_are_written_only_when_not_their_default_and_in_tag_order() -> None:
    plain = CODEC.encode_message("SampleRequest", 2, _body(2))
    assert plain.endswith(b"\x00")  # no tagged field
    tagged = CODEC.encode_message("SampleRequest", 2, _body(2, Limit=6, Note="n"))
    assert tagged.endswith(bytes.fromhex("02" + "00" + "02" + "02" + b"n".hex() + "01" + "04" + "00000006"))
    assert CODEC.decode_message("SampleRequest", 2, tagged) == _body(2, Limit=6, Note="n")


def test_unknown_tagged_fields_are_kept_and_written_back() -> None:
    plain = CODEC.encode_message("SampleRequest", 2, _body(2))
    unknown = plain[:-1] + bytes.fromhex("01" + "07" + "02" + "abcd")
    decoded = CODEC.decode_message("SampleRequest", 2, unknown)
    assert decoded[UNKNOWN_TAGGED] == {7: b"\xab\xcd"}
    assert CODEC.encode_message("SampleRequest", 2, decoded) == unknown


@pytest.mark.parametrize(("tail", "problem"), [
    ("02" + "07" + "01" + "00" + "07" + "01" + "00", "tag 7 appears twice"),
    ("01" + "01" + "05" + "0000000600", "bad tagged field 1 .*1 of its 5 bytes unread"),
    ("01" + "01" + "09" + "00", "oversized length: .*tagged field 1 announces 9 bytes"),
    ("02" + "07" + "01" + "00" + "05" + "01" + "00", "tag 5 comes after tag 7"),
    ("01" + "07" + "ffffffff0f", "oversized length: .*tagged field 7 announces 4294967295 bytes"),
])
def test_a_bad_tagged_field_is_one_line(tail: str, problem: str) -> None:
    frame = CODEC.encode_message("SampleRequest", 2, _body(2))[:-1] + bytes.fromhex(tail)
    with pytest.raises(CodecError, match=rf"^SampleRequest v2: .*{problem}.* at byte \d+$"):
        CODEC.decode_message("SampleRequest", 2, frame)


def test_ignorable_fields_a_version_lacks_are_dropped_others_refused() -> None:
    assert CODEC.encode_message("SampleRequest", 2, _body(2, Gone=3)) == CODEC.encode_message("SampleRequest", 2,
                                                                                              _body(2))
    with pytest.raises(CodecError, match="Kept is not in this version and has a non-default value"):
        CODEC.encode_message("SampleRequest", 2, _body(2, Kept=3))
    with pytest.raises(CodecError, match="has no field Kep"):
        CODEC.encode_message("SampleRequest", 2, _body(2, Kep=3))


def test_defaults_fill_what_a_body_leaves_out() -> None:
    decoded = CODEC.decode_message("SampleRequest", 3, CODEC.encode_message("SampleRequest", 3, {}))
    assert (decoded["Int16"], decoded["Int32"], decoded["Bool"], decoded["Limit"]) == (-1, 0x7FFFFFFF, True, 5)
    assert (decoded["Shared"], decoded["NullableName"], decoded["Id"]) == (None, None, uuid.UUID(int=0))
    assert decoded["Extra"] == {"X": 0} and decoded["Records"] is None


@pytest.mark.parametrize(("value", "problem"), [
    ({"Int8": 300}, "Int8 = 300 does not fit int8"), ({"Name": None}, "Name is None but not nullable"),
    ({"Items": [{"Key": 1}]}, r"Items\[0\].Key must be a str"), ({"Bool": 1}, "Bool must be a bool"),
    ({UNKNOWN_TAGGED: {"x": b""}}, "_unknown_tagged must map tags"),
    ({"Float64": 10**400}, r"Float64 = \d+ does not fit float64"), ({"Name": "\ud800"}, "Name can't be UTF-8"),
])
def test_a_bad_value_is_one_line(value: dict[str, Any], problem: str) -> None:
    with pytest.raises(CodecError, match=rf"^SampleRequest v1: {problem}.* at byte \d+$"):
        CODEC.encode_message("SampleRequest", 1, _body(1, **value))


def test_a_key_of_another_type_is_one_line() -> None:
    with pytest.raises(CodecError, match=r"^SampleRequest v1: SampleRequest has no field Zz at byte 0$"):
        CODEC.encode_message("SampleRequest", 1, {**_body(1), 1: 2, "Zz": 3})


def _message(**changes: Any) -> str:
    data = {"apiKey": 1000, "type": "request", "name": "BadRequest", "validVersions": "0", "fields": [],
            "commonStructs": COMMON}
    return json.dumps({**data, **changes})


@pytest.mark.parametrize(("text", "problem"), [
    ("[1]", "AttributeError"), ("[" * 100_000, "RecursionError"), ("{", "JSONDecodeError"),
    (_message(validVersions="0-x"), "bad version range '0-x'"),
    (_message(fields=[{"name": "A", "type": "int32", "versions": "0+", "default": "ten"}]),
     "invalid literal for int"),
    (_message(fields=[{"name": "A", "type": "float64", "versions": "0+", "default": "x"}]), "could not convert"),
    (_message(fields=[{"name": "A", "type": "Loop", "versions": "0+"}], commonStructs=[
        {"name": "Loop", "versions": "0+", "fields": [{"name": "B", "type": "[]Loop", "versions": "0+"}]}]),
     "struct Loop contains itself"),
    (_message(fields=[{"name": "A", "type": "Nowhere", "versions": "0+"}]), "Nowhere, defined nowhere"),
], ids=["not-an-object", "deep", "truncated", "range", "int-default", "float-default", "loop", "nowhere"])
def test_a_definition_that_does_not_parse_is_one_line(text: str, problem: str) -> None:
    """Checked when the file is read, so a bad default never surfaces as a ValueError while decoding."""
    with pytest.raises(CodecError, match=r"^kafka-clients 9.9.9: can't read the definition Bad: ") as raised:
        parse_message(text, "9.9.9", "Bad")
    assert problem in str(raised.value) and "\n" not in str(raised.value)


def _frame(version: int = 1) -> bytes:
    return CODEC.encode_request("Sample", version, {"CorrelationId": 1, "ClientId": "c"}, sample(
        CODEC.message("SampleRequest", version).struct, version))


@pytest.mark.parametrize(("frame", "problem"), [
    (_frame()[:-3], r"^request frame: truncated frame: size \d+, \d+ bytes follow at byte 0$"),
    (_frame() + b"\x00", r"^request frame: size \d+ but \d+ bytes follow at byte 0$"),
    (bytes(4), r"^request frame: truncated: int16 RequestApiKey needs 2 bytes, 0 left at byte 4$"),
    (_frame()[:4] + bytes.fromhex("03e8" "0009") + _frame()[8:],
     r"^Sample request v9: no definition of kafka-clients 9.9.9 has this version \(it has 0-3\) at byte 0$"),
    (_frame()[:4] + bytes.fromhex("0001") + _frame()[6:], r"^request frame: .*has API key 1 at byte 4$"),
])
def test_a_bad_request_frame_is_one_line(frame: bytes, problem: str) -> None:
    with pytest.raises(CodecError, match=problem):
        CODEC.decode_request(frame)


def test_an_oversized_length_is_refused_before_anything_is_read() -> None:
    body = CODEC.encode_message("SampleRequest", 1, _body(1))
    at = 1 + 2 + 4 + 8 + 2 + 4 + 8 + 1  # Int8..Bool: Name's int16 length follows
    bad = body[:at] + bytes.fromhex("7fff") + body[at + 2:]
    with pytest.raises(CodecError, match=rf"^SampleRequest v1: oversized length: string Name announces 32767 bytes, "
                                         rf"\d+ left at byte {at + 2}$"):
        CODEC.decode_message("SampleRequest", 1, bad)
    array = CODEC.encode_message("SampleRequest", 0, _body(0, Ints=[1]))
    start = array.index(bytes.fromhex("00000001" "00000001"))
    huge = array[:start] + bytes.fromhex("7fffffff") + array[start + 4:]
    with pytest.raises(CodecError, match="oversized length: array Ints announces 2147483647 elements"):
        CODEC.decode_message("SampleRequest", 0, huge)


def test_the_unstable_latest_version_is_its_releases_alone() -> None:
    older, newer = _definitions("1.0"), _definitions("2.0", latest_unstable=True)
    assert Codec.of("2.0", newer).unstable("Sample") == frozenset({3})
    merged = merge([older, newer])
    assert merged[("SampleRequest", 3)].release == "1.0"  # 2.0's unstable v3 never replaces a stable one
    assert merged[("SampleRequest", 2)].release == "2.0"
    assert ("SampleRequest", 3) not in merge([newer])


def test_a_jar_without_definitions_says_so(tmp_path) -> None:
    import zipfile

    jar = tmp_path / "kafka-clients-2.1.1.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("org/apache/kafka/Nothing.class", b"")
    with pytest.raises(CodecError, match=r"^kafka-clients 2.1.1's jar .* carries no message definitions"):
        read_jar(jar, "2.1.1")


def _mutated(rng: random.Random, frame: bytes) -> bytes:
    data = bytearray(frame)
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        if choice < 0.5 and data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif choice < 0.7:
            del data[rng.randrange(len(data) + 1):]
        elif choice < 0.85:
            data[rng.randrange(len(data) + 1):0] = rng.randbytes(rng.randint(1, 8))
        else:
            data = bytearray(rng.randbytes(rng.randint(0, 64)))
    return bytes(data)


def test_fuzzed_frames_decode_or_fail_in_one_line() -> None:
    """Random and mutated frames, bounded: a value or a one-line CodecError, never another exception or a hang."""
    rng = random.Random(20240101)
    seeds = [_frame(v) for v in range(4)]
    outcomes = {"decoded": 0, "refused": 0}
    for _ in range(4000):
        frame = _mutated(rng, rng.choice(seeds))
        frame = len(frame[4:]).to_bytes(4, "big") + frame[4:] if rng.random() < 0.7 and len(frame) >= 4 else frame
        try:
            header, body = CODEC.decode_request(frame)
        except CodecError as exc:
            assert "\n" not in str(exc) and " at byte " in str(exc), str(exc)
            outcomes["refused"] += 1
            continue
        version = header["RequestApiVersion"]
        again = CODEC.encode_request("Sample", version, header, body)
        assert CODEC.decode_request(again) == (header, body)
        outcomes["decoded"] += 1
    assert outcomes["decoded"] and outcomes["refused"]  # both paths were taken
