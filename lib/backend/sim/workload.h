/*
 * workload.h — simulated workload files: the parsed program a simulated
 * process runs instead of a command (format in docs/simulator.md).
 *
 * A workload is a set of functions (a call graph without recursion) and
 * process templates.  Each function is a list of operations: `work` (a
 * block of instructions, cycles, cache and branch events), `call`, `thread`
 * (start threads), `fork` (start child processes) and `wait` (for children).
 * The parser checks the graph is finite and computes, exactly, the totals
 * every process will execute — the ground truth the tests compare against.
 *
 * Functions get synthetic addresses in one fake executable mapping so that
 * samples resolve to names (simwl__symbols / simwl__write_perfmap).
 */
#ifndef PMC_SIM_WORKLOAD_H
#define PMC_SIM_WORKLOAD_H

#include <stdint.h>
#include <stdio.h>

/* The quantities a `work` op produces, in this order. */
enum simwl_q {
	SIMWL_CYCLES, SIMWL_INSNS, SIMWL_CACHE_REFS, SIMWL_CACHE_MISSES,
	SIMWL_BRANCHES, SIMWL_BRANCH_MISSES, SIMWL_NQ
};

enum simwl_opk { SIMWL_WORK, SIMWL_CALL, SIMWL_THREAD, SIMWL_FORK, SIMWL_WAIT };

#define SIMWL_NAME_MAX   64
#define SIMWL_MAX_DEPTH  64          /* call depth (and so call-chain length) */
#define SIMWL_MAX_OPS    60          /* ops per function (addresses fit 4 KiB) */
#define SIMWL_MAX_PER_CYCLE 16       /* events of one kind per cycle, at most */
#define SIMWL_MAX_SPAWN  10000       /* threads/forks created by one op */

/* Synthetic layout of the fake executable. */
#define SIMWL_MAP_START  0x400000ull
#define SIMWL_FUNC_BASE  0x401000ull
#define SIMWL_FUNC_SIZE  0x1000ull
#define SIMWL_OP_SIZE    0x40ull
#define SIMWL_KERNEL_IP  0xffff800010081000ull  /* "kernel" work's pc */

struct simwl_op {
	enum simwl_opk kind;
	int line;
	uint64_t q[SIMWL_NQ];        /* WORK: per execution */
	int kernel;                  /* WORK: runs at EL1 */
	int target;                  /* CALL/THREAD: function; FORK: process */
	uint64_t count;              /* CALL/THREAD/FORK: repetitions */
};

struct simwl_func {
	char name[SIMWL_NAME_MAX];
	int line;
	struct simwl_op *ops;
	int nops, capops;
	uint64_t addr;
	/* exact totals of one call, computed by the parser: */
	uint64_t self[SIMWL_NQ];     /* this process's work (calls + threads) */
	uint64_t tree[SIMWL_NQ];     /* plus every forked descendant */
	uint64_t nproc;              /* processes forked (transitively) */
	int state;                   /* DFS marks */
};

struct simwl_proc {
	char name[SIMWL_NAME_MAX];
	char comm[16];
	char entry_name[SIMWL_NAME_MAX];
	int entry;                   /* function */
	int exit_code;
	int line;
};

struct simwl {
	char path[4096];             /* absolute path of the file */
	char image[4096];            /* its symbol map (simwl__write_image), the file
	                                its mapping names; "" until written */
	struct simwl_func *funcs;
	int nfuncs;
	struct simwl_proc *procs;    /* procs[0] is the one spawn starts */
	int nprocs;
};

/* Parse a workload file / text.  0 or -errno; on error pmc_errmsg() says
 * "FILE:LINE: what is wrong". */
int simwl__load(const char *path, struct simwl **out);
int simwl__parse(const char *text, const char *path, struct simwl **out);
void simwl__free(struct simwl *w);

int simwl__find_func(const struct simwl *w, const char *name);
int simwl__find_proc(const struct simwl *w, const char *name);

/* Address of op i of function f (a work op's pc range starts there). */
uint64_t simwl__op_addr(const struct simwl *w, int f, int op);
/* Size of the fake executable mapping. */
uint64_t simwl__map_len(const struct simwl *w);

/* The function containing addr, or -1. */
int simwl__func_at(const struct simwl *w, uint64_t addr);
/* Every function symbol: name, start, size. */
void simwl__symbols(const struct simwl *w,
		    void (*cb)(void *arg, const char *name, uint64_t start, uint64_t size),
		    void *arg);
/*
 * Write the workload's symbol table as a perf-map file ("START SIZE NAME"
 * lines, what analysis reads for /tmp/perf-PID.map) and set w->image to
 * its path: the file the workload's executable mapping (MMAP2) names, so a
 * report names the samples without knowing about the simulator.  The file
 * is DIR/HASH/BASENAME: DIR is $TMPDIR/pmc-sim-UID (or /tmp/...), created
 * 0700 and refused unless it is this user's own directory; HASH is of the
 * map's text, so runs of the same workload share one file and concurrent
 * runs never see a half-written one (written under a temporary name, then
 * renamed); BASENAME is the workload's, the name reports show.
 * 0 or -errno with a reason.
 */
int simwl__write_image(struct simwl *w);
/* The symbols in the perf-map text format ("START SIZE NAME", hex). */
int simwl__write_perfmap(const struct simwl *w, FILE *f);

#endif
