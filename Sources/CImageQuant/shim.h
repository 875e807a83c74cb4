// libimagequant (Debian's libimagequant-dev): palettes for GIF frames.
#include <libimagequant.h>
