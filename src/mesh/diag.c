/* diag.c - building and formatting parser diagnostics. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void mesh_diag_clear(struct mesh_diag *d)
{
	if (d)
		memset(d, 0, sizeof(*d));
}

int mesh_diag_set(struct mesh_diag *d, int rc, const char *file, long line,
		  const char *field, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return rc;
	snprintf(d->file, sizeof(d->file), "%s", file ? file : "");
	d->line = line;
	snprintf(d->field, sizeof(d->field), "%s", field ? field : "");
	va_start(ap, fmt);
	vsnprintf(d->message, sizeof(d->message), fmt, ap);
	va_end(ap);
	return rc;
}

const char *mesh_diag_format(const struct mesh_diag *d, char *buf, size_t len)
{
	size_t used = 0;
	int n;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (d->file[0]) {
		n = snprintf(buf, len, "%s:", d->file);
		used = n > 0 ? (size_t) n : 0;
	}
	if (d->line > 0 && used < len) {
		n = snprintf(buf + used, len - used, "%ld:", d->line);
		used += n > 0 ? (size_t) n : 0;
	}
	if (d->field[0] && used < len) {
		n = snprintf(buf + used, len - used, "%s:", d->field);
		used += n > 0 ? (size_t) n : 0;
	}
	if (used < len)
		snprintf(buf + used, len - used, "%s%s", used ? " " : "",
			 d->message);
	return buf;
}
