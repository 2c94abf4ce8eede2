# pmc — top-level build.  Plain GNU make; every source is found by wildcard so
# adding a file never means editing this one.
#
#   make                 library (static + shared), the pmc tool, test programs
#   make check           the whole test suite (tests/run.sh)
#   make check-layers    only the include-layering check (scripts/check-layers.py)
#   make check-abi       only the export check of libpmc.so (scripts/check-abi.py)
#   make check-sanitize  the suite again under ASan+UBSan (build-asan/)
#   make check-loaded    the suite with two CPU-bound processes beside it (a busy
#                        machine; tests/loaded.sh, LOAD=N processes)
#   make demo            build, then run the main job on a bundled example
#   make install PREFIX=/usr/local [DESTDIR=...]
#   make fuzz            libFuzzer harnesses tests/fuzz/fuzz_*.c (clang) into build-fuzz/
#   make fuzz-run        run each for FUZZ_TIME seconds (default 30) on its corpus
#
# SANITIZE=1 builds into build-asan/ with -fsanitize=address,undefined.
# FUZZ=1 (what `make fuzz` uses) builds everything with clang and
# -fsanitize=fuzzer-no-link,address,undefined into build-fuzz/.

PREFIX   ?= /usr/local
DESTDIR  ?=
CC       ?= cc
# The same as LIBPMC_VERSION_* in include/pmc.h (tests/integration/abi.sh checks).
VERSION  := 0.1.0
SOVERSION:= 1

ifeq ($(FUZZ),1)
B        := build-fuzz
CC       := clang
SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
            -fno-sanitize-recover=undefined -O1
else ifeq ($(SANITIZE),1)
B        := build-asan
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
B        := build
SANFLAGS :=
endif

WARN     := -Wall -Wextra -Wshadow -Wno-unused-parameter -Wstrict-prototypes -Wmissing-prototypes \
            -Werror=implicit-function-declaration -Werror=int-conversion
CFLAGS   ?= -O2 -g
# Include paths come per layer (LAYER_INC below), never for the whole tree.
ALLCFLAGS = -std=gnu11 $(WARN) $(CFLAGS) $(SANFLAGS) -fno-omit-frame-pointer -D_GNU_SOURCE \
            -DPMC_VERSION_STRING=\"$(VERSION)\" -Iinclude $(LAYER_INC) -I/usr/include/capstone
# libpfm4 and capstone are not linked: lib/event/event_pfm.c and
# analysis/report/annotate.c open them on first use (lib/common/dynlib.h), because
# the loader's relocation of their tables (41 000 and 75 000 entries) was
# most of every pmc command's start-up; their -dev packages give the headers.
LDLIBS_LIB := -lzstd -lpthread -lm
# libiberty (Debian's libiberty-dev) is the demangler perf uses
# (cplus_demangle: C++ and Rust); Debian ships it as an archive only.
LDLIBS_ANA := -ldw -lelf -lprotobuf-c -lz -liberty
LDLIBS_TEST:= -lcmocka
# The pmc command links the analysis layer's libraries (elfutils,
# protobuf-c and what they pull in) statically (their Debian -dev packages
# ship the .a): the dynamic loader took 2-4 ms mapping and relocating ten
# shared libraries at every start, the bulk of `pmc stat -- /bin/true`'s
# overhead (docs/BENCHMARKS.md, "Start-up").  libpmc itself stays shared
# (pmc links it through its public API), with its own zstd.
# PMC_STATIC_DEPS=0 links everything dynamically.
# The full-screen commands (top, report --tui) read what the terminal can
# do from terminfo: ncurses' libtinfo (Debian's libncurses-dev), linked
# with the others (tools/pmc/term.c; docs/architecture.md "The terminal").
LDLIBS_TERM := -ltinfo
PMC_STATIC_DEPS ?= 1
ifeq ($(PMC_STATIC_DEPS),1)
LDLIBS_TOOL := -Wl,-Bstatic -Wl,--start-group $(LDLIBS_ANA) $(LDLIBS_TERM) -lzstd -llzma -lbz2 \
               -Wl,--end-group -Wl,-Bdynamic -lpthread -lm
else
LDLIBS_TOOL := $(LDLIBS_ANA) $(LDLIBS_TERM) $(LDLIBS_LIB)
endif

# The layers (docs/architecture.md "Layers").  SEES_x lists the lib/
# directories layer x may include from, itself first; every layer also sees
# the public headers in include/.  $(B)/inc/x/ holds one symlink per entry,
# and a file of layer x is compiled with -I$(B)/inc/x only, so an include
# from a layer it may not use does not compile.  scripts/check-layers.py
# (run by `make check`) reads this table and checks every header too.
SEES_common  := common
SEES_backend := backend common
SEES_ring    := ring common
SEES_event   := event common
SEES_log     := log ring backend common
SEES_core    := core event log ring backend common
# analysis reaches libpmc through include/ only (it links the shared
# library); lib/common's stateless helpers are compiled into it too.
SEES_analysis:= common
# The tools (tools/pmc, and tools/lib: libpmctools, the CLI's own helpers
# linked into pmc only) see lib/common too: its header-only helpers (GROW,
# the error wrappers over pmc_seterror) and the stateless objects that
# libpmcstat.a carries.  $(B)/inc/tools/ also holds toolslib ->
# tools/lib, so the CLI's helpers are included as "toolslib/NAME.h".
SEES_tools   := common
LIB_LAYERS   := common backend ring event log core

# analysis/ is in rooms, one folder per stage (docs/architecture.md "The
# rooms of analysis/").  ROOM_x lists the rooms a file of room x may
# include from, itself first, the closure of what their headers include;
# every room also sees lib/common and include/.  $(B)/inc/room-x/ holds
# one symlink per entry and room x is compiled with -I$(B)/inc/room-x
# only; scripts/check-layers.py reads this table too.
ROOM_util    := util
ROOM_pprof   := pprof
ROOM_stat    := stat util
ROOM_perfdata:= perfdata util
ROOM_input   := input perfdata util
ROOM_symbols := symbols util
ROOM_profile := profile input perfdata symbols util
ROOM_convert := convert perfdata symbols util
ROOM_report  := report profile input perfdata symbols util
ROOM_export  := export report profile input perfdata symbols util pprof
ROOM_live    := live report profile input perfdata symbols util
ROOM_serve   := serve export report profile input perfdata symbols util pprof
ROOMS        := util pprof stat perfdata input symbols profile convert report export live serve

$(B)/inc/room-%/.view: Makefile
	@rm -rf $(dir $@); mkdir -p $(dir $@)
	@for d in $(ROOM_$*); do ln -s $(CURDIR)/analysis/$$d $(dir $@)$$d; done
	@for d in $(SEES_analysis); do ln -s $(CURDIR)/lib/$$d $(dir $@)$$d; done
	@touch $@
$(B)/inc/%/.view: Makefile
	@rm -rf $(dir $@); mkdir -p $(dir $@)
	@for d in $(SEES_$*); do ln -s $(CURDIR)/lib/$$d $(dir $@)$$d; done
	@touch $@
VIEW = $(B)/inc/$(1)/.view
.PRECIOUS: $(B)/inc/%/.view $(B)/inc/room-%/.view

VIEWS = $(foreach l,$(LIB_LAYERS),$(call VIEW,$(l))) $(foreach r,$(ROOMS),$(call VIEW,room-$(r))) \
        $(call VIEW,tools)

$(foreach l,$(LIB_LAYERS),\
  $(eval $(B)/pic/lib/$(l)/%.o $(B)/obj/lib/$(l)/%.o: LAYER_INC := -I$(B)/inc/$(l)))
$(foreach r,$(ROOMS),\
  $(eval $(B)/obj/analysis/$(r)/%.o: LAYER_INC := -I$(B)/inc/room-$(r)))
$(B)/obj/tools/pmc/%.o: LAYER_INC := -I$(B)/inc/tools -Ianalysis
$(B)/obj/tools/lib/%.o: LAYER_INC := -I$(B)/inc/tools
# Tests reach into every layer on purpose (unit tests of internals).
$(B)/tests/% $(B)/fuzz-replay/% $(B)/fuzz_%: LAYER_INC := -Ilib -Ianalysis -Itests -I$(B)/inc/tools

LIB_SRC  := $(shell find lib -name '*.c' | sort)
ANA_SRC  := $(shell find analysis -name '*.c' | sort)
TOOL_SRC := $(wildcard tools/pmc/*.c)
TLIB_SRC := $(wildcard tools/lib/*.c)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
HELP_SRC := $(wildcard tests/helpers/*.c)
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)

LIB_OBJ   := $(LIB_SRC:%.c=$(B)/pic/%.o)
LIB_SOBJ  := $(LIB_SRC:%.c=$(B)/obj/%.o)
ANA_OBJ   := $(ANA_SRC:%.c=$(B)/obj/%.o)
TOOL_OBJ  := $(TOOL_SRC:%.c=$(B)/obj/%.o)
TLIB_OBJ  := $(TLIB_SRC:%.c=$(B)/obj/%.o)
COMMON_ANA_OBJ := $(filter-out %/error.o,$(filter $(B)/obj/lib/common/%,$(LIB_SOBJ)))
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
HELP_BIN  := $(HELP_SRC:tests/helpers/%.c=$(B)/helpers/%)
REPLAY_BIN:= $(FUZZ_SRC:tests/fuzz/%.c=$(B)/fuzz-replay/%)
FUZZ_BIN  := $(FUZZ_SRC:tests/fuzz/%.c=$(B)/%)

# libpmc-freebsd: what FreeBSD's own programs need beyond libpmc and that
# Linux lacks (kqueue, kvm, cpuset, sysctl); compat/freebsd/*.c, compiled
# against the FreeBSD include set (include/freebsd) and libpmc's public API
# only.  FreeBSD programs link it through libpmc-freebsd.pc.
COMPAT_SRC := $(wildcard compat/freebsd/*.c)
COMPAT_OBJ := $(COMPAT_SRC:%.c=$(B)/pic/%.o)
$(B)/pic/compat/%.o: LAYER_INC := -Iinclude/freebsd

all: $(B)/libpmc.a $(B)/libpmc.so $(B)/libpmcstat.a $(B)/libpmctools.a $(B)/pmc $(B)/libpmc-freebsd.a \
     $(B)/libpmc-freebsd.so $(UNIT_BIN) $(HELP_BIN) $(REPLAY_BIN)

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# The tools' view (SEES_tools above): lib/common, and toolslib -> tools/lib.
$(B)/inc/tools/.view: Makefile
	@rm -rf $(dir $@); mkdir -p $(dir $@)
	@ln -s $(CURDIR)/tools/lib $(dir $@)toolslib
	@for d in $(SEES_tools); do ln -s $(CURDIR)/lib/$$d $(dir $@)$$d; done
	@touch $@

# libpmc.so exports what the headers mark PMC_API and lib/libpmc.map names,
# nothing else (scripts/check-abi.sh).
$(B)/pic/lib/%.o: VISIBILITY := -fvisibility=hidden
$(B)/pic/%.o: %.c | $(VIEWS)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -fPIC $(VISIBILITY) -MMD -MP -c $< -o $@
$(B)/obj/%.o: %.c | $(VIEWS)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -MMD -MP -c $< -o $@

$(B)/libpmc.a: $(LIB_SOBJ)
	@rm -f $@; ar rcs $@ $^
# Makefile: a link-line change (LDLIBS_*) relinks.
$(B)/libpmc.so.$(VERSION): $(LIB_OBJ) lib/libpmc.map Makefile
	$(CC) $(SANFLAGS) -shared -Wl,-soname,libpmc.so.$(SOVERSION) -Wl,--version-script=lib/libpmc.map \
	    -o $@ $(LIB_OBJ) $(LDLIBS_LIB)
$(B)/libpmc.so: $(B)/libpmc.so.$(VERSION)
	ln -sf libpmc.so.$(VERSION) $(B)/libpmc.so.$(SOVERSION); ln -sf libpmc.so.$(VERSION) $@
$(B)/libpmc-freebsd.a: $(COMPAT_OBJ)
	@rm -f $@; ar rcs $@ $^
$(B)/libpmc-freebsd.so.$(VERSION): $(COMPAT_OBJ) $(B)/libpmc.so Makefile
	$(CC) $(SANFLAGS) -shared -Wl,-soname,libpmc-freebsd.so.$(SOVERSION) -o $@ $(COMPAT_OBJ) \
	    -L$(B) -lpmc -lbsd -lpthread
$(B)/libpmc-freebsd.so: $(B)/libpmc-freebsd.so.$(VERSION)
	ln -sf libpmc-freebsd.so.$(VERSION) $(B)/libpmc-freebsd.so.$(SOVERSION); \
	    ln -sf libpmc-freebsd.so.$(VERSION) $@

# libpmcstat (analysis) carries its own copy of lib/common's stateless
# helpers (zstd's lib/common model: libpmc.so keeps its copy hidden); the
# per-thread error reasons are state, so there is one copy, in libpmc.so,
# reached through pmc_errmsg() (leaving error.o out makes a stray internal
# call fail to link).
$(B)/libpmcstat.a: $(ANA_OBJ) $(COMMON_ANA_OBJ)
	@rm -f $@; ar rcs $@ $^

# libpmctools: the pmc CLI's own helpers (tools/lib: the output-file
# opener, -e lists, the tunables), linked into pmc only; they are no part
# of libpmc's ABI (docs/architecture.md "Layers").
$(B)/libpmctools.a: $(TLIB_OBJ)
	@rm -f $@; ar rcs $@ $^

# pmc links the shared library, through its public API only (lib/libpmc.map).
# RUNPATH: next to it in the build tree, ../lib once installed.
$(B)/pmc: $(TOOL_OBJ) $(B)/libpmctools.a $(B)/libpmcstat.a $(B)/libpmc.so Makefile
	$(CC) $(SANFLAGS) -o $@ $(TOOL_OBJ) $(B)/libpmctools.a $(B)/libpmcstat.a -L$(B) -lpmc \
	    -Wl,-rpath,'$$ORIGIN:$$ORIGIN/../lib' -Wl,--as-needed $(LDLIBS_TOOL)

# Unit tests link the static libraries so they can reach internal symbols.
# -MMD -MP as for the library objects: compiled and linked in one step, the
# dependency file is $@.d, so editing a header a test includes rebuilds it.
$(B)/tests/%: tests/unit/%.c $(B)/libpmctools.a $(B)/libpmcstat.a $(B)/libpmc.a | $(call VIEW,tools)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -MMD -MP -o $@ $< $(B)/libpmctools.a $(B)/libpmcstat.a $(B)/libpmc.a \
	    $(LDLIBS_TEST) $(LDLIBS_ANA) $(LDLIBS_LIB)
# Helpers are workloads with known answers (pages touched, CPU time):
# never instrumented, or ASan's shadow memory would change their answers.
$(B)/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WARN) -O1 -D_GNU_SOURCE -o $@ $<

# The fuzz harnesses as plain programs (tests/fuzz/replay.c is their main):
# the suite replays the committed corpora and regression inputs through them.
$(B)/fuzz-replay/%: tests/fuzz/%.c tests/fuzz/replay.c $(B)/libpmctools.a $(B)/libpmcstat.a $(B)/libpmc.a \
    | $(call VIEW,tools)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -MMD -MP -o $@ $< tests/fuzz/replay.c $(B)/libpmctools.a $(B)/libpmcstat.a $(B)/libpmc.a \
	    $(LDLIBS_ANA) $(LDLIBS_LIB)

# libFuzzer harnesses (only with FUZZ=1: `make fuzz`).
ifeq ($(FUZZ),1)
$(B)/fuzz_%: tests/fuzz/fuzz_%.c $(B)/libpmctools.a $(B)/libpmcstat.a $(B)/libpmc.a | $(call VIEW,tools)
	$(CC) $(ALLCFLAGS) -fsanitize=fuzzer -o $@ $< $(B)/libpmctools.a $(B)/libpmcstat.a $(B)/libpmc.a \
	    $(LDLIBS_ANA) $(LDLIBS_LIB)
fuzz-bins: $(FUZZ_BIN)
endif

fuzz: deps
	$(MAKE) FUZZ=1 fuzz-bins

# Each harness for FUZZ_TIME seconds (CI: 30), one after the other, niced.
FUZZ_TIME ?= 30
fuzz-run: fuzz
	FUZZ_TIME=$(FUZZ_TIME) tests/fuzz/run.sh

check: deps
	$(MAKE) all
	PMC_BUILD=$(B) tests/run.sh

# The suite on a busy machine: LOAD (default 2) CPU-bound processes run
# beside it, ended when it ends.  PMC_ONLY="dwarf symfs" runs only those.
LOAD ?= 2
check-loaded: deps
	$(MAKE) all
	PMC_BUILD=$(B) LOAD=$(LOAD) tests/loaded.sh

# Also part of `make check` (tests/integration/layers.sh).
check-layers:
	scripts/check-layers.py

# libpmc.so exports exactly what lib/libpmc.map names (also part of `make
# check`: tests/integration/abi.sh, which also plants exports).
check-abi: $(B)/libpmc.so
	scripts/check-abi.py $(B)/libpmc.so lib/libpmc.map

check-sanitize: deps
	$(MAKE) SANITIZE=1 all
	PMC_BUILD=build-asan PMC_SANITIZED=1 tests/run.sh

deps:
	@scripts/deps.sh

demo: deps
	$(MAKE) all
	scripts/demo.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	    $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3
	install -m 755 $(B)/pmc $(DESTDIR)$(PREFIX)/bin/pmc
	install -m 644 include/pmc.h $(wildcard include/pmclog.h) $(DESTDIR)$(PREFIX)/include/
	install -d $(DESTDIR)$(PREFIX)/include/pmc
	install -m 644 $(wildcard include/pmc/*.h) $(DESTDIR)$(PREFIX)/include/pmc/
	install -d $(DESTDIR)$(PREFIX)/include/pmc-freebsd/sys
	install -m 644 $(wildcard include/freebsd/*.h) $(DESTDIR)$(PREFIX)/include/pmc-freebsd/
	install -m 644 $(wildcard include/freebsd/sys/*.h) $(DESTDIR)$(PREFIX)/include/pmc-freebsd/sys/
	install -m 644 $(B)/libpmc-freebsd.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/libpmc-freebsd.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libpmc-freebsd.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libpmc-freebsd.so.$(SOVERSION)
	ln -sf libpmc-freebsd.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libpmc-freebsd.so
	install -m 644 $(B)/libpmc.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/libpmc.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libpmc.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libpmc.so.$(SOVERSION)
	ln -sf libpmc.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libpmc.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' lib/libpmc.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/libpmc.pc
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' lib/libpmc-freebsd.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/libpmc-freebsd.pc
	install -m 644 $(wildcard man/*.1) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(wildcard man/*.3) $(DESTDIR)$(PREFIX)/share/man/man3/

clean:
	rm -rf build build-asan build-fuzz

.PHONY: all check check-abi check-layers check-loaded check-sanitize deps demo install clean fuzz fuzz-bins fuzz-run
