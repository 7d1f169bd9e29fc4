//! The web page, embedded in the binary (see build.rs), served at `/`.

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use crate::error::Error;

mod files {
    include!(concat!(env!("OUT_DIR"), "/web_files.rs"));
}

/// Shown when the binary was built without a web/ folder.
const PLACEHOLDER: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>wuzi</title></head><body><h1>wuzi</h1><p>The web page was not built into this binary \
(no web/ folder). The API is at <a href=\"/api/openapi.json\">/api/openapi.json</a>.</p></body></html>";

/// The content type for a file name.
#[must_use]
pub fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    match ext.to_ascii_lowercase().as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "txt" | "md" => "text/plain; charset=utf-8",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

/// The embedded file at `path` (relative to web/).
#[must_use]
pub fn file(path: &str) -> Option<&'static [u8]> {
    files::FILES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, bytes)| *bytes)
}

/// Serves the page for every path the API does not claim.
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") || path == "api" {
        return Error::NotFound(format!("no API route {}", uri.path())).into_response();
    }
    let path = if path.is_empty() { "index.html" } else { path };
    let headers = |p: &str| {
        [
            (header::CONTENT_TYPE, content_type(p)),
            (header::CACHE_CONTROL, "no-cache"),
        ]
    };
    if let Some(bytes) = file(path) {
        return (headers(path), bytes).into_response();
    }
    if path == "index.html" {
        return (headers(path), PLACEHOLDER).into_response();
    }
    // A path without an extension is a page route (e.g. a shared link): the page.
    if !path.rsplit('/').next().unwrap_or("").contains('.')
        && let Some(bytes) = file("index.html")
    {
        return (headers("index.html"), bytes).into_response();
    }
    (StatusCode::NOT_FOUND, headers("x.txt"), "not found\n").into_response()
}
