#!/usr/bin/env python3
"""Alternated A/B timing of whole commands, for comparing two builds or a build and git.

    python3 bench/abx.py N -- CMD1 ARGS :: CMD2 ARGS :: ... :: BASELINE ARGS

Runs every command once as a warm-up, then N rounds, each running all commands (forward on even
rounds, backward on odd ones, so neither side always follows the other), output discarded. Prints
each command's median wall time and its ratio to the last command's. Run it inside the repository
the commands are about; the bench scripts' hermetic environment (GIT_CONFIG_GLOBAL=/dev/null and
so on) is the caller's to export.
"""
import os
import statistics
import subprocess
import sys
import time


def main(argv):
    if len(argv) < 2 or not argv[0].isdigit():
        sys.exit(__doc__)
    rounds = int(argv[0])
    words = argv[2:] if argv[1] == "--" else argv[1:]
    commands, current = [], []
    for word in words:
        if word == "::":
            commands.append(current)
            current = []
        else:
            current.append(word)
    commands.append(current)
    if any(not c for c in commands):
        sys.exit("an empty command between '::'")
    times = [[] for _ in commands]
    with open(os.devnull, "wb") as null:
        for command in commands:
            subprocess.run(command, stdout=null, stderr=null)
        for i in range(rounds):
            order = range(len(commands)) if i % 2 == 0 else reversed(range(len(commands)))
            for j in order:
                start = time.perf_counter()
                subprocess.run(commands[j], stdout=null, stderr=null)
                times[j].append(time.perf_counter() - start)
    baseline = statistics.median(times[-1])
    for command, taken in zip(commands, times):
        median = statistics.median(taken)
        print(f"{median * 1000:9.2f} ms  {median / baseline:5.2f}x  {' '.join(command)[:90]}")


if __name__ == "__main__":
    main(sys.argv[1:])
