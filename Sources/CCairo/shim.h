// Cairo's image, PNG and PDF interfaces, for the TallyCairo backend.
#include <cairo.h>
#include <cairo-pdf.h>
