//! `wuzi db copy` as a process: what it refuses, with its exit status, before touching
//! anything. (The copy itself, into PostgreSQL and back, is tested in the server crate's
//! tests/copy.rs.)

use std::process::{Command, Output};

fn wuzi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(args)
        .output()
        .expect("run wuzi")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn bad_copies_are_refused_with_a_reason() {
    let dir = std::env::temp_dir().join(format!("wuzi-cli-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.sqlite3");
    let a = a.to_str().unwrap();
    let missing = dir.join("missing.sqlite3");
    let o = wuzi(&["db", "copy", missing.to_str().unwrap(), a]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no database file"), "{}", stderr(&o));
    assert!(!std::path::Path::new(a).exists(), "nothing was made");
    let o = wuzi(&["db", "copy", a, &format!("sqlite://{a}")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("the same database"), "{}", stderr(&o));
    let o = wuzi(&["db", "copy", a, "postgres://[nonsense"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not a PostgreSQL URL"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
