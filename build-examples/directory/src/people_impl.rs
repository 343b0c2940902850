//! The directory's handlers: an in-memory store seeded deterministically.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use stitchgen_runtime::{AppError, Ctx, ErrorCode, Headed, Presentation, ViewCall};

use crate::people::{self, count, create, delete, get, list, teams, types, update};

/// People in memory.
pub(crate) struct Directory {
    people: Mutex<Vec<types::Person>>,
    /// Listings in the current minute, and when it began: what the rate-limit headers report.
    window: Mutex<(Instant, u64)>,
}

/// Listings allowed per minute, as `X-RateLimit-Limit` documents it. Reported, not enforced:
/// the example shows typed response headers, not a rate limiter.
const LISTINGS_PER_MINUTE: u64 = 600;

const FIRST: &[&str] = &["Ada", "Grace", "Linus", "Barbara", "Ken", "Margaret", "Dennis", "Frances", "Edsger", "Radia"];
const LAST: &[&str] =
    &["Lovelace", "Hopper", "Torvalds", "Liskov", "Thompson", "Hamilton", "Ritchie", "Allen", "Dijkstra", "Perlman"];
const TEAMS: &[&str] = &["core", "kernel", "tools", "web"];
const CITIES: &[&str] = &["Lisbon", "Oslo", "Kyoto", "Quito"];

impl Directory {
    /// `n` people, the same ones every run.
    pub(crate) fn seeded(n: usize) -> Self {
        let people = (0..n)
            .map(|i| {
                let (first, last) = (FIRST[i % FIRST.len()], LAST[(i / FIRST.len()) % LAST.len()]);
                types::Person {
                    id: format!("p{:04}", i + 1),
                    name: format!("{first} {last}").parse().expect("names are not empty"),
                    email: format!("{}.{}{}@example.com", first.to_lowercase(), last.to_lowercase(), i + 1),
                    phone: Some(format!("+1 555 {:04}", i + 1)),
                    address: Some(types::Address {
                        street: Some(format!("{} Main St", i + 1)),
                        city: CITIES[i % CITIES.len()].into(),
                    }),
                    team: TEAMS[i % TEAMS.len()].into(),
                }
            })
            .collect();
        Directory { people: Mutex::new(people), window: Mutex::new((Instant::now(), 0)) }
    }

    fn people(&self) -> std::sync::MutexGuard<'_, Vec<types::Person>> {
        self.people.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Counts one listing; the rate-limit headers of the current minute.
    fn listed(&self) -> list::Headers {
        let mut window = self.window.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if window.0.elapsed() >= Duration::from_secs(60) {
            *window = (Instant::now(), 0);
        }
        window.1 += 1;
        list::Headers {
            x_rate_limit_limit: LISTINGS_PER_MINUTE.to_string(),
            x_rate_limit_remaining: LISTINGS_PER_MINUTE.saturating_sub(window.1).to_string(),
        }
    }
}

fn not_found(id: &str) -> AppError {
    AppError::new(ErrorCode::NotFound, format!("no person with id `{id}`"))
}

impl people::Handler for Directory {
    async fn list(&self, _ctx: &Ctx, input: list::Input) -> Result<Headed<list::Output, list::Headers>, AppError> {
        let headers = self.listed();
        let people = self.people();
        let matching: Vec<&types::Person> =
            people.iter().filter(|p| input.team.as_ref().is_none_or(|t| &p.team == t)).collect();
        let offset = input.offset.unwrap_or(0) as usize;
        let limit = input.limit.map_or(usize::MAX, |l| l as usize);
        let page = types::ListOutput {
            total: matching.len() as u64,
            people: matching.into_iter().skip(offset).take(limit).cloned().collect(),
        };
        Ok(Headed::new(page, headers))
    }

    async fn get(&self, _ctx: &Ctx, params: get::Params) -> Result<get::Output, AppError> {
        self.people().iter().find(|p| p.id == params.id).cloned().ok_or_else(|| not_found(&params.id))
    }

    async fn teams(&self, _ctx: &Ctx) -> Result<teams::Output, AppError> {
        let teams: std::collections::BTreeSet<String> = self.people().iter().map(|p| p.team.clone()).collect();
        Ok(teams.into_iter().collect())
    }

    async fn create(
        &self,
        _ctx: &Ctx,
        input: create::Input,
    ) -> Result<Headed<create::Output, create::Headers>, AppError> {
        let mut people = self.people();
        if people.iter().any(|p| p.email == input.email) {
            // The message names no personal field: it reaches tool surfaces as it is.
            return Err(AppError::new(ErrorCode::Conflict, "a person with this email is already in the directory"));
        }
        let person = types::Person {
            id: format!("p{:04}", people.iter().filter_map(|p| p.id[1..].parse::<u32>().ok()).max().unwrap_or(0) + 1),
            name: input.name,
            email: input.email,
            phone: input.phone,
            address: input.address,
            team: input.team,
        };
        people.push(person.clone());
        let location = format!("/people/{}", person.id);
        Ok(Headed::new(person, create::Headers { location }))
    }

    async fn update(
        &self,
        _ctx: &Ctx,
        params: update::Params,
        input: update::Input,
    ) -> Result<update::Output, AppError> {
        let mut people = self.people();
        let p = people.iter_mut().find(|p| p.id == params.id).ok_or_else(|| not_found(&params.id))?;
        if let Some(name) = input.name {
            p.name = name;
        }
        if let Some(email) = input.email {
            p.email = email;
        }
        if input.phone.is_some() {
            p.phone = input.phone;
        }
        if let Some(team) = input.team {
            p.team = team;
        }
        Ok(types::Card { id: p.id.clone(), name: p.name.clone(), team: p.team.clone() })
    }

    async fn delete(&self, ctx: &Ctx, params: delete::Params) -> Result<(), AppError> {
        // Asked on MCP before this runs; an answer that does not tick the box removes nobody.
        if delete::asks::Confirm::of(ctx).is_some_and(|answer| !answer.confirm) {
            return Err(AppError::new(ErrorCode::Conflict, format!("`{}` was not removed: not confirmed", params.id)));
        }
        let mut people = self.people();
        let before = people.len();
        people.retain(|p| p.id != params.id);
        if people.len() == before { Err(not_found(&params.id)) } else { Ok(()) }
    }

    async fn count(&self, _ctx: &Ctx, input: count::Input) -> Result<count::Output, AppError> {
        let n = self.people().iter().filter(|p| input.team.as_ref().is_none_or(|t| &p.team == t)).count();
        Ok(types::CountOutput { count: n as u64 })
    }
}

impl people::Views for Directory {
    fn list(full: &list::Output, _call: &ViewCall<list::Input>) -> list::ToolAnswer {
        let people = full
            .people
            .iter()
            .map(|p| types::Card { id: p.id.clone(), name: p.name.clone(), team: p.team.clone() })
            .collect();
        types::ListToolAnswer { people, total: full.total.into() }
    }
}

impl people::Presenters for Directory {
    fn count_mcp(output: &count::Output) -> Presentation {
        Presentation {
            content: vec![serde_json::json!({ "type": "text", "text": format!("{} people", output.count) })],
            ..Default::default()
        }
    }
    fn count_agent(output: &count::Output) -> Presentation {
        Presentation {
            content: vec![serde_json::json!(format!("The directory holds {} people.", output.count))],
            ..Default::default()
        }
    }
}
