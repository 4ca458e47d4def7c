/* fuzz.h - the contract between a fuzz target and its two drivers:
 * libFuzzer (make fuzz) and replay.c (make check), which replays the
 * seeds and a fixed-seed stream of mutations of them. */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Seed inputs of the target (NULL-terminated). */
extern const char *const fuzz_seeds[];

/* An invariant broken on fuzz input: abort so both drivers report it. */
#define FUZZ_CHECK(cond)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fuzz_fail(#cond, __FILE__, __LINE__);                  \
		}                                                              \
	} while (0)

void fuzz_fail(const char *what, const char *file, int line);

#endif
