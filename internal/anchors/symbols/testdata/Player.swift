import AVFoundation

public protocol Playable {
    associatedtype Media
    var isPlaying: Bool { get }
    func play(from offset: TimeInterval) async throws
}

public final class Player: Playable {
    public typealias Media = URL

    private(set) var isPlaying = false
    var volume: Float = 1.0 {
        didSet { clamp() }
    }

    public init(url: URL) {
        self.url = url
    }

    public convenience init() {
        self.init(url: URL(fileURLWithPath: "/dev/null"))
    }

    public func play(from offset: TimeInterval) async throws {
        isPlaying = true
        try await engine.start(at: offset)
    }

    func seek(to time: Int) {}
    func seek(to time: Double) {}
    func move(_ delta: Int) {}

    private func clamp() {
        volume = min(max(volume, 0), 1)
    }

    class Queue {
        struct Entry {
            func describe() -> String {
                return """
                    entry
                    """
            }
        }
    }

    deinit {
        engine.stop()
    }
}

extension Player {
    var title: String { url.lastPathComponent }
    func stop() { isPlaying = false }
}
