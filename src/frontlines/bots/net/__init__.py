"""The flag network: a learned evaluation of a player's information state (docs/bots.md).

Its matrices are small (a batch of a few hundred positions times nine flags, layers of
64 and 32): a BLAS thread pool only costs here. On a busy machine OpenBLAS's threads wait
for each other; one forward pass of 192 positions took 0.1-0.2 s with them against about
1 ms in one thread (benchmarks/bench_net.py). So, unless the user chose otherwise, numpy's
BLAS runs in one thread in a process that loads the network before numpy is imported (the
bots, the arena, ``frontlines train``). Where numpy was imported first, set
``OPENBLAS_NUM_THREADS=1`` yourself.
"""

from __future__ import annotations

import os
import sys

if "numpy" not in sys.modules:
    for _name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_name, "1")
