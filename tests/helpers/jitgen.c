/*
 * jitgen.c — a tiny JIT for the JIT tests (tests/integration/jit.sh): it
 * writes three functions' machine code (a count-down loop) into anonymous
 * executable memory at run time, describes them in a jitdump file the way
 * perf's JIT agents do (DIR/jit-PID.dump: header, DEBUG_INFO and CODE_LOAD
 * records, the format of perf's tools/perf/util/jitdump.h) and maps that
 * file PROT_EXEC so that a recording sees it, then spends 60/30/10 % of its
 * time in jit_hot60 / jit_warm30 / jit_cold10.
 *
 * usage: jitgen DIR [ROUNDS]   (x86-64 and aarch64; exit 77 elsewhere)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
/* mov rax, rdi; 1: dec rax; jnz 1b; ret */
static const unsigned char loop_code[] = { 0x48, 0x89, 0xf8, 0x48, 0xff, 0xc8, 0x75, 0xfb, 0xc3 };
#define ELF_MACH 62
#elif defined(__aarch64__)
/* 1: subs x0, x0, #1; b.ne 1b; ret */
static const unsigned char loop_code[] = { 0x00, 0x04, 0x00, 0xf1, 0xe1, 0xff, 0xff, 0x54,
	0xc0, 0x03, 0x5f, 0xd6 };
#define ELF_MACH 183
#endif

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void put(FILE *f, const void *p, size_t n)
{
	if (fwrite(p, 1, n, f) != n) {
		perror("jitgen: write");
		exit(1);
	}
}

int main(int argc, char **argv)
{
#ifndef ELF_MACH
	(void)argc;
	(void)argv;
	fprintf(stderr, "jitgen: no code generator for this architecture\n");
	return 77;
#else
	static const char *names[3] = { "jit_hot60", "jit_warm30", "jit_cold10" };
	static const unsigned weight[3] = { 6, 3, 1 };
	char path[4096];
	long rounds = argc > 2 ? atol(argv[2]) : 300;
	if (argc < 2) {
		fprintf(stderr, "usage: jitgen DIR [ROUNDS]\n");
		return 2;
	}
	unsigned char *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED) {
		perror("jitgen: mmap code");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/jit-%d.dump", argv[1], (int)getpid());
	FILE *f = fopen(path, "w+b");
	if (!f) {
		perror(path);
		return 1;
	}
	/* header: magic, version, total_size, elf_mach, pad1, pid, timestamp, flags */
	uint32_t h32[6] = { 0x4A695444, 1, 40, ELF_MACH, 0, (uint32_t)getpid() };
	uint64_t h64[2] = { now_ns(), 0 };
	put(f, h32, sizeof(h32));
	put(f, h64, sizeof(h64));
	for (int i = 0; i < 3; i++) {
		unsigned char *fn = code + 256 * i;
		uint64_t addr = (uint64_t)(uintptr_t)fn, size = sizeof(loop_code), ts = now_ns();
		memcpy(fn, loop_code, sizeof(loop_code));
		/* DEBUG_INFO: the loop is "line 10 + i" of jitgen.js */
		const char *src = "jitgen.js";
		uint32_t dsz = 32 + 16 + (uint32_t)strlen(src) + 1;
		uint32_t dpre[2] = { 2, dsz };
		uint64_t dnr = 1;
		int32_t ln[2] = { 10 + i, 0 };
		put(f, dpre, 8);
		put(f, &ts, 8);
		put(f, &addr, 8);
		put(f, &dnr, 8);
		put(f, &addr, 8);
		put(f, ln, 8);
		put(f, src, strlen(src) + 1);
		/* CODE_LOAD: prefix, pid, tid, vma, code_addr, code_size, code_index, name, code */
		uint32_t lsz = 56 + (uint32_t)strlen(names[i]) + 1 + (uint32_t)size;
		uint32_t lpre[2] = { 0, lsz }, pt[2] = { (uint32_t)getpid(), (uint32_t)getpid() };
		uint64_t v[4] = { addr, addr, size, (uint64_t)i };
		put(f, lpre, 8);
		put(f, &ts, 8);
		put(f, pt, 8);
		put(f, v, sizeof(v));
		put(f, names[i], strlen(names[i]) + 1);
		put(f, fn, size);
	}
	if (fflush(f) != 0) {
		perror("jitgen: flush");
		return 1;
	}
	/* perf's jvmti agent marks the dump with an executable mapping of it: the
	 * recording's MMAP record is how a report finds the file */
	void *mark = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fileno(f), 0);
	if (mark == MAP_FAILED) {
		perror("jitgen: mmap dump");
		return 1;
	}
	__builtin___clear_cache((char *)code, (char *)code + 4096);
	typedef uint64_t (*loop_fn)(uint64_t);
	uint64_t sink = 0;
	/* A round of fixed length is a periodic workload that a timer sampling at
	 * a near multiple of its period sees at the same few points of it, round
	 * after round (aliasing: 56/34/10 seen in a CI run). Each round's length is
	 * drawn at random between 0.5x and 1.5x, its three calls kept at 6:3:1,
	 * so that the samples fall on every point of a round. */
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	for (long r = 0; r < rounds; r++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		uint64_t unit = 100000 + rng % 200000;
		for (int i = 0; i < 3; i++)
			sink += ((loop_fn)(uintptr_t)(code + 256 * i))(unit * weight[i]);
	}
	printf("%s %llu\n", path, (unsigned long long)sink);
	munmap(mark, 4096);
	fclose(f);
	return 0;
#endif
}
