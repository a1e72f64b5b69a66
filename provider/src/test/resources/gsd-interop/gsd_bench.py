"""Random chunk reads with python3-gsd's read_chunk, for the figure compared with containerfs.

usage: gsd_bench.py FILE SEQUENCE   (SEQUENCE: one "frame name" per line, as GsdFigures writes it)
"""
import sys
import time

import gsd.fl

with open(sys.argv[2]) as s:
    seq = [(int(f), n) for f, n in (line.split(' ', 1) for line in s.read().split('\n') if line)]
t0 = time.perf_counter()
f = gsd.fl.open(sys.argv[1], 'rb')
t1 = time.perf_counter()
print('open: %.1f ms, nframes %d' % ((t1 - t0) * 1e3, f.nframes))
total = 0
for p in range(3):  # two warm-up passes, then the timed one
    t0 = time.perf_counter()
    for frame, name in seq:
        total += f.read_chunk(frame, name).nbytes
    t1 = time.perf_counter()
    print('pass %d: %d reads, %.2f us/read (%d bytes)' % (p, len(seq), (t1 - t0) * 1e6 / len(seq), total))
f.close()
