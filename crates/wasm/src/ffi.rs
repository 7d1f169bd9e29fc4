//! The module's exports and imports (wasm32 only): bytes in and out of [`crate::handle`].
//!
//! The page writes a request into a buffer from `wuzi_alloc`, calls `wuzi_call`, reads
//! the answer at `wuzi_answer()` (its length is what `wuzi_call` returned) and frees
//! the request buffer. Everything is single-threaded: the worker makes one call at a time.

use std::sync::Mutex;

#[link(wasm_import_module = "env")]
unsafe extern "C" {
    /// Milliseconds from a fixed origin (`performance.now()`).
    fn wuzi_now() -> f64;
    /// A progress report: `len` bytes of UTF-8 JSON at `ptr`.
    fn wuzi_progress(ptr: *const u8, len: usize);
}

/// The last answer (kept until the next call so the page can read it).
static ANSWER: Mutex<Vec<u8>> = Mutex::new(Vec::new());

fn now_ms() -> f64 {
    // Safety: an import without arguments that returns a number; the worker provides it.
    unsafe { wuzi_now() }
}

fn progress(report: &str) {
    // Safety: the pointer and length describe `report`, which outlives the call; the
    // page copies the bytes before returning.
    unsafe { wuzi_progress(report.as_ptr(), report.len()) }
}

/// A buffer of `len` bytes for the page to write a request into.
#[unsafe(no_mangle)]
pub extern "C" fn wuzi_alloc(len: usize) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// Gives back a buffer from [`wuzi_alloc`].
///
/// # Safety
/// `ptr` and `len` must be exactly what one `wuzi_alloc(len)` call gave, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn wuzi_free(ptr: *mut u8, len: usize) {
    // Safety: the caller passes back a buffer of capacity `len.max(1)` made by
    // `wuzi_alloc`, with nothing in it to drop.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len.max(1)) });
}

/// Handles the request of `len` bytes at `ptr` (UTF-8 JSON); returns the length of the
/// answer, which [`wuzi_answer`] points to.
///
/// # Safety
/// `ptr` must point to `len` initialised bytes (a `wuzi_alloc(len)` buffer the page
/// wrote), not changed during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn wuzi_call(ptr: *const u8, len: usize) -> usize {
    wuzi_engine::instant::set_time_source(now_ms);
    // Safety: as the caller promises, `len` initialised bytes at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let answer = match std::str::from_utf8(bytes) {
        Ok(request) => crate::handle(request, &mut |r| progress(r)),
        Err(_) => r#"{"error":"the request is not UTF-8"}"#.to_string(),
    };
    let mut stored = ANSWER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *stored = answer.into_bytes();
    stored.len()
}

/// Where the last answer is (valid until the next `wuzi_call`).
#[unsafe(no_mangle)]
pub extern "C" fn wuzi_answer() -> *const u8 {
    ANSWER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .as_ptr()
}
