//! Parses the given files repeatedly (for profiling).
fn main() {
    let files: Vec<Vec<u8>> = std::env::args()
        .skip(1)
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let total: usize = files.iter().map(Vec::len).sum();
    let t = std::time::Instant::now();
    let mut n = 0;
    for _ in 0..10 {
        for f in &files {
            n += areakit_formats::mdl_ascii::read(f).unwrap().stmts.len();
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!("{n} stmts, {:.1} MB/s", total as f64 * 10.0 / s / 1e6);
}
