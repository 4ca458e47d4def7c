/* comment.h - the placement summary select/mesh keeps in a job's
 * SystemComment ("mesh:v1 alloc=... diam=..."), beside whatever else
 * other plugins or an administrator wrote there.
 */
#ifndef MESH_COMMENT_H
#define MESH_COMMENT_H

#include <stddef.h>

#define MESH_COMMENT_PREFIX "mesh:v1 "

/** \brief Where a summary starts in s and how long it is: the prefix and
 *  the key=value words after it with the summary's keys (alloc, bbox,
 *  sumdist, avgdist, diam, shape).  \return its offset, or -1 (s NULL or
 *  holding none). */
long mesh_comment_find(const char *s, size_t *len);

/** \brief s with its summary, if any, taken out (the text around it
 *  kept, joined by one space) and summary appended after a space.
 *  \return a malloc()ed string, or NULL when out of memory. */
char *mesh_comment_replace(const char *s, const char *summary);

#endif
