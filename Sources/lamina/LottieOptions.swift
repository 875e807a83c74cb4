import ArgumentParser

/// How to read Lottie archives, for the commands that draw scenes.
struct LottieOptions: ParsableArguments {
    @Option(help: "dotLottie (.lottie) and Lottie zips only: the animation to draw, by its id in the manifest (a Lottie zip's: its JSON file's name without .json). Default: the first.")
    var animation: String?
}
