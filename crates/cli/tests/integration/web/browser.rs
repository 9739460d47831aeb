//! The browser tests' harness: Chromium, node and the `puppeteer-core`
//! driver (or which is missing), a static server for the site on a
//! loopback port, `regex-chess web` writing the site, and
//! `web_driver.cjs` run on a plan. It judges nothing: the tests in
//! `web` compare what the driver saw.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{bin, missing};

pub(super) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn on_path(program: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Chromium, node and the driver's folder, or the one missing and how to
/// get it.
fn tools() -> Result<(PathBuf, PathBuf, PathBuf), (&'static str, String)> {
    let chromium = match std::env::var_os("CHROMIUM") {
        Some(p) => Some(PathBuf::from(p)).filter(|p| p.is_file()),
        None => on_path("chromium")
            .or_else(|| Some(PathBuf::from("/usr/bin/chromium")).filter(|p| p.is_file())),
    }
    .ok_or((
        "chromium",
        "apt-get install chromium, or set CHROMIUM to its path".to_string(),
    ))?;
    let node = on_path("node").ok_or(("node", "apt-get install nodejs".to_string()))?;
    let driver = workspace().join(".ci/node");
    if !driver
        .join("node_modules/puppeteer-core/package.json")
        .is_file()
    {
        return Err((
            "puppeteer-core",
            format!(
                "not in {} (npm install there, as .ci/run does)",
                driver.display()
            ),
        ));
    }
    Ok((chromium, node, driver))
}

/// Serves the files of `dir` on 127.0.0.1 (a free port) until the process
/// ends; returns the base URL.
fn serve(dir: PathBuf) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let port = listener.local_addr().expect("the port").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let dir = dir.clone();
            std::thread::spawn(move || answer(stream, &dir));
        }
    });
    format!("http://127.0.0.1:{port}/")
}

fn answer(mut stream: TcpStream, dir: &Path) {
    let mut reader = BufReader::new(&stream);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    loop {
        let mut header = String::new();
        match reader.read_line(&mut header) {
            Ok(0) | Err(_) => break,
            Ok(_) if header == "\r\n" || header == "\n" => break,
            Ok(_) => {}
        }
    }
    let target = request.split(' ').nth(1).unwrap_or("/");
    let path = target.split('?').next().unwrap_or("/");
    let name = if path == "/" {
        "index.html"
    } else {
        path.trim_start_matches('/')
    };
    let file = (!name.contains("..") && !name.contains('/'))
        .then(|| std::fs::read(dir.join(name)).ok())
        .flatten();
    let (status, kind, body) = match file {
        Some(body) => {
            let kind = match name.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript; charset=utf-8",
                Some("css") => "text/css; charset=utf-8",
                _ => "application/octet-stream",
            };
            ("200 OK", kind, body)
        }
        None => ("404 Not Found", "text/plain", b"not found".to_vec()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&body);
}

/// Writes the site into `dir` with `regex-chess web`.
pub(super) fn write_site(dir: &Path) {
    let status = bin()
        .arg("web")
        .arg(dir)
        .stdout(Stdio::null())
        .status()
        .expect("regex-chess web runs");
    assert!(status.success(), "regex-chess web failed");
}

/// Runs `node` with `args`; its standard output, or the test fails with
/// `what` and node's standard error.
pub(super) fn node_output(node: &Path, args: &[&Path], what: &str) -> Vec<u8> {
    let run = Command::new(node).args(args).output().expect("node runs");
    assert!(
        run.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    run.stdout
}

/// A browser on a freshly written site: the tools, the site's folder and
/// the base URL it is served at; `None` (said so by `common::missing`)
/// without the tools.
pub(super) struct Browser {
    chromium: PathBuf,
    node: PathBuf,
    driver: PathBuf,
    /// The folder the site was written into.
    pub(super) site: tempfile::TempDir,
    base: String,
}

impl Browser {
    pub(super) fn open(test: &str) -> Option<Browser> {
        let (chromium, node, driver) = match tools() {
            Ok(t) => t,
            Err((tool, how)) => {
                missing(tool, &format!("{test} ({how})"));
                return None;
            }
        };
        let site = tempfile::tempdir().expect("a temp dir");
        write_site(site.path());
        let base = serve(site.path().to_path_buf());
        Some(Browser {
            chromium,
            node,
            driver,
            site,
            base,
        })
    }

    /// Runs `web_driver.cjs` on `steps` (the plan's steps, see the
    /// driver); what it saw, after checking the page logged no error.
    pub(super) fn drive(&self, steps: serde_json::Value) -> serde_json::Value {
        let mut plan = serde_json::json!({
            "driverDir": self.driver,
            "chromium": self.chromium,
            "base": self.base,
        });
        for (key, value) in steps.as_object().expect("the steps") {
            plan[key] = value.clone();
        }
        let plan_file = self.site.path().join("plan.json");
        std::fs::write(&plan_file, plan.to_string()).expect("writing the plan");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web_driver.cjs");
        let out = node_output(&self.node, &[&script, &plan_file], "the browser driver");
        let seen: serde_json::Value = serde_json::from_slice(&out).expect("the driver's JSON");
        assert_eq!(seen["errors"], serde_json::json!([]), "errors in the page");
        seen
    }
}
