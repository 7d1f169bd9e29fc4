//! Issue 22, item 3: running `wuzi serve` from the repository root leaves its SQLite
//! files (the database and its write-ahead log) out of `git status`.

use std::process::Command;

#[test]
fn the_default_database_files_are_ignored_by_git() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let Ok(out) = Command::new("git")
        .args([
            "-C",
            root,
            "check-ignore",
            "--no-index",
            "--stdin",
            "-v",
            "-n",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(b"wuzi.sqlite3\nwuzi.sqlite3-wal\nwuzi.sqlite3-shm\n")?;
            child.wait_with_output()
        })
    else {
        eprintln!("git is not available; skipped");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    for file in ["wuzi.sqlite3", "wuzi.sqlite3-wal", "wuzi.sqlite3-shm"] {
        let line = text
            .lines()
            .find(|l| l.ends_with(file))
            .unwrap_or_else(|| panic!("git says nothing of {file}: {text}"));
        assert!(!line.starts_with("::"), "{file} is not ignored: {line}");
    }
}
