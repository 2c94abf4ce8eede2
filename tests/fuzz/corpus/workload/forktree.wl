# forktree.wl — a process tree: root forks 2 children, each forks 2 leaves
# (7 processes), parents wait for their children.
#
#   pmc stat --backend sim --per-process -e instructions,cycles -- examples/sim/forktree.wl
#
# Exact totals per process:
#   root    cycles  1,500,000  instructions  2,500,000   (x1)
#   child   cycles  2,000,000  instructions  3,000,000   (x2)
#   leaf    cycles  4,000,000  instructions  4,000,000   (x4)
#   tree    cycles 21,500,000  instructions 24,500,000
process root  entry=root_main  comm=root
process child entry=child_main comm=child
process leaf  entry=leaf_main  comm=leaf

function root_main
    work cycles=1M instructions=2M
    fork child 2
    wait
    work cycles=500k instructions=500k

function child_main
    work cycles=500k instructions=1M
    fork leaf 2
    call busy
    wait

function busy
    work cycles=1500k instructions=2M

function leaf_main
    work cycles=4M instructions=4M cache-references=1M cache-misses=20k
