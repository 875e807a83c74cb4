// LaminaCore: the Core Animation model. Layers and their tree, colours, images,
// and the CGContext API that draw(in:) receives. No GL, no files, no JSON here.
@_exported import LaminaGeometry
