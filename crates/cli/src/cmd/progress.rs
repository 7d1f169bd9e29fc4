//! Progress of long runs (`wuzi match`, `wuzi bench`) on stderr: on a terminal a bar
//! (indicatif) with the time spent and the time left; otherwise (a log file, CI) one plain
//! line per step with the same times; nothing with `--quiet`.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Where the progress goes.
#[derive(Debug)]
enum Mode {
    /// A bar redrawn in place on the terminal.
    Bar(ProgressBar),
    /// One line per step.
    Lines,
    /// Nothing (`--quiet`).
    Quiet,
}

/// The progress of `total` steps (games, positions).
#[derive(Debug)]
pub struct Progress {
    mode: Mode,
    total: u64,
    started: Instant,
    /// Whether each step's line goes above the bar too (games: yes; bench positions: no,
    /// stdout has them).
    echo: bool,
}

impl Progress {
    /// Progress of `total` steps, each called a `unit` on the bar (`games`, `positions`).
    /// `echo`: each step's line is printed above the bar as well.
    pub fn new(total: u64, unit: &str, echo: bool, quiet: bool) -> Progress {
        let mode = if quiet {
            Mode::Quiet
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let template = format!(
                "[{{bar:24}}] {{pos}}/{{len}} {unit}, {{elapsed}} elapsed, about {{eta}} left  {{wide_msg}}"
            );
            bar.set_style(
                ProgressStyle::with_template(&template)
                    .expect("a valid template")
                    .progress_chars("#>."),
            );
            // Redrawn every second too, so the times move while a long step runs.
            bar.enable_steady_tick(Duration::from_secs(1));
            Mode::Bar(bar)
        } else {
            Mode::Lines
        };
        Progress {
            mode,
            total,
            started: Instant::now(),
            echo,
        }
    }

    /// `done` steps are finished, the last one described by `line`; `status` is a short
    /// summary for the bar (a tally).
    pub fn step(&self, done: u64, line: &str, status: &str) {
        match &self.mode {
            Mode::Bar(bar) => {
                bar.set_message(status.to_string());
                bar.set_position(done);
                if self.echo {
                    bar.println(line);
                }
            }
            Mode::Lines => eprintln!("{line} [{}]", self.times(done)),
            Mode::Quiet => {}
        }
    }

    /// Runs `f` (writing to stdout) with the bar taken off the terminal meanwhile.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.mode {
            Mode::Bar(bar) => bar.suspend(f),
            _ => f(),
        }
    }

    /// Removes the bar; plain lines need no ending.
    pub fn finish(&self) {
        if let Mode::Bar(bar) = &self.mode {
            bar.finish_and_clear();
        }
    }

    /// `0:12 elapsed, about 1:03 left` after `done` steps, estimated from the mean step.
    fn times(&self, done: u64) -> String {
        let elapsed = self.started.elapsed();
        let left = self.total.saturating_sub(done);
        if left == 0 {
            return format!("{} elapsed, done", clock(elapsed));
        }
        let per_step = elapsed.as_secs_f64() / done.max(1) as f64;
        let estimate = Duration::from_secs_f64(per_step * left as f64);
        format!("{} elapsed, about {} left", clock(elapsed), clock(estimate))
    }
}

/// `m:ss`, or `h:mm:ss` from an hour on.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        assert_eq!(clock(Duration::from_millis(900)), "0:00");
        assert_eq!(clock(Duration::from_secs(75)), "1:15");
        assert_eq!(clock(Duration::from_secs(3600 + 62)), "1:01:02");
    }

    #[test]
    fn plain_lines_estimate_the_time_left_from_the_mean_step() {
        let mut p = Progress::new(4, "games", true, true);
        p.started = Instant::now() - Duration::from_secs(10);
        assert_eq!(p.times(1), "0:10 elapsed, about 0:30 left");
        assert_eq!(p.times(4), "0:10 elapsed, done");
    }
}
