#!/bin/sh
# nested_inline.sh N: a C program whose main calls f0, f0 calls f1, ... up
# to f(N-1), every one always_inline: at -O2 all N levels are inlined into
# main, one DW_TAG_inlined_subroutine nested in the other, and the hot loop
# lies in the innermost.  tests/integration/inline_nested.sh and
# bench/inline_depth.sh build it.
N=$1
i=$((N - 1))
printf '#include <stdio.h>\nstatic volatile unsigned sink;\n'
printf 'static inline __attribute__((always_inline)) unsigned f%d(unsigned x)\n{\n' $i
printf '\tfor (unsigned k = 0; k < 200000000u; k++) {\n\t\tx = x * 2654435761u + k;\n\t\tsink = x;\n\t}\n\treturn x;\n}\n'
while [ $i -gt 0 ]; do
	j=$((i - 1))
	printf 'static inline __attribute__((always_inline)) unsigned f%d(unsigned x)\n{\n\treturn f%d(x + %d) ^ %d;\n}\n' $j $i $j $j
	i=$j
done
printf 'int main(void)\n{\n\tprintf("%%u\\n", f0(1));\n\treturn 0;\n}\n'
