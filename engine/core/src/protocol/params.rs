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

/// Functions giving the defaults that `#[serde(default = "...")]` names,
/// shared by the protocols' parameter types.
macro_rules! defaults {
    ($($f:ident: $t:ty = $v:expr;)*) => { $(#[allow(dead_code)] pub(crate) fn $f() -> $t { $v })* };
}
defaults! {
    d_225k: u64 = 225_000;
    d_36k: u64 = 36_000;
    d_k: u64 = 22_500;
    d_cwnd12: u32 = 12;
    d_cwnd15: u32 = 15;
    d_rto200: f64 = 200.0;
    d_rto45: f64 = 45.0;
    d_dup3: u32 = 3;
    d_g: f64 = 1.0 / 16.0;
    d_alpha1: f64 = 1.0;
    d_true: bool = true;
    d_probe_after: u32 = 5;
    d_rcp_alpha: f64 = 0.1;
    d_rcp_beta: f64 = 1.0;
    d_rcp_interval: f64 = 10.0;
    d_rcp_rtt: f64 = 10.0;
    d_rcp_rto: f64 = 1000.0;
    d_max_rto: f64 = 1_000_000.0;
    d_fp_epoch: u32 = 8;
    d_fp_arbiter: u32 = 0;
    d_zero: f64 = 0.0;
    d_half: f64 = 0.5;
    d_fp_timeout: f64 = 10.0;
    d_8: u32 = 8;
    d_ttl: f64 = 1.5;
    d_69: u32 = 69;
    d_1540: u64 = 1540;
    d_queues8: u32 = 8;
    d_rts_timeout: f64 = 100.0;
    d_d_min: f64 = 0.5;
    d_d_max: f64 = 2.0;
    d_w_min: f64 = 0.125;
    d_w_max: f64 = 2.5;
    d_w_full: u64 = 200 * 1460;
    d_w_floor: u64 = 1000 * 1460;
    d_one: f64 = 1.0;
    d_pase_expiry: f64 = 3.0;
    d_pase_deleg: f64 = 4.0;
    d_pase_top: u32 = 2;
    d_pdq_probe: f64 = 15.0;
    d_pdq_kappa: u32 = 100;
    d_pdq_k: f64 = 2.0;
    d_pdq_x: f64 = 0.2;
    d_pdq_damp: f64 = 10.0;
    d_one_f: f64 = 1.0;
    d_pdq_rtt: f64 = 10.0;
    d_pdq_min_rate: f64 = 0.01;
    d_pdq_et_rate: f64 = 0.9;
    d_pdq_et_rtts: f64 = 1.0;
    d_d3_life: f64 = 4.0;
    d_count_life: f64 = 10.0;
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
