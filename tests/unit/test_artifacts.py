import json
from pathlib import Path

import pytest

from kcompat.harness import ArtifactError, ConfigError, HarnessConfig, load_catalog
from kcompat.harness.artifacts import ArtifactStore, check_release_name, render_pom, sha256_of


def test_pom_adds_the_logging_backend_and_catalog_changes() -> None:
    old = render_pom(load_catalog().release("0.11"))
    assert "<artifactId>kafka_2.12</artifactId><version>0.11.0.3</version>" in old
    assert "slf4j-reload4j" in old and "jaxb-api" in old
    assert "<artifactId>slf4j-log4j12</artifactId></exclusion>" in old
    new = render_pom(load_catalog().release("4.4"))
    assert "log4j-slf4j-impl" in new and "slf4j-reload4j" not in new
    assert "<exclusions>" not in new  # kafka-tools-api 4.4.0 reached Maven Central; nothing is left out


def _store(tmp_path: Path, offline: bool = False) -> ArtifactStore:
    return ArtifactStore(HarnessConfig(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs", offline=offline))


def test_offline_without_cache_names_the_version_and_the_fix(tmp_path: Path) -> None:
    store = _store(tmp_path, offline=True)
    release = load_catalog().release("3.8")
    with pytest.raises(ArtifactError) as caught:
        store.resolve(release)
    message = str(caught.value)
    assert "Kafka 3.8.1 is not in the cache" in message and "offline" in message
    assert "kcompat brokers fetch 3.8.1" in message
    assert not store.is_cached(release)


def _write_manifest(store: ArtifactStore, tmp_path: Path, content: bytes, *, absolute: bool = False) -> Path:
    release = load_catalog().release("3.9")
    jar = store.maven_repo / "a.jar"
    jar.parent.mkdir(parents=True)
    jar.write_bytes(content)
    manifest = store.manifest_path(release)
    manifest.parent.mkdir(parents=True)
    recorded = str(jar) if absolute else "m2/a.jar"
    manifest.write_text(json.dumps({"logging": "log4j1", "jars": [
        {"path": recorded, "size": len(content), "sha256": sha256_of(jar)}]}))
    return jar


def test_a_warm_cache_needs_no_maven(tmp_path: Path) -> None:
    store = _store(tmp_path, offline=True)
    jar = _write_manifest(store, tmp_path, b"jar bytes")
    artifacts = store.resolve(load_catalog().release("3.9"), verify_hashes=True)
    assert artifacts.classpath == (jar,)
    assert artifacts.logging == "log4j1"


def test_a_truncated_or_altered_jar_is_detected(tmp_path: Path) -> None:
    store = _store(tmp_path, offline=True)
    jar = _write_manifest(store, tmp_path, b"jar bytes")
    jar.write_bytes(b"jar bytez")  # same size, other content
    release = load_catalog().release("3.9")
    assert store.resolve(release).classpath == (jar,)  # size check only
    with pytest.raises(ArtifactError, match="SHA-256"):
        store.resolve(release, verify_hashes=True)
    jar.write_bytes(b"short")
    with pytest.raises(ArtifactError, match="missing or truncated"):
        store.resolve(release)


@pytest.mark.parametrize("version", ["banana", "x/../../../../tmp/evil", "1:2", "3.7", "3.7.0-rc1", "../3.7.0", ""])
def test_a_client_release_that_is_not_plain_is_refused_before_any_path(tmp_path: Path, version: str) -> None:
    store = _store(tmp_path)
    with pytest.raises(ConfigError, match="not a plain release like 3.7.0"):
        store.resolve_client(version)
    assert not (tmp_path / "cache").exists()  # nothing written, not even inside the cache
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_plain_releases_pass() -> None:
    assert check_release_name("0.11.0.3") == "0.11.0.3" and check_release_name("4.4.0") == "4.4.0"


def test_an_old_manifest_with_absolute_paths_inside_the_cache_is_still_read(tmp_path: Path) -> None:
    store = _store(tmp_path, offline=True)
    jar = _write_manifest(store, tmp_path, b"jar bytes", absolute=True)
    assert store.resolve(load_catalog().release("3.9"), verify_hashes=True).classpath == (jar,)


def test_a_manifest_naming_jars_of_another_directory_is_stale(tmp_path: Path) -> None:
    store = _store(tmp_path, offline=True)
    _write_manifest(store, tmp_path, b"jar bytes", absolute=True)
    moved = tmp_path / "moved"
    (tmp_path / "cache").rename(moved)
    elsewhere = ArtifactStore(HarnessConfig(cache_dir=moved, run_root=tmp_path / "runs", offline=True))
    (tmp_path / "cache").mkdir()  # the old place still exists: its jars must not be used
    (tmp_path / "cache" / "m2").mkdir()
    (tmp_path / "cache" / "m2" / "a.jar").write_bytes(b"jar bytes")
    with pytest.raises(ArtifactError, match="outside the cache"):
        elsewhere.resolve(load_catalog().release("3.9"))


FAKE_MAVEN = """#!/bin/sh
# Stands in for Maven: "downloads" one jar into the local repository and writes the classpath file.
for arg in "$@"; do
  case "$arg" in
    -Dmaven.repo.local=*) repo="${arg#-Dmaven.repo.local=}" ;;
    -Dmdep.outputFile=*) out="${arg#-Dmdep.outputFile=}" ;;
  esac
done
mkdir -p "$repo/org/apache/kafka"
printf 'jar bytes' > "$repo/org/apache/kafka/kafka-clients.jar"
printf '%s' "$repo/org/apache/kafka/kafka-clients.jar" > "$out"
"""


def test_a_moved_cache_resolves_offline_inside_its_new_place(tmp_path: Path) -> None:
    maven = tmp_path / "fake-mvn"
    maven.write_text(FAKE_MAVEN)
    maven.chmod(0o755)
    online = ArtifactStore(HarnessConfig(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs", maven=str(maven)))
    (jar,) = online.resolve_client("3.7.0")
    assert jar == tmp_path / "cache" / "m2" / "org" / "apache" / "kafka" / "kafka-clients.jar"
    manifest = json.loads((online.client_dir("3.7.0") / "manifest.json").read_text())
    assert manifest["jars"][0]["path"] == "m2/org/apache/kafka/kafka-clients.jar"  # relative to the cache
    (tmp_path / "cache").rename(tmp_path / "moved")
    maven.unlink()  # no Maven from here on
    offline = ArtifactStore(HarnessConfig(cache_dir=tmp_path / "moved", run_root=tmp_path / "runs", offline=True))
    (moved,) = offline.resolve_client("3.7.0")
    assert moved == tmp_path / "moved" / "m2" / "org" / "apache" / "kafka" / "kafka-clients.jar"
    assert moved.read_bytes() == b"jar bytes"


def test_maven_is_followed_download_by_download_until_it_exits(tmp_path: Path) -> None:
    """The bounded follow of Maven's log: every download reported as it is logged, then Maven's exit code."""
    script = tmp_path / "maven.sh"
    script.write_text("echo 'Downloaded from central: https://x/a.jar (1.5 kB at 3 MB/s)'\nsleep 0.3\n"
                      "echo 'Downloaded from central: https://x/b.pom (2 MB at 3 MB/s)'\nexit 3\n")
    seen: list[tuple[int, int]] = []
    code = _store(tmp_path, offline=False)._run_bounded(["bash", str(script)], tmp_path, tmp_path / "maven.log",
                                                        "Kafka 9.9", lambda files, size: seen.append((files, size)))
    assert code == 3
    assert seen == [(1, 1500), (2, 2_001_500)]
