/*
 * dynlib.c — libraries opened on first use (see dynlib.h for why).
 */
#include <dlfcn.h>
#include <stdio.h>

#include "common/dynlib.h"
#include "common/error.h"

int pmc__dl_load(const char *soname, const char *const names[], void *syms[], size_t n)
{
	/* RTLD_LOCAL: the library's symbols serve only this caller and never
	 * interpose on the program's; RTLD_LAZY: its own calls are bound as
	 * they are made, not all at load. */
	void *h = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
	const char *why;

	if (!h) {
		why = dlerror();
		return pmc__err(-ENOENT, "cannot load %s: %s", soname, why ? why : "unknown error");
	}
	for (size_t i = 0; i < n; i++) {
		void *p;
		dlerror();
		p = dlsym(h, names[i]);
		if (!p) {
			/* dlclose is safe here: nothing resolved from h escaped. */
			dlclose(h);
			return pmc__err(-ENOENT, "%s has no %s (a version this pmc was not built for?)",
					soname, names[i]);
		}
		syms[i] = p;
	}
	return 0;
}
