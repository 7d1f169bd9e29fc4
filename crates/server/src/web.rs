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

/// A hash of the embedded files: the version of the page, which names the service
/// worker's cache (so a new binary's page replaces the cached one).
pub const VERSION: &str = files::VERSION;

/// Where the service worker's script writes the version (see `web/sw.js`).
const VERSION_MARK: &str = "__WUZI_VERSION__";

/// Whether the binary embeds the page's engine (`wasm/wuzi.wasm`, see build.rs).
#[must_use]
pub fn has_wasm() -> bool {
    file("wasm/wuzi.wasm").is_some()
}

/// What the service worker caches for the page to load offline: every embedded file
/// (the page at `/` included) and the version.
#[must_use]
pub fn assets() -> serde_json::Value {
    let mut paths = vec!["./".to_string()];
    paths.extend(
        files::FILES
            .iter()
            .map(|(p, _)| *p)
            .filter(|p| *p != "sw.js")
            .map(|p| format!("./{p}")),
    );
    serde_json::json!({ "version": VERSION, "files": paths })
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
    if path == "assets.json" {
        return (headers(path), assets().to_string()).into_response();
    }
    if path == "sw.js"
        && let Some(bytes) = file(path)
    {
        // The version makes the script differ byte for byte from the last binary's, which
        // is what makes a browser install the new worker (and drop the old cache).
        let text = String::from_utf8_lossy(bytes).replace(VERSION_MARK, VERSION);
        return (headers(path), text).into_response();
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    async fn get(path: &str) -> (StatusCode, String, String) {
        let res = serve(path.parse().expect("a path")).await;
        let status = res.status();
        let ty = res
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap_or("").to_string())
            .unwrap_or_default();
        let body = res.into_body().collect().await.expect("a body").to_bytes();
        (status, ty, String::from_utf8_lossy(&body).into_owned())
    }

    #[tokio::test]
    async fn the_service_worker_carries_the_version_of_the_files_it_caches() {
        let (status, ty, sw) = get("/sw.js").await;
        assert_eq!(status, StatusCode::OK);
        assert!(ty.starts_with("text/javascript"));
        assert!(sw.contains(&format!("'{VERSION}'")), "{sw}");
        assert!(!sw.contains(VERSION_MARK));
        let (_, ty, assets) = get("/assets.json").await;
        assert_eq!(ty, "application/json");
        let assets: serde_json::Value = serde_json::from_str(&assets).expect("JSON");
        assert_eq!(assets["version"], VERSION);
        let files: Vec<&str> = assets["files"]
            .as_array()
            .expect("a list")
            .iter()
            .map(|f| f.as_str().expect("a path"))
            .collect();
        for f in [
            "./",
            "./index.html",
            "./js/main.js",
            "./js/engine-worker.js",
            "./manifest.webmanifest",
        ] {
            assert!(files.contains(&f), "{f} is not cached: {files:?}");
        }
        assert!(!files.contains(&"./sw.js"));
        assert_eq!(files.contains(&"./wasm/wuzi.wasm"), has_wasm());
        let (_, ty, _) = get("/manifest.webmanifest").await;
        assert_eq!(ty, "application/manifest+json");
    }
}
