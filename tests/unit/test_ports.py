import multiprocessing
import os
import socket
from pathlib import Path

import pytest

from kcompat.harness import PortError
from kcompat.harness.ports import PortAllocator, port_is_free


def test_allocated_ports_are_distinct_free_and_locked(tmp_path: Path) -> None:
    allocator = PortAllocator(tmp_path)
    ports = allocator.allocate(6)
    assert len(set(ports)) == 6
    assert all(port_is_free(p) for p in ports)
    assert {int(p.name) for p in tmp_path.iterdir()} >= set(ports)
    allocator.release(ports)
    again = PortAllocator(tmp_path)
    assert again.reserve(ports[0]) == ports[0]  # released means lockable again


def test_a_port_locked_by_a_live_owner_is_not_handed_out_again(tmp_path: Path) -> None:
    first = PortAllocator(tmp_path)
    (port,) = first.allocate(1)
    second = PortAllocator(tmp_path)  # separate descriptors conflict even within one process
    with pytest.raises(PortError, match="reserved by another kcompat run"):
        second.reserve(port)


def _hold_and_die(lock_dir: str, port: int) -> None:
    PortAllocator(Path(lock_dir)).reserve(port)
    os._exit(0)  # no release: the kernel must drop the lock


def test_a_dead_owners_lock_is_free_again(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    probe = PortAllocator(tmp_path)
    port = probe.allocate(1)[0]
    probe.release([port])
    child = context.Process(target=_hold_and_die, args=(str(tmp_path), port))
    child.start()
    child.join(timeout=60)
    assert child.exitcode == 0  # it did hold the lock
    # The lock alone: the port itself may meanwhile be bound by another worker's broker.
    assert PortAllocator(tmp_path)._lock(port)


def test_a_taken_port_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(PortError, match=f"port {port} on 127.0.0.1 is already taken"):
            PortAllocator(tmp_path).reserve(port)


def _allocate_many(lock_dir: str, queue: "multiprocessing.Queue[list[int]]", done: "multiprocessing.Event") -> None:
    allocator = PortAllocator(Path(lock_dir))
    queue.put(allocator.allocate(40))
    done.wait(60)  # hold the reservations until every worker has its own


def test_concurrent_processes_never_share_a_port(tmp_path: Path) -> None:
    """What xdist workers do: several processes allocating from one lock directory."""
    context = multiprocessing.get_context("spawn")
    queue: multiprocessing.Queue[list[int]] = context.Queue()
    done = context.Event()
    workers = [context.Process(target=_allocate_many, args=(str(tmp_path), queue, done)) for _ in range(4)]
    for worker in workers:
        worker.start()
    results = [queue.get(timeout=60) for _ in workers]
    done.set()
    for worker in workers:
        worker.join(timeout=60)
    flat = [port for ports in results for port in ports]
    assert len(flat) == 160
    assert len(set(flat)) == 160
