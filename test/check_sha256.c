/* check_sha256.c - the front ends' SHA-256 (src/cli/sha256.c) against
 * the examples of FIPS 180-4's companion (NIST CSRC "SHA256.pdf"), and
 * against coreutils' sha256sum on every length from 0 to 300 bytes (all
 * padding cases: 55, 56, 63, 64 bytes and multi-block messages) and on a
 * file fed in odd-sized pieces. */
#include <stdio.h>
#include <unistd.h>

#include "sha256.h"
#include "testutil.h"

static void hex_of(const void *p, size_t n, char hex[65])
{
	struct cli_sha256 s;

	cli_sha256_init(&s);
	cli_sha256_update(&s, p, n);
	cli_sha256_hex(&s, hex);
}

START_TEST(test_sha256_nist_examples)
{
	char hex[65];

	hex_of("abc", 3, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223"
			      "b00361a396177a9cb410ff61f20015ad");
	hex_of("", 0, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb924"
			      "27ae41e4649b934ca495991b7852b855");
	hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	       hex);
	ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039"
			      "a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

/* One million 'a', fed 1000 at a time. */
START_TEST(test_sha256_million_a)
{
	struct cli_sha256 s;
	char a[1000], hex[65];
	int i;

	memset(a, 'a', sizeof(a));
	cli_sha256_init(&s);
	for (i = 0; i < 1000; i++)
		cli_sha256_update(&s, a, sizeof(a));
	cli_sha256_hex(&s, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
			      "f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

#define NLEN 301

/* Files f0..f300 of 0..300 bytes in dir, all hashed by one sha256sum. */
START_TEST(test_sha256_file_equals_sha256sum)
{
	char dir[] = "/tmp/check_sha256.XXXXXX", path[64], cmd[128];
	char mine[65], ref[65], name[16];
	static char refs[NLEN][65];
	uint64_t seed = 7;
	unsigned char buf[NLEN - 1];
	size_t n, i, k;
	FILE *f, *p;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char) tu_rand(&seed);
	for (n = 0; n < NLEN; n++) {
		snprintf(path, sizeof(path), "%s/f%zu", dir, n);
		f = fopen(path, "wb");
		ck_assert_ptr_nonnull(f);
		ck_assert_uint_eq(fwrite(buf, 1, n, f), n);
		ck_assert_int_eq(fclose(f), 0);
	}
	snprintf(cmd, sizeof(cmd), "cd %s && sha256sum f*", dir);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	for (i = 0; i < NLEN; i++) {
		ck_assert_int_eq(fscanf(p, "%64s %15s", ref, name), 2);
		ck_assert_int_eq(sscanf(name, "f%zu", &n), 1);
		ck_assert_uint_lt(n, NLEN);
		memcpy(refs[n], ref, sizeof(ref));
	}
	ck_assert_int_eq(pclose(p), 0);
	for (n = 0; n < NLEN; n++) {
		struct cli_sha256 s;
		size_t at;

		snprintf(path, sizeof(path), "%s/f%zu", dir, n);
		ck_assert_int_eq(cli_sha256_file(path, mine), 0);
		ck_assert_msg(!strcmp(mine, refs[n]),
			      "%zu bytes: %s, sha256sum %s", n, mine, refs[n]);
		/* The same bytes in pieces of 1, 2, 3, ... */
		cli_sha256_init(&s);
		for (at = 0, k = 1; at < n; at += k, k++)
			cli_sha256_update(&s, buf + at,
					  at + k > n ? n - at : k);
		cli_sha256_hex(&s, mine);
		ck_assert_str_eq(mine, refs[n]);
		unlink(path);
	}
	rmdir(dir);
	ck_assert_int_eq(cli_sha256_file(path, mine), -1);
	ck_assert_str_eq(mine, "");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("sha256");

	/* a million 'a's and a sha256sum run: more than Check's default
	 * 4 s under valgrind or ASan on a busy machine */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_sha256_nist_examples);
	tcase_add_test(tc, test_sha256_million_a);
	tcase_add_test(tc, test_sha256_file_equals_sha256sum);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
