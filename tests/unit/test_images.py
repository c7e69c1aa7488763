"""Image naming, content hashing, overrides and reuse keys: pure logic, no engine."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kcompat.harness import ClusterSpec, ConfigError, HarnessConfig, SaslSpec
from kcompat.harness.errors import EngineError
from kcompat.harness.config import image_overrides
from kcompat.harness.containers import engine
from kcompat.harness.containers.images import DOCKERFILE, BrokerImage, content_hash, flat_names, registry_base
from kcompat.harness.java import JavaRuntime, parse_java_version
from kcompat.harness.containers.reuse import reuse_key
from kcompat.harness.containers.rootfs import parse_ldd

JARS = [("kafka_2.13-3.9.2.jar", "a" * 64), ("kafka-clients-3.9.2.jar", "b" * 64)]


def test_flat_names_keep_order_and_split_collisions() -> None:
    jars = [Path("/m2/org/a/x/1.0/x-1.0.jar"), Path("/m2/org/b/y/2.0/y-2.0.jar"), Path("/m2/com/c/x/1.0/x-1.0.jar")]
    assert flat_names(jars) == ["org-a-x-1.0.jar", "y-2.0.jar", "com-c-x-1.0.jar"]
    assert flat_names(jars[:2]) == ["x-1.0.jar", "y-2.0.jar"]


def test_the_content_hash_follows_every_input() -> None:
    base = content_hash("FROM x", "sha256:1", JARS)
    assert base == content_hash("FROM x", "sha256:1", list(JARS))
    assert base != content_hash("FROM y", "sha256:1", JARS)
    assert base != content_hash("FROM x", "sha256:2", JARS)
    assert base != content_hash("FROM x", "sha256:1", JARS[::-1])  # classpath order matters
    assert base != content_hash("FROM x", "sha256:1", [JARS[0], (JARS[1][0], "c" * 64)])


def test_one_dockerfile_serves_both_build_paths() -> None:
    text = DOCKERFILE.read_text()
    assert "ARG BASE" in text and "FROM ${BASE}" in text
    assert "COPY libs/ /opt/kafka/libs/" in text
    assert registry_base(17) == "eclipse-temurin:17-jre"


def test_image_overrides_parse_and_reject_bad_items() -> None:
    assert image_overrides("") == {}
    assert image_overrides("3.7.0=apache/kafka:3.7.0, 2.8=my/kafka:2.8") == {
        "3.7.0": "apache/kafka:3.7.0", "2.8": "my/kafka:2.8"}
    with pytest.raises(ConfigError, match="not VERSION=IMAGE"):
        image_overrides("apache/kafka:3.7.0")


def test_image_base_and_flags_are_validated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="image_base='cloud' is not one of offline, registry"):
        HarnessConfig.resolve(cache_dir=tmp_path, image_base="cloud")
    monkeypatch.setenv("KCOMPAT_REUSE", "1")
    monkeypatch.setenv("KCOMPAT_PROVIDER", "container")
    config = HarnessConfig.resolve(cache_dir=tmp_path)
    assert config.reuse and config.provider == "container" and not config.pull


def test_ldd_output_is_parsed_with_the_loader() -> None:
    output = """\
\tlinux-vdso.so.1 (0x00007ffc)
\tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x00007f1)
\tlibjli.so => /opt/jdk/lib/libjli.so (0x00007f2)
\t/lib64/ld-linux-x86-64.so.2 (0x00007f3)
\tlibmissing.so => not found
"""
    assert parse_ldd(output) == {"/lib/x86_64-linux-gnu/libz.so.1", "/opt/jdk/lib/libjli.so",
                                 "/lib64/ld-linux-x86-64.so.2"}


@pytest.mark.parametrize(("output", "expected"), [
    ('openjdk version "17.0.15" 2025-04-15', ("17.0.15", 17)),
    ('java version "1.8.0_402"', ("1.8.0_402", 8)),
    ('openjdk version "21-ea" 2023-09-19', ("21-ea", 21)),
])
def test_java_versions_parse(output: str, expected: tuple[str, int]) -> None:
    assert parse_java_version(output) == expected


def _image(tag: str) -> BrokerImage:
    release = ClusterSpec.of("3.9").release
    return BrokerImage(tag, release, JavaRuntime(Path("java"), 17, "17"), "/opt/kafka/libs/*", built=True)


def test_reuse_keys_match_equal_specs_on_equal_images_only() -> None:
    image = _image("kcompat/kafka:3.9.2-aaaa")
    spec = ClusterSpec.of("3.9", nodes=3, server_properties={"a": "1"})
    assert reuse_key(spec, image) == reuse_key(ClusterSpec.of("3.9.2", nodes=3, server_properties={"a": "1"}), image)
    assert reuse_key(spec, image) != reuse_key(spec, _image("kcompat/kafka:3.9.2-bbbb"))
    assert reuse_key(spec, image) != reuse_key(ClusterSpec.of("3.9", nodes=1, server_properties={"a": "1"}), image)


def test_reuse_keys_count_users_passwords_not_the_generated_super_password() -> None:
    image = _image("kcompat/kafka:3.9.2-aaaa")
    one = ClusterSpec.of("3.9", sasl=SaslSpec(users=(("alice", "pw1"),)))
    again = ClusterSpec.of("3.9", sasl=SaslSpec(users=(("alice", "pw1"),)))  # another generated super password
    other = ClusterSpec.of("3.9", sasl=SaslSpec(users=(("alice", "pw2"),)))
    assert reuse_key(one, image) == reuse_key(again, image)
    assert reuse_key(one, image) != reuse_key(other, image)
    assert "pw1" not in reuse_key(one, image) and len(reuse_key(one, image)) == 16


def test_a_rebuilt_plug_in_is_a_new_reuse_key(tmp_path: Path) -> None:
    image = _image("kcompat/kafka:3.9.2-aaaa")
    plugin = tmp_path / "classes" / "Policy.class"
    plugin.parent.mkdir()
    plugin.write_bytes(b"v1")
    before = reuse_key(ClusterSpec.of("3.9", extra_classpath=[plugin.parent]), image)
    plugin.write_bytes(b"v2 longer")
    assert reuse_key(ClusterSpec.of("3.9", extra_classpath=[plugin.parent]), image) != before


@pytest.mark.parametrize("address", ["unix:///var/run/docker.sock", "tcp://127.0.0.1:2375", "tcp://localhost:2376"])
def test_a_local_engine_is_accepted(monkeypatch: pytest.MonkeyPatch, address: str) -> None:
    monkeypatch.setenv("DOCKER_HOST", address)
    engine.require_local()


def test_a_remote_engine_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", "tcp://docker.example:2376")
    with pytest.raises(EngineError, match="not this machine's engine.*host networking") as caught:
        engine.require_local()
    assert "\n" not in str(caught.value)


def test_leftovers_of_dead_builders_are_swept(tmp_path: Path) -> None:
    import os

    from kcompat.harness.containers.images import _sweep_stale

    dead, alive = 2**22 + 12345, os.getpid()  # above the default pid_max: never a live process
    (tmp_path / f"rootfs-17-{dead}.tar").write_text("x")
    (tmp_path / f"rootfs-17-{alive}.tar").write_text("x")
    (tmp_path / "contexts" / f"kafka-3.9.2-{dead}" / "libs").mkdir(parents=True)
    _sweep_stale(tmp_path)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["contexts", f"rootfs-17-{alive}.tar"]


def test_a_plan_of_a_named_image_is_that_image(tmp_path: Path) -> None:
    from kcompat.harness.containers.images import ImageBuilder

    config = HarnessConfig.resolve(cache_dir=tmp_path, run_root=tmp_path, images="3.9=example.invalid/kafka:3.9")
    plan = ImageBuilder(config).plan(ClusterSpec.of("3.9").release)
    assert (plan.tag, plan.base, plan.dockerfile) == ("example.invalid/kafka:3.9", None, None)
    assert plan.as_json()["built"] is False
    unknown = dataclasses.replace(plan, tag=None, base="kcompat/jre:17-x", dockerfile=DOCKERFILE)
    assert unknown.label == "kcompat/kafka:3.9.2-?" and unknown.as_json()["dockerfile"] == str(DOCKERFILE)
