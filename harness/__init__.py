"""Run a real application on a star of workers, time it, and write the tables `dlt fit` reads.

The originator sends each worker its chunk, one worker after another (a
one-port star); each worker pipes its chunk into a command that reads
standard input (SQLite loading it into an indexed table, `sort -S 64M`,
`gzip -9`, `xz`) and reports when its receive ended and when the command
finished. See docs/real-run.md.

    python3 -m harness loop                      # the whole loop on this machine
    python3 -m harness loop --smoke              # the same with tiny sizes, in seconds
    python3 -m harness real-runs                 # every experiment, one report (make real-runs)

On several hosts, start a worker on each (it runs only its own command;
`python3 harness ...`, the folder's path, works from anywhere):

    python3 harness worker --listen 0.0.0.0:7000 -- env LC_ALL=C sort --parallel=1 -S 64M

and measure from the originator:

    python3 -m harness link    --workers h1:7000 --sizes 1,4,16,64 --link-MBps 100 > link.csv
    python3 -m harness compute --workers h1:7000 --sizes 2,4,8,16,32,64,128 > compute.csv
    python3 -m harness runs    --workers h1:7000,h2:7000 --request m3.json --loads 100,200 --out out/

Without --workers, the measuring modes start local workers running the
command given after `--` (default: the loop's application, --app). Under
MPI, `--mpi` makes rank 0 the originator and ranks 1..m the workers:

    mpirun -n 3 --oversubscribe --enable-recovery /usr/bin/python3 -m harness loop --mpi
 Sizes are in MB
(10^6 bytes), times in seconds. Python 3.9 or newer, standard library only.
"""
