//! # wuzi-gomocup
//!
//! The brain side of the Gomocup (piskvork) protocol for the wuzi engine: a pure
//! [`protocol::parse`]r, a [`Session`] state machine that maps commands to responses and
//! search requests, and a thin I/O loop ([`run`]) with a reader thread so `STOP` and `END`
//! interrupt thinking. The `pbrain-wuzi` binary is this crate's front door.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod classic;
pub mod engine;
pub mod io;
pub mod protocol;
pub mod session;
pub mod think;

pub use io::run;
pub use protocol::{Command, ProtocolError, parse};
pub use session::{Reply, Session, Settings};
pub use think::{Budget, EngineSettings, Eval, Progress, ThinkRequest, Thinker, Thought};
