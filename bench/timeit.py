#!/usr/bin/env python3
"""Run a command; write its wall time and resource use, like `/usr/bin/time -f "%e %M %U %S" -o`.

    python3 bench/timeit.py -o OUTFILE CMD [ARGS...]

OUTFILE gets one line: wall seconds, peak RSS in KiB (the largest of the command and the
descendants it waited for, as getrusage reports it), user seconds, system seconds. The command's
stdin, stdout and stderr are inherited; the exit status is the command's. run.sh uses this only
when /usr/bin/time is missing.
"""

import os
import subprocess
import sys
import time


def main():
    args = sys.argv[1:]
    if len(args) < 3 or args[0] != "-o":
        sys.exit("usage: timeit.py -o OUTFILE CMD [ARGS...]")
    out, cmd = args[1], args[2:]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    with open(out, "w") as f:
        f.write(f"{wall:.3f} {usage.ru_maxrss} {usage.ru_utime:.2f} {usage.ru_stime:.2f}\n")
    code = proc.returncode
    sys.exit(code if code >= 0 else 128 - code)


if __name__ == "__main__":
    main()
