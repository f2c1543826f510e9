"""Operands: registers, immediates, special registers, labels, `off`.

An `Operand` is a plain value. Builder methods also accept Python values:
ints and floats are immediates, None an absent operand, and strings are read
like the text form: "v5", "s[0:1]", "a[0:3]", "vcc", "exec_lo", "m0", "off".
"""

import re
from dataclasses import dataclass, field

from ._lib import WaOperand, lib, names

REG_CLASSES = ("none", "vgpr", "sgpr", "agpr")  # wa_reg_class
SPECIALS = names(lib.wa_special_name)  # wa_special, in order
KINDS = ("none", "virt", "phys", "special", "imm", "fimm", "label", "off")
_PREFIX = {"vgpr": "v", "sgpr": "s", "agpr": "a"}
_CLASS_OF_PREFIX = {"v": "vgpr", "s": "sgpr", "a": "agpr"}
_REG_RE = re.compile(r"([vsa])(?:(\d+)|\[(\d+):(\d+)\])")


def reg_class_value(cls):
    """"vgpr"/"sgpr"/"agpr" (or "v"/"s"/"a") -> wa_reg_class."""
    cls = _CLASS_OF_PREFIX.get(cls, cls)
    if cls in ("vgpr", "sgpr", "agpr"):
        return REG_CLASSES.index(cls)
    raise ValueError(f"unknown register class {cls!r} (vgpr, sgpr, agpr)")


@dataclass(frozen=True)
class Operand:
    """An instruction operand.

    `kind` is one of "none", "virt", "phys", "special", "imm", "fimm", "label",
    "off". Registers have `reg_class` ("vgpr", "sgpr", "agpr"), `id` (virtual
    register id or first physical register), `first` (virtual: first component)
    and `count` (registers referenced). Immediates have `value`; special
    registers and labels keep their name in `name`. Indexing a register gives
    components: `r[1]`, `r[0:2]` (Python slices: components 0 and 1)."""

    kind: str
    reg_class: str = "none"
    id: int = 0
    count: int = 0
    first: int = 0
    value: int | float | None = None
    name: str | None = field(default=None, compare=False)
    size: int | None = field(default=None, compare=False)  # whole virtual register

    # ---- constructors -------------------------------------------------------------------

    @classmethod
    def none(cls):
        """No operand."""
        return cls("none")

    @classmethod
    def imm(cls, value):
        """Integer (int) or floating-point (float) immediate."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"immediate must be an int or a float, got {value!r}")
        return cls("imm" if isinstance(value, int) else "fimm", value=value)

    @classmethod
    def phys(cls, reg_class, first, count=1):
        """Physical registers: Operand.phys("sgpr", 0, 2) is s[0:1]."""
        reg_class_value(reg_class)  # rejects unknown classes now, not at the build
        return cls("phys", _CLASS_OF_PREFIX.get(reg_class, reg_class), first, count)

    @classmethod
    def special(cls, name):
        """vcc, vcc_lo, vcc_hi, exec, exec_lo, exec_hi, m0, scc."""
        if name not in SPECIALS:
            raise ValueError(f"unknown special register {name!r} ({', '.join(SPECIALS)})")
        return cls("special", "sgpr", SPECIALS.index(name), name=name)

    @classmethod
    def off(cls):
        """The `off` keyword (no address register)."""
        return cls("off")

    @classmethod
    def parse(cls, text):
        """Reads "v5", "s[0:1]", "vcc", "off", "42", "1.5"."""
        t = text.strip()
        if t == "off":
            return cls.off()
        if t in SPECIALS:
            return cls.special(t)
        m = _REG_RE.fullmatch(t)
        if m:
            if m.group(2) is not None:
                return cls.phys(m.group(1), int(m.group(2)))
            lo, hi = int(m.group(3)), int(m.group(4))
            if hi < lo:
                raise ValueError(f"register range {t!r} is reversed")
            return cls.phys(m.group(1), lo, hi - lo + 1)
        try:
            return cls.imm(int(t, 0))
        except ValueError:
            pass
        try:
            return cls.imm(float(t))
        except ValueError:
            raise ValueError(f"cannot read operand {text!r}") from None

    # ---- views --------------------------------------------------------------------------

    @property
    def is_register(self):
        """True for virtual and physical registers."""
        return self.kind in ("virt", "phys")

    def sub(self, first, count=1):
        """Components [first, first+count) of a register (relative to this operand)."""
        c = lib.wa_opnd_sub(self._to_c(), first, count)
        if c.kind == 0:
            raise IndexError(f"components {first}..{first + count - 1} are outside {self}")
        return Operand._from_c(c, size=self.size)

    def __getitem__(self, key):
        if isinstance(key, slice):
            start, stop, step = key.indices(self.count)
            if step != 1 or stop <= start:
                raise IndexError("register slices are contiguous and non-empty")
            return self.sub(start, stop - start)
        if key < 0:
            key += self.count
        return self.sub(key, 1)

    def __str__(self):
        if self.kind == "virt":
            base = f"%{_PREFIX.get(self.reg_class, '?')}{self.id}"
            if self.first == 0 and self.count == self.size:
                return base
            if self.count == 1:
                return f"{base}[{self.first}]"
            return f"{base}[{self.first}:{self.first + self.count - 1}]"
        if self.kind == "phys":
            p = _PREFIX.get(self.reg_class, "?")
            if self.count == 1:
                return f"{p}{self.id}"
            return f"{p}[{self.id}:{self.id + self.count - 1}]"
        if self.kind == "special":
            return SPECIALS[self.id]
        if self.kind in ("imm", "fimm"):
            return repr(self.value)
        if self.kind == "label":
            return self.name or f"<label {self.id}>"
        return self.kind

    def __repr__(self):
        return f"Operand({str(self)!r})"

    # ---- C conversion -------------------------------------------------------------------

    def _to_c(self):
        c = WaOperand()
        c.kind = KINDS.index(self.kind)
        if self.kind in ("virt", "phys"):
            c.reg_class = reg_class_value(self.reg_class)
            c.count = self.count
            c.id = self.id
            c.first = self.first
        elif self.kind in ("special", "label"):
            c.id = self.id
        elif self.kind == "imm":
            c.imm.i = self.value
        elif self.kind == "fimm":
            c.imm.f = self.value
        return c

    @classmethod
    def _from_c(cls, c, size=None, label_name=None):
        kind = KINDS[c.kind] if c.kind < len(KINDS) else "none"
        if kind in ("virt", "phys"):
            return cls(kind, REG_CLASSES[c.reg_class], c.id, c.count, c.first,
                       size=size if kind == "virt" else None)
        if kind == "special":
            return cls.special(SPECIALS[c.id])
        if kind == "imm":
            return cls("imm", value=c.imm.i)
        if kind == "fimm":
            return cls("fimm", value=c.imm.f)
        if kind == "label":
            return cls("label", id=c.id, name=label_name)
        return cls(kind)


def as_operand(value):
    """Operand for an Operand, int, float, str or None."""
    if isinstance(value, Operand):
        return value
    if value is None:
        return Operand.none()
    if isinstance(value, str):
        return Operand.parse(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Operand.imm(value)
    raise TypeError(f"cannot use {value!r} as an operand")


# ---- encoded fields (the macros of isa.h and program.h) ------------------------------------

def hwreg(reg_id, offset=0, size=32):
    """The 16-bit hwreg(id, offset, size) field of s_getreg/s_setreg (WA_HWREG)."""
    if not (0 <= reg_id < 64 and 0 <= offset < 32 and 1 <= size <= 32):
        raise ValueError("hwreg: id 0..63, offset 0..31, size 1..32")
    return reg_id | offset << 6 | (size - 1) << 11


class dpp:
    """DPP controls for the `dpp=` modifier (the hardware's dpp_ctrl values)."""

    WAVE_SHL1 = 0x130
    WAVE_ROL1 = 0x134
    WAVE_SHR1 = 0x138
    WAVE_ROR1 = 0x13C
    ROW_MIRROR = 0x140
    ROW_HALF_MIRROR = 0x141
    ROW_BCAST15 = 0x142
    ROW_BCAST31 = 0x143

    @staticmethod
    def quad_perm(a, b, c, d):
        """Lane l of each quad reads lane (a, b, c, d)[l % 4] of the quad."""
        return (a & 3) | (b & 3) << 2 | (c & 3) << 4 | (d & 3) << 6

    @staticmethod
    def row_shl(n):
        """Within a row of 16 lanes, lane l reads lane l + n (n 1..15)."""
        return 0x100 + n

    @staticmethod
    def row_shr(n):
        """Within a row of 16 lanes, lane l reads lane l - n (n 1..15)."""
        return 0x110 + n

    @staticmethod
    def row_ror(n):
        """Rotates each row of 16 lanes right by n (1..15)."""
        return 0x120 + n
