/* comment.c - find and replace select/mesh's summary in a SystemComment. */
#include "comment.h"

#include <stdlib.h>
#include <string.h>

/* True if the word at w (up to the next space) is one of the summary's
 * key=value words. */
static int summary_word(const char *w)
{
	static const char *const keys[] = { "alloc=",   "bbox=", "sumdist=",
					    "avgdist=", "diam=", "shape=" };
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strncmp(w, keys[i], strlen(keys[i])))
			return 1;
	return 0;
}

long mesh_comment_find(const char *s, size_t *len)
{
	const char *p = s, *start, *end;

	for (;;) {
		if (!p || !(start = strstr(p, MESH_COMMENT_PREFIX)))
			return -1;
		if (start == s || start[-1] == ' ')
			break;
		p = start + 1; /* "xmesh:v1 " is someone else's word */
	}
	end = start + strlen(MESH_COMMENT_PREFIX);
	while (summary_word(end)) {
		end += strcspn(end, " ");
		if (*end != ' ' || !summary_word(end + 1))
			break;
		end++;
	}
	*len = (size_t) (end - start);
	return (long) (start - s);
}

/* Append n bytes of t to the string at out, with one space before them
 * if out is not empty; leading and trailing spaces of t dropped. */
static void join(char *out, const char *t, size_t n)
{
	size_t o = strlen(out);

	while (n && *t == ' ')
		t++, n--;
	while (n && t[n - 1] == ' ')
		n--;
	if (!n)
		return;
	if (o)
		out[o++] = ' ';
	memcpy(out + o, t, n);
	out[o + n] = '\0';
}

char *mesh_comment_replace(const char *s, const char *summary)
{
	size_t len = 0, sl = s ? strlen(s) : 0;
	long at = mesh_comment_find(s, &len);
	char *out = malloc(sl + strlen(summary) + 2);

	if (!out)
		return NULL;
	out[0] = '\0';
	if (at < 0) {
		join(out, s ? s : "", sl);
	} else {
		join(out, s, (size_t) at);
		join(out, s + at + len, sl - (size_t) at - len);
	}
	join(out, summary, strlen(summary));
	return out;
}
