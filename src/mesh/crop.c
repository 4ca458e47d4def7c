/* crop.c - run an allocator on the bounding box of the free nodes.
 *
 * On a sparse mesh (a mesh.conf naming 32 nodes in Dimensions=2048x2048)
 * every per-decision pass over all positions (prefix sums, centre loops,
 * per-axis distance tables) costs millions of steps for a few dozen
 * candidate nodes.  When every free node lies in a small box, the
 * dispatcher runs the allocator on that box instead: a sub-mesh of the
 * box's extents, the free map and end times copied into it, the answer
 * mapped back to whole-mesh indices.
 *
 * Why the answer is the same (doc/design.md, "Sparse meshes"):
 *  - every position outside the box is busy, and the allocators allowed
 *    to crop (entry->crop) only ever choose free nodes and look only at
 *    free nodes inside boxes, shells and diamonds that they clip;
 *  - L1 distances inside the box are unchanged, and index order inside
 *    the box is the whole mesh's index order restricted to it (x
 *    fastest, then y, then z), so ties go the same way;
 *  - what depends on the extent of the mesh (which shapes fit, a shell
 *    face's area) reads a->gdim, the whole mesh's dimensions;
 *  - a wrapped dimension is never cropped (its distances wrap), so a
 *    torus crops only its unwrapped dimensions;
 *  - sl:<base> also reads the end times of busy nodes next to a
 *    placement: its box is grown by one position on every side.
 * The I/O-aware allocators (plas, mc-elongated, auto), the curves (whose
 * ranks come from the whole mesh) and the buddy systems and paging (whose
 * blocks are aligned to the whole mesh) never crop.
 * test/check_crop.c compares cropped and whole-mesh answers.
 *
 * Also here: the free-node path of the order-based allocators (curves,
 * plas), which cannot crop: the free nodes' positions in the order,
 * looked up and sorted, instead of a scan of the whole order.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "boxsum.h"
#include "error.h"

/* Auto mode crops when the box holds at most 1/CROP_RATIO of the mesh. */
#define CROP_RATIO 4
/* A cached box is kept for a smaller one while at most this big... */
#define CROP_KEEP_VOL 4096
/* ... or at most CROP_KEEP_RATIO times the box needed. */
#define CROP_KEEP_RATIO 8

struct mesh__crop {
	int lo[MESH_MAX_DIMS], ext[MESH_MAX_DIMS];
	uint64_t vol;
	struct mesh_topo *topo;
	struct mesh_allocator *sub;
	struct mesh_bitmap *free;
	double *end; /* vol entries, for walltime-aware allocators */
};

void mesh__crop_destroy(struct mesh__crop *c)
{
	if (!c)
		return;
	mesh_alloc_destroy(c->sub);
	mesh_topo_destroy(c->topo);
	mesh_bitmap_destroy(c->free);
	free(c->end);
	free(c);
}

/* Margin around the free nodes, or -1 if a never crops. */
static int crop_margin(const struct mesh_allocator *a)
{
	if (a->base) /* sl:<base> reads one hop around a placement */
		return a->base->entry->crop == MESH__CROP_NEVER ? -1 : 1;
	return a->entry->crop == MESH__CROP_NEVER ? -1 : 0;
}

static uint64_t box_volume(const struct mesh_topo *t, const int lo[3],
			   const int hi[3], int margin)
{
	uint64_t vol = 1;
	int d, l, h;

	for (d = 0; d < MESH_MAX_DIMS; d++) {
		l = lo[d] - margin < 0 ? 0 : lo[d] - margin;
		h = hi[d] + margin >= t->dim[d] ? t->dim[d] - 1
						: hi[d] + margin;
		vol *=
		    t->wrap[d] ? (uint64_t) t->dim[d] : (uint64_t) (h - l + 1);
	}
	return vol;
}

/* The box of the free nodes grown by margin (clipped; whole extent on
 * wrapped dimensions) into lo/ext; its volume, or 0 as soon as it
 * exceeds limit.  Row by row (y, z fixed), 64 positions at a time: a
 * chunk's lowest and highest free bits widen the box in x (issue 10: a
 * call per free node cost 7% of an mc1x1 decision at 32x32x32). */
static uint64_t free_box(const struct mesh_allocator *a,
			 const struct mesh_bitmap *f, int margin,
			 uint64_t limit, int lo[3], int ext[3])
{
	const struct mesh_topo *t = a->topo;
	int l[3] = { 1 << 30, 1 << 30, 1 << 30 }, h[3] = { -1, -1, -1 };
	int blo[3] = { 0, 0, 0 }, bhi[3], c[3], d, x, y, z, n;
	uint64_t vol = 0, bits;
	uint32_t row;

	for (d = 0; d < 3; d++) {
		blo[d] = a->bounded ? a->blo[d] : 0;
		bhi[d] = a->bounded ? a->bhi[d] : t->dim[d] - 1;
	}
	for (z = blo[2]; z <= bhi[2]; z++)
		for (y = blo[1]; y <= bhi[1]; y++) {
			c[0] = 0, c[1] = y, c[2] = z;
			row = mesh_topo_index(t, c);
			for (x = blo[0]; x <= bhi[0]; x += 64) {
				n = bhi[0] - x + 1 < 64 ? bhi[0] - x + 1 : 64;
				bits = mesh__bits_at(
				    f->words, row + (uint32_t) x, (uint32_t) n);
				if (!bits)
					continue;
				c[0] = x + __builtin_ctzll(bits);
				l[0] = c[0] < l[0] ? c[0] : l[0];
				c[0] = x + 63 - __builtin_clzll(bits);
				h[0] = c[0] > h[0] ? c[0] : h[0];
				l[1] = y < l[1] ? y : l[1];
				h[1] = y > h[1] ? y : h[1];
				l[2] = z < l[2] ? z : l[2];
				h[2] = z;
			}
			if (h[2] >= 0 &&
			    (vol = box_volume(t, l, h, margin)) > limit)
				return 0;
		}
	if (!vol)
		return 0;
	for (d = 0; d < 3; d++) {
		if (t->wrap[d]) {
			lo[d] = 0, ext[d] = t->dim[d];
			continue;
		}
		lo[d] = l[d] - margin < 0 ? 0 : l[d] - margin;
		ext[d] = (h[d] + margin >= t->dim[d] ? t->dim[d] - 1
						     : h[d] + margin) -
			 lo[d] + 1;
	}
	return vol;
}

static int box_contains(const struct mesh__crop *c, const int lo[3],
			const int ext[3])
{
	int d;

	for (d = 0; d < 3; d++)
		if (lo[d] < c->lo[d] || lo[d] + ext[d] > c->lo[d] + c->ext[d])
			return 0;
	return 1;
}

/* A crop of box lo/ext with a's allocator on it, or NULL. */
static struct mesh__crop *crop_build(const struct mesh_allocator *a,
				     const int lo[3], const int ext[3],
				     uint64_t vol)
{
	const struct mesh_topo *t = a->topo;
	struct mesh__crop *c = calloc(1, sizeof(*c));
	uint32_t *io = t->n_io ? malloc(t->n_io * sizeof(*io)) : NULL;
	size_t j, nio = 0;
	int q[3], d, in;

	if (!c || (t->n_io && !io))
		goto fail;
	memcpy(c->lo, lo, sizeof(c->lo));
	memcpy(c->ext, ext, sizeof(c->ext));
	c->vol = vol;
	if (mesh_topo_create(t->ndims, ext, t->wrap, &c->topo) ||
	    mesh_bitmap_create(c->topo->nodes, &c->free))
		goto fail;
	for (j = 0; j < t->n_io; j++) {
		mesh_topo_coords(t, t->io_nodes[j], q);
		for (d = 0, in = 1; d < 3; d++) {
			q[d] -= lo[d];
			in &= q[d] >= 0 && q[d] < ext[d];
		}
		if (in)
			io[nio++] = mesh_topo_index(c->topo, q);
	}
	if (nio && mesh_topo_set_io_nodes(c->topo, io, nio))
		goto fail;
	if (mesh_alloc_flags(a) & MESH_ALLOC_USES_WALLTIME) {
		c->end = malloc(vol * sizeof(*c->end));
		if (!c->end)
			goto fail;
	}
	if (mesh__alloc_create_geom(c->topo, a->name, a->params, a->gdim,
				    &c->sub, NULL))
		goto fail;
	mesh_alloc_set_sparse(c->sub, MESH_SPARSE_OFF);
	free(io);
	return c;
fail:
	free(io);
	mesh__crop_destroy(c);
	return NULL;
}

struct fill_ctx {
	const struct mesh_topo *t;
	struct mesh__crop *c;
};

static int fill_one(void *ctx, uint32_t node)
{
	struct fill_ctx *x = ctx;
	int q[3], d;

	mesh_topo_coords(x->t, node, q);
	for (d = 0; d < 3; d++)
		q[d] -= x->c->lo[d];
	mesh_bitmap_set(x->c->free, mesh_topo_index(x->c->topo, q));
	return 0;
}

/* The crop's free map and end times from the whole mesh's view. */
static void crop_fill(const struct mesh_allocator *a, struct mesh__crop *c,
		      const struct mesh_view *v)
{
	const struct mesh_topo *t = a->topo;
	struct fill_ctx x = { t, c };
	int y, z;

	mesh_bitmap_fill(c->free, false);
	mesh__free_each(a, v->free, fill_one, &x);
	if (!c->end || !v->end_time)
		return;
	for (z = 0; z < c->ext[2]; z++)
		for (y = 0; y < c->ext[1]; y++) {
			int f[3] = { c->lo[0], c->lo[1] + y, c->lo[2] + z };
			int s[3] = { 0, y, z };

			memcpy(c->end + mesh_topo_index(c->topo, s),
			       v->end_time + mesh_topo_index(t, f),
			       (size_t) c->ext[0] * sizeof(*c->end));
		}
}

int mesh__crop_place(struct mesh_allocator *a, const struct mesh_view *v,
		     const struct mesh_request *req, uint32_t *out, int *rc)
{
	const struct mesh_topo *t = a->topo;
	int margin = crop_margin(a), lo[3], ext[3], q[3], d;
	struct mesh_view sv;
	struct mesh__crop *c;
	uint64_t vol, limit;
	uint32_t i;

	if (margin < 0 || a->sparse == MESH_SPARSE_OFF)
		return 0;
	limit = a->sparse == MESH_SPARSE_ALWAYS ? (uint64_t) t->nodes - 1
						: t->nodes / CROP_RATIO;
	vol = free_box(a, v->free, margin, limit, lo, ext);
	if (!vol)
		return 0;
	c = a->crop;
	if (!c || !box_contains(c, lo, ext) ||
	    (c->vol > CROP_KEEP_VOL && c->vol > CROP_KEEP_RATIO * vol)) {
		mesh__crop_destroy(a->crop);
		a->crop = c = crop_build(a, lo, ext, vol);
		if (!c)
			return 0; /* no memory: place on the whole mesh */
	}
	crop_fill(a, c, v);
	sv = *v;
	sv.topo = c->topo;
	sv.free = c->free;
	sv.end_time = v->end_time ? c->end : NULL;
	*rc = c->sub->entry->ops->place(c->sub, &sv, req, out);
	if (!*rc)
		for (i = 0; i < req->nodes; i++) {
			mesh_topo_coords(c->topo, out[i], q);
			for (d = 0; d < 3; d++)
				q[d] += c->lo[d];
			out[i] = mesh_topo_index(t, q);
		}
	a->sparse_used++;
	return 1;
}

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

int mesh_alloc_set_usable(struct mesh_allocator *a,
			  const struct mesh_bitmap *usable)
{
	int lo[3] = { 1 << 30, 1 << 30, 1 << 30 }, hi[3] = { -1, -1, -1 };
	int c[3], d;
	uint32_t w;
	uint64_t x;

	if (usable && usable->nbits != a->topo->nodes)
		return MESH_EINVAL;
	for (w = 0; usable && w < (usable->nbits + 63) / 64; w++)
		for (x = usable->words[w]; x; x &= x - 1) {
			mesh_topo_coords(
			    a->topo, w * 64 + (uint32_t) __builtin_ctzll(x), c);
			for (d = 0; d < 3; d++) {
				lo[d] = c[d] < lo[d] ? c[d] : lo[d];
				hi[d] = c[d] > hi[d] ? c[d] : hi[d];
			}
		}
	for (; a; a = a->base) {
		a->bounded = usable && hi[0] >= 0;
		memcpy(a->blo, lo, sizeof(lo));
		memcpy(a->bhi, hi, sizeof(hi));
		mesh__crop_destroy(a->crop); /* rebuilt for the new bound */
		a->crop = NULL;
	}
	return 0;
}
