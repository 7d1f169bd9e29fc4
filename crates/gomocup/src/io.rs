//! The thin I/O loop: a reader thread for stdin, a worker thread for the search, and the
//! session in between. Because input is read on its own thread, `STOP`/`YXSTOP` and `END`
//! reach the running search at once; other commands that arrive while it thinks wait
//! their turn.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Instant;

use crate::protocol::{self, Command};
use crate::session::{Reply, Session};
use crate::think::{EngineSettings, Eval, Progress, ThinkRequest, Thinker, Thought};

/// What the main loop waits for.
enum Event {
    Line(String),
    Eof,
    Progress(Progress),
    Done(Thought),
}

/// What the worker thread is asked to do.
enum Job {
    Configure(EngineSettings),
    NewGame,
    Think(Box<ThinkRequest>, Arc<AtomicBool>),
}

/// Reads lines ending in CR, LF or CRLF (blank lines are dropped; bad UTF-8 is replaced).
fn read_lines(mut input: impl BufRead, events: &Sender<Event>) {
    let mut current: Vec<u8> = Vec::new();
    loop {
        let buf = match input.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(b) => b,
        };
        let n = buf.len();
        for &b in buf {
            if b == b'\n' || b == b'\r' {
                if !current.is_empty() {
                    let text = String::from_utf8_lossy(&current).into_owned();
                    current.clear();
                    if events.send(Event::Line(text)).is_err() {
                        return;
                    }
                }
            } else {
                current.push(b);
            }
        }
        input.consume(n);
    }
    if !current.is_empty() {
        let _ = events.send(Event::Line(String::from_utf8_lossy(&current).into_owned()));
    }
    let _ = events.send(Event::Eof);
}

fn work(mut thinker: Box<dyn Thinker>, jobs: Receiver<Job>, events: Sender<Event>) {
    for job in jobs {
        match job {
            Job::Configure(s) => thinker.configure(s),
            Job::NewGame => thinker.new_game(),
            Job::Think(request, stop) => {
                let mut report = |p: &Progress| {
                    let _ = events.send(Event::Progress(p.clone()));
                };
                // A bug in the search must not leave the manager waiting forever: a panic
                // becomes an empty answer, which the session replaces by a legal move.
                let thought = panic::catch_unwind(AssertUnwindSafe(|| {
                    thinker.think(&request, &stop, &mut report)
                }))
                .unwrap_or_else(|_| Thought {
                    best: None,
                    eval: Eval::Value(0),
                    lines: Vec::new(),
                    depth: 0,
                    nodes: 0,
                });
                if events.send(Event::Done(thought)).is_err() {
                    return;
                }
            }
        }
    }
}

/// Writes one line and flushes it.
fn emit(out: &mut impl Write, text: &str) -> io::Result<()> {
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Runs the brain until `END` or the end of input.
pub fn run(
    thinker: Box<dyn Thinker>,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    let (event_tx, events) = mpsc::channel::<Event>();
    let reader_tx = event_tx.clone();
    thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(input, &reader_tx))?;
    let (job_tx, jobs) = mpsc::channel::<Job>();
    thread::Builder::new()
        .name("search".into())
        .spawn(move || work(thinker, jobs, event_tx))?;

    let mut session = Session::new();
    let mut stop = Arc::new(AtomicBool::new(false));
    let mut waiting: VecDeque<String> = VecDeque::new();
    let mut input_closed = false;
    loop {
        while !session.is_thinking() {
            let Some(text) = waiting.pop_front() else {
                break;
            };
            let replies = session.handle_line(&text, Instant::now());
            if perform(replies, &mut output, &job_tx, &mut stop)? {
                return Ok(());
            }
        }
        if input_closed && !session.is_thinking() {
            // Everything read has been answered.
            return Ok(());
        }
        let Ok(event) = events.recv() else {
            return Ok(());
        };
        let replies = match event {
            Event::Line(text) => {
                // STOP and END act at once on the running search, unless earlier lines
                // are still waiting (then they keep their place in line).
                let urgent = waiting.is_empty()
                    && matches!(
                        protocol::parse(&text),
                        Ok(Some(Command::Stop | Command::End))
                    );
                if session.is_thinking() && !urgent {
                    waiting.push_back(text);
                    continue;
                }
                session.handle_line(&text, Instant::now())
            }
            Event::Eof => {
                // Finish what was asked (the search is bounded by its limits), then quit.
                input_closed = true;
                continue;
            }
            Event::Progress(p) => vec![Reply::Line(session.progress_line(&p))],
            Event::Done(thought) => session.finish(&thought),
        };
        if perform(replies, &mut output, &job_tx, &mut stop)? {
            return Ok(());
        }
    }
}

/// Carries out the session's replies; returns `true` on exit.
fn perform(
    replies: Vec<Reply>,
    output: &mut impl Write,
    jobs: &Sender<Job>,
    stop: &mut Arc<AtomicBool>,
) -> io::Result<bool> {
    for reply in replies {
        match reply {
            Reply::Line(text) => emit(output, &text)?,
            Reply::Think(request) => {
                *stop = Arc::new(AtomicBool::new(false));
                if jobs
                    .send(Job::Think(Box::new(request), Arc::clone(stop)))
                    .is_err()
                {
                    emit(output, "ERROR the search thread has stopped")?;
                    return Ok(true);
                }
            }
            Reply::Stop => stop.store(true, Ordering::SeqCst),
            Reply::Configure(s) => {
                let _ = jobs.send(Job::Configure(s));
            }
            Reply::NewGame => {
                let _ = jobs.send(Job::NewGame);
            }
            Reply::Exit => {
                stop.store(true, Ordering::SeqCst);
                return Ok(true);
            }
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    /// A thinker with a bug.
    struct Panics;
    impl Thinker for Panics {
        fn configure(&mut self, _: EngineSettings) {}
        fn new_game(&mut self) {}
        fn think(
            &mut self,
            _: &ThinkRequest,
            _: &AtomicBool,
            _: &mut dyn FnMut(&Progress),
        ) -> Thought {
            panic!("search bug");
        }
    }

    #[test]
    fn a_panicking_search_still_gets_a_legal_answer() {
        let input = io::Cursor::new(b"START 15\nBEGIN\nTURN 8,8\nEND\n".to_vec());
        let mut out = Vec::new();
        run(Box::new(Panics), input, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "OK");
        assert_eq!(lines[1], "7,7", "{text}");
        assert!(
            lines[2].contains(',') && lines[2] != "7,7" && lines[2] != "8,8",
            "{text}"
        );
    }
}
