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

/* Length of the UTF-8 sequence at s and its code point, or 0 if invalid. */
static size_t utf8_decode(const unsigned char *s, unsigned long *cp)
{
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, *cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, *cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, *cp = s[0] & 0x07u;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3fu);
	}
	if ((n == 3 && *cp < 0x800) || (n == 4 && *cp < 0x10000) ||
	    *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0; /* overlong, out of range or a surrogate */
	return n;
}

static const char *invisible_name(unsigned long cp)
{
	switch (cp) {
	case 0xfeff:
		return ", byte-order mark";
	case 0x00a0:
		return ", no-break space";
	case 0x200b:
		return ", zero-width space";
	default:
		return "";
	}
}

const char *mesh_diag_char(const char *p, char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *) p;
	unsigned long cp = 0;
	size_t n;

	if (!len)
		return buf;
	if (s[0] >= 0x20 && s[0] < 0x7f)
		snprintf(buf, len, "'%c'", s[0]);
	else if (s[0] < 0x80)
		snprintf(buf, len, "control byte 0x%02X", s[0]);
	else if ((n = utf8_decode(s, &cp)) > 0)
		snprintf(buf, len, "'%.*s' (U+%04lX%s)", (int) n, p, cp,
			 invisible_name(cp));
	else
		snprintf(buf, len, "byte 0x%02X (not valid UTF-8)", s[0]);
	return buf;
}

const char *mesh_diag_quote(const char *p, size_t n, char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *) p;
	size_t i, o = 0;

	if (!len)
		return buf;
	for (i = 0; i < n && s[i] && o + 5 < len; i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\')
			buf[o++] = (char) s[i];
		else
			o += (size_t) snprintf(buf + o, len - o, "\\x%02X",
					       s[i]);
	}
	buf[o] = '\0';
	return buf;
}
