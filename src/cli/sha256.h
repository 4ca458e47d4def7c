/* sha256.h - SHA-256 (FIPS 180-4) of memory and of files, so that every
 * output can name the exact inputs it was made from. */
#ifndef CLI_SHA256_H
#define CLI_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct cli_sha256 {
	uint32_t h[8];
	uint64_t bytes; /* message length so far */
	unsigned char blk[64];
	size_t fill; /* bytes waiting in blk */
};

void cli_sha256_init(struct cli_sha256 *s);
void cli_sha256_update(struct cli_sha256 *s, const void *data, size_t len);
/* The digest as 64 lower-case hex digits and a NUL in hex[65]. */
void cli_sha256_hex(struct cli_sha256 *s, char hex[65]);

/* The SHA-256 of the file at path in hex[65]; 0, or -1 with errno set
 * (hex is then the empty string). */
int cli_sha256_file(const char *path, char hex[65]);

#endif
