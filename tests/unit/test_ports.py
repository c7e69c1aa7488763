import multiprocessing
import socket
from pathlib import Path

import pytest

from harness import PortError
from harness.ports import PortAllocator, port_is_free


def test_allocated_ports_are_distinct_free_and_locked(tmp_path: Path) -> None:
    allocator = PortAllocator(tmp_path)
    ports = allocator.allocate(6)
    assert len(set(ports)) == 6
    assert all(port_is_free(p) for p in ports)
    assert sorted(int(p.name) for p in tmp_path.iterdir()) == sorted(ports)
    allocator.release(ports)
    assert list(tmp_path.iterdir()) == []


def test_a_port_locked_by_a_live_owner_is_not_handed_out_again(tmp_path: Path) -> None:
    first = PortAllocator(tmp_path)
    (port,) = first.allocate(1)
    second = PortAllocator(tmp_path)  # same live process owns both: the lock still wins
    with pytest.raises(PortError, match="reserved by another kcompat run"):
        second.reserve(port)


def test_a_stale_lock_is_reclaimed(tmp_path: Path) -> None:
    (tmp_path / "20001").write_text("999999-1")  # a pid that can't be alive with that start time
    assert PortAllocator(tmp_path).reserve(20001) == 20001


def test_a_taken_port_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(PortError, match=f"port {port} on 127.0.0.1 is already taken"):
            PortAllocator(tmp_path).reserve(port)


def _allocate_many(lock_dir: str, queue: "multiprocessing.Queue[list[int]]") -> None:
    queue.put(PortAllocator(Path(lock_dir)).allocate(40))


def test_concurrent_processes_never_share_a_port(tmp_path: Path) -> None:
    """What xdist workers do: several processes allocating from one lock directory."""
    context = multiprocessing.get_context("spawn")
    queue: multiprocessing.Queue[list[int]] = context.Queue()
    workers = [context.Process(target=_allocate_many, args=(str(tmp_path), queue)) for _ in range(4)]
    for worker in workers:
        worker.start()
    results = [queue.get(timeout=60) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    flat = [port for ports in results for port in ports]
    assert len(flat) == 160
    assert len(set(flat)) == 160
