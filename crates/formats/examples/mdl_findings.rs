//! Prints the reader findings and validate findings of MDL ASCII files.
fn main() {
    for p in std::env::args().skip(1) {
        let b = std::fs::read(&p).unwrap();
        let (m, f) = areakit_formats::mdl_ascii::read_with_findings(&b).unwrap();
        for x in f
            .iter()
            .chain(areakit_formats::mdl_ascii::validate(&m).iter())
        {
            println!("{p}:{}: {} {}: {}", x.place, x.severity, x.code, x.message);
        }
    }
}
