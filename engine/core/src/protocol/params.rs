//! What the protocols' parameter types share: the defaults their serde
//! attributes name, `Default` as the value of `{}`, and the checks their
//! `validate` runs (each error names the field, `params.<protocol>.<field>`).
//! Each protocol's parameters live next to it (`<protocol>/params.rs`);
//! [`crate::protocol::ProtocolParams`] gathers them for scenario files.

/// `Default` for parameter types whose every field has a serde default:
/// the value a scenario's `{}` gives, so the defaults are stated once, in
/// the serde attributes (which also become the JSON Schema's).
macro_rules! serde_default {
    ($t:ty) => {
        impl Default for $t {
            fn default() -> Self {
                crate::protocol::params::from_empty()
            }
        }
    };
}
pub(crate) use serde_default;

/// The value of `{}` for a type whose fields all have serde defaults.
pub(crate) fn from_empty<T: serde::de::DeserializeOwned>() -> T {
    serde_json::from_str("{}").expect("every field has a default")
}

/// Functions giving the defaults that `#[serde(default = "...")]` names
/// (serde takes a function, not a value). Each protocol states its own in
/// its `params.rs` with this macro, each with a doc comment naming its
/// source; the few below are the ones several protocols share.
macro_rules! defaults {
    ($($(#[$doc:meta])* $f:ident: $t:ty = $v:expr;)*) => {
        $($(#[$doc])* #[allow(dead_code)] pub(crate) fn $f() -> $t { $v })*
    };
}
pub(crate) use defaults;

defaults! {
    /// On (a switch whose default is on).
    d_true: bool = true;
    /// 0 (a number whose default is none of it).
    d_zero: f64 = 0.0;
    /// 1 (a number whose default is one of it, or a factor left as is).
    d_one: f64 = 1.0;
    /// Buffer of every DropTail port, bytes: pFabric paper section 5.2,
    /// Table 1 ("Default parameter settings in simulations"): `qSize =
    /// 225KB` for TCP-DropTail, DCTCP and PDQ; the simulations give it to
    /// D2TCP, L2DCT, RCP and D3 too, and PASE (which runs DCTCP's switches).
    d_225k: u64 = 225_000;
    /// Buffer of every port of the priority-queue schemes, bytes: pFabric
    /// paper Table 1, `qSize = 36KB` for pFabric (24 packets), which the
    /// pHost paper (section 4.1) gives pHost and Fastpass too.
    d_36k: u64 = 36_000;
    /// Initial congestion window, packets: pFabric paper Table 1,
    /// `initCwnd = 12 pkts` for TCP, DCTCP and pFabric (about one
    /// bandwidth-delay product); the other window transports and PASE too.
    d_cwnd12: u32 = 12;
    /// Minimum retransmission timeout, microseconds: pFabric paper Table 1,
    /// `minRTO = 200µs` for TCP and DCTCP, `RTO = 200µs` for PDQ ("in
    /// proportion to the queue size", section 5.2); the DCTCP family and
    /// PASE too.
    d_rto200: f64 = 200.0;
}

/// `v` is a finite number >= 0.
pub(crate) fn non_negative(field: &str, v: f64) -> Result<(), String> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(format!("params.{field}: must be a number >= 0, got {v}"))
    }
}

/// `v` is a finite number > 0.
pub(crate) fn positive(field: &str, v: f64) -> Result<(), String> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(format!("params.{field}: must be a positive number, got {v}"))
    }
}
/// `v` is in (0, 1] (a fraction that may not be zero).
pub(crate) fn unit_fraction(field: &str, v: f64) -> Result<(), String> {
    if v > 0.0 && v <= 1.0 {
        Ok(())
    } else {
        Err(format!("params.{field}: must be in (0, 1], got {v}"))
    }
}
/// `v` is at least `min`.
pub(crate) fn at_least(field: &str, v: u64, min: u64) -> Result<(), String> {
    if v >= min {
        Ok(())
    } else {
        Err(format!("params.{field}: must be at least {min}, got {v}"))
    }
}
