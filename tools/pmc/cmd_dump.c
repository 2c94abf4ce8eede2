/*
 * cmd_dump.c — `pmc dump`: every record of a pmc log, one line each (like
 * pmcstat -R without analysis, or perf script -D), or one JSON object per
 * line with --json.  Reads files, pipes and (with --follow) logs still being
 * written; says so, and exits 1, when a log was cut short.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmc.h"
#include "pmclog.h"
#include "cli.h"
#include "util/json.h"
#include "perfdata/perfdata.h"

static int json;

/* ---- one field at a time, as text (name=value) or JSON ("name":value) -- */

static int nfield;

static void key(const char *k)
{
	if (json)
		printf("%s\"%s\":", nfield++ ? "," : "", k);
	else
		printf(" %s=", k);
}

static void f_u(const char *k, uint64_t v)
{
	key(k);
	printf("%" PRIu64, v);
}

static void f_i(const char *k, int64_t v)
{
	key(k);
	printf("%" PRId64, v);
}

static void f_x(const char *k, uint64_t v)
{
	key(k);
	printf(json ? "\"0x%" PRIx64 "\"" : "0x%" PRIx64, v);
}

static void f_s(const char *k, const char *s)
{
	key(k);
	if (json) {
		fflush(stdout);
		json__string(stdout, s);
	} else {
		/* quoted, with quotes, backslashes and control characters escaped */
		putchar('"');
		for (; s && *s; s++) {
			unsigned char c = (unsigned char)*s;
			if (c == '"' || c == '\\')
				printf("\\%c", c);
			else if (c < 0x20 || c == 0x7f)
				printf("\\x%02x", c);
			else
				putchar(c);
		}
		putchar('"');
	}
}

static void f_bid(const char *k, const uint8_t *b, uint32_t n)
{
	char hex[41];
	if (n == 0)
		return;
	for (uint32_t i = 0; i < n && i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	f_s(k, hex);
}

static void f_chain(const struct pmclog_ev_callchain *cc)
{
	key("chain");
	putchar('[');
	for (uint32_t i = 0; i < cc->pl_npc; i++) {
		int u = cc->pl_pcflags[i] & PMC_CC_F_USERSPACE;
		if (json)
			printf("%s{\"pc\":\"0x%" PRIx64 "\",\"user\":%s}", i ? "," : "",
			    (uint64_t)cc->pl_pc[i], u ? "true" : "false");
		else
			printf("%s%c:0x%" PRIx64, i ? " " : "", u ? 'u' : 'k', (uint64_t)cc->pl_pc[i]);
	}
	putchar(']');
}

static const char *drop_reason(uint32_t r)
{
	switch (r) {
	case PMCLOG_DROP_RING: return "ring-full";
	case PMCLOG_DROP_SAMPLES: return "kernel-dropped";
	case PMCLOG_DROP_WRITER: return "writer-discarded";
	case PMCLOG_DROP_CORRUPT: return "corrupt-ring";
	default: return "unknown";
	}
}

static void print_record(const struct pmclog_ev *ev)
{
	const char *name = pmclog_type_name(ev->pl_type);
	char tbuf[64];

	snprintf(tbuf, sizeof(tbuf), "%" PRIu64 ".%09" PRIu64,
	    ev->pl_time / 1000000000u, ev->pl_time % 1000000000u);
	nfield = 0;
	if (json) {
		printf("{");
		f_i("offset", (int64_t)ev->pl_offset);
		f_u("time", ev->pl_time);
		f_s("type", name ? name : "?");
		f_u("length", (uint64_t)ev->pl_len);
	} else {
		printf("%10lld %s %s", (long long)ev->pl_offset, tbuf, name ? name : "?");
	}

	switch (ev->pl_type) {
	case PMCLOG_TYPE_HEADER: {
		const struct pmclog_ev_header *h = &ev->pl_u.pl_h;
		char fv[32];
		snprintf(fv, sizeof(fv), "%u.%u", h->pl_format_major, h->pl_format_minor);
		f_s("format", fv);
		f_x("version", h->pl_version);
		f_s("libversion", h->pl_libversion);
		f_s("host", h->pl_hostname);
		f_s("kernel", h->pl_kernel);
		f_s("cpu", h->pl_cpudesc);
		f_s("arch", pmc_name_of_cputype((enum pmc_cputype)h->pl_arch) ?
		    pmc_name_of_cputype((enum pmc_cputype)h->pl_arch) : "?");
		f_u("clockid", h->pl_clockid);
		f_u("start_realtime", h->pl_start_realtime);
		f_u("start_clock", h->pl_start_clock);
		f_s("compressed", (h->pl_flags & PMCLOG_HDR_F_ZSTD) ? "zstd" : "no");
		f_s("cmdline", h->pl_cmdline);
		break;
	}
	case PMCLOG_TYPE_INITIALIZE:
		f_x("version", ev->pl_u.pl_i.pl_version);
		f_x("arch", ev->pl_u.pl_i.pl_arch);
		f_u("tsc_freq", ev->pl_u.pl_i.pl_tsc_freq);
		f_u("realtime_sec", (uint64_t)ev->pl_u.pl_i.pl_ts.tv_sec);
		f_s("cpuid", ev->pl_u.pl_i.pl_cpuid);
		break;
	case PMCLOG_TYPE_CLOSELOG:
		break;
	case PMCLOG_TYPE_DROPNOTIFY:
		f_u("count", ev->pl_u.pl_dn.pl_count);
		f_x("pmcid", ev->pl_u.pl_dn.pl_pmcid);
		f_i("cpu", ev->pl_u.pl_dn.pl_cpu);
		f_s("reason", drop_reason(ev->pl_u.pl_dn.pl_reason));
		break;
	case PMCLOG_TYPE_PMCALLOCATE:
		f_x("pmcid", ev->pl_u.pl_a.pl_pmcid);
		f_s("event", ev->pl_u.pl_a.pl_evname);
		f_x("evcode", ev->pl_u.pl_a.pl_event);
		f_s("mode", pmc_name_of_mode((enum pmc_mode)ev->pl_u.pl_a.pl_mode) ?
		    pmc_name_of_mode((enum pmc_mode)ev->pl_u.pl_a.pl_mode) : "?");
		f_x("flags", ev->pl_u.pl_a.pl_flags);
		f_u(ev->pl_u.pl_a.pl_freq ? "freq" : "rate", ev->pl_u.pl_a.pl_rate);
		f_i("cpu", ev->pl_u.pl_a.pl_cpu);
		break;
	case PMCLOG_TYPE_PMCALLOCATEDYN:
		f_x("pmcid", ev->pl_u.pl_ad.pl_pmcid);
		f_s("event", ev->pl_u.pl_ad.pl_evname);
		f_x("evcode", ev->pl_u.pl_ad.pl_event);
		f_x("flags", ev->pl_u.pl_ad.pl_flags);
		break;
	case PMCLOG_TYPE_PMCATTACH:
		f_x("pmcid", ev->pl_u.pl_t.pl_pmcid);
		f_i("pid", ev->pl_u.pl_t.pl_pid);
		f_s("path", ev->pl_u.pl_t.pl_pathname);
		break;
	case PMCLOG_TYPE_PMCDETACH:
		f_x("pmcid", ev->pl_u.pl_d.pl_pmcid);
		f_i("pid", ev->pl_u.pl_d.pl_pid);
		break;
	case PMCLOG_TYPE_PROCCSW:
		f_x("pmcid", ev->pl_u.pl_c.pl_pmcid);
		f_i("pid", ev->pl_u.pl_c.pl_pid);
		f_i("tid", ev->pl_u.pl_c.pl_tid);
		f_i("cpu", ev->pl_u.pl_c.pl_cpu);
		f_u("value", ev->pl_u.pl_c.pl_value);
		break;
	case PMCLOG_TYPE_PROCEXEC:
		f_x("pmcid", ev->pl_u.pl_x.pl_pmcid);
		f_i("pid", ev->pl_u.pl_x.pl_pid);
		f_i("tid", ev->pl_u.pl_x.pl_tid);
		f_x("baseaddr", ev->pl_u.pl_x.pl_baseaddr);
		f_x("dynaddr", ev->pl_u.pl_x.pl_dynaddr);
		f_s("path", ev->pl_u.pl_x.pl_pathname);
		break;
	case PMCLOG_TYPE_PROCEXIT:
		f_x("pmcid", ev->pl_u.pl_e.pl_pmcid);
		f_i("pid", ev->pl_u.pl_e.pl_pid);
		f_i("tid", ev->pl_u.pl_e.pl_tid);
		f_u("value", ev->pl_u.pl_e.pl_value);
		break;
	case PMCLOG_TYPE_PROCFORK:
		f_i("ppid", ev->pl_u.pl_f.pl_oldpid);
		f_i("pid", ev->pl_u.pl_f.pl_newpid);
		f_i("ptid", ev->pl_u.pl_f.pl_oldtid);
		f_i("tid", ev->pl_u.pl_f.pl_newtid);
		break;
	case PMCLOG_TYPE_SYSEXIT:
		f_i("pid", ev->pl_u.pl_se.pl_pid);
		break;
	case PMCLOG_TYPE_USERDATA:
		f_x("userdata", ev->pl_u.pl_u.pl_userdata);
		break;
	case PMCLOG_TYPE_MAP_IN:
		f_i("pid", ev->pl_u.pl_mi.pl_pid);
		f_x("start", ev->pl_u.pl_mi.pl_start);
		f_x("len", ev->pl_u.pl_mi.pl_len);
		f_x("pgoff", ev->pl_u.pl_mi.pl_pgoff);
		f_x("prot", ev->pl_u.pl_mi.pl_prot);
		f_x("mflags", ev->pl_u.pl_mi.pl_mflags);
		f_bid("buildid", ev->pl_u.pl_mi.pl_buildid, ev->pl_u.pl_mi.pl_buildid_len);
		f_s("path", ev->pl_u.pl_mi.pl_pathname);
		break;
	case PMCLOG_TYPE_MAP_OUT:
		f_i("pid", ev->pl_u.pl_mo.pl_pid);
		f_x("start", ev->pl_u.pl_mo.pl_start);
		f_x("end", ev->pl_u.pl_mo.pl_end);
		break;
	case PMCLOG_TYPE_CALLCHAIN:
		f_x("pmcid", ev->pl_u.pl_cc.pl_pmcid);
		f_i("pid", (int32_t)ev->pl_u.pl_cc.pl_pid);
		f_i("tid", (int32_t)ev->pl_u.pl_cc.pl_tid);
		f_u("cpu", ev->pl_u.pl_cc.pl_cpu);
		f_s("mode", ev->pl_u.pl_cc.pl_usermode ? "user" : "kernel");
		f_u("period", ev->pl_u.pl_cc.pl_period);
		f_u("npc", ev->pl_u.pl_cc.pl_npc);
		/* interned: the record that defines the chain (format 3: a
		 * whole CALLCHAIN, type byte 2 of the raw header) or a
		 * CHAINSAMPLE that refers to it */
		if (ev->pl_u.pl_cc.pl_chain)
			f_u(((const unsigned char *)ev->pl_data)[2] == PMCLOG_TYPE_CALLCHAIN ?
			    "chaindef" : "chainid", ev->pl_u.pl_cc.pl_chain);
		f_chain(&ev->pl_u.pl_cc);
		if (ev->pl_u.pl_cc.pl_nuregs) {      /* --call-graph dwarf */
			f_u("uregs", ev->pl_u.pl_cc.pl_nuregs);
			f_x("uregs_mask", ev->pl_u.pl_cc.pl_uregs_mask);
			f_u("ustack", ev->pl_u.pl_cc.pl_ustack_len);
		}
		if (ev->pl_u.pl_cc.pl_raw)          /* a raw payload (a tracepoint's fields) */
			f_u("raw", ev->pl_u.pl_cc.pl_raw_len);
		break;
	case PMCLOG_TYPE_THR_CREATE:
		f_i("tid", ev->pl_u.pl_tc.pl_tid);
		f_i("pid", ev->pl_u.pl_tc.pl_pid);
		f_x("flags", ev->pl_u.pl_tc.pl_flags);
		f_s("name", ev->pl_u.pl_tc.pl_tdname);
		break;
	case PMCLOG_TYPE_THR_EXIT:
		f_i("tid", ev->pl_u.pl_te.pl_tid);
		f_i("pid", ev->pl_u.pl_te.pl_pid);
		break;
	case PMCLOG_TYPE_PROC_CREATE:
		f_i("pid", ev->pl_u.pl_pc.pl_pid);
		f_x("flags", ev->pl_u.pl_pc.pl_flags);
		f_s("name", ev->pl_u.pl_pc.pl_pcomm);
		break;
	case PMCLOG_TYPE_COMM:
		f_i("pid", ev->pl_u.pl_cm.pl_pid);
		f_i("tid", ev->pl_u.pl_cm.pl_tid);
		f_s("exec", (ev->pl_u.pl_cm.pl_flags & PMCLOG_COMM_F_EXEC) ? "yes" : "no");
		f_s("name", ev->pl_u.pl_cm.pl_comm);
		break;
	case PMCLOG_TYPE_THROTTLE:
		f_x("pmcid", ev->pl_u.pl_th.pl_pmcid);
		f_s("state", ev->pl_u.pl_th.pl_throttled ? "throttled" : "unthrottled");
		f_i("cpu", ev->pl_u.pl_th.pl_cpu);
		break;
	case PMCLOG_TYPE_TRACEDATA:
		f_u("total", ev->pl_u.pl_td.pl_total);
		f_u("at", ev->pl_u.pl_td.pl_offset);
		f_u("bytes", ev->pl_u.pl_td.pl_len);
		break;
	case PMCLOG_TYPE_SWITCH:
		f_x("pmcid", ev->pl_u.pl_sw.pl_pmcid);
		f_i("pid", ev->pl_u.pl_sw.pl_pid);
		f_i("tid", ev->pl_u.pl_sw.pl_tid);
		f_i("cpu", ev->pl_u.pl_sw.pl_cpu);
		f_s("dir", (ev->pl_u.pl_sw.pl_flags & PMCLOG_SWITCH_F_OUT) ?
		    ((ev->pl_u.pl_sw.pl_flags & PMCLOG_SWITCH_F_PREEMPT) ? "out-preempt" : "out") :
		    "in");
		break;
	case PMCLOG_TYPE_KSYMSRC:
		f_s("path", ev->pl_u.pl_ks.pl_pathname);
		f_s("release", ev->pl_u.pl_ks.pl_release);
		f_bid("buildid", ev->pl_u.pl_ks.pl_buildid, ev->pl_u.pl_ks.pl_buildid_len);
		break;
	case PMCLOG_TYPE_KSYMBOL:
		f_x("addr", ev->pl_u.pl_ksym.pl_addr);
		f_x("len", ev->pl_u.pl_ksym.pl_len);
		f_u("ksymtype", ev->pl_u.pl_ksym.pl_ksymtype);
		f_s("state", (ev->pl_u.pl_ksym.pl_flags & 1) ? "unregistered" : "registered");
		f_s("name", ev->pl_u.pl_ksym.pl_name);
		break;
	case PMCLOG_TYPE_CHAIN:
		f_u("chainid", ev->pl_u.pl_cc.pl_chain);
		f_x("pmcid", ev->pl_u.pl_cc.pl_pmcid);
		f_i("pid", (int32_t)ev->pl_u.pl_cc.pl_pid);
		f_u("npc", ev->pl_u.pl_cc.pl_npc);
		f_chain(&ev->pl_u.pl_cc);
		break;
	case PMCLOG_TYPE_CHAINSAMPLE:     /* the reader hands these out as CALLCHAIN */
		break;
	}
	puts(json ? "}" : "");
}

static void usage(FILE *f)
{
	fprintf(f,
	    "usage: pmc dump [-i FILE] [--json] [-f|--follow]\n"
	    "\n"
	    "Print every record of a pmc log, one line each: byte offset, timestamp\n"
	    "(seconds on the log's clock), record type and its fields; call chains\n"
	    "inline as k:PC (kernel) and u:PC (user).  A sample written as a reference\n"
    "to an interned call chain (CHAIN record) prints as the CALLCHAIN it stands\n"
    "for, with the chain's id (chainid).\n"
	    "\n"
	    "  -i, --input FILE   the log (default, or '-': standard input); a perf.data\n"
	    "                     (file, pipe mode or directory) is read too\n"
	    "      --json         one JSON object per line instead\n"
	    "  -f, --follow       the log is still being written: wait for more\n"
	    "                     records until its CLOSELOG (like tail -f)\n"
	    "  -h, --help         this help\n"
	    "\n"
	    "Exit status: 0 success; 1 the log is truncated, corrupt, or not a pmc\n"
	    "log (what could be read is printed first); 2 a usage error.\n");
}

/* A perf.data (detected by its magic): the same records, through
 * analysis/perfdata's translation. */
static int dump_perfdata(int fd, const char *shown)
{
	struct perfdata *pd = perfdata__open(fd);
	struct pmclog_ev *ev;
	int rc = CLI_EXIT_OK;

	if (!pd) {
		cli_warn("%s: %s", shown, pmc_errmsg());
		return CLI_EXIT_FAIL;
	}
	ev = malloc(sizeof(*ev));
	if (!ev) {
		perfdata__close(pd);
		cli_warn("out of memory");
		return CLI_EXIT_FAIL;
	}
	while (perfdata__read(pd, ev) == 0)
		print_record(ev);
	fflush(stdout);
	if (ev->pl_state == PMCLOG_ERROR) {
		cli_warn("%s: %s", shown, pmc_errmsg());
		rc = CLI_EXIT_FAIL;
	} else if (perfdata__truncated(pd)) {
		cli_warn("%s: perf.data truncated (the records before the cut were printed)", shown);
		rc = CLI_EXIT_FAIL;
	}
	if (cli_flush_stdout(0) != 0)
		rc = CLI_EXIT_FAIL;
	free(ev);
	perfdata__close(pd);
	return rc;
}

int cmd_dump(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'J' },
		{ "follow", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = "-", *shown;
	int follow = 0, c, rc = CLI_EXIT_OK;
	struct pmclog_ev *ev;
	void *p;

	json = 0;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:fh", opts, NULL)) != -1) {
		switch (c) {
		case 'i': path = cli_file_arg("-i", optarg); break;
		case 'J': json = 1; break;
		case 'f': follow = 1; break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default:  cli_bad_option(c, argv);
		}
	}
	if (optind < argc)
		cli_usage_error("unexpected argument '%s' (the log is given with -i)", argv[optind]);

	shown = strcmp(path, "-") == 0 ? "<stdin>" : path;
	if (!follow) {
		cli_fifo_begin(path, 0);
		int fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY | O_CLOEXEC);
		cli_fifo_end();
		if (fd >= 0 && perfdata__sniff(fd) == 1) {
			rc = dump_perfdata(fd, shown);
			if (fd != 0)
				close(fd);
			return rc;
		}
		if (fd > 0)
			close(fd);
	}
	p = pmclog_open_file(path);
	if (p)
		pmclog_set_extensions(p, 1);   /* dump shows every record */
	if (!p) {
		cli_warn("%s: cannot open: %s", shown, strerror(errno));
		return CLI_EXIT_FAIL;
	}
	if (follow)
		pmclog_set_follow(p, 1);
	ev = malloc(sizeof(*ev));
	if (!ev) {
		pmclog_close(p);
		cli_warn("out of memory");
		return CLI_EXIT_FAIL;
	}
	for (;;) {
		if (pmclog_read(p, ev) == 0) {
			print_record(ev);
			if (follow)
				fflush(stdout);
			continue;
		}
		if (ev->pl_state == PMCLOG_REQUIRE_DATA) {
			fflush(stdout);
			usleep(100000);
			continue;
		}
		break;
	}
	fflush(stdout);
	if (ev->pl_state == PMCLOG_ERROR) {
		cli_warn("%s: %s", shown, pmclog_errmsg(p));
		rc = CLI_EXIT_FAIL;
	} else {
		off_t at, last;
		if (pmclog_truncated(p, &at, &last)) {
			if (!pmclog_header(p) && at < 8)
				cli_warn("%s: log truncated at byte %lld (no complete record)",
				    shown, (long long)at);
			else if (at == last)
				cli_warn("%s: log truncated at byte %lld (it ends without a "
				    "CLOSELOG record: the writer did not finish)", shown, (long long)at);
			else
				cli_warn("%s: log truncated at byte %lld (last complete record at %lld)",
				    shown, (long long)at, (long long)last);
			rc = CLI_EXIT_FAIL;
		}
	}
	if (cli_flush_stdout(0) != 0)
		rc = CLI_EXIT_FAIL;
	free(ev);
	pmclog_close(p);
	return rc;
}
