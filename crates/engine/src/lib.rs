//! wuzi-engine (work in progress).

pub mod classic;

pub use classic::ClassicAi;
