"""Random chunk reads with python3-gsd (the reference C library): the baseline of bench scenario 4.

usage: gsd_read_chunks.py FILE SEQUENCE WARMUPS PASSES
SEQUENCE has one "frame name" per line. Prints one line per timed pass: "pass <microseconds per read>".
"""
import sys
import time

import gsd.fl

path, sequence, warmups, passes = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
with open(sequence) as s:
    seq = [(int(f), n) for f, n in (line.split(' ', 1) for line in s.read().split('\n') if line)]
f = gsd.fl.open(path, 'rb')
total = 0
for p in range(warmups + passes):
    t0 = time.perf_counter()
    for frame, name in seq:
        total += f.read_chunk(frame, name).nbytes
    t1 = time.perf_counter()
    if p >= warmups:
        print('pass %.4f' % ((t1 - t0) * 1e6 / len(seq)), flush=True)
f.close()
print('bytes %d' % total)
