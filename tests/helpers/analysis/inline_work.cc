// inline_work.cc — an inline-heavy C++ workload: the hot loop lives in
// inlined templates and lambdas inside namespaced functions, so a report
// with inline frames shows ns::Accum<...>::step inlined into ns::run_hot.
//     c++ -O2 -g -fno-omit-frame-pointer -o inline_work inline_work.cc
#include <cstdio>
#include <cstdlib>

namespace ns {

template <typename T> struct Accum {
	T v;
	inline __attribute__((always_inline)) void step(T i)
	{
		v = v * 6364136223846793005ull + i;   // the hot line
		__asm__ volatile("" : "+r"(v));
	}
};

__attribute__((noinline)) unsigned long run_hot(unsigned long n)
{
	Accum<unsigned long> a{1};
	for (unsigned long i = 0; i < n; i++)
		a.step(i);
	return a.v;
}

__attribute__((noinline)) unsigned long run_cold(unsigned long n)
{
	Accum<unsigned long> a{3};
	for (unsigned long i = 0; i < n; i++)
		a.step(i ^ 5);
	return a.v;
}

} // namespace ns

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? std::strtoul(argv[1], nullptr, 0) : 30;
	unsigned long x = 0;
	for (unsigned long r = 0; r < scale; r++) {
		x += ns::run_hot(8000000);
		x += ns::run_cold(2000000);
	}
	std::printf("%lu\n", x & 1);
	return 0;
}
