//! wuzi-engine (work in progress).
