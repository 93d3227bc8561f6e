//! A headless Chromium driven over the DevTools protocol (Debian's `chromium`; never a
//! downloaded browser): launch with a fresh profile, evaluate, wait, click, read console
//! errors. Used by the viewers' browser tests and the 3-D view's benchmark.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

pub fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("AREAKIT_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
}

/// A headless Chromium with a fresh profile, one page attached (flat session).
pub struct Browser {
    child: Child,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    session: String,
    next: u64,
    profile: PathBuf,
    /// Console errors, uncaught exceptions and error log entries seen so far.
    pub errors: Vec<String>,
}

impl Browser {
    pub fn launch(exe: &Path, tag: &str) -> Browser {
        Browser::launch_with(exe, tag, &["--disable-gpu"])
    }

    /// [`Browser::launch`] with `extra` flags in place of `--disable-gpu` (WebGL through
    /// SwiftShader: `--use-angle=swiftshader --enable-unsafe-swiftshader`).
    pub fn launch_with(exe: &Path, tag: &str, extra: &[&str]) -> Browser {
        let profile =
            std::env::temp_dir().join(format!("areakit-chromium-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).unwrap();
        let mut child = Command::new(exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
                "--no-default-browser-check",
                "--disable-extensions",
                "--window-size=1280,800",
                "--remote-debugging-port=0",
            ])
            .args(extra)
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start chromium");
        // The DevTools address is printed on stderr; keep draining it afterwards.
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(i) = line.find("ws://") {
                    let _ = tx.send(line[i..].trim().to_string());
                }
            }
        });
        let url = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("chromium printed no DevTools address");
        let (ws, _) = tungstenite::connect(url.as_str()).expect("connect to DevTools");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(240))).unwrap();
        }
        let mut b = Browser {
            child,
            ws,
            session: String::new(),
            next: 0,
            profile,
            errors: Vec::new(),
        };
        let target = b.call("Target.createTarget", json!({"url": "about:blank"}));
        let target = target["targetId"].as_str().unwrap().to_string();
        let attached = b.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        for m in ["Runtime.enable", "Log.enable", "Page.enable"] {
            b.call(m, json!({}));
        }
        b
    }

    /// Sends a command (to the page's session once attached) and returns its result; events
    /// read meanwhile are checked for errors.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            msg["sessionId"] = json!(self.session);
        }
        self.ws.send(Message::text(msg.to_string())).unwrap();
        loop {
            let m = self
                .ws
                .read()
                .unwrap_or_else(|e| panic!("{method}: no answer from DevTools: {e}"));
            let Message::Text(t) = m else { continue };
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["id"] == json!(id) {
                assert!(v.get("error").is_none(), "{method}: {}", v["error"]);
                return v["result"].clone();
            }
            self.event(&v);
        }
    }

    fn event(&mut self, v: &Value) {
        let p = &v["params"];
        match v["method"].as_str() {
            Some("Runtime.consoleAPICalled")
                if matches!(p["type"].as_str(), Some("error" | "assert")) =>
            {
                self.errors
                    .push(format!("console.{}: {}", p["type"], p["args"]))
            }
            Some("Runtime.exceptionThrown") => self
                .errors
                .push(format!("exception: {}", p["exceptionDetails"])),
            Some("Log.entryAdded") if p["entry"]["level"] == "error" => {
                self.errors.push(format!("log: {}", p["entry"]))
            }
            _ => {}
        }
    }

    pub fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(
            r.get("exceptionDetails").is_none(),
            "{expr}: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    /// Waits until `expr` is true (polling), or fails after `secs`.
    pub fn wait_for(&mut self, expr: &str, secs: u64) {
        let t = Instant::now();
        while self.eval(expr) != json!(true) {
            assert!(t.elapsed() < Duration::from_secs(secs), "timed out: {expr}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for two animation frames (one redraw).
    pub fn frames(&mut self) {
        self.eval(
            "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))",
        );
    }

    pub fn mouse(&mut self, kind: &str, x: f64, y: f64, extra: Value) {
        let mut p = json!({"type": kind, "x": x, "y": y});
        if let (Some(p), Some(e)) = (p.as_object_mut(), extra.as_object()) {
            p.extend(e.clone());
        }
        self.call("Input.dispatchMouseEvent", p);
    }

    pub fn click(&mut self, x: f64, y: f64) {
        self.mouse("mouseMoved", x, y, json!({}));
        self.mouse(
            "mousePressed",
            x,
            y,
            json!({"button": "left", "clickCount": 1}),
        );
        self.mouse(
            "mouseReleased",
            x,
            y,
            json!({"button": "left", "clickCount": 1}),
        );
        self.frames();
    }

    /// Opens `page`, waits for ready; returns the time to ready in ms.
    pub fn open(&mut self, page: &Path) -> f64 {
        let t = Instant::now();
        let url = format!("file://{}", std::path::absolute(page).unwrap().display());
        self.call("Page.navigate", json!({"url": url}));
        self.wait_for(
            "!!(document.body && document.body.dataset.ready === 'true')",
            240,
        );
        t.elapsed().as_secs_f64() * 1000.0
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
