//! Finding and starting chromedriver and headless Chromium.
//!
//! Owns: binary discovery, the driver process (its own process group, so it outlives the
//! command that started it), readiness, the browser's flags. Must not: know about sessions on
//! disk (session.rs does).

use crate::error::{Error, Result};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Flags that keep headless Chromium quiet on a machine without outside network.
pub const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,800",
];

const BROWSER_CANDIDATES: &[&str] = &[
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "chrome",
];
const DRIVER_CANDIDATES: &[&str] = &[
    "chromedriver",
    "/usr/lib/chromium/chromedriver",
    "/usr/bin/chromedriver",
];

fn on_path(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        let p = PathBuf::from(name);
        return p.is_file().then_some(p);
    }
    which::which(name).ok()
}

/// The browser binary: `explicit`, else the first of the usual names on PATH.
pub fn find_browser(explicit: Option<&Path>) -> Result<PathBuf> {
    find("browser (Chromium)", explicit, BROWSER_CANDIDATES)
}

/// The chromedriver binary: `explicit`, else the usual names and places.
pub fn find_driver(explicit: Option<&Path>) -> Result<PathBuf> {
    find("driver (chromedriver)", explicit, DRIVER_CANDIDATES)
}

fn find(what: &'static str, explicit: Option<&Path>, names: &[&str]) -> Result<PathBuf> {
    if let Some(p) = explicit {
        return if p.is_file() {
            Ok(p.to_path_buf())
        } else {
            Err(Error::MissingBinary {
                what,
                tried: Some(p.display().to_string()),
            })
        };
    }
    names
        .iter()
        .find_map(|n| on_path(n))
        .ok_or_else(|| Error::MissingBinary {
            what,
            tried: Some(names.join(", ")),
        })
}

/// Stack limit given to the browser's processes (bytes).
pub const RENDERER_STACK: libc::rlim_t = 512 * 1024 * 1024;

/// A free TCP port on 127.0.0.1.
pub fn free_port() -> Result<u16> {
    let l = TcpListener::bind("127.0.0.1:0")
        .map_err(|e| Error::Browser(format!("no free local port: {e}")))?;
    Ok(l.local_addr()
        .map_err(|e| Error::Browser(e.to_string()))?
        .port())
}

/// A started driver: where it listens and its process id.
#[derive(Debug, Clone)]
pub struct Driver {
    pub url: String,
    pub pid: u32,
}

/// Starts chromedriver in its own process group, logging to `log`, and waits (without
/// blocking the runtime) until it accepts connections.
pub async fn start_driver(driver: &Path, log: &Path) -> Result<Driver> {
    use std::os::unix::process::CommandExt;
    let port = free_port()?;
    let logf = std::fs::File::create(log).map_err(|e| Error::io("create", log, e))?;
    let logf2 = logf.try_clone().map_err(|e| Error::io("open", log, e))?;
    let mut cmd = Command::new(driver);
    cmd.arg(format!("--port={port}"))
        .arg("--allowed-ips=127.0.0.1")
        .stdin(Stdio::null())
        .stdout(logf)
        .stderr(logf2)
        .process_group(0);
    // Chromium lays out nested blocks recursively on the renderer's main thread, whose stack
    // is bounded by RLIMIT_STACK (8 MiB by default): a few thousand nested <div>s crash the
    // tab. The driver, the browser and its renderers inherit a larger limit from here.
    // SAFETY: setrlimit is async-signal-safe and touches only the child.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: RENDERER_STACK,
                rlim_max: libc::RLIM_INFINITY,
            };
            let mut cur = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            if libc::getrlimit(libc::RLIMIT_STACK, &mut cur) == 0 {
                let want = libc::rlimit {
                    rlim_cur: if cur.rlim_max == libc::RLIM_INFINITY {
                        lim.rlim_cur
                    } else {
                        lim.rlim_cur.min(cur.rlim_max)
                    },
                    rlim_max: cur.rlim_max,
                };
                libc::setrlimit(libc::RLIMIT_STACK, &want);
            }
            Ok(())
        });
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| Error::Browser(format!("could not start {}: {e}", driver.display())))?;
    let pid = child.id();
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(Ok(_)) = tokio::time::timeout(
            Duration::from_millis(200),
            tokio::net::TcpStream::connect(addr),
        )
        .await
        {
            break;
        }
        if let Ok(Some(status)) = child.try_wait() {
            let tail = std::fs::read_to_string(log).unwrap_or_default();
            return Err(Error::Browser(format!(
                "{} exited at start ({status}): {}",
                driver.display(),
                tail.lines().last().unwrap_or("")
            )));
        }
        if Instant::now() > deadline {
            tokio::task::spawn_blocking(move || kill_group(pid))
                .await
                .ok();
            return Err(Error::Browser(format!(
                "{} did not listen on port {port} within 20 s",
                driver.display()
            )));
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    // The driver must outlive this process: forget the handle without waiting.
    std::mem::forget(child);
    Ok(Driver {
        url: format!("http://127.0.0.1:{port}"),
        pid,
    })
}

/// WebDriver capabilities for headless Chromium with our flags and a private profile.
pub fn chrome_capabilities(
    browser: &Path,
    user_data_dir: &Path,
) -> serde_json::Map<String, serde_json::Value> {
    let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
    args.push(format!("--user-data-dir={}", user_data_dir.display()));
    let caps = serde_json::json!({
        "browserName": "chrome",
        "pageLoadStrategy": "normal",
        "unhandledPromptBehavior": {"default": "ignore", "beforeUnload": "ignore"},
        "goog:chromeOptions": {
            "binary": browser.display().to_string(),
            "args": args,
            "excludeSwitches": ["enable-automation"],
        },
    });
    match caps {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    }
}

/// True while a process with this pid exists.
pub fn alive(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // SAFETY: kill with signal 0 only checks for existence.
    unsafe { libc::kill(pid, 0) == 0 }
}

/// Ends a process group (the driver and any browser it started in it). Blocks up to 3 s:
/// async code runs it on the blocking pool.
pub fn kill_group(pid: u32) {
    let Ok(pid) = i32::try_from(pid) else { return };
    // SAFETY: plain signal delivery to a process group we created.
    unsafe {
        libc::kill(-pid, libc::SIGTERM);
    }
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline && alive(pid as u32) {
        reap(pid);
        std::thread::sleep(Duration::from_millis(20));
    }
    if alive(pid as u32) {
        // SAFETY: as above.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        reap(pid);
    }
}

fn reap(pid: i32) {
    // A driver started by this very process would stay a zombie without this.
    // SAFETY: non-blocking wait on a pid; harmless when it is not our child.
    unsafe {
        libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG);
    }
}

/// Ends every process whose command line names `needle` (the browser processes of one
/// private profile), so closing a session leaves nothing behind even when the driver did not
/// clean up.
pub fn kill_matching(needle: &str) -> usize {
    let mut killed = 0;
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let me = std::process::id();
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd);
        if cmd.contains(needle) {
            // SAFETY: signal to a process we identified by its command line.
            unsafe {
                libc::kill(pid as i32, libc::SIGKILL);
            }
            reap(pid as i32);
            killed += 1;
        }
    }
    killed
}

/// Pids of processes whose command line names `needle`.
pub fn pids_matching(needle: &str) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            // zombies have an empty command line
            if !cmd.is_empty() && String::from_utf8_lossy(&cmd).contains(needle) {
                out.push(pid);
            }
        }
    }
    out
}
