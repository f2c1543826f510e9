#!/usr/bin/env python3
"""bench/vs_llvm_prep.py - text steps of the LLVM side of vs_llvm (untimed).

Upstream MLIR lowers kernels only in the shape its GPU pipeline expects. This
script makes mechanical rewrites that keep each kernel's semantics and prints
what it did; vs_llvm runs and times the LLVM tools themselves.

  prepare IN OUT MLIR_OPT   normalise IN with `MLIR_OPT --allow-unregistered-dialect`
                            (custom form), rewrite, write OUT. Prints one line per
                            kernel, "kernel NAME", and one per rewrite, "note TEXT";
                            or "skip REASON" (exit 0) when the file cannot be given
                            to upstream MLIR.
  extract IN OUT            turn the lowered gpu.module of IN (llvm dialect) into a
                            top-level module for mlir-translate --mlir-to-llvmir.

Rewrites (each keeps the kernel's meaning):
  * IREE dispatch functions (func.func with !stream.binding arguments and a
    translation_info attribute) become gpu.func kernels in a gpu.module: each
    binding becomes a memref<?xi8> argument (the raw buffer), each
    stream.binding.subspan a memref.view of it at the same byte offset with the
    same dynamic sizes, translation_info's workgroup_size becomes
    known_block_size, func.return becomes gpu.return.
  * gpu.known_block_size (which the front end reads) becomes the gpu.func's own
    known_block_size, the attribute from which upstream folds gpu.block_dim
    (without it, block_dim is a call into the ROCm device library); a kernel
    with neither gets 64x1x1, the front end's default.
  * memref types without a memory space (kernel arguments and the views of
    them) get #gpu.address_space<global>: kernel arguments point to global
    memory, and without it the upstream lowering makes flat pointers (flat_load
    instead of global_load).
  * memref.alloc in workgroup memory at the top level of a gpu.func becomes a
    workgroup attribution of that gpu.func (the same static LDS buffer, alive for
    the whole kernel), because the upstream lowering turns such an alloc into a
    call to malloc.
"""
import re
import subprocess
import sys

WG_ALLOC = re.compile(
    r'^(\s*)(%[\w$.-]+) = memref\.alloc\(\) : (memref<[^\n]*#gpu\.address_space<workgroup>>)\s*$')
SUBSPAN = re.compile(
    r'^(\s*)(%[\w$.-]+) = "stream\.binding\.subspan"\(([^)]*)\) : \(([^)]*)\) -> (memref<.*>)\s*$')
WG_SIZE = re.compile(r'workgroup_size\s*=\s*\[\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\]')


def matching_paren(s, i):
    """Index of the ')' closing the '(' at s[i]."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] in '(<[{':
            depth += 1
        elif s[j] in ')>]}':
            # '->' is not a closing bracket
            if s[j] == '>' and j > 0 and s[j - 1] == '-':
                continue
            depth -= 1
            if depth == 0:
                return j
    return -1


def rewrite_dispatch(lines, notes):
    """func.func with !stream.binding arguments -> gpu.func in a gpu.module."""
    out = []
    converted = False
    inside = False   # in the body of a rewritten function
    for line in lines:
        m = re.match(r'^(\s*)func\.func @([\w$.-]+)\(', line)
        if m:
            inside = False
        if m and '!stream.binding' in line:
            open_i = line.index('(', m.end() - 1)
            close_i = matching_paren(line, open_i)
            args = line[open_i + 1:close_i].replace('!stream.binding', 'memref<?xi8>')
            rest = line[close_i + 1:]
            size = WG_SIZE.search(rest)
            block = ''
            if size:
                block = ' attributes {known_block_size = array<i32: %s, %s, %s>}' % size.groups()
            line = '%sgpu.func @%s(%s) kernel%s {' % (m.group(1), m.group(2), args, block)
            notes.append('dispatch as gpu.func (bindings: memref<?xi8> + memref.view)')
            converted = inside = True
        s = SUBSPAN.match(line)
        if s:
            ops = [o.strip() for o in s.group(3).split(',')]
            sizes = ', '.join(ops[2:])
            line = '%s%s = memref.view %s[%s][%s] : memref<?xi8> to %s' % (
                s.group(1), s.group(2), ops[0], ops[1], sizes, s.group(5))
        r = re.match(r'^(\s*)(?:func\.)?return$', line)
        if inside and r:
            line = r.group(1) + 'gpu.return'
        out.append(line)
    if not converted:
        return lines
    # wrap the module's body into a gpu.module of a container module
    text = '\n'.join(out)
    m = re.search(r'^module( attributes \{[^\n]*\})? \{$', text, re.M)
    if not m:
        return None
    end = text.rstrip().rfind('}')
    body = text[m.end():end]
    return (text[:m.start()] + 'module attributes {gpu.container_module} {\n'
            '  gpu.module @kernels {' + body + '  }\n}\n').split('\n')


def hoist_workgroup_allocs(lines, notes):
    """Top-level workgroup memref.alloc of a gpu.func -> workgroup attribution."""
    out = []
    func_at = -1     # index in `out` of the current gpu.func header
    func_indent = ''
    attrs = []
    for line in lines:
        m = re.match(r'^(\s*)gpu\.func @([\w$.-]+)\(', line)
        if m:
            func_at, func_indent, attrs = len(out), m.group(1), []
            out.append(line)
            continue
        a = WG_ALLOC.match(line)
        if a and func_at >= 0 and len(a.group(1)) == len(func_indent) + 2:
            attrs.append('%s : %s' % (a.group(2), a.group(3)))
            continue
        if func_at >= 0 and line == func_indent + '}':
            if attrs:
                h = out[func_at]
                open_i = h.index('(', h.index('@'))
                close_i = matching_paren(h, open_i)
                if h[close_i + 1:].startswith(' workgroup('):
                    w_close = matching_paren(h, close_i + 11)
                    h = h[:w_close] + ', ' + ', '.join(attrs) + h[w_close:]
                else:
                    h = h[:close_i + 1] + ' workgroup(' + ', '.join(attrs) + ')' + h[close_i + 1:]
                out[func_at] = h
                notes.append('%d workgroup alloc as attribution' % len(attrs))
            func_at = -1
        out.append(line)
    return out


def global_memrefs(text, notes):
    """memref types without a memory space -> #gpu.address_space<global>."""
    out = []
    i = 0
    changed = False
    while True:
        j = text.find('memref<', i)
        if j < 0:
            out.append(text[i:])
            break
        k = j + len('memref')
        depth = 0
        end = -1
        for e in range(k, len(text)):
            if text[e] in '<[(':
                depth += 1
            elif text[e] in '>])':
                depth -= 1
                if depth == 0:
                    end = e
                    break
        if end < 0:
            out.append(text[i:])
            break
        inner = text[k + 1:end]
        out.append(text[i:end])
        if 'address_space' not in inner:
            out.append(', #gpu.address_space<global>')
            changed = True
        i = end
    if changed:
        notes.append('global memrefs')
    return ''.join(out)


def known_block_size(lines, notes):
    """gpu.known_block_size on a gpu.func -> its inherent known_block_size."""
    out = []
    for line in lines:
        m = re.match(r'^\s*gpu\.func @([\w$.-]+)\(.*\bkernel\b', line)
        if m:
            if 'gpu.known_block_size' in line:
                line = line.replace('gpu.known_block_size', 'known_block_size')
                notes.append('known_block_size')
            elif 'known_block_size' not in line:
                add = 'known_block_size = array<i32: 64, 1, 1>'
                if ' attributes {' in line:
                    line = line.replace(' attributes {', ' attributes {%s, ' % add, 1)
                else:
                    line = line[:line.rindex('{')] + 'attributes {%s} {' % add
                notes.append('known_block_size 64x1x1 added')
        out.append(line)
    return out


def prepare(src, dst, mlir_opt):
    r = subprocess.run([mlir_opt, '--allow-unregistered-dialect', src],
                       capture_output=True, text=True)
    if r.returncode != 0:
        first = (r.stderr.strip().splitlines() or ['?'])[0]
        print('skip mlir-opt cannot parse it: ' + first)
        return 0
    lines = r.stdout.split('\n')
    notes = []
    lines = rewrite_dispatch(lines, notes)
    if lines is None:
        print('skip no module to wrap the IREE dispatch function in')
        return 0
    text = '\n'.join(lines)
    if 'stream.' in text:
        print('skip stream dialect operations other than binding.subspan')
        return 0
    lines = hoist_workgroup_allocs(lines, notes)
    lines = known_block_size(lines, notes)
    text = '\n'.join(lines)
    if re.search(r'memref\.alloc\(\) : memref<[^\n]*address_space<workgroup>>', text):
        print('skip workgroup memref.alloc inside a region (cannot become an attribution)')
        return 0
    text = global_memrefs(text, notes)
    kernels = re.findall(r'gpu\.func @([\w$.-]+)\([^\n]*\bkernel\b', text)
    if not kernels:
        print('skip no gpu.func kernel')
        return 0
    with open(dst, 'w') as f:
        f.write(text)
    for k in kernels:
        print('kernel ' + k)
    for n in notes:
        print('note ' + n)
    return 0


def extract(src, dst):
    with open(src) as f:
        lines = f.read().split('\n')
    out = []
    inside = False
    for line in lines:
        if line.startswith('#'):
            out.append(line)  # attribute aliases (#mmra_tag = ...)
            continue
        m = re.match(r'^  gpu\.module @[\w$.-]+(?: \[[^\n]*\])?( attributes \{.*\})? \{$', line)
        if m:
            inside = True
            out.append('module%s {' % (m.group(1) or ''))
            continue
        if inside and line == '  }':
            out.append('}')
            inside = False
            continue
        if inside:
            out.append(line[2:])
    if not out:
        sys.stderr.write('%s: no gpu.module\n' % src)
        return 1
    with open(dst, 'w') as f:
        f.write('\n'.join(out) + '\n')
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == 'prepare':
        return prepare(argv[2], argv[3], argv[4])
    if len(argv) == 4 and argv[1] == 'extract':
        return extract(argv[2], argv[3])
    sys.stderr.write('usage: vs_llvm_prep.py prepare IN OUT MLIR_OPT | extract IN OUT\n')
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
