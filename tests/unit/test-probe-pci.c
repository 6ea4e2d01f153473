// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * probe-pci against sysfs trees: one built in a temp dir per test, laid out as a real
 * machine's /sys is (kernel ABI Documentation/ABI/testing/sysfs-bus-pci; `resource` as
 * drivers/pci/pci-sysfs.c resource_show() prints it, 13 lines for an endpoint with
 * CONFIG_PCI_IOV): /sys/bus/pci/devices/<BDF> -> ../../../devices/pci<dom:bus>/.../<BDF>,
 * driver -> ../../../../bus/pci/drivers/<name>, iommu_group -> ../../../../kernel/iommu_groups/N.
 * The H100 SXM values (10de:2330, subsystem 10de:16c1, class 0x030200, BAR0 16 MiB,
 * BAR1 128 GiB 64-bit prefetchable, BAR3 32 MiB) are those lspci -vvn prints on a DGX H100.
 * Plus the committed tests/fixtures/no-gpu/root (a GCE VM that came up without its GPU, rebuilt
 * from elasticluster/elasticluster#504: host bridge and virtio only).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/ctx.h"
#include "core/root.h"
#include "probe/probe.h"
#include "snapshot/snapshot.h"
#include "testhooks/testhooks.h"
#include "tmptree.h"

#define ZERO_RES    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
#define ZERO_RES_X7 ZERO_RES ZERO_RES ZERO_RES ZERO_RES ZERO_RES ZERO_RES ZERO_RES

/* H100 SXM: BAR0 32-bit 16 MiB, BAR1 64-bit prefetchable 128 GiB, BAR3 64-bit 32 MiB. */
static const char h100_resource[] =
	"0x00000000a4000000 0x00000000a4ffffff 0x0000000000040200\n"
	"0x0000228000000000 0x0000229fffffffff 0x000000000014220c\n" ZERO_RES
	"0x000022a002000000 0x000022a003ffffff 0x000000000014220c\n" ZERO_RES ZERO_RES ZERO_RES_X7;

/* BAR1 left unassigned by the firmware (IORESOURCE_UNSET 0x20000000): start 0, end size-1. */
static const char unassigned_bar1_resource[] =
	"0x00000000b4000000 0x00000000b4ffffff 0x0000000000040200\n"
	"0x0000000000000000 0x0000001fffffffff 0x000000002014220c\n" ZERO_RES
	"0x000023a002000000 0x000023a003ffffff 0x000000000014220c\n" ZERO_RES ZERO_RES ZERO_RES_X7;

static const char bad_line1_resource[] =
	"0x00000000c4000000 0x00000000c4ffffff 0x0000000000040200\n"
	"0x0000248000000000 0x0000249fffffffff\n" ZERO_RES ZERO_RES ZERO_RES ZERO_RES ZERO_RES_X7;

struct fixture {
	char dir[TMPTREE_DIR_MAX];
	struct gpuenv_ctx *ctx;
	struct gpuenv_snapshot *snap;
};

struct dev {
	const char *parent; /* below /sys/devices, e.g. "pci0000:15/0000:15:01.0" */
	const char *bdf;
	const char *vendor, *device, *subvendor, *subdevice, *class;
	const char *driver; /* NULL: unbound */
	const char *iommu_group;
	const char *numa_node;
	const char *cur_speed, *max_speed, *cur_width, *max_width;
	const char *resource;
};

/* Writes one device the way sysfs shows it; attributes end in "\n" as the kernel prints. */
static void add_dev(const char *root, const struct dev *d)
{
	char devdir[512], rel[1024], target[1024], up[128] = "";
	int depth = 2; /* "devices/<bdf>" */

	for (const char *p = d->parent; *p; p++)
		depth += *p == '/';
	depth++; /* the parent's first component */
	for (int i = 0; i < depth; i++)
		strcat(up, "../");
	snprintf(devdir, sizeof(devdir), "sys/devices/%s/%s", d->parent, d->bdf);

#define ATTR(name, val)                                                                            \
	do {                                                                                       \
		if (val) {                                                                         \
			char _t[4096];                                                             \
			snprintf(rel, sizeof(rel), "%s/%s", devdir, name);                         \
			snprintf(_t, sizeof(_t), "%s%s", val, strchr(val, '\n') ? "" : "\n");      \
			tmptree_puts(root, rel, _t);                                               \
		}                                                                                  \
	} while (0)
	ATTR("vendor", d->vendor);
	ATTR("device", d->device);
	ATTR("subsystem_vendor", d->subvendor);
	ATTR("subsystem_device", d->subdevice);
	ATTR("class", d->class);
	ATTR("numa_node", d->numa_node);
	ATTR("current_link_speed", d->cur_speed);
	ATTR("max_link_speed", d->max_speed);
	ATTR("current_link_width", d->cur_width);
	ATTR("max_link_width", d->max_width);
	ATTR("resource", d->resource);
	ATTR("enable", "1");
	ATTR("irq", "16");
#undef ATTR
	if (d->driver) {
		snprintf(rel, sizeof(rel), "sys/bus/pci/drivers/%s/new_id", d->driver);
		tmptree_puts(root, rel, "");
		snprintf(rel, sizeof(rel), "%s/driver", devdir);
		snprintf(target, sizeof(target), "%sbus/pci/drivers/%s", up, d->driver);
		tmptree_symlink(root, rel, target);
	}
	if (d->iommu_group) {
		snprintf(rel, sizeof(rel), "sys/kernel/iommu_groups/%s/type", d->iommu_group);
		tmptree_puts(root, rel, "DMA-FQ\n");
		snprintf(rel, sizeof(rel), "%s/iommu_group", devdir);
		snprintf(target, sizeof(target), "%skernel/iommu_groups/%s", up, d->iommu_group);
		tmptree_symlink(root, rel, target);
	}
	snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s", d->bdf);
	snprintf(target, sizeof(target), "../../../devices/%s/%s", d->parent, d->bdf);
	tmptree_symlink(root, rel, target);
}

static const struct dev devs[] = {
	/* Intel root port above the H100: a bridge, not reported. */
	{ .parent = "pci0000:15",
	  .bdf = "0000:15:01.0",
	  .vendor = "0x8086",
	  .device = "0x352a",
	  .subvendor = "0x8086",
	  .subdevice = "0x0000",
	  .class = "0x060400",
	  .driver = "pcieport",
	  .iommu_group = "34",
	  .numa_node = "0",
	  .cur_speed = "32.0 GT/s PCIe",
	  .max_speed = "32.0 GT/s PCIe",
	  .cur_width = "16",
	  .max_width = "16",
	  .resource = ZERO_RES_X7 ZERO_RES_X7 ZERO_RES ZERO_RES ZERO_RES },
	/* H100 SXM5 80GB, healthy. */
	{ .parent = "pci0000:15/0000:15:01.0",
	  .bdf = "0000:18:00.0",
	  .vendor = "0x10de",
	  .device = "0x2330",
	  .subvendor = "0x10de",
	  .subdevice = "0x16c1",
	  .class = "0x030200",
	  .driver = "nvidia",
	  .iommu_group = "35",
	  .numa_node = "0",
	  .cur_speed = "32.0 GT/s PCIe",
	  .max_speed = "32.0 GT/s PCIe",
	  .cur_width = "16",
	  .max_width = "16",
	  .resource = h100_resource },
	/* Degraded link: trained x8 at 2.5 GT/s of x16 at 32.0 GT/s. */
	{ .parent = "pci0000:29/0000:29:01.0",
	  .bdf = "0000:2a:00.0",
	  .vendor = "0x10de",
	  .device = "0x2330",
	  .subvendor = "0x10de",
	  .subdevice = "0x16c1",
	  .class = "0x030200",
	  .driver = "nvidia",
	  .iommu_group = "51",
	  .numa_node = "0",
	  .cur_speed = "2.5 GT/s PCIe",
	  .max_speed = "32.0 GT/s PCIe",
	  .cur_width = "8",
	  .max_width = "16",
	  .resource = h100_resource },
	/* Link not trained (width 0, speed "Unknown"), BAR1 unassigned. */
	{ .parent = "pci0000:3a/0000:3a:01.0",
	  .bdf = "0000:3b:00.0",
	  .vendor = "0x10de",
	  .device = "0x2330",
	  .subvendor = "0x10de",
	  .subdevice = "0x16c1",
	  .class = "0x030200",
	  .driver = "nvidia",
	  .iommu_group = "67",
	  .numa_node = "0",
	  .cur_speed = "Unknown",
	  .max_speed = "32.0 GT/s PCIe",
	  .cur_width = "0",
	  .max_width = "16",
	  .resource = unassigned_bar1_resource },
	/* No driver bound, no NUMA (numa_node -1). */
	{ .parent = "pci0000:4b/0000:4b:01.0",
	  .bdf = "0000:4c:00.0",
	  .vendor = "0x10de",
	  .device = "0x2330",
	  .subvendor = "0x10de",
	  .subdevice = "0x16c1",
	  .class = "0x030200",
	  .iommu_group = "83",
	  .numa_node = "-1",
	  .cur_speed = "32.0 GT/s PCIe",
	  .max_speed = "32.0 GT/s PCIe",
	  .cur_width = "16",
	  .max_width = "16",
	  .resource = h100_resource },
	/* Malformed class (kept: NVIDIA), malformed resource line 1, no iommu_group. */
	{ .parent = "pci0000:5c/0000:5c:01.0",
	  .bdf = "0000:5d:00.0",
	  .vendor = "0x10de",
	  .device = "0x2330",
	  .subvendor = "0x10de",
	  .subdevice = "0x16c1",
	  .class = "0x03g200",
	  .driver = "nvidia",
	  .numa_node = "1",
	  .cur_speed = "32.0 GT/s PCIe",
	  .max_speed = "32.0 GT/s PCIe",
	  .cur_width = "16",
	  .max_width = "16",
	  .resource = bad_line1_resource },
	/* NVSwitch: NVIDIA but a bridge (0x068000): not reported. */
	{ .parent = "pci0000:00/0000:00:1c.0",
	  .bdf = "0000:05:00.0",
	  .vendor = "0x10de",
	  .device = "0x22a3",
	  .subvendor = "0x10de",
	  .subdevice = "0x1796",
	  .class = "0x068000",
	  .numa_node = "0",
	  .resource = h100_resource },
	/* The BMC's VGA: a display controller of another vendor, reported without a name. */
	{ .parent = "pci0000:00/0000:00:1c.4",
	  .bdf = "0000:03:00.0",
	  .vendor = "0x1a03",
	  .device = "0x2000",
	  .subvendor = "0x1a03",
	  .subdevice = "0x2000",
	  .class = "0x030000",
	  .driver = "ast",
	  .iommu_group = "17",
	  .numa_node = "0",
	  .cur_speed = "5.0 GT/s PCIe",
	  .max_speed = "5.0 GT/s PCIe",
	  .cur_width = "1",
	  .max_width = "1",
	  .resource = ZERO_RES_X7 ZERO_RES ZERO_RES ZERO_RES ZERO_RES ZERO_RES ZERO_RES },
	/* Habana accelerator (0x1da3, class 0x120000): not one of the three vendors. */
	{ .parent = "pci0000:98/0000:98:01.0",
	  .bdf = "0000:9a:00.0",
	  .vendor = "0x1da3",
	  .device = "0x1020",
	  .subvendor = "0x1da3",
	  .subdevice = "0x0000",
	  .class = "0x120000",
	  .driver = "habanalabs",
	  .numa_node = "1" },
	/* AMD processing accelerator (class 0x120000), reported. */
	{ .parent = "pci0000:c0/0000:c0:01.1",
	  .bdf = "0000:c1:00.0",
	  .vendor = "0x1002",
	  .device = "0x74a1",
	  .subvendor = "0x1002",
	  .subdevice = "0x74a1",
	  .class = "0x120000",
	  .driver = "amdgpu",
	  .iommu_group = "99",
	  .numa_node = "1",
	  .cur_speed = "32.0 GT/s PCIe",
	  .max_speed = "32.0 GT/s PCIe",
	  .cur_width = "16",
	  .max_width = "16",
	  .resource = h100_resource },
	/* NVIDIA A16 / A2: one device id, two products (told apart by the subsystem id only). */
	{ .parent = "pci0000:d0/0000:d0:01.0",
	  .bdf = "0000:d1:00.0",
	  .vendor = "0x10de",
	  .device = "0x25b6",
	  .subvendor = "0x10de",
	  .subdevice = "0x14a9",
	  .class = "0x030200",
	  .driver = "nvidia",
	  .iommu_group = "120",
	  .numa_node = "1",
	  .cur_speed = "16.0 GT/s PCIe",
	  .max_speed = "16.0 GT/s PCIe",
	  .cur_width = "8",
	  .max_width = "16",
	  .resource = h100_resource },
	/* An NVIDIA device id the table does not know (a future product). */
	{ .parent = "pci0000:e0/0000:e0:01.0",
	  .bdf = "0000:e1:00.0",
	  .vendor = "0x10de",
	  .device = "0x3fff",
	  .subvendor = "0x10de",
	  .subdevice = "0x0000",
	  .class = "0x030200",
	  .numa_node = "1",
	  .resource = h100_resource },
};

static void build_tree(const char *root)
{
	for (size_t i = 0; i < ARRAY_SIZE(devs); i++)
		add_dev(root, &devs[i]);
}

/* walk: resolve with the userspace walk, never openat2() (testhooks_no_openat2()). */
static struct fixture *fixture_new(const char *sysroot, bool walk, bool temp)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct gpuenv_ctx_opts o = { .sz = sizeof(o) };

	assert_non_null(f);
	if (temp) {
		assert_non_null(tmptree_new(f->dir, "test-pci"));
		build_tree(f->dir);
		sysroot = f->dir;
	}
	o.sysroot = sysroot;
	assert_int_equal(gpuenv_ctx_new(&o, &f->ctx), 0);
	if (walk)
		assert_int_equal(testhooks_no_openat2(f->ctx), 0);
	assert_int_equal(snapshot_new(&f->snap), 0);
	return f;
}

static void fixture_probe(struct fixture *f)
{
	struct probe_env pe = {
		.ctx = f->ctx,
		.root = f->ctx->root,
		.env = f->ctx->env,
		.log = &f->ctx->log,
	};

	assert_int_equal(probe_pci(&pe, f->snap), 0);
}

static void fixture_free(struct fixture *f)
{
	snapshot_unref(f->snap);
	gpuenv_ctx_free(f->ctx);
	if (f->dir[0])
		tmptree_remove(f->dir);
	free(f);
}

static const struct snap_node *gpus(struct fixture *f)
{
	const struct snap_node *g = snap_get(snapshot_root_const(f->snap), "hardware.gpus");

	assert_non_null(g);
	assert_int_equal(snap_kind(g), SNAP_ARRAY);
	return g;
}

static const struct snap_node *find_gpu(struct fixture *f, const char *bdf)
{
	const struct snap_node *g = gpus(f);

	for (size_t i = 0; i < snap_count(g); i++) {
		const char *b = snap_get_str(snap_at(g, i), "bus_id");

		if (b && strcmp(b, bdf) == 0)
			return snap_at(g, i);
	}
	return NULL;
}

static int64_t get_int(const struct snap_node *n, const char *path)
{
	int64_t v = -12345;

	if (!snap_get_int(n, path, &v))
		fail_msg("%s: no present int (state %s)", path,
			 fact_state_to_string(snap_get_state(n, path)));
	return v;
}

static void check_h100(const struct snap_node *g, const char *bdf)
{
	const struct snap_node *bars;

	assert_non_null(g);
	assert_string_equal(snap_get_str(g, "bus_id"), bdf);
	assert_string_equal(snap_get_str(g, "vendor_id"), "0x10de");
	assert_string_equal(snap_get_str(g, "device_id"), "0x2330");
	assert_string_equal(snap_get_str(g, "subsystem_vendor_id"), "0x10de");
	assert_string_equal(snap_get_str(g, "subsystem_device_id"), "0x16c1");
	assert_string_equal(snap_get_str(g, "vendor"), "NVIDIA");
	assert_true(snap_get_bool_default(g, "in_gpu_table", false));
	assert_string_equal(snap_get_str(g, "name"), "NVIDIA H100 SXM5 80GB (H100 80GB HBM3)");
	assert_string_equal(snap_get_str(g, "architecture"), "Hopper");
	assert_string_equal(snap_get_str(g, "chip"), "GH100");
	assert_string_equal(snap_get_str(g, "compute_capability"), "9.0");
	assert_string_equal(snap_source(snap_get(g, "compute_capability")),
			    "facts:gpu_compute_capability [CUDAGPUS;OGKM;PCIIDS]");
	assert_string_equal(snap_get_str(g, "gpu_table.confidence"), "confirmed");
	assert_string_equal(snap_get_str(g, "gpu_table.pci_id_confidence"), "confirmed-nvidia");
	assert_int_equal(snap_count(snap_get(g, "gpu_table.candidates")), 1);
	assert_int_equal(get_int(g, "max_link_width"), 16);
	assert_string_equal(snap_get_str(g, "max_link_speed"), "32.0 GT/s PCIe");
	bars = snap_get(g, "bars");
	assert_non_null(bars);
	(void)bars;
}

static void test_h100_sxm(void **state)
{
	bool walk = (uintptr_t)*state != 0;
	struct fixture *f = fixture_new(NULL, walk, true);
	const struct snap_node *g, *bars;
	char src[256];

	fixture_probe(f);
	assert_int_equal(get_int(snapshot_root_const(f->snap), "hardware.pci_devices"),
			 (int64_t)ARRAY_SIZE(devs));
	/* ASPEED VGA, 4 H100s + the malformed one, AMD accelerator, A16/A2, unknown NVIDIA. */
	assert_int_equal(snap_count(gpus(f)), 9);
	assert_null(find_gpu(f, "0000:15:01.0"));
	assert_null(find_gpu(f, "0000:05:00.0"));
	assert_null(find_gpu(f, "0000:9a:00.0"));

	g = find_gpu(f, "0000:18:00.0");
	check_h100(g, "0000:18:00.0");
	assert_string_equal(snap_get_str(g, "class"), "0x030200");
	assert_string_equal(snap_get_str(g, "driver"), "nvidia");
	assert_string_equal(snap_get_str(g, "iommu_group"), "35");
	assert_int_equal(get_int(g, "numa_node"), 0);
	assert_int_equal(get_int(g, "current_link_width"), 16);
	assert_string_equal(snap_get_str(g, "current_link_speed"), "32.0 GT/s PCIe");
	assert_int_equal(get_int(g, "bar1_size_bytes"), 137438953472LL); /* 128 GiB */
	snprintf(src, sizeof(src), "/sys/bus/pci/devices/0000:18:00.0/class");
	assert_string_equal(snap_source(snap_get(g, "class")), src);

	bars = snap_get(g, "bars");
	assert_int_equal(snap_count(bars), 3);
	assert_int_equal(get_int(bars, "0.index"), 0);
	assert_int_equal(get_int(bars, "0.size_bytes"), 16 << 20);
	assert_string_equal(snap_get_str(bars, "0.flags"), "0x00040200");
	assert_string_equal(snap_get_str(bars, "0.kind"), "memory");
	assert_false(snap_get_bool_default(bars, "0.prefetchable", true));
	assert_false(snap_get_bool_default(bars, "0.is_64bit", true));
	assert_int_equal(get_int(bars, "1.index"), 1);
	assert_int_equal(get_int(bars, "1.size_bytes"), 137438953472LL);
	assert_string_equal(snap_get_str(bars, "1.flags"), "0x0014220c");
	assert_true(snap_get_bool_default(bars, "1.prefetchable", false));
	assert_true(snap_get_bool_default(bars, "1.is_64bit", false));
	assert_int_equal(get_int(bars, "2.index"), 3);
	assert_int_equal(get_int(bars, "2.size_bytes"), 32 << 20);

	/* Another vendor's display controller: kept, vendor name absent. */
	g = find_gpu(f, "0000:03:00.0");
	assert_non_null(g);
	assert_string_equal(snap_get_str(g, "vendor_id"), "0x1a03");
	assert_string_equal(snap_get_str(g, "class"), "0x030000");
	assert_int_equal(snap_get_state(g, "vendor"), FACT_ABSENT);
	assert_string_equal(snap_get_str(g, "driver"), "ast");
	assert_false(snap_get_bool_default(g, "in_gpu_table", true));
	assert_int_equal(snap_get_state(g, "in_gpu_table"), FACT_PRESENT);
	assert_int_equal(snap_get_state(g, "name"), FACT_ABSENT);
	assert_int_equal(snap_get_state(g, "compute_capability"), FACT_ABSENT);
	assert_null(snap_get(g, "gpu_table"));
	assert_int_equal(snap_count(snap_get(g, "bars")), 0);
	assert_int_equal(snap_get_state(g, "bar1_size_bytes"), FACT_ABSENT);

	g = find_gpu(f, "0000:c1:00.0");
	assert_non_null(g);
	assert_string_equal(snap_get_str(g, "vendor"), "AMD");
	assert_string_equal(snap_get_str(g, "class"), "0x120000");
	assert_string_equal(snap_get_str(g, "driver"), "amdgpu");
	/* The built-in table holds NVIDIA rows only: the MI300X is an unknown GPU to it. */
	assert_false(snap_get_bool_default(g, "in_gpu_table", true));
	assert_int_equal(snap_get_state(g, "name"), FACT_ABSENT);
	assert_string_equal(snap_error(snap_get(g, "name")),
			    "not in the built-in GPU table; no PCI ID database (pci.ids) given");

	/* The tree round-trips through the JSON codec (schema rules accept every state used). */
	{
		_cleanup_free_ char *json = NULL, *why = NULL;
		struct gpuenv_snapshot *back = NULL;

		assert_int_equal(snapshot_to_json(f->snap, SNAP_JSON_STABLE, &json), 0);
		assert_int_equal(snapshot_from_json(json, strlen(json), &back, &why), 0);
		assert_string_equal(snap_get_str(snapshot_root_const(back), "hardware.gpus.1.name"),
				    "NVIDIA H100 SXM5 80GB (H100 80GB HBM3)");
		assert_int_equal(
			get_int(snapshot_root_const(back), "hardware.gpus.1.bar1_size_bytes"),
			137438953472LL);
		snapshot_unref(back);
	}
	fixture_free(f);
}

static void test_shared_id(void **state)
{
	struct fixture *f = fixture_new(NULL, false, true);
	const struct snap_node *g, *c;

	fixture_probe(f);
	g = find_gpu(f, "0000:d1:00.0");
	assert_non_null(g);
	assert_true(snap_get_bool_default(g, "in_gpu_table", false));
	assert_string_equal(snap_get_str(g, "compute_capability"), "8.6");
	assert_string_equal(snap_get_str(g, "architecture"), "Ampere");
	c = snap_get(g, "gpu_table.candidates");
	assert_int_equal(snap_count(c), 2);
	/* Both rows, and name is the first of them. */
	assert_true((strcmp(snap_str(snap_at(c, 0)), "NVIDIA A16") == 0 &&
		     strcmp(snap_str(snap_at(c, 1)), "NVIDIA A2") == 0) ||
		    (strcmp(snap_str(snap_at(c, 0)), "NVIDIA A2") == 0 &&
		     strcmp(snap_str(snap_at(c, 1)), "NVIDIA A16") == 0));
	assert_string_equal(snap_get_str(g, "name"), snap_str(snap_at(c, 0)));
	fixture_free(f);
}

static int calls;

/* A stand-in for libpci's pci_lookup_name(): knows 1002:74a1 only; 10de:3fff is "broken". */
static int fake_pci_name(void *userdata, uint16_t vendor, uint16_t device, uint16_t subvendor,
			 uint16_t subdevice, char *buf, size_t len)
{
	calls++;
	assert_ptr_equal(userdata, &calls);
	if (vendor == 0x1002 && device == 0x74a1) {
		assert_int_equal(subvendor, 0x1002);
		snprintf(buf, len, "Aqua Vanjaram [Instinct MI300X]");
		return 0;
	}
	if (vendor == 0x10de && device == 0x3fff)
		return -EBADMSG;
	return -ENOENT;
}

static void test_pci_ids_fallback(void **state)
{
	struct fixture *f = fixture_new(NULL, false, true);
	const struct snap_node *g;

	calls = 0;
	gpuenv_ctx_set_pci_name_fn(f->ctx, fake_pci_name, &calls);
	fixture_probe(f);
	/* Asked only for the devices the table lacks: AMD, ASPEED, the unknown NVIDIA id. */
	assert_int_equal(calls, 3);
	g = find_gpu(f, "0000:c1:00.0");
	assert_string_equal(snap_get_str(g, "name"), "Aqua Vanjaram [Instinct MI300X]");
	assert_string_equal(snap_source(snap_get(g, "name")), "pci.ids");
	assert_false(snap_get_bool_default(g, "in_gpu_table", true));
	assert_int_equal(snap_get_state(g, "architecture"), FACT_ABSENT);
	g = find_gpu(f, "0000:03:00.0");
	assert_int_equal(snap_get_state(g, "name"), FACT_ABSENT);
	assert_string_equal(snap_error(snap_get(g, "name")),
			    "neither in the built-in GPU table nor in pci.ids");
	g = find_gpu(f, "0000:e1:00.0");
	assert_false(snap_get_bool_default(g, "in_gpu_table", true));
	assert_int_equal(snap_get_state(g, "name"), FACT_MALFORMED);
	/* A known GPU keeps the table's name; the callback is not asked. */
	g = find_gpu(f, "0000:18:00.0");
	assert_string_equal(snap_get_str(g, "name"), "NVIDIA H100 SXM5 80GB (H100 80GB HBM3)");
	fixture_free(f);
}

static void test_degraded_link(void **state)
{
	struct fixture *f = fixture_new(NULL, false, true);
	const struct snap_node *g;

	fixture_probe(f);
	g = find_gpu(f, "0000:2a:00.0");
	check_h100(g, "0000:2a:00.0");
	assert_int_equal(get_int(g, "current_link_width"), 8);
	assert_int_equal(get_int(g, "max_link_width"), 16);
	assert_string_equal(snap_get_str(g, "current_link_speed"), "2.5 GT/s PCIe");
	assert_string_equal(snap_get_str(g, "max_link_speed"), "32.0 GT/s PCIe");
	assert_int_equal(snap_get_state(g, "current_link_width"), FACT_PRESENT);
	/* A trained link: runtime power management is not read. */
	assert_null(snap_get(g, "runtime_status"));
	fixture_free(f);
}

/* A link that reads as not trained: power/runtime_status says whether runtime power
 * management put the GPU in D3cold (a laptop's idle dGPU, no fault) or it is down. */
static void test_link_runtime_suspended(void **state)
{
	struct fixture *f = fixture_new(NULL, false, true);
	const struct snap_node *g;

	tmptree_puts(f->dir,
		     "sys/devices/pci0000:3a/0000:3a:01.0/0000:3b:00.0/power/runtime_status",
		     "suspended\n");
	fixture_probe(f);
	g = find_gpu(f, "0000:3b:00.0");
	assert_string_equal(snap_get_str(g, "runtime_status"), "suspended");
	assert_string_equal(snap_source(snap_get(g, "runtime_status")),
			    "/sys/bus/pci/devices/0000:3b:00.0/power/runtime_status");
	fixture_free(f);
}

static void test_link_width_zero(void **state)
{
	struct fixture *f = fixture_new(NULL, false, true);
	const struct snap_node *g;

	fixture_probe(f);
	g = find_gpu(f, "0000:3b:00.0");
	check_h100(g, "0000:3b:00.0");
	assert_int_equal(get_int(g, "current_link_width"), 0);
	assert_string_equal(snap_get_str(g, "current_link_speed"), "Unknown");
	/* No power/runtime_status file: read, and said so (not a silent "active"). */
	assert_non_null(snap_get(g, "runtime_status"));
	assert_int_not_equal(snap_get_state(g, "runtime_status"), FACT_PRESENT);
	/* BAR1 not assigned: listed (start 0, flags kept) with its size absent. */
	assert_int_equal(snap_get_state(g, "bar1_size_bytes"), FACT_ABSENT);
	assert_int_equal(get_int(g, "bars.1.index"), 1);
	assert_int_equal(snap_get_state(g, "bars.1.size_bytes"), FACT_ABSENT);
	assert_string_equal(snap_get_str(g, "bars.1.flags"), "0x2014220c");
	fixture_free(f);
}

/* BAR1 is "not assigned" only on evidence, its own line of a resource file read: a file the
 * capture did not copy is unprobed, one cut short before BAR1's line malformed. */
static void test_bar1_needs_its_line(void **state)
{
	static const char dir[] = "sys/devices/pci0000:4b/0000:4b:01.0/0000:4c:00.0/resource";
	struct fixture *f = fixture_new(NULL, false, true);
	const struct snap_node *g;
	char path[TMPTREE_DIR_MAX + sizeof(dir) + 1];

	snprintf(path, sizeof(path), "%s/%s", f->dir, dir);
	assert_int_equal(unlink(path), 0);
	fixture_probe(f);
	g = find_gpu(f, "0000:4c:00.0");
	assert_int_equal(snap_get_state(g, "bar1_size_bytes"), FACT_UNPROBED);
	assert_int_equal(snap_get_state(g, "bars"), FACT_UNPROBED);
	fixture_free(f);

	f = fixture_new(NULL, false, true);
	tmptree_puts(f->dir, dir, "0x00000000a4000000 0x00000000a4ffffff 0x0000000000040200\n");
	fixture_probe(f);
	g = find_gpu(f, "0000:4c:00.0");
	assert_int_equal(snap_get_state(g, "bar1_size_bytes"), FACT_MALFORMED);
	fixture_free(f);
}

static void test_unbound(void **state)
{
	struct fixture *f = fixture_new(NULL, false, true);
	const struct snap_node *g;

	fixture_probe(f);
	g = find_gpu(f, "0000:4c:00.0");
	check_h100(g, "0000:4c:00.0");
	assert_int_equal(snap_get_state(g, "driver"), FACT_ABSENT);
	assert_null(snap_get_str(g, "driver"));
	assert_int_equal(get_int(g, "numa_node"), -1);
	assert_string_equal(snap_get_str(g, "iommu_group"), "83");
	fixture_free(f);
}

static void test_malformed_class(void **state)
{
	struct fixture *f = fixture_new(NULL, false, true);
	const struct snap_node *g;

	fixture_probe(f);
	g = find_gpu(f, "0000:5d:00.0");
	check_h100(g, "0000:5d:00.0");
	assert_int_equal(snap_get_state(g, "class"), FACT_MALFORMED);
	assert_string_equal(snap_raw(snap_get(g, "class")), "0x03g200");
	assert_null(snap_get_str(g, "class"));
	assert_int_equal(snap_get_state(g, "iommu_group"), FACT_ABSENT);
	assert_int_equal(get_int(g, "numa_node"), 1);
	/* resource line 1 has two fields. */
	assert_int_equal(snap_get_state(g, "bar1_size_bytes"), FACT_MALFORMED);
	assert_int_equal(get_int(g, "bars.0.size_bytes"), 16 << 20);
	assert_int_equal(snap_get_state(g, "bars.1.size_bytes"), FACT_MALFORMED);
	fixture_free(f);
}

static void test_injected_errors(void **state)
{
	struct fixture *f = fixture_new(NULL, false, true);
	const struct snap_node *g;

	assert_int_equal(testhooks_root_inject_error(f->ctx->root,
						     "/sys/bus/pci/devices/0000:18:00.0/numa_node",
						     EACCES),
			 0);
	assert_int_equal(testhooks_root_inject_error(
				 f->ctx->root, "/sys/bus/pci/devices/0000:18:00.0/resource", EIO),
			 0);
	assert_int_equal(testhooks_root_inject_error(
				 f->ctx->root, "/sys/bus/pci/devices/0000:18:00.0/driver", EACCES),
			 0);
	fixture_probe(f);
	g = find_gpu(f, "0000:18:00.0");
	check_h100(g, "0000:18:00.0");
	assert_int_equal(snap_get_state(g, "numa_node"), FACT_UNREADABLE);
	assert_int_equal(snap_get_state(g, "driver"), FACT_UNREADABLE);
	assert_int_equal(snap_get_state(g, "bars"), FACT_ERROR);
	assert_int_equal(snap_get_state(g, "bar1_size_bytes"), FACT_ERROR);
	assert_int_equal(get_int(g, "current_link_width"), 16);
	fixture_free(f);
}

/* An H200 in a Firecracker VM (driver 580.159.04), its resource file as read there: the
 * hypervisor exposes BAR0 as 64-bit, so the VRAM aperture NVIDIA calls BAR1 is line 2, and
 * line 1 is BAR0's upper half. nvidia-smi -q -d MEMORY said "BAR1 Memory Usage: Total
 * 262144 MiB" on that machine. */
static const char h200_vm_resource[] = "0x0000104002000000 0x0000104002ffffff 0x000000000014220c\n"
				       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
				       "0x0000100000000000 0x0000103fffffffff 0x000000000014220c\n"
				       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
				       "0x0000104000000000 0x0000104001ffffff 0x000000000014220c\n"
				       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
				       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n";

static void test_vm_64bit_bar0(void **state)
{
	static const struct dev h200 = { .parent = "pci0000:00",
					 .bdf = "0000:00:06.0",
					 .vendor = "0x10de",
					 .device = "0x2335",
					 .subvendor = "0x10de",
					 .subdevice = "0x18bf",
					 .class = "0x030200",
					 .driver = "nvidia",
					 .numa_node = "-1",
					 .cur_speed = "32.0 GT/s PCIe",
					 .max_speed = "32.0 GT/s PCIe",
					 .cur_width = "16",
					 .max_width = "16",
					 .resource = h200_vm_resource };
	struct fixture *f = calloc(1, sizeof(*f));
	struct gpuenv_ctx_opts o = { .sz = sizeof(o) };
	const struct snap_node *g;

	assert_non_null(f);
	assert_non_null(tmptree_new(f->dir, "test-pci"));
	add_dev(f->dir, &h200);
	o.sysroot = f->dir;
	assert_int_equal(gpuenv_ctx_new(&o, &f->ctx), 0);
	assert_int_equal(snapshot_new(&f->snap), 0);
	fixture_probe(f);
	g = find_gpu(f, "0000:00:06.0");
	assert_non_null(g);
	assert_int_equal(snap_get_state(g, "bar1_size_bytes"), FACT_PRESENT);
	assert_int_equal(get_int(g, "bar1_size_bytes"), 262144LL << 20);
	assert_int_equal(snap_count(snap_get(g, "bars")), 3);
	fixture_free(f);
}

static void test_no_sysfs(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct gpuenv_ctx_opts o = { .sz = sizeof(o) };

	assert_non_null(f);
	assert_non_null(tmptree_new(f->dir, "test-pci"));
	o.sysroot = f->dir;
	assert_int_equal(gpuenv_ctx_new(&o, &f->ctx), 0);
	assert_int_equal(snapshot_new(&f->snap), 0);
	fixture_probe(f);
	assert_int_equal(snap_get_state(snapshot_root_const(f->snap), "hardware.pci_devices"),
			 FACT_ABSENT);
	assert_int_equal(snap_count(gpus(f)), 0);
	fixture_free(f);
}

/* The committed GCE VM tree (elasticluster#504's lspci): no GPU among its 5 devices, and an
 * absolute link that must stay inside the root. */
static void test_no_gpu_fixture(void **state)
{
	bool walk = (uintptr_t)*state != 0;
	struct fixture *f =
		fixture_new(GPUENV_TEST_SOURCE_ROOT "/tests/fixtures/no-gpu/root", walk, false);
	static const char link[] = "/sys/bus/pci/devices/0000:00:00.0";
	_cleanup_free_ char *target = NULL, *resolved = NULL, *cls = NULL;
	struct probe_env pe = {
		.ctx = f->ctx,
		.root = f->ctx->root,
		.env = f->ctx->env,
		.log = &f->ctx->log,
	};

	assert_int_equal(root_readlink(f->ctx->root, link, &target), 0);
	assert_string_equal(target, "/sys/devices/pci0000:00/0000:00:00.0");
	assert_int_equal(root_resolve(f->ctx->root, link, &resolved), 0);
	assert_string_equal(resolved, "/sys/devices/pci0000:00/0000:00:00.0");
	assert_int_equal(root_read_text(f->ctx->root, "/sys/bus/pci/devices/0000:00:00.0/class",
					ROOT_CAP_ATTR, &cls),
			 0);
	assert_string_equal(cls, "0x060000");

	fixture_probe(f);
	assert_int_equal(get_int(snapshot_root_const(f->snap), "hardware.pci_devices"), 5);
	assert_int_equal(snap_count(gpus(f)), 0);
	assert_int_equal(probe_host(&pe, f->snap), 0);
	assert_int_equal(snap_get_state(snapshot_root_const(f->snap), "host.kernel_release"),
			 FACT_PRESENT);
	assert_int_equal(get_int(snapshot_root_const(f->snap), "host.cpu.logical_cpus"), 2);
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate(test_h100_sxm, (void *)(uintptr_t)0),
		cmocka_unit_test_prestate(test_h100_sxm, (void *)(uintptr_t)1),
		cmocka_unit_test(test_shared_id),
		cmocka_unit_test(test_vm_64bit_bar0),
		cmocka_unit_test(test_pci_ids_fallback),
		cmocka_unit_test(test_degraded_link),
		cmocka_unit_test(test_link_runtime_suspended),
		cmocka_unit_test(test_link_width_zero),
		cmocka_unit_test(test_unbound),
		cmocka_unit_test(test_malformed_class),
		cmocka_unit_test(test_injected_errors),
		cmocka_unit_test(test_no_sysfs),
		cmocka_unit_test(test_bar1_needs_its_line),
		cmocka_unit_test_prestate(test_no_gpu_fixture, (void *)(uintptr_t)0),
		cmocka_unit_test_prestate(test_no_gpu_fixture, (void *)(uintptr_t)1),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
