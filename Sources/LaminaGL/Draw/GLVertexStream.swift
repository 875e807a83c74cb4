import CEGL

/// The buffers every draw streams its vertices through: one vertex array with
/// a vec2 position at attribute 0 and an index buffer, refilled per draw
/// (glBufferData orphans the previous contents, so no draw waits on another),
/// and an empty vertex array for passes that generate their own vertices.
final class GLVertexStream {
    let context: GLContext
    private let vertexArray: GLuint
    private let emptyVertexArray: GLuint
    private let vertexBuffer: GLuint
    private let indexBuffer: GLuint

    init(context: GLContext) throws {
        try context.makeCurrent(for: "creating vertex buffers")
        self.context = context
        var arrays: [GLuint] = [0, 0]
        glGenVertexArrays(2, &arrays)
        vertexArray = arrays[0]
        emptyVertexArray = arrays[1]
        var buffers: [GLuint] = [0, 0]
        glGenBuffers(2, &buffers)
        vertexBuffer = buffers[0]
        indexBuffer = buffers[1]
        context.activity.vertexArrays += 2
        context.activity.buffers += 2

        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
        glBindVertexArray(0)
        try context.checkErrors("creating vertex buffers")
    }

    deinit {
        guard (try? context.makeCurrent(for: "deleting vertex buffers")) != nil else { return }
        glDeleteVertexArrays(2, [vertexArray, emptyVertexArray])
        glDeleteBuffers(2, [vertexBuffer, indexBuffer])
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
