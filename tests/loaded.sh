#!/usr/bin/env bash
# The suite on a busy machine (`make check-loaded`): LOAD (default 2)
# CPU-bound processes spin beside tests/run.sh for its whole run, so that a
# check whose margin depends on scheduling fails here rather than on a
# newcomer's loaded laptop.  The spinners are this script's children, ended
# by their ids when the suite ends (or this script is interrupted).  The
# suite's exit status is this script's.
set -u
cd "$(dirname "$0")/.."
n=${LOAD:-2}
spinners=()
stop() { for p in "${spinners[@]}"; do kill "$p" 2>/dev/null; done
         for p in "${spinners[@]}"; do wait "$p" 2>/dev/null; done; }
trap stop EXIT
trap 'exit 130' INT TERM
for _ in $(seq 1 "$n"); do
  sh -c 'while :; do :; done' &
  spinners+=($!)
done
echo "# tests/loaded.sh: $n CPU-bound processes beside the suite (${spinners[*]})"
tests/run.sh
