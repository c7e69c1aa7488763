"""What a live member of a new group type (share, streams) does between joining and leaving: heartbeat in a
thread of its own at the interval its coordinator gave, so it outlives its session while a probe calls, then
leave with MemberEpoch -1, so the group is empty again.  Each group type says how it beats."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from ...clients import error_name
from ...clients.wire import WireClient
from ...errors import HarnessError


class Heartbeating:
    """Mixed into a member's dataclass, which declares these attributes as its fields."""

    group: str
    epoch: int
    interval: float
    client: WireClient
    heartbeat_errors: list[str]
    _stop: threading.Event
    _thread: threading.Thread | None

    def beat(self, body: Mapping[str, Any]) -> Any:
        """One heartbeat of this group type with ``body`` (the member's ids are the type's to add)."""
        raise NotImplementedError

    def periodic(self) -> dict[str, Any]:
        """A heartbeat's body while the member stays."""
        return {"member_epoch": self.epoch}

    def start(self) -> None:
        self._thread = threading.Thread(target=self._beat, daemon=True,
                                        name=f"kcompat-{type(self).__name__}-{self.group}")
        self._thread.start()

    def _beat(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                answer = self.beat(self.periodic())
            except Exception as exc:  # noqa: BLE001 - a broken connection ends the member, as a client's would
                self.heartbeat_errors.append(str(exc))
                return
            if answer.error_code != 0:
                self.heartbeat_errors.append(error_name(answer.error_code))
            else:
                self.epoch = answer.member_epoch

    def held(self) -> None:
        """After the probe's call: a member that stopped heartbeating meanwhile (fenced, its session expired on a
        loaded machine) left the group the call observed, so what was observed is not of a group with a live
        member: the harness's failure (``infra_error``, run again), never a verdict."""
        if self.heartbeat_errors:
            raise HarnessError(f"the set-up's member of {self.group} stopped heartbeating during the call: "
                               f"{self.heartbeat_errors[0]}")

    def leave(self) -> None:
        """Stop heartbeating (bounded) and leave the group (MemberEpoch -1)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.interval + self.client.timeout)
        try:
            self.beat({"member_epoch": -1})
        except Exception:  # noqa: BLE001 - a member that can't leave times out with its session
            pass
        finally:
            self.client.close()
