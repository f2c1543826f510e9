/* lib/object/msgpack.h — a MessagePack writer for the code object's metadata
   note: each value in its smallest encoding, strings with str8 (the current
   specification, as LLVM writes them). */
#ifndef WAVEASM_OBJECT_MSGPACK_H
#define WAVEASM_OBJECT_MSGPACK_H

#include "../core/core.h"

#include <stddef.h>
#include <stdint.h>

/* Bytes go to a string builder (it holds any byte; wa_sb_finish hands them out). */
void wa_mp_uint(wa_sb *sb, uint64_t v);
void wa_mp_int(wa_sb *sb, int64_t v);
void wa_mp_bool(wa_sb *sb, int v);
void wa_mp_nil(wa_sb *sb);
void wa_mp_str(wa_sb *sb, const char *s);
void wa_mp_strn(wa_sb *sb, const char *s, size_t n);
/* Headers: `n` entries (key, value pairs for a map) follow. */
void wa_mp_map(wa_sb *sb, uint32_t n);
void wa_mp_array(wa_sb *sb, uint32_t n);

#endif
