"""Class-data sharing (CDS) archives: a Kafka JVM maps the classes its release loads at boot from a file.

Most of a broker's boot is the JVM loading and verifying a few thousand classes from its jars.  The
JVM's own AppCDS (JDK 10+, on Java 11 and 17 alike) does that once: a first boot records the classes
it loads (``-XX:DumpLoadedClassList``), ``java -Xshare:dump`` turns the list into an archive, and every
later JVM of that release, Java and main class maps it (``-XX:SharedArchiveFile``).  Nothing of the
broker changes: same jars, same classes, same flags otherwise.

An archive lives in ``<cache>/cds/<main>-<key>/``, the key hashing everything it depends on: the Java
binary (path, size, mtime), the main class, and every jar of the classpath (path, size, mtime).  A
changed jar or Java is a new key, so a stale archive is never used (the JVM checks the jars too, and
``-Xshare:auto`` falls back to loading classes rather than failing).  A failed dump leaves a marker and
the release boots without sharing from then on.  Only the leading jars of a classpath are archived: a
plug-in directory after them (KIP-108's policy) loads normally, and the JVM maps the same archive.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import subprocess
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .errors import HarnessError
from .locking import exclusive
from .reaper import kill_tree, spawn

FORMAT = 1
"""Bumped when how archives are recorded or dumped changes: every key changes with it."""
DUMP_TIMEOUT = 120.0
"""The longest a ``-Xshare:dump`` may run (about 3.5 s for a broker on this project's machines)."""


@dataclass
class ClassArchive:
    """The archive of one (Java, main class, jars); ``recording`` lists class lists this process started."""

    directory: Path
    java: Path
    classpath: str
    recording: list[Path] = field(default_factory=list)

    @property
    def archive(self) -> Path:
        return self.directory / "classes.jsa"

    @property
    def class_list(self) -> Path:
        return self.directory / "classes.lst"

    @property
    def failed(self) -> Path:
        return self.directory / "dump-failed.log"

    def flags(self, *, deadline: float) -> list[str]:
        """The JVM flags that use the archive, or record a class list for one; [] when neither can be had.

        Dumping the archive from a recorded list happens here, once per key, under a file lock and
        within ``deadline`` (a ``time.monotonic()`` instant: the caller's boot deadline).
        """
        if not self.archive.exists() and self.class_list.exists() and not self.failed.exists():
            self._dump(deadline)
        if self.archive.exists():
            return [f"-XX:SharedArchiveFile={self.archive}", "-Xshare:auto"]
        if self.failed.exists():
            return []
        self.directory.mkdir(parents=True, exist_ok=True)
        recording = self.directory / f"record-{uuid.uuid4().hex[:12]}.tmp"
        self.recording.append(recording)
        return [f"-XX:DumpLoadedClassList={recording}"]

    def keep_recorded(self) -> None:
        """Keep what the JVMs recorded so far as the class list (call once they have booted)."""
        for recording in self.recording:
            if self.class_list.exists():
                break
            with contextlib.suppress(OSError):
                data = recording.read_bytes()
                whole = data[: data.rfind(b"\n") + 1]  # the JVM may be mid-line: keep whole lines
                if whole:
                    partial = self.directory / f"list-{uuid.uuid4().hex[:12]}.tmp"
                    partial.write_bytes(whole)
                    os.replace(partial, self.class_list)

    def forget_recordings(self) -> None:
        """Remove this process's recordings (the JVMs that wrote them have stopped)."""
        for recording in self.recording:
            with contextlib.suppress(OSError):
                recording.unlink()
        self.recording.clear()

    def _dump(self, deadline: float) -> None:
        timeout = min(DUMP_TIMEOUT, deadline - time.monotonic())
        if timeout <= 1:
            return
        try:
            with exclusive(self.directory / "dump", timeout=timeout, waiting_for="dumping a class archive"):
                self._dump_locked(deadline)
        except HarnessError:
            return  # another process is still dumping: this boot loads its classes the usual way

    def _dump_locked(self, deadline: float) -> None:
        if self.archive.exists() or self.failed.exists():
            return
        token = uuid.uuid4().hex[:12]
        partial, log = self.directory / f"dump-{token}.tmp", self.directory / f"dump-{token}.log"
        command = [str(self.java), "-Xshare:dump", f"-XX:SharedClassListFile={self.class_list}",
                   f"-XX:SharedArchiveFile={partial}", "-cp", self.classpath]
        try:
            code = _run(command, log, timeout=min(DUMP_TIMEOUT, deadline - time.monotonic()))
            if code == 0 and partial.exists():
                os.replace(partial, self.archive)
            elif code is not None:  # a timeout may be the load of the moment: the next boot tries again
                self.failed.write_bytes(b"exit code %d\n" % code + log.read_bytes()[-8000:])
        except OSError:
            pass  # the cache changed under us (a reaped or removed directory): no archive this time
        finally:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
                log.unlink(missing_ok=True)


def _run(command: list[str], log: Path, *, timeout: float) -> int | None:
    """The exit code of ``command`` (output to ``log``), or None when it overran ``timeout`` and was killed.

    Started through ``reaper.spawn``, so it dies with us like every JVM the harness starts.
    """
    with log.open("wb") as out:
        proc = spawn(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            return proc.wait(timeout=max(1.0, timeout))
        except subprocess.TimeoutExpired:
            kill_tree(proc.pid)
            proc.wait(timeout=10)
            return None


def archive_for(cache_dir: Path, java: Path, main: str, classpath: str) -> ClassArchive | None:
    """The archive of ``main`` on ``classpath`` under ``java``; None when the classpath can't be shared.

    Only the leading jars are shared (directories, and what follows them, are left to normal loading,
    as the JVM requires), and an unreadable jar or Java means no archive rather than an error.
    """
    jars: list[str] = []
    for entry in classpath.split(os.pathsep):
        if not entry.endswith(".jar") or not os.path.isfile(entry):
            break
        jars.append(entry)
    if not jars:
        return None
    key = files_key(f"{FORMAT}\0{main}\0", [str(java.resolve()), *jars])
    if key is None:
        return None
    directory = cache_dir / "cds" / f"{main.rsplit('.', 1)[-1]}-{key}"
    return ClassArchive(directory, java, os.pathsep.join(jars))


def files_key(prefix: str, paths: Sequence[str | Path]) -> str | None:
    """A key of ``prefix`` and each file's path, size and mtime (what an archive of them depends on);
    None when one can't be read."""
    digest = hashlib.sha256(prefix.encode())
    try:
        for path in paths:
            stat = os.stat(path)
            digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    except OSError:
        return None
    return digest.hexdigest()[:20]


__all__ = ["ClassArchive", "archive_for", "files_key"]
