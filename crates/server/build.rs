//! Embeds the web page: lists every file under the workspace's `web/` folder (skipping
//! tests, node modules and dot files) as `include_bytes!` entries, so the binary serves
//! the page with no files beside it.
//!
//! It also embeds the engine for the page (`wasm/wuzi.wasm`, the `wuzi-wasm` crate built
//! for wasm32-unknown-unknown by a nested `cargo build` into `target/wasm-engine/`): in
//! release builds (what `cargo run --release` serves), or in any build with
//! `WUZI_WASM=1`; never with `WUZI_WASM=0`. Debug builds leave it out by default, so
//! `cargo build` stays quick; without it (or without the wasm32 target installed: a
//! warning says so) the page plays with the server's engine only. Every embedded file
//! goes into [`VERSION`], which names the service worker's cache.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const SKIP_DIRS: &[&str] = &["node_modules", "tests", "test-results", "playwright-report"];

fn collect(dir: &Path, base: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            if !SKIP_DIRS.contains(&name.as_str()) {
                collect(&path, base, out);
            }
        } else if let Ok(rel) = path.strip_prefix(base) {
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            out.push((rel, path.clone()));
        }
    }
}

/// Whether to build the page's engine: `WUZI_WASM` = 1 / 0, else in release builds.
fn want_wasm() -> bool {
    println!("cargo:rerun-if-env-changed=WUZI_WASM");
    match std::env::var("WUZI_WASM").as_deref().map(str::trim) {
        Ok("1" | "yes" | "on" | "true") => true,
        Ok("0" | "no" | "off" | "false") => false,
        _ => std::env::var("PROFILE").as_deref() == Ok("release"),
    }
}

/// The build's target folder: the ancestor of OUT_DIR that cargo marked with CACHEDIR.TAG.
fn target_dir(workspace: &Path) -> PathBuf {
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets this"));
    out.ancestors()
        .find(|d| d.join("CACHEDIR.TAG").is_file())
        .map_or_else(|| workspace.join("target"), Path::to_path_buf)
}

/// Builds `wuzi-wasm` for wasm32-unknown-unknown (release) in its own target folder (so
/// this build's lock on its own is not in the way) and returns the .wasm, or `None` after
/// a warning when it cannot be built.
fn build_wasm(workspace: &Path) -> Option<PathBuf> {
    for dir in ["crates/rules", "crates/engine", "crates/wasm", "testdata"] {
        println!("cargo:rerun-if-changed={}", workspace.join(dir).display());
    }
    println!(
        "cargo:rerun-if-changed={}",
        workspace.join("Cargo.lock").display()
    );
    let target = target_dir(workspace).join("wasm-engine");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = std::process::Command::new(cargo)
        .args([
            "build",
            "--release",
            "-p",
            "wuzi-wasm",
            "--target",
            "wasm32-unknown-unknown",
        ])
        .arg("--manifest-path")
        .arg(workspace.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        // The outer build's flags are for the host (and clippy's wrapper for lints).
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CARGO_BUILD_TARGET")
        .env_remove("CARGO_TARGET_DIR")
        .output();
    let wasm = target.join("wasm32-unknown-unknown/release/wuzi_wasm.wasm");
    match output {
        Ok(o) if o.status.success() && wasm.is_file() => Some(wasm),
        Ok(o) => {
            let err = String::from_utf8_lossy(&o.stderr);
            println!(
                "cargo:warning=the page's engine (wuzi-wasm) was not built, so the page uses the \
                 server's engine only; `rustup target add wasm32-unknown-unknown` if it is missing \
                 (WUZI_WASM=0 skips this)"
            );
            let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
            for line in &lines[lines.len().saturating_sub(6)..] {
                println!("cargo:warning=  {line}");
            }
            None
        }
        Err(e) => {
            println!("cargo:warning=the page's engine (wuzi-wasm) was not built: {e}");
            None
        }
    }
}

/// FNV-1a: names the files' version (the service worker's cache), not a security hash.
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets this"));
    let workspace = manifest.join("../..");
    let web = workspace.join("web");
    println!("cargo:rerun-if-changed={}", web.display());
    println!("cargo:rerun-if-changed=build.rs");
    let mut files = Vec::new();
    if web.is_dir() {
        collect(&web, &web, &mut files);
    }
    if want_wasm()
        && let Some(wasm) = build_wasm(&workspace)
    {
        // A copy: the nested build's next run must not change what this build embedded.
        let copy =
            PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets this")).join("wuzi.wasm");
        std::fs::copy(&wasm, &copy).expect("cannot copy the .wasm");
        files.push(("wasm/wuzi.wasm".to_string(), copy));
    }
    let mut version = 0xcbf2_9ce4_8422_2325_u64;
    for (rel, path) in &files {
        fnv(&mut version, rel.as_bytes());
        fnv(&mut version, &std::fs::read(path).unwrap_or_default());
    }
    let mut code = String::from("/// Files of the web page: (path under web/, contents).\n");
    code.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (rel, path) in &files {
        let abs = path.canonicalize().unwrap_or_else(|_| path.clone());
        writeln!(
            code,
            "    ({rel:?}, include_bytes!({:?})),",
            abs.display().to_string()
        )
        .expect("writing to a String");
    }
    code.push_str("];\n");
    writeln!(
        code,
        "/// A hash of every file above: names the service worker's cache.\n\
         pub const VERSION: &str = \"{version:016x}\";"
    )
    .expect("writing to a String");
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets this")).join("web_files.rs");
    std::fs::write(out, code).expect("cannot write web_files.rs");
}
