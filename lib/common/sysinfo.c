/*
 * sysinfo.c — host facts for the Linux backend and for error messages.
 * Everything here is read once and cached: these values do not change while
 * a program runs (CPU hotplug aside, which pmc__sys_cpu_online re-reads).
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "common/elfnote.h"
#include "common/sysinfo.h"

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

static char sysfs_root[256];
static char devices_dir[300];

void pmc__sys_set_sysfs_root(const char *root)
{
	snprintf(sysfs_root, sizeof(sysfs_root), "%s", root ? root : "");
}

const char *pmc__sys_pmu_dir(void)
{
	const char *root = sysfs_root[0] ? sysfs_root : getenv("PMC_SYSFS_ROOT");

	if (!root || !*root)
		root = "/sys";
	snprintf(devices_dir, sizeof(devices_dir), "%s/bus/event_source/devices", root);
	return devices_dir;
}

int pmc__sys_is_core_pmu_name(const char *pmu)
{
	static const char *const prefixes[] = { "armv8_", "armv9_", "armv7_", "arm_cortex_", "apple_" };

	if (!strcmp(pmu, "cpu") || !strcmp(pmu, "cpu_core") || !strcmp(pmu, "cpu_atom"))
		return 1;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(pmu, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

const char *pmc__sys_core_pmu(void)
{
	static _Thread_local char name[64];
	struct dirent **ents;
	int n = scandir(pmc__sys_pmu_dir(), &ents, NULL, alphasort);
	const char *found = NULL;

	if (n < 0)
		return NULL;
	for (int i = 0; i < n; i++) {
		if (!found && ents[i]->d_name[0] != '.' && pmc__sys_is_core_pmu_name(ents[i]->d_name)) {
			snprintf(name, sizeof(name), "%.63s", ents[i]->d_name);
			found = name;
		}
		free(ents[i]);
	}
	free(ents);
	return found;
}

/* The one answer to "is there a hardware PMU": the kernel registered a core
 * PMU.  (Trying to open "cycles" answered differently: it fails under
 * perf_event_paranoid 3 or in a seccomp sandbox on hardware that has one.) */
int pmc__sys_has_hw_pmu(void)
{
	return pmc__sys_core_pmu() != NULL;
}

static struct pmc_sys_cpu cpu;

static void read_cpuinfo(void)
{
	FILE *f;
	char line[512];

	if (cpu.desc[0])
		return;
	snprintf(cpu.desc, sizeof(cpu.desc), "unknown CPU");
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
			snprintf(cpu.desc, sizeof(cpu.desc), "%s", v);
		else if (!strncmp(line, "vendor_id", 9))
			snprintf(cpu.vendor, sizeof(cpu.vendor), "%s", v);
		else if (!strncmp(line, "cpu family", 10))
			cpu.family = atoi(v);
		else if (!strncmp(line, "model\t", 6) || !strncmp(line, "model :", 7))
			cpu.model = atoi(v);
		else if (!strncmp(line, "stepping", 8))
			cpu.stepping = atoi(v);
		else if (!strncmp(line, "CPU implementer", 15))
			cpu.implementer = strtoul(v, NULL, 0);
		else if (!strncmp(line, "CPU part", 8))
			cpu.part = strtoul(v, NULL, 0);
		else if (!strncmp(line, "processor", 9) && cpu.desc[0] && cpu.vendor[0] &&
		    strcmp(cpu.desc, "unknown CPU"))
			break;   /* second CPU: we have what we need */
	}
	fclose(f);
}

/*
 * FreeBSD's kern.hwpmc.cpuid, the key of its pmu-events tables: on x86
 * "GenuineIntel-6-55-4" (vendor-family-model-stepping, model in hex), on
 * arm64 the MIDR fields ("ARM-0x41-0xd0c").
 */
const struct pmc_sys_cpu *pmc__sys_cpu(void)
{
	read_cpuinfo();
	return &cpu;
}

void pmc__sys_cpuid(char *buf, size_t len)
{
	read_cpuinfo();
	if (cpu.vendor[0])
		snprintf(buf, len, "%s-%d-%X-%d", cpu.vendor, cpu.family, (unsigned)cpu.model,
		    cpu.stepping);
	else if (cpu.implementer)
		snprintf(buf, len, "ARM-0x%lx-0x%lx", cpu.implementer, cpu.part);
	else
		snprintf(buf, len, "unknown");
}

/* The running kernel's GNU build id, from its ELF notes (0 if unknown). */
uint32_t pmc__sys_kernel_build_id(uint8_t id[20])
{
	unsigned char buf[4096];
	size_t n;
	FILE *f = fopen("/sys/kernel/notes", "r");

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return pmc__elfnote_build_id(buf, n, id);
}
