// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The /proc/PID/maps line parser (src/shared/proc-maps.c) over real lines: Linux 6.18's
 * maps and smaps of cat(1) on x86_64 (tests/fuzz/corpus/proc-maps/, replayed too), a file
 * mapped then unlinked, a memfd, a path with spaces and one with a newline (the same kernel,
 * mapped by hand), the example of proc(5), and lines pasted into public reports.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "shared/proc-maps.h"

static struct proc_maps_line l;

static void expect_path(const char *path)
{
	assert_int_equal(l.path_len, strlen(path));
	assert_memory_equal(l.path, path, l.path_len);
}

/* A file's mapping, a heap, an anonymous one (the space after the inode kept), the vDSO, and
 * the vsyscall page at the top of the address space: 16 hex digits. */
static void test_x86_64_6_18(void **state)
{
	(void)state;
	assert_true(proc_maps_parse_line("7f558d5c0000-7f558d716000 r-xp 00026000 fe:00 332835"
					 "                     /usr/lib/x86_64-linux-gnu/libc.so.6",
					 &l));
	assert_int_equal(l.start, 0x7f558d5c0000UL);
	assert_int_equal(l.end, 0x7f558d716000UL);
	assert_string_equal(l.perms, "r-xp");
	assert_int_equal(l.offset, 0x26000);
	assert_string_equal(l.dev, "fe:00");
	assert_int_equal(l.inode, 332835);
	expect_path("/usr/lib/x86_64-linux-gnu/libc.so.6");

	assert_true(proc_maps_parse_line("5574d22c2000-5574d22e3000 rw-p 00000000 00:00 0"
					 "                          [heap]\n",
					 &l));
	assert_string_equal(l.perms, "rw-p");
	assert_int_equal(l.inode, 0);
	expect_path("[heap]");

	assert_true(proc_maps_parse_line("7f558d517000-7f558d539000 rw-p 00000000 00:00 0 \n", &l));
	assert_int_equal(l.start, 0x7f558d517000UL);
	expect_path("");

	assert_true(proc_maps_parse_line("7f558d78f000-7f558d791000 r-xp 00000000 00:00 0"
					 "                          [vdso]",
					 &l));
	expect_path("[vdso]");

	assert_true(proc_maps_parse_line("7f558d77f000-7f558d786000 r--s 00000000 fe:00 332280"
					 "                     /usr/lib/x86_64-linux-gnu/gconv/"
					 "gconv-modules.cache",
					 &l));
	assert_string_equal(l.perms, "r--s");

	if (sizeof(unsigned long) == 8) {
		assert_true(proc_maps_parse_line("ffffffffff600000-ffffffffff601000 --xp 00000000 "
						 "00:00 0                  [vsyscall]",
						 &l));
		assert_int_equal(l.start, 0xffffffffff600000UL);
		assert_string_equal(l.perms, "--xp");
		expect_path("[vsyscall]");
	}
}

/* The name as the kernel prints it, unchanged: " (deleted)" after an unlinked file's path
 * (and a memfd's), spaces kept, a newline escaped as \012 (proc(5)). */
static void test_names(void **state)
{
	(void)state;
	assert_true(proc_maps_parse_line("7fdf683ba000-7fdf683bb000 r--s 00000000 fe:00 10954911"
					 "                   /tmp/libcuda.so.1 (deleted)\n",
					 &l));
	assert_int_equal(l.inode, 10954911);
	expect_path("/tmp/libcuda.so.1 (deleted)");
	assert_true(proc_maps_parse_line("7fdf67822000-7fdf67823000 rw-s 00000000 00:01 2142"
					 "                       /memfd:gpuenv test (deleted)",
					 &l));
	assert_string_equal(l.dev, "00:01");
	expect_path("/memfd:gpuenv test (deleted)");
	assert_true(proc_maps_parse_line("7fdf683bb000-7fdf683bd000 r--s 00000000 fe:00 11241266"
					 "                   /tmp/shader cache/index 0.bin\n",
					 &l));
	expect_path("/tmp/shader cache/index 0.bin");
	assert_true(proc_maps_parse_line("7f42be70a000-7f42be70b000 r--s 00000000 fe:00 10952751"
					 "                   /tmp/model\\012weights.bin (deleted)",
					 &l));
	expect_path("/tmp/model\\012weights.bin (deleted)");
}

/* proc(5)'s example: 8 and 10 hex digits, "[stack:986]" (Linux 3.4 to 4.4), and a line that
 * ends at the inode, its trailing space not kept (also in the paste of
 * https://github.com/radareorg/radare2/issues/16163). The example's
 * "f2c6ff8c000-7f2c7078c000" lost its leading 7 on the page: read as printed, 11 digits. */
static void test_proc5_example(void **state)
{
	(void)state;
	assert_true(proc_maps_parse_line("00400000-00452000 r-xp 00000000 08:02 173521      "
					 "/usr/bin/dbus-daemon",
					 &l));
	assert_int_equal(l.start, 0x400000);
	assert_int_equal(l.end, 0x452000);
	assert_string_equal(l.dev, "08:02");
	expect_path("/usr/bin/dbus-daemon");
	assert_true(proc_maps_parse_line("35b1fac000-35b1fb0000 r--p 001ac000 08:02 135870  "
					 "/usr/lib64/libc-2.15.so",
					 &l));
	assert_int_equal(l.start, 0x35b1fac000UL);
	assert_int_equal(l.offset, 0x1ac000);
	assert_true(proc_maps_parse_line("35b1a21000-35b1a22000 rw-p 00000000 00:00 0", &l));
	expect_path("");
	assert_true(proc_maps_parse_line("35b1a21000-35b1a22000 rw-p 00000000 00:00 0\n", &l));
	expect_path("");
	assert_true(proc_maps_parse_line("f2c6ff8c000-7f2c7078c000 rw-p 00000000 00:00 0    "
					 "[stack:986]",
					 &l));
	assert_int_equal(l.start, 0xf2c6ff8c000UL);
	expect_path("[stack:986]");
	assert_true(proc_maps_parse_line("35b1dac000-35b1fac000 ---p 001ac000 08:02 135870  "
					 "/usr/lib64/libc-2.15.so",
					 &l));
	assert_string_equal(l.perms, "---p");
}

/* An i386 process's maps (https://github.com/FreeRDP/FreeRDP/issues/4809) and a
 * device-mapper device, major 253 = fd (https://github.com/FreeRDP/FreeRDP/issues/900). */
static void test_reports(void **state)
{
	(void)state;
	assert_true(proc_maps_parse_line("b53c5000-b5557000 r-xp 00000000 08:01 459572     "
					 "/lib/i386-linux-gnu/libcrypto.so.1.0.0",
					 &l));
	assert_int_equal(l.start, 0xb53c5000UL);
	assert_int_equal(l.inode, 459572);
	assert_true(proc_maps_parse_line("3f8ae03000-3f8b002000 ---p 00003000 fd:00 14025370"
					 "                       /usr/lib64/libdl-2.15.so",
					 &l));
	assert_string_equal(l.dev, "fd:00");
	assert_int_equal(l.offset, 0x3000);
}

/* What is not such a line: smaps's counts, a line cut short, fields out of shape, a number
 * past an unsigned long. */
static void test_not_lines(void **state)
{
	static const char *const bad[] = {
		"Rss:                  16 kB\n",
		"VmFlags: rd mr mw me \n",
		"",
		"5574ba871000-5574ba873000",
		"5574ba871000-5574ba873000 r--p",
		"5574ba871000-5574ba873000 r--p 00000000 fe:00",
		"5574ba871000-5574ba873000 r--p 00000000 fe:00 ",
		"5574ba871000 5574ba873000 r--p 00000000 fe:00 247134 /usr/bin/cat",
		"5574BA871000-5574ba873000 r--p 00000000 fe:00 247134 /usr/bin/cat",
		"5574ba871000-5574ba873000 r--q 00000000 fe:00 247134 /usr/bin/cat",
		"5574ba871000-5574ba873000 rw-p- 00000000 fe:00 247134 /usr/bin/cat",
		"5574ba871000-5574ba873000 r--p 00000000 fe00 247134 /usr/bin/cat",
		"5574ba871000-5574ba873000 r--p 00000000 fe:00 24713x /usr/bin/cat",
		"5574ba871000-5574ba873000 r--p 00000000 fe:00  247134 /usr/bin/cat",
		"5574ba871000-5574ba873000 r--p 00000000 fffffffffffffff0:00 247134 /usr/bin/cat",
		"15574ba871000ffff-5574ba873000 r--p 00000000 fe:00 247134 /usr/bin/cat",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (proc_maps_parse_line(bad[i], &l))
			fail_msg("read as a line of maps: \"%s\"", bad[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_64_6_18),   cmocka_unit_test(test_names),
		cmocka_unit_test(test_proc5_example), cmocka_unit_test(test_reports),
		cmocka_unit_test(test_not_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
