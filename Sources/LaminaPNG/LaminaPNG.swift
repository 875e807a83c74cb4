// LaminaPNG: PNG decoding (any bit depth, palette, grey, interlaced) into
// CGImage and encoding of RGBA8 pictures, through libpng.
//
//   PNGDecoder               any PNG -> CGImage, with size limits and PNGError
//   PNGEncoder               CGImage -> PNG bytes or an atomically written file
//   CGImage.pngData()        the encoder as a convenience
//
// Inside: PNGChunkScanner checks framing before libpng sees the data,
// Interlaced16BitDecoding works around a libpng bug, LibPNGWriter drives
// libpng's writer, FileIO reads and atomically writes files.
@_exported import LaminaCore
