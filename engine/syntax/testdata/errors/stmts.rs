// Statement-level errors, one per line: the parser keeps one error per
// line, so each case sits on its own.
fn main() {
    let a = 1
    let /* ERROR "^expected `;`, found keyword `let`$" */ b = 2;
    let c = ; /* ERROR "^expected expression, found `;`$" */
    foo(a b /* ERROR "^expected one of `,` or `\)`, found `b`$" */);
    let = /* ERROR "^expected pattern, found `=`$" */ 5;
    let x: = /* ERROR "^expected type, found `=`$" */ 3;
    let d = a < b < /* ERROR "^comparison operators cannot be chained$" */ c;
    for x xs /* ERROR "^missing `in` in `for` loop$" */ {}
    let e = x.; /* ERROR "^expected identifier, found `;`$" */
    let f = 0..= /* ERROR "^inclusive range with no end$" */;
    let g = t.0u8 /* ERROR "^suffixes on a tuple index are invalid$" */;
    if a == b 1 /* ERROR "^expected `\{`, found `1`$" */ {}
    'a: 5 /* ERROR "^expected one of `loop`, `while`, `for`, or `\{`, found `5`$" */;
    x.foo::bar /* ERROR "^expected `<`, found `bar`$" */ ();
    => /* ERROR "^expected expression, found `=>`$" */ x;
    let h = "a" "b" /* ERROR "^expected `;`, found `\"b\"`$" */;
    # /* ERROR "^an inner attribute is not permitted in this context$" */ ![allow(dead_code)]
    let i = 1 + ; /* ERROR "^expected expression, found `;`$" */
    let j = Point { x: 1 y /* ERROR "^expected one of `,` or `\}`, found `y`$" */: 2 };
    let k = (1 2 /* ERROR "^expected one of `,` or `\)`, found `2`$" */);
    if let Some(x) = a && /* ERROR unsupported-syntax "^let chains \(`let` combined with `&&` in a condition\) are not supported by the playground$" */ b {}
    let l = 1;
    #[inline] /* ERROR HERE "^expected statement after outer attribute$" */ }

fn after() -> u32 { 1 }
