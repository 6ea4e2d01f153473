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


# The string blob of every table but the NVIDIA device tables (which keep their own).
BLOB = StrBlob()
# Every gpu_compute_capability.tsv row's PCI device ids, one array; a row holds an offset.
GPU_IDS = []
# The tables a typical paste looks up (explain): also decoded row by row (emit_packed).
PER_ROW = ('cuda_release', 'minor_compat', 'torch_wheel')


def emit_packed(out, name, types, rows):
    """facts_<name>_table_rows(): the table as an array of struct facts_<name> (facts.h), which
    holds pointers. Written as such, the array would be relocated, so written, by the loader at
    each start of a position-independent gpuenv, whatever the command (a copy-on-write page
    fault per 4 KiB page). So the rows are written packed instead, each string as an offset
    into BLOB (FACTS_NO_STRING for an empty one, NULL once decoded), and decoded whole into
    static storage the first time a command asks for the table (pthread_once: the library may
    be called from several threads). types: per column, in the struct's order, 'str', 'ids'
    (an offset into GPU_IDS, then its count as a size_t column) or the C type of the value;
    rows: per row, per column, the string ('' is NULL) or the C expression."""
    n = len(rows)
    out.append('struct facts_%s_packed {' % name)
    for i, t in enumerate(types):
        out.append('\t%s f%d;' % ('uint32_t' if t in ('str', 'ids') else t, i))
    out.append('};')
    out.append('static const struct facts_%s_packed facts_%s_packed[%d] = {' % (name, name, max(n, 1)))
    for r in rows:
        assert len(r) == len(types), name
        out.append('\t{ %s },' % ', '.join(BLOB.add(v) if t == 'str' else v
                                          for t, v in zip(types, r)))
    out.append('};')
    out.append('const size_t facts_%s_table_len = %d;' % (name, n))
    out.append('static struct facts_%s facts_%s_decoded[%d];' % (name, name, max(n, 1)))
    vals = []
    for i, t in enumerate(types):
        if t == 'str':
            vals.append('packed_text(p->f%d)' % i)
        elif t == 'ids':
            vals.append('packed_ids(p->f%d)' % i)
        else:
            vals.append('p->f%d' % i)
    if name in PER_ROW:
        # Row by row as well: a lookup that scans the table decodes each row into the caller's
        # storage (facts_<name>_row) and keeps only what it returns (facts_<name>_at), so a
        # command that asks for one row writes no more than that row's page.
        out.append('void facts_%s_row(size_t i, struct facts_%s *ret)' % (name, name))
        out.append('{')
        out.append('\tconst struct facts_%s_packed *p = &facts_%s_packed[i];' % (name, name))
        out.append('')
        out.append('\t*ret = (struct facts_%s){ %s };' % (name, ', '.join(vals)))
        out.append('}')
        out.append('static bool facts_%s_done[%d];' % (name, max(n, 1)))
        out.append('const struct facts_%s *facts_%s_at(size_t i)' % (name, name))
        out.append('{')
        out.append('\tpthread_mutex_lock(&facts_decode_lock);')
        out.append('\tif (!facts_%s_done[i]) {' % name)
        out.append('\t\tfacts_%s_row(i, &facts_%s_decoded[i]);' % (name, name))
        out.append('\t\tfacts_%s_done[i] = true;' % name)
        out.append('\t}')
        out.append('\tpthread_mutex_unlock(&facts_decode_lock);')
        out.append('\treturn &facts_%s_decoded[i];' % name)
        out.append('}')
    out.append('static pthread_once_t facts_%s_once = PTHREAD_ONCE_INIT;' % name)
    out.append('static void facts_%s_decode(void)' % name)
    out.append('{')
    out.append('\tfor (size_t i = 0; i < %d; i++) {' % n)
    if name in PER_ROW:
        out.append('\t\t(void)facts_%s_at(i);' % name)
    else:
        out.append('\t\tconst struct facts_%s_packed *p = &facts_%s_packed[i];' % (name, name))
        out.append('')
        out.append('\t\tfacts_%s_decoded[i] = (struct facts_%s){ %s };' % (name, name, ', '.join(vals)))
    out.append('\t}')
    out.append('}')
    out.append('const struct facts_%s *facts_%s_table_rows(void)' % (name, name))
    out.append('{')
    out.append('\tpthread_once(&facts_%s_once, facts_%s_decode);' % (name, name))
    out.append('\treturn facts_%s_decoded;' % name)
    out.append('}')


def emit_blob(out):
    out.append('static const uint16_t facts_gpu_ids[%d] = { %s };' %
               (max(len(GPU_IDS), 1), ', '.join('0x%04x' % v for v in GPU_IDS) or '0'))
    out.append('static const char facts_strings[] =')
    out.extend(BLOB.literal_lines())
    out.append(';')


def packed_helpers():
    """What every decoder above uses (written after the arrays of emit_blob, before the
    tables)."""
    return ['static pthread_mutex_t facts_decode_lock = PTHREAD_MUTEX_INITIALIZER;', '',
            'static const char *packed_text(uint32_t offset)', '{',
            '\treturn offset == FACTS_NO_STRING ? NULL : facts_strings + offset;', '}', '',
            'static const uint16_t *packed_ids(uint32_t offset)', '{',
            '\treturn offset == FACTS_NO_STRING ? NULL : facts_gpu_ids + offset;', '}', '']


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
LTOIR_COLS = ['cuda_version', 'ltoir_version', 'confidence', 'notes', 'source']
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
KERNEL_AMDGPU_COLS = ['rocm', 'gfx', 'kernel_from', 'kernel_to', 'what', 'confidence', 'source']
COMPAT_COLS = ['package', 'driver_branch', 'support', 'confidence', 'source']
INTEL_KERNEL_COLS = ['family', 'driver', 'pci_device_ids', 'default_from', 'products', 'confidence', 'notes',
                     'source']
AMD_KERNEL_COLS = ['family', 'gfx', 'pci_device_ids', 'first_release', 'absent_through', 'products', 'confidence',
                   'notes', 'source']
INTEL_LEGACY_COLS = ['family', 'generation', 'pci_device_ids', 'dropped_from', 'level_zero', 'products', 'confidence',
                     'notes', 'source']
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
    packed = []
    for i, r in enumerate(rows):
        ma, mi = cc_parts(r['compute_capability'], r['_where'])
        ids = 'FACTS_NO_STRING'
        if r['_ids']:
            ids = str(len(GPU_IDS))
            GPU_IDS.extend(r['_ids'])
        packed.append([r['product'], r['segment'], r['architecture'], r['chip'],
                       r['compute_capability'], str(ma), str(mi), '0x' + (r['pci_vendor_id'] or '0'),
                       ids, str(len(r['_ids'])), r['pci_id_confidence'], r['confidence'],
                       r['notes'], r['source']])
    emit_packed(out, 'gpu', ['str'] * 5 + ['int', 'int', 'uint16_t', 'ids', 'size_t'] + ['str'] * 4,
                packed)
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
    emit_packed(out, 'cuda_release', ['str'] * 8, [
        [r['toolkit_version'], r['toolkit_label'], r['linux_x86_64_min_driver'],
         r['windows_x86_64_min_driver'], r['driver_branch'], r['confidence'], r['notes'],
         r['source']] for r in rel])
    emit_packed(out, 'minor_compat', ['unsigned', 'str', 'str', 'unsigned', 'str', 'str', 'str'], [
        [r['cuda_major'], r['linux_x86_64_min_driver'], r['windows_x86_64_min_driver'],
         r['upper_bound_exclusive'] or '0', r['confidence'], r['notes'], r['source']] for r in mc])


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
    emit_packed(out, 'driver_branch', ['unsigned'] + ['str'] * 10,
                [[r[c] for c in BR_COLS] for r in rows])


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
    emit_packed(out, 'cuda_arch', ['str'] * 10, [[r[c] for c in ARCH_COLS] for r in rows])


def gen_xid(d, out):
    rows = read_tsv(os.path.join(d, 'xid.tsv'), XID_COLS)
    for r in rows:
        if not r['xid'].isdigit():
            raise FactsError('%s: bad xid %r' % (r['_where'], r['xid']))
        if r['application_error'] not in ('yes', 'no'):
            raise FactsError('%s: application_error must be yes/no' % r['_where'])
    check_unique(rows, lambda r: int(r['xid']), 'xid')
    check_sorted(rows, lambda r: int(r['xid']), 'xid')
    emit_packed(out, 'xid', ['unsigned'] + ['str'] * 5 + ['bool'] + ['str'] * 4, [
        [r['xid'], r['mnemonic'], r['description'], r['cause_category'], r['resolution_bucket'],
         r['severity'], 'true' if r['application_error'] == 'yes' else 'false',
         r['recommended_action'], r['typical_log_text'], r['confidence'], r['source']]
        for r in rows])


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
    emit_packed(out, 'cudnn', ['str'] * len(CUDNN_COLS), [[r[c] for c in CUDNN_COLS] for r in rows])


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
        elif r['unit'] in ('kernel', 'release'):
            if not re.match(r'^[0-9]+\.[0-9]{1,3}$', r['value']):
                raise FactsError('%s: a %s must be MAJOR.MINOR' % (r['_where'], r['unit']))
        elif not r['value'].isdigit():
            raise FactsError('%s: value must be a non-negative integer' % r['_where'])
    check_unique(rows, lambda r: r['name'], 'threshold name')
    check_sorted(rows, lambda r: r['name'], 'threshold name')
    packed = []
    for r in rows:
        if r['unit'] == 'month':
            num = int(r['value'].replace('-', ''))
        elif r['unit'] == 'cc':
            ma, mi = cc_parts(r['value'], r['_where'])
            num = ma * 10 + mi
        elif r['unit'] in ('kernel', 'release'):
            ma, mi = (int(x) for x in r['value'].split('.'))
            num = ma * 1000 + mi
        else:
            num = int(r['value'])
        packed.append([r['name'], r['value'], '%dULL' % num, r['unit'], r['confidence'], r['notes'],
                       r['source']])
    emit_packed(out, 'threshold', ['str', 'str', 'uint64_t', 'str', 'str', 'str', 'str'], packed)


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
    packed = []
    for r in rows:
        ma, mi = vkey(r['ptx_isa_version'], '')
        packed.append([r['ptx_isa_version'], str(ma), str(mi), r['cuda_version'],
                       r['min_driver_branch'] or '0', r['confidence'], r['notes'], r['source']])
    emit_packed(out, 'ptx_isa', ['str', 'unsigned', 'unsigned', 'str', 'unsigned', 'str', 'str', 'str'],
                packed)


def gen_ltoir(d, out):
    """ltoir.tsv: the LTO-IR version each CUDA release writes; both columns rise together (a
    later release never writes an older LTO-IR), which the judgement of an unknown nvJitLink
    between two rows relies on (src/facts/ltoir.c)."""
    rows = read_tsv(os.path.join(d, 'ltoir.tsv'), LTOIR_COLS)
    for r in rows:
        if len(vkey(r['ltoir_version'], r['_where'])) != 2 or len(vkey(r['cuda_version'], r['_where'])) != 2:
            raise FactsError('%s: versions must be X.Y' % r['_where'])
        if r['confidence'] not in ('confirmed', 'unconfirmed'):
            raise FactsError('%s: bad confidence %r' % (r['_where'], r['confidence']))
    check_unique(rows, lambda r: vkey(r['cuda_version'], r['_where']), 'cuda_version')
    check_sorted(rows, lambda r: vkey(r['cuda_version'], r['_where']), 'cuda_version')
    for a, b in zip(rows, rows[1:]):
        if vkey(b['ltoir_version'], b['_where']) < vkey(a['ltoir_version'], a['_where']):
            raise FactsError('%s: ltoir_version lower than an older release writes' % b['_where'])
    packed = []
    for r in rows:
        cma, cmi = vkey(r['cuda_version'], '')
        lma, lmi = vkey(r['ltoir_version'], '')
        packed.append([r['cuda_version'], str(cma), str(cmi), r['ltoir_version'], str(lma), str(lmi),
                       r['confidence'], r['notes'], r['source']])
    emit_packed(out, 'ltoir', ['str', 'unsigned', 'unsigned', 'str', 'unsigned', 'unsigned', 'str', 'str', 'str'],
                packed)


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
    emit_packed(out, 'sm_arch', ['unsigned', 'unsigned', 'bool', 'str', 'str', 'str'], [
        [r['sm'], r['family'] or '0', 'true' if r['tegra'] == 'yes' else 'false', r['confidence'],
         r['notes'], r['source']] for r in rows])


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
    emit_rows(out, 'rocm', rows, ROCM_COLS)


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
    emit_rows(out, 'hsa_override', rows, HSA_COLS)


def emit_rows(out, name, rows, cols):
    """facts_<name>_table_rows() of a table whose columns are all strings, in the struct's order."""
    emit_packed(out, name, ['str'] * len(cols), [[r[c] for c in cols] for r in rows])


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


def gen_rocm_kernel_amdgpu(d, out):
    rows = read_tsv(os.path.join(d, 'rocm_kernel_amdgpu.tsv'), KERNEL_AMDGPU_COLS)
    check_unique(rows, lambda r: (vkey(r['rocm'], r['_where']), r['gfx']), 'rocm, gfx')
    for r in rows:
        w = r['_where']
        check_confidence(r)
        if not re.match(r'^gfx[0-9a-f]+$', r['gfx']):
            raise FactsError('%s: bad gfx %r' % (w, r['gfx']))
        for c in ('rocm', 'kernel_from', 'kernel_to'):
            if len(vkey(r[c], w)) != 2:
                raise FactsError('%s: %s %r is not major.minor' % (w, c, r[c]))
        if vkey(r['kernel_from'], w) > vkey(r['kernel_to'], w):
            raise FactsError('%s: kernel_from %r after kernel_to %r' % (w, r['kernel_from'], r['kernel_to']))
    emit_rows(out, 'rocm_kernel_amdgpu', rows, KERNEL_AMDGPU_COLS)


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
    for r in rows:
        w = r['_where']
        check_confidence(r)
        if r['driver'] not in ('i915', 'xe'):
            raise FactsError('%s: driver %r is not i915 or xe' % (w, r['driver']))
        if r['default_from'] and len(vkey(r['default_from'], w)) != 2:
            raise FactsError('%s: default_from %r is not major.minor' % (w, r['default_from']))
    check_family_ids(rows)
    emit_rows(out, 'intel_kernel', rows, INTEL_KERNEL_COLS)


def check_family_ids(rows):
    """Each row's pci_device_ids: four lower-case hex digits each, none in two families."""
    seen = {}
    for r in rows:
        for x in r['pci_device_ids'].split(','):
            if not re.match(r'^[0-9a-f]{4}$', x):
                raise FactsError('%s: bad PCI device id %r' % (r['_where'], x))
            if x in seen:
                raise FactsError('%s: PCI device id %s is already in %s' % (r['_where'], x, seen[x]))
            seen[x] = r['family']


def gen_intel_legacy(d, out):
    rows = read_tsv(os.path.join(d, 'intel_compute_runtime_legacy.tsv'), INTEL_LEGACY_COLS)
    check_unique(rows, lambda r: r['family'], 'family')
    check_sorted(rows, lambda r: r['family'], 'family')
    for r in rows:
        w = r['_where']
        check_confidence(r)
        if not re.match(r'^Gen[0-9]+$', r['generation']):
            raise FactsError('%s: generation %r is not GenN' % (w, r['generation']))
        if len(vkey(r['dropped_from'], w)) != 4:
            raise FactsError('%s: dropped_from %r is not year.week.build.hotfix' % (w, r['dropped_from']))
        if r['level_zero'] not in ('yes', 'no'):
            raise FactsError('%s: level_zero must be yes or no' % w)
    check_family_ids(rows)
    emit_rows(out, 'intel_legacy', rows, INTEL_LEGACY_COLS)


def gen_amdgpu_kernel(d, out):
    rows = read_tsv(os.path.join(d, 'amdgpu_kernel.tsv'), AMD_KERNEL_COLS)
    check_unique(rows, lambda r: r['family'], 'family')
    check_sorted(rows, lambda r: r['family'], 'family')
    for r in rows:
        w = r['_where']
        check_confidence(r)
        if not re.match(r'^gfx[0-9a-f]+$', r['gfx']):
            raise FactsError('%s: bad gfx %r' % (w, r['gfx']))
        for c in ('first_release', 'absent_through'):
            if r[c] and len(vkey(r[c], w)) != 2:
                raise FactsError('%s: %s %r is not major.minor' % (w, c, r[c]))
        if not r['first_release'] and not r['absent_through']:
            raise FactsError('%s: neither first_release nor absent_through' % w)
        if r['first_release'] and r['absent_through'] and \
                vkey(r['absent_through'], w) >= vkey(r['first_release'], w):
            raise FactsError('%s: absent_through %r not before first_release %r'
                             % (w, r['absent_through'], r['first_release']))
    check_family_ids(rows)
    emit_rows(out, 'amdgpu_kernel', rows, AMD_KERNEL_COLS)


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
    types = ['bool' if c == 'pypi_default' else 'str' for c in TORCH_COLS]
    emit_packed(out, 'torch_wheel', types, [
        [('true' if r[c] == 'yes' else 'false') if c == 'pypi_default' else r[c] for c in TORCH_COLS]
        for r in rows])


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
    emit_rows(out, 'tensorflow', rows, TF_COLS)


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
    emit_packed(out, 'dlopen', ['bool' if c == 'wheel_rpath' else 'str' for c in DLOPEN_COLS], [
        [('true' if r[c] == 'yes' else 'false') if c == 'wheel_rpath' else r[c] for c in DLOPEN_COLS]
        for r in rows])


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
    emit_rows(out, 'tensorflow_build', rows, TFB_COLS)


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
    emit_rows(out, 'mig_bug', rows, MIG_COLS)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write('usage: gen-facts.py OUTPUT.c DATADIR\n')
        return 2
    outpath, d = argv[1], argv[2]
    out = ['/* SPDX-License-Identifier: LGPL-2.1-or-later */',
           '/* Generated by src/facts/gen-facts.py from src/facts/data/<table>.tsv. Do not edit. */',
           '#include <stdbool.h>', '#include <stddef.h>', '#include <stdint.h>',
           '#include "facts/facts-table.h"', '#include "facts/facts-intel.h"', '#include "facts/facts-amd.h"',
           '#include "facts/facts-compat.h"', '#include <pthread.h>', '']
    body = []
    try:
        for g in (gen_gpu, gen_nvidia_devices, gen_driver_min, gen_branches, gen_arch, gen_xid, gen_thresholds, gen_cudnn,
                  gen_ptx_isa, gen_ltoir, gen_sm_arch, gen_rocm, gen_hsa_override, gen_amdgpu_kmd, gen_rocm_kernel_amdgpu, gen_amdgpu_kernel, gen_cuda_compat, gen_ipex, gen_intel_kernel, gen_intel_legacy, gen_torch, gen_tensorflow,
                  gen_dlopen, gen_tensorflow_builds, gen_mig_bugs):
            g(d, body)
            body.append('')
    except (FactsError, OSError, UnicodeDecodeError) as e:
        sys.stderr.write('gen-facts: %s\n' % e)
        return 1
    emit_blob(out)
    out.append('')
    out += packed_helpers() + body
    tmp = outpath + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')
    os.replace(tmp, outpath)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
