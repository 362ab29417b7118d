// Cairo's declarations (types, constants, prototypes) for the TallyCairo backend. Nothing links
// libcairo: TallyCairo loads it when a PNG or PDF is first drawn (CairoLibrary.swift), so the
// target has no pkg-config name, whose flags would link it, and finds the headers itself:
// under /usr/include on Linux, and under Homebrew's prefixes on macOS.
#if __has_include(<cairo/cairo.h>)
#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>
#elif __has_include("/opt/homebrew/include/cairo/cairo.h")
#include "/opt/homebrew/include/cairo/cairo.h"
#include "/opt/homebrew/include/cairo/cairo-pdf.h"
#else
#include "/usr/local/include/cairo/cairo.h"
#include "/usr/local/include/cairo/cairo-pdf.h"
#endif
