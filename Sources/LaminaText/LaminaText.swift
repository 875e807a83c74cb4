// LaminaText: the text of `CATextLayer`.
//
//   fonts     fontconfig finds faces by family name or pattern, with a
//             fallback list for characters the first face lacks; FreeType
//             opens them (Fonts/)
//   layout    styled runs, a simplified bidi, HarfBuzz shaping, line
//             breaking, truncation and alignment (Layout/)
//   raster    FreeType glyph bitmaps, cached, composited into the layer's
//             backing image (Raster/)
//
// `TextRenderer` ties them together and is what the snapshot calls through
// LaminaCore's `CATextLayerRasterizing`. `UIFont`, `CGFont` and the Core Text
// names in CoreText/ let the book's listings set fonts as they do on iOS.
