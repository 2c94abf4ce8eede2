/*
 * tree.h — call trees built from a profile's samples: caller → callee
 * (top-down: roots are the outermost frames, as flame graphs draw them) or
 * callee → caller (bottom-up: roots are the sampled functions, each with
 * the paths that called it).  Used by the text call graph, the flame graphs
 * (SVG, HTML), and the JSON export.
 */
#ifndef PMCSTAT_TREE_H
#define PMCSTAT_TREE_H

#include <stdint.h>

#include "profile/profile.h"

struct tnode {
	uint32_t func;             /* prof_func index; UINT32_MAX for the root */
	uint32_t parent, child, next;   /* UINT32_MAX: none */
	uint64_t total, self;      /* weights (periods) */
	uint64_t nsamples;         /* samples through this node */
	const char *comm;          /* with comm roots: the command (pid, tid roots:
	                            * the task's last name, profile__comm's) */
	int32_t id;                /* with pid or tid roots: the pid or tid; else -1 */
};

struct ctree {
	struct tnode *n;
	size_t nn, cap;
	uint64_t total;
	uint64_t nsamples;
	int by_weight;             /* widths are weights: an event weighed by time */
	struct tree_priv *priv;
};

/*
 * What a flame graph or folded stack draws for node i: its samples, or for
 * an event weighed by time (prof_event.what: off-CPU, wall clock) its
 * weight in ns, since one switch-out sample may stand for a microsecond or
 * a second.
 */
static inline uint64_t tree__width(const struct ctree *t, uint32_t i)
{
	return t->by_weight ? t->n[i].total : t->n[i].nsamples;
}

#define TREE_CALLER  0   /* top-down */
#define TREE_CALLEE  1   /* bottom-up */

#define TREE_ROOT_COMM 1
#define TREE_ROOT_PID  2
#define TREE_ROOT_TID  3

/* Build over the samples passing flt.  flags: PROF_INLINE.  comm_root: a
 * first level per command (folded-stack style: TREE_ROOT_COMM, or 1), per
 * process (TREE_ROOT_PID) or per thread (TREE_ROOT_TID); 0 none.  0, or -ENOMEM with
 * pmc_errmsg() "out of memory". */
int tree__build(struct ctree *t, struct profile *p, const struct prof_filter *flt, int dir,
    int flags, int comm_root);
/* As tree__build, over part of each stack: pick(arg, sample, frames leaf
 * first, n) answers the index k of a frame, or -1 to leave the stack out;
 * the stack is taken from frame k outwards (k .. n - 1: that function and
 * its callers), or with down from it inwards (0 .. k: what it called).
 * report__entry_tree builds one flat-profile entry's call graph with it. */
typedef int (*tree_pick)(void *arg, const struct prof_sample *s, const struct prof_frame *fr,
    int n);
int tree__build_pick(struct ctree *t, struct profile *p, const struct prof_filter *flt, int dir,
    int flags, int comm_root, tree_pick pick, void *arg, int down);
/* As tree__build_pick for nt trees t[0 .. nt) in one walk of the samples:
 * pick(arg, sample, frames, n, ix, k, max) answers up to max pairs (tree
 * ix[i], frame k[i]): the stack goes to each such tree as tree__build_pick
 * takes it.  0 (every tree built), or -ENOMEM (none left to free). */
typedef int (*tree_pick_many)(void *arg, const struct prof_sample *s,
    const struct prof_frame *fr, int n, uint32_t *ix, int *k, int max);
int tree__build_many(struct ctree *t, size_t nt, struct profile *p, const struct prof_filter *flt,
    int dir, int flags, tree_pick_many pick, void *arg, int down);
/* Children of node i sorted by total, heaviest first (in place). */
void tree__sort(struct ctree *t);
void tree__free(struct ctree *t);

#endif
