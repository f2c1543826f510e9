"""Programs: one kernel in IR form, with its builder, text form, validation,
analyses, passes and assembly emission.

`Program` has one builder method per mnemonic of the library's ISA table
(`prog.v_add_u32(dst, a, b)`, `prog.buffer_load_dwordx4(data, voff, srd, 0,
offen=True)`), generated at import; `prog.emit(mnemonic, *operands, **mods)`
does the same by name.
"""

import ctypes
import inspect
from dataclasses import dataclass

from . import analysis, errors, isa, passes
from ._lib import (
    WaEmitOptions, WaEncodeOptions, WaInstrView, WaKernelArg, WaKernelResources, WaMods,
    WaObjectOptions, WaOperand, WaPrintOptions, WaValidateOptions, cstr, lib, mods_init, names, pystr, record_type,
    take_buffer, take_bytes,
)
from .context import Context, Handle, invalid, locked, target_name, target_value
from .operand import KINDS, REG_CLASSES, Operand, as_operand, reg_class_value

END = 0xFFFFFFFF
ABI_INPUTS = names(lib.wa_abi_input_name)  # wa_abi_input, in order
ARG_KINDS = names(lib.wa_arg_kind_name)
_ARG_FLAGS = {"const": 0x1, "restrict": 0x2, "volatile": 0x4}
_OFFSET_AUTO = 0xFFFFFFFF
_MISSING = object()  # an operand not given (None means "absent operand")
_VIRT, _LABEL = KINDS.index("virt"), KINDS.index("label")

# ---- modifiers ---------------------------------------------------------------------------

# wa_mods flag bits by keyword; the second spelling of a pair is gfx942's.
_MOD_FLAGS = {"offen": 0x01, "idxen": 0x02, "glc": 0x04, "sc0": 0x04, "slc": 0x08,
              "nt": 0x08, "scc": 0x10, "sc1": 0x10, "lds": 0x20, "bound_ctrl": 0x80,
              "clamp": 0x100, "sdwa": 0x200}
_MOD_DPP = 0x40
_MOD_FIELDS = ("offset", "offset1", "cbsz", "abid", "blgp", "op_sel", "op_sel_hi", "vmcnt",
               "lgkmcnt", "expcnt", "row_mask", "bank_mask", "neg", "abs", "neg_hi", "omod",
               "dst_sel", "dst_unused", "src0_sel", "src1_sel", "sext")
_MOD_DEFAULTS = {f: getattr(mods_init(), f) for f in _MOD_FIELDS}
MODIFIERS = tuple(_MOD_FLAGS) + _MOD_FIELDS + ("offset0", "dpp")


def _bits(value):
    # op_sel:[a,b,c] may be given as a list of bits.
    if isinstance(value, (list, tuple)):
        return sum((1 << i) for i, b in enumerate(value) if b)
    return value


def _check_field(key, ctype, value):
    # ctypes would wrap an out-of-range value silently.
    bits = 8 * ctypes.sizeof(ctype)
    signed = ctype(-1).value < 0
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if not lo <= value <= hi:
        raise invalid(f"modifier {key}={value} out of range ({lo}..{hi})")
    return value


_MOD_TYPES = dict(WaMods._fields_)


def make_mods(**mods):
    """A wa_mods from keyword modifiers (see MODIFIERS): flags as booleans
    (offen, idxen, glc/sc0, slc/nt, scc/sc1, lds, bound_ctrl, clamp, sdwa),
    `dpp=<control>`, and the fields offset (alias offset0), offset1, cbsz, abid,
    blgp, op_sel, op_sel_hi, neg, abs, neg_hi, sext (ints or lists of bits),
    omod, vmcnt, lgkmcnt, expcnt, row_mask, bank_mask and the SDWA selects
    dst_sel, dst_unused, src0_sel, src1_sel (hardware values)."""
    m = mods_init()
    for key, value in mods.items():
        if key in _MOD_FLAGS:
            if value:
                m.flags |= _MOD_FLAGS[key]
        elif key == "dpp":
            if value is not None:
                m.flags |= _MOD_DPP
                m.dpp_ctrl = _check_field(key, _MOD_TYPES["dpp_ctrl"], value)
        elif key in _MOD_FIELDS or key == "offset0":
            field = "offset" if key == "offset0" else key
            value = _bits(value)
            if value is None:
                value = _MOD_DEFAULTS[field]
            setattr(m, field, _check_field(key, _MOD_TYPES[field], value))
        else:
            raise TypeError(f"unknown modifier {key!r} (known: {', '.join(MODIFIERS)})")
    return m


def mods_dict(m):
    """The non-default modifiers of a wa_mods, as keywords make_mods accepts."""
    out = {}
    for key in ("offen", "idxen", "glc", "slc", "scc", "lds", "bound_ctrl", "clamp", "sdwa"):
        if m.flags & _MOD_FLAGS[key]:
            out[key] = True
    if m.flags & _MOD_DPP:
        out["dpp"] = m.dpp_ctrl
    for f in _MOD_FIELDS:
        if getattr(m, f) != _MOD_DEFAULTS[f]:
            out[f] = getattr(m, f)
    return out


# ---- records ----------------------------------------------------------------------------

KernelResources = record_type(
    "KernelResources", WaKernelResources,
    """What the kernel descriptor says: arch_vgprs, agprs, accum_offset,
    total_vgprs, next_free_sgpr, sgpr_count, vgpr_granules, sgpr_granules,
    user_sgprs, uses_vcc, waves_per_simd, kernarg_size, group_segment_size,
    rsrc1..rsrc3, kernel_code_properties.""")


@dataclass(frozen=True)
class KernelArg:
    """A kernel argument: name (None if unnamed), kind ("global_buffer",
    "by_value", ...), offset, size and align in bytes, and access flags."""

    name: str | None
    kind: str
    offset: int
    size: int
    align: int
    const: bool = False
    restrict: bool = False
    volatile: bool = False


@dataclass(frozen=True)
class Item:
    """One program item as it was when read: an "instruction", a "label" or a
    "comment". `op` is the OpInfo, `tag` the stable instruction tag (None for
    labels and comments), `operands` Operands, `mods` the non-default
    modifiers, `comment` the trailing comment (or the comment line's text),
    `line`/`col` the source position when parsed (0 otherwise)."""

    index: int
    kind: str
    op: isa.OpInfo
    tag: int | None
    operands: tuple
    mods: dict
    comment: str | None
    line: int
    col: int

    @property
    def mnemonic(self):
        """The opcode's mnemonic ("label" / "comment" for those items)."""
        return self.op.mnemonic


# ---- the program ------------------------------------------------------------------------

class Program(Handle):
    """One kernel. `Program(name, context=ctx)` starts an empty kernel for the
    context's target (a new Context when none is given), workgroup 64x1x1, the
    kernarg pointer and work-item id x as ABI inputs. Builder methods append
    (or insert at `set_insert_point`) and return the new instruction's tag."""

    _kind = "Program"

    def __init__(self, name, *, context=None):
        ctx = context if context is not None else Context()
        out = ctypes.c_void_p()
        ctx._call(lib.wa_program_create, ctypes.byref(out), ctx._h, cstr(name))
        self._adopt(ctx, out.value)

    def _adopt(self, ctx, ptr):
        self._context = ctx
        self._generation = 0   # bumped by every edit: liveness results go stale
        self._vreg_sizes = {}
        self._own(ptr, ctx._guard, lib.wa_program_destroy, (ctx,))
        return self

    @classmethod
    def parse(cls, text, *, file_name=None, context=None):
        """Parses one kernel in the text form (docs/text-format.md). ParseError
        carries file:line:col."""
        ctx = context if context is not None else Context()
        data = text.encode() if isinstance(text, str) else bytes(text)
        out = ctypes.c_void_p()
        ctx._call(lib.wa_program_parse, ctypes.byref(out), ctx._h, data, len(data),
                  cstr(file_name))
        return cls.__new__(cls)._adopt(ctx, out.value)

    @classmethod
    def parse_asm(cls, text, *, index=0, file_name=None, context=None):
        """Imports kernel number `index` from AMDGPU assembly as LLVM writes it
        (llc output): code, ABI inputs, LDS size, arguments and workgroup size.
        NotFoundError when the text has no kernel `index`."""
        ctx = context if context is not None else Context()
        data = text.encode() if isinstance(text, str) else bytes(text)
        out = ctypes.c_void_p()
        ctx._call(lib.wa_program_parse_asm, ctypes.byref(out), ctx._h, data, len(data),
                  cstr(file_name), index)
        return cls.__new__(cls)._adopt(ctx, out.value)

    @classmethod
    def parse_file(cls, path, *, context=None):
        """Reads and parses a kernel file ("-" for standard input)."""
        ctx = context if context is not None else Context()
        out = ctypes.c_void_p()
        ctx._call(lib.wa_program_parse_file, ctypes.byref(out), ctx._h, cstr(str(path)))
        return cls.__new__(cls)._adopt(ctx, out.value)

    @property
    def context(self):
        """The Context the program belongs to."""
        return self._context

    def clone(self):
        """A deep copy (tags and source positions included), same context."""
        out = ctypes.c_void_p()
        self._context._call(lib.wa_program_clone, ctypes.byref(out), self._h)
        return Program.__new__(Program)._adopt(self._context, out.value)

    def __eq__(self, other):
        """Same attributes, arguments, virtual registers and items (labels by
        name, source positions ignored)."""
        if not isinstance(other, Program):
            return NotImplemented
        with locked(self._context, other._context):
            return bool(lib.wa_program_equal(self._h, other._h))

    __hash__ = None  # equality follows the contents, which change

    # ---- plumbing ------------------------------------------------------------------------

    def _q(self, fn, *args):
        return self._context._query(fn, self._h, *args)

    def _edit_with(self, fn, *args):
        """Calls a function that may change the program (the liveness goes stale)."""
        try:
            return self._context._call(fn, *args)
        finally:
            self._generation += 1
            self._vreg_sizes.clear()  # ids are reused after an allocation is applied

    def _edit(self, fn, *args):
        return self._edit_with(fn, self._h, *args)

    def _vreg_size(self, vid):
        size = self._vreg_sizes.get(vid)
        if size is None:
            _, size, _ = self.vreg_info(vid)
            self._vreg_sizes[vid] = size
        return size

    def _wrap_operand(self, c):
        if c.kind == _VIRT:  # the whole register's size tells how to print it
            return Operand._from_c(c, size=self._vreg_size(c.id))
        if c.kind == _LABEL:
            return Operand._from_c(c, label_name=self.label_name(c.id))
        return Operand._from_c(c)

    # ---- attributes ----------------------------------------------------------------------

    @property
    def name(self):
        """Kernel name (a symbol)."""
        return pystr(self._q(lib.wa_program_name))

    @name.setter
    def name(self, value):
        self._edit(lib.wa_program_set_name, cstr(value))

    @property
    def target(self):
        """"gfx942", "gfx950" or "gfx90a"."""
        return target_name(self._q(lib.wa_program_target))

    @target.setter
    def target(self, value):
        self._edit(lib.wa_program_set_target, target_value(value))

    @property
    def workgroup_size(self):
        """(x, y, z) work-items."""
        out = (ctypes.c_uint * 3)()
        self._q(lib.wa_program_workgroup_size, out)
        return tuple(out)

    @workgroup_size.setter
    def workgroup_size(self, value):
        x, y, z = (tuple(value) + (1, 1))[:3]
        self._edit(lib.wa_program_set_workgroup_size, x, y, z)

    @property
    def lds_bytes(self):
        """Static LDS bytes."""
        return self._q(lib.wa_program_lds_bytes)

    @lds_bytes.setter
    def lds_bytes(self, value):
        self._edit(lib.wa_program_set_lds_bytes, value)

    @property
    def abi_inputs(self):
        """Preloaded ABI inputs, by name ("kernarg_ptr", "workitem_id_x", ...)."""
        mask = self._q(lib.wa_program_abi_inputs)
        return tuple(n for i, n in enumerate(ABI_INPUTS) if mask & (1 << i))

    @abi_inputs.setter
    def abi_inputs(self, value):
        mask = 0
        for name in value:
            if name not in ABI_INPUTS:
                raise invalid(f"unknown ABI input {name!r} ({', '.join(ABI_INPUTS)})")
            mask |= 1 << ABI_INPUTS.index(name)
        self._edit(lib.wa_program_set_abi_inputs, mask)

    def abi_reg(self, abi_input):
        """The physical register (Operand) holding an enabled ABI input:
        abi_reg("kernarg_ptr") is s[0:1] with nothing before it."""
        if abi_input not in ABI_INPUTS:
            raise invalid(f"unknown ABI input {abi_input!r} ({', '.join(ABI_INPUTS)})")
        out = WaOperand()
        self._context._call(lib.wa_program_abi_reg, ctypes.byref(out), self._h,
                            ABI_INPUTS.index(abi_input))
        return Operand._from_c(out)

    @property
    def user_sgpr_count(self):
        """Number of user SGPRs (before the system SGPRs)."""
        return self._q(lib.wa_program_user_sgpr_count)

    @property
    def abi_sgpr_count(self):
        """Number of preloaded SGPRs."""
        return self._q(lib.wa_program_abi_sgpr_count)

    def add_arg(self, name=None, kind="by_value", *, size=4, offset=None, align=0,
                const=False, restrict=False, volatile=False):
        """Appends a kernel argument (offset None: after the last one, aligned);
        returns its index. add_arg("out", "global_buffer", size=8)."""
        if kind not in ARG_KINDS:
            raise invalid(f"unknown argument kind {kind!r} ({', '.join(ARG_KINDS)})")
        flags = sum(bit for key, bit in _ARG_FLAGS.items()
                    if {"const": const, "restrict": restrict, "volatile": volatile}[key])
        arg = WaKernelArg(1, cstr(name), ARG_KINDS.index(kind),
                          _OFFSET_AUTO if offset is None else offset, size, align, flags)
        index = ctypes.c_uint()
        self._edit_with(lib.wa_program_add_arg, ctypes.byref(index), self._h, ctypes.byref(arg))
        return index.value

    @property
    def args(self):
        """The kernel arguments (KernelArg), in order."""
        out = []
        for i in range(self._q(lib.wa_program_arg_count)):
            a = WaKernelArg()
            self._context._call(lib.wa_program_arg, ctypes.byref(a), self._h, i)
            out.append(KernelArg(pystr(a.name), ARG_KINDS[a.kind], a.offset, a.size, a.align,
                                 **{k: bool(a.flags & b) for k, b in _ARG_FLAGS.items()}))
        return tuple(out)

    @property
    def kernarg_size(self):
        """Kernarg segment size in bytes."""
        return self._q(lib.wa_program_kernarg_size)

    # ---- registers and labels -------------------------------------------------------------

    def vreg(self, reg_class, size=1, align=0):
        """A new virtual register of `size` 32-bit registers ("vgpr", "sgpr",
        "agpr"); align 0 follows the target's tuple rule."""
        out = WaOperand()
        self._edit_with(lib.wa_program_vreg, ctypes.byref(out), self._h,
                        reg_class_value(reg_class), size, align)
        self._vreg_sizes[out.id] = size
        return Operand._from_c(out, size=size)

    def vgpr(self, size=1, align=0):
        """A new virtual VGPR (tuple)."""
        return self.vreg("vgpr", size, align)

    def sgpr(self, size=1, align=0):
        """A new virtual SGPR (tuple)."""
        return self.vreg("sgpr", size, align)

    def agpr(self, size=1, align=0):
        """A new virtual AGPR (tuple)."""
        return self.vreg("agpr", size, align)

    @property
    def vreg_count(self):
        """Number of virtual register ids in use (ids 0 .. count-1)."""
        return self._q(lib.wa_program_vreg_count)

    def vreg_info(self, vreg):
        """(class, size, align) of a virtual register (id or Operand); class
        "none" for an unused id."""
        vid = vreg.id if isinstance(vreg, Operand) else vreg
        cls, size, align = ctypes.c_int(), ctypes.c_uint(), ctypes.c_uint()
        self._context._call(lib.wa_program_vreg_info, ctypes.byref(cls), ctypes.byref(size),
                            ctypes.byref(align), self._h, vid)
        return REG_CLASSES[cls.value], size.value, align.value

    def label(self, name=None):
        """A new label (an Operand for branches); place it with `place`."""
        out = ctypes.c_uint32()
        self._edit_with(lib.wa_program_label_create, ctypes.byref(out), self._h, cstr(name))
        return Operand("label", id=out.value, name=self.label_name(out.value))

    def label_name(self, label):
        """Name of a label (Operand or id)."""
        lid = label.id if isinstance(label, Operand) else label
        return pystr(self._q(lib.wa_program_label_name, lid))

    @property
    def label_count(self):
        """Number of labels created."""
        return self._q(lib.wa_program_label_count)

    # ---- building ------------------------------------------------------------------------

    def emit(self, op, *operands, comment=None, **kwargs):
        """Appends instruction `op` (mnemonic, table id, opcode or OpInfo) with
        operands in table order (positional, or by their table names) and
        keyword modifiers (make_mods); `comment` is a trailing comment. Returns
        the instruction's tag. With lds=True a load becomes its `lds` form
        (buffer_load_*, gfx90a's global/scratch loads), which has no data operand;
        a FLAT/GLOBAL atomic given vdst first becomes its returning form (glc)."""
        info = isa.opinfo(op)
        if "pseudo" in info.flags:
            raise invalid(f"use place() and comment() for {info.mnemonic} items")
        if kwargs.get("lds") and "lds_dma" not in info.flags:
            info = isa.lds_form(info) or info
        ops = list(operands)
        if len(ops) != len(info.operand_names) and "lds_dma" not in info.flags:
            # a FLAT/GLOBAL atomic with a result (vdst first) shares its mnemonic
            info = isa.alt_form(info, len(ops)) or info
        names_ = info.operand_names
        if len(ops) > len(names_):
            raise TypeError(f"{info.mnemonic} takes {len(names_)} operands "
                            f"({', '.join(names_)}), got {len(ops)}")
        ops += [_MISSING] * (len(names_) - len(ops))
        for i, n in enumerate(names_):
            if n in kwargs and n not in MODIFIERS:
                if ops[i] is not _MISSING:
                    raise TypeError(f"{info.mnemonic}: operand {n!r} given twice")
                ops[i] = kwargs.pop(n)
        missing = [n for n, o in zip(names_, ops) if o is _MISSING]
        if missing:
            raise TypeError(f"{info.mnemonic} takes {len(names_)} operands "
                            f"({', '.join(names_)}); missing {', '.join(missing)}")
        mods = make_mods(**kwargs)
        arr = (WaOperand * max(len(ops), 1))(*(as_operand(o)._to_c() for o in ops))
        tag = ctypes.c_uint32()
        self._edit_with(lib.wa_build, ctypes.byref(tag), self._h, info.opcode, arr, len(ops),
                        ctypes.byref(mods))
        if comment is not None:
            self.set_comment(tag.value, comment)
        return tag.value

    def place(self, label):
        """Places a label (from `label()`) at the insert point."""
        self._edit(lib.wa_build_label, label.id if isinstance(label, Operand) else label)

    def comment(self, text):
        """Adds a comment line at the insert point."""
        self._edit(lib.wa_build_comment, cstr(text))

    def set_comment(self, tag, text):
        """Sets (None: removes) the trailing comment of instruction `tag`."""
        self._edit(lib.wa_program_set_comment, tag, cstr(text))

    # ---- inspecting and editing ----------------------------------------------------------

    def __len__(self):
        return self._q(lib.wa_program_size)

    def __getitem__(self, index):
        """Item `index` (negative indices count from the end)."""
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"item {index} out of range (program has {n})")
        v = WaInstrView()
        with self._context._guard:
            self._context._call(lib.wa_program_get, ctypes.byref(v), self._h, index)
            info = isa.OPCODES[v.opcode]
            # Copies: the view is the program's memory, valid until an edit.
            c_ops = [WaOperand.from_buffer_copy(v.operands[i]) for i in range(v.num_operands)]
            mods = mods_dict(v.mods.contents) if v.mods else {}
            comment, line, col, tag = pystr(v.comment), v.line, v.col, v.tag
        kind = {"LABEL": "label", "COMMENT": "comment"}.get(info.id, "instruction")
        return Item(index, kind, info, None if tag == errors.NO_TAG else tag,
                    tuple(self._wrap_operand(c) for c in c_ops), mods, comment, line, col)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def find_tag(self, tag):
        """Index of the instruction with `tag`; NotFoundError if none."""
        out = ctypes.c_uint()
        self._context._call(lib.wa_program_find_tag, ctypes.byref(out), self._h, tag)
        return out.value

    def set_insert_point(self, index=None):
        """Builders insert before item `index` from now on (None: append)."""
        self._edit(lib.wa_program_set_insert_point, END if index is None else index)

    def erase(self, index):
        """Removes item `index`."""
        self._edit(lib.wa_program_erase, index)

    def move(self, src, dst):
        """Moves item `src` so that it ends up at index `dst`."""
        self._edit(lib.wa_program_move, src, dst)

    def set_operand(self, index, position, value):
        """Replaces operand `position` of item `index`."""
        self._edit(lib.wa_program_set_operand, index, position, as_operand(value)._to_c())

    def set_mods(self, index, **mods):
        """Replaces the modifiers of item `index` (keywords as for emit)."""
        m = make_mods(**mods)
        self._edit(lib.wa_program_set_mods, index, ctypes.byref(m))

    # ---- text ----------------------------------------------------------------------------

    def text(self, *, tags=True, comments=True):
        """The text form; parse(text()) gives back an equal program."""
        opts = WaPrintOptions(1, (0x1 if tags else 0) | (0x2 if comments else 0))
        return self._context._text(lib.wa_program_print, self._h, ctypes.byref(opts))

    def __str__(self):
        return self.text()

    def __repr__(self):
        if self.closed:
            return "<waveasm.Program closed>"
        return f"<waveasm.Program {self.name} {self.target}, {len(self)} items>"

    def item_text(self, index, *, tags=True, comments=True):
        """One item as it appears in the text form, without indentation."""
        opts = WaPrintOptions(1, (0x1 if tags else 0) | (0x2 if comments else 0))
        buf = ctypes.POINTER(ctypes.c_char)()
        with self._context._guard:
            self._context._call(lib.wa_program_print_item, ctypes.byref(buf), self._h, index,
                                ctypes.byref(opts))
            return take_buffer(buf)

    # ---- validation and emission -----------------------------------------------------------

    def validate(self, *, physical=False, max_errors=0):
        """Checks the program against the ISA table and its target. Raises
        ValidationError (one diagnostic per problem); returns the warnings."""
        opts = WaValidateOptions(1, 0x1 if physical else 0, max_errors)
        n = ctypes.c_uint()
        with self._context._guard:
            self._context._call(lib.wa_program_validate, ctypes.byref(n), self._h,
                                ctypes.byref(opts))
            return self._context._diagnostics()

    def resources(self):
        """KernelResources of a physical program (registers, granules, rsrc words)."""
        r = WaKernelResources()
        self._context._call(lib.wa_kernel_resources_compute, ctypes.byref(r), self._h)
        return KernelResources.from_c(r)

    def emit_asm(self, *, tags=False, comments=True):
        """A complete assembly file (code, .amdhsa_kernel descriptor, code object
        v5 metadata) for llvm-mc. Needs physical registers."""
        opts = WaEmitOptions(1, (0x1 if tags else 0) | (0x2 if comments else 0), 5)
        return self._context._text(lib.wa_emit_asm, self._h, ctypes.byref(opts))

    def encode(self, *, validate=True, offsets=False):
        """The kernel's machine code (bytes, what llvm-mc assembles from emit_asm's
        code), encoded in process. Needs physical registers. offsets=True returns
        (code, item offsets): the byte offset of every program item."""
        n = len(self)
        offs = (ctypes.c_uint32 * max(n, 1))()
        opts = WaEncodeOptions(1, 0 if validate else 0x1,
                               ctypes.cast(offs, ctypes.POINTER(ctypes.c_uint32)) if offsets
                               else None)
        buf, size = ctypes.POINTER(ctypes.c_char)(), ctypes.c_size_t()
        self._context._call(lib.wa_encode_program, ctypes.byref(buf), ctypes.byref(size),
                            self._h, ctypes.byref(opts))
        code = take_bytes(buf, size.value)
        return (code, tuple(offs[:n])) if offsets else code

    def emit_object(self, *others):
        """The code object (bytes of an HSACO shared object, what llvm-mc and
        ld.lld -shared make from emit_asm's file), written in process: ready for
        hipModuleLoadData. Other programs of the same context and target given
        here go into the same object. Needs physical registers."""
        progs = (self,) + others
        arr = (ctypes.c_void_p * len(progs))(*[p._h for p in progs])
        opts = WaObjectOptions(1, 0)
        buf, size = ctypes.POINTER(ctypes.c_char)(), ctypes.c_size_t()
        self._context._call(lib.wa_emit_object, ctypes.byref(buf), ctypes.byref(size),
                            ctypes.cast(arr, ctypes.POINTER(ctypes.c_void_p)), len(progs),
                            ctypes.byref(opts))
        return take_bytes(buf, size.value)

    # ---- analyses --------------------------------------------------------------------------

    def liveness(self, *, ssa_check=False):
        """Computes a Liveness (blocks, loops, live segments, pressure);
        ssa_check=True also checks SSA form (ValidationError)."""
        return analysis.Liveness(self, ssa_check=ssa_check)

    def pressure_report(self, liveness=None):
        """The pressure report as text."""
        return (liveness or self.liveness()).report()

    def pressure_svg(self, liveness=None):
        """The pressure plot as an SVG document."""
        return (liveness or self.liveness()).svg()

    def regalloc(self, *, liveness=None, **options):
        """Allocates every virtual register; returns a RegallocResult (the
        program is unchanged until its apply()). Options: max_vgprs,
        max_sgprs, max_agprs, reserved_vgprs/_sgprs/_agprs (register numbers),
        coalesce, holes, check, and `liveness` computed from this program.
        AllocationError, with diagnostics naming the value, when it cannot fit."""
        handle = liveness._require_current(self) if liveness is not None else None
        opts = analysis.regalloc_options(liveness=handle, **options)
        out = ctypes.c_void_p()
        self._context._call(lib.wa_regalloc_run, ctypes.byref(out), self._h, ctypes.byref(opts))
        return analysis.RegallocResult()._init(self, out.value)

    def allocate(self, **options):
        """regalloc(**options) and apply(): the program becomes physical.
        Returns the RegallocResult (for its statistics and mapping)."""
        result = self.regalloc(**options)
        result.apply()
        return result

    def new_allocation(self):
        """An empty RegallocResult for the host's own allocation (assign, check, apply)."""
        out = ctypes.c_void_p()
        self._context._call(lib.wa_regalloc_result_create, ctypes.byref(out), self._h)
        return analysis.RegallocResult()._init(self, out.value)

    # ---- passes ----------------------------------------------------------------------------

    def pass_waitcnt(self, **options):
        """Inserts the s_waitcnt the program needs (barrier_vmem, barrier);
        returns PassStats."""
        return passes.run_pass(self, lib.wa_pass_waitcnt, passes.waitcnt_options(**options))

    def pass_hazards(self):
        """Inserts the fewest s_nop wait states for the target's hazard rules."""
        return passes.run_pass(self, lib.wa_pass_hazards, passes.hazard_options())

    def pass_peephole(self, **options):
        """Local rewrites (fuse, fold, moves, acc_init can be turned off)."""
        return passes.run_pass(self, lib.wa_pass_peephole, passes.peephole_options(**options))

    def pass_cse(self, **options):
        """Common subexpression elimination and loop-invariant hoisting (hoist)."""
        return passes.run_pass(self, lib.wa_pass_cse, passes.cse_options(**options))

    def pass_virtualize(self, **options):
        """Physical registers back to virtual ones, one per definition web, with
        the waits and nops removed (keep_waits, keep_nops keep them): assembly
        another compiler allocated can then go through the pipeline again."""
        return passes.run_pass(self, lib.wa_pass_virtualize, passes.virtualize_options(**options))

    def check_waitcnt(self, **options):
        """Independent waitcnt checker; ValidationError per missing wait."""
        passes.run_check(self, lib.wa_check_waitcnt, passes.waitcnt_options(**options))

    def check_hazards(self):
        """Independent hazard checker; ValidationError per missing wait state."""
        passes.run_check(self, lib.wa_check_hazards, passes.hazard_options())

    def run_stage(self, stage, **pipeline_options):
        """Runs one library stage ("cse", "peephole", "regalloc", "waitcnt",
        "hazards") with pipeline options; returns PassStats."""
        opts = passes.pipeline_options(**pipeline_options)
        stats = passes.WaPassStats()
        self._edit(lib.wa_run_stage, passes.stage_value(stage), ctypes.byref(opts),
                   ctypes.byref(stats))
        return passes.PassStats.from_c(stats)

    def compile(self, **pipeline_options):
        """Runs the default pipeline once (wa_compile): the program ends up
        physical, with waits and wait states, ready for emit_asm(). For
        per-stage statistics use a Pipeline."""
        opts = passes.pipeline_options(**pipeline_options)
        self._edit(lib.wa_compile, ctypes.byref(opts))
        return self

    def simulator(self, **options):
        """A Simulator for a copy of this program (see Simulator)."""
        from .sim import Simulator
        return Simulator(self, **options)


# ---- one builder method per mnemonic --------------------------------------------------------

def _make_builder(name, info):
    def build(self, *operands, **kwargs):
        return self.emit(info, *operands, **kwargs)

    build.__name__ = build.__qualname__ = name
    build.__doc__ = info.describe() + "\n\nReturns the new instruction's tag."
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)]
    params += [inspect.Parameter(o.name, inspect.Parameter.POSITIONAL_OR_KEYWORD)
               for o in info.operands]
    params += [inspect.Parameter("mods", inspect.Parameter.VAR_KEYWORD)]
    build.__signature__ = inspect.Signature(params)
    return build


def _install_builders():
    installed = {}
    for info in isa.OPCODES:
        if "pseudo" in info.flags:
            continue
        for name in (info.mnemonic, info.mnemonic_gfx90a):
            # Several rows can share a mnemonic (the lds forms): the library's
            # lookup says which one the name means.
            if name in installed or hasattr(Program, name):
                continue
            installed[name] = isa.lookup(name)
            setattr(Program, name, _make_builder(name, installed[name]))
    return tuple(sorted(installed))


BUILDERS = _install_builders()
