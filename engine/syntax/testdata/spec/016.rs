// burn/extensions.md 1.6 #2
#[derive(ExtensionType)]
pub enum Operand<B: burn::backend::Backend> {
    Empty,
    Full(FloatTensor<B>),
}

#[backend_extension(NdArray)]
pub trait PickOps: burn::backend::Backend {
    /// The operand is the only input, so only it can name a backend.
    fn pick(#[extension_type] choice: Operand<Self>) -> FloatTensor<Self>;
    /// `x` is a bare float, so it routes even when `choice` holds no tensor.
    fn mix_pick(x: FloatTensor<Self>, #[extension_type] choice: Operand<Self>) -> FloatTensor<Self>;
}

impl PickOps for NdArray {
    fn pick(choice: Operand<Self>) -> FloatTensor<Self> {
        match choice {
            Operand::Full(tensor) => {
                // The only variant that carries a tensor.
                tensor
            }
            Operand::Empty => unreachable!("routing panics before an empty operand gets here"),
        }
    }

    fn mix_pick(x: FloatTensor<Self>, _choice: Operand<Self>) -> FloatTensor<Self> {
        // Ignore the operand and hand back the bare input.
        x
    }
}
