// burn/extensions.md 1.6 #7
#[derive(ExtensionType)]
pub struct Boxes<B: Backend> {
    pub corners: FloatTensor<B>,
    pub confidence: FloatTensor<B>,
    /// Plain fields like this one are carried over as they are.
    pub frame: u64,
}

#[derive(ExtensionType)]
pub enum Selection<B: Backend> {
    All,
    Rows { weights: FloatTensor<B>, ids: IntTensor<B> },
    Single(FloatTensor<B>),
}
