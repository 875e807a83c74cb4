// LaminaPNG: PNG decoding (any bit depth, palette, grey, interlaced) into
// CGImage through libpng, and encoding of RGBA8 pictures through libdeflate.
//
//   PNGDecoder               any PNG -> CGImage, with size limits and PNGError
//   PNGEncoder               CGImage -> PNG bytes or an atomically written file
//   CGImage.pngData()        the encoder as a convenience
//
// Inside: PNGChunkScanner checks framing before libpng sees the data,
// Interlaced16BitDecoding works around a libpng bug, PNGWriter filters rows
// and compresses them with libdeflate, PNGChunk frames chunks (for APNG too),
// FileIO reads and atomically writes files.
@_exported import LaminaCore
