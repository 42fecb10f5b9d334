// The rest of the Rust subset: control flow, closures, patterns, literals.
const SIZES: [usize; 3] = [1, 2, 3];

struct Config { rate: f64, steps: u32 }

fn run(cfg: &Config, data: &[f32]) -> Option<f32> {
    let Config { rate, steps } = *cfg;
    let mut total = 0.0f32;
    'outer: for (i, &x) in data.iter().enumerate() {
        if i as u32 >= steps {
            break 'outer;
        } else if x.is_nan() {
            continue;
        }
        total += x * rate as f32;
    }
    let scale = |v: f32| -> f32 { v / SIZES.len() as f32 };
    let kind = match total {
        t if t < 0.0 => "negative",
        0.0 => "zero",
        _ => "positive",
    };
    while let Some(last) = data.last() {
        if *last > 1e3 { return None; }
        break;
    }
    let bits = 0b1010u8 << 2 | 0x0F & !0;
    let text = format!("{kind}: {:.2} {}", scale(total), bits);
    let raw = r#"a "raw" string"#;
    let chars = ['\n', '\u{e9}', b'a' as char];
    let nested = ((1, 2), [3; 4]).0.1;
    let cfg2 = Config { steps: 10, ..*cfg };
    Some(total)
}
