//! `ariasnap doctor` (docs/reference/cli.md#doctor): whether this machine can run sessions,
//! one line per check, `ok ...` or `problem ...; fix: ...`, and `info` lines for what does not
//! decide it (the other browser, local binaries beside a `--webdriver` endpoint).
//!
//! Owns: the checks and their words: the browser `--browser` selects and its driver, found as
//! a session's launch finds them (`browser::launch`), their `--version`s and whether they go
//! together, the state directory, a WebDriver endpoint's `/status`. Must not: start a
//! session or change anything on disk.

use crate::browser::BrowserOptions;
use crate::browser::launch::{BrowserKind, find_browser_for, find_driver_for};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a binary may take to say its version, and an endpoint to answer `/status`.
const PROBE_LIMIT: Duration = Duration::from_secs(15);

/// What `doctor` found: its lines, in order.
#[derive(Debug, Default)]
pub struct Report {
    pub lines: Vec<String>,
    problems: usize,
}

impl Report {
    /// No check found a problem.
    pub fn all_well(&self) -> bool {
        self.problems == 0
    }

    fn push(&mut self, c: Check) {
        match c.fix {
            None => self.lines.push(format!("ok {}: {}", c.what, c.text)),
            Some(fix) => {
                self.problems += 1;
                self.lines
                    .push(format!("problem {}: {}; fix: {fix}", c.what, c.text));
            }
        }
    }

    fn info(&mut self, text: String) {
        self.lines.push(format!("info {text}"));
    }
}

/// One check: what it is about, what was found, and the fix when it is a problem.
#[derive(Debug, Clone)]
struct Check {
    what: &'static str,
    text: String,
    fix: Option<String>,
}

impl Check {
    fn ok(what: &'static str, text: String) -> Check {
        Check {
            what,
            text,
            fix: None,
        }
    }

    fn problem(what: &'static str, text: String, fix: String) -> Check {
        Check {
            what,
            text,
            fix: Some(fix),
        }
    }
}

/// Runs every check for `opts` (its `--browser`, `--driver` and `--webdriver`).
pub async fn run(opts: &BrowserOptions) -> Report {
    let mut r = Report::default();
    let (kind, browser) = BrowserKind::of_choice(opts.browser.as_deref());
    let other = match kind {
        BrowserKind::Chromium => BrowserKind::Firefox,
        BrowserKind::Firefox => BrowserKind::Chromium,
    };
    let (mine, theirs) = tokio::join!(
        pair(kind, browser.as_deref(), opts.driver.as_deref()),
        pair(other, None, None)
    );
    match &opts.webdriver {
        None => {
            for c in mine {
                r.push(c);
            }
        }
        Some(url) => {
            r.push(endpoint(url, kind).await);
            r.info(folded(kind, &mine, "not used with --webdriver"));
        }
    }
    if let Some(addr) = &opts.attach {
        r.push(attach(addr, opts).await);
    }
    r.push(state_dir(&crate::private::home()));
    r.info(folded(
        other,
        &theirs,
        &format!("--browser {}", other.name()),
    ));
    r
}

/// `--attach ADDR`: what listens there, and the driver that reaches it.
async fn attach(addr: &str, opts: &BrowserOptions) -> Check {
    match crate::browser::attach::probe(addr).await {
        Ok(at) => match find_driver_for(at.kind(), opts.driver.as_deref()) {
            Ok(d) => Check::ok(
                "attach",
                format!(
                    "{addr} is {}; a session attaches through {} in a tab of its own",
                    at.describe(),
                    d.display()
                ),
            ),
            Err(e) => Check::problem(
                "attach",
                format!("{addr} is {}, but {e}", at.describe()),
                driver_fix(at.kind(), opts.driver.as_deref()),
            ),
        },
        Err(e) => {
            let text = e.to_string();
            let (what, fix) = text.split_once("; ").unwrap_or((&text, ""));
            Check::problem("attach", what.to_string(), fix.to_string())
        }
    }
}

/// The checks of one browser and its driver: found, versions, versions that go together.
async fn pair(kind: BrowserKind, browser: Option<&Path>, driver: Option<&Path>) -> Vec<Check> {
    let b = find_browser_for(kind, browser);
    let d = find_driver_for(kind, driver);
    let (bv, dv) = tokio::join!(version_of(b.as_ref().ok()), version_of(d.as_ref().ok()));
    let mut out = vec![
        found("browser", kind, &b, &bv, browser_fix(kind, browser)),
        found("driver", kind, &d, &dv, driver_fix(kind, driver)),
    ];
    if let (Some(Ok(bv)), Some(Ok(dv))) = (&bv, &dv) {
        out.push(matching(kind, bv, dv));
    }
    out
}

/// A binary's `--version`: its first line up to the version number (`Chromium
/// 156.0.8078.108`), and the number's parts. None when there is no binary.
async fn version_of(bin: Option<&PathBuf>) -> Option<Result<Version, String>> {
    let bin = bin?;
    let mut cmd = tokio::process::Command::new(bin);
    cmd.arg("--version")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    let out = match tokio::time::timeout(PROBE_LIMIT, cmd.output()).await {
        Err(_) => {
            return Some(Err(format!(
                "no answer to --version within {PROBE_LIMIT:?}"
            )));
        }
        Ok(Err(e)) => return Some(Err(format!("could not run it: {e}"))),
        Ok(Ok(o)) => o,
    };
    let text = String::from_utf8_lossy(&out.stdout);
    Some(Version::read(&text).ok_or_else(|| {
        let said = crate::error::one_line(text.trim());
        format!("its --version said {said:?}, not a version")
    }))
}

/// A version as a binary prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Version {
    /// The first line up to the number (`Mozilla Firefox 153.8.0esr`).
    shown: String,
    /// The number's parts (153, 8, 0).
    parts: Vec<u32>,
}

impl Version {
    fn read(text: &str) -> Option<Version> {
        let re = regex::Regex::new(r"\d+(\.\d+)+[a-z]*").ok()?;
        for line in text.lines() {
            if let Some(m) = re.find(line) {
                let parts = m
                    .as_str()
                    .trim_end_matches(|c: char| c.is_ascii_alphabetic())
                    .split('.')
                    .filter_map(|p| p.parse().ok())
                    .collect();
                return Some(Version {
                    shown: line[..m.end()].trim().to_string(),
                    parts,
                });
            }
        }
        None
    }

    fn major(&self) -> u32 {
        self.parts.first().copied().unwrap_or(0)
    }

    fn at_least(&self, want: &[u32]) -> bool {
        let mut me = self.parts.clone();
        me.resize(want.len().max(me.len()), 0);
        me.as_slice() >= want
    }
}

fn found(
    what: &'static str,
    kind: BrowserKind,
    bin: &crate::Result<PathBuf>,
    version: &Option<Result<Version, String>>,
    fix: String,
) -> Check {
    match (bin, version) {
        (Err(crate::Error::MissingBinary { tried, .. }), _) => {
            let name = match (what, kind) {
                ("driver", BrowserKind::Chromium) => "chromedriver",
                ("driver", BrowserKind::Firefox) => "geckodriver",
                (_, BrowserKind::Chromium) => "Chromium",
                (_, BrowserKind::Firefox) => "Firefox",
            };
            let tried = tried.as_deref().unwrap_or("?");
            Check::problem(what, format!("{name} not found (looked for {tried})"), fix)
        }
        (Err(e), _) => Check::problem(what, e.to_string(), fix),
        (Ok(p), Some(Ok(v))) => Check::ok(what, format!("{} ({})", v.shown, p.display())),
        (Ok(p), Some(Err(e))) => Check::problem(
            what,
            format!("{} does not work: {e}", p.display()),
            format!("reinstall it, or give another one: {fix}"),
        ),
        (Ok(p), None) => Check::ok(what, format!("{} ({})", kind.name(), p.display())),
    }
}

/// `sudo ` unless this process is root already.
fn sudo() -> &'static str {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        ""
    } else {
        "sudo "
    }
}

fn browser_fix(kind: BrowserKind, given: Option<&Path>) -> String {
    if let Some(p) = given {
        return format!(
            "--browser {} (or ARIASNAP_BROWSER) is not a file: give the browser's path, or chromium or firefox to find it on PATH",
            p.display()
        );
    }
    match kind {
        BrowserKind::Chromium => format!(
            "{}apt-get install -y chromium chromium-driver, or --browser PATH",
            sudo()
        ),
        BrowserKind::Firefox => format!(
            "{}apt-get install -y firefox-esr, or --browser PATH to a binary whose name contains firefox",
            sudo()
        ),
    }
}

fn driver_fix(kind: BrowserKind, given: Option<&Path>) -> String {
    if let Some(p) = given {
        return format!(
            "--driver {} (or ARIASNAP_DRIVER) is not a file: give the driver's path, or leave it out to find {} on PATH",
            p.display(),
            match kind {
                BrowserKind::Chromium => "chromedriver",
                BrowserKind::Firefox => "geckodriver",
            }
        );
    }
    match kind {
        BrowserKind::Chromium => format!(
            "{}apt-get install -y chromium-driver, or --driver PATH",
            sudo()
        ),
        BrowserKind::Firefox => {
            "cargo install --locked geckodriver, or --driver PATH; ariasnap looks in ~/.cargo/bin too".into()
        }
    }
}

/// Chromium and chromedriver of one major version; Firefox within what the geckodriver
/// release supports (its own table of minimum and maximum Firefox versions).
fn matching(kind: BrowserKind, browser: &Version, driver: &Version) -> Check {
    match kind {
        BrowserKind::Chromium => {
            let (b, d) = (browser.major(), driver.major());
            if b == d {
                Check::ok(
                    "versions",
                    format!("Chromium {b} and chromedriver {d} match"),
                )
            } else {
                Check::problem(
                    "versions",
                    format!(
                        "Chromium {b} but chromedriver {d}: chromedriver drives only its own major version"
                    ),
                    format!(
                        "install the chromedriver of this Chromium: {}apt-get install -y chromium chromium-driver upgrades both; or --browser PATH --driver PATH to a pair of one version",
                        sudo()
                    ),
                )
            }
        }
        BrowserKind::Firefox => {
            let (min, max) = firefox_range(driver);
            let f = browser.major();
            let gecko = driver
                .parts
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(".");
            let range = match max {
                Some(max) => format!("Firefox {min} to {max}"),
                None => format!("Firefox {min} or newer"),
            };
            if f >= min && max.is_none_or(|m| f <= m) {
                Check::ok(
                    "versions",
                    format!("geckodriver {gecko} supports Firefox {f} ({range})"),
                )
            } else if f < min {
                Check::problem(
                    "versions",
                    format!("geckodriver {gecko} needs {range}, this is Firefox {f}"),
                    format!(
                        "upgrade Firefox: {}apt-get install -y firefox-esr; or a geckodriver for it: cargo install --locked geckodriver --version 0.35.0 supports Firefox 115 and newer",
                        sudo()
                    ),
                )
            } else {
                Check::problem(
                    "versions",
                    format!("geckodriver {gecko} supports {range}, this is Firefox {f}"),
                    "install the newest geckodriver: cargo install --locked geckodriver".into(),
                )
            }
        }
    }
}

/// The Firefox versions a geckodriver release supports, from geckodriver's "Supported
/// platforms" table (releases after 0.36 are taken to keep 0.36's minimum).
fn firefox_range(gecko: &Version) -> (u32, Option<u32>) {
    if gecko.at_least(&[0, 36]) {
        (128, None)
    } else if gecko.at_least(&[0, 34]) {
        (115, None)
    } else if gecko.at_least(&[0, 32]) {
        (102, Some(120))
    } else if gecko.at_least(&[0, 31]) {
        (91, Some(120))
    } else if gecko.at_least(&[0, 30]) {
        (78, Some(90))
    } else {
        (60, Some(90))
    }
}

/// The other browser's checks (or the local ones beside an endpoint) as one line.
fn folded(kind: BrowserKind, checks: &[Check], why: &str) -> String {
    let problems: Vec<String> = checks
        .iter()
        .filter_map(|c| c.fix.as_ref().map(|f| format!("{} (fix: {f})", c.text)))
        .collect();
    let found: Vec<&str> = checks
        .iter()
        .filter(|c| c.fix.is_none() && c.what != "versions")
        .map(|c| c.text.as_str())
        .collect();
    if problems.is_empty() {
        format!("{} ({why}): ready: {}", kind.name(), found.join(", "))
    } else {
        format!(
            "{} ({why}): not ready: {}",
            kind.name(),
            problems.join("; ")
        )
    }
}

/// A `--webdriver` endpoint: does its `/status` say a session could start?
async fn endpoint(url: &str, kind: BrowserKind) -> Check {
    match crate::engine::endpoint_status(url, PROBE_LIMIT).await {
        Ok((true, m)) => Check::ok("webdriver", format!("{url} is ready ({m:?})")),
        Ok((false, m)) => Check::problem(
            "webdriver",
            format!("{url} answers but is not ready ({m:?})"),
            format!(
                "a driver takes one session at a time: wait for it or start another; a Selenium Grid needs a node with a free {} slot (docs/reference/browsers.md#selenium-grid)",
                kind.name()
            ),
        ),
        Err(e) => Check::problem(
            "webdriver",
            match e {
                crate::Error::Browser(m) | crate::Error::Usage(m) => m,
                e => e.to_string(),
            },
            "start the driver or grid at that address, or correct --webdriver (ARIASNAP_WEBDRIVER)"
                .into(),
        ),
    }
}

/// The state directory: there or makeable, writable, owned by this user, and its
/// layout-versioned directories (`sessions-v1`...) private (0700).
fn state_dir(home: &Path) -> Check {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let what = "state directory";
    let shown = home.display();
    let elsewhere = "or set ARIASNAP_HOME to a directory of your own";
    let Ok(meta) = std::fs::metadata(home) else {
        // not made yet: the first session makes it, if its nearest existing parent lets it
        let parent = home.ancestors().skip(1).find(|p| p.exists());
        return match parent {
            Some(p) if writable(p) => Check::ok(
                what,
                format!("{shown} (not made yet: the first command that needs it makes it)"),
            ),
            _ => Check::problem(
                what,
                format!("{shown} does not exist and cannot be made here"),
                format!("make it (mkdir -p {shown}) or set ARIASNAP_HOME to a writable directory"),
            ),
        };
    };
    if !meta.is_dir() {
        return Check::problem(
            what,
            format!("{shown} is not a directory"),
            format!("move it away, {elsewhere}"),
        );
    }
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    let mut private = Vec::new();
    let mut open = Vec::new();
    for d in std::fs::read_dir(home).into_iter().flatten().flatten() {
        let name = d.file_name().to_string_lossy().to_string();
        let layout = name
            .rsplit_once("-v")
            .is_some_and(|(_, n)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        let Ok(m) = d.metadata() else { continue };
        if layout && m.is_dir() {
            if m.permissions().mode() & 0o077 == 0 && m.uid() == me {
                private.push(name);
            } else {
                open.push(d.path().display().to_string());
            }
        }
    }
    if meta.uid() != me {
        return Check::problem(
            what,
            format!("{shown} belongs to another user (uid {})", meta.uid()),
            elsewhere.into(),
        );
    }
    if !writable(home) {
        return Check::problem(
            what,
            format!("{shown} is not writable"),
            format!("chmod u+w {shown}, {elsewhere}"),
        );
    }
    if !open.is_empty() {
        open.sort();
        return Check::problem(
            what,
            format!("{} not private (0700, yours)", open.join(", ")),
            format!("chmod 700 {}", open.join(" ")),
        );
    }
    private.sort();
    let private = if private.is_empty() {
        String::new()
    } else {
        format!("; private: {}", private.join(", "))
    };
    Check::ok(what, format!("{shown} (writable{private})"))
}

/// A file can be made in `dir` (made and removed at once: an unnamed temporary file).
fn writable(dir: &Path) -> bool {
    tempfile::tempfile_in(dir).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Version {
        Version::read(text).unwrap()
    }

    #[test]
    fn versions_are_read_as_the_binaries_print_them() {
        let c = v("Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)\n");
        assert_eq!(c.shown, "Chromium 156.0.8078.108");
        assert_eq!(c.major(), 156);
        let d = v("ChromeDriver 156.0.8078.108 (730482a9-refs/branch-heads/8078@{#2244})");
        assert_eq!(d.shown, "ChromeDriver 156.0.8078.108");
        let f = v("Mozilla Firefox 153.8.0esr");
        assert_eq!(
            (f.shown.as_str(), f.major()),
            ("Mozilla Firefox 153.8.0esr", 153)
        );
        let g = v("geckodriver 0.37.1\n\nThe source code of this program is available...");
        assert_eq!(g.parts, [0, 37, 1]);
        assert!(Version::read("no number here").is_none());
    }

    #[test]
    fn versions_that_go_together() {
        let ok = matching(
            BrowserKind::Chromium,
            &v("Chromium 156.0.1"),
            &v("ChromeDriver 156.0.2"),
        );
        assert!(ok.fix.is_none(), "{ok:?}");
        let bad = matching(
            BrowserKind::Chromium,
            &v("Chromium 155.0.1"),
            &v("ChromeDriver 156.0.2"),
        );
        assert!(
            bad.text.contains("Chromium 155 but chromedriver 156"),
            "{bad:?}"
        );
        assert!(bad.fix.unwrap().contains("chromium-driver"));
        let ff = |f: &str, g: &str| matching(BrowserKind::Firefox, &v(f), &v(g));
        assert!(
            ff("Mozilla Firefox 153.8.0esr", "geckodriver 0.37.1")
                .fix
                .is_none()
        );
        assert!(
            ff("Mozilla Firefox 115.0esr", "geckodriver 0.35.0")
                .fix
                .is_none()
        );
        let old = ff("Mozilla Firefox 115.0esr", "geckodriver 0.36.0");
        assert!(
            old.text
                .contains("needs Firefox 128 or newer, this is Firefox 115"),
            "{old:?}"
        );
        let new = ff("Mozilla Firefox 125.0", "geckodriver 0.33.0");
        assert!(new.text.contains("supports Firefox 102 to 120"), "{new:?}");
        assert!(
            new.fix
                .unwrap()
                .contains("cargo install --locked geckodriver")
        );
    }

    #[test]
    fn the_state_directory_is_checked_not_changed() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("state/ariasnap");
        let c = state_dir(&home);
        assert!(c.fix.is_none() && c.text.contains("not made yet"), "{c:?}");
        assert!(!home.exists(), "doctor makes nothing");
        crate::private::make_dir(&home.join("sessions-v1")).unwrap();
        let c = state_dir(&home);
        assert!(
            c.fix.is_none() && c.text.contains("private: sessions-v1"),
            "{c:?}"
        );
        let notes = home.join("site-notes-v1");
        std::fs::create_dir(&notes).unwrap();
        std::fs::set_permissions(&notes, std::fs::Permissions::from_mode(0o755)).unwrap();
        let c = state_dir(&home);
        assert_eq!(
            c.fix.as_deref(),
            Some(format!("chmod 700 {}", notes.display()).as_str())
        );
        let file = tmp.path().join("f");
        std::fs::write(&file, "").unwrap();
        assert!(state_dir(&file).text.contains("is not a directory"));
    }
}
