//! The main search.

pub(crate) mod simple;
