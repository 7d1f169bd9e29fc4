//! The HTTP API: one router per resource, merged by [`crate::app`].

pub mod games;
pub mod meta;
pub mod ws;
