"""Rewrite src/kcompat/harness/codec/api_names.json from the catalog's message definitions.

The harness names API keys before any jar is cached (a claim book loads offline), so the names the
definitions give are kept beside the codec; tests/unit/test_codec_catalog.py fails when they drift.
"""

from __future__ import annotations

import json

from kcompat.harness.codec.catalog import catalog_codec
from kcompat.harness.codec.names import NAMES_FILE


def main() -> None:
    apis = {str(key): name for name, key in sorted(catalog_codec().apis().items(), key=lambda item: item[1])}
    NAMES_FILE.write_text(json.dumps({"source": "the catalog's kafka-clients message definitions; regenerate with "
                                                ".venv/bin/python scripts/api_names.py", "apis": apis}, indent=1)
                          + "\n")
    print(f"{len(apis)} API names written to {NAMES_FILE}")


if __name__ == "__main__":
    main()
