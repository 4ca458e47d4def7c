/* fuzz_common.c - failure reporting shared by the fuzz targets. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

void fuzz_fail(const char *what, const char *file, int line)
{
	fprintf(stderr, "fuzz invariant broken at %s:%d: %s\n", file, line,
		what);
	abort();
}
