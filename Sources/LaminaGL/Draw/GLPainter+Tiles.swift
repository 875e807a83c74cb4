import CEGL
import LaminaRender

extension GLPainter {
    /// The longest side of a multisample tile.
    ///
    /// An 8-sample tile costs 64 bytes a pixel (colour and depth-stencil
    /// samples), sixteen times its picture's own texels: 256 MiB at 2048 x
    /// 2048 (a GPU's; llvmpipe's 4 samples, half of it). Bounding the tile bounds what multisampling adds to a frame,
    /// however large the canvas and however many surfaces it has.
    static let multisampleTileSide = 2048

    /// Draws into single-sampled `picture` with multisampled edges: `draw`
    /// is called once per tile of the picture (one tile when it fits in
    /// `multisampleTileSide`) with a multisampled target standing for that
    /// window of it, which is then resolved into its place.
    ///
    /// Every render target of a frame is an ordinary texture, sized as the
    /// CPU backend's pixmaps are, and only the one pass being drawn has
    /// samples: GL's surfaces cost what the `RenderBudget` counts, plus one
    /// tile. A tile starts as the picture's pixels (every sample the
    /// pixel's value) unless the picture is clear, so a run of draws after
    /// a blur lands on the blurred picture as it would on the picture itself.
    func drawMultisampled(into picture: GLRenderTarget, _ draw: (GLRenderTarget) throws -> Void) throws {
        let side = Self.multisampleTileSide
        let tile = try targets.acquire(width: min(picture.width, side), height: min(picture.height, side), multisampled: true)
        defer {
            tile.window = nil
            try? targets.recycle(tile)
        }
        for y in stride(from: 0, to: picture.height, by: tile.height) {
            for x in stride(from: 0, to: picture.width, by: tile.width) {
                tile.window = .init(x: x, y: y, pictureWidth: picture.width, pictureHeight: picture.height)
                if picture.isClear {
                    try tile.clear()
                } else {
                    try copy(picture, into: tile)
                }
                try draw(tile)
                try tile.resolve(intoWindowOf: picture)
            }
        }
    }

    /// `picture`'s pixels under `tile`'s window, one for one.
    private func copy(_ picture: GLRenderTarget, into tile: GLRenderTarget) throws {
        guard let window = tile.window else { return }
        try fullscreenPass(.copy, sampling: picture, with: .nearest, into: tile) { program in
            program.set("u_origin", Float(window.x), Float(window.y))
        }
    }
}
