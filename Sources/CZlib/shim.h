// zlib, for the deflate stream of PNG image data.
#include <zlib.h>
