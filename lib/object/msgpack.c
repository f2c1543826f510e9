/* lib/object/msgpack.c — MessagePack encodings (big-endian multi-byte fields). */
#include "msgpack.h"

static void put_be(wa_sb *sb, unsigned char lead, uint64_t v, unsigned bytes)
{
    char buf[9];
    buf[0] = (char)lead;
    for (unsigned i = 0; i < bytes; i++)
        buf[1 + i] = (char)(unsigned char)(v >> (8 * (bytes - 1 - i)));
    wa_sb_putn(sb, buf, bytes + 1);
}

void wa_mp_uint(wa_sb *sb, uint64_t v)
{
    if (v < 0x80)
        wa_sb_putc(sb, (char)v);
    else if (v <= 0xFF)
        put_be(sb, 0xcc, v, 1);
    else if (v <= 0xFFFF)
        put_be(sb, 0xcd, v, 2);
    else if (v <= 0xFFFFFFFFu)
        put_be(sb, 0xce, v, 4);
    else
        put_be(sb, 0xcf, v, 8);
}

void wa_mp_int(wa_sb *sb, int64_t v)
{
    if (v >= 0)
        wa_mp_uint(sb, (uint64_t)v);
    else if (v >= -32)
        wa_sb_putc(sb, (char)(unsigned char)(0xe0 | (unsigned)(v + 32)));
    else if (v >= INT8_MIN)
        put_be(sb, 0xd0, (uint64_t)v, 1);
    else if (v >= INT16_MIN)
        put_be(sb, 0xd1, (uint64_t)v, 2);
    else if (v >= INT32_MIN)
        put_be(sb, 0xd2, (uint64_t)v, 4);
    else
        put_be(sb, 0xd3, (uint64_t)v, 8);
}

void wa_mp_bool(wa_sb *sb, int v)
{
    wa_sb_putc(sb, (char)(unsigned char)(v ? 0xc3 : 0xc2));
}

void wa_mp_nil(wa_sb *sb)
{
    wa_sb_putc(sb, (char)(unsigned char)0xc0);
}

/* A string length or container count: in the lead byte (`fix` | n) below
   `fix_limit`, else after the lead of the 8-, 16- or 32-bit form (0: the form
   does not exist) that holds it. */
static void put_len(wa_sb *sb, unsigned fix, uint64_t fix_limit, const unsigned char lead[3],
                    uint64_t n)
{
    if (n < fix_limit)
        wa_sb_putc(sb, (char)(unsigned char)(fix | n));
    else if (lead[0] && n <= 0xFF)
        put_be(sb, lead[0], n, 1);
    else if (n <= 0xFFFF)
        put_be(sb, lead[1], n, 2);
    else
        put_be(sb, lead[2], n, 4);
}

void wa_mp_strn(wa_sb *sb, const char *s, size_t n)
{
    static const unsigned char lead[3] = { 0xd9, 0xda, 0xdb };
    put_len(sb, 0xa0, 32, lead, n);
    wa_sb_putn(sb, s, n);
}

void wa_mp_str(wa_sb *sb, const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    wa_mp_strn(sb, s, n);
}

void wa_mp_map(wa_sb *sb, uint32_t n)
{
    static const unsigned char lead[3] = { 0, 0xde, 0xdf };
    put_len(sb, 0x80, 16, lead, n);
}

void wa_mp_array(wa_sb *sb, uint32_t n)
{
    static const unsigned char lead[3] = { 0, 0xdc, 0xdd };
    put_len(sb, 0x90, 16, lead, n);
}
