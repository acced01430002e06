//! The skip-only baseline of the benchmarks (`bench/pipeline.sh`,
//! `bench/roots.sh`): read each file given and check every JSON document in it
//! (one, or one per line) with serde's `IgnoredAny` (what any serde-based
//! reader pays at least); print the bytes and documents read. Not part of planview.

use serde::de::IgnoredAny;

fn main() {
    let (mut bytes, mut docs) = (0usize, 0usize);
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("readable UTF-8");
        for doc in serde_json::Deserializer::from_str(&text).into_iter::<IgnoredAny>() {
            doc.expect("JSON");
            docs += 1;
        }
        bytes += text.len();
    }
    println!("{bytes} bytes, {docs} documents");
}
