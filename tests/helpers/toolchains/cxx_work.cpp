// cxx_work.cpp — one C++ program for every linker (tests/integration/
// toolchains.sh links it with GNU ld, lld, gold, mold; PIE and not): a map
// phase (std::unordered_map), a sort phase (std::sort) and an iterator
// chain (std::accumulate over std::transform), each a noinline function
// called from main, with inlined library code below them.  Built without
// frame pointers: its stacks come from DWARF unwinding.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <unordered_map>
#include <vector>

__attribute__((noinline)) static std::unordered_map<uint64_t, uint64_t> map_phase(uint64_t n)
{
	std::unordered_map<uint64_t, uint64_t> m;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (uint64_t i = 0; i < n; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		m[x % (n / 4 + 1)] += i;
	}
	return m;
}

__attribute__((noinline)) static std::vector<uint64_t> sort_phase(
    const std::unordered_map<uint64_t, uint64_t> &m)
{
	std::vector<uint64_t> v;
	v.reserve(m.size());
	for (const auto &kv : m)
		v.push_back(kv.second);
	for (int r = 0; r < 8; r++) {
		std::sort(v.begin(), v.end());
		std::reverse(v.begin(), v.end());
		std::stable_sort(v.begin(), v.end());
	}
	return v;
}

__attribute__((noinline)) static uint64_t iter_phase(const std::vector<uint64_t> &v)
{
	uint64_t t = 0;
	std::vector<uint64_t> w(v.size());
	for (uint64_t r = 0; r < 40; r++) {
		std::transform(v.begin(), v.end(), w.begin(),
		    [r](uint64_t x) { return (x * 2654435761u) ^ r; });
		t += std::accumulate(w.begin(), w.end(), uint64_t(0),
		    [](uint64_t a, uint64_t b) { return a ^ (b + (a << 1)); });
	}
	return t;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], nullptr, 10) : 1000000;
	auto m = map_phase(n);
	auto v = sort_phase(m);
	uint64_t t = iter_phase(v);
	printf("%zu %zu %llu\n", m.size(), v.size(), (unsigned long long)t);
	return 0;
}
