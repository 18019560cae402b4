"""Exchange of pseudo-labels between the member processes of one arm, through a shared directory.

Standard library only. Every member of an arm trains in its own process (its own `accelerate`
world, as in Co-RL); they share nothing but a directory. At every RL step each member writes
what it sends (its labels and ballots) to one file per other member, then waits for theirs:

    <dir>/step-000012.from-A.to-B.json      written by A, read (then deleted) by B

A file is written to a temporary name and renamed, so a reader never sees half a file. It holds
the step and a key of the step's prompt batch; a reader whose own key differs stops with an error
(the processes would be labeling different prompts). Only the main process of a member's world
calls this; it hands the result to its other ranks through a RankRelay (below), so that they wait
on files too and never in a collective.

A member that is gone is reported, not waited for until the timeout:
  - each process keeps <dir>/alive/<member>.json fresh from a background thread (pid, host, run id);
  - it writes <dir>/status/<member>.failed (with the error) when it stops on an error, and
    <dir>/status/<member>.done when it finishes;
  - a waiting member stops with PeerGone when a peer failed, finished, has a stale heartbeat, or
    (same host) its pid no longer exists; and with TimeoutError after `timeout` seconds in any case.
Heartbeats of another run id (an earlier launch in the same directory) are ignored.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from pathlib import Path
from typing import Dict, Optional, Sequence


class PeerGone(RuntimeError):
    """A peer process stopped, finished or vanished while this one waited for its labels."""


def write_json_atomic(path: Path, data) -> None:
    """Write JSON to a temporary file in the same directory, then rename it over `path`."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Rendezvous:
    def __init__(
        self,
        directory: str | os.PathLike,
        me: str,
        peers: Sequence[str],
        run_id: str,
        timeout: float = 3600.0,
        start_timeout: float = 1800.0,
        stale_after: float = 300.0,
        heartbeat_every: float = 10.0,
        poll: float = 0.1,
    ) -> None:
        if me in peers:
            raise ValueError(f"member {me!r} is listed among its own peers {list(peers)!r}")
        if len(set(peers)) != len(peers):
            raise ValueError(f"a peer is listed twice: {list(peers)!r}")
        self.dir = Path(directory)
        self.me = me
        self.peers = list(peers)
        self.run_id = run_id
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.stale_after = stale_after
        self.heartbeat_every = heartbeat_every
        self.poll = poll
        self.host = socket.gethostname()
        self._started = time.time()
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self) -> "Rendezvous":
        (self.dir / "alive").mkdir(parents=True, exist_ok=True)
        (self.dir / "status").mkdir(parents=True, exist_ok=True)
        for name in (f"{self.me}.done", f"{self.me}.failed"):
            (self.dir / "status" / name).unlink(missing_ok=True)
        for stale in self.dir.glob(f"step-*.from-{self.me}.to-*.json"):
            stale.unlink(missing_ok=True)
        self._started = time.time()
        self._beat()
        self._thread = threading.Thread(target=self._heartbeat_loop, name=f"heartbeat-{self.me}", daemon=True)
        self._thread.start()
        return self

    def finish(self) -> None:
        """Mark this member done (its peers stop waiting for it with a clear message)."""
        self._stop_heartbeat()
        write_json_atomic(self.dir / "status" / f"{self.me}.done", {"run_id": self.run_id, "time": time.time()})

    def fail(self, message: str) -> None:
        """Mark this member failed, with the one-line reason its peers will report."""
        self._stop_heartbeat()
        write_json_atomic(
            self.dir / "status" / f"{self.me}.failed",
            {"run_id": self.run_id, "time": time.time(), "error": message[:2000]},
        )

    def _stop_heartbeat(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _beat(self) -> None:
        write_json_atomic(
            self.dir / "alive" / f"{self.me}.json",
            {"member": self.me, "pid": os.getpid(), "host": self.host, "run_id": self.run_id, "started": self._started, "beat": time.time()},
        )

    def _heartbeat_loop(self) -> None:
        while not self._stop.wait(self.heartbeat_every):
            try:
                self._beat()
            except OSError:
                pass  # a full or briefly unavailable disk: the next beat tries again

    # -- exchange --------------------------------------------------------------------------------

    def _file(self, step: int, src: str, dst: str) -> Path:
        return self.dir / f"step-{step:06d}.from-{src}.to-{dst}.json"

    def _read_json(self, path: Path):
        try:
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def _check_peer(self, peer: str, step: int, waited: float) -> None:
        """Raise PeerGone if `peer` cannot deliver step `step` any more."""
        failed = self._read_json(self.dir / "status" / f"{peer}.failed")
        if failed is not None and failed.get("run_id") == self.run_id:
            raise PeerGone(f"peer {peer} stopped with an error before step {step}: {failed.get('error', '?')}")
        done = self._read_json(self.dir / "status" / f"{peer}.done")
        if done is not None and done.get("run_id") == self.run_id:
            raise PeerGone(
                f"peer {peer} finished its run without sending step {step}: the member processes of an arm "
                "must train the same number of steps on the same data"
            )
        beat = self._read_json(self.dir / "alive" / f"{peer}.json")
        if beat is None or beat.get("run_id") != self.run_id:
            if waited > self.start_timeout:
                raise PeerGone(
                    f"peer {peer} has not started (no heartbeat of run {self.run_id} in {self.dir / 'alive'} after "
                    f"{waited:.0f} s): launch every member of the arm with the same --run_id and --run_dir"
                )
            return
        age = time.time() - float(beat.get("beat", 0))
        if beat.get("host") == self.host and not _pid_alive(int(beat.get("pid", -1))):
            raise PeerGone(f"peer {peer} is gone: its process {beat.get('pid')} on {self.host} no longer exists")
        if age > self.stale_after:
            raise PeerGone(
                f"peer {peer} is gone: no heartbeat for {age:.0f} s (process {beat.get('pid')} on {beat.get('host')})"
            )

    def exchange(self, step: int, batch_key: str, payload) -> Dict[str, object]:
        """Send `payload` to every peer for this step and return theirs, by peer name."""
        message = {"step": step, "batch_key": batch_key, "from": self.me, "run_id": self.run_id, "payload": payload}
        for peer in self.peers:
            write_json_atomic(self._file(step, self.me, peer), message)
        start = time.time()
        pending = {peer: self._file(step, peer, self.me) for peer in self.peers}
        received: Dict[str, object] = {}
        last_check = 0.0
        while pending:
            for peer, path in list(pending.items()):
                if not path.exists():
                    continue
                got = self._read_json(path)
                if got is None:
                    continue  # renamed into place but unreadable for a moment: read again next poll
                if got.get("run_id") != self.run_id:
                    path.unlink(missing_ok=True)  # left over from an earlier launch
                    continue
                if got.get("step") != step or got.get("batch_key") != batch_key:
                    raise RuntimeError(
                        f"peer {peer} labeled a different prompt batch at step {step} (its key {got.get('batch_key')}, "
                        f"ours {batch_key}): the processes are out of step; they need the same data, seed, "
                        "prompts per step, group size and number of processes"
                    )
                received[peer] = got["payload"]
                path.unlink(missing_ok=True)
                del pending[peer]
            if not pending:
                break
            waited = time.time() - start
            if waited - last_check >= 1.0 or last_check == 0.0:
                last_check = waited if waited > 0 else 1e-9
                for peer in pending:
                    self._check_peer(peer, step, waited)
            if waited > self.timeout:
                raise TimeoutError(
                    f"[rendezvous {self.me}] waited {self.timeout:.0f} s for step {step} from "
                    f"{', '.join(sorted(pending))}; they are alive but did not send it"
                )
            time.sleep(self.poll)
        return received


class RankRelay:
    """Hands the main process's result of a step to the other processes of the same member.

    Only rank 0 of a member exchanges labels (or runs the frozen teacher); the old way was to have
    the other ranks wait in broadcast_object_list meanwhile, a collective that the process group
    kills after its timeout (1,800 s by default) while rank 0 may wait an hour for a peer
    (Co-RL's trainer met the same timeout). Here rank 0 writes the result (or its error) to
    <dir>/<key>.json and the other ranks poll for that file, so no rank sits in a collective while
    a peer is slow. Every file carries the run id; one of another launch is ignored.

    Rank 0 deletes the file of the previous key when it publishes the next: by then every rank has
    read it, since the trainer meets in a collective (gather_object) between two publications.
    """

    def __init__(self, directory: str | os.PathLike, run_id: str, timeout: float, poll: float = 0.05) -> None:
        self.dir = Path(directory)
        self.run_id = run_id
        self.timeout = timeout
        self.poll = poll
        self._last: Optional[Path] = None

    def clear(self) -> "RankRelay":
        """Rank 0, before training: remove files left by an earlier launch."""
        self.dir.mkdir(parents=True, exist_ok=True)
        for old in self.dir.glob("*.json"):
            old.unlink(missing_ok=True)
        return self

    def publish(self, key: str, ok=None, error: Optional[str] = None) -> None:
        """Rank 0: the result of `key` for the other ranks (or the one-line error they stop with)."""
        self.dir.mkdir(parents=True, exist_ok=True)
        path = self.dir / f"{key}.json"
        body = {"run_id": self.run_id, "key": key, "error": error} if error is not None else {"run_id": self.run_id, "key": key, "ok": ok}
        write_json_atomic(path, body)
        if self._last is not None and self._last != path and error is None:
            self._last.unlink(missing_ok=True)
        self._last = path

    def close(self) -> None:
        """Rank 0 after a finished run: remove the last file (every rank has read it)."""
        if self._last is not None:
            self._last.unlink(missing_ok=True)
            self._last = None

    def wait(self, key: str):
        """Ranks > 0: rank 0's result of `key`; RuntimeError with rank 0's error; TimeoutError."""
        path = self.dir / f"{key}.json"
        start = time.time()
        while True:
            if path.exists():
                try:
                    with open(path, encoding="utf-8") as f:
                        got = json.load(f)
                except (OSError, ValueError):
                    got = None  # replaced or removed between the check and the read: poll again
                if got is not None and got.get("run_id") == self.run_id and got.get("key") == key:
                    if got.get("error") is not None:
                        raise RuntimeError(got["error"])
                    return got.get("ok")
            if time.time() - start > self.timeout:
                raise TimeoutError(f"[relay] waited {self.timeout:.0f} s for the main process's result of {key} in {self.dir}")
            time.sleep(self.poll)
