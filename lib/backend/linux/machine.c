/*
 * machine.c — the Linux backend's description of this machine as hwpmc
 * would give it (CPU type, PMC classes, counter widths and counts), built
 * from the host facts of lib/common/sysinfo.c.  Only this backend describes
 * the host; the simulator describes the machine it simulates.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "backend/backend.h"
#include "backend/linux/machine.h"
#include "common/sysinfo.h"

static enum pmc_cputype intel_cputype(int model)
{
	switch (model) {
	case 0x2A: return PMC_CPU_INTEL_SANDYBRIDGE;
	case 0x2D: return PMC_CPU_INTEL_SANDYBRIDGE_XEON;
	case 0x3A: return PMC_CPU_INTEL_IVYBRIDGE;
	case 0x3E: return PMC_CPU_INTEL_IVYBRIDGE_XEON;
	case 0x3C: case 0x45: case 0x46: return PMC_CPU_INTEL_HASWELL;
	case 0x3F: return PMC_CPU_INTEL_HASWELL_XEON;
	case 0x3D: case 0x47: return PMC_CPU_INTEL_BROADWELL;
	case 0x4F: case 0x56: return PMC_CPU_INTEL_BROADWELL_XEON;
	case 0x4E: case 0x5E: case 0x8E: case 0x9E: return PMC_CPU_INTEL_SKYLAKE;
	case 0x55: return PMC_CPU_INTEL_SKYLAKE_XEON;
	case 0x7D: case 0x7E: return PMC_CPU_INTEL_ICELAKE;
	case 0x6A: case 0x6C: return PMC_CPU_INTEL_ICELAKE_XEON;
	case 0x97: case 0x9A: case 0xB7: case 0xBA: return PMC_CPU_INTEL_ALDERLAKE;
	case 0xBE: return PMC_CPU_INTEL_ALDERLAKEN;
	case 0xAA: case 0xAC: return PMC_CPU_INTEL_METEOR_LAKE;
	case 0x8F: return PMC_CPU_INTEL_SAPPHIRE_RAPIDS;
	case 0xCF: return PMC_CPU_INTEL_EMERALD_RAPIDS;
	case 0xAD: case 0xAE: return PMC_CPU_INTEL_GRANITE_RAPIDS;
	case 0x5C: return PMC_CPU_INTEL_ATOM_GOLDMONT;
	case 0x7A: return PMC_CPU_INTEL_ATOM_GOLDMONT_P;
	case 0x86: case 0x96: case 0x9C: return PMC_CPU_INTEL_ATOM_TREMONT;
	default: return PMC_CPU_GENERIC;
	}
}

static void add_class(struct pmc_machine *m, enum pmc_class c, uint32_t num,
    uint32_t width, uint32_t caps)
{
	if (m->nclass >= PMC_CLASS_MAX)
		return;
	m->classes[m->nclass].pm_class = c;
	m->classes[m->nclass].pm_num = num;
	m->classes[m->nclass].pm_width = width;
	m->classes[m->nclass].pm_caps = caps;
	m->nclass++;
}

static int path_exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

int linux__describe(struct pmc_machine *m)
{
	const uint32_t rw = PMC_CAP_READ | PMC_CAP_WRITE;
	const uint32_t modes = PMC_CAP_USER | PMC_CAP_SYSTEM;
	uint32_t hwnum = 0, hwwidth = 48;

	const struct pmc_sys_cpu *c = pmc__sys_cpu();

	memset(m, 0, sizeof(*m));
	m->ncpu = pmc__sys_ncpu();
	m->has_hw_pmu = pmc__sys_has_hw_pmu();
	snprintf(m->cpu_desc, sizeof(m->cpu_desc), "%s", c->desc);

	enum pmc_class core = PMC_CLASS_IAP;
#if defined(__aarch64__)
	m->cputype = PMC_CPU_ARMV8_CORTEX_A76;
	core = PMC_CLASS_ARMV8;
	hwnum = 6;
	hwwidth = 64;
#else
	if (!strcmp(c->vendor, "AuthenticAMD") || !strcmp(c->vendor, "HygonGenuine")) {
		m->cputype = PMC_CPU_AMD_K8;
		core = PMC_CLASS_K8;
		hwnum = c->family >= 0x15 ? 6 : 4;
	} else if (!strcmp(c->vendor, "GenuineIntel") && c->family == 6) {
		m->cputype = intel_cputype(c->model);
		hwnum = 8;
	} else {
		m->cputype = PMC_CPU_GENERIC;
	}
#endif
	if (m->has_hw_pmu) {
		uint32_t hwcaps = rw | modes | PMC_CAP_INTERRUPT | PMC_CAP_EDGE |
		    PMC_CAP_THRESHOLD | PMC_CAP_INVERT | PMC_CAP_QUALIFIER | PMC_CAP_PRECISE;
		add_class(m, core, hwnum, hwwidth, hwcaps);
		add_class(m, PMC_CLASS_GENERIC, hwnum, 64, hwcaps);
		add_class(m, PMC_CLASS_CACHE, hwnum, 64, hwcaps);
		add_class(m, PMC_CLASS_RAW, hwnum, hwwidth, hwcaps);
	}
	if (path_exists("/sys/bus/event_source/devices/msr/events/tsc"))
		add_class(m, PMC_CLASS_TSC, 1, 64, PMC_CAP_READ | PMC_CAP_SYSWIDE);
	/* Software events are virtual: the kernel has no limit on them; 16
	 * rows is what hwpmc's SOFT class offers, and what pmc_pmcinfo shows. */
	add_class(m, PMC_CLASS_SOFT, 16, 64, rw | modes | PMC_CAP_INTERRUPT);
	if (path_exists("/sys/bus/event_source/devices/tracepoint"))
		add_class(m, PMC_CLASS_TRACEPOINT, 16, 64, rw | PMC_CAP_INTERRUPT);
	add_class(m, PMC_CLASS_PMU, 16, 64, rw | PMC_CAP_SYSWIDE);
	return 0;
}
