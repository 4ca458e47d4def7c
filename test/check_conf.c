/* check_conf.c - mesh.conf parsing, the hostlist expander and their
 * diagnostics, plus a mutation fuzz test of the parser. */
#include <stdio.h>
#include <unistd.h>

#include <math.h>

#include "testutil.h"

static struct mesh_conf *conf_ok(const char *text)
{
	struct mesh_conf *c = NULL;
	struct mesh_diag d;
	char buf[600];
	int rc;

	mesh_diag_clear(&d);
	rc = mesh_conf_parse(text, strlen(text), "t.conf", &c, &d);
	ck_assert_msg(rc == 0, "parse failed: %s",
		      mesh_diag_format(&d, buf, sizeof(buf)));
	ck_assert_int_eq(mesh_topo_check(c->topo), 0);
	return c;
}

static void ck_coord(const struct mesh_conf *c, const char *name, int x,
		     int y, int z)
{
	uint32_t idx;
	int co[3];

	ck_assert_msg(mesh_conf_lookup(c, name, &idx) == 0, "%s missing", name);
	mesh_topo_coords(c->topo, idx, co);
	ck_assert_msg(co[0] == x && co[1] == y && co[2] == z,
		      "%s at %d,%d,%d, expected %d,%d,%d", name, co[0], co[1],
		      co[2], x, y, z);
	ck_assert_str_eq(c->node_name[idx], name);
}

/* ---------------------------------------------------------- hostlist */

static const struct {
	const char *spec;
	size_t n;
	const char *first, *last;
} hl_good[] = {
	{ "n[0-15]", 16, "n0", "n15" },
	{ "n[0-15,20]", 17, "n0", "n20" },
	{ "n[00-03]", 4, "n00", "n03" },
	{ "r[0-1]n[0-3]", 8, "r0n0", "r1n3" },
	{ "io[1-2]-eth", 2, "io1-eth", "io2-eth" },
	{ "login1,login2,n[7]", 3, "login1", "n7" },
	{ "a", 1, "a", "a" },
	{ "n[8-9],m[1-2]x", 4, "n8", "m2x" },
};

START_TEST(test_hostlist_expand_good)
{
	struct mesh_diag d;
	char **names = NULL;
	size_t n = 0;

	ck_assert_int_eq(mesh_hostlist_expand(hl_good[_i].spec, 1000, &names,
					      &n, &d),
			 0);
	ck_assert_uint_eq(n, hl_good[_i].n);
	ck_assert_str_eq(names[0], hl_good[_i].first);
	ck_assert_str_eq(names[n - 1], hl_good[_i].last);
	mesh_hostlist_free(names, n);
}
END_TEST

START_TEST(test_hostlist_expand_order)
{
	struct mesh_diag d;
	char **names = NULL;
	size_t n = 0;

	ck_assert_int_eq(mesh_hostlist_expand("r[0-1]n[0-1]", 10, &names, &n,
					      &d),
			 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(names[1], "r0n1");
	ck_assert_str_eq(names[2], "r1n0");
	mesh_hostlist_free(names, n);
}
END_TEST

static const char *const hl_bad[] = {
	"", "n[", "n]", "n[1-", "n[3-1]", "n[a-b]", "n[[1]]", "n,,m",
	"n[1-2", ",n", "n[]", "n x", "n[1-2-3]", "n[0-99999999999]",
	"n[0-2000]",
};

START_TEST(test_hostlist_expand_bad)
{
	struct mesh_diag d;
	char **names = (char **) 0x1;
	size_t n = 77;

	mesh_diag_clear(&d);
	ck_assert_int_lt(mesh_hostlist_expand(hl_bad[_i], 1000, &names, &n,
					      &d),
			 0);
	ck_assert_ptr_eq(names, (char **) 0x1);
	ck_assert_uint_eq(n, 77);
	ck_assert_str_eq(d.field, "hostlist");
	ck_assert(strlen(d.message) > 0);
}
END_TEST

/* ------------------------------------------------------- mesh.conf ok */

START_TEST(test_conf_parse_basic)
{
	struct mesh_conf *c = conf_ok(
		"# a 4x4 mesh\n"
		"Dimensions=4x4\n"
		"Nodes=n[0-15]   # x fastest\n"
		"Allocator=mc1x1\n");

	ck_assert_int_eq(c->topo->ndims, 2);
	ck_assert_uint_eq(c->n_named, 16);
	ck_coord(c, "n0", 0, 0, 0);
	ck_coord(c, "n5", 1, 1, 0);
	ck_coord(c, "n15", 3, 3, 0);
	ck_assert_str_eq(c->allocator, "mc1x1");
	ck_assert_ptr_null(c->alloc_params);
	ck_assert_int_eq(mesh_conf_lookup(c, "n16", NULL), MESH_ENOENT);
	mesh_conf_destroy(c);
}
END_TEST

START_TEST(test_conf_parse_case_and_pairs)
{
	struct mesh_conf *c = conf_ok(
		"dimensions=4tx2 NODES=n[0-7] allocator=hilbert-bf\n");

	ck_assert(c->topo->wrap[0]);
	ck_assert(!c->topo->wrap[1]);
	ck_coord(c, "n4", 0, 1, 0);
	mesh_conf_destroy(c);
}
END_TEST

START_TEST(test_conf_parse_order_yx)
{
	struct mesh_conf *c = conf_ok(
		"Dimensions=4x2\nNodes=n[0-7]\nNodeOrder=yx\nAllocator=mc1x1\n");

	ck_coord(c, "n1", 0, 1, 0);
	ck_coord(c, "n2", 1, 0, 0);
	mesh_conf_destroy(c);
}
END_TEST

START_TEST(test_conf_parse_3d_racks)
{
	struct mesh_conf *c = conf_ok(
		"Dimensions=2x2x2\nNodes=r[0-1]n[0-3]\nNodeOrder=zxy\n"
		"Allocator=mc1x1\n");

	ck_assert_int_eq(c->topo->ndims, 3);
	ck_coord(c, "r0n0", 0, 0, 0);
	ck_coord(c, "r0n1", 0, 0, 1);
	ck_coord(c, "r0n2", 1, 0, 0);
	ck_coord(c, "r1n3", 1, 1, 1);
	mesh_conf_destroy(c);
}
END_TEST

START_TEST(test_conf_parse_override_swap)
{
	struct mesh_conf *c = conf_ok(
		"Dimensions=2x2\nNodes=n[0-3]\n"
		"NodeName=n0 Coord=1,1\nNodeName=n3 Coord=0,0\n"
		"Allocator=mc1x1\n");

	ck_coord(c, "n0", 1, 1, 0);
	ck_coord(c, "n1", 1, 0, 0);
	ck_coord(c, "n3", 0, 0, 0);
	mesh_conf_destroy(c);
}
END_TEST

START_TEST(test_conf_parse_partial_mesh)
{
	struct mesh_conf *c = conf_ok(
		"Dimensions=4x4\nNodes=n[0-9]\nNodeName=extra Coord=3,3\n"
		"Allocator=mc1x1\n");

	ck_assert_uint_eq(c->n_named, 11);
	ck_coord(c, "extra", 3, 3, 0);
	ck_assert_ptr_null(c->node_name[14]);
	mesh_conf_destroy(c);
}
END_TEST

START_TEST(test_conf_parse_io_nodes)
{
	struct mesh_conf *c = conf_ok(
		"Dimensions=4x4\nNodes=n[0-15]\nIONodes=0,0;3,3\n"
		"Allocator=mc1x1\n");
	struct mesh_conf *c2 = conf_ok(
		"Dimensions=4x4\nNodes=n[0-15]\nIONodes=n[5,10]\n"
		"Allocator=mc1x1\n");

	ck_assert_uint_eq(c->topo->n_io, 2);
	ck_assert(mesh_topo_is_io(c->topo, 0));
	ck_assert(mesh_topo_is_io(c->topo, 15));
	ck_assert_uint_eq(c2->topo->n_io, 2);
	ck_assert(mesh_topo_is_io(c2->topo, 5));
	ck_assert(mesh_topo_is_io(c2->topo, 10));
	mesh_conf_destroy(c);
	mesh_conf_destroy(c2);
}
END_TEST

START_TEST(test_conf_parse_every_allocator)
{
	const struct mesh_alloc_info *info = mesh_alloc_describe((size_t) _i);
	struct mesh_conf *c;
	char text[256];

	size_t len = strlen(info->name);
	/* "sl:" style entries wrap another allocator */
	const char *inner = len && info->name[len - 1] == ':' ? "mc1x1" : "";

	/* I/O nodes too: I/O-aware allocators refuse a mesh without them */
	snprintf(text, sizeof(text),
		 "Dimensions=4x4\nNodes=n[0-15]\nIONodes=0,0;3,3\nAllocator=%s%s\n",
		 info->name, inner);
	c = conf_ok(text);
	ck_assert(!strncmp(c->allocator, info->name, len));
	mesh_conf_destroy(c);
}
END_TEST

/* ------------------------------------------------------ mesh.conf bad */

#define HEAD "Dimensions=4x4\nNodes=n[0-15]\n"

static const struct {
	const char *text;
	long line;
	const char *field;
	const char *needle;
} conf_bad[] = {
	{ HEAD "Allocator=mc1x1\nColour=blue\n", 4, "Colour", "unknown key" },
	/* the list of keys names every key the parser knows */
	{ HEAD "DefaultCom=none\n", 3, "DefaultCom", "DefaultIOIntensity, DefaultComm, PlanMaxPlacements, PlanMaxTime, CoresPerNode, LinkBandwidth, NodeBandwidth, IONodeBandwidth or FileSystemBandwidth)" },
	{ HEAD "Allocator=mc1x1 Nodez=n1\n", 3, "Nodez", "unknown key" },
	{ "Dimensions=4y4\nNodes=n[0-15]\nAllocator=mc1x1\n", 1, "Dimensions", "4y4" },
	{ "Dimensions=4x4\nNodes=n[0-16]\nAllocator=mc1x1\n", 2, "Nodes", "more node names than mesh positions" },
	{ HEAD "NodeName=x Coord=1,1\nAllocator=mc1x1\n", 3, "Coord", "node x is on the same coordinate as node n5" },
	{ "Dimensions=2x2\nNodeName=a Coord=0,1\nNodeName=b Coord=0,1\nAllocator=mc1x1\n", 3, "Coord", "node b is on the same coordinate as node a (line 2)" },
	{ HEAD "NodeName=n0 Coord=4,0\nAllocator=mc1x1\n", 3, "Coord", "outside the dimensions" },
	{ HEAD "NodeName=n0 Coord=1,1,1\nAllocator=mc1x1\n", 3, "Coord", "outside the dimensions" },
	{ HEAD "Allocator=nosuch\n", 3, "Allocator", "unknown allocator" },
	{ HEAD "\n\n", 4, "Allocator", "missing Allocator" },
	{ "Nodes=n[0-3]\nAllocator=mc1x1\n", 2, "Dimensions", "missing Dimensions" },
	{ "Dimensions=2x2\nAllocator=mc1x1\n", 2, "Nodes", "no nodes" },
	{ HEAD "Dimensions=2x2\nAllocator=mc1x1\n", 3, "Dimensions", "duplicate key" },
	{ HEAD "Coord=1,1\nAllocator=mc1x1\n", 3, "Coord", "without NodeName" },
	{ HEAD "NodeName=q\nAllocator=mc1x1\n", 3, "NodeName", "without Coord" },
	{ HEAD "NodeName=n[1-2] Coord=0,0\nAllocator=mc1x1\n", 3, "NodeName", "not a hostlist" },
	{ HEAD "NodeName=n1 Coord=a,b\nAllocator=mc1x1\n", 3, "Coord", "bad value" },
	{ HEAD "NodeName=n1 Coord=0,1\nNodeName=n1 Coord=0,2\nAllocator=mc1x1\n", 4, "NodeName", "twice" },
	{ HEAD "NodeOrder=xz\nAllocator=mc1x1\n", 3, "NodeOrder", "permutation" },
	{ HEAD "IONodes=0,0;9,9\nAllocator=mc1x1\n", 3, "IONodes", "coordinate" },
	{ HEAD "IONodes=n99\nAllocator=mc1x1\n", 3, "IONodes", "not a node" },
	{ HEAD "IONodes=0,0;0,0\nAllocator=mc1x1\n", 3, "IONodes", "twice" },
	{ HEAD "Allocator=\n", 3, "Allocator", "empty value" },
	{ HEAD "Allocator mc1x1\n", 3, "", "Key=Value" },
	{ "Dimensions=4x4\nNodes=n[0-3,2]\nAllocator=mc1x1\n", 2, "Nodes", "listed twice" },
	{ "Dimensions=4x4\nNodes=n[0-\nAllocator=mc1x1\n", 2, "Nodes", "n[0-" },
	{ HEAD "Allocator=mc1x1\nAllocatorParameters=bogus=1\n", 4, "AllocatorParameters", "" },
	/* issue 12.7: messages that name what a person cannot see */
	{ "Dimensions=4\xc3\x97" "4\nNodes=n[0-15]\nAllocator=mc1x1\n", 1, "Dimensions", "unexpected '\xc3\x97' (U+00D7) in \"4\xc3\x97" "4\": separate the dimensions with the letter 'x'" },
	{ "Dimensions=4\xffx4\nNodes=n[0-15]\nAllocator=mc1x1\n", 1, "Dimensions", "unexpected byte 0xFF (not valid UTF-8)" },
	{ "Dimensions=4x4\tx2\nNodes=n[0-15]\nAllocator=mc1x1\n", 1, "", "Key=Value" },
	{ HEAD "\xef\xbb\xbf" "Allocator=mc1x1\n", 3, "\xef\xbb\xbf" "Allocator", "which contains '\xef\xbb\xbf' (U+FEFF, byte-order mark)" },
	{ "Dimensions=4x4\nNodes=n[0000000000-0000000015]\nAllocator=mc1x1\n", 2, "Nodes", "has more than 9 digits (leading zeros count)" },
	{ "Dimensions=4x4\nNodes=n[0-0000000015]\nAllocator=mc1x1\n", 2, "Nodes", "has more than 9 digits" },
	{ "Dimensions=4x4\nNodes=n[5-1]\nAllocator=mc1x1\n", 2, "Nodes", "decimal bounds lo <= hi" },
	/* issue 39.7: values with look-alike or invisible characters name
	 * the code point and its column, as keys do */
	{ HEAD "Allocator=m\xd1\x81" "1x1\n", 3, "Allocator", "bad value \"m\xd1\x81" "1x1\": '\xd1\x81' (U+0441) at column 12; mesh.conf values are plain ASCII" },
	{ HEAD "Allocator=mc1x1\xe9\n", 3, "Allocator", "byte 0xE9 (not valid UTF-8) at column 16" },
	{ HEAD "Allocator=mc1x1\xc2\xa0\n", 3, "Allocator", "'\xc2\xa0' (U+00A0, no-break space) at column 16" },
	{ "Dimensions=4x4\nNodes=n[0-15]\xe2\x80\x8b\nAllocator=mc1x1\n", 2, "Nodes", "'\xe2\x80\x8b' (U+200B, zero-width space) at column 14" },
	{ "Dimensions=4x4\nNodes=n[0-14],\xd0\xbf" "15\nAllocator=mc1x1\n", 2, "Nodes", "'\xd0\xbf' (U+043F) at column 15" },
	{ HEAD "Allocator=mc1x1 NodeName=n\xd0\xbe Coord=0,0\n", 3, "NodeName", "(U+043E) at column 27" },
	{ HEAD "Allocator=mc1x1 IONodes=n0\xc2\xa0\n", 3, "IONodes", "(U+00A0, no-break space) at column 27" },
	{ HEAD "\xef\xbb\xbf" "Allocator=mc1x1\n", 3, "\xef\xbb\xbf" "Allocator", "which contains '\xef\xbb\xbf' (U+FEFF, byte-order mark) at column 1" },
	/* issue 39.7: a negative I/O node coordinate is out of range */
	{ HEAD "IONodes=-1,0\nAllocator=mc1x1\n", 3, "IONodes", "I/O node coordinate \"-1,0\" is out of range: -1 is below 0 (coordinates run from 0 to size - 1 in Dimensions=4x4)" },
	{ HEAD "IONodes=0,0;2,-3\nAllocator=mc1x1\n", 3, "IONodes", "coordinate \"2,-3\" is out of range: -3 is below 0" },
};

START_TEST(test_conf_parse_bad)
{
	struct mesh_conf *c = (struct mesh_conf *) 0x1;
	struct mesh_diag d;
	char buf[600];
	int rc;

	mesh_diag_clear(&d);
	rc = mesh_conf_parse(conf_bad[_i].text, strlen(conf_bad[_i].text),
			     "bad.conf", &c, &d);
	mesh_diag_format(&d, buf, sizeof(buf));
	ck_assert_msg(rc < 0, "case %d parsed", _i);
	ck_assert_ptr_eq(c, (struct mesh_conf *) 0x1);
	ck_assert_str_eq(d.file, "bad.conf");
	ck_assert_msg(d.line == conf_bad[_i].line, "case %d: %s (line %ld)",
		      _i, buf, conf_bad[_i].line);
	ck_assert_msg(!strcmp(d.field, conf_bad[_i].field), "case %d: %s", _i,
		      buf);
	ck_assert_msg(strstr(d.message, conf_bad[_i].needle), "case %d: %s",
		      _i, buf);
}
END_TEST

/* A UTF-8 byte-order mark at the start of the file is skipped. */
START_TEST(test_conf_parse_bom)
{
	struct mesh_conf *c =
	    conf_ok("\xef\xbb\xbf" HEAD "Allocator=mc1x1\n");

	ck_assert_uint_eq(c->n_named, 16);
	ck_assert_uint_eq(c->topo->nodes, 16);
	mesh_conf_destroy(c);
}
END_TEST

START_TEST(test_diag_char)
{
	char buf[64];

	ck_assert_str_eq(mesh_diag_char("x", buf, sizeof(buf)), "'x'");
	ck_assert_str_eq(mesh_diag_char("\t", buf, sizeof(buf)),
			 "control byte 0x09");
	ck_assert_str_eq(mesh_diag_char("\xc3\x97" "4", buf, sizeof(buf)),
			 "'\xc3\x97' (U+00D7)");
	ck_assert_str_eq(mesh_diag_char("\xef\xbb\xbf", buf, sizeof(buf)),
			 "'\xef\xbb\xbf' (U+FEFF, byte-order mark)");
	ck_assert_str_eq(mesh_diag_char("\xf0\x9f\x98\x80", buf, sizeof(buf)),
			 "'\xf0\x9f\x98\x80' (U+1F600)");
	/* truncated, overlong and stray continuation bytes */
	ck_assert_str_eq(mesh_diag_char("\xc3", buf, sizeof(buf)),
			 "byte 0xC3 (not valid UTF-8)");
	ck_assert_str_eq(mesh_diag_char("\xe0\x80\x80", buf, sizeof(buf)),
			 "byte 0xE0 (not valid UTF-8)");
	ck_assert_str_eq(mesh_diag_char("\x97", buf, sizeof(buf)),
			 "byte 0x97 (not valid UTF-8)");
	ck_assert_str_eq(mesh_diag_char("\xc3\x97", buf, 4), "'\xc3\x97");
}
END_TEST

START_TEST(test_conf_parse_nul_byte)
{
	static const char text[] = "Dimensions=4x4\nNodes=n[0\0-15]\n";
	struct mesh_conf *c = NULL;
	struct mesh_diag d;

	ck_assert_int_lt(mesh_conf_parse(text, sizeof(text) - 1, "z", &c, &d),
			 0);
	ck_assert_int_eq(d.line, 2);
}
END_TEST

/* --------------------------------------------------- files, validation */

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/check_conf.XXXXXX");
	int fd = mkstemp(path);
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

START_TEST(test_conf_load_file)
{
	char *path = write_tmp(HEAD "Allocator=mc1x1\n");
	struct mesh_conf *c = NULL;
	struct mesh_diag d;

	ck_assert_int_eq(mesh_conf_load(path, &c, &d), 0);
	ck_assert_str_eq(c->path, path);
	ck_assert_uint_eq(c->n_named, 16);
	mesh_conf_destroy(c);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_conf_load_broken_file)
{
	char *path = write_tmp(HEAD "Allocator=mc1x1\nNodeName=n3 Coord=0,0\n");
	struct mesh_conf *c = NULL;
	struct mesh_diag d;
	char buf[600];

	ck_assert_int_eq(mesh_conf_load(path, &c, &d), MESH_EINVAL);
	ck_assert_ptr_null(c);
	mesh_diag_format(&d, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, path) && strstr(buf, ":4:Coord:"), "%s", buf);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_conf_load_missing)
{
	struct mesh_conf *c = NULL;
	struct mesh_diag d;

	ck_assert_int_eq(mesh_conf_load("/nonexistent/mesh.conf", &c, &d),
			 MESH_EIO);
	ck_assert_str_eq(d.file, "/nonexistent/mesh.conf");
	ck_assert_ptr_null(c);
}
END_TEST

START_TEST(test_conf_load_directory)
{
	char dir[] = "/tmp/check_conf_dir.XXXXXX";
	struct mesh_conf *c = NULL;
	struct mesh_diag d;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	mesh_diag_clear(&d);
	ck_assert_int_eq(mesh_conf_load(dir, &c, &d), MESH_EIO);
	ck_assert_ptr_null(c);
	ck_assert_str_eq(d.file, dir);
	ck_assert_msg(strstr(d.message, "is a directory"), "%s", d.message);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(test_conf_validate_nodes)
{
	struct mesh_conf *c = conf_ok("Dimensions=2x2\nNodes=n[0-3]\nAllocator=mc1x1\n");
	const char *ok[] = { "n3", "n1", "n0", "n2" };
	const char *extra[] = { "n0", "n1", "n2", "n3", "n4" };
	const char *fewer[] = { "n0", "n1", "n2" };
	struct mesh_diag d;

	ck_assert_int_eq(mesh_conf_validate_nodes(c, ok, 4, &d), 0);
	ck_assert_int_eq(mesh_conf_validate_nodes(c, extra, 5, &d), MESH_ENOENT);
	ck_assert_ptr_nonnull(strstr(d.message, "n4"));
	ck_assert_ptr_nonnull(strstr(d.message, "no position in the mesh"));
	ck_assert_int_eq(d.line, 2);
	ck_assert_int_eq(mesh_conf_validate_nodes(c, fewer, 3, &d), MESH_ENOENT);
	ck_assert_ptr_nonnull(strstr(d.message, "n3"));
	ck_assert_ptr_nonnull(strstr(d.message, "not defined in slurm.conf"));
	mesh_conf_destroy(c);
}
END_TEST

/* Curve= and the per-job hint defaults: parsed with file:line:key. */
START_TEST(test_conf_curve_and_hint_defaults)
{
	const char *ok = "Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\n"
			 "Curve=snake\nDefaultMeshShape=4x2\n"
			 "DefaultIOIntensity=0.25\nDefaultComm=nearest\n"
			 "LinkBandwidth=3 IONodeBandwidth=inf\n"
			 "PlanMaxPlacements=0 PlanMaxTime=0.5\n"
			 "CoresPerNode=8\n";
	const char *plain = "Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\n";
	static const struct {
		const char *line, *key;
	} bad[] = {
	    {"Curve=peano", "Curve"},
	    {"DefaultMeshShape=4y2", "DefaultMeshShape"},
	    {"DefaultIOIntensity=1.5", "DefaultIOIntensity"},
	    {"DefaultComm=ring", "DefaultComm"},
	    {"LinkBandwidth=0", "LinkBandwidth"},
	    {"NodeBandwidth=fast", "NodeBandwidth"},
	    {"IONodeBandwidth=-2", "IONodeBandwidth"},
	    {"FileSystemBandwidth=1e999", "FileSystemBandwidth"},
	    {"PlanMaxPlacements=-1", "PlanMaxPlacements"},
	    {"PlanMaxPlacements=1k", "PlanMaxPlacements"},
	    {"PlanMaxTime=-0.1", "PlanMaxTime"},
	    {"PlanMaxTime=inf", "PlanMaxTime"},
	    {"PlanMaxTime=nan", "PlanMaxTime"},
	    {"CoresPerNode=0", "CoresPerNode"},
	    {"CoresPerNode=-8", "CoresPerNode"},
	    {"CoresPerNode=4097", "CoresPerNode"},
	    {"CoresPerNode=8x", "CoresPerNode"},
	    {"CoresPerNode=99999999999999999999", "CoresPerNode"},
	    {"CoresPerNode=2 CoresPerNode=2", "CoresPerNode"},
	};
	struct mesh_conf *c = NULL;
	struct mesh_diag d;
	char text[256];
	size_t i;

	ck_assert_int_eq(mesh_conf_parse(ok, strlen(ok), "t.conf", &c, &d), 0);
	ck_assert_int_eq(c->curve, MESH_CURVE_SNAKE);
	ck_assert_int_eq(c->hint_defaults.shape[0], 4);
	ck_assert_int_eq(c->hint_defaults.shape[1], 2);
	ck_assert(c->hint_defaults.io_intensity == 0.25);
	ck_assert_int_eq(c->hint_defaults.comm, MESH_COMM_NEAREST);
	/* the capacities given, and the defaults for the rest */
	ck_assert_double_eq(c->net.link_bw, 3);
	ck_assert(isinf(c->net.ion_bw));
	ck_assert_double_eq(c->net.node_bw, 12.5);
	ck_assert_double_eq(c->net.fs_bw, 48);
	ck_assert_uint_eq(c->net_set, 1u << 0 | 1u << 2);
	ck_assert_uint_eq(c->plan_max_places, 0);
	ck_assert_double_eq(c->plan_max_seconds, 0.5);
	ck_assert_uint_eq(c->cores_per_node, 8);
	mesh_conf_destroy(c);
	ck_assert_int_eq(
	    mesh_conf_parse(plain, strlen(plain), "t.conf", &c, &d), 0);
	ck_assert_int_eq(c->curve, MESH_CURVE_HILBERT);
	ck_assert_int_eq(c->hint_defaults.shape[0], 0);
	ck_assert(c->hint_defaults.io_intensity < 0);
	ck_assert_int_eq(c->hint_defaults.comm, MESH_COMM_UNKNOWN);
	ck_assert_uint_eq(c->plan_max_places, MESH_CONF_PLAN_MAX_PLACES);
	ck_assert_double_eq(c->plan_max_seconds, MESH_CONF_PLAN_MAX_SECONDS);
	ck_assert_uint_eq(c->cores_per_node, 0);
	mesh_conf_destroy(c);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s%s\n", plain, bad[i].line);
		c = NULL;
		mesh_diag_clear(&d);
		ck_assert_int_ne(
		    mesh_conf_parse(text, strlen(text), "t.conf", &c, &d), 0);
		ck_assert_ptr_null(c);
		ck_assert_str_eq(d.file, "t.conf");
		ck_assert_int_eq(d.line, 4);
		ck_assert_str_eq(d.field, bad[i].key);
	}
}
END_TEST

START_TEST(test_conf_path_near)
{
	char buf[64];

	ck_assert_int_eq(mesh_conf_path_near("/etc/slurm/slurm.conf", buf,
					     sizeof(buf)),
			 0);
	ck_assert_str_eq(buf, "/etc/slurm/mesh.conf");
	ck_assert_int_eq(mesh_conf_path_near("slurm.conf", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "mesh.conf");
	ck_assert_int_eq(mesh_conf_path_near("/a/b", buf, 5), MESH_ERANGE);
}
END_TEST

/* ------------------------------------------------------------ fuzzing */

static const char fuzz_seed_text[] =
	"# fuzz seed\n"
	"Dimensions=4tx4x2 NodeOrder=yxz\n"
	"Nodes=r[0-1]n[0-11]\n"
	"NodeName=io0 Coord=3,3,1\n"
	"IONodes=0,0,0;3,3,1\n"
	"Allocator=hilbert-bf\n";

static const char fuzz_alphabet[] = "=#,;[]-x\n t0123459nNrRaAkK";

/* One random edit: replace, insert, delete or duplicate a span. */
static size_t mutate(char *buf, size_t len, size_t cap, uint64_t *s)
{
	size_t pos = len ? tu_rand(s) % len : 0, span;
	char c = fuzz_alphabet[tu_rand(s) % (sizeof(fuzz_alphabet) - 1)];

	switch (tu_rand(s) % 5) {
	case 0:
		if (len)
			buf[pos] = c;
		return len;
	case 1:
		if (len + 1 >= cap)
			return len;
		memmove(buf + pos + 1, buf + pos, len - pos);
		buf[pos] = c;
		return len + 1;
	case 2:
		if (!len)
			return len;
		memmove(buf + pos, buf + pos + 1, len - pos - 1);
		return len - 1;
	case 3:
		buf[pos] = (char) (tu_rand(s) & 0xff);
		return len ? len : 1;
	default:
		span = 1 + tu_rand(s) % 8;
		if (pos + span > len || len + span >= cap)
			return len;
		memmove(buf + pos + span, buf + pos, len - pos);
		return len + span;
	}
}

START_TEST(test_conf_parse_fuzz)
{
	char buf[1024];
	uint64_t seed = 12345;
	int iter, k;

	for (iter = 0; iter < 3000; iter++) {
		struct mesh_conf *c = NULL;
		struct mesh_diag d;
		size_t len = sizeof(fuzz_seed_text) - 1;
		int rc, edits = 1 + (int) (tu_rand(&seed) % 6);

		memcpy(buf, fuzz_seed_text, len);
		for (k = 0; k < edits; k++)
			len = mutate(buf, len, sizeof(buf), &seed);
		mesh_diag_clear(&d);
		rc = mesh_conf_parse(buf, len, "fuzz.conf", &c, &d);
		if (rc == 0) {
			ck_assert_int_eq(mesh_topo_check(c->topo), 0);
			mesh_conf_destroy(c);
			continue;
		}
		ck_assert_ptr_null(c);
		ck_assert_msg(d.line > 0 && d.message[0],
			      "iteration %d: rc %d without a line", iter, rc);
	}
}
END_TEST

static Suite *conf_suite(void)
{
	Suite *s = suite_create("conf");
	TCase *tc;

	tc = tcase_create("mesh_hostlist_expand");
	tcase_add_loop_test(tc, test_hostlist_expand_good, 0,
			    (int) (sizeof(hl_good) / sizeof(hl_good[0])));
	tcase_add_test(tc, test_hostlist_expand_order);
	tcase_add_loop_test(tc, test_hostlist_expand_bad, 0,
			    (int) (sizeof(hl_bad) / sizeof(hl_bad[0])));
	suite_add_tcase(s, tc);

	tc = tcase_create("mesh_conf_parse");
	tcase_add_test(tc, test_conf_parse_basic);
	tcase_add_test(tc, test_conf_parse_case_and_pairs);
	tcase_add_test(tc, test_conf_parse_order_yx);
	tcase_add_test(tc, test_conf_parse_3d_racks);
	tcase_add_test(tc, test_conf_parse_override_swap);
	tcase_add_test(tc, test_conf_parse_partial_mesh);
	tcase_add_test(tc, test_conf_parse_io_nodes);
	tcase_add_loop_test(tc, test_conf_parse_every_allocator, 0,
			    (int) mesh_alloc_count());
	tcase_add_loop_test(tc, test_conf_parse_bad, 0,
			    (int) (sizeof(conf_bad) / sizeof(conf_bad[0])));
	tcase_add_test(tc, test_conf_parse_nul_byte);
	tcase_add_test(tc, test_conf_parse_bom);
	tcase_add_test(tc, test_diag_char);
	tcase_add_test(tc, test_conf_parse_fuzz);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("mesh_conf_load");
	tcase_add_test(tc, test_conf_load_file);
	tcase_add_test(tc, test_conf_load_broken_file);
	tcase_add_test(tc, test_conf_load_missing);
	tcase_add_test(tc, test_conf_load_directory);
	suite_add_tcase(s, tc);

	tc = tcase_create("mesh_conf_validate_nodes");
	tcase_add_test(tc, test_conf_validate_nodes);
	suite_add_tcase(s, tc);

	tc = tcase_create("mesh_conf_path_near");
	tcase_add_test(tc, test_conf_path_near);
	tcase_add_test(tc, test_conf_curve_and_hint_defaults);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(conf_suite());
}
