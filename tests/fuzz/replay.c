// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Replays a libFuzzer corpus without libFuzzer: calls LLVMFuzzerTestOneInput() on every
 * file named on the command line or found in the directories named (one level). This is
 * how the corpus, and every crash a fuzzer found, runs as an ordinary `meson test` under
 * ASan/UBSan (libbpf fuzz/ idea).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

int main(int argc, char *argv[])
{
	unsigned count = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) < 0) {
			perror(argv[i]);
			return 1;
		}
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *de;

			while (d && (de = readdir(d))) {
				char path[4096];

				if (de->d_name[0] == '.')
					continue;
				snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
				if (run_file(path) < 0) {
					perror(path);
					return 1;
				}
				count++;
			}
			if (d)
				closedir(d);
		} else {
			if (run_file(argv[i]) < 0) {
				perror(argv[i]);
				return 1;
			}
			count++;
		}
	}
	printf("replayed %u inputs\n", count);
	if (count == 0) {
		fprintf(stderr, "empty corpus\n");
		return 1;
	}
	return 0;
}
