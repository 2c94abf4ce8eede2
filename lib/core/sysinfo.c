/*
 * sysinfo.c — host facts for the Linux backend and for error messages.
 * Everything here is read once and cached: these values do not change while
 * a program runs (CPU hotplug aside, which pmc__sys_cpu_online re-reads).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "pmc.h"
#include "backend/backend.h"
#include "core/sysinfo.h"

static long read_long_file(const char *path, long dflt)
{
	FILE *f = fopen(path, "r");
	long v;

	if (!f)
		return dflt;
	if (fscanf(f, "%ld", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

int pmc__sys_ncpu(void)
{
	static int n;
	if (n == 0) {
		/* "0-7" or "0,2-5": the highest number + 1. */
		FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
		char buf[256];
		int hi = -1;
		if (f && fgets(buf, sizeof(buf), f)) {
			for (char *p = buf; *p;) {
				char *end;
				if (*p < '0' || *p > '9') {   /* '-' and ',' separate */
					p++;
					continue;
				}
				long v = strtol(p, &end, 10);
				if (v > hi)
					hi = (int)v;
				p = end;
			}
		}
		if (f)
			fclose(f);
		n = hi >= 0 ? hi + 1 : (int)sysconf(_SC_NPROCESSORS_CONF);
		if (n <= 0)
			n = 1;
	}
	return n;
}

int pmc__sys_cpu_online(int cpu)
{
	char path[96];
	struct stat st;

	if (cpu < 0 || cpu >= pmc__sys_ncpu())
		return -1;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	if (stat(path, &st) < 0)
		return -1;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return (int)read_long_file(path, 1) ? 1 : 0;   /* cpu0 often has no file */
}

void pmc__sys_cpu_topology(int cpu, int *socket, int *die, int *core)
{
	char path[128];
	const char *dir = "/sys/devices/system/cpu/cpu%d/topology/%s";

	snprintf(path, sizeof(path), dir, cpu, "physical_package_id");
	*socket = (int)read_long_file(path, 0);
	snprintf(path, sizeof(path), dir, cpu, "die_id");
	*die = (int)read_long_file(path, 0);
	snprintf(path, sizeof(path), dir, cpu, "core_id");
	*core = (int)read_long_file(path, 0);
}

int pmc__sys_paranoid(void)
{
	return (int)read_long_file("/proc/sys/kernel/perf_event_paranoid", 2);
}

int pmc__sys_max_stack(void)
{
	return (int)read_long_file("/proc/sys/kernel/perf_event_max_stack", 127);
}

uint64_t pmc__sys_user_regs_mask(void)
{
#if defined(__x86_64__)
	/* AX..R15 (0..23) without DS, ES, FS, GS (12..15): perf's x86_64 mask */
	return ((1ULL << 24) - 1) & ~(0xFULL << 12);
#elif defined(__aarch64__)
	return (1ULL << 33) - 1;      /* x0..x30, sp, pc */
#else
	return 0;
#endif
}

int pmc__sys_has_cap_perfmon(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long cap = 0;

	if (!f)
		return geteuid() == 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &cap) == 1)
			break;
	fclose(f);
	/* CAP_SYS_ADMIN is 21, CAP_PERFMON 38. */
	return (cap & (1ull << 21)) || (cap & (1ull << 38));
}

int pmc__sys_has_hw_pmu(void)
{
	static int cached = -1;
	if (cached < 0) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_HARDWARE;
		a.config = PERF_COUNT_HW_CPU_CYCLES;
		a.disabled = 1;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		if (fd >= 0) {
			close(fd);
			cached = 1;
		} else {
			cached = 0;
		}
	}
	return cached;
}

static char cpu_desc[128];
static char cpu_vendor[32];
static int cpu_family, cpu_model, cpu_stepping;
static unsigned long cpu_implementer, cpu_part;   /* arm64 MIDR fields */

static void read_cpuinfo(void)
{
	FILE *f;
	char line[512];

	if (cpu_desc[0])
		return;
	snprintf(cpu_desc, sizeof(cpu_desc), "unknown CPU");
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, "\n")] = '\0';
		if (!strncmp(line, "model name", 10))
			snprintf(cpu_desc, sizeof(cpu_desc), "%s", v);
		else if (!strncmp(line, "vendor_id", 9))
			snprintf(cpu_vendor, sizeof(cpu_vendor), "%s", v);
		else if (!strncmp(line, "cpu family", 10))
			cpu_family = atoi(v);
		else if (!strncmp(line, "model\t", 6) || !strncmp(line, "model :", 7))
			cpu_model = atoi(v);
		else if (!strncmp(line, "stepping", 8))
			cpu_stepping = atoi(v);
		else if (!strncmp(line, "CPU implementer", 15))
			cpu_implementer = strtoul(v, NULL, 0);
		else if (!strncmp(line, "CPU part", 8))
			cpu_part = strtoul(v, NULL, 0);
		else if (!strncmp(line, "processor", 9) && cpu_desc[0] && cpu_vendor[0] &&
		    strcmp(cpu_desc, "unknown CPU"))
			break;   /* second CPU: we have what we need */
	}
	fclose(f);
}

/*
 * FreeBSD's kern.hwpmc.cpuid, the key of its pmu-events tables: on x86
 * "GenuineIntel-6-55-4" (vendor-family-model-stepping, model in hex), on
 * arm64 the MIDR fields ("ARM-0x41-0xd0c").
 */
void pmc__sys_cpuid(char *buf, size_t len)
{
	read_cpuinfo();
	if (cpu_vendor[0])
		snprintf(buf, len, "%s-%d-%X-%d", cpu_vendor, cpu_family, (unsigned)cpu_model,
		    cpu_stepping);
	else if (cpu_implementer)
		snprintf(buf, len, "ARM-0x%lx-0x%lx", cpu_implementer, cpu_part);
	else
		snprintf(buf, len, "unknown");
}

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

int pmc__sys_describe(struct pmc_machine *m)
{
	const uint32_t rw = PMC_CAP_READ | PMC_CAP_WRITE;
	const uint32_t modes = PMC_CAP_USER | PMC_CAP_SYSTEM;
	uint32_t hwnum = 0, hwwidth = 48;

	memset(m, 0, sizeof(*m));
	read_cpuinfo();
	m->ncpu = pmc__sys_ncpu();
	m->has_hw_pmu = pmc__sys_has_hw_pmu();
	snprintf(m->cpu_desc, sizeof(m->cpu_desc), "%s", cpu_desc);

	enum pmc_class core = PMC_CLASS_IAP;
#if defined(__aarch64__)
	m->cputype = PMC_CPU_ARMV8_CORTEX_A76;
	core = PMC_CLASS_ARMV8;
	hwnum = 6;
	hwwidth = 64;
#else
	if (!strcmp(cpu_vendor, "AuthenticAMD") || !strcmp(cpu_vendor, "HygonGenuine")) {
		m->cputype = PMC_CPU_AMD_K8;
		core = PMC_CLASS_K8;
		hwnum = cpu_family >= 0x15 ? 6 : 4;
	} else if (!strcmp(cpu_vendor, "GenuineIntel") && cpu_family == 6) {
		m->cputype = intel_cputype(cpu_model);
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

/* The running kernel's GNU build id, from its ELF notes (0 if unknown). */
uint32_t pmc__sys_kernel_build_id(uint8_t id[20])
{
	unsigned char buf[4096];
	size_t n, off = 0;
	FILE *f = fopen("/sys/kernel/notes", "r");

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (off + 12 <= n) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		size_t name_at = off + 12, desc_at = name_at + ((namesz + 3u) & ~3u);
		if (desc_at + descsz > n)
			break;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
		    !memcmp(buf + name_at, "GNU", 4) && descsz > 0) {
			uint32_t len = descsz > 20 ? 20 : descsz;
			memcpy(id, buf + desc_at, len);
			return len;
		}
		off = desc_at + ((descsz + 3u) & ~3u);
	}
	return 0;
}
