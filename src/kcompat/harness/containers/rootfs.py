"""A Java root filesystem made from a local JDK: the offline image base.

With no registry there is no ``FROM eclipse-temurin``; instead the JDK the
process provider would use is copied to ``/opt/java/openjdk`` (Temurin's
path, so one Dockerfile serves both build paths) together with the shared
libraries its binaries load, found with ``ldd``.  The result is streamed as a
tar to ``docker import``.  Symlinks are dereferenced (Debian's JDK links into
``/etc``); dangling ones are skipped.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import subprocess
import tarfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import ImageError
from ..java import JavaRuntime

JAVA_HOME = "/opt/java/openjdk"
SKIPPED = frozenset({"src.zip", "jmods", "demo", "sample", "man", "include"})
"""Parts of a JDK no broker needs (``legal`` stays: the licences travel with the binaries)."""
NSS_LIBRARIES = ("libnss_files.so.2", "libnss_dns.so.2", "libresolv.so.2")
"""Loaded with dlopen for host name lookups, so ldd never lists them."""
LIBRARY_DIRS = (Path("/lib/x86_64-linux-gnu"), Path("/usr/lib/x86_64-linux-gnu"), Path("/lib64"), Path("/lib"))
ETC_FILES = {
    "etc/passwd": "root:x:0:0:root:/root:/bin/false\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n",
    "etc/group": "root:x:0:\nnogroup:x:65534:\n",
    "etc/nsswitch.conf": "passwd: files\ngroup: files\nhosts: files dns\n",
}
_LDD_PATH = re.compile(r"(?:=>\s*)?(/\S+)\s+\(0x")


def jdk_files(home: Path) -> Iterator[Path]:
    """Every regular file of the JDK (after following links), minus the unneeded parts."""
    for root, dirs, files in os.walk(home, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED)
        for name in sorted(files):
            path = Path(root) / name
            if name not in SKIPPED and path.is_file():  # is_file follows links; dangling ones drop out
                yield path


def _is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(4) == b"\x7fELF"
    except OSError:
        return False


def parse_ldd(output: str) -> set[str]:
    """The absolute library paths of ``ldd`` output, the loader included."""
    return {match.group(1) for line in output.splitlines() if (match := _LDD_PATH.search(line))}


def shared_libraries(binaries: Iterable[Path], home: Path) -> set[Path]:
    """Libraries outside the JDK that its ELF files load, plus the resolver's plug-ins."""
    libraries: set[Path] = set()
    elves = [path for path in binaries if _is_elf(path)]
    for start in range(0, len(elves), 50):
        done = subprocess.run(["ldd", *map(str, elves[start:start + 50])], capture_output=True, text=True,
                              timeout=60, check=False)
        libraries |= {Path(p) for p in parse_ldd(done.stdout)}
    for name in NSS_LIBRARIES:
        libraries |= {d / name for d in LIBRARY_DIRS if (d / name).is_file()}
    outside = {p for p in libraries if not p.is_relative_to(home)}
    if not any(p.name.startswith("ld-linux") for p in outside):
        raise ImageError(f"ldd found no dynamic loader for the JDK at {home}",
                         hint="is ldd (libc-bin) installed?")
    return outside


def fingerprint(runtime: JavaRuntime) -> str:
    """A cheap identity of a JDK install: file names, sizes and mtimes (no 300 MB hash)."""
    digest = hashlib.sha256(runtime.version.encode())
    home = runtime.home
    for path in jdk_files(home):
        stat = path.stat()
        digest.update(f"{path.relative_to(home)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _add_file(archive: tarfile.TarFile, source: Path, arcname: str) -> None:
    info = archive.gettarinfo(str(source.resolve()), arcname=arcname)
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    with source.open("rb") as handle:
        archive.addfile(info, handle)


def _add_dir(archive: tarfile.TarFile, arcname: str, mode: int = 0o755) -> None:
    info = tarfile.TarInfo(arcname)
    info.type = tarfile.DIRTYPE
    info.mode = mode
    archive.addfile(info)


def write_rootfs(runtime: JavaRuntime, target: Path) -> int:
    """Write the root filesystem tar for ``runtime`` to ``target``; return its size in bytes."""
    home = runtime.home
    files = list(jdk_files(home))
    if not any(p.name == "java" and p.parent.name == "bin" for p in files):
        raise ImageError(f"{home} has no bin/java; can't make a Java base image from it")
    libraries = shared_libraries(files, home)
    with tarfile.open(target, "w") as archive:
        for directory in ("tmp", "etc", "opt", "opt/java", "opt/kafka"):
            _add_dir(archive, directory, 0o1777 if directory == "tmp" else 0o755)
        for name, text in ETC_FILES.items():
            info = tarfile.TarInfo(name)
            data = text.encode()
            info.size = len(data)
            info.mode = 0o644
            archive.addfile(info, io.BytesIO(data))
        for path in files:
            _add_file(archive, path, f"{JAVA_HOME.lstrip('/')}/{path.relative_to(home)}")
        added: set[Path] = set()
        for library in sorted(libraries):
            # ldd names the link; the loader may ask for either name
            for path in dict.fromkeys((library, library.resolve())):
                if path not in added:
                    added.add(path)
                    _add_file(archive, path, str(path).lstrip("/"))
    return target.stat().st_size
