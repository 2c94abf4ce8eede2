/*
 * event_to_json for FreeBSD programs (<pmcformat.h>): one log record as one
 * line of JSON, the form usr.sbin/pmc's `filter -j` writes.  FreeBSD's
 * libpmc does this in C++ (libpmc_json.cc); here the record is rendered in
 * C (pmc_freebsd_event_json) and pmcformat.h wraps it in the std::string
 * FreeBSD's declaration returns.  Keys are the pmclog_ev member names
 * without their "pl_" prefix; "type" is the record type's FreeBSD name.
 */
#include <pmcformat.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct jbuf {
	char *s;
	size_t len, cap;
	int failed;
};

static void jput(struct jbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void jput(struct jbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->failed = 1;
			return;
		}
		if ((size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			return;
		}
		/* not GROW: compat/ sees the public headers only (include/freebsd) */
		size_t cap = (b->cap + (size_t)n) * 2;
		char *s = realloc(b->s, cap);
		if (s == NULL) {
			b->failed = 1;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
}

/* A JSON string: control characters, quotes and backslashes escaped. */
static void jstr(struct jbuf *b, const char *key, const char *v)
{
	jput(b, ", \"%s\": \"", key);
	for (const unsigned char *p = (const unsigned char *)(v ? v : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			jput(b, "\\%c", *p);
		else if (*p < 0x20)
			jput(b, "\\u%04x", *p);
		else
			jput(b, "%c", *p);
	}
	jput(b, "\"");
}

static void jnum(struct jbuf *b, const char *key, uint64_t v)
{
	jput(b, ", \"%s\": %" PRIu64, key, v);
}

static void jint(struct jbuf *b, const char *key, int64_t v)
{
	jput(b, ", \"%s\": %" PRId64, key, v);
}

static void jhex(struct jbuf *b, const char *key, uint64_t v)
{
	jput(b, ", \"%s\": \"0x%" PRIx64 "\"", key, v);
}

static const char *type_name(enum pmclog_type t)
{
	switch (t) {
	case PMCLOG_TYPE_CLOSELOG: return "closelog";
	case PMCLOG_TYPE_DROPNOTIFY: return "dropnotify";
	case PMCLOG_TYPE_INITIALIZE: return "initialize";
	case PMCLOG_TYPE_PMCALLOCATE: return "pmcallocate";
	case PMCLOG_TYPE_PMCATTACH: return "pmcattach";
	case PMCLOG_TYPE_PMCDETACH: return "pmcdetach";
	case PMCLOG_TYPE_PROCCSW: return "proccsw";
	case PMCLOG_TYPE_PROCEXEC: return "procexec";
	case PMCLOG_TYPE_PROCEXIT: return "procexit";
	case PMCLOG_TYPE_PROCFORK: return "procfork";
	case PMCLOG_TYPE_SYSEXIT: return "sysexit";
	case PMCLOG_TYPE_USERDATA: return "userdata";
	case PMCLOG_TYPE_MAP_IN: return "map_in";
	case PMCLOG_TYPE_MAP_OUT: return "map_out";
	case PMCLOG_TYPE_CALLCHAIN: return "callchain";
	case PMCLOG_TYPE_PMCALLOCATEDYN: return "pmcallocatedyn";
	case PMCLOG_TYPE_THR_CREATE: return "thr_create";
	case PMCLOG_TYPE_THR_EXIT: return "thr_exit";
	case PMCLOG_TYPE_PROC_CREATE: return "proc_create";
	default: return "unknown";
	}
}

char *pmc_freebsd_event_json(const struct pmclog_ev *ev)
{
	struct jbuf b = { NULL, 0, 0, 0 };

	jput(&b, "{ \"type\": \"%s\"", type_name(ev->pl_type));
	jnum(&b, "tsc", (uint64_t)ev->pl_ts.tv_sec * 1000000000u + (uint64_t)ev->pl_ts.tv_nsec);
	switch (ev->pl_type) {
	case PMCLOG_TYPE_CALLCHAIN:
		jint(&b, "pid", ev->pl_u.pl_cc.pl_pid);
		jint(&b, "tid", ev->pl_u.pl_cc.pl_tid);
		jhex(&b, "pmcid", ev->pl_u.pl_cc.pl_pmcid);
		jhex(&b, "cpuflags", ev->pl_u.pl_cc.pl_cpuflags);
		jnum(&b, "npc", ev->pl_u.pl_cc.pl_npc);
		jput(&b, ", \"pc\": [");
		for (uint32_t i = 0; i < ev->pl_u.pl_cc.pl_npc && i < PMC_CALLCHAIN_DEPTH_MAX; i++)
			jput(&b, "%s\"0x%" PRIx64 "\"", i ? ", " : " ", (uint64_t)ev->pl_u.pl_cc.pl_pc[i]);
		jput(&b, " ]");
		break;
	case PMCLOG_TYPE_DROPNOTIFY:
		jnum(&b, "count", ev->pl_u.pl_dn.pl_count);
		break;
	case PMCLOG_TYPE_INITIALIZE:
		jhex(&b, "version", ev->pl_u.pl_i.pl_version);
		jhex(&b, "arch", ev->pl_u.pl_i.pl_arch);
		jnum(&b, "tsc_freq", ev->pl_u.pl_i.pl_tsc_freq);
		jstr(&b, "cpuid", ev->pl_u.pl_i.pl_cpuid);
		break;
	case PMCLOG_TYPE_MAP_IN:
		jint(&b, "pid", ev->pl_u.pl_mi.pl_pid);
		jhex(&b, "start", ev->pl_u.pl_mi.pl_start);
		jstr(&b, "pathname", ev->pl_u.pl_mi.pl_pathname);
		break;
	case PMCLOG_TYPE_MAP_OUT:
		jint(&b, "pid", ev->pl_u.pl_mo.pl_pid);
		jhex(&b, "start", ev->pl_u.pl_mo.pl_start);
		jhex(&b, "end", ev->pl_u.pl_mo.pl_end);
		break;
	case PMCLOG_TYPE_PMCALLOCATE:
		jhex(&b, "pmcid", ev->pl_u.pl_a.pl_pmcid);
		jhex(&b, "event", ev->pl_u.pl_a.pl_event);
		jhex(&b, "flags", ev->pl_u.pl_a.pl_flags);
		jnum(&b, "rate", ev->pl_u.pl_a.pl_rate);
		jstr(&b, "evname", ev->pl_u.pl_a.pl_evname);
		break;
	case PMCLOG_TYPE_PMCALLOCATEDYN:
		jhex(&b, "pmcid", ev->pl_u.pl_ad.pl_pmcid);
		jhex(&b, "event", ev->pl_u.pl_ad.pl_event);
		jhex(&b, "flags", ev->pl_u.pl_ad.pl_flags);
		jstr(&b, "evname", ev->pl_u.pl_ad.pl_evname);
		break;
	case PMCLOG_TYPE_PMCATTACH:
		jhex(&b, "pmcid", ev->pl_u.pl_t.pl_pmcid);
		jint(&b, "pid", ev->pl_u.pl_t.pl_pid);
		jstr(&b, "pathname", ev->pl_u.pl_t.pl_pathname);
		break;
	case PMCLOG_TYPE_PMCDETACH:
		jhex(&b, "pmcid", ev->pl_u.pl_d.pl_pmcid);
		jint(&b, "pid", ev->pl_u.pl_d.pl_pid);
		break;
	case PMCLOG_TYPE_PROCCSW:
		jhex(&b, "pmcid", ev->pl_u.pl_c.pl_pmcid);
		jnum(&b, "value", ev->pl_u.pl_c.pl_value);
		jint(&b, "pid", ev->pl_u.pl_c.pl_pid);
		jint(&b, "tid", ev->pl_u.pl_c.pl_tid);
		break;
	case PMCLOG_TYPE_PROCEXEC:
		jhex(&b, "pmcid", ev->pl_u.pl_x.pl_pmcid);
		jint(&b, "pid", ev->pl_u.pl_x.pl_pid);
		jhex(&b, "baseaddr", ev->pl_u.pl_x.pl_baseaddr);
		jhex(&b, "dynaddr", ev->pl_u.pl_x.pl_dynaddr);
		jstr(&b, "pathname", ev->pl_u.pl_x.pl_pathname);
		break;
	case PMCLOG_TYPE_PROCEXIT:
		jhex(&b, "pmcid", ev->pl_u.pl_e.pl_pmcid);
		jnum(&b, "value", ev->pl_u.pl_e.pl_value);
		jint(&b, "pid", ev->pl_u.pl_e.pl_pid);
		break;
	case PMCLOG_TYPE_PROCFORK:
		jint(&b, "oldpid", ev->pl_u.pl_f.pl_oldpid);
		jint(&b, "newpid", ev->pl_u.pl_f.pl_newpid);
		break;
	case PMCLOG_TYPE_SYSEXIT:
		jint(&b, "pid", ev->pl_u.pl_se.pl_pid);
		break;
	case PMCLOG_TYPE_USERDATA:
		jhex(&b, "userdata", ev->pl_u.pl_u.pl_userdata);
		break;
	case PMCLOG_TYPE_THR_CREATE:
		jint(&b, "tid", ev->pl_u.pl_tc.pl_tid);
		jint(&b, "pid", ev->pl_u.pl_tc.pl_pid);
		jhex(&b, "flags", ev->pl_u.pl_tc.pl_flags);
		jstr(&b, "tdname", ev->pl_u.pl_tc.pl_tdname);
		break;
	case PMCLOG_TYPE_THR_EXIT:
		jint(&b, "tid", ev->pl_u.pl_te.pl_tid);
		break;
	case PMCLOG_TYPE_PROC_CREATE:
		jint(&b, "pid", ev->pl_u.pl_pc.pl_pid);
		jhex(&b, "flags", ev->pl_u.pl_pc.pl_flags);
		jstr(&b, "pcomm", ev->pl_u.pl_pc.pl_pcomm);
		break;
	default:
		jnum(&b, "code", (uint64_t)ev->pl_type);
		break;
	}
	jput(&b, " }\n");
	if (b.failed) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
