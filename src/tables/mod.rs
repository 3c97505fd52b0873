//! Placement tables: the generator (shared with `build.rs`) and the meteor tables that
//! the build script baked into the binary.
//!
//! Every table is defined in [`generate`]; this module only exposes the baked copy.

pub mod generate;

pub use generate::{Placement, Tables};

/// The meteor tables as `build.rs` generated them: `generate::meteor_tables(true, true)`.
pub mod meteor {
    include!(concat!(env!("OUT_DIR"), "/meteor_tables.rs"));
}

// SAFETY: `Placement` is `#[repr(C)]` with two `u64` fields: no padding, every bit
// pattern valid.
unsafe impl bytemuck::Zeroable for Placement {}
unsafe impl bytemuck::Pod for Placement {}
