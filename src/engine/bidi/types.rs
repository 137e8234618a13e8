//! The BiDi commands ariasnap sends and their replies, as serde structs named after the
//! spec's (session, browsingContext, script, browser); event parameters too.
//!
//! Owns: method names and field names on the wire. Must not: send anything (bidi.rs does).

use super::value::{LocalValue, RemoteValue};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A BiDi command: its method name and the type of its reply's `result`.
pub trait Command: Serialize {
    /// The method name, e.g. `script.callFunction`.
    const METHOD: &'static str;
    /// What the reply's `result` decodes into.
    type Reply: DeserializeOwned;
}

/// A reply without fields (`EmptyResult`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct Empty {}

/// `session.subscribe`: ask for `events` (method names or module names such as
/// `browsingContext`), in every context or only in `contexts` (top-level ones).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Subscribe {
    /// Event or module names.
    pub events: Vec<String>,
    /// Only these top-level contexts (and their frames); all when None.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contexts: Option<Vec<String>>,
    /// Only the contexts of these user contexts (an agent of a shared browser).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_contexts: Option<Vec<String>>,
}

impl Subscribe {
    /// A subscription to `events` in every context.
    pub fn to(events: &[&str]) -> Subscribe {
        Subscribe {
            events: events.iter().map(|s| s.to_string()).collect(),
            contexts: None,
            user_contexts: None,
        }
    }

    /// The same subscription, only in user context `uc` when given.
    pub fn within(mut self, uc: Option<&str>) -> Subscribe {
        self.user_contexts = uc.map(|u| vec![u.to_string()]);
        self
    }
}

impl Command for Subscribe {
    const METHOD: &'static str = "session.subscribe";
    type Reply = SubscribeReply;
}

/// What `session.subscribe` answers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SubscribeReply {
    /// The subscription's id, for [`Unsubscribe::Ids`] (drivers before the subscription
    /// ids answer an empty result).
    #[serde(default)]
    pub subscription: Option<String>,
}

/// `session.unsubscribe`, by subscription ids or by event names.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Unsubscribe {
    /// The subscriptions `session.subscribe` returned.
    Ids {
        /// Subscription ids.
        subscriptions: Vec<String>,
    },
    /// Every subscription to these events (the older form).
    Events {
        /// Event or module names.
        events: Vec<String>,
    },
}

impl Command for Unsubscribe {
    const METHOD: &'static str = "session.unsubscribe";
    type Reply = Empty;
}

/// `browsingContext.getTree`: the contexts under `root` (every top-level one when None).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetTree {
    /// How deep to list children (all when None).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<u32>,
    /// The context to start from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
}

impl Command for GetTree {
    const METHOD: &'static str = "browsingContext.getTree";
    type Reply = GetTreeReply;
}

/// What `browsingContext.getTree` answers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GetTreeReply {
    /// The top-level contexts (or the root), each with its children.
    pub contexts: Vec<ContextInfo>,
}

impl GetTreeReply {
    /// Every context of the tree, parents before their children.
    pub fn flatten(&self) -> Vec<&ContextInfo> {
        let mut out = Vec::new();
        let mut stack: Vec<&ContextInfo> = self.contexts.iter().rev().collect();
        while let Some(c) = stack.pop() {
            out.push(c);
            stack.extend(c.children.iter().flatten().rev());
        }
        out
    }
}

/// A browsing context (`browsingContext.Info`): in getTree replies and context events.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextInfo {
    /// Its id.
    pub context: String,
    /// Its document's URL.
    pub url: String,
    /// Its child contexts (frames); None in events and past getTree's `maxDepth`.
    #[serde(default)]
    pub children: Option<Vec<ContextInfo>>,
    /// Its parent context, for a frame: given in events and for getTree's root, not for the
    /// children inside a tree (their place says it).
    #[serde(default)]
    pub parent: Option<String>,
    /// Its user context (profile partition).
    #[serde(default)]
    pub user_context: Option<String>,
    /// The context that opened it (window.open).
    #[serde(default)]
    pub original_opener: Option<String>,
    /// Its client window.
    #[serde(default)]
    pub client_window: Option<String>,
}

/// `browsingContext.create`: a new tab (or window), in the background when asked (the
/// current tab stays current).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateContext {
    /// `tab` or `window`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Do not make it the focused tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<bool>,
    /// The user context to open it in (the default one when None).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_context: Option<String>,
}

impl CreateContext {
    /// A tab opened in the background.
    pub fn background_tab() -> CreateContext {
        CreateContext {
            kind: "tab".into(),
            background: Some(true),
            user_context: None,
        }
    }

    /// The same tab, in user context `uc` when given.
    pub fn within(mut self, uc: Option<&str>) -> CreateContext {
        self.user_context = uc.map(str::to_string);
        self
    }
}

/// `browser.createUserContext`: a new user context (its own cookies, storage and cache,
/// as a browser profile's private window), for an agent of a shared browser.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CreateUserContext {}

impl Command for CreateUserContext {
    const METHOD: &'static str = "browser.createUserContext";
    type Reply = UserContextInfo;
}

/// `browser.UserContextInfo`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserContextInfo {
    pub user_context: String,
}

/// `browser.removeUserContext`: closes every tab of a user context (without their
/// `beforeunload`) and drops its cookies and storage.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoveUserContext {
    pub user_context: String,
}

impl Command for RemoveUserContext {
    const METHOD: &'static str = "browser.removeUserContext";
    type Reply = Empty;
}

/// `browser.getUserContexts`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GetUserContexts {}

impl Command for GetUserContexts {
    const METHOD: &'static str = "browser.getUserContexts";
    type Reply = GetUserContextsReply;
}

/// What `browser.getUserContexts` answers (the default one included).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetUserContextsReply {
    pub user_contexts: Vec<UserContextInfo>,
}

impl Command for CreateContext {
    const METHOD: &'static str = "browsingContext.create";
    type Reply = CreateContextReply;
}

/// What `browsingContext.create` answers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CreateContextReply {
    /// The new context's id.
    pub context: String,
}

/// `browsingContext.close`: closes a top-level context without running its `beforeunload`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CloseContext {
    /// The top-level context to close.
    pub context: String,
}

impl Command for CloseContext {
    const METHOD: &'static str = "browsingContext.close";
    type Reply = Empty;
}

/// When `browsingContext.navigate` answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Readiness {
    /// At once.
    None,
    /// At DOMContentLoaded.
    Interactive,
    /// At load.
    Complete,
}

/// `browsingContext.navigate`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Navigate {
    /// The context to navigate.
    pub context: String,
    /// Where to.
    pub url: String,
    /// When to answer (the driver's default when None).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait: Option<Readiness>,
}

impl Command for Navigate {
    const METHOD: &'static str = "browsingContext.navigate";
    type Reply = NavigateReply;
}

/// What `browsingContext.navigate` answers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct NavigateReply {
    /// The navigation's id (None for a same-document one on some drivers).
    #[serde(default)]
    pub navigation: Option<String>,
    /// The URL navigated to.
    pub url: String,
}

/// `browsingContext.handleUserPrompt`: accept or dismiss the open prompt of `context`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HandleUserPrompt {
    /// The top-level context whose prompt to answer.
    pub context: String,
    /// Accept (true) or dismiss (false); the spec's default is dismiss.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accept: Option<bool>,
    /// The text to answer a `prompt()` with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_text: Option<String>,
}

impl Command for HandleUserPrompt {
    const METHOD: &'static str = "browsingContext.handleUserPrompt";
    type Reply = Empty;
}

/// `browsingContext.navigationStarted` / `domContentLoaded` / `load` parameters.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct NavigationInfo {
    /// The context navigating.
    pub context: String,
    /// The navigation's id.
    #[serde(default)]
    pub navigation: Option<String>,
    /// Milliseconds since the epoch.
    #[serde(default)]
    pub timestamp: f64,
    /// The URL.
    pub url: String,
}

/// `browser.setDownloadBehavior`: downloads saved into a folder, or refused, in every user
/// context (WebDriver BiDi, browser module). `None` gives the browser back its default.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetDownloadBehavior {
    /// What to do with downloads (`null` on the wire: the default).
    pub download_behavior: Option<DownloadBehavior>,
    /// Only in these user contexts (an agent of a shared browser); all when None.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_contexts: Option<Vec<String>>,
}

impl Command for SetDownloadBehavior {
    const METHOD: &'static str = "browser.setDownloadBehavior";
    type Reply = Empty;
}

/// `browser.DownloadBehavior`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum DownloadBehavior {
    /// Downloads are saved into `destination_folder` (a path on the browser's machine).
    Allowed {
        #[serde(rename = "destinationFolder")]
        destination_folder: String,
    },
    /// Downloads are refused.
    Denied,
}

/// `browsingContext.downloadWillBegin` parameters.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DownloadWillBegin {
    /// The context whose navigation became the download.
    pub context: String,
    /// The navigation's id, shared with its `downloadEnd`.
    #[serde(default)]
    pub navigation: Option<String>,
    /// The URL downloaded.
    pub url: String,
    /// The file name the browser proposes (from the server or the `download` attribute).
    #[serde(default)]
    pub suggested_filename: String,
}

/// `browsingContext.downloadEnd` parameters.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DownloadEnd {
    /// The context of the download.
    pub context: String,
    /// The navigation's id, shared with its `downloadWillBegin`.
    #[serde(default)]
    pub navigation: Option<String>,
    /// The URL downloaded.
    pub url: String,
    /// `complete` or `canceled`.
    pub status: String,
    /// Where the file was saved (complete downloads; a path on the browser's machine).
    #[serde(default)]
    pub filepath: Option<String>,
}

/// `browsingContext.userPromptOpened` parameters.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserPromptOpened {
    /// The top-level context showing the prompt.
    pub context: String,
    /// What the session's prompt handler will do: accept, dismiss or ignore.
    #[serde(default)]
    pub handler: String,
    /// The prompt's message.
    pub message: String,
    /// alert, confirm, prompt or beforeunload.
    #[serde(rename = "type")]
    pub kind: String,
    /// A `prompt()`'s default answer.
    #[serde(default)]
    pub default_value: Option<String>,
}

/// `script.addPreloadScript`: `function_declaration` runs in every new document (of
/// `contexts`, or of all), in the sandbox realm named `sandbox` when given, before the
/// page's scripts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AddPreloadScript {
    /// A function expression, e.g. `() => { ... }`.
    pub function_declaration: String,
    /// Only in these top-level contexts (and their frames).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contexts: Option<Vec<String>>,
    /// The sandbox realm to run in; the page's own realm when None.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
    /// Only in the contexts of these user contexts (an agent of a shared browser).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_contexts: Option<Vec<String>>,
}

impl Command for AddPreloadScript {
    const METHOD: &'static str = "script.addPreloadScript";
    type Reply = AddPreloadScriptReply;
}

/// What `script.addPreloadScript` answers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct AddPreloadScriptReply {
    /// The preload script's id, for [`RemovePreloadScript`].
    pub script: String,
}

/// `script.removePreloadScript`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RemovePreloadScript {
    /// The id `script.addPreloadScript` returned.
    pub script: String,
}

impl Command for RemovePreloadScript {
    const METHOD: &'static str = "script.removePreloadScript";
    type Reply = Empty;
}

/// Where a script runs: a context's realm (its sandbox when named), or a realm by id.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Target {
    /// The context's page realm, or its sandbox of that name.
    Context {
        /// The browsing context.
        context: String,
        /// The sandbox's name.
        #[serde(skip_serializing_if = "Option::is_none")]
        sandbox: Option<String>,
    },
    /// A realm by id (from a script result's `realm`).
    Realm {
        /// The realm's id.
        realm: String,
    },
}

impl Target {
    /// The sandbox `sandbox` of `context`.
    pub fn sandbox(context: &str, sandbox: &str) -> Target {
        Target::Context {
            context: context.to_string(),
            sandbox: Some(sandbox.to_string()),
        }
    }

    /// The page's own realm of `context`.
    pub fn page(context: &str) -> Target {
        Target::Context {
            context: context.to_string(),
            sandbox: None,
        }
    }
}

/// Who owns the handles a script result carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ResultOwnership {
    /// The result's objects get handles that keep them alive until `script.disown`.
    Root,
    /// No handles (the default).
    None,
}

/// Which shadow trees a serialized node includes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ShadowTree {
    /// None.
    None,
    /// Open ones.
    Open,
    /// Open and closed ones.
    All,
}

/// How deep results are serialized.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SerializationOptions {
    /// Levels of a node's children (0: the node only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_dom_depth: Option<u32>,
    /// Levels of objects and arrays.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_object_depth: Option<u32>,
    /// Which shadow trees to include.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_shadow_tree: Option<ShadowTree>,
}

/// `script.callFunction`: calls `function_declaration` with `arguments` in `target`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallFunction {
    /// A function expression, e.g. `(a, b) => a + b`.
    pub function_declaration: String,
    /// Wait for a returned promise to settle.
    pub await_promise: bool,
    /// Where it runs.
    pub target: Target,
    /// Its arguments.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<LocalValue>,
    /// Its `this`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub this: Option<LocalValue>,
    /// Who owns the result's handles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_ownership: Option<ResultOwnership>,
    /// How deep the result is serialized.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serialization_options: Option<SerializationOptions>,
    /// Run as if the user had just interacted with the page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_activation: Option<bool>,
}

impl CallFunction {
    /// A call of `function_declaration` with `arguments` in `target`, awaiting promises,
    /// with the driver's defaults for the rest.
    pub fn new(function_declaration: &str, target: Target, arguments: Vec<LocalValue>) -> Self {
        CallFunction {
            function_declaration: function_declaration.to_string(),
            await_promise: true,
            target,
            arguments,
            this: None,
            result_ownership: None,
            serialization_options: None,
            user_activation: None,
        }
    }
}

impl Command for CallFunction {
    const METHOD: &'static str = "script.callFunction";
    type Reply = ScriptResult;
}

/// `script.evaluate`: evaluates `expression` in `target`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Evaluate {
    /// The script's source.
    pub expression: String,
    /// Where it runs.
    pub target: Target,
    /// Wait for a resulting promise to settle.
    pub await_promise: bool,
    /// Who owns the result's handles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_ownership: Option<ResultOwnership>,
    /// How deep the result is serialized.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serialization_options: Option<SerializationOptions>,
    /// Run as if the user had just interacted with the page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_activation: Option<bool>,
}

impl Evaluate {
    /// `expression` in `target`, awaiting promises.
    pub fn new(expression: &str, target: Target) -> Self {
        Evaluate {
            expression: expression.to_string(),
            target,
            await_promise: true,
            result_ownership: None,
            serialization_options: None,
            user_activation: None,
        }
    }
}

impl Command for Evaluate {
    const METHOD: &'static str = "script.evaluate";
    type Reply = ScriptResult;
}

/// What `script.callFunction` and `script.evaluate` answer.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum ScriptResult {
    /// The script returned (or its promise resolved to) `result`.
    Success {
        /// The value.
        result: RemoteValue,
        /// The realm it ran in.
        realm: String,
    },
    /// The script threw (or its promise rejected).
    #[serde(rename_all = "camelCase")]
    Exception {
        /// What was thrown, and where.
        exception_details: ExceptionDetails,
        /// The realm it ran in.
        realm: String,
    },
}

impl ScriptResult {
    /// The value, or `Error::Engine` with the exception's text.
    pub fn into_value(self) -> crate::error::Result<RemoteValue> {
        match self {
            ScriptResult::Success { result, .. } => Ok(result),
            ScriptResult::Exception {
                exception_details: d,
                ..
            } => Err(crate::error::Error::Engine(format!(
                "the script threw: {} (line {}, column {})",
                crate::error::one_line(&d.text),
                d.line_number,
                d.column_number
            ))),
        }
    }
}

/// A thrown exception (`script.ExceptionDetails`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionDetails {
    /// Its text (`Error: message`).
    pub text: String,
    /// Line of the throw.
    #[serde(default)]
    pub line_number: u64,
    /// Column of the throw.
    #[serde(default)]
    pub column_number: u64,
    /// The thrown value.
    pub exception: RemoteValue,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn call_function_is_written_as_the_spec_names_it() {
        let mut c = CallFunction::new(
            "(a) => a",
            Target::sandbox("C1", "ariasnap"),
            vec![LocalValue::shared("f.1.d.2.e.3")],
        );
        c.result_ownership = Some(ResultOwnership::None);
        c.serialization_options = Some(SerializationOptions {
            max_dom_depth: Some(0),
            ..Default::default()
        });
        assert_eq!(
            serde_json::to_value(&c).unwrap(),
            json!({"functionDeclaration": "(a) => a", "awaitPromise": true,
                   "target": {"context": "C1", "sandbox": "ariasnap"},
                   "arguments": [{"sharedId": "f.1.d.2.e.3"}],
                   "resultOwnership": "none",
                   "serializationOptions": {"maxDomDepth": 0}})
        );
    }

    #[test]
    fn script_results_decode_both_ways() {
        let ok: ScriptResult = serde_json::from_value(
            json!({"type": "success", "realm": "r", "result": {"type": "number", "value": 3}}),
        )
        .unwrap();
        assert_eq!(ok.into_value().unwrap().as_f64(), Some(3.0));
        let thrown: ScriptResult =
            serde_json::from_value(json!({"type": "exception", "realm": "r",
            "exceptionDetails": {"text": "Error: no", "lineNumber": 1, "columnNumber": 2,
            "exception": {"type": "error"}, "stackTrace": {"callFrames": []}}}))
            .unwrap();
        let e = thrown.into_value().unwrap_err().to_string();
        assert!(e.contains("Error: no"), "{e}");
    }

    #[test]
    fn tree_flattens_parents_first() {
        let t: GetTreeReply = serde_json::from_value(json!({"contexts": [
            {"context": "T", "url": "u", "children": [
                {"context": "F1", "url": "u", "parent": "T", "children": [
                    {"context": "F11", "url": "u", "parent": "F1", "children": []}]},
                {"context": "F2", "url": "u", "parent": "T", "children": []}]}]}))
        .unwrap();
        let ids: Vec<&str> = t.flatten().iter().map(|c| c.context.as_str()).collect();
        assert_eq!(ids, ["T", "F1", "F11", "F2"]);
    }
}
