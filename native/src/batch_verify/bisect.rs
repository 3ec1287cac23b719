//! Naming the invalid items of a failed batch by bisection.

use super::equation::{batch_equation_holds, check_item, item_is_valid};
use super::BatchItem;
use halo2curves::secp256k1::Fq;

/// Indices (ascending) of every invalid item: those failing a structural check, plus those
/// found by bisection among the rest. A sub-batch is checked with its own challenge `t`
/// (hashed over exactly its items); if the equation holds it is accepted, otherwise it is split
/// in halves, down to single items, which are checked directly (`R == u1·G + u2·Q`). Every
/// returned index is therefore individually invalid; an invalid item escapes only if a
/// sub-batch containing it passes, probability `<= (B-1)/n` per check.
pub fn find_invalid(items: &[BatchItem]) -> Vec<usize> {
    let mut invalid = Vec::new();
    let mut candidates = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match check_item(i, item) {
            Ok(r) => candidates.push((i, r)),
            Err(_) => invalid.push(i),
        }
    }
    bisect(items, &candidates, &mut invalid);
    invalid.sort_unstable();
    invalid
}

fn bisect(items: &[BatchItem], candidates: &[(usize, Fq)], invalid: &mut Vec<usize>) {
    match candidates {
        [] => {}
        [(i, _)] => {
            if !item_is_valid(&items[*i]) {
                invalid.push(*i);
            }
        }
        _ => {
            let sub: Vec<BatchItem> = candidates.iter().map(|(i, _)| items[*i]).collect();
            let rs: Vec<Fq> = candidates.iter().map(|(_, r)| *r).collect();
            if batch_equation_holds(&sub, &rs) {
                return;
            }
            let (left, right) = candidates.split_at(candidates.len() / 2);
            let (mut found_left, mut found_right) = (Vec::new(), Vec::new());
            rayon::join(
                || bisect(items, left, &mut found_left),
                || bisect(items, right, &mut found_right),
            );
            invalid.extend(found_left);
            invalid.extend(found_right);
        }
    }
}
