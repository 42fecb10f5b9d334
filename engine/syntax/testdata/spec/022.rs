// burn/extensions.md 1.6 #8
#[backend_extension(Wgpu, Cuda, Autodiff)]
pub trait Backend: burn::backend::Backend {
    // A derived struct as the return type.
    fn propose(features: FloatTensor<Self>) -> Boxes<Self>;

    // The same struct coming back in, next to a plain scalar.
    fn keep_confident(#[extension_type] boxes: Boxes<Self>, min_score: f32) -> Boxes<Self>;
}
