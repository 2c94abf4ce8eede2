#!/usr/bin/env bash
# scripts/identical.sh — every output of report, script, dump, annotate and
# diff, written for one pmc binary on given recordings: the byte-identity
# check of a refactoring (issue 24: "every output byte-identical").
#
#   scripts/identical.sh PMC OUTDIR FILE...      one binary's outputs
#   scripts/identical.sh --compare OLD NEW FILE...   both, then cmp each
#
# FILE: a pmc log or a perf.data.  Each output goes to OUTDIR/BASE.NAME
# (BASE the file's name); exit status 1 when --compare finds a difference.
# tests/integration/identical.sh compares the outputs of tests/data's logs
# with the ones committed in tests/data/identical/.
set -u

# outputs PMC OUTDIR FILE: the matrix for one recording
outputs() {
  local pmc=$1 out=$2 f=$3 b
  b=$(basename "$f")
  local -a rep=(
    "default|"
    "sort_comm|-s comm" "sort_pid|-s pid" "sort_tid|-s tid" "sort_dso|-s dso"
    "sort_sym|-s sym" "sort_srcline|-s sym,srcline" "sort_cpu|-s cpu,comm"
    "threads|-T" "children|--children" "caller|-g caller" "callee|-g callee"
    "callee_children|-g callee --children" "tree|-g caller --graph-layout tree"
    "cpu0|--cpu 0" "nlimit|-n 3 --percent-limit 1"
    "json|-F json" "json_g|-F json -g caller" "folded|-F folded" "speedscope|-F speedscope"
    "callgrind|-F callgrind" "svg|-F svg" "html|-F html" "pprof|-F pprof"
    "header|--header-only"
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
  "$pmc" script -i "$f" >"$out/$b.script" 2>&1
  "$pmc" script -i "$f" --format json >"$out/$b.script_json" 2>&1
  "$pmc" script -i "$f" -G --show-task-events --show-mmap-events --ns >"$out/$b.script_events" 2>&1
  "$pmc" dump -i "$f" >"$out/$b.dump" 2>&1
  "$pmc" dump -i "$f" --json >"$out/$b.dump_json" 2>&1
  "$pmc" diff "$f" "$f" >"$out/$b.diff" 2>&1
  # the hottest function, annotated
  local sym
  sym=$("$pmc" report -i "$f" --stdio --color never -s sym 2>/dev/null |
    awk '!/^#/ && NF >= 3 { $1 = $2 = $3 = ""; sub(/^ +/, ""); print; exit }')
  [ -z "$sym" ] || "$pmc" annotate -i "$f" "$sym" >"$out/$b.annotate" 2>&1
}

if [ "${1:-}" = --compare ]; then
  old=$2 new=$3
  shift 3
  t=$(mktemp -d)
  trap 'rm -rf "$t"' EXIT
  mkdir -p "$t/old" "$t/new"
  for f in "$@"; do
    outputs "$old" "$t/old" "$f"
    outputs "$new" "$t/new" "$f"
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
for f in "$@"; do
  outputs "$pmc" "$out" "$f"
done
