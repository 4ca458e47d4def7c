/* rng.h - the library's random numbers: splitmix64 (Steele, Lea and
 * Flood 2014), so that a seed gives the same stream on every platform,
 * and uniform integers drawn from it without modulo bias.  Private to
 * the library. */
#ifndef MESH_RNG_H
#define MESH_RNG_H

#include <stdint.h>

static inline uint64_t mesh__splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0, without modulo bias. */
static inline uint64_t mesh__below(uint64_t *s, uint64_t n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, r;

	do
		r = mesh__splitmix64(s);
	while (r >= limit);
	return r % n;
}

#endif
