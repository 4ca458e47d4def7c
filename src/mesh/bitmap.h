/* bitmap.h - a fixed-size bit set over mesh nodes (1 = free). */
#ifndef MESH_BITMAP_H
#define MESH_BITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mesh_bitmap {
	uint32_t nbits;
	uint64_t *words;
};

/** \brief Create a bitmap of nbits bits, all clear.
 *  \return 0 or MESH_ENOMEM; free with mesh_bitmap_destroy(). */
int mesh_bitmap_create(uint32_t nbits, struct mesh_bitmap **out);

/** \brief Free; NULL is a no-op. */
void mesh_bitmap_destroy(struct mesh_bitmap *b);

static inline bool mesh_bitmap_test(const struct mesh_bitmap *b, uint32_t i)
{
	return (b->words[i >> 6] >> (i & 63)) & 1u;
}

static inline void mesh_bitmap_set(struct mesh_bitmap *b, uint32_t i)
{
	b->words[i >> 6] |= (uint64_t) 1 << (i & 63);
}

static inline void mesh_bitmap_clear(struct mesh_bitmap *b, uint32_t i)
{
	b->words[i >> 6] &= ~((uint64_t) 1 << (i & 63));
}

/** \brief Set all bits (value true) or clear them all. */
void mesh_bitmap_fill(struct mesh_bitmap *b, bool value);

/** \brief Number of set bits. */
uint32_t mesh_bitmap_count(const struct mesh_bitmap *b);

/** \brief Copy src into dst; both must have the same size. */
void mesh_bitmap_copy(struct mesh_bitmap *dst, const struct mesh_bitmap *src);

#endif
