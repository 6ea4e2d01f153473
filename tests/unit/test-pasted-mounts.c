// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The mount-table reader of formats/pasted (pasted-mounts.c): the options of the mount at /dev
 * from mount(8), /proc/mounts, /proc/self/mountinfo and findmnt(8), over real pastes
 * (tests/fuzz/corpus/pasted-mounts/, each copied from the page named above its test) and the
 * forms' lines as the tools print them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pasted-readers.h"
#include "pasted-test-util.h"

#define KEY "driver.amdgpu.dev_mount_options"

static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	return 0;
}

/* https://github.com/util-linux/util-linux/issues/1746 (mount(8) on Arch, /dev exec) and
 * https://github.com/kubernetes/minikube/issues/8327 (`cat /proc/mounts`): the mount's own
 * options, the filesystem's (size=, mode=) left out; /dev/pts, /dev/shm are other mounts */
static void test_mount_and_proc_mounts(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_sample(pasted_read_mounts, "pasted-mounts",
					   "util-linux-1746-mount.txt", &f),
			 1);
	pasted_expect(&f, KEY, "rw,nosuid,relatime", 3);
	assert_int_equal(pasted_run_sample(pasted_read_mounts, "pasted-mounts",
					   "minikube-8327-proc-mounts.txt", &f),
			 1);
	pasted_expect(&f, KEY, "rw,nosuid,relatime", 5);
	/* systemd since v246 mounts devtmpfs noexec (systemd/systemd#15040) */
	pasted_run_text(
		pasted_read_mounts,
		"$ mount | grep /dev\n"
		"udev on /dev type devtmpfs (rw,nosuid,noexec,relatime,size=16325744k,"
		"nr_inodes=4081436,mode=755,inode64)\n"
		"devpts on /dev/pts type devpts (rw,nosuid,noexec,relatime,gid=5,mode=620)\n",
		&f);
	pasted_expect(&f, KEY, "rw,nosuid,noexec,relatime", 2);
	assert_int_equal(f.n, 1);
	pasted_run_text(pasted_read_mounts,
			"udev /dev devtmpfs rw,nosuid,noexec,relatime,size=1967912k,mode=755 0 0\n",
			&f);
	pasted_expect(&f, KEY, "rw,nosuid,noexec,relatime", 1);
}

/* proc(5)'s mountinfo: field 5 the mount point, field 6 the mount's own options */
static void test_mountinfo(void **state)
{
	(void)state;
	pasted_run_text(
		pasted_read_mounts,
		"22 27 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
		"24 27 0:5 / /dev rw,nosuid,noexec,relatime shared:2 - devtmpfs udev "
		"rw,size=16325744k,nr_inodes=4081436,mode=755,inode64\n"
		"25 24 0:22 / /dev/pts rw,nosuid,noexec,relatime shared:3 - devpts devpts "
		"rw,gid=5,mode=620,ptmxmode=000\n",
		&f);
	pasted_expect(&f, KEY, "rw,nosuid,noexec,relatime", 2);
	assert_int_equal(f.n, 1);
	/* a later mount at /dev hides the earlier one: the last listed wins, as in the probe */
	pasted_run_text(pasted_read_mounts,
			"24 27 0:5 / /dev rw,nosuid,noexec,relatime shared:2 - devtmpfs udev rw\n"
			"90 24 0:50 / /dev rw,nosuid,relatime - tmpfs tmpfs rw,mode=755\n",
			&f);
	pasted_expect(&f, KEY, "rw,nosuid,relatime", 2);
	assert_int_equal(f.n, 1);
}

/* https://github.com/systemd/systemd/pull/20075 (findmnt's tree in an LXC container, /dev a
 * tmpfs) and https://github.com/RedHatInsights/insights-core/issues/2368 (findmnt -lo
 * +PROPAGATION) */
static void test_findmnt(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_sample(pasted_read_mounts, "pasted-mounts",
					   "systemd-20075-findmnt-lxc.txt", &f),
			 1);
	pasted_expect(&f, KEY, "rw,nosuid,relatime", 7);
	assert_int_equal(pasted_run_sample(pasted_read_mounts, "pasted-mounts",
					   "insights-core-2368-findmnt-list.txt", &f),
			 1);
	pasted_expect(&f, KEY, "rw,nosuid", 4);
	/* findmnt -a's ASCII tree, and `findmnt /dev` */
	pasted_run_text(pasted_read_mounts,
			"TARGET SOURCE FSTYPE OPTIONS\n"
			"|-/dev  udev  devtmpfs  rw,nosuid,noexec,relatime,size=8k,mode=755\n"
			"| |-/dev/pts devpts devpts rw,nosuid,noexec,relatime\n",
			&f);
	pasted_expect(&f, KEY, "rw,nosuid,noexec,relatime", 2);
	pasted_run_text(pasted_read_mounts,
			"$ findmnt /dev\nTARGET SOURCE FSTYPE   OPTIONS\n"
			"/dev   udev   devtmpfs rw,nosuid,noexec,relatime,size=8k,mode=755\n",
			&f);
	pasted_expect(&f, KEY, "rw,nosuid,noexec,relatime", 3);
}

/* Lines that name /dev but give no mount's options: an fstab(5) line (configuration, its
 * options not starting with ro or rw), other mount points, a device as the source, prose,
 * a truncated list, "noexec" inside another option */
static void test_not_a_mount(void **state)
{
	(void)state;
	pasted_run_text(pasted_read_mounts,
			"devtmpfs /dev devtmpfs defaults,noexec 0 0\n"
			"/dev/sda2 on / type ext4 (rw,relatime,errors=remount-ro)\n"
			"tmpfs on /dev/shm type tmpfs (rw,nosuid,nodev,inode64)\n"
			"mount -o remount,exec /dev\n"
			"udev on /dev type devtmpfs\n"
			"udev on /dev type devtmpfs ()\n"
			"/dev udev devtmpfs\n"
			"1 2 3 / /dev rw,noexec shared:2 - devtmpfs udev rw\n"
			"/dev on /dev type devtmpfs (rwx,noexec)\n",
			&f);
	assert_int_equal(f.n, 0);
	pasted_run_text(pasted_read_mounts,
			"udev on /dev type devtmpfs (ro,x-noexec,noexecute,nosuid,nosuid)\n", &f);
	pasted_expect(&f, KEY, "ro,nosuid", 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_mount_and_proc_mounts, teardown),
		cmocka_unit_test_teardown(test_mountinfo, teardown),
		cmocka_unit_test_teardown(test_findmnt, teardown),
		cmocka_unit_test_teardown(test_not_a_mount, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
