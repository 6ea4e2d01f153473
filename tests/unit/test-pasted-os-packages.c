// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/pasted-os-packages: dpkg -l, apt list, rpm -qa and dnf list over real pastes
 * (tests/fuzz/corpus/pasted-os-packages/, each copied from the issue named above its test),
 * and over lines written in each command's format where the states a paste rarely shows
 * (a package removed, half-installed) are asked about.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pasted-readers.h"
#include "pasted-test-util.h"

#define DIR "pasted-os-packages"
#define LZ  "runtime.level_zero.packages."
#define TK  "container.host.toolkit.packages."
static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	return 0;
}

static void expect_absent(const char *path, unsigned line)
{
	const struct pasted_fact *x = pasted_facts_get(&f, path);

	assert_non_null(x);
	assert_true(x->absent);
	assert_int_equal(x->line, line);
}

/* https://github.com/intel/compute-runtime/issues/478 (`dpkg -l | grep ...`, a blank line
 * between the rows as pasted) */
static void test_dpkg_intel(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_sample(pasted_read_os_packages, DIR,
					   "dpkg-l-intel-compute-runtime-478.txt", &f),
			 2);
	pasted_expect(&f, LZ "intel-level-zero-gpu", "1.2.021270", 7);
	pasted_expect(&f, LZ "intel-opencl-icd", "21.42.021270", 9);
	pasted_expect_none(&f, LZ "libze1"); /* not listed: not known */
}

/* https://github.com/NVIDIA/nvidia-docker/issues/1629 (`dpkg -l '*nvidia*'` through less,
 * its lines cut at '>'): the toolkit's libraries; the driver's packages are no fact */
static void test_dpkg_header_less(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_sample(pasted_read_os_packages, DIR,
					   "dpkg-l-nvidia-less-cut-1629.txt", &f),
			 2);
	pasted_expect(&f, TK "libnvidia-container-tools", "1.9.0-1", 15);
	pasted_expect(&f, TK "libnvidia-container1", "1.9.0-1", 16);
	pasted_expect_none(&f, TK "nvidia-container-toolkit");
	pasted_expect_no_prefix(&f, "driver.");
}

/* https://github.com/NVIDIA/nvidia-docker/issues/1232 (an old dpkg cutting names and versions
 * to their columns): "libnvidia-container1:am" and "libnvidia-container-too" are not read */
static void test_dpkg_cut_columns(void **state)
{
	(void)state;
	assert_int_equal(
		pasted_run_sample(pasted_read_os_packages, DIR, "dpkg-l-old-dpkg-cut-1232.txt", &f),
		0);
	pasted_expect_no_prefix(&f, "container.");
}

/* https://github.com/NVIDIA/k8s-device-plugin/issues/471 (`dpkg -l | grep nvidia`, no header) */
static void test_dpkg_toolkit(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_os_packages, DIR, "dpkg-l-ctk-debian12-k8s-471.txt", &f);
	pasted_expect(&f, TK "nvidia-container-toolkit", "1.14.3-1", 2);
	pasted_expect(&f, TK "nvidia-container-toolkit-base", "1.14.3-1", 3);
	pasted_expect_none(&f, TK "libnvidia-container1");
}

/* https://github.com/intel/compute-runtime/issues/832 (`apt search libze`: only libze1 is
 * [installed]; libze-intel-gpu1 is offered, not installed, and not recorded) */
static void test_apt_search(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_sample(pasted_read_os_packages, DIR,
					   "apt-search-libze-compute-runtime-832.txt", &f),
			 1);
	pasted_expect(&f, LZ "libze1", "1.16.1-1build1", 10);
	pasted_expect_none(&f, LZ "libze-intel-gpu1");
}

/* dpkg -l's states (dpkg-query(1)): installed beats another line's "rc"; "rc" and "un" are
 * absent where doctor records an absent package; half-installed is not recorded; the
 * -legacy1 packages are recorded only where installed, as doctor does. */
static void test_dpkg_states(void **state)
{
	(void)state;
	pasted_run_text(
		pasted_read_os_packages,
		"ii  libze1:amd64                 1.8.8-1         amd64        oneAPI Level Zero\n"
		"rc  libze1:i386                  1.8.8-1         i386         oneAPI Level Zero\n"
		"rc  intel-opencl-icd             22.14.22890-1   amd64        OpenCL ICD\n"
		"un  amdgpu-dkms                  <none>          <none>       (no description available)\n"
		"iU  libze-intel-gpu1             23.43.27642.40-1ubuntu3  amd64  shared library\n"
		"rc  intel-opencl-icd-legacy1     24.35.30872.36-1 amd64       OpenCL ICD\n"
		"hi  nvidia-container-toolkit     1:1.14.3-1      amd64        NVIDIA Container toolkit\n",
		&f);
	pasted_expect(&f, LZ "libze1", "1.8.8-1", 1);
	expect_absent(LZ "intel-opencl-icd", 3);
	expect_absent("driver.amdgpu.dkms_package", 4);
	pasted_expect_none(&f, LZ "libze-intel-gpu1");
	pasted_expect_none(&f, LZ "intel-opencl-icd-legacy1");
	pasted_expect(&f, TK "nvidia-container-toolkit", "1:1.14.3-1", 7);
}

/* apt list (apt(8)): [installed…], [upgradable from: V] (installed at V), [residual-config] */
static void test_apt_list(void **state)
{
	(void)state;
	pasted_run_text(
		pasted_read_os_packages,
		"WARNING: apt does not have a stable CLI interface. Use with caution in scripts.\n"
		"\n"
		"Listing... Done\n"
		"nvidia-container-toolkit/unknown,now 1.14.3-1 amd64 [installed]\n"
		"libnvidia-container1/unknown 1.17.0-1 amd64 [upgradable from: 1.14.3-1]\n"
		"amdgpu-dkms/jammy,now 1:6.8.5.60200-2009582.22.04 all [residual-config]\n"
		"intel-opencl-icd/jammy,now 22.14.22890-1 amd64 [installed,upgradable to: 23.13.26032.30-1]\n",
		&f);
	pasted_expect(&f, TK "nvidia-container-toolkit", "1.14.3-1", 4);
	pasted_expect(&f, TK "libnvidia-container1", "1.14.3-1", 5);
	expect_absent("driver.amdgpu.dkms_package", 6);
	pasted_expect(&f, LZ "intel-opencl-icd", "22.14.22890-1", 7);
}

/* podman's package (NVIDIA/nvidia-container-toolkit#1940 pastes its apt list line, arm64),
 * and a podman command line that is no listing */
static void test_apt_list_podman(void **state)
{
	(void)state;
	pasted_run_text(pasted_read_os_packages,
			"podman/noble-updates,now 4.9.3+ds1-1ubuntu0.2 arm64 [installed]\n"
			"\n"
			"$ podman run -it --rm  --device nvidia.com/gpu=0 ubuntu bash\n",
			&f);
	pasted_expect(&f, "container.host.engine_packages.podman", "4.9.3+ds1-1ubuntu0.2", 1);
}

/* rpm -qa (rpm(8): NAME-VERSION-RELEASE.ARCH, the arch left out by old rpm): a name's own
 * dashes kept; a package file's name and dnf's indented transaction lists not read */
static void test_rpm(void **state)
{
	(void)state;
	pasted_run_text(pasted_read_os_packages,
			"nvidia-container-toolkit-base-1.14.3-1.x86_64\n"
			"libnvidia-container-tools-1.14.3-1.x86_64\n"
			"level-zero-1.8.8-1.fc38\n"
			"nvidia-container-toolkit-1.0.5-2.x86_64.rpm\n"
			"Removed:\n"
			"  libnvidia-container1-1.13.5-1.x86_64\n"
			"gpg-pubkey-f5c6c1b0-5e7a5b2c\n",
			&f);
	pasted_expect(&f, TK "nvidia-container-toolkit-base", "1.14.3-1", 1);
	pasted_expect(&f, TK "libnvidia-container-tools", "1.14.3-1", 2);
	pasted_expect(&f, LZ "level-zero", "1.8.8-1.fc38", 3);
	pasted_expect_none(&f, TK "nvidia-container-toolkit");
	pasted_expect_none(&f, TK "libnvidia-container1");
}

/* dnf list installed: "@repo" (dnf 4, yum); dnf 5's headings, its repository without '@' */
static void test_dnf(void **state)
{
	(void)state;
	pasted_run_text(
		pasted_read_os_packages,
		"nvidia-container-toolkit.x86_64          1.14.3-1          @nvidia-container-toolkit\n"
		"Installed packages\n"
		"libnvidia-container1.x86_64   1.17.0-1   nvidia-container-toolkit\n"
		"Available packages\n"
		"nvidia-container-toolkit-base.x86_64   1.17.0-1   nvidia-container-toolkit\n",
		&f);
	pasted_expect(&f, TK "nvidia-container-toolkit", "1.14.3-1", 1);
	pasted_expect(&f, TK "libnvidia-container1", "1.17.0-1", 3);
	pasted_expect_none(&f, TK "nvidia-container-toolkit-base");
}

/* dnf 4 / yum wrap a value longer than its column: the value alone, then the rest of the row
 * indented to the next column (rpm-software-management/dnf dnf/cli/output.py fmtColumns:
 * "%s\n" + " " * (total_width + width + 1)); the rows written as that code prints them for a
 * 30-column name (dnf's column widths follow the terminal and the data) */
static void test_dnf_wrapped(void **state)
{
	(void)state;
	pasted_run_text(
		pasted_read_os_packages,
		"Installed Packages\n"
		"nvidia-container-toolkit-base.x86_64\n"
		"                               1.17.8-1         @nvidia-container-toolkit\n"
		"libnvidia-container1.x86_64    1.17.8-1         @nvidia-container-toolkit\n"
		"libnvidia-container-tools.x86_64\n"
		"                               1:1.17.8-1.el9_4.3.centos.stream.and.more\n"
		"                                                @nvidia-container-toolkit\n"
		"intel-level-zero-gpu-legacy1.x86_64\n"
		"Available Packages\n"
		"nvidia-container-toolkit.x86_64\n"
		"                               1.18.0-1         nvidia-container-toolkit\n",
		&f);
	pasted_expect(&f, TK "nvidia-container-toolkit-base", "1.17.8-1", 2);
	pasted_expect(&f, TK "libnvidia-container1", "1.17.8-1", 4);
	pasted_expect(&f, TK "libnvidia-container-tools",
		      "1:1.17.8-1.el9_4.3.centos.stream.and.more", 5);
	/* a name whose row never went on; a row under "Available Packages" */
	pasted_expect_none(&f, LZ "intel-level-zero-gpu-legacy1");
	pasted_expect_none(&f, TK "nvidia-container-toolkit");
}

/* Prose and install logs naming the packages state nothing about what is installed */
static void test_prose(void **state)
{
	(void)state;
	assert_int_equal(
		pasted_run_text(
			pasted_read_os_packages,
			"I installed nvidia-container-toolkit 1.14.3 yesterday\n"
			"Setting up intel-level-zero-gpu (1.3.30049.10-950~24.04) ...\n"
			"Unpacking intel-opencl-icd (23.05.25593.11) over (22.49.25018.24) ...\n"
			"ii  intel-opencl-icd\n"
			"nvidia-container-toolkit is already the newest version (1.18.1-1).\n",
			&f),
		0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_dpkg_intel, teardown),
		cmocka_unit_test_teardown(test_dpkg_header_less, teardown),
		cmocka_unit_test_teardown(test_dpkg_cut_columns, teardown),
		cmocka_unit_test_teardown(test_dpkg_toolkit, teardown),
		cmocka_unit_test_teardown(test_apt_search, teardown),
		cmocka_unit_test_teardown(test_dpkg_states, teardown),
		cmocka_unit_test_teardown(test_apt_list, teardown),
		cmocka_unit_test_teardown(test_apt_list_podman, teardown),
		cmocka_unit_test_teardown(test_rpm, teardown),
		cmocka_unit_test_teardown(test_dnf, teardown),
		cmocka_unit_test_teardown(test_dnf_wrapped, teardown),
		cmocka_unit_test_teardown(test_prose, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
