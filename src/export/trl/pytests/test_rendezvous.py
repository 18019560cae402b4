"""Tests of the exported rendezvous.py (standard library only); run by src/export/trl/python.test.ts
with COHORT_EXPORT_DIR set to a freshly exported project."""

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

EXPORT = Path(os.environ["COHORT_EXPORT_DIR"])
sys.path.insert(0, str(EXPORT))

from rendezvous import PeerGone, RankRelay, Rendezvous, write_json_atomic  # noqa: E402


def run_all(fns):
    """Run callables in threads; return their results (or raised exceptions) in order."""
    out = [None] * len(fns)

    def go(i, fn):
        try:
            out[i] = fn()
        except BaseException as e:  # noqa: BLE001
            out[i] = e

    threads = [threading.Thread(target=go, args=(i, fn)) for i, fn in enumerate(fns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


class RendezvousTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name) / "rdv"
        self.opened = []

    def tearDown(self):
        for r in self.opened:
            r._stop_heartbeat()
        self.tmp.cleanup()

    def rdv(self, me, peers, run_id="run1", **kw):
        kw.setdefault("timeout", 20)
        kw.setdefault("poll", 0.01)
        r = Rendezvous(self.dir, me, peers, run_id, **kw).start()
        self.opened.append(r)
        return r

    def test_members_swap_payloads_step_by_step_and_leave_no_files(self):
        names = ["A", "B", "C"]
        rs = {m: self.rdv(m, [p for p in names if p != m]) for m in names}
        for step in (1, 2, 3):
            got = run_all([lambda m=m: rs[m].exchange(step, "key", {"from": m, "step": step}) for m in names])
            for m, received in zip(names, got):
                self.assertIsInstance(received, dict, received)
                self.assertEqual(received, {p: {"from": p, "step": step} for p in names if p != m})
        self.assertEqual(sorted(self.dir.glob("step-*")), [])
        self.assertEqual(sorted(p.name for p in self.dir.rglob("*.tmp")), [])

    def test_a_peer_that_failed_is_reported_with_its_error(self):
        a = self.rdv("A", ["B"])
        b = self.rdv("B", ["A"])
        b.fail("RuntimeError: CUDA out of memory")
        t0 = time.time()
        with self.assertRaises(PeerGone) as ctx:
            a.exchange(1, "key", [1])
        self.assertIn("peer B stopped with an error", str(ctx.exception))
        self.assertIn("CUDA out of memory", str(ctx.exception))
        self.assertLess(time.time() - t0, 5)

    def test_a_peer_that_finished_early_is_reported(self):
        a = self.rdv("A", ["B"])
        b = self.rdv("B", ["A"])
        b.finish()
        with self.assertRaises(PeerGone) as ctx:
            a.exchange(7, "key", [1])
        self.assertIn("finished its run without sending step 7", str(ctx.exception))

    def test_a_peer_process_that_died_is_reported_at_once(self):
        code = (
            "import os, sys; sys.path.insert(0, sys.argv[1]); from rendezvous import Rendezvous\n"
            "Rendezvous(sys.argv[2], 'B', ['A'], 'run1', heartbeat_every=0.05).start()\n"
            "os._exit(0)  # gone without a word, like a killed process\n"
        )
        subprocess.run([sys.executable, "-c", code, str(EXPORT), str(self.dir)], check=True, timeout=30)
        a = self.rdv("A", ["B"], stale_after=1000)
        t0 = time.time()
        with self.assertRaises(PeerGone) as ctx:
            a.exchange(1, "key", [1])
        self.assertIn("peer B is gone", str(ctx.exception))
        self.assertIn("no longer exists", str(ctx.exception))
        self.assertLess(time.time() - t0, 5)

    def test_a_peer_on_another_host_whose_heartbeat_stopped_is_reported(self):
        (self.dir / "alive").mkdir(parents=True)
        write_json_atomic(self.dir / "alive" / "B.json", {"member": "B", "pid": 1, "host": "elsewhere", "run_id": "run1", "started": 0, "beat": time.time() - 100})
        a = self.rdv("A", ["B"], stale_after=30)
        with self.assertRaises(PeerGone) as ctx:
            a.exchange(1, "key", [1])
        self.assertIn("no heartbeat for 1", str(ctx.exception))

    def test_a_peer_that_never_starts_is_reported_after_the_start_timeout(self):
        a = self.rdv("A", ["B"], start_timeout=1.0)
        t0 = time.time()
        with self.assertRaises(PeerGone) as ctx:
            a.exchange(1, "key", [1])
        self.assertIn("peer B has not started", str(ctx.exception))
        self.assertLess(time.time() - t0, 6)

    def test_a_live_but_silent_peer_times_out(self):
        a = self.rdv("A", ["B"], timeout=1.0)
        self.rdv("B", ["A"])  # alive, beating, never sends
        with self.assertRaises(TimeoutError) as ctx:
            a.exchange(1, "key", [1])
        self.assertIn("did not send it", str(ctx.exception))

    def test_peers_on_different_prompt_batches_stop_with_an_error(self):
        a = self.rdv("A", ["B"])
        b = self.rdv("B", ["A"])
        got = run_all([lambda: a.exchange(1, "key-a", [1]), lambda: b.exchange(1, "key-b", [2])])
        for e in got:
            self.assertIsInstance(e, RuntimeError)
            self.assertIn("different prompt batch at step 1", str(e))

    def test_files_and_heartbeats_of_an_earlier_launch_are_ignored(self):
        self.dir.mkdir(parents=True)
        (self.dir / "alive").mkdir()
        write_json_atomic(self.dir / "alive" / "B.json", {"member": "B", "pid": 999999999, "host": "elsewhere", "run_id": "old", "started": 0, "beat": 0})
        a = self.rdv("A", ["B"], run_id="new")
        stale = self.dir / "step-000001.from-B.to-A.json"
        write_json_atomic(stale, {"step": 1, "batch_key": "key", "from": "B", "run_id": "old", "payload": ["stale"]})
        result = {}
        t = threading.Thread(target=lambda: result.setdefault("a", a.exchange(1, "key", ["a"])))
        t.start()
        deadline = time.time() + 10
        while stale.exists() and time.time() < deadline:
            time.sleep(0.01)
        self.assertFalse(stale.exists())  # read, seen to be another launch's, dropped
        self.assertTrue(t.is_alive())  # and still waiting: B of this launch has not started
        b = self.rdv("B", ["A"], run_id="new")
        self.assertEqual(b.exchange(1, "key", ["fresh"]), {"A": ["a"]})
        t.join(10)
        self.assertEqual(result["a"], {"B": ["fresh"]})

    def test_two_processes_exchange_through_the_directory(self):
        code = (
            "import json, sys; sys.path.insert(0, sys.argv[1]); from rendezvous import Rendezvous\n"
            "me, peer = sys.argv[3], sys.argv[4]\n"
            "r = Rendezvous(sys.argv[2], me, [peer], 'run1', timeout=30, poll=0.01).start()\n"
            "got = [r.exchange(s, f'k{s}', [me, s])[peer] for s in range(1, 6)]\n"
            "r.finish(); print(json.dumps(got))\n"
        )
        procs = [subprocess.Popen([sys.executable, "-c", code, str(EXPORT), str(self.dir), me, peer], stdout=subprocess.PIPE, text=True) for me, peer in (("A", "B"), ("B", "A"))]
        outs = [json.loads(p.communicate(timeout=60)[0]) for p in procs]
        self.assertEqual(outs[0], [["B", s] for s in range(1, 6)])
        self.assertEqual(outs[1], [["A", s] for s in range(1, 6)])


class RankRelayTest(unittest.TestCase):
    """Rank 0 of a member hands each step's result to its other ranks through files."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = Path(self.tmp.name) / "relay"

    def relay(self, run_id="run1", timeout=10):
        return RankRelay(self.dir, run_id, timeout=timeout, poll=0.01)

    def test_other_ranks_get_rank_0s_result_and_only_the_newest_file_stays(self):
        main, other = self.relay().clear(), self.relay()
        got = run_all([lambda: other.wait("exchange-000001"), lambda: (time.sleep(0.3), main.publish("exchange-000001", ok={"B": [1]}))])
        self.assertEqual(got[0], {"B": [1]})
        main.publish("exchange-000002", ok=[2])
        self.assertEqual(other.wait("exchange-000002"), [2])
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["exchange-000002.json"])
        main.close()
        self.assertEqual(list(self.dir.iterdir()), [])

    def test_rank_0s_error_stops_the_others_with_its_message(self):
        main, other = self.relay().clear(), self.relay()
        main.publish("teacher-000004", error="PeerGone: peer B is gone")
        with self.assertRaises(RuntimeError) as ctx:
            other.wait("teacher-000004")
        self.assertEqual(str(ctx.exception), "PeerGone: peer B is gone")

    def test_a_file_of_an_earlier_launch_is_not_taken_and_the_wait_times_out(self):
        self.relay(run_id="old").publish("exchange-000001", ok=["stale"])
        t0 = time.time()
        with self.assertRaises(TimeoutError):
            self.relay(run_id="new", timeout=0.5).wait("exchange-000001")
        self.assertLess(time.time() - t0, 5)
        self.relay(run_id="new").clear()
        self.assertEqual(list(self.dir.iterdir()), [])


if __name__ == "__main__":
    unittest.main()
