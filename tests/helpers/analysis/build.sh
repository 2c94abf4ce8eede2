#!/bin/sh
# build.sh OUTDIR — builds the analysis workloads the tests record:
#   work603010        60/30/10 % (frame pointers, -O1, debug info)
#   work603010.strip  the same, stripped, with its debug info in
#                     work603010.debug (found through .gnu_debuglink)
#   inline_work       inline-heavy C++ (-O2 -g)
#   shlib_main + libwork.so   the work in a shared library
# Exit 0, or 1 if a compiler is missing (the tests then skip).
set -e
out=$1
src=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
CXX=${CXX:-c++}
mkdir -p "$out"
# keep the frame pointer in leaf functions too, or their callers vanish from
# frame-pointer call chains (x86 gcc omits it in leaves at -O1)
LEAFFP=
if echo "int main(void){return 0;}" | $CC -mno-omit-leaf-frame-pointer -x c - -o /dev/null 2>/dev/null; then
	LEAFFP=-mno-omit-leaf-frame-pointer
fi
$CC -O1 -g -fno-omit-frame-pointer $LEAFFP -o "$out/work603010" "$src/work603010.c"
# stripped copy + separate debug file, linked by .gnu_debuglink
cp "$out/work603010" "$out/work603010.strip"
objcopy --only-keep-debug "$out/work603010" "$out/work603010.debug"
strip --strip-all "$out/work603010.strip"
(cd "$out" && objcopy --add-gnu-debuglink=work603010.debug work603010.strip)
$CC -O1 -g -fno-omit-frame-pointer $LEAFFP -fPIC -shared -o "$out/libwork.so" "$src/libwork.c"
$CC -O1 -g -fno-omit-frame-pointer $LEAFFP -o "$out/shlib_main" "$src/shlib_main.c" -L"$out" -lwork \
    -Wl,-rpath,"$out"
if command -v "$CXX" >/dev/null 2>&1; then
	$CXX -O2 -g -fno-omit-frame-pointer $LEAFFP -o "$out/inline_work" "$src/inline_work.cc"
fi
