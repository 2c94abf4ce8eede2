/*
 * procsnap.c — what /proc says about processes that existed before a log
 * started, written into that log: their threads and names (COMM, and
 * PROC_CREATE/THR_CREATE for a system-wide log, as hwpmc's
 * pmc_process_allproc), their executable mappings with build ids (MAP_IN,
 * hwpmc's pmc_log_all_process_mappings), and where kernel symbols come from
 * (KSYMSRC).  A report then needs nothing of this machine.  Kept apart from
 * logctl.c, which decides when a snapshot is due (the first sampling start
 * on a backend whose pids are real processes).
 */
#include <ctype.h>
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/elfnote.h"
#include "core/procsnap.h"
#include "common/sysinfo.h"
#include "log/records.h"

static struct pmc_logrec *rec_buf(void)
{
	static struct pmc_logrec r;   /* big; used under the core lock only */
	return &r;
}

static void put(struct pmc_logw *lw, struct pmc_logrec *r)
{
	pmc__logw_write(lw, r->type, r->buf, r->len);
}

/* /proc/PID/exe for the PMCATTACH record's path ("" when unknown). */
void pmc__procsnap_exe_path(pid_t pid, char *buf, size_t len)
{
	char p[64];
	ssize_t n;
	snprintf(p, sizeof(p), "/proc/%d/exe", (int)pid);
	n = readlink(p, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok = 0;
	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ok = 1;
	}
	fclose(f);
	return ok ? 0 : -1;
}

/*
 * A process's threads and their names: COMM for each (and, for processes
 * that existed before a system-wide log started, hwpmc's PROC_CREATE and
 * THR_CREATE records as pmc_process_allproc writes them).
 */
static void log_threads(struct pmc_logw *lw, pid_t pid, int creates)
{
	struct pmc_logrec *r = rec_buf();
	char path[64], name[256];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (read_line(path, name, sizeof(name)) < 0)
		return;
	if (creates && pmc__logrec_proc_create(r, pid, 0, name) == 0)
		put(lw, r);
	if (pmc__logrec_comm(r, pid, pid, 0, name) == 0)
		put(lw, r);
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if ((dir = opendir(path)) == NULL)
		return;
	while ((d = readdir(dir)) != NULL) {
		char tpath[96];
		pid_t tid;
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		tid = (pid_t)atoi(d->d_name);
		if (tid == pid)
			continue;
		snprintf(tpath, sizeof(tpath), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
		if (read_line(tpath, name, sizeof(name)) < 0)
			continue;
		if (creates && pmc__logrec_thr_create(r, tid, pid, 0, name) == 0)
			put(lw, r);
		if (pmc__logrec_comm(r, pid, tid, 0, name) == 0)
			put(lw, r);
	}
	closedir(dir);
}

/*
 * The GNU build id of a mapped ELF file (from its PT_NOTE segments), 0 if
 * it has none or is not a 64-bit little-endian ELF.  MAP_IN records of
 * existing mappings carry it, as the kernel's MMAP2 records do, so a report
 * can tell a binary that changed since the recording.  The file is opened
 * through /proc/PID/map_files (the inode actually mapped, even if the path
 * now names another file), else by path.  A few recent answers are kept by
 * device and inode (a system-wide log maps the same libraries many times).
 */
static uint32_t file_build_id(pid_t pid, unsigned long long lo, unsigned long long hi,
    const char *dev, unsigned long long ino, const char *path, uint8_t id[20])
{
	static struct { char key[64]; uint32_t len; uint8_t id[20]; } cache[16];
	static unsigned next;
	char key[64], mf[96];
	Elf64_Ehdr eh;
	uint32_t len = 0;
	int fd;

	if (path[0] != '/' || ino == 0)
		return 0;
	snprintf(key, sizeof(key), "%s:%llu", dev, ino);
	for (unsigned i = 0; i < 16; i++)
		if (!strcmp(cache[i].key, key)) {
			memcpy(id, cache[i].id, 20);
			return cache[i].len;
		}
	snprintf(mf, sizeof(mf), "/proc/%d/map_files/%llx-%llx", (int)pid, lo, hi);
	if ((fd = open(mf, O_RDONLY | O_CLOEXEC)) < 0 &&
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	if (pread(fd, &eh, sizeof(eh), 0) == (ssize_t)sizeof(eh) &&
	    !memcmp(eh.e_ident, ELFMAG, SELFMAG) && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
	    eh.e_ident[EI_DATA] == ELFDATA2LSB && eh.e_phentsize == sizeof(Elf64_Phdr) &&
	    eh.e_phnum < 256) {
		for (int i = 0; i < eh.e_phnum && !len; i++) {
			Elf64_Phdr ph;
			unsigned char notes[1024];
			if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph))) !=
			    (ssize_t)sizeof(ph) || ph.p_type != PT_NOTE)
				continue;
			size_t n = ph.p_filesz < sizeof(notes) ? ph.p_filesz : sizeof(notes);
			ssize_t got = pread(fd, notes, n, (off_t)ph.p_offset);
			if (got > 0)
				len = pmc__elfnote_build_id(notes, (size_t)got, id);
		}
	}
	close(fd);
	snprintf(cache[next].key, sizeof(cache[next].key), "%s", key);
	cache[next].len = len;
	memcpy(cache[next].id, id, 20);
	next = (next + 1) % 16;
	return len;
}

/* The executable mappings of a process: what happened before we came. */
static void log_maps(struct pmc_logw *lw, pid_t pid)
{
	struct pmc_logrec *r = rec_buf();
	char path[64], line[4096 + 256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off, ino = 0;
		char perms[8], dev[32], file[4096];
		int n = 0;
		file[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %31s %llu %n", &lo, &hi, perms, &off, dev,
		    &ino, &n) < 6)
			continue;
		if (perms[2] != 'x')
			continue;             /* only code matters for symbols */
		snprintf(file, sizeof(file), "%s", line + n);
		file[strcspn(file, "\n")] = '\0';
		uint8_t bid[20];
		memset(bid, 0, sizeof(bid));
		uint32_t bidlen = file_build_id(pid, lo, hi, dev, ino, file, bid);
		struct pmc_logrec_map m = {
			.pid = pid, .start = lo, .len = hi - lo, .pgoff = off,
			.buildid_len = bidlen, .buildid = bidlen ? bid : NULL,
			.prot = PROT_EXEC | (perms[0] == 'r' ? PROT_READ : 0) |
			    (perms[1] == 'w' ? PROT_WRITE : 0),
			.mflags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE,
			.path = file,
		};
		if (pmc__logrec_map_in(r, &m) == 0)
			put(lw, r);
	}
	fclose(f);
}

/* The process a thread belongs to (its Tgid), or -1. */
static pid_t tgid_of(pid_t tid)
{
	char path[64], line[256];
	pid_t tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* The target's current threads, names and mappings; for a thread target,
 * its own name and its process's mappings. */
void pmc__procsnap_process(struct pmc_logw *lw, pid_t pid, int is_thread)
{
	if (is_thread) {
		struct pmc_logrec *r = rec_buf();
		char path[96], name[256];
		pid_t tgid = tgid_of(pid);
		if (tgid <= 0)
			return;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)tgid, (int)pid);
		if (read_line(path, name, sizeof(name)) == 0 &&
		    pmc__logrec_comm(r, tgid, pid, 0, name) == 0)
			put(lw, r);
		log_maps(lw, tgid);
		return;
	}
	log_threads(lw, pid, 0);
	log_maps(lw, pid);
}

/* hwpmc's pmc_log_all_process_mappings: every process, for system-wide
 * sampling (samples may land in any of them). */
void pmc__procsnap_all(struct pmc_logw *lw)
{
	struct dirent *d;
	DIR *dir = opendir("/proc");

	if (!dir)
		return;
	while ((d = readdir(dir)) != NULL) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		pid_t pid = (pid_t)atoi(d->d_name);
		log_threads(lw, pid, 1);
		log_maps(lw, pid);
	}
	closedir(dir);
}

/* Where a report finds kernel symbols: this kernel's /proc/kallsyms. */
void pmc__procsnap_ksymsrc(struct pmc_logw *lw)
{
	struct pmc_logrec *r = rec_buf();
	struct utsname un;
	uint8_t id[20];
	uint32_t idlen;

	if (uname(&un) < 0)
		un.release[0] = '\0';
	memset(id, 0, sizeof(id));
	idlen = pmc__sys_kernel_build_id(id);
	if (pmc__logrec_ksymsrc(r, "/proc/kallsyms", un.release, id, idlen) == 0)
		put(lw, r);
}
