/* sha256.c - SHA-256 as FIPS 180-4 (Sec. 4.1.2, 4.2.2, 5.1.1, 6.2)
 * specifies it: 64-byte blocks, a 64-round compression of eight 32-bit
 * words, the message padded with a 1 bit, zeros and its length in bits.
 *
 * Written for this project from the standard; test/check_sha256.c
 * compares it with the standard's examples and with sha256sum.
 */
#include "sha256.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Sec. 4.2.2: the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes. */
static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

static uint32_t rotr(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

/* Sec. 6.2.2: one block into the hash state. */
static void compress(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], v[8], t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t) p[4 * i] << 24 |
		       (uint32_t) p[4 * i + 1] << 16 |
		       (uint32_t) p[4 * i + 2] << 8 | (uint32_t) p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = (rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^
			(w[i - 2] >> 10)) +
		       w[i - 7] +
		       (rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^
			(w[i - 15] >> 3)) +
		       w[i - 16];
	memcpy(v, h, sizeof(v));
	for (i = 0; i < 64; i++) {
		t1 = v[7] + (rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25)) +
		     ((v[4] & v[5]) ^ (~v[4] & v[6])) + K[i] + w[i];
		t2 = (rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22)) +
		     ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h[i] += v[i];
}

void cli_sha256_init(struct cli_sha256 *s)
{
	/* Sec. 5.3.3: the square roots of the first 8 primes. */
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372,
					0xa54ff53a, 0x510e527f, 0x9b05688c,
					0x1f83d9ab, 0x5be0cd19 };

	memcpy(s->h, h0, sizeof(h0));
	s->bytes = 0;
	s->fill = 0;
}

void cli_sha256_update(struct cli_sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t n;

	s->bytes += len;
	while (len) {
		n = 64 - s->fill < len ? 64 - s->fill : len;
		memcpy(s->blk + s->fill, p, n);
		s->fill += n;
		p += n;
		len -= n;
		if (s->fill == 64) {
			compress(s->h, s->blk);
			s->fill = 0;
		}
	}
}

void cli_sha256_hex(struct cli_sha256 *s, char hex[65])
{
	uint64_t bits = s->bytes * 8;
	unsigned char pad[72] = { 0x80 };
	size_t npad = (s->fill < 56 ? 56 : 120) - s->fill;
	int i;

	/* Sec. 5.1.1: a 1 bit, zeros, the length in bits, big-endian. */
	for (i = 0; i < 8; i++)
		pad[npad + (size_t) i] = (unsigned char) (bits >> (56 - 8 * i));
	cli_sha256_update(s, pad, npad + 8);
	for (i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x",
			 (unsigned) (s->h[i / 4] >> (24 - 8 * (i % 4))) &
			     0xffu);
}

int cli_sha256_file(const char *path, char hex[65])
{
	struct cli_sha256 s;
	unsigned char buf[65536];
	FILE *f = fopen(path, "rb");
	size_t n;
	int err;

	hex[0] = '\0';
	if (!f)
		return -1;
	cli_sha256_init(&s);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		cli_sha256_update(&s, buf, n);
	err = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (err) {
		errno = err;
		return -1;
	}
	cli_sha256_hex(&s, hex);
	return 0;
}
