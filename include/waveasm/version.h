/* include/waveasm/version.h — library version, compile time and run time. */
#ifndef WAVEASM_VERSION_H
#define WAVEASM_VERSION_H

#define WA_VERSION_MAJOR 0
#define WA_VERSION_MINOR 2
#define WA_VERSION_PATCH 0
#define WA_VERSION_STRING "0.2.0"

/* One number that orders versions: major * 10000 + minor * 100 + patch. */
#define WA_VERSION_NUMBER \
    (WA_VERSION_MAJOR * 10000 + WA_VERSION_MINOR * 100 + WA_VERSION_PATCH)

#endif
