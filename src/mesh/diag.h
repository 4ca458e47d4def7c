/* diag.h - parser diagnostics: "file:line:field: message".
 *
 * Parsers never print.  They fill a caller-supplied struct mesh_diag so
 * that meshsim can print it and the plugin can hand it to error().
 */
#ifndef MESH_DIAG_H
#define MESH_DIAG_H

#include <stddef.h>

struct mesh_diag {
	char file[256]; /* input name, "" if none */
	long line;      /* 1-based line, 0 if not line-oriented */
	char field[48]; /* field or key name, "" if none */
	char message[512];
};

/** \brief Clear a diagnostic (NULL is accepted and ignored). */
void mesh_diag_clear(struct mesh_diag *d);

/** \brief Fill d (if not NULL) with a printf-style message.
 *  \return rc, so callers can write `return mesh_diag_set(d, ...)`. */
int mesh_diag_set(struct mesh_diag *d, int rc, const char *file, long line,
		  const char *field, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/** \brief Describe the character that starts at p so a person can see it:
 *  "'x'" for printable ASCII, "'×' (U+00D7)" for a UTF-8 sequence
 *  (with a name for invisible ones such as the byte-order mark), and
 *  "byte 0xC3 (not valid UTF-8)" or "control byte 0x09" otherwise.
 *  \return buf (always terminated). */
const char *mesh_diag_char(const char *p, char *buf, size_t len);

/** \brief Copy the n bytes at p (up to a NUL) so that a terminal shows
 *  each of them: printable ASCII stays, every other byte (controls,
 *  anything non-ASCII, which may be an invisible character) becomes
 *  \\xHH, and a backslash \\x5C; cut short to fit len.
 *  \return buf (always terminated). */
const char *mesh_diag_quote(const char *p, size_t n, char *buf, size_t len);

/** \brief Render "file:line:field: message" into buf (always terminated). */
const char *mesh_diag_format(const struct mesh_diag *d, char *buf, size_t len);

#endif
