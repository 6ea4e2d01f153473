#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Turns the knowledge-base tables in src/facts/data/<table>.tsv (tab-separated, '#' comment lines,
# one header line; format described in src/facts/data and docs/design.md §5) into one C file of
# sorted const arrays whose types are declared in src/facts/facts.h.
# Rejects (exit 1, message on stderr): missing/extra columns, duplicate keys, empty source,
# versions not strictly ascending (release ranges overlapping), malformed numbers / gfx targets /
# arch lists, a confidence other than confirmed/unconfirmed in the newer tables. Python 3 standard library only.
#
# usage: gen-facts.py OUTPUT.c DATADIR
import os
import re
import sys

VER = re.compile(r'^[0-9]+(\.[0-9]+)*$')


class FactsError(Exception):
    pass


def vkey(s, where):
    if not VER.match(s):
        raise FactsError('%s: bad version %r' % (where, s))
    return tuple(int(x) for x in s.split('.'))


def read_tsv(path, cols):
    rows = []
    header = None
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if line.startswith('#') or not line.strip():
                continue
            fields = line.split('\t')
            if header is None:
                header = fields
                if header != cols:
                    raise FactsError('%s:%d: header %r, expected %r' % (path, n, header, cols))
                continue
            if len(fields) != len(cols):
                raise FactsError('%s:%d: %d fields, expected %d' % (path, n, len(fields), len(cols)))
            row = dict(zip(cols, fields))
            row['_where'] = '%s:%d' % (path, n)
            if not row['source'].strip():
                raise FactsError('%s: empty source' % row['_where'])
            rows.append(row)
    if header is None:
        raise FactsError('%s: no header' % path)
    return rows


def check_unique(rows, keyf, what):
    seen = {}
    for r in rows:
        k = keyf(r)
        if k in seen:
            raise FactsError('%s: duplicate %s %r (first at %s)' % (r['_where'], what, k, seen[k]))
        seen[k] = r['_where']


def check_sorted(rows, keyf, what):
    prev = None
    for r in rows:
        k = keyf(r)
        if prev is not None and not k > prev:
            raise FactsError('%s: %s not in ascending order' % (r['_where'], what))
        prev = k


def cstr(s):
    if s == '':
        return 'NULL'
    out = s.replace('\\', '\\\\').replace('"', '\\"')
    return '"' + out + '"'


class StrBlob:
    """Strings kept as offsets into one C char array (each once, NUL-terminated); the
    empty string is NULL, written FACTS_NO_STRING."""

    def __init__(self):
        self.at, self.parts, self.size = {}, [], 0

    def add(self, s):
        if s == '':
            return 'FACTS_NO_STRING'
        if s not in self.at:
            self.at[s] = self.size
            self.parts.append(s)
            self.size += len(s.encode('utf-8')) + 1
        return str(self.at[s])

    def literal_lines(self):
        return ['\t%s "\\0"' % cstr(p) for p in self.parts] or ['\t""']


def cc_parts(s, where):
    if s == '':
        return (-1, -1)
    m = re.match(r'^([0-9]+)\.([0-9]+)$', s)
    if not m:
        raise FactsError('%s: bad compute capability %r' % (where, s))
    return (int(m.group(1)), int(m.group(2)))


GPU_COLS = ['product', 'segment', 'architecture', 'chip', 'compute_capability', 'pci_vendor_id',
            'pci_device_ids', 'pci_id_confidence', 'confidence', 'notes', 'source']
DRV_COLS = ['kind', 'cuda_major', 'toolkit_version', 'toolkit_label', 'linux_x86_64_min_driver',
            'windows_x86_64_min_driver', 'driver_branch', 'upper_bound_exclusive', 'confidence',
            'notes', 'source']
BR_COLS = ['branch', 'cuda_version_reported', 'first_toolkit_with_branch', 'datacenter_designation',
           'datacenter_eol', 'oldest_arch_supported', 'oldest_cc', 'last_branch_for_arch',
           'confidence', 'notes', 'source']
ARCH_COLS = ['cuda_version', 'min_cc', 'max_cc', 'sm_targets', 'arch_specific_a', 'family_specific_f',
             'ptx_isa_version', 'confidence', 'notes', 'source']
CUDNN_COLS = ['first', 'last', 'variant', 'cuda_majors', 'cuda_versions', 'cuda_as_listed',
              'min_linux_driver', 'compute_capabilities', 'confidence', 'notes', 'source']
THR_COLS = ['name', 'value', 'unit', 'confidence', 'notes', 'source']
PTX_COLS = ['ptx_isa_version', 'cuda_version', 'min_driver_branch', 'confidence', 'notes', 'source']
SM_COLS = ['sm', 'family', 'tegra', 'confidence', 'notes', 'source']
ROCM_COLS = ['first', 'last', 'rocm_as_listed', 'gfx_targets', 'products', 'amdgpu_driver_compat',
             'confidence', 'notes', 'source']
TORCH_COLS = ['torch', 'variant', 'cuda_toolkit', 'torch_cuda_arch_list', 'arch_list', 'ptx', 'ptx_as_listed',
              'pypi_default', 'pypi_default_as_listed', 'min_driver', 'min_driver_as_listed',
              'minor_compat_min_driver', 'minor_compat_as_listed', 'python', 'cudnn', 'confidence', 'notes',
              'source']
TF_COLS = ['version', 'package', 'python', 'compiler', 'build_tools', 'cudnn', 'cuda', 'confidence', 'notes',
           'source']
TFB_COLS = ['release', 'evidence_release', 'package', 'cuda', 'cudnn', 'evidence', 'confidence', 'notes', 'source']
IPEX_COLS = ['ipex', 'torch', 'oneapi', 'confidence', 'source']
KMD_COLS = ['kmd', 'user_space', 'confidence', 'source']
COMPAT_COLS = ['package', 'driver_branch', 'support', 'confidence', 'source']
INTEL_KERNEL_COLS = ['family', 'driver', 'pci_device_ids', 'default_from', 'products', 'confidence', 'notes',
                     'source']
HSA_COLS = ['gfx', 'override', 'runs_as', 'family', 'products', 'confidence', 'notes', 'source']
CHIP_COLS = ['chip', 'architecture', 'compute_capability', 'tegra', 'confidence', 'notes', 'source']
DEV_COLS = ['device_id', 'name', 'chip', 'legacy_branch', 'kernel_open', 'source']
XID_COLS = ['xid', 'mnemonic', 'description', 'cause_category', 'resolution_bucket', 'severity',
            'application_error', 'recommended_action', 'typical_log_text', 'confidence', 'source']


def gen_gpu(d, out):
    rows = read_tsv(os.path.join(d, 'gpu_compute_capability.tsv'), GPU_COLS)
    check_unique(rows, lambda r: r['product'].lower(), 'product')
    index = []
    for i, r in enumerate(rows):
        ids = [x for x in r['pci_device_ids'].split(',') if x]
        vals = []
        for x in ids:
            if not re.match(r'^[0-9a-f]{4}$', x):
                raise FactsError('%s: bad PCI device id %r' % (r['_where'], x))
            vals.append(int(x, 16))
        if len(set(vals)) != len(vals):
            raise FactsError('%s: duplicate PCI device id' % r['_where'])
        if vals and not re.match(r'^[0-9a-f]{4}$', r['pci_vendor_id']):
            raise FactsError('%s: bad PCI vendor id' % r['_where'])
        r['_ids'] = vals
        for v in vals:
            index.append((int(r['pci_vendor_id'], 16), v, i))
        if vals:
            out.append('static const uint16_t gpu_ids_%d[] = { %s };' %
                       (i, ', '.join('0x%04x' % v for v in vals)))
    out.append('const struct facts_gpu facts_gpu_table[] = {')
    for i, r in enumerate(rows):
        ma, mi = cc_parts(r['compute_capability'], r['_where'])
        out.append('\t{ %s, %s, %s, %s, %s, %d, %d, 0x%s, %s, %d, %s, %s, %s, %s },' % (
            cstr(r['product']), cstr(r['segment']), cstr(r['architecture']), cstr(r['chip']),
            cstr(r['compute_capability']), ma, mi, r['pci_vendor_id'] or '0',
            ('gpu_ids_%d' % i) if r['_ids'] else 'NULL', len(r['_ids']),
            cstr(r['pci_id_confidence']), cstr(r['confidence']), cstr(r['notes']), cstr(r['source'])))
    out.append('};')
    out.append('const size_t facts_gpu_table_len = %d;' % len(rows))
    index.sort()
    out.append('const struct facts_pci_index facts_gpu_pci_index[] = {')
    for ven, dev, i in index:
        out.append('\t{ 0x%04x, 0x%04x, %d },' % (ven, dev, i))
    out.append('};')
    out.append('const size_t facts_gpu_pci_index_len = %d;' % len(index))


def gen_nvidia_devices(d, out):
    """nvidia_devices.tsv joined with nvidia_chips.tsv, sorted by device id; checked against
    the NVIDIA-sourced rows of gpu_compute_capability.tsv (same compute capability per id)."""
    chips = read_tsv(os.path.join(d, 'nvidia_chips.tsv'), CHIP_COLS)
    check_unique(chips, lambda r: r['chip'], 'chip')
    by_chip = {}
    for r in chips:
        cc_parts(r['compute_capability'], r['_where'])
        if r['tegra'] not in ('yes', 'no'):
            raise FactsError('%s: tegra must be yes or no' % r['_where'])
        if r['confidence'] not in ('confirmed', 'unconfirmed'):
            raise FactsError('%s: bad confidence' % r['_where'])
        by_chip[r['chip']] = r
    devs = read_tsv(os.path.join(d, 'nvidia_devices.tsv'), DEV_COLS)
    for r in devs:
        if not re.match(r'^[0-9a-f]{4}$', r['device_id']) or r['device_id'] == '0000':
            raise FactsError('%s: bad PCI device id %r' % (r['_where'], r['device_id']))
        if r['chip'] not in by_chip:
            raise FactsError('%s: chip %r not in nvidia_chips.tsv' % (r['_where'], r['chip']))
        if r['kernel_open'] not in ('', 'yes', 'no'):
            raise FactsError('%s: kernel_open must be yes, no or empty' % r['_where'])
    check_unique(devs, lambda r: r['device_id'], 'device_id')
    check_sorted(devs, lambda r: int(r['device_id'], 16), 'device_id')
    dev_cc = {int(r['device_id'], 16): by_chip[r['chip']]['compute_capability'] for r in devs}
    for g in read_tsv(os.path.join(d, 'gpu_compute_capability.tsv'), GPU_COLS):
        if g['pci_vendor_id'] != '10de':
            continue
        for x in filter(None, g['pci_device_ids'].split(',')):
            cc = dev_cc.get(int(x, 16))
            if cc is not None and cc != g['compute_capability']:
                raise FactsError('%s: 10de:%s has compute capability %s here but %s by its chip in '
                                 'nvidia_devices.tsv' % (g['_where'], x, g['compute_capability'], cc))
    # Packed rows (facts-table.h): offsets into one string blob instead of pointers, so that the
    # 948 rows need no relocation at each start of a position-independent binary (facts-nvidia.c
    # turns a looked-up row back into the structs of facts.h).
    blob = StrBlob()
    chip_names = sorted(by_chip)
    chip_row = {name: i for i, name in enumerate(chip_names)}
    out.append('const struct facts_nvidia_chip_row facts_nvidia_chip_table[] = {')
    for name in chip_names:
        c = by_chip[name]
        ma, mi = cc_parts(c['compute_capability'], c['_where'])
        out.append('\t{ %s, %s, %s, %s, %d, %d, %s },' % (
            blob.add(name), blob.add(c['architecture']), blob.add(c['compute_capability']),
            blob.add(c['confidence']), ma, mi, 'true' if c['tegra'] == 'yes' else 'false'))
    out.append('};')
    out.append('const struct facts_nvidia_device_row facts_nvidia_device_table[] = {')
    for r in devs:
        c = by_chip[r['chip']]
        m = re.search(r'\[(.*)\]', r['name'])
        out.append('\t{ 0x%s, %d, %s, %s, %s, %s, %s },' % (
            r['device_id'], chip_row[r['chip']], blob.add(r['name']),
            blob.add(m.group(1) if m else r['name']), blob.add(r['legacy_branch']),
            blob.add(r['kernel_open']), blob.add(r['source'] + ';' + c['source'])))
    out.append('};')
    out.append('const size_t facts_nvidia_device_table_len = %d;' % len(devs))
    out.append('struct facts_nvidia_device facts_nvidia_device_decoded[%d];' % len(devs))
    out.append('struct facts_gpu facts_nvidia_device_gpu_decoded[%d];' % len(devs))
    out.append('const char facts_nvidia_strings[] =')
    out.extend(blob.literal_lines())
    out.append(';')


def gen_driver_min(d, out):
    rows = read_tsv(os.path.join(d, 'cuda_driver_min.tsv'), DRV_COLS)
    rel = [r for r in rows if r['kind'] == 'release']
    mc = [r for r in rows if r['kind'] == 'minor_compat']
    for r in rows:
        if r['kind'] not in ('release', 'minor_compat'):
            raise FactsError('%s: bad kind %r' % (r['_where'], r['kind']))
        for c in ('linux_x86_64_min_driver', 'windows_x86_64_min_driver'):
            if r[c]:
                vkey(r[c], r['_where'])
        if r['upper_bound_exclusive']:
            vkey(r['upper_bound_exclusive'], r['_where'])
        if not r['cuda_major'].isdigit():
            raise FactsError('%s: bad cuda_major' % r['_where'])
    check_unique(rel, lambda r: vkey(r['toolkit_version'], r['_where']), 'toolkit_version')
    check_sorted(rel, lambda r: vkey(r['toolkit_version'], r['_where']), 'toolkit_version')
    check_unique(mc, lambda r: int(r['cuda_major']), 'minor_compat cuda_major')
    check_sorted(mc, lambda r: int(r['cuda_major']), 'minor_compat cuda_major')
    for r in rel:
        if vkey(r['toolkit_version'], r['_where'])[0] != int(r['cuda_major']):
            raise FactsError('%s: cuda_major does not match toolkit_version' % r['_where'])
    out.append('const struct facts_cuda_release facts_cuda_release_table[] = {')
    for r in rel:
        out.append('\t{ %s, %s, %s, %s, %s, %s, %s, %s },' % (
            cstr(r['toolkit_version']), cstr(r['toolkit_label']), cstr(r['linux_x86_64_min_driver']),
            cstr(r['windows_x86_64_min_driver']), cstr(r['driver_branch']), cstr(r['confidence']),
            cstr(r['notes']), cstr(r['source'])))
    out.append('};')
    out.append('const size_t facts_cuda_release_table_len = %d;' % len(rel))
    out.append('const struct facts_minor_compat facts_minor_compat_table[] = {')
    for r in mc:
        out.append('\t{ %s, %s, %s, %s, %s, %s, %s },' % (
            r['cuda_major'], cstr(r['linux_x86_64_min_driver']), cstr(r['windows_x86_64_min_driver']),
            r['upper_bound_exclusive'] or '0', cstr(r['confidence']), cstr(r['notes']),
            cstr(r['source'])))
    out.append('};')
    out.append('const size_t facts_minor_compat_table_len = %d;' % len(mc))


def gen_branches(d, out):
    rows = read_tsv(os.path.join(d, 'driver_branches.tsv'), BR_COLS)
    for r in rows:
        if not r['branch'].isdigit():
            raise FactsError('%s: bad branch %r' % (r['_where'], r['branch']))
        if r['cuda_version_reported']:
            vkey(r['cuda_version_reported'], r['_where'])
        cc_parts(r['oldest_cc'], r['_where'])
    check_unique(rows, lambda r: int(r['branch']), 'branch')
    check_sorted(rows, lambda r: int(r['branch']), 'branch')
    out.append('const struct facts_driver_branch facts_driver_branch_table[] = {')
    for r in rows:
        out.append('\t{ %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s },' % (
            r['branch'], cstr(r['cuda_version_reported']), cstr(r['first_toolkit_with_branch']),
            cstr(r['datacenter_designation']), cstr(r['datacenter_eol']),
            cstr(r['oldest_arch_supported']), cstr(r['oldest_cc']), cstr(r['last_branch_for_arch']),
            cstr(r['confidence']), cstr(r['notes']), cstr(r['source'])))
    out.append('};')
    out.append('const size_t facts_driver_branch_table_len = %d;' % len(rows))


def gen_arch(d, out):
    rows = read_tsv(os.path.join(d, 'cuda_arch_support.tsv'), ARCH_COLS)
    for r in rows:
        cc_parts(r['min_cc'], r['_where'])
        cc_parts(r['max_cc'], r['_where'])
        if r['ptx_isa_version']:
            vkey(r['ptx_isa_version'], r['_where'])
    check_unique(rows, lambda r: vkey(r['cuda_version'], r['_where']), 'cuda_version')
    check_sorted(rows, lambda r: vkey(r['cuda_version'], r['_where']), 'cuda_version')
    check_sorted([r for r in rows if r['ptx_isa_version']],
                 lambda r: (vkey(r['ptx_isa_version'], r['_where']), vkey(r['cuda_version'], '')),
                 'ptx_isa_version')
    out.append('const struct facts_cuda_arch facts_cuda_arch_table[] = {')
    for r in rows:
        out.append('\t{ %s, %s, %s, %s, %s, %s, %s, %s, %s, %s },' % (
            cstr(r['cuda_version']), cstr(r['min_cc']), cstr(r['max_cc']), cstr(r['sm_targets']),
            cstr(r['arch_specific_a']), cstr(r['family_specific_f']), cstr(r['ptx_isa_version']),
            cstr(r['confidence']), cstr(r['notes']), cstr(r['source'])))
    out.append('};')
    out.append('const size_t facts_cuda_arch_table_len = %d;' % len(rows))


def gen_xid(d, out):
    rows = read_tsv(os.path.join(d, 'xid.tsv'), XID_COLS)
    for r in rows:
        if not r['xid'].isdigit():
            raise FactsError('%s: bad xid %r' % (r['_where'], r['xid']))
        if r['application_error'] not in ('yes', 'no'):
            raise FactsError('%s: application_error must be yes/no' % r['_where'])
    check_unique(rows, lambda r: int(r['xid']), 'xid')
    check_sorted(rows, lambda r: int(r['xid']), 'xid')
    out.append('const struct facts_xid facts_xid_table[] = {')
    for r in rows:
        out.append('\t{ %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s },' % (
            r['xid'], cstr(r['mnemonic']), cstr(r['description']), cstr(r['cause_category']),
            cstr(r['resolution_bucket']), cstr(r['severity']),
            'true' if r['application_error'] == 'yes' else 'false', cstr(r['recommended_action']),
            cstr(r['typical_log_text']), cstr(r['confidence']), cstr(r['source'])))
    out.append('};')
    out.append('const size_t facts_xid_table_len = %d;' % len(rows))


def gen_cudnn(d, out):
    rows = read_tsv(os.path.join(d, 'cudnn_cuda.tsv'), CUDNN_COLS)
    for r in rows:
        w = r['_where']
        check_confidence(r)
        if not prefix_le(vkey(r['first'], w), vkey(r['last'], w)):
            raise FactsError('%s: last %r before first %r' % (w, r['last'], r['first']))
        majors = r['cuda_majors'].split(',')
        if not all(m.isdigit() for m in majors):
            raise FactsError('%s: cuda_majors must be a comma list of integers' % w)
        for v in [x for x in r['cuda_versions'].split(',') if x]:
            if len(vkey(v, w)) != 2 or v.split('.')[0] not in majors:
                raise FactsError('%s: CUDA %r is not major.minor of one of %s' % (w, v, majors))
        if r['confidence'] == 'confirmed' and not r['cuda_versions']:
            raise FactsError('%s: a confirmed row needs cuda_versions' % w)
    key = lambda r: (vkey(r['first'], r['_where']), r['variant'])
    check_unique(rows, key, '(first, variant)')
    check_sorted(rows, key, '(first, variant)')
    out.append('const struct facts_cudnn facts_cudnn_table[] = {')
    for r in rows:
        out.append('\t{ %s },' % ', '.join(cstr(r[c]) for c in CUDNN_COLS))
    out.append('};')
    out.append('const size_t facts_cudnn_table_len = %d;' % len(rows))


def gen_thresholds(d, out):
    rows = read_tsv(os.path.join(d, 'thresholds.tsv'), THR_COLS)
    for r in rows:
        if not re.match(r'^[a-z][a-z0-9_]*$', r['name']):
            raise FactsError('%s: bad threshold name %r' % (r['_where'], r['name']))
        if r['unit'] == 'month':
            if not re.match(r'^[0-9]{4}-(0[1-9]|1[0-2])$', r['value']):
                raise FactsError('%s: month must be YYYY-MM' % r['_where'])
        elif r['unit'] == 'cc':
            cc_parts(r['value'], r['_where'])
        elif not r['value'].isdigit():
            raise FactsError('%s: value must be a non-negative integer' % r['_where'])
    check_unique(rows, lambda r: r['name'], 'threshold name')
    check_sorted(rows, lambda r: r['name'], 'threshold name')
    out.append('const struct facts_threshold facts_threshold_table[] = {')
    for r in rows:
        if r['unit'] == 'month':
            num = int(r['value'].replace('-', ''))
        elif r['unit'] == 'cc':
            ma, mi = cc_parts(r['value'], r['_where'])
            num = ma * 10 + mi
        else:
            num = int(r['value'])
        out.append('\t{ %s, %s, %dULL, %s, %s, %s, %s },' % (
            cstr(r['name']), cstr(r['value']), num, cstr(r['unit']), cstr(r['confidence']),
            cstr(r['notes']), cstr(r['source'])))
    out.append('};')
    out.append('const size_t facts_threshold_table_len = %d;' % len(rows))


def gen_ptx_isa(d, out):
    rows = read_tsv(os.path.join(d, 'ptx_isa.tsv'), PTX_COLS)
    for r in rows:
        k = vkey(r['ptx_isa_version'], r['_where'])
        if len(k) != 2:
            raise FactsError('%s: PTX ISA must be X.Y' % r['_where'])
        vkey(r['cuda_version'], r['_where'])
        if r['min_driver_branch'] and not r['min_driver_branch'].isdigit():
            raise FactsError('%s: bad min_driver_branch %r' % (r['_where'], r['min_driver_branch']))
    check_unique(rows, lambda r: vkey(r['ptx_isa_version'], r['_where']), 'ptx_isa_version')
    check_sorted(rows, lambda r: vkey(r['ptx_isa_version'], r['_where']), 'ptx_isa_version')
    check_unique(rows, lambda r: vkey(r['cuda_version'], r['_where']), 'cuda_version')
    check_sorted(rows, lambda r: vkey(r['cuda_version'], r['_where']), 'cuda_version')
    check_sorted([r for r in rows if r['min_driver_branch']], lambda r: int(r['min_driver_branch']),
                 'min_driver_branch')
    out.append('const struct facts_ptx_isa facts_ptx_isa_table[] = {')
    for r in rows:
        ma, mi = vkey(r['ptx_isa_version'], '')
        out.append('\t{ %s, %d, %d, %s, %s, %s, %s, %s },' % (
            cstr(r['ptx_isa_version']), ma, mi, cstr(r['cuda_version']),
            r['min_driver_branch'] or '0', cstr(r['confidence']), cstr(r['notes']),
            cstr(r['source'])))
    out.append('};')
    out.append('const size_t facts_ptx_isa_table_len = %d;' % len(rows))


def gen_sm_arch(d, out):
    rows = read_tsv(os.path.join(d, 'sm_arch.tsv'), SM_COLS)
    for r in rows:
        if not r['sm'].isdigit():
            raise FactsError('%s: bad sm %r' % (r['_where'], r['sm']))
        if r['family'] and not r['family'].isdigit():
            raise FactsError('%s: bad family %r' % (r['_where'], r['family']))
        if r['tegra'] not in ('yes', 'no'):
            raise FactsError('%s: tegra must be yes/no' % r['_where'])
    check_unique(rows, lambda r: int(r['sm']), 'sm')
    check_sorted(rows, lambda r: int(r['sm']), 'sm')
    sms = {int(r['sm']) for r in rows}
    for r in rows:
        if r['family'] and int(r['family']) not in sms:
            raise FactsError('%s: family %s has no row' % (r['_where'], r['family']))
        if r['family'] and int(r['family']) > int(r['sm']):
            raise FactsError('%s: family %s above its member' % (r['_where'], r['family']))
    out.append('const struct facts_sm_arch facts_sm_arch_table[] = {')
    for r in rows:
        out.append('\t{ %s, %s, %s, %s, %s, %s },' % (
            r['sm'], r['family'] or '0', 'true' if r['tegra'] == 'yes' else 'false',
            cstr(r['confidence']), cstr(r['notes']), cstr(r['source'])))
    out.append('};')
    out.append('const size_t facts_sm_arch_table_len = %d;' % len(rows))


def check_confidence(r):
    if r['confidence'] not in ('confirmed', 'unconfirmed'):
        raise FactsError('%s: confidence must be confirmed or unconfirmed' % r['_where'])


def prefix_le(a, b):
    """a <= b comparing only the fields both have ("5.5" covers 5.5.x)."""
    n = min(len(a), len(b))
    return a[:n] <= b[:n]


def gen_rocm(d, out):
    rows = read_tsv(os.path.join(d, 'rocm.tsv'), ROCM_COLS)
    check_unique(rows, lambda r: vkey(r['first'], r['_where']), 'first release')
    check_sorted(rows, lambda r: vkey(r['first'], r['_where']), 'first release')
    prev = None
    for r in rows:
        w = r['_where']
        check_confidence(r)
        f, l = vkey(r['first'], w), vkey(r['last'], w)
        if not prefix_le(f, l):
            raise FactsError('%s: last %r before first %r' % (w, r['last'], r['first']))
        gfx = [g for g in r['gfx_targets'].split(',') if g]
        for g in gfx:
            if not re.match(r'^gfx[0-9a-f]+$', g):
                raise FactsError('%s: bad gfx target %r' % (w, g))
        if len(set(gfx)) != len(gfx):
            raise FactsError('%s: duplicate gfx target' % w)
        if r['confidence'] == 'confirmed' and not gfx:
            raise FactsError('%s: a confirmed row needs gfx_targets' % w)
        n = min(len(prev), len(f)) if prev is not None else 0
        if prev is not None and not prev[:n] < f[:n]:
            raise FactsError('%s: release ranges overlap or are not in ascending order' % w)
        prev = l
    out.append('const struct facts_rocm facts_rocm_table[] = {')
    for r in rows:
        out.append('\t{ %s },' % ', '.join(cstr(r[c]) for c in ROCM_COLS))
    out.append('};')
    out.append('const size_t facts_rocm_table_len = %d;' % len(rows))


def gen_hsa_override(d, out):
    rows = read_tsv(os.path.join(d, 'hsa_override.tsv'), HSA_COLS)
    check_unique(rows, lambda r: r['gfx'], 'gfx target')
    check_sorted(rows, lambda r: r['gfx'], 'gfx target')
    for r in rows:
        w = r['_where']
        check_confidence(r)
        for c in ('gfx', 'runs_as'):
            if r[c] and not re.match(r'^gfx[0-9a-f]+$', r[c]):
                raise FactsError('%s: bad %s %r' % (w, c, r[c]))
        if r['override']:
            m = re.match(r'^([0-9]+)\.([0-9]+)\.([0-9]+)$', r['override'])
            # the override names the target it makes ROCm load: M.N.S -> gfxMNS (hex minor, stepping)
            if not m or 'gfx%d%x%x' % tuple(int(x) for x in m.groups()) != r['runs_as']:
                raise FactsError('%s: override %r does not name runs_as %r' % (w, r['override'], r['runs_as']))
    out.append('const struct facts_hsa_override facts_hsa_override_table[] = {')
    for r in rows:
        out.append('\t{ %s },' % ', '.join(cstr(r[c]) for c in HSA_COLS))
    out.append('};')
    out.append('const size_t facts_hsa_override_table_len = %d;' % len(rows))


def emit_rows(out, name, rows, cols):
    """const struct facts_<name> facts_<name>_table[] with one initializer per row (the
    columns as strings, in the struct's order) and its _len."""
    out.append('const struct facts_%s facts_%s_table[] = {' % (name, name))
    for r in rows:
        out.append('\t{ %s },' % ', '.join(cstr(r[c]) for c in cols))
    out.append('};')
    out.append('const size_t facts_%s_table_len = %d;' % (name, len(rows)))


def gen_ipex(d, out):
    rows = read_tsv(os.path.join(d, 'ipex_xpu.tsv'), IPEX_COLS)
    check_unique(rows, lambda r: vkey(r['ipex'], r['_where']), 'ipex release')
    check_sorted(rows, lambda r: vkey(r['ipex'], r['_where']), 'ipex release')
    for r in rows:
        w = r['_where']
        check_confidence(r)
        for c in ('torch', 'oneapi'):
            if len(vkey(r[c], w)) != 2:
                raise FactsError('%s: %s %r is not major.minor' % (w, c, r[c]))
        if vkey(r['ipex'], w)[:2] != vkey(r['torch'], w):
            raise FactsError('%s: ipex %r is not for torch %r' % (w, r['ipex'], r['torch']))
    emit_rows(out, 'ipex', rows, IPEX_COLS)


def gen_amdgpu_kmd(d, out):
    rows = read_tsv(os.path.join(d, 'amdgpu_kmd.tsv'), KMD_COLS)
    check_unique(rows, lambda r: vkey(r['kmd'], r['_where']), 'kmd')
    check_sorted(rows, lambda r: vkey(r['kmd'], r['_where']), 'kmd')
    for r in rows:
        w = r['_where']
        check_confidence(r)
        if len(vkey(r['kmd'], w)) != 2:
            raise FactsError('%s: kmd %r is not major.minor' % (w, r['kmd']))
        users = r['user_space'].split(',')
        if sorted(users, key=lambda u: vkey(u, w)) != users or any(len(vkey(u, w)) != 2 for u in users):
            raise FactsError('%s: user_space %r is not an ascending list of major.minor' % (w, r['user_space']))
    emit_rows(out, 'amdgpu_kmd', rows, KMD_COLS)


def gen_cuda_compat(d, out):
    rows = read_tsv(os.path.join(d, 'cuda_compat.tsv'), COMPAT_COLS)

    def key(r):
        return (vkey(r['package'], r['_where']), vkey(r['driver_branch'], r['_where']))
    check_unique(rows, key, '(package, driver_branch)')
    check_sorted(rows, key, '(package, driver_branch)')
    for r in rows:
        w = r['_where']
        check_confidence(r)
        if len(vkey(r['package'], w)) != 2:
            raise FactsError('%s: package %r is not major.minor' % (w, r['package']))
        if len(vkey(r['driver_branch'], w)) != 1:
            raise FactsError('%s: driver_branch %r is not a branch number' % (w, r['driver_branch']))
        if r['support'] not in ('compatible', 'not_compatible', 'not_needed'):
            raise FactsError('%s: support must be compatible, not_compatible or not_needed' % w)
    emit_rows(out, 'cuda_compat', rows, COMPAT_COLS)


def gen_intel_kernel(d, out):
    rows = read_tsv(os.path.join(d, 'intel_gpu_kernel.tsv'), INTEL_KERNEL_COLS)
    check_unique(rows, lambda r: r['family'], 'family')
    check_sorted(rows, lambda r: r['family'], 'family')
    seen = {}
    for r in rows:
        w = r['_where']
        check_confidence(r)
        if r['driver'] not in ('i915', 'xe'):
            raise FactsError('%s: driver %r is not i915 or xe' % (w, r['driver']))
        if r['default_from'] and len(vkey(r['default_from'], w)) != 2:
            raise FactsError('%s: default_from %r is not major.minor' % (w, r['default_from']))
        for x in r['pci_device_ids'].split(','):
            if not re.match(r'^[0-9a-f]{4}$', x):
                raise FactsError('%s: bad PCI device id %r' % (w, x))
            if x in seen:
                raise FactsError('%s: PCI device id %s is already in %s' % (w, x, seen[x]))
            seen[x] = r['family']
    emit_rows(out, 'intel_kernel', rows, INTEL_KERNEL_COLS)


def torch_key(r):
    w = r['_where']
    m = re.match(r'^(cu|rocm)([0-9.]+)$', r['variant'])
    if not m:
        raise FactsError('%s: bad variant %r (cuNNN or rocmX.Y[.Z])' % (w, r['variant']))
    if m.group(1) == 'cu':
        return (vkey(r['torch'], w), 0, vkey(r['cuda_toolkit'], w))
    return (vkey(r['torch'], w), 1, vkey(m.group(2), w))


def gen_torch(d, out):
    rows = read_tsv(os.path.join(d, 'pytorch_wheels.tsv'), TORCH_COLS)
    for r in rows:
        w = r['_where']
        check_confidence(r)
        if len(vkey(r['torch'], w)) != 2:
            raise FactsError('%s: torch must be major.minor' % w)
        if r['variant'].startswith('cu'):
            if r['variant'] != 'cu' + r['cuda_toolkit'].replace('.', '') or \
               len(vkey(r['cuda_toolkit'], w)) != 2:
                raise FactsError('%s: variant %r does not match cuda_toolkit %r' %
                                 (w, r['variant'], r['cuda_toolkit']))
            if r['ptx'] not in ('yes', 'no', 'unclear'):
                raise FactsError('%s: ptx must be yes/no/unclear' % w)
            toks = r['arch_list'].split(' ') if r['arch_list'] else []
            if not all(re.match(r'^(sm|compute)_[0-9]+[af]?$', t) for t in toks):
                raise FactsError('%s: bad arch_list %r' % (w, r['arch_list']))
            if r['ptx'] == 'yes' and not any(t.startswith('compute_') for t in toks):
                raise FactsError('%s: ptx yes but no compute_XY in arch_list' % w)
            if r['ptx'] == 'no' and any(t.startswith('compute_') for t in toks):
                raise FactsError('%s: ptx no but compute_XY in arch_list' % w)
        else:
            if r['cuda_toolkit'] or r['torch_cuda_arch_list']:
                raise FactsError('%s: a ROCm row has no CUDA toolkit or TORCH_CUDA_ARCH_LIST' % w)
            if r['ptx'] != 'n/a':
                raise FactsError('%s: ptx must be n/a on a ROCm row' % w)
            toks = r['arch_list'].split(' ') if r['arch_list'] else []
            if not all(re.match(r'^gfx[0-9a-f]+$', t) for t in toks):
                raise FactsError('%s: bad gfx arch_list %r' % (w, r['arch_list']))
        if r['pypi_default'] not in ('yes', 'no'):
            raise FactsError('%s: pypi_default must be yes/no' % w)
        for c in ('min_driver', 'minor_compat_min_driver'):
            if r[c]:
                vkey(r[c], w)
        if r['confidence'] == 'confirmed' and not r['arch_list']:
            raise FactsError('%s: a confirmed row needs arch_list' % w)
    check_unique(rows, torch_key, '(torch, variant)')
    check_sorted(rows, torch_key, '(torch, variant)')
    pypi = {}
    for r in rows:
        if r['pypi_default'] == 'yes':
            if r['torch'] in pypi:
                raise FactsError('%s: second PyPI default for torch %s (first at %s)' %
                                 (r['_where'], r['torch'], pypi[r['torch']]))
            pypi[r['torch']] = r['_where']
    out.append('const struct facts_torch_wheel facts_torch_wheel_table[] = {')
    for r in rows:
        vals = []
        for c in TORCH_COLS:
            if c == 'pypi_default':
                vals.append('true' if r[c] == 'yes' else 'false')
            else:
                vals.append(cstr(r[c]))
        out.append('\t{ %s },' % ', '.join(vals))
    out.append('};')
    out.append('const size_t facts_torch_wheel_table_len = %d;' % len(rows))


def gen_tensorflow(d, out):
    rows = read_tsv(os.path.join(d, 'tensorflow_tested_configs.tsv'), TF_COLS)
    for r in rows:
        w = r['_where']
        check_confidence(r)
        if len(vkey(r['version'], w)) != 3:
            raise FactsError('%s: version must be X.Y.Z' % w)
        if r['package'] not in ('tensorflow', 'tensorflow_gpu'):
            raise FactsError('%s: package must be tensorflow or tensorflow_gpu' % w)
        vkey(r['cudnn'], w)
        vkey(r['cuda'], w)
    check_unique(rows, lambda r: vkey(r['version'], r['_where'])[:2], 'release line (major.minor)')
    check_sorted(rows, lambda r: vkey(r['version'], r['_where']), 'version')
    out.append('const struct facts_tensorflow facts_tensorflow_table[] = {')
    for r in rows:
        out.append('\t{ %s },' % ', '.join(cstr(r[c]) for c in TF_COLS))
    out.append('};')
    out.append('const size_t facts_tensorflow_table_len = %d;' % len(rows))


DLOPEN_COLS = ['framework', 'first', 'below', 'library', 'names', 'wheel_rpath', 'confidence', 'source']


def gen_dlopen(d, out):
    rows = read_tsv(os.path.join(d, 'framework_dlopen.tsv'), DLOPEN_COLS)
    for r in rows:
        w = r['_where']
        check_confidence(r)
        vkey(r['first'], w)
        if r['below'] and vkey(r['below'], w) <= vkey(r['first'], w):
            raise FactsError('%s: below must be above first' % w)
        if r['wheel_rpath'] not in ('yes', 'no'):
            raise FactsError('%s: wheel_rpath must be yes or no' % w)
        if not r['names'] or any(not n.startswith(('lib', '/')) for n in r['names'].split('|')):
            raise FactsError('%s: names must be lib*.so* names or paths, | between them' % w)
    check_unique(rows, lambda r: (r['framework'], r['library'], vkey(r['first'], r['_where'])),
                 'framework, library, first')
    check_sorted(rows, lambda r: (r['framework'], r['library'], vkey(r['first'], r['_where'])),
                 'framework, library, first')
    # ranges of one (framework, library) must not overlap
    prev = {}
    for r in rows:
        k = (r['framework'], r['library'])
        if k in prev and (not prev[k]['below'] or vkey(prev[k]['below'], r['_where']) > vkey(r['first'], r['_where'])):
            raise FactsError('%s: overlaps the range at %s' % (r['_where'], prev[k]['_where']))
        prev[k] = r
    out.append('const struct facts_dlopen facts_dlopen_table[] = {')
    for r in rows:
        vals = [cstr(r[c]) if c != 'below' or r[c] else 'NULL' for c in DLOPEN_COLS if c != 'wheel_rpath']
        vals.insert(5, 'true' if r['wheel_rpath'] == 'yes' else 'false')
        out.append('\t{ %s },' % ', '.join(vals))
    out.append('};')
    out.append('const size_t facts_dlopen_table_len = %d;' % len(rows))


def gen_tensorflow_builds(d, out):
    rows = read_tsv(os.path.join(d, 'tensorflow_builds.tsv'), TFB_COLS)
    for r in rows:
        w = r['_where']
        check_confidence(r)
        if len(vkey(r['release'], w)) != 2:
            raise FactsError('%s: release must be X.Y (a release line)' % w)
        if vkey(r['evidence_release'], w)[:2] != vkey(r['release'], w):
            raise FactsError('%s: evidence_release must be of the release line' % w)
        if r['package'] not in ('tensorflow', 'tensorflow_gpu'):
            raise FactsError('%s: package must be tensorflow or tensorflow_gpu' % w)
        if len(vkey(r['cudnn'], w)) != 3:
            raise FactsError('%s: cudnn must be X.Y.Z as TensorFlow prints it' % w)
        vkey(r['cuda'], w)
        if 'but source was compiled with: %s' % r['cudnn'] not in r['evidence']:
            raise FactsError('%s: evidence must quote "source was compiled with: %s"' % (w, r['cudnn']))
    check_unique(rows, lambda r: vkey(r['release'], r['_where']), 'release')
    check_sorted(rows, lambda r: vkey(r['release'], r['_where']), 'release')
    out.append('const struct facts_tensorflow_build facts_tensorflow_build_table[] = {')
    for r in rows:
        out.append('\t{ %s },' % ', '.join(cstr(r[c]) for c in TFB_COLS))
    out.append('};')
    out.append('const size_t facts_tensorflow_build_table_len = %d;' % len(rows))


MIG_COLS = ['framework', 'cvd', 'first', 'fixed', 'symptom', 'confidence', 'source']


def gen_mig_bugs(d, out):
    rows = read_tsv(os.path.join(d, 'framework_mig_bugs.tsv'), MIG_COLS)
    for r in rows:
        w = r['_where']
        check_confidence(r)
        if r['cvd'] not in ('mig-ids', 'unset'):
            raise FactsError('%s: cvd must be mig-ids or unset' % w)
        if r['fixed'] and vkey(r['first'], w) >= vkey(r['fixed'], w):
            raise FactsError('%s: first must be below fixed' % w)
        if not r['symptom'].strip():
            raise FactsError('%s: empty symptom' % w)
    check_unique(rows, lambda r: (r['framework'], r['cvd'], vkey(r['first'], r['_where'])),
                 'release')
    check_sorted(rows, lambda r: (r['framework'], r['cvd'], vkey(r['first'], r['_where'])),
                 'release')
    out.append('const struct facts_mig_bug facts_mig_bug_table[] = {')
    for r in rows:
        out.append('\t{ %s },' % ', '.join(cstr(r[c]) for c in MIG_COLS))
    out.append('};')
    out.append('const size_t facts_mig_bug_table_len = %d;' % len(rows))


def main(argv):
    if len(argv) != 3:
        sys.stderr.write('usage: gen-facts.py OUTPUT.c DATADIR\n')
        return 2
    outpath, d = argv[1], argv[2]
    out = ['/* SPDX-License-Identifier: LGPL-2.1-or-later */',
           '/* Generated by src/facts/gen-facts.py from src/facts/data/<table>.tsv. Do not edit. */',
           '#include <stdbool.h>', '#include <stddef.h>', '#include <stdint.h>',
           '#include "facts/facts-table.h"', '#include "facts/facts-intel.h"', '#include "facts/facts-amd.h"',
           '#include "facts/facts-compat.h"', '']
    try:
        for g in (gen_gpu, gen_nvidia_devices, gen_driver_min, gen_branches, gen_arch, gen_xid, gen_thresholds, gen_cudnn,
                  gen_ptx_isa, gen_sm_arch, gen_rocm, gen_hsa_override, gen_amdgpu_kmd, gen_cuda_compat, gen_ipex, gen_intel_kernel, gen_torch, gen_tensorflow,
                  gen_dlopen, gen_tensorflow_builds, gen_mig_bugs):
            g(d, out)
            out.append('')
    except (FactsError, OSError, UnicodeDecodeError) as e:
        sys.stderr.write('gen-facts: %s\n' % e)
        return 1
    tmp = outpath + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')
    os.replace(tmp, outpath)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
