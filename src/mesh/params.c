/* params.c - allocator parameter strings, "key=value[,key=value]"
 * (AllocatorParameters in mesh.conf, meshsim --allocator-params).
 *
 * HOW IT WORKS: a parameter string is scanned, never copied: a lookup
 * walks its comma-separated items for the key; a check rejects the
 * first item whose key the allocator does not know, naming it in the
 * diagnostic; an integer value is parsed whole and range-checked.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "error.h"

int mesh__param_get(const char *params, const char *key, char *val, size_t len)
{
	size_t klen = strlen(key);
	const char *p = params;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t) (end - p) : strlen(p);

		if (n > klen && p[klen] == '=' && !strncmp(p, key, klen)) {
			size_t vlen = n - klen - 1;

			if (vlen >= len)
				vlen = len - 1;
			memcpy(val, p + klen + 1, vlen);
			val[vlen] = '\0';
			return 1;
		}
		p = end ? end + 1 : NULL;
	}
	return 0;
}

int mesh__param_check(const char *params, const char *const *known,
		      const char *alloc_name, struct mesh_diag *d)
{
	const char *p = params;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t) (end - p) : strlen(p);
		const char *eq = memchr(p, '=', n);
		size_t klen = eq ? (size_t) (eq - p) : n;
		int ok = 0, i;

		for (i = 0; eq && known && known[i]; i++)
			ok |= strlen(known[i]) == klen &&
			      !strncmp(known[i], p, klen);
		if (!ok)
			return mesh_diag_set(
			    d, MESH_EINVAL, NULL, 0, "AllocatorParameters",
			    "allocator %s does not take parameter \"%.*s\"",
			    alloc_name, (int) n, p);
		p = end ? end + 1 : NULL;
	}
	return 0;
}

int mesh__param_uint(const char *params, const char *key, unsigned long min,
		     unsigned long max, unsigned long *val, struct mesh_diag *d)
{
	char buf[32], *end;
	unsigned long v;

	if (!mesh__param_get(params, key, buf, sizeof(buf)))
		return 0;
	v = strtoul(buf, &end, 10);
	if (end == buf || *end || buf[0] == '-' || v < min || v > max)
		return mesh_diag_set(
		    d, MESH_EINVAL, NULL, 0, key,
		    "expected an integer in [%lu, %lu], got \"%s\"", min, max,
		    buf);
	*val = v;
	return 0;
}
