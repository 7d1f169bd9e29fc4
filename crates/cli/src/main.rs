//! The `wuzi` command.
#![forbid(unsafe_code)]

fn main() {
    println!("wuzi (work in progress)");
}
