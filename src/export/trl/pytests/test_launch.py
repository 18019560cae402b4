"""Tests of the exported launch.sh with a stand-in `accelerate` on PATH: each member in a
process group of its own, every group stopped when a member fails, on Ctrl-C and at exit, and the
shipped accelerate config passed with --config_file. Run by src/export/trl/python.test.ts with
COHORT_EXPORT_DIR set to a freshly exported project (the collapse preset: arm peer = A, B).

The stand-in is what makes the old failure visible: like accelerate's launcher it starts a worker
child and waits for it, so a `kill` of the launcher alone leaves the worker (the GPU holder) alive.
"""

import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

EXPORT = Path(os.environ["COHORT_EXPORT_DIR"])

FAKE_ACCELERATE = r"""#!/usr/bin/env bash
# Stand-in for `accelerate launch`: records its arguments, starts a worker, waits for it.
member=""; prev=""
for a in "$@"; do [ "$prev" = "--member" ] && member="$a"; prev="$a"; done
echo "$* | CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES" > "$FAKE_DIR/args-$member"
sleep 300 &
echo "$$ $!" > "$FAKE_DIR/pids-$member.tmp" && mv "$FAKE_DIR/pids-$member.tmp" "$FAKE_DIR/pids-$member"
case " $FAKE_FAIL " in *" $member "*) sleep 0.5; exit 3 ;; esac
case " $FAKE_DONE " in *" $member "*) kill $!; exit 0 ;; esac
wait
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its parent) is gone for our purposes.
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


@unittest.skipUnless(shutil.which("setsid") and shutil.which("bash"), "launch.sh needs bash and setsid (util-linux)")
class LaunchTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.fake = Path(self.tmp.name) / "fake"
        self.bin = Path(self.tmp.name) / "bin"
        self.fake.mkdir()
        self.bin.mkdir()
        (self.bin / "accelerate").write_text(FAKE_ACCELERATE)
        (self.bin / "accelerate").chmod(0o755)
        self.procs = []
        self.addCleanup(self.kill_leftovers)

    def kill_leftovers(self):
        for path in self.fake.glob("pids-*"):
            for pid in map(int, path.read_text().split()):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for p in self.procs:
            if p.poll() is None:
                p.kill()

    def launch(self, arm="peer", **env):
        full = {**os.environ, "PATH": f"{self.bin}:{os.environ['PATH']}", "FAKE_DIR": str(self.fake), "RUN_ID": "T",
                "RUN_DIR": str(Path(self.tmp.name) / "runs"), "STOP_GRACE": "5", **env}
        p = subprocess.Popen(["bash", str(EXPORT / "launch.sh"), arm], env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
        self.procs.append(p)
        return p

    def pids(self, member, timeout=20):
        path = self.fake / f"pids-{member}"
        deadline = time.time() + timeout
        while not path.exists():
            self.assertLess(time.time(), deadline, f"member {member} did not start")
            time.sleep(0.02)
        return [int(x) for x in path.read_text().split()]

    def assertAllGone(self, pids, within=10):
        deadline = time.time() + within
        while any(alive(p) for p in pids) and time.time() < deadline:
            time.sleep(0.05)
        self.assertEqual([p for p in pids if alive(p)], [], "processes of a member outlived launch.sh")

    def test_when_a_member_fails_the_others_are_stopped_with_their_workers(self):
        p = self.launch(FAKE_FAIL="A")
        b = self.pids("B")
        _, err = p.communicate(timeout=60)
        self.assertAllGone(b + self.pids("A"))
        self.assertEqual(p.returncode, 3)
        self.assertIn("stopped with exit code 3: stopping the others", err)

    def test_ctrl_c_stops_every_member(self):
        p = self.launch()
        a, b = self.pids("A"), self.pids("B")
        # What a terminal's Ctrl-C does: SIGINT to the foreground process group (launch.sh's).
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=60)
        self.assertAllGone(a + b)
        self.assertEqual(p.returncode, 130)
        self.assertIn("interrupted: stopping every member of peer", err)

    def test_each_member_leads_its_own_process_group(self):
        p = self.launch()
        a, b = self.pids("A"), self.pids("B")
        groups = {os.getpgid(a[0]), os.getpgid(b[0])}
        self.assertEqual(groups, {a[0], b[0]})  # the launcher leads it ...
        self.assertEqual(os.getpgid(a[1]), a[0])  # ... and its worker is in it
        self.assertNotIn(os.getpgid(p.pid), groups)
        os.kill(p.pid, signal.SIGTERM)
        p.communicate(timeout=60)
        self.assertEqual(p.returncode, 130)
        self.assertAllGone(a + b)

    def test_members_that_finish_end_the_launch_and_get_the_shipped_accelerate_config(self):
        p = self.launch(FAKE_DONE="A B", GPUS="4,5")
        _, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 0, err)
        args_a = (self.fake / "args-A").read_text()
        args_b = (self.fake / "args-B").read_text()
        self.assertTrue(args_a.startswith("launch --config_file accelerate/one_process.yaml --num_processes 1 "), args_a)
        self.assertIn("CUDA_VISIBLE_DEVICES=4", args_a)
        self.assertIn("CUDA_VISIBLE_DEVICES=5", args_b)
        config = (EXPORT / "accelerate" / "one_process.yaml").read_text()
        self.assertIn("gpu_ids: all", config)
        self.assertIn("distributed_type: 'NO'", config)

    def test_several_processes_per_member_use_the_multi_gpu_config(self):
        p = self.launch(FAKE_DONE="A B", NPROC="2", GPUS="0,1,2,3")
        _, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 0, err)
        args_b = (self.fake / "args-B").read_text()
        self.assertIn("--config_file accelerate/multi_gpu.yaml --num_processes 2", args_b)
        self.assertIn("CUDA_VISIBLE_DEVICES=2,3", args_b)
        self.assertIn("distributed_type: MULTI_GPU", (EXPORT / "accelerate" / "multi_gpu.yaml").read_text())


if __name__ == "__main__":
    unittest.main()
