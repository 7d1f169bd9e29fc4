//! wuzi-gomocup (work in progress).
