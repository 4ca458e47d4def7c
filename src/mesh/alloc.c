/* alloc.c - the allocator registry, the crop wrapper and the checks
 * every placement passes.
 *
 * HOW IT WORKS: an allocator is created by name from the table below;
 * sl:<base> and auto create their bases through it.  Every placement
 * goes through mesh_alloc_place(), which validates the request, takes
 * the required nodes first, and runs the allocator, on a crop when
 * that applies: an allocator whose answer depends only on the free
 * nodes' geometry (its entry's crop policy) runs, when the free nodes
 * fit a small box, on a sub-mesh of that box (crop.c), through a second
 * allocator of the same name that the registry creates for the box and
 * keeps while later boxes fit in it.  Whatever comes back is verified
 * before the caller sees it: exactly k nodes, all free, no duplicates.
 * A violation is reported as MESH_EINTERNAL instead of reaching Slurm.
 */
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "crop.h"
#include "error.h"
#include "freenodes.h"

/* Auto mode crops when the box holds at most 1/CROP_RATIO of the mesh. */
#define CROP_RATIO 4

#define CURVE_FIT(curve, fit, ci, fi, text)                                    \
	{                                                                      \
		{ curve "-" fit, text, 0 }, &mesh__curve_ops, (ci) *4 + (fi),  \
		    MESH__CROP_NEVER                                           \
	}

/* Curve variants encode curve * 4 + fit; see alloc_curve.c. */
static const struct mesh_alloc_entry registry[] = {
	CURVE_FIT(
	    "rowmajor", "freelist", 0, 0,
	    "row-major order, first k free (Lo et al.; Walker et al. Sec. II)"),
	CURVE_FIT(
	    "rowmajor", "ff", 0, 1,
	    "row-major order, first fit over free intervals (Walker et al. Sec. II)"),
	CURVE_FIT(
	    "rowmajor", "bf", 0, 2,
	    "row-major order, best fit over free intervals (Walker et al. Sec. II)"),
	CURVE_FIT(
	    "rowmajor", "sos", 0, 3,
	    "row-major order, sum-of-squares fit (Walker et al. Sec. II)"),
	CURVE_FIT("snake", "freelist", 1, 0,
		  "row-major snake, first k free (Walker et al. Fig. 4a)"),
	CURVE_FIT("snake", "ff", 1, 1,
		  "row-major snake, first fit (Walker et al. Fig. 4a)"),
	CURVE_FIT("snake", "bf", 1, 2,
		  "row-major snake, best fit (Walker et al. Fig. 4a)"),
	CURVE_FIT(
	    "snake", "sos", 1, 3,
	    "row-major snake, sum-of-squares fit (Walker et al. Fig. 4a)"),
	CURVE_FIT("colsnake", "freelist", 2, 0,
		  "column-major snake, first k free (Walker et al. Fig. 4b)"),
	CURVE_FIT("colsnake", "ff", 2, 1,
		  "column-major snake, first fit (Walker et al. Fig. 4b)"),
	CURVE_FIT("colsnake", "bf", 2, 2,
		  "column-major snake, best fit (Walker et al. Fig. 4b)"),
	CURVE_FIT(
	    "colsnake", "sos", 2, 3,
	    "column-major snake, sum-of-squares fit (Walker et al. Fig. 4b)"),
	CURVE_FIT("hilbert", "freelist", 3, 0,
		  "spliced Hilbert curve, first k free (Walker et al. Fig. 5)"),
	CURVE_FIT("hilbert", "ff", 3, 1,
		  "spliced Hilbert curve, first fit (Walker et al. Fig. 5)"),
	CURVE_FIT("hilbert", "bf", 3, 2,
		  "spliced Hilbert curve, best fit (Walker et al. Fig. 5)"),
	CURVE_FIT(
	    "hilbert", "sos", 3, 3,
	    "spliced Hilbert curve, sum-of-squares fit (Walker et al. Fig. 5)"),
	{ { "mc1x1",
	    "MC with a 1x1 shell 0: L-inf shells around every free centre, least shell sum; the outermost shell filled greedily, nearest to those chosen (Walker et al. Sec. I, IV, Fig. 1)",
	    0 },
	  &mesh__mc_ops,
	  1,
	  MESH__CROP_FREE },
	{ { "mc1x1-ordered",
	    "MC1x1 with Mache's fixed in-shell order (shorter sides, longer sides, corners) in the outermost shell (Mache Ch. V)",
	    0 },
	  &mesh__mc_ops,
	  2,
	  MESH__CROP_FREE },
	{ { "mc",
	    "shell 0 of the requested shape, L-inf rings, least total shell number (Mache Ch. V, Fig. 31)",
	    MESH_ALLOC_USES_SHAPE },
	  &mesh__mc_ops,
	  0,
	  MESH__CROP_FREE },
	{ { "genalg",
	    "k free nodes nearest each free centre by L1, least pairwise sum (Krumke et al.; Walker et al. Sec. V)",
	    0 },
	  &mesh__genalg_ops,
	  0,
	  MESH__CROP_FREE },
	{ { "mm",
	    "Manhattan median: centres from free coordinates, k nearest by L1, least pairwise sum (Bender et al.)",
	    0 },
	  &mesh__mm_ops,
	  0,
	  MESH__CROP_FREE },
	{ { "mm-inc",
	    "MM then best improving swaps of the pairwise sum (Bender et al.)",
	    0 },
	  &mesh__mm_ops,
	  1,
	  MESH__CROP_FREE },
	{ { "paging",
	    "square pages in row-major order, free pages first; page=N (Lo et al. 1997; Mache Ch. II)",
	    0 },
	  &mesh__paging_ops,
	  0,
	  MESH__CROP_NEVER },
	{ { "random",
	    "k free nodes uniformly at random from req->seed (Lo et al. 1997)",
	    0 },
	  &mesh__random_ops,
	  0,
	  MESH__CROP_FREE },
	{ { "contig-ff",
	    "contiguous sub-mesh, first fit, wraps on tori (Tang et al. Sec. VI)",
	    MESH_ALLOC_CONTIGUOUS_ONLY | MESH_ALLOC_USES_SHAPE },
	  &mesh__contig_ops,
	  0,
	  MESH__CROP_FREE },
	{ { "contig-bf",
	    "contiguous sub-mesh, best fit by least fragmentation, wraps on tori (Tang et al. Sec. VI)",
	    MESH_ALLOC_CONTIGUOUS_ONLY | MESH_ALLOC_USES_SHAPE },
	  &mesh__contig_ops,
	  1,
	  MESH__CROP_FREE },
	{ { "mbs",
	    "Multiple Buddy Strategy, 2D power-of-2 squares; 2D meshes only (Lo et al. 1997; Walker et al. Fig. 10)",
	    0 },
	  &mesh__mbs_ops,
	  0,
	  MESH__CROP_NEVER },
	{ { "mbs-layered",
	    "MBS with the 2D square hierarchy on every layer (Walker et al. Sec. III-A)",
	    0 },
	  &mesh__mbs_ops,
	  1,
	  MESH__CROP_NEVER },
	{ { "mbs-octet", "MBS with power-of-2 cubes (Walker et al. Sec. III-A)",
	    0 },
	  &mesh__mbs_ops,
	  2,
	  MESH__CROP_NEVER },
	{ { "mbs-granular",
	    "MBS over x/y/z buddy phases, blocks of every power-of-2 size (Walker et al. Sec. III-A, Fig. 11)",
	    0 },
	  &mesh__mbs_ops,
	  3,
	  MESH__CROP_NEVER },
	{ { "plas",
	    "column-parallel middle-out scan from the I/O nodes (Mache Ch. VII, Figs. 51-52)",
	    MESH_ALLOC_USES_IO },
	  &mesh__plas_ops,
	  0,
	  MESH__CROP_NEVER },
	{ { "mc-elongated",
	    "MC with shell 0 of floor(k/h) whole columns, middle-out (Mache Ch. VII, Fig. 59)",
	    MESH_ALLOC_USES_IO },
	  &mesh__mce_ops,
	  0,
	  MESH__CROP_NEVER },
	{ { "auto",
	    "per-job policy (Mache Ch. VIII): I/O-heavy (io >= io=<percent>/100, default 50) -> plas, or mc-elongated if it communicates; comm=none -> hilbert-bf; else mc1x1, or box-first on a torus",
	    MESH_ALLOC_USES_IO },
	  &mesh__auto_ops,
	  0,
	  MESH__CROP_NEVER },
	{ { "box-first",
	    "an exact box (wraps on tori) when one of k fits, chosen by box=contig-bf (least fragmentation), else the most compact set by else=mm-inc (Tang et al. Sec. VI; Bender et al.)",
	    MESH_ALLOC_USES_SHAPE },
	  &mesh__box_ops,
	  0,
	  MESH__CROP_NEVER },
	/* One entry serves every sl:<base>; it is listed as sl:mc1x1. */
	{ { "sl:mc1x1",
	    "sl:<base> = walltime-aware tie-break among <base>'s equally good placements; bases: curve fits, mc1x1, mc1x1-ordered, mc, genalg, mm, mm-inc, contig-ff, contig-bf (Tang et al. Sec. IV-A, Alg. 1)",
	    MESH_ALLOC_USES_WALLTIME },
	  &mesh__sl_ops,
	  0,
	  MESH__CROP_NEVER },
};

static const size_t registry_len = sizeof(registry) / sizeof(registry[0]);

size_t mesh_alloc_count(void)
{
	return registry_len;
}

const struct mesh_alloc_info *mesh_alloc_describe(size_t i)
{
	return i < registry_len ? &registry[i].info : NULL;
}

static const struct mesh_alloc_entry *find_entry(const char *name)
{
	size_t i;

	for (i = 0; i < registry_len; i++)
		if (!strcmp(registry[i].info.name, name))
			return &registry[i];
	return NULL;
}

int mesh_alloc_create(const struct mesh_topo *t, const char *name,
		      const char *params, struct mesh_allocator **out,
		      struct mesh_diag *d)
{
	return mesh__alloc_create_geom(t, name, params, t ? t->dim : NULL, out,
				       d);
}

int mesh_alloc_create_contiguous(const struct mesh_topo *t,
				 struct mesh_allocator **out)
{
	const struct mesh_alloc_info *info;
	size_t i;

	for (i = 0; i < mesh_alloc_count(); i++) {
		info = mesh_alloc_describe(i);
		if ((info->flags & MESH_ALLOC_CONTIGUOUS_ONLY) &&
		    !mesh_alloc_create(t, info->name, NULL, out, NULL))
			return 0;
	}
	return MESH_ENOENT;
}

int mesh__alloc_create_geom(const struct mesh_topo *t, const char *name,
			    const char *params, const int *gdim,
			    struct mesh_allocator **out, struct mesh_diag *d)
{
	const struct mesh_alloc_entry *e;
	struct mesh_allocator *a;
	int rc;

	if (!t || !name || !out)
		return MESH_EINVAL;
	e = find_entry(strncmp(name, "sl:", 3) ? name : "sl:mc1x1");
	if (!e)
		return mesh_diag_set(
		    d, MESH_ENOENT, NULL, 0, "allocator",
		    "unknown allocator \"%s\" (see meshsim --list-allocators)",
		    name);
	a = calloc(1, sizeof(*a));
	if (!a)
		return MESH_ENOMEM;
	a->topo = t;
	a->entry = e;
	memcpy(a->gdim, gdim, sizeof(a->gdim));
	a->name = malloc(strlen(name) + 1);
	a->params = params ? malloc(strlen(params) + 1) : NULL;
	rc = a->name && (!params || a->params)
		 ? mesh_bitmap_create(t->nodes, &a->scratch_free)
		 : MESH_ENOMEM;
	if (!rc) {
		strcpy(a->name, name);
		if (params)
			strcpy(a->params, params);
		rc = e->ops->create ? e->ops->create(a, params, d)
				    : mesh__param_check(params, NULL, name, d);
	}
	if (rc) {
		a->entry = NULL; /* priv not created: skip ops->destroy */
		mesh_alloc_destroy(a);
		return rc;
	}
	*out = a;
	return 0;
}

void mesh_alloc_destroy(struct mesh_allocator *a)
{
	if (!a)
		return;
	if (a->entry && a->entry->ops->destroy)
		a->entry->ops->destroy(a);
	mesh_alloc_destroy(a->base);
	mesh_alloc_destroy(a->crop_sub);
	mesh__crop_destroy(a->crop);
	mesh_bitmap_destroy(a->scratch_free);
	free(a->params);
	free(a->name);
	free(a);
}

static const char *const comm_names[] = {
	[MESH_COMM_UNKNOWN] = "unknown",
	[MESH_COMM_NONE] = "none",
	[MESH_COMM_ALL_TO_ALL] = "all-to-all",
	[MESH_COMM_ONE_TO_ALL] = "one-to-all",
	[MESH_COMM_NEAREST] = "nearest",
	[MESH_COMM_CHAIN] = "chain",
	[MESH_COMM_PAIRS] = "pairs",
};

enum mesh_comm mesh_comm_parse(const char *s)
{
	int c;

	for (c = MESH_COMM_NONE; s && c <= MESH_COMM_CHAIN; c++)
		if (!strcmp(s, comm_names[c]))
			return (enum mesh_comm) c;
	return MESH_COMM_UNKNOWN;
}

const char *mesh_comm_name(enum mesh_comm c)
{
	if ((int) c < 0 || c > MESH_COMM_LAST)
		return comm_names[MESH_COMM_UNKNOWN];
	return comm_names[c];
}

const char *mesh_alloc_name(const struct mesh_allocator *a)
{
	return a->name;
}

unsigned mesh_alloc_flags(const struct mesh_allocator *a)
{
	if (a->base) /* wrapper: the base's contract plus its own */
		return a->entry->info.flags | a->added_flags |
		       mesh_alloc_flags(a->base);
	return a->entry->info.flags | a->added_flags;
}

void mesh_alloc_set_sparse(struct mesh_allocator *a, enum mesh_sparse_mode m)
{
	for (; a; a = a->base)
		a->sparse = m;
}

unsigned long mesh_alloc_sparse_count(const struct mesh_allocator *a)
{
	unsigned long n = 0;

	for (; a; a = a->base)
		n += a->sparse_used;
	return n;
}

/* Margin around the free nodes, or -1 if a never crops. */
static int crop_margin(const struct mesh_allocator *a)
{
	if (a->base) /* sl:<base> reads one hop around a placement */
		return a->base->entry->crop == MESH__CROP_NEVER ? -1 : 1;
	return a->entry->crop == MESH__CROP_NEVER ? -1 : 0;
}

/* A crop of box lo/ext with an allocator of a's name on it, into a's
 * cache; 0, or MESH_ENOMEM (the cache is then empty). */
static int crop_rebuild(struct mesh_allocator *a, const int lo[3],
			const int ext[3], uint64_t vol)
{
	int rc;

	mesh_alloc_destroy(a->crop_sub);
	mesh__crop_destroy(a->crop);
	a->crop_sub = NULL;
	a->crop = NULL;
	rc = mesh__crop_create(
	    a->topo, lo, ext, vol,
	    (mesh_alloc_flags(a) & MESH_ALLOC_USES_WALLTIME) != 0, &a->crop);
	if (!rc)
		rc = mesh__alloc_create_geom(a->crop->topo, a->name, a->params,
					     a->gdim, &a->crop_sub, NULL);
	if (rc) {
		mesh__crop_destroy(a->crop);
		a->crop = NULL;
		return rc;
	}
	mesh_alloc_set_sparse(a->crop_sub, MESH_SPARSE_OFF);
	return 0;
}

/* Runs a on the box of the free nodes when its entry allows it and it
 * pays: 1 with *rc set and out[] in whole-mesh indices if it did, 0 if
 * the caller must place on the whole mesh. */
static int crop_place(struct mesh_allocator *a, const struct mesh_view *v,
		      const struct mesh_request *req, uint32_t *out, int *rc)
{
	const struct mesh_topo *t = a->topo;
	int margin = crop_margin(a), lo[3], ext[3];
	struct mesh_view sv;
	uint64_t vol, limit;

	if (margin < 0 || a->sparse == MESH_SPARSE_OFF)
		return 0;
	limit = a->sparse == MESH_SPARSE_ALWAYS ? (uint64_t) t->nodes - 1
						: t->nodes / CROP_RATIO;
	vol = mesh__crop_box(a, v->free, margin, limit, lo, ext);
	if (!vol)
		return 0;
	if ((!a->crop || !mesh__crop_serves(a->crop, lo, ext, vol)) &&
	    crop_rebuild(a, lo, ext, vol))
		return 0; /* no memory: place on the whole mesh */
	mesh__crop_view(a->crop, a, v, &sv);
	*rc = a->crop_sub->entry->ops->place(a->crop_sub, &sv, req, out);
	if (!*rc)
		mesh__crop_unmap(a->crop, t, out, req->nodes);
	a->sparse_used++;
	return 1;
}

int mesh__alloc_run(struct mesh_allocator *a, const struct mesh_view *v,
		    const struct mesh_request *req, uint32_t *out)
{
	int rc;

	if (crop_place(a, v, req, out, &rc))
		return rc;
	return a->entry->ops->place(a, v, req, out);
}

int mesh__alloc_run_part(struct mesh_allocator *a, struct mesh_allocator *part,
			 const struct mesh_view *v,
			 const struct mesh_request *req, uint32_t *out)
{
	int rc;

	part->sparse = a->sparse;
	part->bounded = a->bounded;
	memcpy(part->blo, a->blo, sizeof(part->blo));
	memcpy(part->bhi, a->bhi, sizeof(part->bhi));
	rc = mesh__alloc_run(part, v, req, out);
	a->sparse_used += part->sparse_used;
	part->sparse_used = 0;
	return rc;
}

/* Every node in out[0..k) is free and appears once.  Uses (and restores)
 * the scratch bitmap. */
static int verify_placement(struct mesh_allocator *a,
			    const struct mesh_bitmap *free_map,
			    const uint32_t *out, uint32_t k)
{
	struct mesh_bitmap *seen = a->scratch_free; /* all clear */
	int rc = 0;
	uint32_t i, j;

	for (i = 0; i < k; i++) {
		if (out[i] >= a->topo->nodes ||
		    !mesh_bitmap_test(free_map, out[i]) ||
		    mesh_bitmap_test(seen, out[i])) {
			rc = MESH_EINTERNAL;
			break;
		}
		mesh_bitmap_set(seen, out[i]);
	}
	for (j = 0; j < i; j++) /* O(k), not O(positions) */
		mesh_bitmap_clear(seen, out[j]);
	return rc;
}

/* Required nodes are taken first; the allocator places the rest on the
 * remaining free nodes. */
static int place_with_required(struct mesh_allocator *a,
			       const struct mesh_view *v,
			       const struct mesh_request *req, uint32_t *out)
{
	struct mesh_bitmap *free_rest = NULL;
	struct mesh_request rest = *req;
	struct mesh_view vrest = *v;
	size_t i;
	int rc;

	if (req->n_required > req->nodes)
		return MESH_EINVAL;
	rc = mesh_bitmap_create(a->topo->nodes, &free_rest);
	if (rc)
		return rc;
	mesh_bitmap_copy(free_rest, v->free);
	for (i = 0; i < req->n_required; i++) {
		uint32_t n = req->required[i];

		if (n >= a->topo->nodes || !mesh_bitmap_test(free_rest, n)) {
			rc = MESH_EINVAL; /* busy, not allowed or duplicated */
			goto out;
		}
		mesh_bitmap_clear(free_rest, n);
		out[i] = n;
	}
	rest.nodes = req->nodes - (uint32_t) req->n_required;
	rest.required = NULL;
	rest.n_required = 0;
	vrest.free = free_rest;
	if (rest.nodes)
		rc = mesh__alloc_run(a, &vrest, &rest, out + req->n_required);
out:
	mesh_bitmap_destroy(free_rest);
	return rc;
}

int mesh_alloc_place(struct mesh_allocator *a, const struct mesh_view *v,
		     const struct mesh_request *req, uint32_t *out)
{
	int rc;

	if (!a || !v || !v->free || !req || !out || v->topo != a->topo)
		return MESH_EINVAL;
	if (req->nodes == 0 || req->nodes > a->topo->nodes ||
	    (req->n_required && !req->required))
		return MESH_EINVAL;
	if (mesh__free_count(a, v->free) < req->nodes)
		return MESH_ENOSPC;
	if (req->n_required)
		rc = place_with_required(a, v, req, out);
	else
		rc = mesh__alloc_run(a, v, req, out);
	if (rc)
		return rc;
	return verify_placement(a, v->free, out, req->nodes);
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
		mesh_alloc_destroy(a->crop_sub); /* rebuilt for the new bound */
		mesh__crop_destroy(a->crop);
		a->crop_sub = NULL;
		a->crop = NULL;
	}
	return 0;
}
