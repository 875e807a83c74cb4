// LaminaPNG: PNG decoding (any bit depth, palette, grey, interlaced) into
// CGImage and encoding of RGBA8 pictures, through libpng.
@_exported import LaminaCore
