/* conf_lex.c - mesh.conf's first pass: the text, line by line, into
 * each key's raw value and line (conf_raw.h), so that keys may come in
 * any order; unknown keys, duplicates and characters a person cannot
 * see are named here, with the line and the column.
 */
#include "conf_raw.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error.h"

/* The keys given once, and where their raw values go. */
static const struct {
	const char *key;
	size_t off;
} single_keys[] = {
	{ "Dimensions", offsetof(struct conf_raw, dims) },
	{ "Nodes", offsetof(struct conf_raw, nodes) },
	{ "NodeOrder", offsetof(struct conf_raw, order) },
	{ "IONodes", offsetof(struct conf_raw, io) },
	{ "Allocator", offsetof(struct conf_raw, alloc) },
	{ "AllocatorParameters", offsetof(struct conf_raw, params) },
	{ "Curve", offsetof(struct conf_raw, curve) },
	{ "DefaultMeshShape", offsetof(struct conf_raw, dshape) },
	{ "DefaultIOIntensity", offsetof(struct conf_raw, dio) },
	{ "DefaultComm", offsetof(struct conf_raw, dcomm) },
	{ "PlanMaxPlacements", offsetof(struct conf_raw, pplaces) },
	{ "PlanMaxTime", offsetof(struct conf_raw, ptime) },
	{ "CoresPerNode", offsetof(struct conf_raw, cores) },
	{ "LinkBandwidth", offsetof(struct conf_raw, bw[0]) },
	{ "NodeBandwidth", offsetof(struct conf_raw, bw[1]) },
	{ "IONodeBandwidth", offsetof(struct conf_raw, bw[2]) },
	{ "FileSystemBandwidth", offsetof(struct conf_raw, bw[3]) },
};

static struct conf_kv *kv_of(struct conf_raw *r, size_t i)
{
	return (struct conf_kv *) (void *) ((char *) r + single_keys[i].off);
}

int mesh__conf_err(struct mesh_diag *d, int rc, const struct conf_raw *r,
		   long line, const char *key, const char *fmt, ...)
{
	char msg[sizeof(d->message)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return mesh_diag_set(d, rc, r->file, line > 0 ? line : 1, key, "%s",
			     msg);
}

/* Moves a sub-parser's diagnostic to file/line/key. */
int mesh__conf_relocate(struct mesh_diag *d, int rc, const struct conf_raw *r,
			long line, const char *key)
{
	if (d) {
		snprintf(d->file, sizeof(d->file), "%s", r->file);
		d->line = line > 0 ? line : 1;
		snprintf(d->field, sizeof(d->field), "%s", key);
	}
	return rc;
}

void mesh__conf_raw_free(struct conf_raw *r)
{
	size_t i;

	for (i = 0; i < sizeof(single_keys) / sizeof(single_keys[0]); i++)
		free(kv_of(r, i)->val);
	for (i = 0; i < r->ndefs; i++)
		free(r->defs[i].name);
	free(r->defs);
}

static int set_single(struct conf_kv *kv, const struct conf_raw *r,
		      const char *key, const char *val, long line,
		      struct mesh_diag *d)
{
	char first[32];

	if (kv->val) {
		snprintf(first, sizeof(first), "%ld", kv->line);
		return mesh__conf_err(
		    d, MESH_EPARSE, r, line, key,
		    "duplicate key %s (first given at line %s)", key, first);
	}
	kv->val = strdup(val);
	if (!kv->val)
		return MESH_ENOMEM;
	kv->line = line;
	return 0;
}

static int add_def(struct conf_raw *r, const char *name, long line)
{
	if (r->ndefs == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 8;
		struct conf_def *p = realloc(r->defs, cap * sizeof(*p));

		if (!p)
			return MESH_ENOMEM;
		r->defs = p;
		r->cap = cap;
	}
	memset(&r->defs[r->ndefs], 0, sizeof(r->defs[0]));
	r->defs[r->ndefs].name = strdup(name);
	if (!r->defs[r->ndefs].name)
		return MESH_ENOMEM;
	r->defs[r->ndefs].line = line;
	r->ndefs++;
	return 0;
}

/* The runtime models' capacities (contention.h), in struct order. */
const char *const mesh__conf_bw_keys[4] = { "LinkBandwidth", "NodeBandwidth",
					    "IONodeBandwidth",
					    "FileSystemBandwidth" };

static struct conf_kv *single_key(struct conf_raw *r, const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(single_keys) / sizeof(single_keys[0]); i++)
		if (!strcasecmp(key, single_keys[i].key))
			return kv_of(r, i);
	return NULL;
}

/* State of one line: NodeName= and Coord= must come together. */
struct conf_line {
	const char *nodename;
	const char *coord;
	const char *text; /* the line, for columns */
	long line;
};

/* The first byte of s that is not printable ASCII (0x21..0x7e), or NULL. */
static const char *non_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char) *s <= 0x20 || (unsigned char) *s >= 0x7f)
			return s;
	return NULL;
}

/* 1-based column of p in the line: characters (UTF-8 sequences) before
 * it, plus one. */
static long column(const struct conf_line *l, const char *p)
{
	const char *q;
	long col = 1;

	for (q = l->text; q < p; q++)
		if (((unsigned char) *q & 0xc0) != 0x80)
			col++;
	return col;
}

/* Names a character a person cannot see or type, e.g. a stray BOM. */
static int unknown_key(const struct conf_raw *r, const char *key,
		       const struct conf_line *l, struct mesh_diag *d)
{
	const char *p = non_ascii(key);
	char what[64], note[128] = "";

	if (p)
		snprintf(note, sizeof(note),
			 ", which contains %s at column %ld",
			 mesh_diag_char(p, what, sizeof(what)), column(l, p));
	return mesh__conf_err(
	    d, MESH_EPARSE, r, l->line, key,
	    "unknown key \"%s\"%s (expected Dimensions, Nodes, NodeOrder, NodeName/Coord, IONodes, Allocator, AllocatorParameters, Curve, DefaultMeshShape, DefaultIOIntensity, DefaultComm, PlanMaxPlacements, PlanMaxTime, CoresPerNode, LinkBandwidth, NodeBandwidth, IONodeBandwidth or FileSystemBandwidth)",
	    key, note);
}

/*
 * Values are printable ASCII: node names, allocator names, numbers.  A
 * look-alike letter (Cyrillic 'с' for 'c'), an invisible character (a
 * no-break or zero-width space) or a stray byte is named, with its code
 * point and column, before it can fail later with a misleading message.
 * Dimensions has its own, more specific one (4×4).
 */
static int check_value(const struct conf_raw *r, const char *key,
		       const char *val, const struct conf_line *l,
		       struct mesh_diag *d)
{
	const char *p = non_ascii(val);
	char what[64];

	if (!p || !strcasecmp(key, "Dimensions"))
		return 0;
	return mesh__conf_err(
	    d, MESH_EPARSE, r, l->line, key,
	    "bad value \"%s\": %s at column %ld; mesh.conf values are plain ASCII",
	    val, mesh_diag_char(p, what, sizeof(what)), column(l, p));
}

static int parse_token(struct conf_raw *r, char *tok, struct conf_line *l,
		       struct mesh_diag *d)
{
	char *eq = strchr(tok, '=');
	struct conf_kv *kv;
	const char **slot;
	int rc;

	if (!eq || eq == tok)
		return mesh__conf_err(d, MESH_EPARSE, r, l->line, "",
				      "expected Key=Value, got \"%s\"", tok);
	*eq = '\0';
	if (eq[1] == '\0')
		return mesh__conf_err(d, MESH_EPARSE, r, l->line, tok,
				      "empty value for %s", tok);
	kv = single_key(r, tok);
	if (!kv && strcasecmp(tok, "NodeName") && strcasecmp(tok, "Coord"))
		return unknown_key(r, tok, l, d);
	rc = check_value(r, tok, eq + 1, l, d);
	if (rc)
		return rc;
	if (kv)
		return set_single(kv, r, tok, eq + 1, l->line, d);
	slot = tok[0] == 'n' || tok[0] == 'N' ? &l->nodename : &l->coord;
	if (*slot)
		return mesh__conf_err(d, MESH_EPARSE, r, l->line, tok,
				      "%s given twice on one line", tok);
	*slot = eq + 1;
	return 0;
}

static int finish_line(struct conf_raw *r, const struct conf_line *l,
		       struct mesh_diag *d)
{
	struct conf_def *def;
	int rc;

	if (!l->nodename && !l->coord)
		return 0;
	if (!l->nodename)
		return mesh__conf_err(
		    d, MESH_EPARSE, r, l->line, "Coord",
		    "Coord=%s without NodeName= on the same line", l->coord);
	if (!l->coord)
		return mesh__conf_err(
		    d, MESH_EPARSE, r, l->line, "NodeName",
		    "NodeName=%s without Coord=x,y[,z] on the same line",
		    l->nodename);
	if (strpbrk(l->nodename, "[],="))
		return mesh__conf_err(
		    d, MESH_EPARSE, r, l->line, "NodeName",
		    "bad value \"%s\": NodeName= takes one node name, not a hostlist",
		    l->nodename);
	rc = add_def(r, l->nodename, l->line);
	if (rc)
		return rc;
	def = &r->defs[r->ndefs - 1];
	def->ncoord = mesh_coord_parse(l->coord, def->coord);
	if (def->ncoord < 0)
		return mesh__conf_err(
		    d, MESH_EPARSE, r, l->line, "Coord",
		    "bad value \"%s\": expected x,y[,z] with non-negative integers",
		    l->coord);
	return 0;
}

static int parse_line(struct conf_raw *r, char *text, long line,
		      struct mesh_diag *d)
{
	struct conf_line l = { NULL, NULL, text, line };
	char *hash = strchr(text, '#'), *tok, *save = NULL;
	int rc;

	if (hash)
		*hash = '\0';
	for (tok = strtok_r(text, " \t\r\f\v", &save); tok;
	     tok = strtok_r(NULL, " \t\r\f\v", &save)) {
		rc = parse_token(r, tok, &l, d);
		if (rc)
			return rc;
	}
	return finish_line(r, &l, d);
}

/* First pass: records every key with its line. */
int mesh__conf_parse_text(struct conf_raw *r, const char *text, size_t len,
			  struct mesh_diag *d)
{
	size_t start = 0, i;
	char *line;
	int rc = 0;

	/* A UTF-8 byte-order mark (editors on Windows add one) is skipped. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		start = 3;
	for (i = start; i <= len && !rc; i++) {
		if (i < len && text[i] != '\n' && text[i] != '\0')
			continue;
		if (i == len && start == len && len > 0)
			break; /* text ends with a newline */
		r->last_line++;
		if (i < len && text[i] == '\0')
			return mesh__conf_err(d, MESH_EPARSE, r, r->last_line,
					      "", "NUL byte in line");
		line = strndup(text + start, i - start);
		if (!line)
			return MESH_ENOMEM;
		rc = parse_line(r, line, r->last_line, d);
		free(line);
		start = i + 1;
	}
	return rc;
}
