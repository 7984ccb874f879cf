#!/usr/bin/env python3
"""Writes a Matrix Market graph's edge list as union_find_depth.cu reads it: int32 n, int32 m,
then m pairs (u, v), u < v, each undirected edge once, self-loops dropped, in row order (the
order of ktune's edge schedule, kernels/cc/cc_edges.h, for a symmetric graph).
Usage: union_find_edges.py GRAPH.mtx.gz OUT.bin"""
import gzip
import struct
import sys

def main(src, dst):
    with gzip.open(src, "rt") as f:
        lines = (l for l in f if not l.startswith("%"))
        n = int(next(lines).split()[0])
        pairs = set()
        for line in lines:
            a, b = (int(x) - 1 for x in line.split()[:2])
            if a != b:
                pairs.add((min(a, b), max(a, b)))
    edges = sorted(pairs)
    with open(dst, "wb") as out:
        out.write(struct.pack("<ii", n, len(edges)))
        out.write(struct.pack("<%di" % (2 * len(edges)), *[x for e in edges for x in e]))

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
