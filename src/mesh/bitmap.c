/* bitmap.c - fixed-size bit sets. */
#include "bitmap.h"

#include <stdlib.h>
#include <string.h>

#include "boxsum.h"
#include "error.h"

static size_t word_count(uint32_t nbits)
{
	return ((size_t) nbits + 63) / 64;
}

int mesh_bitmap_create(uint32_t nbits, struct mesh_bitmap **out)
{
	struct mesh_bitmap *b;

	if (!out)
		return MESH_EINVAL;
	b = malloc(sizeof(*b));
	if (!b)
		return MESH_ENOMEM;
	b->nbits = nbits;
	b->words =
	    calloc(word_count(nbits) ? word_count(nbits) : 1, sizeof(uint64_t));
	if (!b->words) {
		free(b);
		return MESH_ENOMEM;
	}
	*out = b;
	return 0;
}

void mesh_bitmap_destroy(struct mesh_bitmap *b)
{
	if (!b)
		return;
	free(b->words);
	free(b);
}

void mesh_bitmap_fill(struct mesh_bitmap *b, bool value)
{
	size_t n = word_count(b->nbits);

	memset(b->words, value ? 0xff : 0, n * sizeof(uint64_t));
	/* Keep bits past nbits clear so counts stay exact. */
	if (value && (b->nbits & 63))
		b->words[n - 1] = ((uint64_t) 1 << (b->nbits & 63)) - 1;
}

uint32_t mesh_bitmap_count(const struct mesh_bitmap *b)
{
	size_t i, n = word_count(b->nbits);
	uint32_t c = 0;

	for (i = 0; i < n; i++)
		c += mesh__popcount64(b->words[i]);
	return c;
}

void mesh_bitmap_copy(struct mesh_bitmap *dst, const struct mesh_bitmap *src)
{
	memcpy(dst->words, src->words,
	       word_count(src->nbits) * sizeof(uint64_t));
}
