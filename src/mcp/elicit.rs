//! Asking the MCP client's user (docs/reference/policy.md#consent): a question the
//! operator's `--confirm` rules raise goes to the client as an elicitation (MCP's
//! `elicitation/create`, form mode): a message with the preview and one yes/no field,
//! `allow`, false unless the person sets it. Tools return only after the answer; the model
//! sees the question's outcome, never the question's form.
//!
//! Owns: the request and the reading of its answer. Must not: decide what needs asking
//! (steps/consent.rs does).

use crate::steps::consent::{Answer, Asker, Question, WAIT};
use futures_util::future::BoxFuture;
use rmcp::model::{ElicitRequestParams, ElicitationAction, ElicitationSchema};
use rmcp::service::{ElicitationMode, Peer, RoleServer};

/// The client that made the call, asked through elicitation.
pub struct Elicit {
    pub peer: Peer<RoleServer>,
}

/// The answer's form: one boolean, false unless the person sets it.
fn schema() -> Option<ElicitationSchema> {
    let v = serde_json::json!({
        "type": "object",
        "properties": {
            "allow": {
                "type": "boolean",
                "title": "Allow it",
                "description": "Allow the agent to do this, once",
                "default": false
            }
        },
        "required": ["allow"]
    });
    match v {
        serde_json::Value::Object(o) => ElicitationSchema::from_json_schema(o).ok(),
        _ => None,
    }
}

impl Asker for Elicit {
    fn how(&self) -> &'static str {
        "MCP elicitation"
    }

    fn ask<'a>(&'a self, q: &'a Question) -> BoxFuture<'a, Answer> {
        Box::pin(async move {
            if !self
                .peer
                .supported_elicitation_modes()
                .contains(&ElicitationMode::Form)
            {
                return Answer::Refused(
                    "the MCP client cannot ask its user (it did not declare the elicitation capability)".into(),
                );
            }
            let Some(requested_schema) = schema() else {
                return Answer::Refused("the question could not be made".into());
            };
            let params = ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: q.text(),
                requested_schema,
            };
            match self
                .peer
                .create_elicitation_with_timeout(params, Some(WAIT))
                .await
            {
                Ok(r) => match r.action {
                    ElicitationAction::Accept
                        if r.content
                            .as_ref()
                            .and_then(|c| c.get("allow"))
                            .and_then(serde_json::Value::as_bool)
                            == Some(true) =>
                    {
                        Answer::Allowed
                    }
                    ElicitationAction::Accept => {
                        Answer::Refused("the user answered without allowing it".into())
                    }
                    ElicitationAction::Decline => Answer::Refused("the user declined".into()),
                    _ => Answer::Refused("the user cancelled the question".into()),
                },
                Err(e) => Answer::Refused(format!(
                    "the question to the MCP client's user got no answer ({})",
                    crate::error::one_line(&e.to_string())
                )),
            }
        })
    }
}
