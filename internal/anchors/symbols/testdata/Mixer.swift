import Foundation

/// Mixes the input channels.
struct Mixer {
    let channels: Int

    func blend(first: Double, second: Double) -> Double {
        let total = first + second
        return total / Double(channels)
    }
}

enum Mode {
    case stereo
    case mono
}
