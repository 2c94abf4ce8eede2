#!/usr/bin/env bash
# scripts/identical.sh — every output of report (its sort keys, filters,
# call-graph forms and every -F export), script, dump, diff, convert and
# annotate, written for one pmc binary on given recordings: the
# byte-identity check of a refactoring (issue 24: "every output
# byte-identical").
#
#   scripts/identical.sh PMC OUTDIR FILE...      one binary's outputs
#   scripts/identical.sh --compare OLD NEW FILE...   both, then cmp each
#
# FILE: a pmc log or a perf.data.  Each output goes to OUTDIR/BASE.NAME
# (BASE the file's name); exit status 1 when --compare finds a difference.
# tests/integration/identical.sh compares the outputs of tests/data's logs
# with the ones committed in tests/data/identical/.
set -u

# outputs PMC OUTDIR FILE [OTHER]: the matrix for one recording (OTHER: a
# second recording, diff's NEW); stderr and the exit status of each go to
# NAME.err beside it, so a message or a status that changes shows too
outputs() {
  local pmc=$1 out=$2 f=$3 other=${4:-$3} b
  b=$(basename "$f")
  local -a rep=(
    "default|"
    "sort_comm|-s comm" "sort_pid|-s pid" "sort_tid|-s tid" "sort_dso|-s dso"
    "sort_sym|-s sym" "sort_srcline|-s sym,srcline" "sort_cpu|-s cpu,comm"
    "sort_dso_sym|-s dso,sym" "sort_pid_tid|-s pid,tid,comm" "sort_srcline_only|-s srcline"
    "sort_perf_cols|-s overhead,sample,comm,dso,sym" "threads|-T" "threads_sym|-T -s sym"
    "children|--children" "children_sym|--children -s sym"
    "g|-g" "caller|-g caller" "callee|-g callee" "g_limits|-g caller,0.5,10"
    "g_callee_limits|-g callee,0,3" "g_function|-g caller,function,percent"
    "g_graph|-g graph" "g_none|-g none" "g_depth|-g caller -z 2" "g_noinline|-g caller --no-inline"
    "callee_children|-g callee --children" "caller_children|-g caller --children"
    "tree|-g caller --graph-layout tree" "tree_callee|-g callee --graph-layout tree"
    "cpu0|--cpu 0" "nlimit|-n 3 --percent-limit 1" "pid|--pid 1" "comm|--comm work603010,dwarf_work"
    "sym|--sym main" "dso|--dso libc.so.6" "relative|--comm work603010 --percentage relative"
    "time|--time 10%/2" "time_ranges|--time 0%-10%,50%-60%" "nodemangle|--no-demangle"
    "verbose|-v" "g_threads|-g caller -T"
    "json|-F json" "json_g|-F json -g caller" "json_callee|-F json -g callee"
    "json_children|-F json --children" "json_sort|-F json -s pid,sym"
    "folded|-F folded" "folded_g|-F folded -g caller" "folded_time|-F folded --time 10%/2"
    "speedscope|-F speedscope" "speedscope_time|-F speedscope --time 0%-50%"
    "callgrind|-F callgrind" "callgrind_g|-F callgrind -g caller" "svg|-F svg"
    "svg_callee|-F svg -g callee" "html|-F html" "html_pid|-F html --flame-by pid"
    "html_tid|-F html --flame-by tid" "pprof|-F pprof" "pprof_time|-F pprof --time 10%/2"
    "header|--header-only"
  )
  local -a scr=(
    "script|" "script_json|--format json"
    "script_events|-G --show-task-events --show-mmap-events --ns"
    "script_fields|-F comm,pid,tid,cpu,time,event,period,ip,sym,symoff,dso,callchain"
    "script_fields_delta|-F +pid,-period" "script_noinline|--no-inline"
    "script_header|--header" "script_time|--time 10%/2 --cpu 0"
    "script_json_events|--format json --show-task-events --show-mmap-events"
  )
  local r name args
  for r in "${rep[@]}"; do
    name=${r%%|*}
    args=${r#*|}
    # shellcheck disable=SC2086
    "$pmc" report -i "$f" --stdio --color never $args -o "$out/$b.report_$name" -f \
      >/dev/null 2>"$out/$b.report_$name.err"
    echo "rc=$?" >>"$out/$b.report_$name.err"
  done
  for r in "${scr[@]}"; do
    name=${r%%|*}
    args=${r#*|}
    # shellcheck disable=SC2086
    "$pmc" script -i "$f" $args >"$out/$b.$name" 2>"$out/$b.$name.err"
    echo "rc=$?" >>"$out/$b.$name.err"
  done
  "$pmc" dump -i "$f" >"$out/$b.dump" 2>&1
  "$pmc" dump -i "$f" --json >"$out/$b.dump_json" 2>&1
  "$pmc" diff "$f" "$other" >"$out/$b.diff" 2>&1
  "$pmc" diff -F json "$f" "$other" >"$out/$b.diff_json" 2>&1
  "$pmc" diff -F svg "$f" "$other" >"$out/$b.diff_svg" 2>&1
  # the conversion to the other format (a pmc log of a perf.data, a
  # perf.data of a pmc log), and what reads back from it; written at one
  # path for every binary (a pmc log's HEADER holds the command line)
  "$pmc" convert -i "$f" -o "$scratch/$b.convert" -f >/dev/null 2>"$out/$b.convert.err"
  echo "rc=$?" >>"$out/$b.convert.err"
  "$pmc" dump -i "$scratch/$b.convert" >"$out/$b.convert_dump" 2>&1
  "$pmc" report -i "$scratch/$b.convert" --stdio --color never -g caller \
    >"$out/$b.convert_report" 2>&1
  mv -f "$scratch/$b.convert" "$out/$b.convert" 2>/dev/null
  # the hottest function, annotated
  local sym
  sym=$("$pmc" report -i "$f" --stdio --color never -s sym 2>/dev/null |
    awk '!/^#/ && NF >= 3 { $1 = $2 = $3 = ""; sub(/^ +/, ""); print; exit }')
  if [ -n "$sym" ]; then
    "$pmc" annotate -i "$f" "$sym" >"$out/$b.annotate" 2>&1
    "$pmc" annotate -i "$f" --no-source "$sym" >"$out/$b.annotate_nosource" 2>&1
    "$pmc" annotate -i "$f" --source-only "$sym" >"$out/$b.annotate_source" 2>&1
  fi
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if [ "${1:-}" = --compare ]; then
  old=$2 new=$3
  shift 3
  t=$scratch/cmp
  mkdir -p "$t/old" "$t/new"
  prev=
  for f in "$@"; do
    # diff's NEW: the recording before this one (a real difference to show)
    outputs "$old" "$t/old" "$f" "${prev:-$f}"
    outputs "$new" "$t/new" "$f" "${prev:-$f}"
    prev=$f
  done
  rc=0 n=0
  for o in "$t"/old/*; do
    n=$((n + 1))
    if ! cmp -s "$o" "$t/new/${o##*/}"; then
      echo "differs: ${o##*/}"
      rc=1
    fi
  done
  echo "$n outputs compared, $([ $rc = 0 ] && echo all identical || echo some differ)"
  exit $rc
fi
[ $# -ge 3 ] || { echo "usage: $0 PMC OUTDIR FILE... | --compare OLD NEW FILE..." >&2; exit 2; }
pmc=$1 out=$2
shift 2
mkdir -p "$out"
prev=
for f in "$@"; do
  outputs "$pmc" "$out" "$f" "${prev:-$f}"
  prev=$f
done
