#!/usr/bin/env bash
# Issue 69's measurements on a 16-core machine, as one prepared run (about 8 minutes).
#
# The lent machine (see ../.library/device) has Python 3.12 with numpy and numba but no
# Dask and no network. Here first:
#     make device-wheels     # Dask's wheels for that Python, into bench/out/wheels (ignored)
# then the device tool's `run` with carry ["bench/out/wheels"], timeout_s 600 and the command
#     bash bench/scale_device.sh
# Its tables come back as $OUT/batch.md (a batch of 25,000 published puzzles, the set x50,
# on 1 and 16 workers beside a kn.kakuro loop, the main process's CPU a puzzle) and
# $OUT/counts.md (the exact counts of bench/sets/open_counts.jsonl, each 15 s or so in
# one process, in one process and on Dask clusters of 4 and 16 workers; a count past
# 60 s shows as "> 60 s").
set -u
out=${OUT:-/tmp}
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site bench/out/wheels/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 -c "import os, numba, numpy, distributed
print('cores', os.cpu_count(), 'numba', numba.__version__, 'numpy', numpy.__version__,
      'distributed', distributed.__version__)" | tee "$out/versions.txt"
start=$(date +%s)
python3 -c "from kakuro_np.engine.core import ahead; print(f'compiled in {ahead.compile_all(jobs=8):.1f} s')" \
    | tee -a "$out/versions.txt"
cd bench || exit 1
timeout 300 python3 scale.py .. .. --rounds 1 --copies 50 --workers 1 16 2>&1 | tee "$out/batch.md"
timeout 200 python3 scale.py --counts sets/open_counts.jsonl --rounds 1 --workers 4 16 \
    --timeout 60 2>&1 | tee "$out/counts.md"
echo "all in $(($(date +%s) - start)) s" | tee -a "$out/versions.txt"
