//! What the load and fault tools share: a real `wuzi serve` process, its memory and CPU,
//! percentiles and temporary databases.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A `wuzi serve` process on a free port.
pub struct Server {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Server {
    /// Starts `wuzi serve` on a fresh port over `db`, a SQLite file or a PostgreSQL URL
    /// (under an open-file limit, if given).
    pub fn spawn(wuzi: &Path, db: impl AsRef<std::ffi::OsStr>, nofile: Option<u32>) -> Server {
        let mut cmd = if let Some(n) = nofile {
            let mut c = Command::new("bash");
            c.arg("-c")
                .arg(format!(
                    "ulimit -Sn {n}; ulimit -Hn {n}; exec \"$0\" \"$@\""
                ))
                .arg(wuzi);
            c
        } else {
            Command::new(wuzi)
        };
        let mut child = cmd
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--log-level",
                "error",
                "--db",
            ])
            .arg(db)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start wuzi serve");
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().unwrap()),
            &mut line,
        )
        .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap();
        Server { child, addr }
    }

    /// The server's resident memory, MB.
    pub fn rss_mb(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    }

    /// Kills the server at once.
    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill9();
    }
}

impl Server {
    /// CPU time the server has used so far (user + system), seconds.
    pub fn cpu_seconds(&self) -> f64 {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // Fields after the command name (which may hold spaces) start after ')'.
        let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
        let f: Vec<f64> = rest
            .split_whitespace()
            .map(|x| x.parse().unwrap_or(0.0))
            .collect();
        // utime and stime are fields 14 and 15 (1-based), 12 and 13 after ')'.
        let ticks = f.get(11).copied().unwrap_or(0.0) + f.get(12).copied().unwrap_or(0.0);
        ticks / 100.0
    }
}

/// The `p` quantile of sorted values (NaN if there are none).
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

/// A database file `name` in this run's temporary directory for `tool`.
pub fn temp_db(tool: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wuzi-{tool}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{name}.sqlite3"))
}
