from harness import load_catalog
from harness.central import catalog_drift, parse_metadata


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
