from kcompat.harness import load_catalog
from kcompat.harness.central import catalog_drift, parse_metadata


def _metadata(*versions: str) -> str:
    inner = "".join(f"<version>{v}</version>" for v in versions)
    return f"<metadata><versioning><versions>{inner}</versions></versioning></metadata>"


def test_parse_keeps_plain_releases_in_order() -> None:
    versions = parse_metadata(_metadata("3.9.0", "0.8.2-beta", "2.10.0", "2.9.1"))
    assert [str(v) for v in versions] == ["2.9.1", "2.10.0", "3.9.0"]


def test_drift_reports_newer_patches_and_new_lines() -> None:
    catalog = load_catalog()
    everything = [str(line.newest) for line in catalog]

    def fetch(scala: str) -> str:
        extra = ["3.9.3", "4.5.0"] if scala == "2.13" else []
        return _metadata(*everything, *extra)

    drift = catalog_drift(catalog, fetch)
    assert "3.9: newest is 3.9.3, the catalog says 3.9.2" in drift
    assert "4.5: a new line on Maven Central (4.5.0), not in the catalog" in drift
    assert catalog_drift(catalog, lambda scala: _metadata(*everything)) == []


def _config(tmp_path, *, offline: bool = False):
    from kcompat.harness import HarnessConfig

    return HarnessConfig(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs", offline=offline)


PUBLISHED = _metadata("0.11.0.3", "2.3.1", "3.6.2", "3.7.0", "3.7.1", "3.7.2", "3.8.0", "4.0.0-rc1")


def test_a_published_client_release_passes_and_the_list_is_cached(tmp_path) -> None:
    from kcompat.harness.central import check_client_release

    asked: list[str] = []

    def fetch(url: str) -> str:
        asked.append(url)
        return PUBLISHED

    assert check_client_release("3.7.0", _config(tmp_path), fetch) == "3.7.0"
    assert asked == ["https://repo.maven.apache.org/maven2/org/apache/kafka/kafka-clients/maven-metadata.xml"]
    assert check_client_release("0.11.0.3", _config(tmp_path), fetch) == "0.11.0.3"
    assert len(asked) == 1  # from the cached list
    assert check_client_release("3.7.2", _config(tmp_path, offline=True), lambda url: 1 / 0) == "3.7.2"


def test_an_unpublished_client_release_names_the_nearest(tmp_path) -> None:
    import pytest

    from kcompat.harness import ConfigError
    from kcompat.harness.central import check_client_release

    with pytest.raises(ConfigError) as caught:
        check_client_release("3.7.9", _config(tmp_path), lambda url: PUBLISHED)
    message = str(caught.value)
    assert message == "Maven Central publishes no kafka-clients 3.7.9; nearest releases: 3.7.1, 3.7.2, 3.8.0"
    assert not (tmp_path / "cache" / "clients").exists()  # no cache entry for it


def test_an_unknown_release_refetches_the_list_once_then_offline_uses_the_cache(tmp_path) -> None:
    import pytest

    from kcompat.harness import ConfigError
    from kcompat.harness.central import check_client_release

    lists = iter([PUBLISHED, _metadata("3.7.0", "3.9.0")])
    check_client_release("3.7.0", _config(tmp_path), lambda url: next(lists))
    assert check_client_release("3.9.0", _config(tmp_path), lambda url: next(lists)) == "3.9.0"  # newer than the cache
    with pytest.raises(ConfigError, match="nearest releases: 3.7.0, 3.9.0"):
        check_client_release("3.8.5", _config(tmp_path, offline=True), lambda url: 1 / 0)


def test_offline_without_a_list_leaves_the_verdict_to_the_artifact_cache(tmp_path) -> None:
    from kcompat.harness.central import check_client_release

    assert check_client_release("3.7.0", _config(tmp_path, offline=True), lambda url: 1 / 0) == "3.7.0"
    assert not (tmp_path / "cache").exists()


def test_a_client_release_name_is_checked_before_any_lookup(tmp_path) -> None:
    import pytest

    from kcompat.harness import ConfigError
    from kcompat.harness.central import check_client_release

    for bad in ("banana", "x/../../../../tmp/evil", "1:2"):
        with pytest.raises(ConfigError, match="not a plain release"):
            check_client_release(bad, _config(tmp_path), lambda url: 1 / 0)
    assert not (tmp_path / "cache").exists()
