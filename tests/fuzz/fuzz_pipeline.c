/*
 * fuzz_pipeline.c — libFuzzer harness for the whole analysis pipeline: the
 * input (a pmc log or a perf.data, chosen by its magic as `pmc report`
 * chooses) is loaded into a profile (analysis/input/input.c, profile.c), symbols
 * resolved (no kallsyms, no perf maps: only what the input names), then the
 * text report (flat, --children, -g caller and callee with a depth and a
 * threshold, --sort with srcline), JSON, every exporter and pmc script's
 * text and JSON lines (with the side-band records kept) are written to
 * /dev/null.  The first input byte picks the options, so the fuzzer explores
 * them too; with no call graph and no --children the profile is loaded with
 * leaves only, as `pmc report` loads it for a flat report (the exporters
 * then get one-frame stacks); without a time window it is loaded with sums
 * (prof_load_opts.sums: speedscope and script then list the sums), and one
 * bit reads a perf.data in file order (input_order).  Built by `make fuzz`
 * (docs/fuzzing.md); replayed by the normal suite.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "profile/profile.h"
#include "export/export.h"
#include "report/report.h"
#include "report/script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *sorts[] = { "comm,dso,sym", "sym", "pid,tid,cpu", "dso,srcline" };
	struct prof_load_opts lo = { 0 };
	struct report_opts o;
	struct profile *p = NULL;
	char path[64];
	uint8_t sel;
	int fd;

	if (size < 1)
		return 0;
	sel = data[0];
	data++, size--;
	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		return 0;
	if ((fd = memfd_create("fuzz.log", MFD_CLOEXEC)) < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	lo.sym.demangle = 1;
	lo.sideband = 1;
	lo.sym.kallsyms = "/nonexistent/kallsyms";
	lo.sym.perfmap_dir = "/nonexistent";
	memset(&o, 0, sizeof(o));
	o.flt.ev = -1;
	o.callgraph = (sel & 3) == 0 ? -1 : (sel & 3) == 1 ? TREE_CALLER : TREE_CALLEE;
	o.cg_depth = (sel >> 2) & 3;
	o.cg_threshold = (sel & 16) ? 0.5 : 0;
	o.children = (sel >> 5) & 1;
	o.inline_frames = (sel >> 6) & 1;
	o.input_name = "fuzz";
	if (report__parse_sort(&o, sorts[(sel >> 3) & 3]) != 0)
		abort();
	if (sel & 0x80) {
		o.flt.pids = "1,2";
		if (profile__parse_time(&o.flt, (sel & 0x40) ? "10%/2,50%/2" : "0.001,1000000000") != 0)
			abort();
	}
	lo.leaf_only = !report__uses_chains(&o);
	lo.sums = !(sel & 0x80);
	lo.input_order = (sel >> 2) & 1;
	if (profile__load(&p, path, &lo) != 0) {
		close(fd);
		return 0;
	}
	close(fd);
	profile__resolve(p);

	(void)report__text(devnull, p, &o);
	(void)report__json(devnull, p, &o);
	(void)export__folded(devnull, p, &o);
	(void)export__pprof(devnull, p, &o);
	(void)export__speedscope(devnull, p, &o);
	(void)export__callgrind(devnull, p, &o);
	(void)export__svg(devnull, p, &o);
	(void)export__html(devnull, p, &o);
	struct script_opts so;
	script__init(&so);
	so.flt = o.flt;
	so.show_task = so.show_mmap = 1;
	so.no_inline = !o.inline_frames;
	so.hide_callchain = (sel >> 2) & 1;
	(void)script__print(devnull, p, &so);
	so.json = 1;
	so.fields_set = (sel >> 3) & 1;
	(void)script__print(devnull, p, &so);
	fflush(devnull);
	profile__free(p);
	return 0;
}
