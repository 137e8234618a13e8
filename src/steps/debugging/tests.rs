//! Unit tests of debugging.rs: request lines, details, routes and console words.
use super::*;

fn req(seq: u64, status: Option<u16>, kind: &str) -> Request {
    Request {
        seq,
        method: "GET".into(),
        url: format!("http://a.test/x{seq}"),
        kind: kind.into(),
        initiator: "script".into(),
        initiator_at: Some("http://a.test/app.js:3:5".into()),
        status,
        started: 10.0,
        ended: Some(14.4),
        size: Some(1234),
        ..Default::default()
    }
}

#[test]
fn lines_name_status_type_size_time_and_initiator() {
    let r = req(5, Some(404), "image");
    assert_eq!(
        line(&r, "http://a.test/page"),
        "r5 GET 404 image /x5 1.2 kB 4 ms (script /app.js:3:5)"
    );
    let mut f = req(6, None, "fetch");
    f.failure = Some("net::ERR_FAILED".into());
    f.url = "http://b.test/api".into();
    f.answered_by = Some("route /api".into());
    assert_eq!(
        line(&f, "http://a.test/"),
        "r6 GET failed fetch http://b.test/api net::ERR_FAILED 4 ms (script /app.js:3:5) [route /api]"
    );
}

#[test]
fn filters_by_status_type_and_url() {
    let a = |status: &str| NetworkArgs {
        status: Some(status.into()),
        ..Default::default()
    };
    assert!(keep(&req(1, Some(404), "image"), &a("4xx")));
    assert!(keep(&req(1, Some(404), "image"), &a("404")));
    assert!(!keep(&req(1, Some(200), "image"), &a("4xx,5xx")));
    assert!(keep(&req(1, Some(200), "image"), &a("ok")));
    let t = NetworkArgs {
        kind: Some("fetch, xhr".into()),
        url: Some("/x*".into()),
        ..Default::default()
    };
    assert!(keep(&req(1, Some(200), "xhr"), &t));
    assert!(!keep(&req(1, Some(200), "image"), &t));
}

#[test]
fn credential_headers_and_secret_shapes_are_masked() {
    crate::snapshot::secrets::set_reveal(false);
    let h = vec![
        ("Authorization".to_string(), "Bearer abc".to_string()),
        (
            "X-Note".to_string(),
            "key sk-ant-abcdefghijklmnopqrstuvwxyz012345".to_string(),
        ),
    ];
    let l = header_lines(&h);
    assert_eq!(l[0], "Authorization: [secret:header 10 chars]");
    assert!(!l[1].contains("abcdefghijklmnop"), "{}", l[1]);
}

#[test]
fn routes_are_made_from_arguments_or_refused() {
    let o = super::super::RunOptions::default();
    let r = make_route(
        &RouteArgs {
            pattern: "/api/items".into(),
            body: Some("[1,2]".into()),
            ..Default::default()
        },
        &o,
    )
    .unwrap();
    assert_eq!(r.status, Some(200));
    assert_eq!(
        r.headers,
        vec![("Content-Type".to_string(), "application/json".to_string())]
    );
    let e = make_route(&RouteArgs::from("/x".to_string()), &o).unwrap_err();
    assert!(e.to_string().contains("needs what to answer"), "{e}");
    let e = make_route(
        &RouteArgs {
            pattern: "/x".into(),
            fail: true,
            status: Some(500),
            ..Default::default()
        },
        &o,
    )
    .unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert_eq!(rank("log"), rank("info"));
    assert!(rank("warn") > rank("info"));
}
