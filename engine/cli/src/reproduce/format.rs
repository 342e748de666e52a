//! Numbers as the report and the gallery write them.

/// A number to 4 significant digits (whole numbers from 1,000 up).
pub fn fmt(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x.abs() >= 1000.0 {
        return format!("{x:.0}");
    }
    if x == 0.0 {
        return "0".into();
    }
    let digits = (3 - x.abs().log10().floor() as i32).max(0) as usize;
    let s = format!("{x:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// 10000 -> "10,000".
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_the_gallery_writes_them() {
        assert_eq!(fmt(1.06531), "1.065");
        assert_eq!(fmt(0.05), "0.05");
        assert_eq!(fmt(81_100.4), "81100");
        assert_eq!(fmt(0.0), "0");
        assert_eq!(thousands(10_000), "10,000");
        assert_eq!(thousands(999), "999");
    }
}
