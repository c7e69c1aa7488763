import json
from pathlib import Path

import pytest

from harness import ArtifactError, HarnessConfig, load_catalog
from harness.artifacts import ArtifactStore, render_pom, sha256_of


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


def _write_manifest(store: ArtifactStore, tmp_path: Path, content: bytes) -> Path:
    release = load_catalog().release("3.9")
    jar = tmp_path / "a.jar"
    jar.write_bytes(content)
    manifest = store.manifest_path(release)
    manifest.parent.mkdir(parents=True)
    manifest.write_text(json.dumps({"logging": "log4j1", "jars": [
        {"path": str(jar), "size": len(content), "sha256": sha256_of(jar)}]}))
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
