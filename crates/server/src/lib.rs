//! wuzi-server (work in progress).
