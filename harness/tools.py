"""A release's own admin tools (kafka-topics, kafka-configs, kafka-acls) as commands to paste.

Someone reproducing a bug wants the tools of the broker's own release, not
whatever is on their PATH.  They run from the release's jars: the core jar's
``kafka.admin.<Name>Command`` where the release ships it there, else the
``kafka-tools`` jar's ``org.apache.kafka.tools.<Name>Command`` (TopicCommand
moved in 3.x, ConfigCommand and AclCommand in 4.0).  Which one a release has
is read from its jars, not from a version table.

The classpath (a hundred jars) goes into a Java argument file in the run
directory, so each printed command is one readable line: ``java
@<run dir>/admin-tools.args <main class> --bootstrap-server ...``.
"""

from __future__ import annotations

import shlex
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .artifacts import ArtifactStore, logging_backend
from .errors import ArtifactError
from .java import select_java
from .providers.base import Cluster

PACKAGES = ("kafka/admin/", "org/apache/kafka/tools/")
ARGS_FILE = "admin-tools.args"

TOOLS_LOG4J1 = """\
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.appender.stderr.Target=System.err
"""

TOOLS_LOG4J2 = """\
status = warn
appender.console.type = Console
appender.console.name = STDERR
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.stderr.ref = STDERR
"""


@dataclass(frozen=True)
class AdminTool:
    """One of Kafka's admin scripts: its class name and an example call."""

    script: str
    command: str
    capability: str
    """The capability saying the tool takes ``--bootstrap-server`` (before it, only ZooKeeper)."""
    example: tuple[str, ...]
    zookeeper_flag: tuple[str, ...]
    """How the tool names ZooKeeper before it could talk to brokers (``{zk}`` is its address)."""


ADMIN_TOOLS = (
    AdminTool("kafka-topics", "TopicCommand", "topic_command_bootstrap_server", ("--list",),
              ("--zookeeper", "{zk}")),
    AdminTool("kafka-configs", "ConfigCommand", "config_command_bootstrap_server",
              ("--describe", "--entity-type", "brokers", "--entity-name", "1"), ("--zookeeper", "{zk}")),
    AdminTool("kafka-acls", "AclCommand", "acl_command_bootstrap_server", ("--list",),
              ("--authorizer-properties", "zookeeper.connect={zk}")),
)


def main_classes(jars: Sequence[Path], tools: Sequence[AdminTool] = ADMIN_TOOLS) -> dict[str, str]:
    """{command: main class} for each tool one of ``jars`` (Kafka's own) ships, first package first."""
    wanted = {f"{package}{tool.command}.class": tool.command for package in PACKAGES for tool in tools}
    found: dict[str, str] = {}
    for jar in jars:
        if not jar.name.startswith("kafka"):
            continue
        try:
            with zipfile.ZipFile(jar) as archive:
                names = set(archive.namelist())
        except (OSError, zipfile.BadZipFile) as exc:
            raise ArtifactError(f"can't read {jar}: {exc}", hint="kcompat brokers fetch --verify") from exc
        for entry, command in wanted.items():
            if entry in names and command not in found:
                found[command] = entry.removesuffix(".class").replace("/", ".")
    return found


def _args_file(cluster: Cluster, jars: Sequence[Path]) -> Path:
    """The classpath and logging flag as a Java ``@file`` (quoted, so paths may hold spaces)."""
    backend = logging_backend(cluster.spec.release).name
    if backend == "log4j2":
        logging = cluster.run_dir / "tools-log4j2.properties"
        logging.write_text(TOOLS_LOG4J2)
        flag = f"-Dlog4j2.configurationFile={logging}"
    else:
        logging = cluster.run_dir / "tools-log4j.properties"
        logging.write_text(TOOLS_LOG4J1)
        flag = f"-Dlog4j.configuration=file:{logging}"

    def quoted(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    path = cluster.run_dir / ARGS_FILE
    path.write_text(f"-cp\n{quoted(':'.join(str(j) for j in jars))}\n{quoted(flag)}\n")
    return path


def admin_tool_commands(store: ArtifactStore, cluster: Cluster, *, client_config: Path | None = None
                        ) -> list[tuple[str, str]]:
    """``[(script, command line)]`` for the release's kafka-topics, kafka-configs and kafka-acls.

    Uses the broker's classpath when its core jar has every tool, else
    resolves ``kafka-tools`` of the release beside it (once; then cached).
    """
    release = cluster.spec.release
    jars: Sequence[Path] = store.resolve(release).classpath
    found = main_classes(jars)
    if len(found) < len(ADMIN_TOOLS):
        jars = store.resolve_tools(release)
        found = main_classes(jars)
    java = cluster.java.java
    if not Path(java).is_file():  # a container's Java: run the tools on the host's
        java = select_java(release.line.java, store.config.cache_dir, offline=store.config.offline).java
    args_file = _args_file(cluster, jars)
    zookeeper = getattr(cluster, "zookeeper_connect", None)
    commands = []
    for tool in ADMIN_TOOLS:
        if tool.command not in found:
            continue
        command = [str(java), f"@{args_file}", found[tool.command]]
        if cluster.spec.version.supports(tool.capability):
            command += ["--bootstrap-server", cluster.bootstrap_servers]
            if client_config is not None:
                command += ["--command-config", str(client_config)]
        elif zookeeper is not None:
            command += [part.format(zk=zookeeper) for part in tool.zookeeper_flag]
        else:
            continue
        commands.append((tool.script, shlex.join([*command, *tool.example])))
    return commands
