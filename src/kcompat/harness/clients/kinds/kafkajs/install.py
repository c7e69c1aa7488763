"""kafkajs from npm, one ``node_modules`` per release under the cache, running ``adapter/kcompat-kafkajs.js``.

npm installs ``kafkajs@<release>`` (exact) into a folder of its own under the cache, writing the package-lock
whose integrity (sha512 from the registry) it checks the tarball against; npm's own cache and logs go under
kcompat's cache too (``--cache``), never into ~.  The adapter runs on the installed Node, finding kafkajs
through ``NODE_PATH``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from ....config import HarnessConfig
from ....errors import ConfigError, HarnessError
from ... import installing

LIBRARY = "kafkajs"
ADAPTER = Path(__file__).resolve().parent / "adapter" / "kcompat-kafkajs.js"
NODE_OLDEST = 14
"""kafkajs 2.x's ``engines``: Node 14 or newer."""
NPM_TIMEOUT = 600.0


def _tools() -> tuple[str, str]:
    """node and npm, or one line naming what to install."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        raise ConfigError(f"the kafkajs adapter needs Node.js {NODE_OLDEST}+ and npm on PATH "
                          f"({'node' if node is None else 'npm'} is missing): install them, e.g. "
                          "apt-get install nodejs npm")
    version = installing.tool_output([node, "--version"], "node --version").strip()
    major = re.match(r"v(\d+)\.", version)
    if major is None or int(major.group(1)) < NODE_OLDEST:
        raise ConfigError(f"the kafkajs adapter needs Node.js {NODE_OLDEST}+; {node} is {version}: install a newer one")
    return node, npm


def _npm_env(config: HarnessConfig) -> dict[str, str]:
    return {**os.environ, "npm_config_cache": str(config.cache_dir / "npm"), "npm_config_update_notifier": "false",
            "npm_config_fund": "false", "npm_config_audit": "false"}


def published(config: HarnessConfig) -> tuple[str, ...]:
    """The kafkajs releases npm publishes, oldest first (cached; ``npm view kafkajs versions`` when none is)."""
    return installing.published(config, LIBRARY, lambda: _npm_versions(config))


def _npm_versions(config: HarnessConfig) -> list[str]:
    _, npm = _tools()
    listing = installing.tool_output([npm, "view", LIBRARY, "versions", "--json"], f"npm view {LIBRARY} versions",
                                     env=_npm_env(config))
    try:
        names = json.loads(listing)
    except ValueError as exc:
        raise HarnessError(f"npm view {LIBRARY} versions wrote no JSON list: {listing[:120]!r}") from exc
    return [names] if isinstance(names, str) else [str(n) for n in names]


def install(release: str, config: HarnessConfig) -> tuple[list[str], dict[str, str]]:
    """argv and extra environment that start the adapter on kafkajs ``release`` (installed once)."""
    node, npm = _tools()
    installing.check_published(release, config, LIBRARY, lambda: _npm_versions(config))

    def make(folder: Path, log: Path) -> None:
        (folder / "package.json").write_text(json.dumps({"name": "kcompat-kafkajs-adapter", "private": True,
                                                         "description": f"kafkajs {release} for kcompat"}))
        installing.run_tool([npm, "install", "--save-exact", "--ignore-scripts", "--no-audit", "--no-fund",
                             f"{LIBRARY}@{release}"], cwd=folder, log=log, timeout=NPM_TIMEOUT,
                            what=f"npm install {LIBRARY}@{release}", env=_npm_env(config))
        installed = json.loads((folder / "node_modules" / LIBRARY / "package.json").read_text())["version"]
        if installed != release:
            raise HarnessError(f"npm installed kafkajs {installed} when asked for {release}", log=log)

    folder = installing.install_once(config, LIBRARY, release, NPM_TIMEOUT, make)
    return [node, str(ADAPTER)], {"NODE_PATH": str(folder / "node_modules")}
