use batch_ecdsa::prover::api::Verifier;
use batch_ecdsa::prover::proof::ProofFile;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let file = ProofFile::parse(&text).unwrap();
    let v = Verifier::for_proof_file(
        &file,
        std::path::Path::new("params"),
        &batch_ecdsa::prover::api::Silent,
    )
    .unwrap();
    let mut ts = vec![];
    let n: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(15);
    for _ in 0..n {
        ts.push(v.verify(&file).unwrap().as_secs_f64() * 1e3);
    }
    ts.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "min {:.2} ms median {:.2} ms max {:.2}",
        ts[0],
        ts[ts.len() / 2],
        ts[ts.len() - 1]
    );
}
