/*
 * id_index.c - job id -> array position: open addressing, linear
 * probing, backward-shift deletion (Knuth, TAOCP vol. 3, 6.4, Algorithm
 * R), so a lookup never walks over deleted slots.
 */
#include <stdlib.h>

#include "id_index.h"

struct slot {
	uint32_t id;
	long pos; /* -1: empty */
};

struct smc_id_index {
	struct slot *slot;
	size_t mask; /* slots - 1, slots a power of two */
	size_t count;
};

/* Fibonacci hashing: job ids are consecutive, and the multiply spreads
 * them over the table. */
static size_t home(const struct smc_id_index *x, uint32_t id)
{
	return (size_t) ((id * UINT64_C(11400714819323198485)) >> 32) & x->mask;
}

static struct slot *slots_new(size_t n)
{
	struct slot *s = malloc(n * sizeof(*s));
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < n; i++)
		s[i].pos = -1;
	return s;
}

struct smc_id_index *smc_id_index_create(void)
{
	struct smc_id_index *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	if (!(x->slot = slots_new(64))) {
		free(x);
		return NULL;
	}
	x->mask = 63;
	return x;
}

void smc_id_index_destroy(struct smc_id_index *x)
{
	if (!x)
		return;
	free(x->slot);
	free(x);
}

/* The slot holding id, or the empty slot where it would go. */
static size_t find(const struct smc_id_index *x, uint32_t id)
{
	size_t i = home(x, id);

	while (x->slot[i].pos >= 0 && x->slot[i].id != id)
		i = (i + 1) & x->mask;
	return i;
}

long smc_id_index_get(const struct smc_id_index *x, uint32_t id)
{
	return x->slot[find(x, id)].pos;
}

static int grow(struct smc_id_index *x)
{
	struct smc_id_index bigger = { 0 };
	size_t i, n = x->mask + 1;

	if (n > SIZE_MAX / 2 / sizeof(struct slot))
		return -1;
	if (!(bigger.slot = slots_new(2 * n)))
		return -1;
	bigger.mask = 2 * n - 1;
	for (i = 0; i < n; i++)
		if (x->slot[i].pos >= 0)
			bigger.slot[find(&bigger, x->slot[i].id)] = x->slot[i];
	free(x->slot);
	x->slot = bigger.slot;
	x->mask = bigger.mask;
	return 0;
}

int smc_id_index_set(struct smc_id_index *x, uint32_t id, long pos)
{
	size_t i = find(x, id);

	if (x->slot[i].pos < 0) {
		if (2 * (x->count + 1) > x->mask + 1) {
			if (grow(x))
				return -1;
			i = find(x, id);
		}
		x->count++;
	}
	x->slot[i].id = id;
	x->slot[i].pos = pos;
	return 0;
}

void smc_id_index_del(struct smc_id_index *x, uint32_t id)
{
	size_t i = find(x, id), j = i, h;

	if (x->slot[i].pos < 0)
		return;
	x->count--;
	/* Move back every later entry of the run that may no longer be
	 * reachable from its home slot once slot i is empty. */
	for (;;) {
		x->slot[i].pos = -1;
		for (;;) {
			j = (j + 1) & x->mask;
			if (x->slot[j].pos < 0)
				return;
			h = home(x, x->slot[j].id);
			/* j stays if its home lies cyclically in (i, j] */
			if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
				continue;
			x->slot[i] = x->slot[j];
			i = j;
			break;
		}
	}
}

void smc_id_index_clear(struct smc_id_index *x)
{
	size_t i;

	for (i = 0; i <= x->mask; i++)
		x->slot[i].pos = -1;
	x->count = 0;
}

size_t smc_id_index_count(const struct smc_id_index *x)
{
	return x->count;
}
