# threads.wl — one process, four threads (the main thread starts three
# workers and works too); on 4 simulated CPUs they run in parallel and
# migrate between CPUs at slice ends.  The process exits with status 3.
#
# Exact totals (the whole process):
#   cycles       4 x 6,000,000 + 10,000    = 24,010,000
#   instructions 4 x 9,000,000 + 10,000    = 36,010,000
process main entry=main comm=threads exit=3

function main
    work cycles=10k instructions=10k
    thread worker 3
    call worker

function worker
    call compute 3

function compute
    work cycles=2M instructions=3M branches=400k branch-misses=4k
