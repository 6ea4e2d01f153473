// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What reading a set of byte ranges of a file costs here, by pread(2) or through a mapping,
 * for docs/scan-schema.md ("What a listing reads"): the ranges a `gpuenv scan` listing reads,
 * taken from strace, replayed without the parser, so that the cost of the calls, of the bytes
 * and of page faults can be told apart on a given machine. Modes: pread (each range read into
 * one buffer), mmap and mmap-random (the file mapped, MADV_RANDOM for the latter, and one
 * byte of every page of each range touched, as a parser reading it would; the unmapping is
 * counted). Prints the best CPU time (user + system) over ROUNDS and the minor faults.
 * Ranges: one "OFFSET LENGTH" a line, e.g. from
 *   strace -e trace=pread64 -o T gpuenv scan FILE
 *   sed -nE 's/^pread64\([0-9]+, .*, ([0-9]+), ([0-9]+)\) += ([0-9]+)$/\2 \3/p' T > RANGES
 * (the scan's own reads of FILE; awk the length to 1 to price the calls alone).
 * Build: cc -std=c11 -D_GNU_SOURCE -O2 bench/read-ranges.c -o read-ranges
 * Usage: read-ranges FILE RANGES pread|mmap|mmap-random [ROUNDS]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_RANGES (1u << 20)
#define MAX_LEN	   (4u << 20)

static double cpu_ms(long *faults)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	*faults = r.ru_minflt;
	return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e3 +
	       (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e3;
}

int main(int argc, char **argv)
{
	static unsigned long long off[MAX_RANGES], len[MAX_RANGES];
	static char buf[MAX_LEN];
	volatile unsigned sum = 0;
	unsigned long long bytes = 0;
	double best = -1;
	long best_faults = 0, page = sysconf(_SC_PAGESIZE);
	size_t n = 0;
	struct stat st;
	int rounds, mode, fd;
	FILE *f;

	if (argc < 4) {
		fprintf(stderr, "usage: %s FILE RANGES pread|mmap|mmap-random [ROUNDS]\n", argv[0]);
		return 64;
	}
	mode = strcmp(argv[3], "pread") == 0	     ? 0
	       : strcmp(argv[3], "mmap") == 0	     ? 1
	       : strcmp(argv[3], "mmap-random") == 0 ? 2
						     : -1;
	rounds = argc > 4 ? atoi(argv[4]) : 10;
	f = fopen(argv[2], "r");
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (mode < 0 || rounds < 1 || !f || fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "%s: bad mode, rounds, or unreadable FILE/RANGES\n", argv[0]);
		return 66;
	}
	while (n < MAX_RANGES && fscanf(f, "%llu %llu", &off[n], &len[n]) == 2) {
		if (len[n] > MAX_LEN || off[n] > (unsigned long long)st.st_size ||
		    len[n] > (unsigned long long)st.st_size - off[n]) {
			fprintf(stderr, "%s: range %zu outside FILE or over %u bytes\n", argv[0], n,
				MAX_LEN);
			return 65;
		}
		bytes += len[n++];
	}
	fclose(f);
	for (int it = 0; it < rounds; it++) {
		long f0, f1;
		double c0 = cpu_ms(&f0), c;

		if (mode == 0) {
			for (size_t i = 0; i < n; i++)
				if (pread(fd, buf, len[i], (off_t)off[i]) > 0)
					sum += (unsigned char)buf[0];
		} else {
			char *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

			if (p == MAP_FAILED) {
				perror("mmap");
				return 71;
			}
			if (mode == 2)
				madvise(p, (size_t)st.st_size, MADV_RANDOM);
			for (size_t i = 0; i < n; i++)
				for (unsigned long long q =
					     off[i] - off[i] % (unsigned long long)page;
				     q < off[i] + len[i]; q += (unsigned long long)page)
					sum += (unsigned char)p[q];
			munmap(p, (size_t)st.st_size);
		}
		c = cpu_ms(&f1) - c0;
		if (best < 0 || c < best) {
			best = c;
			best_faults = f1 - f0;
		}
	}
	printf("%s: %zu ranges, %llu bytes: best CPU %.2f ms of %d rounds, %ld minor faults\n",
	       argv[3], n, bytes, best, rounds, best_faults);
	return 0;
}
