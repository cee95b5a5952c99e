#!/bin/bash
# The harness's whole loop over MPI under Slurm, one rank a node: rank 0
# the originator, ranks 1 and 2 the workers. From the project's root, on a
# file system every node sees, after `cargo build --release --bin dlt`:
#
#   sbatch harness/slurm-loop.sh                  # the link emulated at 100 MB/s
#   sbatch harness/slurm-loop.sh --link-MBps 0    # the network's own rate
#
# Its folder, real-runs/slurm-JOBID, keeps every table, request and raw
# timing; the log is slurm-loop-JOBID.log. Arguments go to `loop`.
#SBATCH --job-name=dlt-real-run
#SBATCH --nodes=3
#SBATCH --ntasks=3
#SBATCH --ntasks-per-node=1
#SBATCH --time=00:30:00
#SBATCH --output=slurm-loop-%j.log
set -euo pipefail
out=real-runs/slurm-${SLURM_JOB_ID:?run it with sbatch}
mkdir -p "$out"
# Debian's Python, where its mpi4py is; --mpi=pmix where Slurm's default differs.
srun -N 3 -n 3 /usr/bin/python3 -m harness loop --mpi --dlt target/release/dlt --out "$out" "$@"
echo "the loop's folder: $out"
