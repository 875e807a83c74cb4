import CEGL

/// The buffers every draw streams its vertices through: one vertex array with
/// a vec2 position at attribute 0 and an index buffer, refilled per draw
/// (glBufferData orphans the previous contents, so no draw waits on another),
/// one for path edges (`drawEdges`: a vec2 position and the vec4 edge each
/// vertex carries), and an empty vertex array for passes that generate their
/// own vertices.
final class GLVertexStream {
    let context: GLContext
    private let vertexArray: GLuint
    private let emptyVertexArray: GLuint
    private let vertexBuffer: GLuint
    private let indexBuffer: GLuint
    private let edgeVertexArray: GLuint
    private let edgeBuffer: GLuint

    init(context: GLContext) throws {
        try context.makeCurrent(for: "creating vertex buffers")
        self.context = context
        var arrays: [GLuint] = [0, 0, 0]
        glGenVertexArrays(3, &arrays)
        vertexArray = arrays[0]
        emptyVertexArray = arrays[1]
        edgeVertexArray = arrays[2]
        var buffers: [GLuint] = [0, 0, 0]
        glGenBuffers(3, &buffers)
        vertexBuffer = buffers[0]
        indexBuffer = buffers[1]
        edgeBuffer = buffers[2]
        context.activity.vertexArrays += 3
        context.activity.buffers += 3

        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
        glBindVertexArray(edgeVertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), edgeBuffer)
        let stride = GLsizei(Self.floatsPerEdgeVertex * MemoryLayout<Float>.stride)
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, nil)
        glEnableVertexAttribArray(1)
        glVertexAttribPointer(1, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride,
                              UnsafeRawPointer(bitPattern: 2 * MemoryLayout<Float>.stride))
        glBindVertexArray(0)
        try context.checkErrors("creating vertex buffers")
    }

    deinit {
        guard (try? context.makeCurrent(for: "deleting vertex buffers")) != nil else { return }
        glDeleteVertexArrays(3, [vertexArray, emptyVertexArray, edgeVertexArray])
        glDeleteBuffers(3, [vertexBuffer, indexBuffer, edgeBuffer])
    }

    /// Floats per vertex of `drawEdges`: x, y, then the edge's x0, y0, x1, y1.
    static let floatsPerEdgeVertex = 6

    /// Uploads `vertices` (`floatsPerEdgeVertex` floats each, six vertices
    /// a quad) and draws them as triangles.
    func drawEdges(_ vertices: [Float]) {
        glBindVertexArray(edgeVertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), edgeBuffer)
        glBufferData(GLenum(GL_ARRAY_BUFFER), vertices.count * MemoryLayout<Float>.stride, vertices, GLenum(GL_STREAM_DRAW))
        glDrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(vertices.count / Self.floatsPerEdgeVertex))
        glBindVertexArray(0)
    }

    /// Uploads `positions` (x, y pairs) and `indices`, then draws.
    func draw(mode: Int32, positions: [Float], indices: [UInt32]?) {
        upload(positions: positions, indices: indices)
        if let indices {
            glDrawElements(GLenum(mode), GLsizei(indices.count), GLenum(GL_UNSIGNED_INT), nil)
        } else {
            glDrawArrays(GLenum(mode), 0, GLsizei(positions.count / 2))
        }
        glBindVertexArray(0)
    }

    /// Uploads `positions` (x, y pairs) and `indices` and leaves the vertex
    /// array bound, for several draws from one upload (`drawUploaded`).
    func upload(positions: [Float], indices: [UInt32]?) {
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        glBufferData(
            GLenum(GL_ARRAY_BUFFER), positions.count * MemoryLayout<Float>.stride, positions,
            GLenum(GL_STREAM_DRAW))
        if let indices {
            glBufferData(
                GLenum(GL_ELEMENT_ARRAY_BUFFER), indices.count * MemoryLayout<UInt32>.stride, indices,
                GLenum(GL_STREAM_DRAW))
        }
    }

    /// Draws `count` uploaded indices from the first.
    func drawUploaded(mode: Int32, indexCount count: Int) {
        glBindVertexArray(vertexArray)
        glDrawElements(GLenum(mode), GLsizei(count), GLenum(GL_UNSIGNED_INT), nil)
    }

    /// Draws `count` uploaded vertices from `first`, without indices.
    func drawUploaded(mode: Int32, firstVertex first: Int, vertexCount count: Int) {
        glBindVertexArray(vertexArray)
        glDrawArrays(GLenum(mode), GLint(first), GLsizei(count))
    }

    /// Unbinds the vertex array after `drawUploaded` calls.
    func finishUploadedDraws() {
        glBindVertexArray(0)
    }

    /// Draws the three vertices of `fullscreen.vert`.
    func drawFullscreenTriangle() {
        glBindVertexArray(emptyVertexArray)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        glBindVertexArray(0)
    }
}
