#!/usr/bin/env bash
# pmc script against perf script on real programs (issue 22 items 2 and 4):
# one perf.data per workload (gcc -O2 -c of a real C file, python3, xz, a
# C++ program, Go if golang-go is installed, Rust if cargo is), recorded
# by perf with frame-pointer call chains, user and kernel frames.
#  - pmc script equals perf script line for line on >= 99 % of perf's lines
#    (lines diff(1) leaves unmatched; a difference prints both lines): the
#    kernel as ([kernel.kallsyms]), perf's alias among the names at one
#    address, callers named at their return address, the 0 that ends a
#    frame-pointer walk, names demangled as perf 6.1 (no parameter lists;
#    Rust legacy and v0).  Inline frames count too (their chains are
#    another item of the issue).
#  - stackcollapse-perf.pl's folding (tests/integration/stackcollapse.awk:
#    Debian packages no FlameGraph, so the awk copy of its rules stands in
#    for it), with and without --kernel, gives the same stacks from both,
#    with inline frames left out of both (perf's "(inlined)" lines, pmc
#    --no-inline: inline chains are item 3 of the issue, and a sample perf
#    shows with inlined frames only still differs), with PLT stubs named
#    alike (perf 6.1 prints "@plt" for an IRELATIVE slot, pmc the ifunc's
#    name).
source "$(dirname "$0")/lib.sh"
FOLD=$PMC_ROOT/tests/integration/stackcollapse.awk

if ! command -v perf >/dev/null 2>&1; then
  skip "pmc script = perf script" "perf is not installed"; done_testing; exit
fi

# folds NAME: perf script and pmc script of $TMP/NAME.data folded as
# stackcollapse-perf.pl folds them, without (K = 0) and with --kernel (1),
# into NAME.f1.K (perf) and NAME.f2.K (pmc); 0 when both pairs are equal.
folds() {
  local n=$1 k same=0
  perf script -i "$TMP/$n.data" 2>/dev/null >"$TMP/$n.perf"
  "$PMC" script -i "$TMP/$n.data" >"$TMP/$n.pmc" 2>"$TMP/$n.pmcerr"
  "$PMC" script --no-inline -i "$TMP/$n.data" >"$TMP/$n.pmcni" 2>/dev/null
  # perf discards a chain that holds an invalid context marker (a -1 that
  # a frame-pointer walk read: "invalid callchain context", util/machine.c)
  # and prints the sample without frames; pmc skips the marker and prints
  # the rest.  Such samples (their header lines) are left out of both folds.
  python3 - "$TMP/$n.perf" "$TMP/$n.pmcni" "$TMP/$n.p1" "$TMP/$n.p2" >"$TMP/$n.nochain" <<'PY'
import sys
def blocks(f):
    return [b for b in open(f).read().split("\n\n") if b.strip()]
a = [b for b in blocks(sys.argv[1])]
drop = {b.strip("\n").split("\n")[0] for b in a if len(b.strip("\n").split("\n")) == 1}
keep = lambda bs: [b for b in bs if b.strip("\n").split("\n")[0] not in drop]
open(sys.argv[3], "w").write("\n\n".join(keep(a)) + "\n\n")
open(sys.argv[4], "w").write("\n\n".join(keep(blocks(sys.argv[2]))) + "\n\n")
print(len(drop))
PY
  for k in 0 1; do
    grep -v ' (inlined)$' "$TMP/$n.p1" | awk -v kernel=$k -f "$FOLD" |
      sed -E 's/[^;]*@plt/@plt/g' | sort >"$TMP/$n.f1.$k"
    awk -v kernel=$k -f "$FOLD" "$TMP/$n.p2" | sed -E 's/[^;]*@plt/@plt/g' | sort >"$TMP/$n.f2.$k"
    { [ -s "$TMP/$n.f1.$k" ] && cmp -s "$TMP/$n.f1.$k" "$TMP/$n.f2.$k"; } || same=1
  done
  return $same
}

# compare NAME: the checks on folds NAME's files
compare() {
  local n=$1
  local total diffl
  total=$(wc -l <"$TMP/$n.perf")
  diffl=$(diff "$TMP/$n.perf" "$TMP/$n.pmc" | grep -c '^<')
  if [ "$total" -gt 100 ] && [ $(((total - diffl) * 100)) -ge $((total * 99)) ]; then
    ok "$n: pmc script = perf script on $((total - diffl)) of $total lines"
  else
    fail "$n: pmc script = perf script" "$((total - diffl)) of $total lines equal; first: $(diff "$TMP/$n.perf" "$TMP/$n.pmc" | grep -m1 -A3 '^[0-9]' | tr '\n\t' '  ')"
  fi
  local k
  for k in 0 1; do
    if [ -s "$TMP/$n.f1.$k" ] && cmp -s "$TMP/$n.f1.$k" "$TMP/$n.f2.$k"; then
      ok "$n: stackcollapse$([ $k = 1 ] && echo ' --kernel') of both: the same $(wc -l <"$TMP/$n.f1.$k") stacks ($(cat "$TMP/$n.nochain") samples perf prints without their corrupt chain left out)"
    else
      fail "$n: stackcollapse$([ $k = 1 ] && echo ' --kernel') of both" "$(diff "$TMP/$n.f1.$k" "$TMP/$n.f2.$k" | grep '^[<>]' | head -2 | cut -c1-300 | tr '\n' ' ')"
    fi
  done
}

# rec NAME CMD...: perf records CMD, and pmc's folds are compared with
# perf's (a sample in a library's PLT header names the sizeless _init that
# perf stretches over it, as perf does: tests/integration/plt_names.sh).
rec() {
  local n=$1; shift
  if perf_record "$n" -g -F 2000 -- "$@"; then
    folds "$n"
    compare "$n"
  else skip "$n" "perf record failed: $(head -1 "$TMP/$n.err")"; fi
}

rec gcc gcc -O2 -c -D_GNU_SOURCE -I"$PMC_ROOT/include" -I"$PMC_ROOT/analysis" \
  -I"$PMC_ROOT/lib" -I/usr/include/capstone -o "$TMP/x.o" "$PMC_ROOT/analysis/report/report.c"
rec py python3 -c "import json
for _ in range(20000): json.dumps({'a': list(range(200))})"
head -c 8000000 /dev/urandom >"$TMP/rnd"
rec xz xz -k -f -6 "$TMP/rnd"

cat >"$TMP/cxx.cpp" <<'EOF'
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>
namespace ns {
__attribute__((noinline)) unsigned long run_hot(unsigned long n) {
  std::map<std::string, unsigned long> m;
  for (unsigned long i = 0; i < n; i++) m[std::to_string(i % 5000)] += i;
  std::vector<unsigned long> v;
  for (auto &p : m) v.push_back(p.second);
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[0];
}
}
int main() { unsigned long s = 0; for (int r = 0; r < 15; r++) s += ns::run_hot(100000); printf("%lu\n", s); }
EOF
if g++ -O2 -g -fno-omit-frame-pointer -o "$TMP/cxx" "$TMP/cxx.cpp" 2>"$TMP/cxx.cc"; then
  rec cxx "$TMP/cxx"
  # perf report's names: no parameter lists by default, with them under -v
  "$PMC" report -i "$TMP/cxx.data" -s sym >"$TMP/cxx.rep" 2>/dev/null
  "$PMC" report -v -i "$TMP/cxx.data" -s sym >"$TMP/cxx.repv" 2>/dev/null
  if grep -q '\[\.\] ns::run_hot$' "$TMP/cxx.rep" && grep -q 'ns::run_hot(unsigned long)' "$TMP/cxx.repv"; then
    ok "C++: report names without parameter lists as perf's; -v with them"
  else fail "C++ names in report" "$(grep -m1 run_hot "$TMP/cxx.rep") / $(grep -m1 run_hot "$TMP/cxx.repv")"; fi
else skip "cxx" "g++ failed: $(head -1 "$TMP/cxx.cc")"; fi

if command -v go >/dev/null 2>&1; then
  mkdir -p "$TMP/gow"
  cat >"$TMP/gow/main.go" <<'EOF'
package main

import (
	"fmt"
	"sort"
	"strconv"
)

func work(n int) int {
	m := map[string]int{}
	for i := 0; i < n; i++ {
		m[strconv.Itoa(i%5000)] += i
	}
	v := []int{}
	for _, x := range m {
		v = append(v, x)
	}
	sort.Ints(v)
	return v[0]
}

func main() {
	s := 0
	for r := 0; r < 20; r++ {
		s += work(100000)
	}
	fmt.Println(s)
}
EOF
  if (cd "$TMP/gow" && HOME=$TMP GOCACHE=$TMP/gocache GO111MODULE=off go build -o "$TMP/gow/gow" main.go) 2>"$TMP/go.err"; then
    rec go "$TMP/gow/gow"
  else skip "go" "go build failed: $(head -1 "$TMP/go.err")"; fi
else skip "go" "golang-go is not installed"; fi

if command -v cargo >/dev/null 2>&1; then
  mkdir -p "$TMP/rs/src"
  printf '[package]\nname = "rs"\nversion = "0.1.0"\nedition = "2021"\n[profile.release]\ndebug = true\n' >"$TMP/rs/Cargo.toml"
  cat >"$TMP/rs/src/main.rs" <<'EOF'
use std::collections::HashMap;
fn map_phase(n: u64) -> HashMap<String, u64> {
    let mut m = HashMap::new();
    for i in 0..n { *m.entry(format!("k{}", i % 7000)).or_insert(0) += i; }
    m
}
fn main() {
    let mut total = 0u64;
    for _ in 0..10 {
        let m = map_phase(200000);
        let mut v: Vec<u64> = m.values().cloned().collect();
        v.sort();
        total += v.iter().map(|x| x * 3).filter(|x| x % 2 == 0).sum::<u64>();
    }
    println!("{}", total);
}
EOF
  if (cd "$TMP/rs" && RUSTFLAGS="-C force-frame-pointers=yes" CARGO_TARGET_DIR=$TMP/rs/target \
      cargo build --release --offline -q) 2>"$TMP/rs.err"; then
    rec rs "$TMP/rs/target/release/rs"
    # every symbol demangled: no _R..., $LT$, 17h<hash>E left
    if [ -s "$TMP/rs.pmc" ] && ! grep -qE ' _R[A-Za-z0-9_]+\+0x|\$LT\$|17h[0-9a-f]{16}E' "$TMP/rs.pmc"; then
      ok "Rust: every name demangled (legacy and v0)"
    else fail "Rust: names left mangled" "$(grep -m2 -E ' _R[A-Za-z0-9_]+\+0x|\$LT\$|17h[0-9a-f]{16}E' "$TMP/rs.pmc" | tr '\n\t' '  ')"; fi
  else skip "rust" "cargo build failed: $(head -1 "$TMP/rs.err")"; fi
else skip "rust" "cargo is not installed"; fi

done_testing
