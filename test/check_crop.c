/* check_crop.c - sparse paths give the whole mesh's answers.
 *
 * Every registered allocator (and sl: over several bases) is run twice
 * on the same random maps: with MESH_SPARSE_OFF (always the whole mesh)
 * and with MESH_SPARSE_ALWAYS (a crop to the free nodes' bounding box
 * whenever the allocator allows one, the curve fits' run list from the
 * free nodes).  The maps put the free nodes in a random sub-box, as a
 * mesh.conf naming few nodes in a large Dimensions= does, with random
 * sizes, shapes, I/O intensities, end times and required nodes.  The
 * answers must be equal node for node, in order, and so must the
 * errors.  The allocators that claim a sparse path must have taken it.
 */
#include "testutil.h"

static const char *const meshes[] = { "24x20",    "9x13x5", "16tx12",
				      "12x10tx4", "40x3",   "7x6x9" };

static const char *const extra[] = { "sl:mc1x1",      "sl:mc",
				     "sl:genalg",     "sl:mm",
				     "sl:hilbert-bf", "sl:snake-sos",
				     "sl:contig-bf",  "sl:rowmajor-ff" };

/* Allocators without a sparse path (doc/design.md, "Sparse meshes"). */
static int never_sparse(const char *name)
{
	static const char *const never[] = { "mbs",       "mbs-layered",
					     "mbs-octet", "mbs-granular",
					     "paging",    "mc-elongated" };
	size_t i;

	for (i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		if (!strcmp(name, never[i]))
			return 1;
	return 0;
}

/* Free nodes only inside a random box (each with probability p); a few
 * maps also free one node elsewhere.  Returns the number free. */
static uint32_t boxed_map(const struct mesh_topo *t, struct mesh_bitmap *f,
			  const int ulo[3], const int uext[3], uint64_t *s)
{
	int lo[3], ext[3], c[3], d;
	uint32_t i, n = 0, p = 30 + (uint32_t) (tu_rand(s) % 65);

	for (d = 0; d < 3; d++) {
		ext[d] = 1 + (int) (tu_rand(s) % (uint64_t) uext[d]);
		if (tu_rand(s) % 2)
			ext[d] = 1 + ext[d] / 2;
		lo[d] = ulo[d] +
			(int) (tu_rand(s) % (uint64_t) (uext[d] - ext[d] + 1));
	}
	mesh_bitmap_fill(f, false);
	for (i = 0; i < t->nodes; i++) {
		mesh_topo_coords(t, i, c);
		for (d = 0; d < 3; d++)
			if (c[d] < lo[d] || c[d] >= lo[d] + ext[d])
				break;
		if (d == 3 && tu_rand(s) % 100 < p)
			mesh_bitmap_set(f, i);
	}
	if (tu_rand(s) % 8 == 0) { /* a stray free node in the usable box */
		for (d = 0; d < 3; d++)
			c[d] = ulo[d] + (int) (tu_rand(s) % (uint64_t) uext[d]);
		mesh_bitmap_set(f, mesh_topo_index(t, c));
	}
	for (i = 0; i < t->nodes; i++)
		n += mesh_bitmap_test(f, i);
	return n;
}

/* 1 to 4 I/O nodes anywhere (inside or outside the free region). */
static void random_io(struct mesh_topo *t, uint64_t *s)
{
	uint32_t io[4], n = 1 + (uint32_t) (tu_rand(s) % 4), i, j, m = 0;

	for (i = 0; i < n; i++) {
		uint32_t x = (uint32_t) (tu_rand(s) % t->nodes);

		for (j = 0; j < m && io[j] != x; j++)
			;
		if (j == m)
			io[m++] = x;
	}
	ck_assert_int_eq(mesh_topo_set_io_nodes(t, io, m), 0);
}

/* Runs name on t for rounds maps; returns how often the sparse path was
 * taken, or -1 if the allocator does not exist on t. */
static long compare_one(struct mesh_topo *t, const char *name, int rounds,
			uint64_t seed)
{
	struct mesh_allocator *whole = NULL, *sparse = NULL;
	struct mesh_bitmap *f = NULL;
	struct mesh_diag d;
	uint32_t *o1 = malloc(t->nodes * sizeof(*o1));
	uint32_t *o2 = malloc(t->nodes * sizeof(*o2));
	uint32_t req_nodes[2];
	double *end = malloc(t->nodes * sizeof(*end));
	uint64_t s = seed;
	uint32_t nfree, i;
	int r, rc1, rc2, placed = 0, ulo[3], uext[3], c[3], dd;
	long used;

	if (mesh_alloc_create(t, name, NULL, &whole, &d)) {
		free(o1), free(o2), free(end);
		return -1;
	}
	ck_assert_int_eq(mesh_alloc_create(t, name, NULL, &sparse, &d), 0);
	mesh_alloc_set_sparse(whole, MESH_SPARSE_OFF);
	mesh_alloc_set_sparse(sparse, MESH_SPARSE_ALWAYS);
	ck_assert_int_eq(mesh_bitmap_create(t->nodes, &f), 0);
	/* Half the time a usable box (mesh_alloc_set_usable, as select/mesh
	 * declares its named nodes) holds every map's free nodes. */
	for (dd = 0; dd < 3; dd++) {
		ulo[dd] = 0, uext[dd] = t->dim[dd];
		if (seed % 2) {
			uext[dd] =
			    1 + (int) (tu_rand(&s) % (uint64_t) t->dim[dd]);
			ulo[dd] =
			    (int) (tu_rand(&s) %
				   (uint64_t) (t->dim[dd] - uext[dd] + 1));
		}
	}
	if (seed % 2) {
		mesh_bitmap_fill(f, false);
		for (i = 0; i < t->nodes; i++) {
			mesh_topo_coords(t, i, c);
			for (dd = 0; dd < 3; dd++)
				if (c[dd] < ulo[dd] ||
				    c[dd] >= ulo[dd] + uext[dd])
					break;
			if (dd == 3)
				mesh_bitmap_set(f, i);
		}
		ck_assert_int_eq(mesh_alloc_set_usable(sparse, f), 0);
	}
	for (r = 0; r < rounds; r++) {
		struct mesh_request req;
		struct mesh_view v = { t, f, end, 1000.0 };

		nfree = boxed_map(t, f, ulo, uext, &s);
		if (!nfree)
			continue;
		for (i = 0; i < t->nodes; i++)
			end[i] = tu_rand(&s) % 5
				     ? 1000.0 + (double) (tu_rand(&s) % 50)
				     : 0.0;
		memset(&req, 0, sizeof(req));
		req.nodes = 1 + (uint32_t) (tu_rand(&s) % nfree);
		if (tu_rand(&s) % 3 == 0 && req.nodes > 8)
			req.nodes = 1 + req.nodes % 8;
		req.end_time = tu_rand(&s) % 4
				   ? 1010.0 + (double) (tu_rand(&s) % 40)
				   : 0.0;
		req.io_intensity = (double) (tu_rand(&s) % 11) / 10.0;
		req.seed = tu_rand(&s);
		if (tu_rand(&s) % 3 == 0) {
			req.shape[0] = 1 + (int) (tu_rand(&s) % 4);
			req.shape[1] = 1 + (int) (tu_rand(&s) % 4);
			req.shape[2] =
			    t->ndims == 3 ? 1 + (int) (tu_rand(&s) % 2) : 0;
			if (tu_rand(&s) % 2) {
				uint32_t vol =
				    (uint32_t) req.shape[0] *
				    (uint32_t) req.shape[1] *
				    (uint32_t) (req.shape[2] ? req.shape[2]
							     : 1);

				if (vol <= nfree)
					req.nodes = vol;
			}
		}
		if (tu_rand(&s) % 6 == 0) {
			/* one or two required free nodes */
			for (i = 0; i < t->nodes && req.n_required < 2 &&
				    req.n_required < req.nodes;
			     i++)
				if (mesh_bitmap_test(f, i) &&
				    tu_rand(&s) % 3 == 0)
					req_nodes[req.n_required++] = i;
			req.required = req_nodes;
		}
		if (tu_rand(&s) % 2)
			v.end_time = NULL;
		rc1 = mesh_alloc_place(whole, &v, &req, o1);
		rc2 = mesh_alloc_place(sparse, &v, &req, o2);
		ck_assert_msg(rc1 == rc2, "%s round %d: rc %d whole, %d sparse",
			      name, r, rc1, rc2);
		if (rc1)
			continue;
		placed++;
		for (i = 0; i < req.nodes; i++)
			ck_assert_msg(
			    o1[i] == o2[i],
			    "%s round %d k=%u: node %u is %u whole, %u sparse",
			    name, r, req.nodes, i, o1[i], o2[i]);
	}
	ck_assert_msg(placed > rounds / 4, "%s placed only %d of %d", name,
		      placed, rounds);
	used = (long) mesh_alloc_sparse_count(sparse);
	ck_assert_uint_eq(mesh_alloc_sparse_count(whole), 0);
	mesh_alloc_destroy(whole);
	mesh_alloc_destroy(sparse);
	mesh_bitmap_destroy(f);
	free(o1), free(o2), free(end);
	return used;
}

static void check_name(struct mesh_topo *t, const char *name, uint64_t seed)
{
	long used = compare_one(t, name, 120, seed);
	const char *base = strncmp(name, "sl:", 3) ? name : name + 3;

	if (used < 0)
		return; /* not available on this mesh (mbs: 2D only) */
	if (never_sparse(base))
		ck_assert_msg(used == 0, "%s took a sparse path", name);
	else
		ck_assert_msg(used > 30,
			      "%s took the sparse path only %ld times", name,
			      used);
}

START_TEST(test_crop_same_answers)
{
	struct mesh_topo *t = tu_topo(meshes[_i]);
	uint64_t s = 77 + (uint64_t) _i;
	size_t a;

	random_io(t, &s);
	for (a = 0; a < mesh_alloc_count(); a++) {
		const char *name = mesh_alloc_describe(a)->name;

		if (strncmp(name, "sl:", 3))
			check_name(t, name, 1000 * (uint64_t) _i + a);
	}
	for (a = 0; a < sizeof(extra) / sizeof(extra[0]); a++)
		check_name(t, extra[a], 5000 + a);
	mesh_topo_destroy(t);
}
END_TEST

/* The default (auto) mode crops on a sparse mesh and still agrees: 32
 * nodes of a 4x8 block in 512x512, as select/mesh sees a small cluster
 * in a large Dimensions=. */
START_TEST(test_crop_auto_sparse_mesh)
{
	static const char *const names[] = { "mc1x1", "hilbert-bf", "genalg",
					     "sl:mc1x1", "mm" };
	struct mesh_topo *t = tu_topo("512x512");
	struct mesh_bitmap *f = NULL;
	uint32_t o1[32], o2[32], i, k;
	uint64_t s = 5;
	size_t a;

	ck_assert_int_eq(mesh_bitmap_create(t->nodes, &f), 0);
	for (a = 0; a < sizeof(names) / sizeof(names[0]); a++) {
		struct mesh_allocator *whole = NULL, *dflt = NULL;
		struct mesh_diag d;
		int r, rc, placed = 0;

		ck_assert_int_eq(
		    mesh_alloc_create(t, names[a], NULL, &whole, &d), 0);
		ck_assert_int_eq(
		    mesh_alloc_create(t, names[a], NULL, &dflt, &d), 0);
		mesh_alloc_set_sparse(whole, MESH_SPARSE_OFF);
		for (r = 0; r < 20; r++) {
			struct mesh_request req;
			struct mesh_view v = { t, f, NULL, 0 };
			uint32_t nfree = 0;

			mesh_bitmap_fill(f, false);
			for (i = 0; i < 32; i++)
				if (tu_rand(&s) % 3) {
					mesh_bitmap_set(
					    f, tu_node(t, 300 + (int) (i % 4),
						       200 + (int) (i / 4), 0));
					nfree++;
				}
			k = 1 + (uint32_t) (tu_rand(&s) % (nfree ? nfree : 1));
			memset(&req, 0, sizeof(req));
			req.nodes = k;
			req.io_intensity = -1;
			rc = mesh_alloc_place(whole, &v, &req, o1);
			ck_assert_int_eq(mesh_alloc_place(dflt, &v, &req, o2),
					 rc);
			placed += !rc;
			if (!rc)
				ck_assert_mem_eq(o1, o2, k * sizeof(*o1));
		}
		ck_assert_msg(placed >= 10, "%s placed %d of 20", names[a],
			      placed);
		ck_assert_msg(
		    mesh_alloc_sparse_count(dflt) == 20,
		    "%s: auto mode took the sparse path %lu of 20 times",
		    names[a], mesh_alloc_sparse_count(dflt));
		mesh_alloc_destroy(whole);
		mesh_alloc_destroy(dflt);
	}
	/* a dense map is not cropped in auto mode */
	{
		struct mesh_allocator *al = NULL;
		struct mesh_request req;
		struct mesh_view v = { t, f, NULL, 0 };
		struct mesh_diag d;
		uint32_t out[8];

		ck_assert_int_eq(mesh_alloc_create(t, "mc1x1", NULL, &al, &d),
				 0);
		mesh_bitmap_fill(f, true);
		memset(&req, 0, sizeof(req));
		req.nodes = 8;
		ck_assert_int_eq(mesh_alloc_place(al, &v, &req, out), 0);
		ck_assert_uint_eq(mesh_alloc_sparse_count(al), 0);
		mesh_alloc_destroy(al);
	}
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("crop");
	TCase *tc = tcase_create("crop");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_crop_same_answers, 0,
			    (int) (sizeof(meshes) / sizeof(meshes[0])));
	tcase_add_test(tc, test_crop_auto_sparse_mesh);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
