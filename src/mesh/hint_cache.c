/* hint_cache.c - an open-addressing table from a job's key to its parsed
 * hints; no deletion, so probing stays simple, and a full table is
 * cleared whole (hint_cache.h). */
#include "hint_cache.h"

#include <stdlib.h>
#include <string.h>

struct hint_slot {
	uint64_t key;
	int used;
	struct mesh_job_hints hints;
};

struct mesh_hint_cache {
	struct hint_slot *slot;
	size_t mask;     /* slots - 1; slots is a power of two >= 2 x cap */
	size_t capacity; /* jobs held before the table is cleared */
	size_t count;
};

struct mesh_hint_cache *mesh_hint_cache_create(size_t capacity)
{
	struct mesh_hint_cache *c;
	size_t slots = 2;

	if (capacity < 1)
		capacity = 1;
	while (slots < 2 * capacity) {
		if (slots > SIZE_MAX / 2 / sizeof(struct hint_slot))
			return NULL;
		slots *= 2;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->slot = calloc(slots, sizeof(*c->slot));
	if (!c->slot) {
		free(c);
		return NULL;
	}
	c->mask = slots - 1;
	c->capacity = capacity;
	return c;
}

void mesh_hint_cache_destroy(struct mesh_hint_cache *c)
{
	if (!c)
		return;
	free(c->slot);
	free(c);
}

size_t mesh_hint_cache_count(const struct mesh_hint_cache *c)
{
	return c ? c->count : 0;
}

/* A 64-bit mix (splitmix64's finaliser): job ids are dense, and probing
 * on them unmixed would run in long clusters. */
static size_t key_hash(uint64_t k)
{
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ULL;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebULL;
	k ^= k >> 31;
	return (size_t) k;
}

int mesh_hint_cache_get(struct mesh_hint_cache *c, uint64_t key,
			const char *const *env, size_t n,
			struct mesh_job_hints *h, struct mesh_diag *d)
{
	struct hint_slot *s;
	size_t i;
	int rc;

	if (c) {
		for (i = key_hash(key) & c->mask; c->slot[i].used;
		     i = (i + 1) & c->mask)
			if (c->slot[i].key == key) {
				*h = c->slot[i].hints;
				return 0;
			}
	}
	mesh_hints_init(h);
	rc = env && n ? mesh_hints_from_env(env, n, h, d) : 0;
	if (!c)
		return rc;
	if (c->count >= c->capacity) {
		memset(c->slot, 0, (c->mask + 1) * sizeof(*c->slot));
		c->count = 0;
		i = key_hash(key) & c->mask;
	}
	s = &c->slot[i];
	s->key = key;
	s->used = 1;
	s->hints = *h;
	c->count++;
	return rc;
}
