// Item-level errors and constructs outside the playground's subset.
use burn::tensor::Tensor
fn /* ERROR "^expected `;`, found keyword `fn`$" */ helper() {}

unsafe /* ERROR unsupported-syntax "^`unsafe impl` blocks are not supported by the playground$" */ impl Send for Wrapper {}
unsafe /* ERROR unsupported-syntax "^`unsafe trait`s are not supported by the playground$" */ trait Raw {}
impl ! /* ERROR unsupported-syntax "^negative impls are not supported by the playground$" */ Sync for Wrapper {}
extern crate /* ERROR HERE syntax-error "^expected identifier, found " */ 3;
extern /* ERROR unsupported-syntax "^`extern` blocks are not supported" */ "C" { fn abs(x: i32) -> i32; }
union /* ERROR unsupported-syntax "^unions are not supported" */ Bits { f: f32, u: u32 }
macro_rules! double { ($x:expr) => { $x * 2 }; }
macro_rules! unbalanced { $ /* ERROR "^invalid macro matcher; matchers must be contained in balanced delimiters$" */ x => {} }
macro_rules! bare { () => x /* ERROR "^macro rhs must be delimited$" */ }
macro_rules! arrowless { () { /* ERROR "^expected `=>`, found `\{`$" */ } }
lazy_static! { static ref X: u8 = 1; }
auto /* ERROR unsupported-syntax "^auto traits are not supported" */ trait Marker {}
trait Alias = /* ERROR unsupported-syntax "^trait aliases are not supported" */ Clone;

fn no_body(); /* ERROR "^free function without a body$" */
fn param_without_type(x) /* ERROR "^expected `:`, found `\)`$" */ {}
const LIMIT = /* ERROR "^missing type for `const` item$" */ 5;
struct Pair { a: u8 b /* ERROR "^expected one of `,` or `\}`, found `b`$" */: u8 }
struct Tuple(u8, u8) /* ERROR HERE "^expected `;`, found keyword `impl`$" */
impl Tuple {}
enum Choice { A(u8), B { x: u8 }, C = /* ERROR HERE "^expected expression, found `\}`$" */ }
fn generic<T: Clone,>(x: T) -> T where T: Clone, { x }
fn bad_where<T>() where T Clone /* ERROR "^expected `:`, found `Clone`$" */ {}

fn macro_in_types() -> mac!(u8) { 1 }

trait Ops {
    fn required(&self) -> u8;
    fn provided(&self) -> u8 { 1 }
    type Output;
    const N: usize;
    pub /* ERROR HERE "^expected one of `fn`, `type`, or `const`, found `5`$" */ 5
}

impl Ops for Thing {
    fn required(&self) -> u8; /* ERROR "^associated function in `impl` without body$" */
}

pub /* ERROR HERE "^expected item, found `42`$" */ 42;

fn still_parsed() {}
