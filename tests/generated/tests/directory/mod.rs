//! The `people` fixture's handlers over a small directory, shared by the tests that run it
//! through the runner and through the generated client.

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::json;
use stitchgen_generated_tests::people::{self, count, create, delete, get, list, teams, types, update};
use stitchgen_runtime::{AppError, Ctx, ErrorCode, Headed, Presentation, ViewCall};

/// A small directory whose records carry personal fields.
pub(crate) struct Directory {
    pub(crate) people: Vec<types::Person>,
    /// When set, `get` answers with an email the contract's `format: email` refuses.
    pub(crate) break_output: AtomicBool,
}

thread_local! {
    /// When set, the `list` projection panics. Per thread: each test runs on its own.
    pub(crate) static PANIC_IN_PROJECTION: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

pub(crate) fn person(id: &str, name: &str, team: &str) -> types::Person {
    types::Person {
        id: id.into(),
        name: name.parse().unwrap(),
        email: format!("{id}@example.com"),
        phone: Some("+1 555 0100".into()),
        address: Some(types::Address { street: Some("1 Main St".into()), city: "Springfield".into() }),
        team: team.into(),
    }
}

pub(crate) fn directory() -> Directory {
    Directory {
        people: vec![person("p1", "Ada", "core"), person("p2", "Grace", "core"), person("p3", "Linus", "kernel")],
        break_output: AtomicBool::new(false),
    }
}

impl people::Handler for Directory {
    async fn list(&self, _ctx: &Ctx, input: list::Input) -> Result<Headed<list::Output, list::Headers>, AppError> {
        let limit = input.limit.map_or(usize::MAX, |l| l as usize);
        let selected: Vec<_> =
            self.people.iter().filter(|p| input.team.as_ref().is_none_or(|t| &p.team == t)).cloned().collect();
        let total = selected.len() as u64;
        let headers = list::Headers { x_rate_limit_limit: "600".into(), x_rate_limit_remaining: "599".into() };
        Ok(Headed::new(types::ListOutput { people: selected.into_iter().take(limit).collect(), total }, headers))
    }

    async fn get(&self, _ctx: &Ctx, params: get::Params) -> Result<get::Output, AppError> {
        let mut p = self
            .people
            .iter()
            .find(|p| p.id == params.id)
            .cloned()
            .ok_or_else(|| AppError::new(ErrorCode::NotFound, format!("no person `{}`", params.id)))?;
        if self.break_output.load(Ordering::SeqCst) {
            p.email = "not an email".into();
        }
        Ok(p)
    }

    async fn teams(&self, _ctx: &Ctx) -> Result<teams::Output, AppError> {
        let mut teams: Vec<String> = self.people.iter().map(|p| p.team.clone()).collect();
        teams.dedup();
        Ok(teams)
    }

    async fn create(
        &self,
        _ctx: &Ctx,
        input: create::Input,
    ) -> Result<Headed<create::Output, create::Headers>, AppError> {
        let person = types::Person {
            id: "p9".into(),
            name: input.name.to_string().parse().unwrap(),
            email: input.email,
            phone: input.phone,
            address: input.address,
            team: input.team,
        };
        Ok(Headed::new(person, create::Headers { location: "/people/p9".into() }))
    }

    async fn update(
        &self,
        _ctx: &Ctx,
        params: update::Params,
        input: update::Input,
    ) -> Result<update::Output, AppError> {
        let p = self
            .people
            .iter()
            .find(|p| p.id == params.id)
            .ok_or_else(|| AppError::new(ErrorCode::NotFound, "no such person"))?;
        Ok(types::Card {
            id: p.id.clone(),
            name: input.name.map_or_else(|| p.name.to_string(), |n| n.to_string()),
            team: input.team.unwrap_or_else(|| p.team.clone()),
        })
    }

    async fn delete(&self, _ctx: &Ctx, _params: delete::Params) -> Result<(), AppError> {
        Ok(())
    }

    async fn count(&self, _ctx: &Ctx, input: count::Input) -> Result<count::Output, AppError> {
        Ok(types::CountOutput {
            count: self.people.iter().filter(|p| input.team.as_ref().is_none_or(|t| &p.team == t)).count() as u64,
        })
    }
}

impl people::Views for Directory {
    fn list(full: &list::Output, call: &ViewCall<list::Input>) -> list::ToolAnswer {
        assert!(call.input.limit.is_some(), "the view default reached the handler's input");
        if PANIC_IN_PROJECTION.get() {
            panic!("projection bug");
        }
        let people = full
            .people
            .iter()
            .map(|p| types::Card { id: p.id.clone(), name: p.name.to_string(), team: p.team.clone() })
            .collect();
        types::ListToolAnswer { people, total: full.total.into() }
    }
}

impl people::Presenters for Directory {
    fn count_mcp(output: &count::Output) -> Presentation {
        Presentation {
            content: vec![json!({ "type": "text", "text": format!("{} people", output.count) })],
            ..Presentation::default()
        }
    }
    fn count_agent(output: &count::Output) -> Presentation {
        Presentation { content: vec![json!(format!("There are {} people.", output.count))], ..Presentation::default() }
    }
}
