/* freenodes.c - the free nodes of a view within an allocator's usable
 * box: counted, visited in order, or looked up in an order.
 *
 * HOW IT WORKS: a free map is a bitmap in node-index order.  Without a
 * usable box its words are read whole (popcounts, lowest set bits);
 * with one (select/mesh declares the positions of its named nodes) only
 * the box's x-rows are read, each a run of bits masked at both ends, so
 * that a pass costs the box, not the mesh.  The free-node path of the
 * order-based allocators (curves, plas), which cannot crop, looks the
 * free nodes' positions up in the order and sorts them, instead of
 * scanning the whole order.
 */
#include "freenodes.h"

#include <stdlib.h>

#include "alloc_internal.h"
#include "boxsum.h"

int mesh__sparse_wanted(struct mesh_allocator *a, const struct mesh_view *v)
{
	if (a->sparse == MESH_SPARSE_OFF ||
	    (a->sparse == MESH_SPARSE_AUTO &&
	     mesh__free_count(a, v->free) > v->topo->nodes / 64))
		return 0;
	a->sparse_used++;
	return 1;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return (x > y) - (x < y);
}

struct sorted_ctx {
	const uint32_t *pos;
	uint32_t *buf, m;
};

static int sorted_one(void *ctx, uint32_t node)
{
	struct sorted_ctx *x = ctx;

	x->buf[x->m++] = x->pos[node];
	return 0;
}

uint32_t mesh__free_sorted(const struct mesh_allocator *a,
			   const struct mesh_bitmap *f, const uint32_t *pos,
			   uint32_t *buf)
{
	struct sorted_ctx x = { pos, buf, 0 };

	mesh__free_each(a, f, sorted_one, &x);
	qsort(buf, x.m, sizeof(*buf), cmp_u32);
	return x.m;
}

/* Bits first..last (inclusive) of word w's range in f, as a mask. */
static uint64_t span_mask(uint32_t w, uint32_t first, uint32_t last)
{
	uint64_t m = ~(uint64_t) 0;

	if (w == first >> 6)
		m &= ~(uint64_t) 0 << (first & 63);
	if (w == last >> 6 && (last & 63) != 63)
		m &= ((uint64_t) 1 << ((last & 63) + 1)) - 1;
	return m;
}

uint32_t mesh__free_count(const struct mesh_allocator *a,
			  const struct mesh_bitmap *f)
{
	const struct mesh_topo *t = a->topo;
	uint32_t n = 0, w, first, last;
	int c[3], y, z;

	if (!a->bounded)
		return mesh_bitmap_count(f);
	for (z = a->blo[2]; z <= a->bhi[2]; z++)
		for (y = a->blo[1]; y <= a->bhi[1]; y++) {
			c[0] = a->blo[0], c[1] = y, c[2] = z;
			first = mesh_topo_index(t, c);
			last = first + (uint32_t) (a->bhi[0] - a->blo[0]);
			for (w = first >> 6; w <= last >> 6; w++)
				n += mesh__popcount64(
				    f->words[w] & span_mask(w, first, last));
		}
	return n;
}

int mesh__free_each(const struct mesh_allocator *a, const struct mesh_bitmap *f,
		    int (*fn)(void *ctx, uint32_t node), void *ctx)
{
	const struct mesh_topo *t = a->topo;
	uint32_t w, first = 0, last = t->nodes - 1;
	int c[3], y = 0, z = 0, rc;
	uint64_t x;

	if (a->bounded)
		y = a->blo[1], z = a->blo[2];
	for (;;) {
		if (a->bounded) {
			c[0] = a->blo[0], c[1] = y, c[2] = z;
			first = mesh_topo_index(t, c);
			last = first + (uint32_t) (a->bhi[0] - a->blo[0]);
		}
		for (w = first >> 6; w <= last >> 6; w++)
			for (x = f->words[w] & span_mask(w, first, last); x;
			     x &= x - 1) {
				rc = fn(ctx,
					w * 64 + (uint32_t) __builtin_ctzll(x));
				if (rc)
					return rc;
			}
		if (!a->bounded || (y == a->bhi[1] && z == a->bhi[2]))
			return 0;
		if (++y > a->bhi[1])
			y = a->blo[1], z++;
	}
}
