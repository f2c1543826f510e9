/* include/waveasm/common.h — status codes, targets, register classes, export macros,
   and the memory rule shared by every module. */
#ifndef WAVEASM_COMMON_H
#define WAVEASM_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <waveasm/version.h>

#ifdef __cplusplus
#define WA_BEGIN_DECLS extern "C" {
#define WA_END_DECLS }
#else
#define WA_BEGIN_DECLS
#define WA_END_DECLS
#endif

#if defined(WAVEASM_BUILDING) && (defined(__GNUC__) || defined(__clang__))
#define WA_API __attribute__((visibility("default")))
#else
#define WA_API
#endif

WA_BEGIN_DECLS

/* Every function that can fail returns a wa_status. WA_OK is zero, errors are
   negative. After a failure the context holds at least one diagnostic with a
   message and, where one exists, a location (see context.h). */
typedef enum wa_status {
    WA_OK = 0,
    WA_E_INVALID = -1,     /* bad argument or option struct */
    WA_E_PARSE = -2,       /* malformed text input */
    WA_E_VALIDATE = -3,    /* program violates an IR or target rule */
    WA_E_UNSUPPORTED = -4, /* valid request the target or build cannot honour */
    WA_E_NOMEM = -5,       /* an allocation failed */
    WA_E_NOT_FOUND = -6,   /* unknown name, tag or index */
    WA_E_RANGE = -7,       /* number outside the allowed range */
    WA_E_IO = -8,          /* file could not be read or written */
    WA_E_ALLOC = -9,       /* register allocation impossible within limits */
    WA_E_INTERNAL = -10,   /* library bug: please report */
    WA_E_SIM_FAULT = -11,  /* simulated kernel: memory access outside what it may touch */
    WA_E_SIM_WAIT = -12,   /* simulated kernel: a missing s_waitcnt (data used in flight) */
    WA_E_SIM_HAZARD = -13, /* simulated kernel: too few wait states between two instructions */
    WA_E_SIM_LIMIT = -14   /* simulated kernel: instruction limit reached (endless loop?) */
} wa_status;

/* Static, never NULL: "ok", "invalid argument", ... ("unknown status" otherwise). */
WA_API const char *wa_status_string(wa_status status);

/* Hardware targets. All are wave64 CDNA parts. */
typedef enum wa_target {
    WA_TARGET_UNKNOWN = 0,
    WA_TARGET_GFX90A = 1,
    WA_TARGET_GFX942 = 2,
    WA_TARGET_GFX950 = 3
} wa_target;
#define WA_TARGET_COUNT 4

/* "gfx90a", "gfx942", "gfx950"; NULL for anything else. */
WA_API const char *wa_target_name(wa_target target);
/* Accepts "gfx90a", "gfx942", "gfx950" (case-sensitive). WA_E_NOT_FOUND otherwise;
   this function records no diagnostic because it takes no context. */
WA_API wa_status wa_target_from_name(wa_target *out, const char *name);

/* Register classes. Special registers (vcc, exec, m0, scc) are operands of
   their own kind, see program.h. */
typedef enum wa_reg_class {
    WA_REG_NONE = 0,
    WA_REG_VGPR = 1,
    WA_REG_SGPR = 2,
    WA_REG_AGPR = 3
} wa_reg_class;

/* Frees a buffer that the library handed to the caller (printed text, emitted
   assembly, ...). NULL-safe. The buffer remembers which allocator made it, so no
   context is needed. */
WA_API void wa_free(void *buffer);

WA_END_DECLS
#endif
