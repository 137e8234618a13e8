//! MCP over stdio, spoken by the official Rust SDK's client (rmcp) to the real binary, in a
//! real browser: initialize, tools/list, navigate, snapshot, click by ref, see the diff.

use crate::common::{Ctx, Test};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Map, Value, json};

pub fn tests() -> Vec<Test> {
    trials![
        stdio_session_navigate_snapshot_click,
        results_are_text_unless_structured_is_asked,
        a_cancelled_call_stops_and_frees_the_agent
    ]
}

fn args(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// `ariasnap mcp ARGS` for the suite, to spawn as a stdio server: the suite's home and
/// browser, a private session, warnings only on stderr.
pub fn stdio_server(c: &Ctx, extra: &[&str]) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(&c.bin);
    cmd.arg("mcp")
        .args(extra)
        .env("ARIASNAP_HOME", c.home.path())
        .env_remove("ARIASNAP_SESSION")
        .env("ARIASNAP_BROWSER", crate::common::browser())
        .env("RUST_LOG", "warn");
    cmd
}

/// Navigates to `url` with a snapshot in the same call (`browser_navigate`), which must work.
async fn navigate(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    url: &str,
) -> rmcp::model::CallToolResult {
    let r = client
        .call_tool(
            CallToolRequestParams::new("browser_navigate")
                .with_arguments(args(json!({"url": url, "snapshot": {}}))),
        )
        .await
        .expect("navigate");
    assert_eq!(r.is_error, Some(false), "{r:?}");
    r
}

/// The text a tool result gives the model: its text blocks, one per line.
pub fn text_of(r: &rmcp::model::CallToolResult) -> String {
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn stdio_session_navigate_snapshot_click(c: &Ctx) {
    let mut cmd = stdio_server(c, &["--structured"]);
    cmd.env(
        "RUST_LOG",
        std::env::var("IT_MCP_LOG").unwrap_or_else(|_| "warn".into()),
    );
    let url = c.url("html/actions/shop.html");
    let big = c.url("html/big/generated.html?n=20000");
    let home = c.home.path().to_path_buf();
    c.rt.block_on(async move {
        let transport = TokioChildProcess::new(cmd).expect("spawn ariasnap mcp");
        let client = ().serve(transport).await.expect("initialize");
        let info = client.peer_info().expect("server info");
        assert_eq!(
            info.server_info.as_ref().map(|s| s.name.as_str()),
            Some("ariasnap")
        );
        let tools = client.list_all_tools().await.expect("tools/list");
        // docs/reference/mcp.md#tool-sets / issues 15 and 58: the default (core) tool set's definitions stay under 4,500 bytes
        let bytes = serde_json::to_string(&tools).unwrap().len();
        assert!(bytes < 4_500, "tools/list is {bytes} bytes");
        let names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
        for n in [
            "browser_navigate",
            "browser_snapshot",
            "browser_search",
            "browser_click",
            "browser_set",
            "browser_run_steps",
        ] {
            assert!(names.contains(&n.to_string()), "{n} in {names:?}");
        }
        // not listed in core, still callable below (browser_fill, browser_type)
        for n in ["browser_fill", "browser_type", "browser_hover"] {
            assert!(!names.contains(&n.to_string()), "{n} in {names:?}");
        }
        // navigate and get the snapshot in the same call
        let r = navigate(&client, &url).await;
        let s = r.structured_content.clone().unwrap();
        let snap = s["steps"][0]["output"]["snapshot"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(snap.contains("- button \"Pay\" [ref="), "{snap}");
        // a snapshot call
        let r = client
            .call_tool(CallToolRequestParams::new("browser_snapshot").with_arguments(Map::new()))
            .await
            .unwrap();
        let text = format!("{:?}", r.content);
        assert!(text.contains("checkbox"), "{text}");
        let snap = r.structured_content.unwrap()["steps"][0]["output"]
            .as_str()
            .unwrap()
            .to_string();
        let gift = crate::common::ref_of(&snap, "checkbox \"Gift wrap\"");
        let pay = crate::common::ref_of(&snap, "button \"Pay\"");
        // click by ref: the result is the diff, not the page
        let r = client
            .call_tool(
                CallToolRequestParams::new("browser_click")
                    .with_arguments(args(json!({"ref": gift}))),
            )
            .await
            .unwrap();
        let s = r.structured_content.unwrap();
        assert_eq!(
            s["changes"]["changed"][0],
            json!({"role": "checkbox", "name": "Gift wrap", "ref": gift, "field": "checked", "from": false, "to": true}),
            "{s:#}"
        );
        // a tool the core set does not list is called by name all the same
        let email = crate::common::ref_of(&snap, "textbox \"Email\"");
        let r = client
            .call_tool(
                CallToolRequestParams::new("browser_fill")
                    .with_arguments(args(json!({"ref": email, "value": "ada@example"}))),
            )
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{r:?}");
        let r = client
            .call_tool(
                CallToolRequestParams::new("browser_type")
                    .with_arguments(args(json!({"ref": email, "text": ".org"}))),
            )
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{r:?}");
        let r = client
            .call_tool(
                CallToolRequestParams::new("browser_evaluate").with_arguments(args(
                    json!({"expression": "document.querySelector('input[type=email]').value"}),
                )),
            )
            .await
            .unwrap();
        assert_eq!(
            r.structured_content.unwrap()["steps"][0]["output"],
            "ada@example.org"
        );
        // and an option the core browser_snapshot does not list
        let r = client
            .call_tool(
                CallToolRequestParams::new("browser_snapshot").with_arguments(args(
                    json!({"flatten": true, "jmespath_query": "[?role == 'button'].name"}),
                )),
            )
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{r:?}");
        let text = format!("{:?}", r.content);
        assert!(text.contains("Pay") && !text.contains("checkbox"), "{text}");
        // an unknown tool is a protocol error naming it
        let e = client
            .call_tool(CallToolRequestParams::new("browser_nothing").with_arguments(Map::new()))
            .await
            .unwrap_err();
        assert!(format!("{e:?}").contains("browser_nothing"), "{e:?}");
        let r = client
            .call_tool(
                CallToolRequestParams::new("browser_click")
                    .with_arguments(args(json!({"ref": pay}))),
            )
            .await
            .unwrap();
        let s = r.structured_content.unwrap();
        assert!(
            s["changes"]["added"]
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a["name"] == "Order placed"),
            "{s:#}"
        );
        // errors are tool errors with the CLI's messages
        let r = client
            .call_tool(
                CallToolRequestParams::new("browser_click")
                    .with_arguments(args(json!({"ref": "s999e9"}))),
            )
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(true));
        assert!(
            format!("{:?}", r.content).contains("unknown ref \\\"s999e9\\\": take a new snapshot"),
            "{:?}",
            r.content
        );
        // a whole step list in one call
        let r = client
            .call_tool(
                CallToolRequestParams::new("browser_run_steps")
                    .with_arguments(args(json!({"steps": [{"getTitle": {}}, {"getUrl": {}}]}))),
            )
            .await
            .unwrap();
        assert_eq!(
            r.structured_content.unwrap()["steps"][0]["output"],
            "Checkout"
        );
        // docs/reference/mcp.md#results: an explicit snapshot of a big page comes back inline within 4,000 tokens,
        // with the whole tree in a file, never as a bare file pointer
        client
            .call_tool(
                CallToolRequestParams::new("browser_navigate")
                    .with_arguments(args(json!({"url": big}))),
            )
            .await
            .unwrap();
        let r = client
            .call_tool(CallToolRequestParams::new("browser_snapshot").with_arguments(Map::new()))
            .await
            .unwrap();
        let snap = r.structured_content.unwrap()["steps"][0]["output"]
            .as_str()
            .unwrap_or_else(|| panic!("not an inline snapshot: {:?}", r.content))
            .to_string();
        assert!(snap.len() <= 16_000, "{} bytes", snap.len());
        assert!(snap.contains("\n# elided: "), "{snap}");
        assert!(snap.contains("\n# whole tree: "), "{snap}");
        crate::common::line_with(&snap, "heading \"Generated page\"");
        client.cancel().await.expect("disconnect");
    });
    // the server closed its private session when the client went away
    for _ in 0..50 {
        let left: Vec<_> = std::fs::read_dir(home.join("sessions-v1"))
            .map(|d| {
                d.flatten()
                    .filter(|e| {
                        e.file_name().to_string_lossy().starts_with("mcp-")
                            && e.file_name().to_string_lossy().ends_with(".json")
                    })
                    .count()
            })
            .unwrap_or(0)
            .to_string()
            .into_bytes();
        if left == b"0" {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("the MCP session was not closed after the client disconnected");
}

/// Without `--structured`, results are text content only (no `structuredContent`, which some
/// clients give the model instead of the text): the snapshot and the changes summary are in
/// the text, and a failure is a tool error with the CLI's message.
fn results_are_text_unless_structured_is_asked(c: &Ctx) {
    let cmd = stdio_server(c, &[]);
    let url = c.url("html/actions/shop.html");
    c.rt.block_on(async move {
        let transport = TokioChildProcess::new(cmd).expect("spawn ariasnap mcp");
        let client = ().serve(transport).await.expect("initialize");
        let text = text_of;
        let r = navigate(&client, &url).await;
        assert!(r.structured_content.is_none(), "{r:?}");
        let t = text(&r);
        let gift = crate::common::ref_of(&t, "checkbox \"Gift wrap\"");
        let r = client
            .call_tool(
                CallToolRequestParams::new("browser_click")
                    .with_arguments(args(json!({"ref": gift}))),
            )
            .await
            .unwrap();
        assert!(r.structured_content.is_none(), "{r:?}");
        // the reply leads with the acted element's new state (docs/reference/replies.md#the-summary)
        assert_eq!(
            text(&r),
            format!("Clicked checkbox \"Gift wrap\" {gift}: checked."),
            "{r:?}"
        );
        let r = client
            .call_tool(
                CallToolRequestParams::new("browser_click")
                    .with_arguments(args(json!({"ref": "s999e9"}))),
            )
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(true));
        assert!(r.structured_content.is_none(), "{r:?}");
        assert!(text(&r).contains("unknown ref"), "{r:?}");
        client.cancel().await.expect("disconnect");
    });
}

/// A call its client cancels (MCP `notifications/cancelled`) stops where it is: the step
/// running is cut, the steps after it do not run, and the agent's next call is served at
/// once instead of queueing behind it; the refs the agent holds still work.
fn a_cancelled_call_stops_and_frees_the_agent(c: &Ctx) {
    let cmd = stdio_server(c, &[]);
    let url = c.url("html/agent/count.html");
    c.rt.block_on(async move {
        let transport = TokioChildProcess::new(cmd).expect("spawn ariasnap mcp");
        let client = ().serve(transport).await.expect("initialize");
        let text = text_of;
        let r = navigate(&client, &url).await;
        let count = crate::common::ref_of(&text(&r), "button \"Count\"");
        // a 20 s sleep, then a click that must never happen
        let steps = json!({"steps": [{"sleep": 20000}, {"click": count}]});
        let call = rmcp::model::ClientRequest::CallToolRequest(rmcp::model::CallToolRequest::new(
            CallToolRequestParams::new("browser_run_steps").with_arguments(args(steps)),
        ));
        let handle = client
            .send_cancellable_request(call, rmcp::service::PeerRequestOptions::no_options())
            .await
            .expect("send the long call");
        tokio::time::sleep(std::time::Duration::from_millis(1000)).await;
        handle.cancel(None).await.expect("cancel");
        // the next call is answered long before the 19 s the sleep had left
        let t0 = std::time::Instant::now();
        let r = client
            .call_tool(CallToolRequestParams::new("browser_snapshot").with_arguments(Map::new()))
            .await
            .expect("snapshot after the cancel");
        let waited = t0.elapsed();
        assert_eq!(r.is_error, Some(false), "{r:?}");
        assert!(
            waited < std::time::Duration::from_secs(10),
            "the call after the cancel waited {waited:?}: the cancelled sleep kept the agent"
        );
        let t = text(&r);
        assert!(
            t.contains("Clicked 0"),
            "the step after the cut one ran: {t}"
        );
        // the agent's ref still works
        let r = client
            .call_tool(
                CallToolRequestParams::new("browser_click")
                    .with_arguments(args(json!({"ref": count}))),
            )
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{r:?}");
        assert!(text(&r).contains("Clicked 1"), "{r:?}");
        client.cancel().await.expect("disconnect");
    });
}
