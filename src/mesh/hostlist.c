/* hostlist.c - expansion of Slurm-style hostlist expressions.
 *
 * HOW IT WORKS: the expression is split at top-level commas into items.
 * Each item is cut into groups "literal[ranges]" plus a trailing literal;
 * the names of an item are the mixed-radix product of its groups, the
 * last group varying fastest.  Counts are checked against the caller's
 * bound before anything is generated, so "n[0-999999999]" costs nothing.
 */
#include "hostlist.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

#define HL_MAX_DIGITS 9

struct hl_range {
	unsigned long lo, hi;
	int width;
};

struct hl_group {
	const char *lit; /* literal text before the bracket */
	size_t lit_len;
	struct hl_range *r; /* NULL for the trailing literal */
	size_t nr;
	size_t count;   /* values in the group (1 for a literal) */
	int long_bound; /* a bound had more than HL_MAX_DIGITS digits */
};

struct hl_out {
	char **names;
	size_t n, cap, max;
};

static int hl_err(struct mesh_diag *d, int rc, const char *spec,
		  const char *why)
{
	return mesh_diag_set(d, rc, NULL, 0, "hostlist", "%s in \"%s\"", why,
			     spec);
}

static int parse_number(const char *s, size_t len, unsigned long *v)
{
	size_t i;

	if (len > HL_MAX_DIGITS)
		return -2;
	if (len == 0)
		return -1;
	*v = 0;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (unsigned long) (s[i] - '0');
	}
	return 0;
}

/* Parses "a" or "a-b" into r; returns 0, -1, or -2 when a bound has too
 * many digits. */
static int parse_range(const char *s, size_t len, struct hl_range *r)
{
	const char *dash = memchr(s, '-', len);
	int rc;

	if (!dash) {
		if ((rc = parse_number(s, len, &r->lo)) != 0)
			return rc;
		r->hi = r->lo;
	} else if ((rc = parse_number(s, (size_t) (dash - s), &r->lo)) != 0 ||
		   (rc = parse_number(dash + 1, len - (size_t) (dash - s) - 1,
				      &r->hi)) != 0) {
		return rc;
	} else if (r->hi < r->lo) {
		return -1;
	}
	r->width = (int) (dash ? (size_t) (dash - s) : len);
	return 0;
}

/* Parses the ranges between '[' and ']' (exclusive) into g. */
static int parse_bracket(const char *s, size_t len, struct hl_group *g,
			 size_t max)
{
	size_t i, start = 0, nr = 1;
	int rc;

	for (i = 0; i < len; i++)
		nr += s[i] == ',';
	g->r = calloc(nr, sizeof(*g->r));
	if (!g->r)
		return MESH_ENOMEM;
	g->count = 0;
	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != ',')
			continue;
		rc = parse_range(s + start, i - start, &g->r[g->nr]);
		if (rc) {
			g->long_bound = rc == -2;
			return MESH_EPARSE;
		}
		g->count += g->r[g->nr].hi - g->r[g->nr].lo + 1;
		if (g->count > max)
			return MESH_ERANGE;
		g->nr++;
		start = i + 1;
	}
	return 0;
}

static int valid_literal_char(char c)
{
	return c > ' ' && c != '[' && c != ']' && c != ',' && c != '=' &&
	       c != '#' && (unsigned char) c < 0x7f;
}

/* Splits one item into groups; *ng receives the count. */
static int parse_item(const char *s, size_t len, struct hl_group *g, size_t *ng,
		      size_t max)
{
	size_t i = 0, lit = 0;
	int rc;

	*ng = 0;
	while (i <= len) {
		if (i < len && valid_literal_char(s[i])) {
			i++;
			continue;
		}
		if (i < len && s[i] != '[')
			return MESH_EPARSE;
		g[*ng].lit = s + lit;
		g[*ng].lit_len = i - lit;
		g[*ng].count = 1;
		if (i == len) {
			(*ng)++;
			break;
		}
		lit = i + 1;
		while (i < len && s[i] != ']')
			i++;
		if (i == len)
			return MESH_EPARSE;
		rc = parse_bracket(s + lit, i - lit, &g[*ng], max);
		(*ng)++;
		if (rc)
			return rc;
		lit = ++i;
	}
	return 0;
}

static unsigned long group_value(const struct hl_group *g, size_t pos,
				 int *width)
{
	size_t k;

	for (k = 0; k < g->nr; k++) {
		unsigned long span = g->r[k].hi - g->r[k].lo + 1;

		if (pos < span) {
			*width = g->r[k].width;
			return g->r[k].lo + pos;
		}
		pos -= span;
	}
	return 0;
}

static int out_push(struct hl_out *o, char *name)
{
	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 16;
		char **p = realloc(o->names, cap * sizeof(*p));

		if (!p) {
			free(name);
			return MESH_ENOMEM;
		}
		o->names = p;
		o->cap = cap;
	}
	o->names[o->n++] = name;
	return 0;
}

static int emit_one(const struct hl_group *g, size_t ng, const size_t *pos,
		    size_t cap, struct hl_out *o)
{
	char *name = malloc(cap), *p;
	unsigned long v;
	size_t k;
	int width = 1;

	if (!name)
		return MESH_ENOMEM;
	p = name;
	for (k = 0; k < ng; k++) {
		memcpy(p, g[k].lit, g[k].lit_len);
		p += g[k].lit_len;
		if (g[k].r) {
			v = group_value(&g[k], pos[k], &width);
			p += sprintf(p, "%0*lu", width, v);
		}
	}
	*p = '\0';
	return out_push(o, name);
}

/* Appends every name of the item (groups g[0..ng)) to o. */
static int emit_item(const struct hl_group *g, size_t ng, struct hl_out *o)
{
	size_t pos[64] = { 0 }, cap = 1, total = 1, i, k;
	int rc;

	for (k = 0; k < ng; k++) {
		cap += g[k].lit_len + (g[k].r ? HL_MAX_DIGITS + 1 : 0);
		total *= g[k].count;
		if (total > o->max - o->n)
			return MESH_ERANGE;
	}
	for (i = 0; i < total; i++) {
		rc = emit_one(g, ng, pos, cap, o);
		if (rc)
			return rc;
		for (k = ng; k-- > 0;) {
			if (++pos[k] < g[k].count)
				break;
			pos[k] = 0;
		}
	}
	return 0;
}

static void free_groups(struct hl_group *g, size_t ng)
{
	size_t k;

	for (k = 0; k < ng; k++)
		free(g[k].r);
	memset(g, 0, ng * sizeof(*g));
}

/* Expands the item s[0..len) into o. */
static int expand_item(const char *spec, const char *s, size_t len,
		       struct hl_out *o, struct mesh_diag *d)
{
	struct hl_group g[64];
	size_t ng = 0, brackets = 0, i;
	int rc, long_bound = 0;

	if (len == 0)
		return hl_err(d, MESH_EPARSE, spec, "empty host name");
	for (i = 0; i < len; i++)
		brackets += s[i] == '[';
	if (brackets > 31)
		return hl_err(d, MESH_ERANGE, spec, "too many bracket groups");
	memset(g, 0, sizeof(g));
	rc = parse_item(s, len, g, &ng, o->max);
	if (!rc)
		rc = emit_item(g, ng, o);
	for (i = 0; i < ng; i++)
		long_bound |= g[i].long_bound;
	free_groups(g, sizeof(g) / sizeof(g[0]));
	if (rc == MESH_EPARSE && long_bound)
		return mesh_diag_set(
		    d, rc, NULL, 0, "hostlist",
		    "a range bound in \"%s\" has more than %d digits (leading zeros count); at most %d are supported",
		    spec, HL_MAX_DIGITS, HL_MAX_DIGITS);
	if (rc == MESH_EPARSE)
		return hl_err(
		    d, rc, spec,
		    "expected name[lo-hi,n,...] with decimal bounds lo <= hi");
	if (rc == MESH_ERANGE)
		return mesh_diag_set(d, rc, NULL, 0, "hostlist",
				     "\"%s\" expands to more than %zu names",
				     spec, o->max);
	return rc;
}

int mesh_hostlist_expand(const char *spec, size_t max, char ***out, size_t *n,
			 struct mesh_diag *d)
{
	struct hl_out o = { NULL, 0, 0, max };
	size_t i, start = 0, len;
	int depth = 0, rc = 0;

	if (!spec || !out || !n)
		return MESH_EINVAL;
	len = strlen(spec);
	for (i = 0; i <= len && !rc; i++) {
		if (i < len && spec[i] == '[')
			depth++;
		else if (i < len && spec[i] == ']')
			depth--;
		if (depth < 0 || depth > 1)
			rc =
			    hl_err(d, MESH_EPARSE, spec, "unbalanced brackets");
		else if (i == len && depth)
			rc = hl_err(d, MESH_EPARSE, spec, "unclosed '['");
		else if (i == len || (spec[i] == ',' && depth == 0)) {
			rc = expand_item(spec, spec + start, i - start, &o, d);
			start = i + 1;
		}
	}
	if (rc) {
		mesh_hostlist_free(o.names, o.n);
		return rc;
	}
	*out = o.names;
	*n = o.n;
	return 0;
}

void mesh_hostlist_free(char **names, size_t n)
{
	size_t i;

	if (!names)
		return;
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
