/*
 * script.c — `pmc script`'s output (script.h): perf script's text layout,
 * field for field (its builtin-script.c is the reference: widths, the
 * map-relative addresses of user frames in call chains, "[unknown]"), or
 * JSON lines through json.c.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pmc.h"
#include "util/json.h"
#include "report/script.h"
#include "util/printable.h"

static const struct {
	const char *name;
	unsigned bit;
} field_tab[] = {
	{ "comm", SCRIPT_F_COMM }, { "tid", SCRIPT_F_TID }, { "pid", SCRIPT_F_PID },
	{ "time", SCRIPT_F_TIME }, { "cpu", SCRIPT_F_CPU }, { "event", SCRIPT_F_EVENT },
	{ "period", SCRIPT_F_PERIOD }, { "ip", SCRIPT_F_IP }, { "sym", SCRIPT_F_SYM },
	{ "symoff", SCRIPT_F_SYMOFF }, { "dso", SCRIPT_F_DSO }, { "callchain", SCRIPT_F_CALLCHAIN },
};
#define NFIELDS (sizeof(field_tab) / sizeof(field_tab[0]))

void script__init(struct script_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->fields = SCRIPT_F_DEFAULT;
	profile__filter_init(&o->flt);
}

const char *script__field_names(void)
{
	return "comm,tid,pid,time,cpu,event,period,ip,sym,symoff,dso,callchain";
}

int script__parse_fields(struct script_opts *o, const char *list, char *bad, size_t badlen)
{
	/* perf's forms: "a,b" replaces; "+a,-b" (signed items) edits */
	int edit = list[0] == '+' || list[0] == '-';
	unsigned set = edit ? o->fields : 0;
	const char *s = list;

	for (;;) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		int sign = 0;
		size_t k;
		if (edit) {
			sign = *s == '+' ? 1 : *s == '-' ? -1 : 0;
			if (sign) {
				s++;
				n--;
			}
		}
		for (k = 0; k < NFIELDS; k++)
			if (strlen(field_tab[k].name) == n && strncmp(field_tab[k].name, s, n) == 0)
				break;
		if (k == NFIELDS || (edit && !sign)) {
			snprintf(bad, badlen, "%.*s", (int)(n > 60 ? 60 : n), s);
			return -1;
		}
		if (sign < 0)
			set &= ~field_tab[k].bit;
		else
			set |= field_tab[k].bit;
		if (!e)
			break;
		s = e + 1;
	}
	o->fields = set;
	o->fields_set = 1;
	return 0;
}

/* ---- one entry to print: a sample or a side-band record ------------------ */

struct item {
	uint64_t time;
	uint32_t ix;
	uint8_t side;             /* 1: p->sb[ix] */
};

static int item_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	/* time order as perf's ordered events; at equal times side-band first
	 * (an exec's COMM comes before the samples it names), then input order */
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->side != y->side)
		return x->side ? -1 : 1;
	return x->ix < y->ix ? -1 : x->ix > y->ix;
}

struct ctx {
	FILE *f;
	struct profile *p;
	const struct script_opts *o;
	int name_width;           /* perf pads event names to the longest */
	const char **dn;          /* per location: its DWARF function name ("" none) */
	size_t ndn;
};

/* The fields printed for samples of event ev (perf drops the defaults a
 * sample cannot have: the CPU of a per-thread recording). */
static unsigned fields_of(const struct ctx *c, int ev)
{
	unsigned f = c->o->fields;
	if (!c->o->fields_set && ev >= 0 && (c->p->ev[ev].percpu ||
	    PMC_IS_SYSTEM_MODE((enum pmc_mode)c->p->ev[ev].mode)))
		f |= SCRIPT_F_CPU;
	return f;
}

/* Does event ev print multi-line call chains? */
static int chain_mode(const struct ctx *c, int ev, unsigned f)
{
	return !c->o->hide_callchain && (f & (SCRIPT_F_IP | SCRIPT_F_CALLCHAIN)) &&
	    (c->p->ev[ev].flags & PMC_F_CALLCHAIN);
}

/* comm, pid/tid, cpu, time: what perf prints before every record */
static void start(const struct ctx *c, unsigned f, int chain, const char *comm, int32_t pid,
    int32_t tid, int cpu, uint64_t t)
{
	FILE *o = c->f;
	if (f & SCRIPT_F_COMM)
		fprintf(o, chain ? "%s " : "%16s ", comm);
	if ((f & SCRIPT_F_PID) && (f & SCRIPT_F_TID))
		fprintf(o, "%5d/%-5d ", (int)pid, (int)tid);
	else if (f & SCRIPT_F_PID)
		fprintf(o, "%5d ", (int)pid);
	else if (f & SCRIPT_F_TID)
		fprintf(o, "%5d ", (int)tid);
	if ((f & SCRIPT_F_CPU) && cpu >= 0)
		fprintf(o, "[%03d] ", cpu);
	if (f & SCRIPT_F_TIME) {
		uint64_t s = t / 1000000000u, ns = t % 1000000000u;
		if (c->o->nanosecs) {
			fprintf(o, "%5" PRIu64 ".%09" PRIu64 ": ", s, ns);
		} else {
			char buf[48];
			snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64, s, ns / 1000);
			fprintf(o, "%12s: ", buf);
		}
	}
}

/* One location: the function and the offset in it of the pc (not of the
 * pc - 1 a caller is looked up at: perf prints the return address's). */
struct where {
	const char *sym;          /* NULL: unknown */
	uint64_t off;
	const char *dso;
};

static void where(struct profile *p, const struct prof_frame *fr, int caller, struct where *w)
{
	const struct prof_loc *l = &p->l[fr->loc];
	const struct prof_func *fn = &p->f[l->func];
	/* perf names a binary by its path, the kernel and its modules by
	 * their names: "[kernel.kallsyms]", "[ext4]" (map__fprintf_dsoname) */
	w->dso = sym_dso__kind(l->dso) == SYM_DSO_KERNEL ? sym_dso__name(l->dso) :
	    sym_dso__path(l->dso);
	if (profile__func_unresolved(p, l->func)) {
		w->sym = NULL;
		w->off = 0;
	} else {
		w->sym = fn->name;
		w->off = l->addr + (caller ? 1 : 0) - l->start;
	}
}

/* Hex digits of v (no prefix) right-aligned in width: what printf's
 * "%16" PRIx64 writes, without printf (the bulk of a call chain's cost). */
static void put_hex(FILE *o, uint64_t v, int width)
{
	char b[24];
	int n = 0;
	do {
		b[sizeof(b) - 1 - n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (n < width && n < (int)sizeof(b))
		b[sizeof(b) - 1 - n++] = ' ';
	fwrite(b + sizeof(b) - n, 1, (size_t)n, o);
}

static void text_where(const struct ctx *c, unsigned f, const struct where *w)
{
	FILE *o = c->f;
	if (f & SCRIPT_F_SYM) {
		putc(' ', o);
		fputs(w->sym ? w->sym : "[unknown]", o);
		if ((f & SCRIPT_F_SYMOFF) && w->sym) {
			fputs("+0x", o);
			put_hex(o, w->off, 0);
		}
	}
	if (f & SCRIPT_F_DSO) {
		char path[4096];
		fputs(" (", o);
		fputs(printable__str(w->dso, path, sizeof(path)), o);
		putc(')', o);
	}
}

/* One line of a call chain: "\t            ADDR SYM+OFF (DSO)". */
static void frame_line(const struct ctx *c, unsigned f, uint64_t a, const struct where *w)
{
	if (f & (SCRIPT_F_IP | SCRIPT_F_CALLCHAIN)) {
		putc('\t', c->f);
		put_hex(c->f, a, 16);
	}
	text_where(c, f, w);
	putc('\n', c->f);
}

/* The DWARF name of a location's function (looked up once per location). */
static const char *dwarf_name(const struct ctx *c, uint32_t loc)
{
	struct ctx *m = (struct ctx *)c;
	if (!m->dn) {
		m->ndn = c->p->nl;
		if (!(m->dn = calloc(m->ndn ? m->ndn : 1, sizeof(*m->dn))))
			return NULL;
	}
	if (loc >= m->ndn)
		return NULL;
	if (!m->dn[loc]) {
		const struct prof_loc *l = &c->p->l[loc];
		const char *n = sym_dso__dwarf_func(l->dso, l->addr);
		m->dn[loc] = n ? n : "";
	}
	return m->dn[loc][0] ? m->dn[loc] : NULL;
}

static void text_sample(const struct ctx *c, const struct prof_sample *s)
{
	struct profile *p = c->p;
	FILE *o = c->f;
	unsigned f = fields_of(c, s->ev);
	int chain = chain_mode(c, s->ev, f);
	const struct prof_frame *fr;
	const uint64_t *pcs;
	const uint8_t *user;
	int n = profile__frames(p, s->stack, 0, &fr);
	if (n < 0)
		return;                 /* out of memory: profile__nomem fails the run */
	profile__stack_pcs(p, s->stack, &pcs, &user);
	start(c, f, chain, s->comm, s->pid, s->tid, s->cpu, s->time);
	if (f & SCRIPT_F_PERIOD)
		fprintf(o, "%10" PRIu64 " ", s->period);
	if (f & SCRIPT_F_EVENT)
		fprintf(o, "%*s: ", c->name_width, p->ev[s->ev].name ? p->ev[s->ev].name : "[unknown]");
	if (!(f & (SCRIPT_F_IP | SCRIPT_F_SYM | SCRIPT_F_DSO | SCRIPT_F_CALLCHAIN))) {
		putc('\n', o);
		return;
	}
	struct where w;
	if (!chain) {
		putc(' ', o);
		if (f & SCRIPT_F_IP)
			put_hex(o, pcs[0], 16);
		where(p, &fr[0], 0, &w);
		text_where(c, f, &w);
		putc('\n', o);
		return;
	}
	putc('\n', o);
	for (int k = 0; k < n; k++) {
		/* perf's DWARF unwinder hands out callers at their return address
		 * - 1; frame-pointer and kernel chains at the return address */
		int caller = prof_pc_is_caller(user, (uint32_t)k);
		int back = caller && (user[k] & PROF_PC_UNWOUND);
		uint64_t a = pcs[k] - (uint64_t)back;
		if (user[k] & PROF_PC_USER)
			profile__map_offset(p, s->pid, s->time, a, &a);   /* perf: user frames as file offsets */
		/* perf names a frame-pointer or kernel chain's caller by the
		 * symbol at its return address itself (thread__find_symbol on
		 * the address): where a call is the last instruction of its
		 * function (a noreturn call), or a label starts right after it
		 * (ld.so's _dl_start_user), that is the next symbol, not the
		 * caller's, which reports name (fr[k], looked up at pc - 1) */
		struct prof_frame at = fr[k];
		if (caller && !back) {
			uint8_t f1 = user[k];
			uint32_t l1;
			if (profile__locate(p, s->pid, s->time, &pcs[k], &f1, 1, &l1) == 0)
				at.loc = l1;
		}
		where(p, &at, 0, &w);
		/* perf 6.1 expands the inlined functions of the frames its DWARF
		 * unwinder hands out (the sampled pc included; not frame-pointer
		 * or kernel chains), innermost first at the same address, and
		 * names the function by its DWARF name, "(inlined)" where that is
		 * not the symbol's (a .constprop clone, a versioned alias) */
		int expand = (user[k] & PROF_PC_UNWOUND) && !c->o->no_inline;
		const char *dn = expand ? dwarf_name(c, at.loc) : NULL;
		if (expand) {
			const struct prof_frame *in;
			int ni = profile__loc_frames(p, fr[k].loc, &in);
			for (int j = 0; j + 1 < ni; j++) {
				struct where wi = { p->f[in[j].func].name, w.off, "inlined" };
				frame_line(c, f, a, &wi);
			}
		}
		if (dn && w.sym && strcmp(dn, w.sym) != 0)
			w = (struct where){ dn, w.off, "inlined" };
		frame_line(c, f, a, &w);
	}
	putc('\n', o);
}

static void json_where(FILE *o, unsigned f, uint64_t pc, const struct where *w)
{
	const char *sep = "";
	if (f & (SCRIPT_F_IP | SCRIPT_F_CALLCHAIN)) {
		fprintf(o, "\"ip\":\"0x%" PRIx64 "\"", pc);
		sep = ",";
	}
	if (f & SCRIPT_F_SYM) {
		fprintf(o, "%s\"sym\":", sep);
		json__string(o, w->sym ? w->sym : "[unknown]");
		sep = ",";
		if ((f & SCRIPT_F_SYMOFF) && w->sym)
			fprintf(o, ",\"symoff\":%" PRIu64, w->off);
	}
	if (f & SCRIPT_F_DSO) {
		fprintf(o, "%s\"dso\":", sep);
		json__string(o, w->dso);
	}
}

/* "type", then the fields every record has */
static void json_start(const struct ctx *c, unsigned f, const char *type, const char *comm,
    int32_t pid, int32_t tid, int cpu, uint64_t t)
{
	FILE *o = c->f;
	fprintf(o, "{\"type\":\"%s\"", type);
	if (f & SCRIPT_F_COMM) {
		fputs(",\"comm\":", o);
		json__string(o, comm);
	}
	if (f & SCRIPT_F_PID)
		fprintf(o, ",\"pid\":%d", (int)pid);
	if (f & SCRIPT_F_TID)
		fprintf(o, ",\"tid\":%d", (int)tid);
	if ((f & SCRIPT_F_CPU) && cpu >= 0)
		fprintf(o, ",\"cpu\":%d", cpu);
	if (f & SCRIPT_F_TIME)
		fprintf(o, ",\"time\":%" PRIu64 ".%09" PRIu64, t / 1000000000u, t % 1000000000u);
}

static void json_sample(const struct ctx *c, const struct prof_sample *s)
{
	struct profile *p = c->p;
	FILE *o = c->f;
	/* JSON has a place for every field: pid too (cpu where samples carry it) */
	unsigned f = c->o->fields_set ? c->o->fields : fields_of(c, s->ev) | SCRIPT_F_PID;
	const struct prof_frame *fr;
	const uint64_t *pcs;
	const uint8_t *user;
	struct where w;
	int n = profile__frames(p, s->stack, 0, &fr);
	if (n < 0)
		return;                 /* out of memory: profile__nomem fails the run */
	profile__stack_pcs(p, s->stack, &pcs, &user);
	json_start(c, f, "sample", s->comm, s->pid, s->tid, s->cpu, s->time);
	if (f & SCRIPT_F_EVENT) {
		fputs(",\"event\":", o);
		json__string(o, p->ev[s->ev].name);
	}
	if (f & SCRIPT_F_PERIOD)
		fprintf(o, ",\"period\":%" PRIu64, s->period);
	if (f & (SCRIPT_F_IP | SCRIPT_F_SYM | SCRIPT_F_DSO)) {
		where(p, &fr[0], 0, &w);
		putc(',', o);
		json_where(o, f & ~SCRIPT_F_CALLCHAIN, pcs[0], &w);
	}
	if ((f & SCRIPT_F_CALLCHAIN) && !c->o->hide_callchain &&
	    (p->ev[s->ev].flags & PMC_F_CALLCHAIN)) {
		fputs(",\"callchain\":[", o);
		for (int k = 0; k < n; k++) {
			where(p, &fr[k], prof_pc_is_caller(user, (uint32_t)k) &&
			    !(user[k] & PROF_PC_UNWOUND), &w);
			fputs(k ? ",{" : "{", o);
			json_where(o, f | SCRIPT_F_IP, pcs[k] - (prof_pc_is_caller(user, (uint32_t)k) &&
			    (user[k] & PROF_PC_UNWOUND) ? 1 : 0), &w);
			putc('}', o);
		}
		putc(']', o);
	}
	fputs("}\n", o);
}

static const char *const side_names[] = { "COMM", "FORK", "EXIT", "MMAP" };

static void print_side(const struct ctx *c, const struct prof_side *b)
{
	FILE *o = c->f;
	/* the layout of the first event's samples, as perf's */
	unsigned f = fields_of(c, c->p->nev ? 0 : -1);
	int chain = c->p->nev && chain_mode(c, 0, f);
	if (c->o->json) {
		json_start(c, c->o->fields_set ? f : f | SCRIPT_F_PID, side_names[b->type], b->comm,
		    b->pid, b->tid, -1, b->time);
		switch (b->type) {
		case PROF_SB_COMM:
			fputs(",\"name\":", o);
			json__string(o, b->name);
			fprintf(o, ",\"exec\":%s", b->exec ? "true" : "false");
			break;
		case PROF_SB_FORK:
		case PROF_SB_EXIT:
			fprintf(o, ",\"ppid\":%d,\"ptid\":%d", (int)b->ppid, (int)b->ptid);
			break;
		case PROF_SB_MMAP:
			fprintf(o, ",\"start\":\"0x%" PRIx64 "\",\"len\":\"0x%" PRIx64 "\",\"pgoff\":\"0x%"
			    PRIx64 "\",\"path\":", b->start, b->len, b->pgoff);
			json__string(o, b->name);
			break;
		}
		fputs("}\n", o);
		return;
	}
	start(c, f, chain, b->comm, b->pid, b->tid, -1, b->time);
	switch (b->type) {
	case PROF_SB_COMM:
		fprintf(o, "PERF_RECORD_COMM%s: %s:%d/%d\n", b->exec ? " exec" : "", b->name,
		    (int)b->pid, (int)b->tid);
		break;
	case PROF_SB_FORK:
	case PROF_SB_EXIT:
		fprintf(o, "PERF_RECORD_%s(%d:%d):(%d:%d)\n", side_names[b->type], (int)b->pid,
		    (int)b->tid, (int)b->ppid, (int)b->ptid);
		break;
	case PROF_SB_MMAP:
		/* perf's MMAP form: the recording keeps no device or inode for MMAP2's */
		fprintf(o, "PERF_RECORD_MMAP %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
		    (int)b->pid, (int)b->tid, b->start, b->len, b->pgoff,
		    b->prot && !(b->prot & PROT_EXEC) ? 'r' : 'x', b->name);
		break;
	}
}

/* Side-band records pass the task and time filters. */
static int side_passes(struct profile *p, const struct script_opts *o, const struct prof_side *b)
{
	if (b->type == PROF_SB_MMAP ? !o->show_mmap : !o->show_task)
		return 0;
	struct prof_filter flt = o->flt;
	struct prof_sample s = { .pid = b->pid, .tid = b->tid, .time = b->time, .comm = b->comm };
	flt.ev = -1;
	flt.cpus = flt.dsos = flt.syms = NULL;
	return profile__match(p, &flt, &s);
}

int script__print(FILE *f, struct profile *p, const struct script_opts *o)
{
	struct ctx c = { f, p, o, 0, NULL, 0 };
	size_t n = 0, cap = p->ns + (o->show_task || o->show_mmap ? p->nsb : 0);
	struct item *it = malloc((cap ? cap : 1) * sizeof(*it));
	if (!it)
		return -1;
	profile__resolve(p);
	for (size_t i = 0; i < p->nev; i++) {
		int w = p->ev[i].name ? (int)strlen(p->ev[i].name) : 0;
		if (w > c.name_width)
			c.name_width = w;
	}
	for (size_t i = 0; i < p->ns; i++) {
		struct prof_sample s;
		profile__sample(p, i, &s);
		if (profile__match(p, &o->flt, &s))
			it[n++] = (struct item){ s.time, (uint32_t)i, 0 };
	}
	for (size_t i = 0; cap > p->ns && i < p->nsb; i++)
		if (side_passes(p, o, &p->sb[i]))
			it[n++] = (struct item){ p->sb[i].time, (uint32_t)i, 1 };
	qsort(it, n, sizeof(*it), item_cmp);
	for (size_t i = 0; i < n && !ferror(f); i++) {
		struct prof_sample s;
		if (it[i].side) {
			print_side(&c, &p->sb[it[i].ix]);
			continue;
		}
		profile__sample(p, it[i].ix, &s);
		if (o->json)
			json_sample(&c, &s);
		else
			text_sample(&c, &s);
	}
	free(it);
	free(c.dn);
	return ferror(f) ? -1 : 0;
}
