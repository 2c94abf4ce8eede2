#!/usr/bin/env bash
# Symbols from elsewhere: a recording read where its binaries are not at
# their recorded paths (perf's --symfs, -k/--vmlinux, --kallsyms), checked
# against perf report on the same perf.data.
#  - --symfs DIR: every binary from DIR + its recorded path, only there (as
#    perf 6.1: not the path itself, not DIR + its basename); a copy of
#    another build is refused and the report says why;
#  - --kallsyms FILE: kernel names from a saved kallsyms (an edited copy
#    proves it is the one read);
#  - -k FILE: kernel names from an ELF symbol table.  No vmlinux exists on
#    this machine, so one is built here: an ELF whose .text symbols are
#    /proc/kallsyms' kernel functions and whose build id is the running
#    kernel's (both pmc and perf check it), standing for the vmlinux.
# Work is on copies in $TMP: the build's own binaries are never moved.
. "$(dirname "$0")/lib.sh"
export HOME=$TMP/home          # no build-id cache (~/.debug) to find the binaries in
mkdir -p "$HOME"
W=$TMP/w
if ! sh "$PMC_ROOT/tests/helpers/analysis/build.sh" "$W" >"$TMP/build.out" 2>&1; then
  skip "analysis workloads" "cannot build them: $(tail -1 "$TMP/build.out")"
  done_testing; exit
fi
if ! "$PMC" record -q -e cpu-clock -F 4000 -o "$TMP/s.log" -- "$W/shlib_main" 20 >/dev/null \
     2>"$TMP/rec.err" ||
   ! "$PMC" record -q -e cpu-clock -F 4000 -o "$TMP/a.log" -- "$W/work603010" 20 >/dev/null \
     2>>"$TMP/rec.err"; then
  skip "symbols from elsewhere" "pmc record cannot sample here: $(tail -1 "$TMP/rec.err")"
  done_testing; exit
fi
HAVE_PERF=0
if command -v perf >/dev/null && perf_record s -N -e cpu-clock -F 4000 -- "$W/shlib_main" 20 &&
   perf_record a -N -e cpu-clock -F 4000 -- "$W/work603010" 20; then
  HAVE_PERF=1
fi

# usyms FILE: "dso sym samples" of the workload's lines of a pmc report -s dso,sym
# (or perf report -n -s dso,sym --stdio), sorted (the system's libraries are
# not under the --symfs tree: unresolved there, by pmc and perf alike)
usyms() { awk '$4 == "[.]" && $3 ~ /^(shlib_main|libwork\.so|work603010)$/ { print $3, $5, $2 }' \
  "$1" | sort; }
rep() { "$PMC" report --color never -s dso,sym "$@" 2>&1; }
# ran FILE: a report was made (a check that a name is absent means something)
ran() { grep -q '^# Samples: [1-9]' "$1"; }
prep() { perf_oracle perf report --stdio -n --no-children -s dso,sym "$@"; }

# ---- reference: the binaries where they were recorded ---------------------------
for r in s a; do rep -i "$TMP/$r.log" >"$TMP/$r.ref"; done
[ "$HAVE_PERF" = 1 ] && for r in s a; do rep -i "$TMP/$r.data" >"$TMP/$r.dref"; done
check "reference: lib_spin in libwork.so" grep -q 'libwork.so .*\[\.\] lib_spin' "$TMP/s.ref"
check "reference: hot60 in work603010" grep -q 'work603010 .*\[\.\] hot60' "$TMP/a.ref"

# ---- the binaries move away: only --symfs finds them ----------------------------
SFS=$TMP/symfs
mkdir -p "$SFS$W" "$TMP/flat"
for b in shlib_main libwork.so work603010; do
  cp "$W/$b" "$TMP/flat/$b"
  mv "$W/$b" "$SFS$W/$b"
done
rep -i "$TMP/s.log" >"$TMP/s.none"
check "moved away: lib_spin unresolved without --symfs" bash -c "! grep -q 'lib_spin' '$TMP/s.none'"
check "moved away: the report says libwork.so is not found" grep -q "$W/libwork.so: not found" "$TMP/s.none"
for r in s a; do
  rep -i "$TMP/$r.log" --symfs "$SFS" >"$TMP/$r.sfs"
  check "--symfs: pmc log $r.log names every user function as before" \
    cmp -s <(usyms "$TMP/$r.ref") <(usyms "$TMP/$r.sfs")
done
check "--symfs: lib_spin again" grep -q 'libwork.so .*\[\.\] lib_spin' "$TMP/s.sfs"
# perf 6.1's --symfs takes DIR + recorded path only; DIR + basename is not tried
rep -i "$TMP/s.log" --symfs "$TMP/flat" >"$TMP/s.flat"
check "--symfs: DIR + basename is not looked at (as perf)" eval "ran '$TMP/s.flat' && ! grep -q 'lib_spin' '$TMP/s.flat'"
# the other analysis commands share the option
"$PMC" script -i "$TMP/s.log" --symfs "$SFS" >"$TMP/s.script" 2>&1
check "script --symfs: lib_spin" grep -q 'lib_spin' "$TMP/s.script"
"$PMC" annotate -i "$TMP/a.log" --symfs "$SFS" hot60 >"$TMP/a.ann" 2>&1
check "annotate --symfs: hot60's instructions" grep -q 'Percent' "$TMP/a.ann"
"$PMC" diff --symfs "$SFS" "$TMP/s.log" "$TMP/s.log" >"$TMP/s.diff" 2>&1
check "diff --symfs: lib_spin" grep -q 'lib_spin' "$TMP/s.diff"

if [ "$HAVE_PERF" = 1 ]; then
  for r in s a; do
    rep -i "$TMP/$r.data" --symfs "$SFS" >"$TMP/$r.dsfs"
    check "--symfs: perf.data $r names every user function as before" \
      cmp -s <(usyms "$TMP/$r.dref") <(usyms "$TMP/$r.dsfs")
    prep -i "$TMP/$r.data" --symfs "$SFS" >"$TMP/$r.perf"
    check "--symfs: perf report agrees on $r.data (symbols, samples)" \
      cmp -s <(usyms "$TMP/$r.perf") <(usyms "$TMP/$r.dsfs")
  done
  prep -i "$TMP/s.data" --symfs "$TMP/flat" >"$TMP/s.pflat"
  check "perf 6.1 does not look at DIR + basename either" bash -c "! grep -q 'lib_spin' '$TMP/s.pflat'"
else
  skip "--symfs vs perf report" "perf record is not available here"
fi

# ---- a copy of another build under --symfs is refused -------------------------------
SFS2=$TMP/symfs2
mkdir -p "$SFS2$W"
cp "$SFS$W/shlib_main" "$SFS2$W/"
cc -O1 -g -fPIC -shared -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234567 \
  -o "$SFS2$W/libwork.so" "$PMC_ROOT/tests/helpers/analysis/libwork.c"
rep -i "$TMP/s.log" --symfs "$SFS2" >"$TMP/s.other"
check "--symfs, another build: lib_spin not named" eval "ran '$TMP/s.other' && ! grep -q 'lib_spin' '$TMP/s.other'"
check "--symfs, another build: the report says why" \
  grep -q "$W/libwork.so: build id differs from the recorded one: the copy under --symfs is another build" "$TMP/s.other"
if [ "$HAVE_PERF" = 1 ]; then
  prep -i "$TMP/s.data" --symfs "$SFS2" >"$TMP/s.pother"
  check "--symfs, another build: perf refuses it too" bash -c "! grep -q 'lib_spin' '$TMP/s.pother'"
fi

# ---- bad input --------------------------------------------------------------------
"$PMC" report -i "$TMP/s.log" --symfs "$TMP/nonesuch" >"$TMP/bad.out" 2>&1
check "--symfs not a directory: usage error" test $? -eq 2
check "--symfs not a directory: the message" grep -q "symfs: '$TMP/nonesuch' is not a directory" "$TMP/bad.out"
"$PMC" report -i "$TMP/s.log" --kallsyms "$TMP/nonesuch" >"$TMP/bad.out" 2>&1
check "--kallsyms missing file: usage error" test $? -eq 2
check "--kallsyms missing file: the message" grep -q "kallsyms: cannot read '$TMP/nonesuch'" "$TMP/bad.out"
"$PMC" report -i "$TMP/s.log" -k "$TMP" >"$TMP/bad.out" 2>&1
check "-k a directory: usage error" test $? -eq 2
check "-k a directory: the message" grep -q "is not a regular file" "$TMP/bad.out"
"$PMC" report -i "$TMP/s.log" -k /bin/true --kallsyms /proc/kallsyms >"$TMP/bad.out" 2>&1
check "-k and --kallsyms together: usage error" test $? -eq 2
check "-k and --kallsyms together: the message" grep -q "give one source of kernel symbols" "$TMP/bad.out"
# each checks what it is given: -k an ELF image, --kallsyms a kallsyms text
for opt in -k --vmlinux; do
  "$PMC" report -i "$TMP/s.log" $opt /etc/passwd >"$TMP/bad.out" 2>&1
  check "$opt /etc/passwd: usage error" test $? -eq 2
  check "$opt /etc/passwd: the message" grep -q "'/etc/passwd' is not an ELF file" "$TMP/bad.out"
done
for f in /etc/passwd /bin/true; do
  "$PMC" report -i "$TMP/s.log" --kallsyms "$f" >"$TMP/bad.out" 2>&1
  check "--kallsyms $f: usage error" test $? -eq 2
  check "--kallsyms $f: the message" grep -q "'$f' is not a kallsyms file" "$TMP/bad.out"
done
for cmd in "script -i $TMP/s.log" "annotate -i $TMP/s.log main" "diff $TMP/s.log $TMP/s.log"; do
  "$PMC" $cmd --kallsyms /etc/passwd >"$TMP/bad.out" 2>&1
  check "${cmd%% *} --kallsyms /etc/passwd: usage error" test $? -eq 2
done

# ---- kernel symbols from a file ----------------------------------------------------
if ! "$PMC" record -q -e cpu-clock -F 4000 -o "$TMP/k.log" -- dd if=/dev/zero of=/dev/null \
     bs=4k count=300000 >/dev/null 2>"$TMP/rec.err"; then
  skip "kernel symbols from a file" "pmc record cannot sample here"; done_testing; exit
fi
kref() { PMC_NO_KSYM_CACHE=1 "$PMC" report --color never -s sym "$@" 2>&1; }
# ksyms FILE: "sym samples" of the kernel lines
ksyms() { awk '$3 == "[k]" { print $4, $2 }' "$1" | sort; }
kref -i "$TMP/k.log" >"$TMP/k.ref"
if ! grep -q '\[k\] read_zero' "$TMP/k.ref"; then
  skip "kernel symbols from a file" "no kernel samples with names (kptr_restrict?)"
  done_testing; exit
fi
cat /proc/kallsyms >"$TMP/kallsyms"
kref -i "$TMP/k.log" --kallsyms "$TMP/kallsyms" >"$TMP/k.saved"
check "--kallsyms saved copy: the same kernel names and samples" \
  cmp -s <(ksyms "$TMP/k.ref") <(ksyms "$TMP/k.saved")
sed 's/ read_zero$/ read_zero_RENAMED/' "$TMP/kallsyms" >"$TMP/kallsyms.edited"
kref -i "$TMP/k.log" --kallsyms "$TMP/kallsyms.edited" >"$TMP/k.edited"
check "--kallsyms edited copy: the renamed symbol shows" grep -q '\[k\] read_zero_RENAMED' "$TMP/k.edited"
check "--kallsyms edited copy: the old name does not" eval "ran '$TMP/k.edited' && ! grep -q '\[k\] read_zero\$' '$TMP/k.edited'"

BID=$(kernel_build_id)
# mkvmlinux KALLSYMS BUILDID OUT: an ELF whose .text (at _text) holds each kernel
# text symbol of KALLSYMS as a function at its address
mkvmlinux() {
  python3 - "$1" >"$TMP/k.s" <<'EOF' || return 1
import sys
syms = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 3 and f[1] in "tT" and f[2] not in syms:
        syms[f[2]] = int(f[0], 16)
lo, hi = syms["_text"], syms["_etext"]
print('\t.section .text,"ax"')
for a, n in sorted((a, n) for n, a in syms.items() if lo <= a < hi):
    print('\t.org 0x%x\n\t.globl "%s"\n\t.type "%s",@function\n"%s":' % (a - lo, n, n, n))
print("\t.org 0x%x" % (hi - lo))
EOF
  as -o "$TMP/k.o" "$TMP/k.s" 2>/dev/null &&
    ld -o "$3" --section-start=.text=0x"$(awk '$3 == "_text" { print $1; exit }' "$1")" \
      --build-id=0x"$2" -e 0 "$TMP/k.o"
}
if [ -z "$BID" ] || ! command -v as >/dev/null || ! command -v ld >/dev/null; then
  skip "-k/--vmlinux" "no vmlinux here, and no kernel build id or binutils to build one"
elif ! mkvmlinux "$TMP/kallsyms.edited" "$BID" "$TMP/vmlinux"; then
  skip "-k/--vmlinux" "cannot build an ELF of the kernel's symbols"
else
  kref -i "$TMP/k.log" -k "$TMP/vmlinux" >"$TMP/k.vml"
  check "-k: the ELF's (renamed) symbol shows" grep -q '\[k\] read_zero_RENAMED' "$TMP/k.vml"
  # the same functions, some named by another alias (__pi___x86_indirect_thunk_rax
  # for __x86_indirect_thunk_rax: the ELF's order, not kallsyms'), as perf's do
  same_counts() { ran "$2" && cmp -s <(ksyms "$1" | awk '{ print $2 }' | sort) \
    <(ksyms "$2" | awk '{ print $2 }' | sort); }
  check "-k: the samples of each kernel function as from kallsyms" \
    same_counts "$TMP/k.edited" "$TMP/k.vml"
  OTHER=$(echo "$BID" | tr '0-9a-f' '1-9a-f0')
  mkvmlinux "$TMP/kallsyms.edited" "$OTHER" "$TMP/vmlinux.other"
  kref -i "$TMP/k.log" -k "$TMP/vmlinux.other" >"$TMP/k.vother"
  check "-k of another build: not used" eval "ran '$TMP/k.vother' && ! grep -q 'read_zero' '$TMP/k.vother'"
  check "-k of another build: the report says why" \
    grep -q "vmlinux.other is not the recording's kernel: its build id is $OTHER" "$TMP/k.vother"
  if command -v perf >/dev/null && perf_record k -N -e cpu-clock -F 4000 -- dd if=/dev/zero \
       of=/dev/null bs=4k count=300000; then
    kref -i "$TMP/k.data" -k "$TMP/vmlinux" >"$TMP/kd.vml"
    perf_oracle perf report -i "$TMP/k.data" --stdio -n --no-children -s sym -k "$TMP/vmlinux" \
      >"$TMP/kd.perf"
    check "-k: perf report -k on the same perf.data agrees (kernel symbols, samples)" \
      cmp -s <(ksyms "$TMP/kd.vml") <(ksyms "$TMP/kd.perf")
    kref -i "$TMP/k.data" --kallsyms "$TMP/kallsyms.edited" >"$TMP/kd.ed"
    perf_oracle perf report -i "$TMP/k.data" --stdio -n --no-children -s sym --kallsyms "$TMP/kallsyms.edited" \
      2>/dev/null >"$TMP/kd.ped"
    check "--kallsyms: perf report --kallsyms agrees (kernel symbols, samples)" \
      cmp -s <(ksyms "$TMP/kd.ed") <(ksyms "$TMP/kd.ped")
  else
    skip "-k vs perf report" "perf record is not available here"
  fi
fi
done_testing
