/// The text of the book's text listings.
public enum BookText {
    /// The placeholder paragraph that listings 6.2 to 6.4 show, as the
    /// example scenes (`examples/scenes/text-6-2.json`) give it.
    public static let loremIpsum = """
        Lorem ipsum dolor sit amet, consectetur adipiscing elit. Quisque massa arcu, eleifend vel \
        varius in, facilisis pulvinar leo. Nunc quis nunc at mauris pharetra condimentum ut ac neque. \
        Nunc elementum, libero ut porttitor dictum, diam odio congue lacus, vel fringilla sapien diam \
        at purus. Etiam suscipit pretium nunc sit amet lobortis
        """
}
