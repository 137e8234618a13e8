//! The `ariasnap` binary: parse, run, print `error:` / `caused by:` / `hint:`, exit code.

mod app;
mod cli;
mod demo;

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match cli::parse(std::env::args_os()) {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => {
            // --help, --version
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // docs/reference/faults.md#messages: one `error:` line and a `hint:` line, not clap's usage block
            let text = e.render().to_string();
            // the first paragraph: "the following required arguments were not provided:"
            // goes on with the arguments' names on lines of their own
            let first: Vec<&str> = text
                .lines()
                .skip_while(|l| l.trim().is_empty())
                .take_while(|l| !l.trim().is_empty() && !l.starts_with("Usage:"))
                .map(str::trim)
                .collect();
            let first = first.join(" ");
            let first = first.strip_prefix("error: ").unwrap_or(&first);
            let first = if first.is_empty() {
                "invalid arguments"
            } else {
                first
            };
            eprintln!("error: {}", ariasnap::error::one_line(first));
            let tip = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("tip: "))
                .map(|t| format!("{}; ", ariasnap::error::one_line(t)))
                .unwrap_or_default();
            eprintln!(
                "hint: {tip}`ariasnap --help` lists the commands and options, `ariasnap COMMAND --help` one command's"
            );
            return ExitCode::from(2);
        }
    };
    // a command is short-lived: its heap grows in one step and stays grown (tune_malloc);
    // the servers (the MCP servers, the policy guard, the reaper) live on, and keep only
    // what they use (glibc's defaults give freed memory back)
    if !cli.command.long_lived() {
        let _ = tune_malloc();
    } else {
        one_arena();
    }
    init_tracing();
    // The main thread's stack, not a worker's: renderings of deep pages are iterative, but
    // serde and the driver are not ours.
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: could not start the async runtime: {e}");
            return ExitCode::from(3);
        }
    };
    match rt.block_on(app::run(cli)) {
        Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        Err(e) => {
            // docs/reference/faults.md#messages: one line of `error:`, then optionally `caused by:` and `hint:`
            use ariasnap::error::one_line;
            eprintln!("error: {}", one_line(&e.to_string()));
            let mut src = std::error::Error::source(&e);
            while let Some(s) = src {
                eprintln!("caused by: {}", one_line(&s.to_string()));
                src = s.source();
            }
            if let Some(h) = e.hint() {
                eprintln!("hint: {}", one_line(&h));
            }
            ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(1))
        }
    }
}

fn init_tracing() {
    use tracing_subscriber::EnvFilter;
    use tracing_subscriber::filter::LevelFilter;
    // span closings carry their duration (time.busy), so RUST_LOG=ariasnap=info shows where
    // a slow call went: browser_initialize, capture_snapshot, format_snapshot
    let fmt = tracing_subscriber::fmt()
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .with_writer(|| MaskedStderr(Vec::new()))
        .with_ansi(
            std::env::var_os("NO_COLOR").is_none()
                && std::io::IsTerminal::is_terminal(&std::io::stderr()),
        );
    // Without RUST_LOG, a plain level: an EnvFilter compiles regexes, which cost every
    // command about a millisecond of start-up
    let _ = match std::env::var_os("RUST_LOG").filter(|v| !v.is_empty()) {
        Some(v) => {
            let mut filter = EnvFilter::from_default_env();
            // rmcp logs each request's arguments at debug, before ariasnap can know that a
            // value goes into a password field (docs/reference/policy.md#typed-passwords):
            // its debug lines only when RUST_LOG names it
            if !v.to_string_lossy().contains("rmcp")
                && let Ok(d) = "rmcp=info".parse()
            {
                filter = filter.add_directive(d);
            }
            fmt.with_env_filter(filter).try_init()
        }
        None => fmt.with_max_level(LevelFilter::WARN).try_init(),
    };
}

/// A log line on its way to stderr: kept whole, then written with the operator's secrets
/// masked (docs/reference/policy.md#secrets: no log holds a secret's value).
struct MaskedStderr(Vec<u8>);

impl std::io::Write for MaskedStderr {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for MaskedStderr {
    fn drop(&mut self) {
        use std::io::Write;
        let _ = std::io::stderr().write_all(&ariasnap::vault::mask_bytes(&self.0));
    }
}

/// A command is a short-lived process that builds and drops a few large structures (the page's
/// reply, the snapshot, its rendering: about 10 MB at 10,000 elements), and with glibc's
/// defaults every 4 KiB page of them is a page fault: 2,550 per warm `snapshot` of
/// `mixed-10000`, 19,900 of `mixed-100000`, half the process's CPU in the kernel. So the heap
/// grows in one 32 MiB step, stays grown (no trimming under 64 MiB, no mmap for blocks under 32
/// MiB), and that step is advised to be backed by transparent huge pages (the kernel's
/// `madvise` mode, Debian's default). `perf stat`, warm snapshots: 2,550 -> 1,000 faults and
/// 11.5-12.6 -> 9.1-9.7 ms of CPU at 10,000 elements; 19,900 -> 8,700 faults and 82 -> 62 ms at 100,000
/// (peak RSS 74 -> 79 MB). What glibc's `hugetlb=1`, `mmap_threshold` and `top_pad` tunables do,
/// set from inside (tunables are read from the environment before `main`). The range advised,
/// if any; elsewhere (another libc, another OS) nothing changes.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tune_malloc() -> Option<(usize, usize)> {
    const STEP: usize = 32 << 20;
    const HUGE: usize = 2 << 20;
    // SAFETY: mallopt, sbrk(0), malloc/free and madvise of the heap's own range, early in
    // main, before any thread exists; a refused option or advice leaves glibc's defaults.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, STEP as libc::c_int);
        libc::mallopt(libc::M_TRIM_THRESHOLD, (2 * STEP) as libc::c_int);
        libc::mallopt(libc::M_TOP_PAD, STEP as libc::c_int);
        let before = libc::sbrk(0) as usize;
        // a block larger than the heap's free top makes it grow now, by the block and STEP
        // (black_box: a malloc freed unused may be optimised away)
        let p = std::hint::black_box(libc::malloc(1 << 20));
        libc::free(p);
        let after = libc::sbrk(0) as usize;
        // sbrk's failure is (void *) -1
        if before == usize::MAX || after == usize::MAX {
            return None;
        }
        let start = before.checked_add(HUGE - 1)? & !(HUGE - 1);
        let end = after & !(HUGE - 1);
        if end <= start {
            return None;
        }
        (libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) == 0)
            .then_some((start, end - start))
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn tune_malloc() -> Option<(usize, usize)> {
    None
}

/// A server's threads (the runtime's blocking pool: a few, now and then) share the main
/// heap: glibc gives each new thread an arena of its own, whose free memory stays with it.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn one_arena() {
    // SAFETY: mallopt before any thread exists; a refused option leaves glibc's default.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn one_arena() {}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    const CHILD: &str = "ARIASNAP_TEST_HEAP_CHILD";

    /// The heap's first step is advised for huge pages: the kernel lists the range with the
    /// `hg` flag (MADV_HUGEPAGE) in /proc/self/smaps. A test thread allocates from an arena of
    /// its own, not the heap, so the check runs in a child test process whose threads all use
    /// the main arena (MALLOC_ARENA_MAX=1), as the binary's main thread does.
    #[test]
    fn the_heap_step_is_advised_for_huge_pages() {
        if std::env::var_os(CHILD).is_some() {
            return advised_in_this_process();
        }
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "tests::the_heap_step_is_advised_for_huge_pages"])
            .args(["--nocapture", "--test-threads=1"])
            .env(CHILD, "1")
            .env("MALLOC_ARENA_MAX", "1")
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success() && text.contains("1 passed"), "{text}");
    }

    fn advised_in_this_process() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists() {
            eprintln!("skipped: this kernel has no transparent huge pages");
            return;
        }
        let (start, len) = super::tune_malloc().expect("the heap grew and took the advice");
        assert!(len >= 30 << 20, "advised {len} bytes");
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        let mut flags = None;
        for line in smaps.lines() {
            // a mapping's first line: "start-end perms offset dev inode path"
            let range = line.split_once(' ').and_then(|(r, _)| r.split_once('-'));
            if let Some((Ok(a), Ok(b))) =
                range.map(|(a, b)| (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16)))
            {
                inside = a <= start && start < b;
                continue;
            }
            if let Some(f) = line.strip_prefix("VmFlags:").filter(|_| inside) {
                flags = Some(f.to_string());
                break;
            }
        }
        let flags = flags.expect("the advised range is mapped");
        assert!(
            flags.split_whitespace().any(|f| f == "hg"),
            "VmFlags of the range: {flags}"
        );
    }
}
