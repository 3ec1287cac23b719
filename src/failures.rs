//! One error for a list of failures: a batch is checked whole, and every bad entry is named
//! (by its index, in the entry's own error), not only the first.

/// Every failure of a batch, in index order. `Display` joins them with `; `; it derefs to the
/// slice, so `for e in &failures`, `failures.len()` and `failures[0]` read as on a `Vec`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failures<E>(pub Vec<E>);

impl<E: std::fmt::Display> std::fmt::Display for Failures<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl<E: std::fmt::Display + std::fmt::Debug> std::error::Error for Failures<E> {}

impl<E> std::ops::Deref for Failures<E> {
    type Target = [E];
    fn deref(&self) -> &[E] {
        &self.0
    }
}

impl<'a, E> IntoIterator for &'a Failures<E> {
    type Item = &'a E;
    type IntoIter = std::slice::Iter<'a, E>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<E> IntoIterator for Failures<E> {
    type Item = E;
    type IntoIter = std::vec::IntoIter<E>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// The values of `results` in order, or every error among them (in order).
pub fn all_or_failures<T, E>(
    results: impl IntoIterator<Item = Result<T, E>>,
) -> Result<Vec<T>, Failures<E>> {
    let mut ok = Vec::new();
    let mut failed = Vec::new();
    for r in results {
        match r {
            Ok(v) => ok.push(v),
            Err(e) => failed.push(e),
        }
    }
    if failed.is_empty() {
        Ok(ok)
    } else {
        Err(Failures(failed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_or_failures_keeps_order_and_every_error() {
        let r: Result<Vec<u8>, _> = all_or_failures([Ok(1), Err("a"), Ok(2), Err("b")]);
        let e = r.unwrap_err();
        assert_eq!(e.to_string(), "a; b");
        assert_eq!(e.len(), 2);
        assert_eq!(
            all_or_failures::<u8, &str>([Ok(1), Ok(2)]).unwrap(),
            vec![1, 2]
        );
        let boxed: Box<dyn std::error::Error> = Box::new(Failures(vec!["x"]));
        assert_eq!(boxed.to_string(), "x");
    }
}
