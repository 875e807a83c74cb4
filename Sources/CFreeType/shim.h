// FreeType (glyph outlines and rasters), HarfBuzz (shaping) and fontconfig
// (font lookup by family or pattern), for CATextLayer.
#ifndef LAMINA_CFREETYPE_SHIM_H
#define LAMINA_CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_GLYPH_H
#include FT_STROKER_H
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ft.h>
#include <fontconfig/fontconfig.h>
#endif
