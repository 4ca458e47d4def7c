/* replay.c - run a fuzz target without libFuzzer, for make check:
 * every seed, every file named on the command line (a saved corpus or a
 * crash reproducer), and FUZZ_ROUNDS (default 20000) mutations of the
 * seeds from a fixed PRNG seed, so any failure reproduces exactly.
 * "--write-seeds DIR" writes the seeds out as a libFuzzer corpus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static const char interesting[] = "0123456789-.x t;\n#=,[]:abcnNoe\0\xff";

/* One to four edits: overwrite, insert, delete, or splice in a seed. */
static size_t mutate(uint8_t *buf, size_t len, size_t cap, uint64_t *s,
		     size_t nseeds)
{
	int edits = 1 + (int) (rnd(s) % 4), e;

	for (e = 0; e < edits; e++) {
		size_t pos = len ? rnd(s) % len : 0;
		uint8_t c = (uint8_t) interesting[rnd(s) % (sizeof(interesting) - 1)];

		switch (rnd(s) % 4) {
		case 0:
			if (len)
				buf[pos] = rnd(s) % 2 ? c : (uint8_t) rnd(s);
			break;
		case 1:
			if (len < cap) {
				memmove(buf + pos + 1, buf + pos, len - pos);
				buf[pos] = c;
				len++;
			}
			break;
		case 2:
			if (len) {
				memmove(buf + pos, buf + pos + 1, len - pos - 1);
				len--;
			}
			break;
		default: {
			const char *seed = fuzz_seeds[rnd(s) % nseeds];
			size_t n = strlen(seed), from = n ? rnd(s) % n : 0;
			size_t take = n - from;

			if (pos + take > cap)
				take = cap - pos;
			memcpy(buf + pos, seed + from, take);
			if (pos + take > len)
				len = pos + take;
		}
		}
	}
	return len;
}

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	static uint8_t buf[1 << 20];
	size_t n;

	if (!f) {
		perror(path);
		return 1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	return 0;
}

/* Write the seeds as files into dir (a starting corpus for libFuzzer). */
static int write_seeds(const char *dir)
{
	char path[4096];
	size_t i;

	for (i = 0; fuzz_seeds[i]; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/seed%zu", dir, i);
		f = fopen(path, "wb");
		if (!f) {
			perror(path);
			return 1;
		}
		fwrite(fuzz_seeds[i], 1, strlen(fuzz_seeds[i]), f);
		fclose(f);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t buf[8192];
	const char *r = getenv("FUZZ_ROUNDS");
	long rounds = r ? atol(r) : 20000, i;
	size_t nseeds = 0, len;
	uint64_t s = 1;
	int a, rc = 0;

	if (argc == 3 && !strcmp(argv[1], "--write-seeds"))
		return write_seeds(argv[2]);
	while (fuzz_seeds[nseeds])
		nseeds++;
	for (a = 1; a < argc; a++)
		rc |= replay_file(argv[a]);
	for (i = 0; i < (long) nseeds; i++)
		LLVMFuzzerTestOneInput((const uint8_t *) fuzz_seeds[i],
				       strlen(fuzz_seeds[i]));
	for (i = 0; i < rounds; i++) {
		const char *seed = fuzz_seeds[rnd(&s) % nseeds];

		len = strlen(seed);
		memcpy(buf, seed, len);
		len = mutate(buf, len, sizeof(buf), &s, nseeds);
		LLVMFuzzerTestOneInput(buf, len);
	}
	printf("%s: %zu seeds, %d files, %ld mutations: no invariant broken\n",
	       argv[0], nseeds, argc - 1, rounds);
	return rc;
}
