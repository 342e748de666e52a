//! The messages of a live class (`dcsim serve`): JSON text frames over one
//! WebSocket per page, each an object with a `type`. Every message a page
//! sends is parsed into [`ClientMsg`] with serde (unknown types and unknown
//! fields are refused) and then checked by [`ClientMsg::validate`]; the
//! reply to a bad one is an [`ServerMsg::Error`] naming the field and the
//! reason, and the room goes on. The page's side is `web/src/live/protocol.ts`.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// Longest message a page may send, bytes (a scenario with its settings
/// is a few kilobytes; the bundled lessons' largest is under 8 KB).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;
/// Largest what-if a student may send, bytes of JSON (the page's branch
/// settings are a few hundred bytes): what students send reaches the
/// instructor's page, whose outbox this keeps small.
pub const MAX_WHATIF_BYTES: usize = 4096;
/// Longest display name, characters.
pub const MAX_NAME_CHARS: usize = 40;
/// Latest simulated time an action may name, picoseconds: 2^53, the
/// largest integer a page's JavaScript number holds exactly (about 2.5 hours).
pub const MAX_TIME_PS: u64 = 1 << 53;

/// A message from a page.
#[derive(Deserialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// "Start a live class": a new room; this connection becomes its
    /// instructor. `restore` brings back a room the instructor's page
    /// holds (its code, secret and log) after the server restarted.
    Create {
        #[serde(default)]
        restore: Option<Restore>,
    },
    /// A student joins room `code`, with an optional display name.
    Join {
        code: String,
        #[serde(default)]
        name: Option<String>,
    },
    /// The instructor comes back to room `code` (a reload, a dropped
    /// connection) with the room's control secret.
    Claim { code: String, secret: String },
    /// An instructor's action: logged, numbered and sent to every student.
    Action { action: Action },
    /// The instructor's clock while playing (sent to students, not logged).
    Tick { t_ps: u64 },
    /// The instructor's run fingerprint at simulated time `t_ps` (kept for
    /// pages that join later, sent to students, not logged).
    State { t_ps: u64, fingerprint: String },
    /// The instructor shows or hides the voters' names in the tally.
    ShowNames { on: bool },
    /// A student's answer to the predict step `step` of the lesson.
    Vote { step: u32, choice: String },
    /// A student sends a what-if branch (the page's branch settings) to the instructor.
    Whatif {
        branch: Value,
        #[serde(default)]
        note: Option<String>,
    },
    /// Keeps the connection open through proxies; answered with `pong`.
    Ping,
}

/// A room to bring back after a server restart, from the instructor's page.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Restore {
    pub code: String,
    pub secret: String,
    pub log: Vec<Action>,
}

/// One instructor action, stamped with the simulated time it applies at.
#[derive(Deserialize, Serialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// The instructor's simulated time when the action was taken, picoseconds.
    pub at_ps: u64,
    pub op: Op,
}

/// What an action does (the page replays it on its own engine).
///
/// The variants without fields are written `Play {}`, not `Play`: serde
/// lets an unknown field through on a unit variant of an internally tagged
/// enum (`{"kind":"play","x":1}`), and refuses it on a struct variant.
#[derive(Deserialize, Serialize, Clone, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Op {
    /// Loads settings (a scenario and its protocols): the page's `Settings`.
    Load {
        settings: Value,
    },
    /// Opens a bundled lesson by name (its scenario and protocols).
    Lesson {
        name: String,
    },
    /// Goes to step `step` (0-based) of the lesson on screen.
    LessonStep {
        step: u32,
    },
    Play {},
    Pause {},
    /// Playing speed, simulated picoseconds per wall second.
    Speed {
        speed: f64,
    },
    /// One step: the next event, one RTT, or back one event or one RTT.
    Step {
        what: StepWhat,
    },
    /// Time travel to `t_ps`.
    Seek {
        t_ps: u64,
    },
    /// Goes to `t_ps` and pauses there (a lesson's step): forward in lockstep, or back by time travel.
    RunTo {
        t_ps: u64,
    },
    /// Runs every protocol to its end.
    Finish {},
    /// Reveals the answer of the lesson's predict step `step`.
    Reveal {
        step: u32,
    },
    /// A what-if branch (the page's branch settings, a failed link or
    /// switch among them: fault injection travels as a branch).
    Branch {
        branch: Value,
    },
    /// Closes the what-if branch.
    CloseBranch {},
    /// "Follow me" or "explore".
    Pacing {
        mode: Pacing,
    },
    /// "Bring everyone back": every student returns to the instructor's state.
    BringBack {},
}

/// The kinds of step.
#[derive(Deserialize, Serialize, Clone, Copy, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum StepWhat {
    Event,
    Rtt,
    BackEvent,
    BackRtt,
}

/// The pacing of a room.
#[derive(Deserialize, Serialize, Clone, Copy, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Pacing {
    /// Students' playback follows the instructor's.
    Follow,
    /// Each student is free; the log still arrives.
    Explore,
}

/// Who a connection is in its room.
#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Instructor,
    Student,
}

/// A message to a page.
#[derive(Serialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg<'a> {
    /// The room was created (or restored); only its instructor hears the secret.
    Created {
        code: &'a str,
        secret: &'a str,
    },
    /// This connection is in room `code`: the log so far (action `i` has
    /// number `i + 1`), whether the instructor is connected, and the
    /// instructor's last fingerprint.
    Joined {
        role: Role,
        code: &'a str,
        log: &'a [Action],
        instructor: bool,
        students: usize,
        state: Option<&'a StateReport>,
    },
    /// Action number `seq` of the room's log.
    Action {
        seq: u64,
        action: &'a Action,
    },
    /// The instructor's action was logged as number `seq`.
    Ack {
        seq: u64,
    },
    Tick {
        t_ps: u64,
    },
    State(&'a StateReport),
    /// Who is in the room (counts only).
    Presence {
        instructor: bool,
        students: usize,
    },
    /// The votes on predict step `step`: counts by answer, and the voters'
    /// names only when the instructor turned names on.
    Tally {
        step: u32,
        counts: BTreeMap<&'a str, u32>,
        names: Option<Vec<(&'a str, &'a str)>>,
    },
    /// A student's what-if, for the instructor.
    Whatif {
        from: &'a str,
        branch: &'a Value,
        note: Option<&'a str>,
    },
    /// A message was refused: `code` is stable, `message` says why.
    Error {
        code: &'static str,
        message: String,
    },
    Pong,
}

/// The instructor's run fingerprint at a simulated time.
#[derive(Serialize, Clone, Debug)]
pub struct StateReport {
    pub t_ps: u64,
    pub fingerprint: String,
}

/// A refusal: a stable code and a sentence naming the field and the reason.
#[derive(Debug, PartialEq)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
}

impl Refusal {
    /// A refusal with code `code`.
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Refusal { code, message: message.into() }
    }
}

fn bad(message: String) -> Refusal {
    Refusal::new("bad_message", message)
}

/// Checks a short identifier (a lesson's name, a vote's answer): 1 to `max` of `A-Za-z0-9_.-`.
fn check_ident(field: &str, s: &str, max: usize) -> Result<(), Refusal> {
    if s.is_empty() || s.len() > max || !s.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b)) {
        return Err(bad(format!("{field}: must be 1 to {max} letters, digits, '_', '.' or '-'")));
    }
    Ok(())
}

fn check_time(field: &str, t: u64) -> Result<(), Refusal> {
    if t > MAX_TIME_PS {
        return Err(bad(format!("{field}: {t} ps is past the latest time a page can hold exactly (2^53 ps)")));
    }
    Ok(())
}

fn check_object(field: &str, v: &Value) -> Result<(), Refusal> {
    if !v.is_object() {
        return Err(bad(format!("{field}: must be a JSON object")));
    }
    Ok(())
}

/// A display name as the room keeps it: trimmed; refused when longer than
/// MAX_NAME_CHARS or holding control characters. Pages show it as text
/// (never as HTML), so `<` and `&` are harmless and kept.
pub fn clean_name(name: &str) -> Result<String, Refusal> {
    let n = name.trim();
    if n.chars().count() > MAX_NAME_CHARS {
        return Err(bad(format!("name: at most {MAX_NAME_CHARS} characters")));
    }
    if n.chars().any(char::is_control) {
        return Err(bad("name: control characters are not allowed".to_string()));
    }
    Ok(n.to_string())
}

impl Action {
    /// Checks the values serde cannot: times, names, speeds, objects.
    pub fn validate(&self) -> Result<(), Refusal> {
        check_time("action.at_ps", self.at_ps)?;
        match &self.op {
            Op::Load { settings } => check_object("action.op.settings", settings),
            Op::Lesson { name } => check_ident("action.op.name", name, 80),
            Op::Speed { speed } => {
                if speed.is_finite() && *speed > 0.0 && *speed <= 1e15 {
                    Ok(())
                } else {
                    Err(bad(format!("action.op.speed: {speed} is not in (0, 1e15] ps per second")))
                }
            }
            Op::Seek { t_ps } | Op::RunTo { t_ps } => check_time("action.op.t_ps", *t_ps),
            Op::Branch { branch } => check_object("action.op.branch", branch),
            Op::LessonStep { .. }
            | Op::Play {}
            | Op::Pause {}
            | Op::Step { .. }
            | Op::Finish {}
            | Op::Reveal { .. }
            | Op::CloseBranch {}
            | Op::Pacing { .. }
            | Op::BringBack {} => Ok(()),
        }
    }
}

impl ClientMsg {
    /// Parses one text frame: serde's message (with its line and column)
    /// on a malformed one.
    pub fn parse(text: &str) -> Result<ClientMsg, Refusal> {
        if text.len() > MAX_MESSAGE_BYTES {
            return Err(Refusal::new("too_big", format!("message: {} bytes, more than the {MAX_MESSAGE_BYTES} allowed", text.len())));
        }
        let m: ClientMsg = serde_json::from_str(text).map_err(|e| bad(format!("message: {e}")))?;
        m.validate()?;
        Ok(m)
    }

    /// Checks the values serde cannot (see [`Action::validate`]).
    pub fn validate(&self) -> Result<(), Refusal> {
        match self {
            ClientMsg::Create { restore: Some(r) } => {
                check_code(&r.code)?;
                check_secret(&r.secret)?;
                r.log.iter().try_for_each(Action::validate)
            }
            ClientMsg::Join { code, name } => {
                check_code(code)?;
                name.as_deref().map(clean_name).transpose().map(|_| ())
            }
            ClientMsg::Claim { code, secret } => check_code(code).and_then(|_| check_secret(secret)),
            ClientMsg::Action { action } => action.validate(),
            ClientMsg::Tick { t_ps } => check_time("t_ps", *t_ps),
            ClientMsg::State { t_ps, fingerprint } => {
                check_time("t_ps", *t_ps)?;
                check_ident("fingerprint", fingerprint, 64)
            }
            ClientMsg::Vote { choice, .. } => check_ident("choice", choice, 40),
            ClientMsg::Whatif { branch, note } => {
                check_object("branch", branch)?;
                let n = branch.to_string().len();
                if n > MAX_WHATIF_BYTES {
                    return Err(Refusal::new("too_big", format!("branch: {n} bytes, more than the {MAX_WHATIF_BYTES} a what-if may hold")));
                }
                match note {
                    Some(n) if n.chars().count() > 200 || n.chars().any(char::is_control) => {
                        Err(bad("note: at most 200 characters, no control characters".into()))
                    }
                    _ => Ok(()),
                }
            }
            ClientMsg::Create { restore: None } | ClientMsg::ShowNames { .. } | ClientMsg::Ping => Ok(()),
        }
    }
}

/// The letters of room codes: no 0/O, 1/I/L, so a code read off a projector is typed right.
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Characters in a room code (31^6, about 887 million codes).
pub const CODE_LEN: usize = 6;

/// Checks a room code's form (the page upper-cases what is typed).
pub fn check_code(code: &str) -> Result<(), Refusal> {
    if code.len() != CODE_LEN || !code.bytes().all(|b| CODE_ALPHABET.contains(&b)) {
        return Err(bad(format!("code: a room code is {CODE_LEN} characters of {}", std::str::from_utf8(CODE_ALPHABET).unwrap())));
    }
    Ok(())
}

/// Checks a control secret's form: 32 lower-case hexadecimal digits (128 bits).
pub fn check_secret(secret: &str) -> Result<(), Refusal> {
    if secret.len() != 32 || !secret.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return Err(bad("secret: must be 32 lower-case hexadecimal digits".to_string()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_an_action_and_refuses_unknown_fields() {
        let m = ClientMsg::parse(r#"{"type":"action","action":{"at_ps":5,"op":{"kind":"seek","t_ps":7}}}"#).unwrap();
        assert!(matches!(m, ClientMsg::Action { action: Action { at_ps: 5, op: Op::Seek { t_ps: 7 } } }));
        let e = ClientMsg::parse(r#"{"type":"action","action":{"at_ps":5,"op":{"kind":"play","x":1}}}"#).unwrap_err();
        assert!(e.message.contains("unknown field `x`"), "{}", e.message);
        let e = ClientMsg::parse(r#"{"type":"launch"}"#).unwrap_err();
        assert!(e.message.contains("unknown variant `launch`"), "{}", e.message);
    }

    #[test]
    fn names_the_field_of_a_bad_value() {
        let e = ClientMsg::parse(r#"{"type":"action","action":{"at_ps":0,"op":{"kind":"speed","speed":-1}}}"#).unwrap_err();
        assert!(e.message.starts_with("action.op.speed:"), "{}", e.message);
        let e = ClientMsg::parse(r#"{"type":"join","code":"abc"}"#).unwrap_err();
        assert!(e.message.starts_with("code:"), "{}", e.message);
        let e = ClientMsg::parse(r#"{"type":"join","code":"ABCDEF","name":"a\u0007"}"#).unwrap_err();
        assert!(e.message.starts_with("name:"), "{}", e.message);
        let e = ClientMsg::parse(&format!(r#"{{"type":"ping","x":"{}"}}"#, "a".repeat(MAX_MESSAGE_BYTES))).unwrap_err();
        assert_eq!(e.code, "too_big");
    }
}
