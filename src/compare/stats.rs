//! Mean and sample standard deviation of repeated measurements.

/// Summary of `n ≥ 1` repeated measurements of one quantity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (divisor `n − 1`); 0 when `n = 1`.
    pub stddev: f64,
    /// Number of measurements.
    pub n: usize,
}

impl Summary {
    /// The summary of `values`; `None` when there are none or one is not finite.
    pub fn of(values: &[f64]) -> Option<Summary> {
        if values.is_empty() || values.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let n = values.len();
        let mean = values.iter().sum::<f64>() / n as f64;
        let stddev = if n < 2 {
            0.0
        } else {
            let ss: f64 = values.iter().map(|v| (v - mean) * (v - mean)).sum();
            (ss / (n - 1) as f64).sqrt()
        };
        Some(Summary { mean, stddev, n })
    }

    /// A single measurement.
    pub fn single(value: f64) -> Summary {
        Summary {
            mean: value,
            stddev: 0.0,
            n: 1,
        }
    }

    /// `mean ± stddev` with `decimals` decimals; just the mean for one measurement.
    pub fn display(&self, decimals: usize) -> String {
        if self.n < 2 {
            format!("{:.*}", decimals, self.mean)
        } else {
            format!("{:.*} ± {:.*}", decimals, self.mean, decimals, self.stddev)
        }
    }
}

/// Decimals that show a time of `seconds` to about three significant digits (at least 0, at
/// most 4): 123 s → 0, 12.3 s → 1, 1.23 s → 2, 0.0123 s → 4.
pub fn time_decimals(seconds: f64) -> usize {
    let s = seconds.abs();
    if s >= 100.0 {
        0
    } else if s >= 10.0 {
        1
    } else if s >= 1.0 {
        2
    } else if s >= 0.1 {
        3
    } else {
        4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_sample_stddev() {
        let s = Summary::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).expect("values");
        assert_eq!(s.n, 8);
        assert!((s.mean - 5.0).abs() < 1e-12);
        // Σ(x − 5)² = 32, sample variance 32 / 7.
        assert!((s.stddev - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn one_value_has_zero_stddev_and_no_plus_minus() {
        let s = Summary::of(&[1.5]).expect("value");
        assert_eq!(s, Summary::single(1.5));
        assert_eq!(s.display(2), "1.50");
    }

    #[test]
    fn display_with_stddev() {
        let s = Summary::of(&[1.0, 3.0]).expect("values");
        assert_eq!(s.display(1), "2.0 ± 1.4");
    }

    #[test]
    fn empty_or_non_finite_is_none() {
        assert_eq!(Summary::of(&[]), None);
        assert_eq!(Summary::of(&[1.0, f64::NAN]), None);
        assert_eq!(Summary::of(&[f64::INFINITY]), None);
    }

    #[test]
    fn decimals_follow_magnitude() {
        for (seconds, decimals) in [(123.0, 0), (12.3, 1), (1.23, 2), (0.123, 3), (0.0123, 4)] {
            assert_eq!(time_decimals(seconds), decimals, "{seconds}");
        }
    }
}
