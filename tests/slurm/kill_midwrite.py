#!/usr/bin/python3
"""Kills a running kirchhoff job hard in the middle of a checkpoint write (SLURM tests).

  kill_midwrite.py CHECKPOINT_DIR TIMEOUT_S PID...

Watches CHECKPOINT_DIR for the temporary file of a checkpoint being written
(.checkpoint_<step>.h5.tmp, renamed to checkpoint_<step>.h5 when complete). When one appears,
the ranks PID... are frozen with SIGSTOP; if the temporary file is still there (the write is
not finished: no rename yet) they are killed with SIGKILL, else they continue (SIGCONT) and the
next checkpoint is tried. Prints `killed <tmp name> <bytes> newest <complete checkpoint step>`
and exits 0; exits 1 when no write was caught within TIMEOUT_S seconds.
"""
import os
import re
import signal
import sys
import time


def complete_steps(d):
    return sorted(int(m.group(1)) for n in os.listdir(d)
                  if (m := re.fullmatch(r"checkpoint_(\d+)\.h5", n)))


def main():
    d, timeout, pids = sys.argv[1], float(sys.argv[2]), [int(p) for p in sys.argv[3:]]
    end = time.monotonic() + timeout
    tries = 0
    while time.monotonic() < end:
        try:
            tmp = [n for n in os.listdir(d) if n.startswith(".") and n.endswith(".tmp")]
        except FileNotFoundError:
            tmp = []
        if not tmp:
            time.sleep(0.0005)  # the write (with its fsync) lasts milliseconds
            continue
        for p in pids:
            os.kill(p, signal.SIGSTOP)
        tries += 1
        name = tmp[0]
        path = os.path.join(d, name)
        if os.path.exists(path):
            size = os.path.getsize(path)
            newest = complete_steps(d)
            for p in pids:
                os.kill(p, signal.SIGKILL)
            print(f"killed {name} {size} newest {newest[-1] if newest else -1} after {tries} tries")
            return 0
        for p in pids:
            os.kill(p, signal.SIGCONT)
    print(f"no checkpoint write caught in {timeout} s ({tries} tries)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
