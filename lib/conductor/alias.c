/* lib/conductor/alias.c — a small alias analysis for the move checks: two
   accesses with the same address registers (same values: nothing between
   them writes those registers), the same descriptor or base, and constant
   offsets whose byte ranges do not overlap are disjoint; the same registers
   and overlapping ranges are the same memory; anything else may alias. */
#include "conductor_internal.h"

#include <string.h>

/* Is operand k a data operand (the value stored or loaded), not an address? */
static int is_data_operand(const wa_isa_info *info, unsigned k)
{
    const char *nm = info->operands[k].name;
    if (!nm)
        return 1;
    return strncmp(nm, "vdata", 5) == 0 || strncmp(nm, "data", 4) == 0 ||
           strncmp(nm, "sdata", 5) == 0 || strcmp(nm, "sdst") == 0 || strcmp(nm, "vdst") == 0;
}

typedef struct access {
    int known;            /* offsets and size are exact */
    int64_t offset;       /* constant byte offset */
    unsigned size;        /* bytes */
} access;

static void describe(access *a, const wa_instr *in)
{
    const wa_isa_info *info = wa_isa(in->op);
    memset(a, 0, sizeof(*a));
    if (info->flags & (WA_IF_DS_2ADDR | WA_IF_LDS_DMA) || info->format == WA_FMT_FLAT)
        return;
    a->offset = in->mods.offset;
    unsigned data = 0;
    for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
        const wa_operand *o = &in->ops[k];
        if (is_data_operand(info, k)) {
            if (o->kind == WA_OPND_VIRT || o->kind == WA_OPND_PHYS)
                data = data > o->count ? data : o->count;
        } else if (o->kind == WA_OPND_IMM) {
            a->offset += o->imm.i;
        }
    }
    if (!data)
        return;
    a->size = data * 4;
    a->known = 1;
}

/* Same address registers, in the same positions? */
static int same_address_regs(const wa_instr *x, const wa_instr *y)
{
    if (x->op != y->op && wa_isa(x->op)->format != wa_isa(y->op)->format)
        return 0;
    const wa_isa_info *ix = wa_isa(x->op), *iy = wa_isa(y->op);
    /* compare the address operands by name */
    unsigned matched = 0;
    for (unsigned k = 0; k < x->nops && k < ix->num_operands; k++) {
        if (is_data_operand(ix, k) || x->ops[k].kind == WA_OPND_IMM)
            continue;
        int found = 0;
        for (unsigned j = 0; j < y->nops && j < iy->num_operands; j++) {
            if (is_data_operand(iy, j) || strcmp(ix->operands[k].name, iy->operands[j].name) != 0)
                continue;
            const wa_operand *a = &x->ops[k], *b = &y->ops[j];
            if (a->kind != b->kind || a->id != b->id || a->first != b->first ||
                a->count != b->count || a->reg_class != b->reg_class)
                return 0;
            found = 1;
        }
        if (!found)
            return 0;
        matched++;
    }
    /* y has no extra address register either */
    unsigned ny = 0;
    for (unsigned j = 0; j < y->nops && j < iy->num_operands; j++)
        if (!is_data_operand(iy, j) && y->ops[j].kind != WA_OPND_IMM)
            ny++;
    return ny == matched;
}

/* Does any item strictly between the two positions write an address register of `x`? */
static int address_rewritten(const wa_schedule *s, unsigned a, unsigned b)
{
    unsigned pa = s->pos[a], pb = s->pos[b];
    unsigned lo = pa < pb ? pa : pb, hi = pa < pb ? pb : pa;
    const wa_instr *x = &s->orig[a];
    const wa_isa_info *ix = wa_isa(x->op);
    unsigned addr[64], na = 0;
    for (unsigned k = 0; k < x->nops && k < ix->num_operands; k++)
        if (!is_data_operand(ix, k))
            na += wa_unit_map_operand(&s->units, &x->ops[k], addr + na, 64 - na);
    if (!na)
        return 0;
    wa_sunits su;
    memset(&su, 0, sizeof(su));
    int hit = 0;
    for (unsigned i = lo + 1; i < hi && !hit; i++) {
        if (wa_sched_units(&su, s, &s->orig[s->at[i]]) != WA_OK) {
            hit = 1;
            break;
        }
        for (unsigned d = 0; d < su.ndef && !hit; d++)
            for (unsigned k = 0; k < na; k++)
                if (su.def[d] == addr[k])
                    hit = 1;
    }
    wa_sunits_free(&su, s->ctx);
    return hit;
}

int wa_sched_alias(const wa_schedule *s, unsigned a, unsigned b, unsigned *space_out)
{
    (void)space_out;
    const wa_instr *x = &s->orig[a], *y = &s->orig[b];
    access ax, ay;
    describe(&ax, x);
    describe(&ay, y);
    if (!ax.known || !ay.known || !same_address_regs(x, y) || address_rewritten(s, a, b))
        return WA_ALIAS_MAY;
    int64_t xe = ax.offset + (int64_t)ax.size, ye = ay.offset + (int64_t)ay.size;
    if (xe <= ay.offset || ye <= ax.offset)
        return WA_ALIAS_DISJOINT;
    return WA_ALIAS_MUST;
}

int wa_sched_memory_conflict(const wa_schedule *s, unsigned a, unsigned b, unsigned *space_out)
{
    const wa_snode *na = &s->node[a], *nb = &s->node[b];
    unsigned both = (na->wr & (nb->rd | nb->wr)) | (nb->wr & (na->rd | na->wr));
    if (!both)
        return -1;
    if (space_out)
        *space_out = both;
    return wa_sched_alias(s, a, b, space_out);
}
