# hot70.wl — three functions that take 70 %, 20 % and 10 % of the cycles.
#
#   pmc record --backend sim -e cycles -o x.log -- examples/sim/hot70.wl
#   pmc report -i x.log            # hot ~70 %, warm ~20 %, cold ~10 %
#
# Exact totals (one process, one thread):
#   cycles       100,011,000  (hot 70,000,000  warm 20,000,000  cold 10,000,000)
#   instructions 160,017,600
process main entry=main comm=hot70

function main
    work cycles=1000 instructions=1600
    call loop 100

function loop
    work cycles=100 instructions=160
    call hot
    call warm
    call cold

function hot
    work cycles=700k instructions=1120k cache-references=300k cache-misses=7k branches=140k branch-misses=1400

function warm
    work cycles=200k instructions=320k cache-references=80k cache-misses=4k branches=40k branch-misses=800

function cold
    work cycles=100k instructions=160k cache-references=40k cache-misses=500 branches=20k branch-misses=200
