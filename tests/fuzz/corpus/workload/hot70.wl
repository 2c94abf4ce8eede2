# hot70.wl — three functions that take 70 %, 20 % and 10 % of the cycles.
#
#   pmc record --backend sim -e cycles -o x.log -- examples/sim/hot70.wl
#   pmc report -i x.log            # hot ~70 %, warm ~20 %, cold ~10 %
#
# The loop's length (1,234,668 cycles) is chosen so that no round sampling
# period (1 M, 250 k, 100 k ...: -F 1000, 4000, 10000 at the simulated 1 GHz)
# divides it: a strictly periodic program sampled at a commensurate period
# would alias (always sample the same phase), which real hardware's jitter
# hides and a deterministic machine would not.
#
# Exact totals (one process, one thread):
#   cycles       100,009,108  (hot 69,999,957  warm 19,999,953  cold 10,000,017)
#   instructions 160,014,427
process main entry=main comm=hot70

function main
    work cycles=1000 instructions=1600
    call loop 81

function loop
    work cycles=101 instructions=160
    call hot
    call warm
    call cold

function hot
    work cycles=864197 instructions=1382715 cache-references=370000 cache-misses=8642 branches=172839 branch-misses=1728

function warm
    work cycles=246913 instructions=395061 cache-references=98765 cache-misses=4938 branches=49382 branch-misses=987

function cold
    work cycles=123457 instructions=197531 cache-references=49383 cache-misses=617 branches=24691 branch-misses=246
