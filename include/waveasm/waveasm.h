/* include/waveasm/waveasm.h — umbrella header: everything public. */
#ifndef WAVEASM_WAVEASM_H
#define WAVEASM_WAVEASM_H

#include <waveasm/version.h>
#include <waveasm/common.h>
#include <waveasm/context.h>
#include <waveasm/isa.h>
#include <waveasm/program.h>
#include <waveasm/text.h>
#include <waveasm/validate.h>
#include <waveasm/emit.h>
#include <waveasm/encode.h>
#include <waveasm/object.h>
#include <waveasm/liveness.h>
#include <waveasm/regalloc.h>
#include <waveasm/sim.h>
#include <waveasm/passes.h>
#include <waveasm/conductor.h>

WA_BEGIN_DECLS

/* Version of the library actually loaded (may differ from WA_VERSION_* if the
   host was compiled against other headers). */
WA_API const char *wa_version_string(void);
WA_API unsigned wa_version_number(void);

WA_END_DECLS
#endif
