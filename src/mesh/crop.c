/* crop.c - the bounding box of the free nodes as a sub-mesh, for the
 * registry's crop wrapper (alloc.c).
 *
 * On a sparse mesh (a mesh.conf naming 32 nodes in Dimensions=2048x2048)
 * every per-decision pass over all positions (prefix sums, centre loops,
 * per-axis distance tables) costs millions of steps for a few dozen
 * candidate nodes.  When every free node lies in a small box, the
 * registry runs the allocator on that box instead.
 *
 * HOW IT WORKS: mesh__crop_box() finds the box an x-row at a time, 64
 * positions per step, and gives up as soon as it exceeds the limit;
 * mesh__crop_create() makes a mesh of the box's extents (with the I/O
 * nodes inside it); mesh__crop_view() copies the free map and end times
 * into it; mesh__crop_unmap() maps the answer back to whole-mesh
 * indices.  The allocator that runs on the crop is the registry's.
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
 */
#include "crop.h"

#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "boxsum.h"
#include "error.h"
#include "freenodes.h"

/* A cached box is kept for a smaller one while at most this big... */
#define CROP_KEEP_VOL 4096
/* ... or at most CROP_KEEP_RATIO times the box needed. */
#define CROP_KEEP_RATIO 8

void mesh__crop_destroy(struct mesh__crop *c)
{
	if (!c)
		return;
	mesh_topo_destroy(c->topo);
	mesh_bitmap_destroy(c->free);
	free(c->end);
	free(c);
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

/* Row by row (y, z fixed), 64 positions at a time: a chunk's lowest and
 * highest free bits widen the box in x (issue 10: a call per free node
 * cost 7% of an mc1x1 decision at 32x32x32); it stops as soon as the
 * box exceeds limit. */
uint64_t mesh__crop_box(const struct mesh_allocator *a,
			const struct mesh_bitmap *f, int margin, uint64_t limit,
			int lo[3], int ext[3])
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

int mesh__crop_serves(const struct mesh__crop *c, const int lo[3],
		      const int ext[3], uint64_t vol)
{
	int d;

	for (d = 0; d < 3; d++)
		if (lo[d] < c->lo[d] || lo[d] + ext[d] > c->lo[d] + c->ext[d])
			return 0;
	return c->vol <= CROP_KEEP_VOL || c->vol <= CROP_KEEP_RATIO * vol;
}

int mesh__crop_create(const struct mesh_topo *t, const int lo[3],
		      const int ext[3], uint64_t vol, int with_end,
		      struct mesh__crop **out)
{
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
	if (with_end && !(c->end = malloc(vol * sizeof(*c->end))))
		goto fail;
	free(io);
	*out = c;
	return 0;
fail:
	free(io);
	mesh__crop_destroy(c);
	return MESH_ENOMEM;
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

void mesh__crop_view(struct mesh__crop *c, const struct mesh_allocator *a,
		     const struct mesh_view *v, struct mesh_view *sv)
{
	const struct mesh_topo *t = a->topo;
	struct fill_ctx x = { t, c };
	int y, z;

	*sv = *v;
	sv->topo = c->topo;
	sv->free = c->free;
	sv->end_time = v->end_time ? c->end : NULL;
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

void mesh__crop_unmap(const struct mesh__crop *c, const struct mesh_topo *t,
		      uint32_t *out, uint32_t k)
{
	int q[3], d;
	uint32_t i;

	for (i = 0; i < k; i++) {
		mesh_topo_coords(c->topo, out[i], q);
		for (d = 0; d < 3; d++)
			q[d] += c->lo[d];
		out[i] = mesh_topo_index(t, q);
	}
}
