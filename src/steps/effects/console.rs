//! The console errors of an action's effects (docs/reference/replies.md#http-and-console-errors):
//! the BiDi `log.entryAdded` entries the action's stream heard, those still on their way
//! taken in, and the errors among them worded.
//!
//! Owns: which entries are the action's errors. Must not: open the stream (effects.rs
//! does, before the action).

use super::ConsoleError;
use crate::browser::Browser;
use crate::engine::bidi::{Event, Events, LogEntry};
use std::time::Duration;

/// How long the console entries the page's record says were made may take to arrive.
const CONSOLE_WAIT: Duration = Duration::from_millis(300);

/// Takes in the `console.error` entries still on their way: the browser sends each as a
/// BiDi event some ms after the page made the call (15 to 25 ms on Chromium, more on a
/// loaded machine), which can be after the action settled.
///
/// - The page's record is read with a BiDi call in the tab's document (the engine's own
///   calls go through DevTools, outside the BiDi stream). ChromeDriver's BiDi mapper sends
///   its events and its answers in the order it took them in (chromium-bidi's one outgoing
///   queue), and it takes in the page's console entry before the answer of a call that ran
///   after it (one DevTools session per target, in order): when the answer is here, so
///   are the entries the tab's document made before it, and they are taken in then.
/// - The page's own record (the console hook, synchronous with the call, once a call
///   installed it in this document) says how many came since the action's recording began
///   (`since`, the page's clock); those still not heard are waited for, at most
///   [`CONSOLE_WAIT`] (a driver that keeps no such order).
pub(super) async fn console_in_flight(
    b: &Browser,
    ev: &mut Events,
    logs: &mut Vec<LogEntry>,
    since: f64,
) {
    let record = crate::engine::console_messages(&b.page, false).await;
    for e in ev.drain() {
        if let Event::LogEntry(l) = e {
            logs.push(*l);
        }
    }
    let made = match record {
        Ok(c) => c
            .messages
            .iter()
            .filter(|m| m.level == "error" && m.at.as_f64().unwrap_or(0.0) >= since)
            .count(),
        Err(_) => return,
    };
    let heard = |logs: &[LogEntry]| {
        logs.iter()
            .filter(|l| l.kind == "console" && l.level == "error")
            .count()
    };
    let until = tokio::time::Instant::now() + CONSOLE_WAIT;
    while heard(logs) < made {
        match tokio::time::timeout_at(until, ev.next()).await {
            Ok(Some(Event::LogEntry(l))) => logs.push(*l),
            Ok(Some(_)) => {}
            _ => break,
        }
    }
}

/// The errors among the console entries of the action: `console.error` calls, uncaught
/// exceptions and unhandled rejections of the tab's documents (its frames' too), at most 5.
pub(super) async fn console_errors(b: &Browser, logs: Vec<LogEntry>) -> Vec<ConsoleError> {
    use crate::browser::watch::store::{console_text, frames};
    let errors: Vec<LogEntry> = logs.into_iter().filter(|l| l.level == "error").collect();
    if errors.is_empty() {
        return Vec::new();
    }
    let tab = b.record.current_handle();
    // the tab's frames, asked only when an entry came from another context than the tab
    let mut contexts = vec![tab.clone()];
    if errors
        .iter()
        .any(|l| l.source.context.as_deref() != Some(&tab))
        && let Some(bidi) = b.page.bidi()
        && let Ok(t) = bidi
            .send(&crate::engine::bidi::GetTree {
                max_depth: None,
                root: Some(tab.clone()),
            })
            .await
    {
        let mut todo = t.contexts;
        while let Some(c) = todo.pop() {
            contexts.push(c.context.clone());
            todo.extend(c.children.unwrap_or_default());
        }
    }
    errors
        .iter()
        .filter(|l| {
            l.source
                .context
                .as_ref()
                .is_some_and(|c| contexts.contains(c))
        })
        .take(5)
        .map(|l| {
            let text = if l.kind == "console" && !l.args.is_empty() {
                console_text(&l.args)
            } else {
                l.text.clone().unwrap_or_default()
            };
            ConsoleError {
                text: crate::snapshot::render::cut(&text, 300),
                at: frames(l.stack_trace.as_ref()).first().map(|f| f.at()),
            }
        })
        .collect()
}
