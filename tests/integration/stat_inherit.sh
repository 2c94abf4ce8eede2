#!/usr/bin/env bash
# pmc stat --no-inherit counts the command's main thread only, as perf stat
# --no-inherit does (a counter on a task is inherited by its threads and its
# children alike), and pmc-stat(1) and --help say so.
source "$(dirname "$0")/lib.sh"

# deepcall 4: four threads (the main thread one of them) of equal work
tc() { "$PMC" stat "$@" -x, -e task-clock -- "$HELPERS/deepcall" 4 16 20000 2>&1 >/dev/null |
       awk -F, '$3 == "task-clock" { print $1 }'; }
all=$(tc); one=$(tc --no-inherit)
check "--no-inherit: the main thread only ($one ms of $all ms in four equal threads)" \
  awk -v a="$all" -v o="$one" 'BEGIN { exit !(a > 0 && o > 0 && o < a * 0.5) }'
# the option's paragraph in the man page: from its .B line to the next .TP
opt_para() { awk 'prev ~ /^\.TP/ && /^\.B .*no.*inherit$/ { f = 1; next } { prev = $0 } f && /^\.TP/ { exit } f' "$PMC_ROOT/man/pmc-stat.1" | tr '\n' ' '; }
check "pmc-stat(1) says --no-inherit counts the main thread only" \
  bash -c "grep -q 'main thread' <<<\"\$1\"" _ "$(opt_para)"
check "--help says --no-inherit counts the main thread only" \
  bash -c "'$PMC' stat --help | grep -A1 -- '--no-inherit' | grep -q 'main thread'"
done_testing
