//! The skip-only baseline of `bench/pipeline.sh`: read a JSON file and check it
//! with serde's `IgnoredAny` (what any serde-based reader pays at least), print
//! its size. Not part of planview.

use serde::de::IgnoredAny;

fn main() {
    let path = std::env::args().nth(1).expect("usage: skip_pass FILE");
    let text = std::fs::read_to_string(&path).expect("readable UTF-8");
    let _: IgnoredAny = serde_json::from_str(&text).expect("JSON");
    println!("{}", text.len());
}
